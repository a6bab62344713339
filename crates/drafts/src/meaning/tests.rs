//! Tests of `meaning`.

use super::*;

#[test]
fn founders_are_people_who_founded_this_product() {
    let names = vec!["Quillpad".to_owned()];
    assert!(names_founding_people("Ines Duarte, Co-founder & CEO"));
    assert!(names_founding_people("Metricly was founded in 2019 in Lisbon by Ines Duarte"));
    assert!(names_founding_people("Kassenfuchs wurde 2020 von Lena Vogel gegründet"));
    assert!(names_founding_people("Fondé par Camille Martin"));
    assert!(!names_founding_people("Jonas Berg, CTO"));
    assert!(!names_founding_people("Founded in 2019."));
    assert!(!names_founding_people("Quillpad was founded in 2019 and is backed by Sequoia Capital."));
    assert!(!names_founding_people("Loved by teams. Founded in 2019."));
    assert!(founder_of_another("Dana Reyes, CEO and founder of Brightline", &names));
    assert!(founder_of_another("Sam Lee, Founder & CEO at Brightline", &names));
    assert!(founder_of_another("Maria Huber, Gründerin der Bäckerei Huber", &names));
    assert!(founder_of_another("Founder of Quillbot", &names));
    assert!(!founder_of_another("Co-founder & CEO of Quillpad", &names));
    assert!(!founder_of_another("Mara Lindqvist, founder of Quillpad", &names));
    assert!(!founder_of_another("Mara Lindqvist, founder", &names));
    assert!(!founder_of_another("Our founders, Priya Raman and Josh Whitlock, met at a plant swap.", &names));
}

#[test]
fn founding_years_sit_next_to_their_word() {
    let names = ["Teigwerk".to_owned(), "Amberpost".to_owned()];
    let year = |text| founding_year_in(text, &names);
    assert_eq!(year("Serving bakeries since 2021."), Some("2021"));
    assert_eq!(year("In 2023 we moved; founded in 2019."), Some("2019"));
    assert_eq!(year("Relaunched in 2023. Founded in 2016."), Some("2016"));
    assert_eq!(year("Teigwerk wurde 2021 von Lena Vogel gegründet."), Some("2021"));
    assert_eq!(year("Read the latest. 2024 was our best year"), None);
    assert_eq!(year("Auf dieser Seite 2020"), None);
    // A dash before the word (three bytes) once cut a character in two.
    assert_eq!(year("2015 — first line of code, written in the evenings after work"), Some("2015"));
    assert_eq!(year("Teigwerk — founded in 2019 in Vienna."), Some("2019"));
    assert_eq!(year("Teigwerk was founded by Lena Vogel and Jonas Berg in 2018."), Some("2018"));
    assert_eq!(year("Teigwerk is a bakery app. It has been developed in the open since 2015."), Some("2015"));
    assert_eq!(year("It all began in 2017, when Jonas's blog reached 800 readers."), Some("2017"));
    assert_eq!(year("I have worked on a cardiology ward in Freiburg since 2014."), None, "a person's work");
    assert_eq!(year("Nordhafen Capital, a Hamburg fund that has backed software companies since 2009"), None);
    assert_eq!(year("© 2014 Ledgerly Ltd."), None);
    // The verbs people use, tied to the product.
    assert_eq!(year("Since we launched Amberpost in 2021, it has found 90 million broken links."), Some("2021"));
    assert_eq!(year("Amberpost began as a side project in 2020."), Some("2020"));
    assert_eq!(year("So in 2021 we started Amberpost, first only for me."), Some("2021"));
    // Someone else's founding or history.
    assert_eq!(year("Carrow Builders, a Swindon contractor in business since 1998, runs it."), None);
    assert_eq!(year("Our advisor Daniel Koh founded Tradelane in 2011."), None);
    assert_eq!(year("We thank Paul Whitfield, who founded Northgate Payroll in 2009."), None);
    assert_eq!(year("Café Solrosen, a Lund institution since 1987, plans its posts in Amberpost."), None);
    assert_eq!(year("We launched our API in 2023."), None);
    assert_eq!(year("We launched dark mode in 2022."), None);
    assert_eq!(year("Amberpost launched in 2022."), Some("2022"));
    assert_eq!(year("Wir haben Teigwerk 2020 gegründet, GROẞE Pläne."), Some("2020"));
    assert_eq!(year("We started tinkering on Amberpost in the spring of 2017, when Morag sold yarn."), Some("2017"));
    assert_eq!(year("Amberpost was incorporated in 2020 in Nairobi."), Some("2020"));
    assert_eq!(year("The company dates back to 2011."), Some("2011"));
    assert_eq!(year("We incorporated Stripe in 2021."), None);
    assert_eq!(year("Amberpost was born in the winter of 2016, in a garage."), Some("2016"));
    assert_eq!(year("I was born in 1985 and we built Amberpost later."), None);
    assert_eq!(year("Since 2021 Amberpost is my full-time work."), None);
    assert_eq!(year("Graham Oduya has sat on our board since 2016."), None);
    assert_eq!(year("Amberpost has been on every dashboard since 2015."), Some("2015"));
    assert_eq!(year("We opened in March 2016, which meant me and a soldering station."), Some("2016"));
    assert_eq!(year("I wrote the first version of Amberpost in 2017, after a winter of notes."), Some("2017"));
    assert_eq!(year("We work together with Notestand, which was founded in 2012 and lends music."), None);
    assert_eq!(year("In 2019, after two years of evenings and weekends, we launched Amberpost."), Some("2019"));
    assert_eq!(year("In 2022, after two years of evenings and weekends, we launched our API."), None);
    assert_eq!(year("The foundation was registered in 2020 to keep the icons free."), Some("2020"));
    assert_eq!(year("We have lived in England since 2009, and Amberpost is our third project."), None);
    assert_eq!(year("Amberpost Ltd is registered in England and Wales, company no. 08012345, since 2019."), Some("2019"));
    assert_eq!(years_in("12019 and 2019"), vec![(10, "2019")]);
}

#[test]
fn structured_founders_offers_and_reviews() {
    let page = Page {
        url: "https://a.example/".into(),
        json_ld: vec![serde_json::json!({
            "@type": "Organization",
            "name": "Quillpad",
            "foundingDate": "2020-01-01",
            "founder": {"@type": "Person", "name": "Mara Lindqvist"},
            "review": {"@type": "Review", "author": {"@type": "Person", "name": "Dana Reyes", "jobTitle": "Founder of Brightline"}},
            "offers": {"@type": "Offer", "price": "12"}
        })],
        ..Page::default()
    };
    let values = structured_values(&page);
    let find = |text: &str| values.iter().find(|v| v.text == text).unwrap();
    assert!(find("Mara Lindqvist").supports(Subject::Founder));
    assert_eq!(find("Dana Reyes").role(), BlockRole::Testimonial);
    assert!(find("12").supports(Subject::Field(FieldName::PricingSummary)));
    assert!(!find("Quillpad").supports(Subject::Field(FieldName::PricingSummary)));
    assert!(find("2020-01-01").supports(Subject::Field(FieldName::FoundedYear)));
}

#[test]
fn roles_support_what_they_can() {
    assert!(!BlockRole::Testimonial.can_support(Subject::Founder));
    assert!(!BlockRole::Partner.can_support(Subject::Field(FieldName::PricingSummary)));
    assert!(BlockRole::Partner.can_support(Subject::Field(FieldName::Features)));
    assert!(!BlockRole::Roadmap.can_support(Subject::Field(FieldName::Features)));
    assert!(BlockRole::Roadmap.can_support(Subject::Faq), "an FAQ's answer may say what is coming");
    assert!(!BlockRole::Copyright.can_support(Subject::Field(FieldName::FoundedYear)));
    assert!(BlockRole::Footer.can_support(Subject::Field(FieldName::ContactEmail)));
    assert!(is_roadmap_text("Calendar sync (coming soon)"));
}

#[test]
fn headings_labels_and_texts_give_roles() {
    assert_eq!(role_of_heading("What our customers say"), Some(BlockRole::Testimonial));
    assert_eq!(role_of_heading("Integrations"), Some(BlockRole::Partner));
    assert_eq!(role_of_heading("Tidyform vs. Typeform"), Some(BlockRole::Comparison));
    assert_eq!(role_of_heading("Compare plans"), None);
    assert_eq!(role_of_heading("Coming soon"), Some(BlockRole::Roadmap));
    assert_eq!(role_of_heading("Cookie settings"), Some(BlockRole::CookieBanner));
    assert_eq!(role_of_heading("This website uses cookies"), Some(BlockRole::CookieBanner));
    assert_eq!(role_of_heading("Know what's selling. Skip the cookie banner."), None);
    assert_eq!(role_of_heading("Cookie-free analytics"), None);
    assert!(crate::meaning::is_founders_signature("— Declan Foley, Founder & Lead Developer"));
    assert!(!crate::meaning::is_founders_signature("— Dana Reyes, founder of Brightline"));
    assert!(!crate::meaning::is_founders_signature("— Iona, who runs Kiln & Thistle Pottery"));
    assert!(crate::meaning::is_founders_signature("— Kwame Mensah, Chief Executive"), "a post signed with its author's role");
    assert!(!crate::meaning::founder_of_another("José Álvarez — Co-Founder & Head of Machine Learning", &[]), "a second role's 'of'");
    assert!(crate::meaning::founder_of_another("Priya Shah, co-founder of Lanterna", &[]));
    assert!(!crate::meaning::is_founders_signature("— Dana Reyes, CEO of Brightline"), "a role at another company");
    assert_eq!(role_of_heading("Features"), None);
    assert_eq!(role_of_heading("Code reviews in minutes"), None);
    assert_eq!(role_of_heading("Your payroll partner"), None);
    assert_eq!(role_of_heading("Never miss an upcoming deadline"), None);
    assert_eq!(role_of_label("hero preview"), None);
    assert!(labels(Subject::Founder, "Our team") && !labels(Subject::Founder, "Built for teams"));
    assert!(!labels(Subject::Field(FieldName::PricingSummary), "about") && !labels(Subject::Founder, "Our history"));
    assert_eq!(role_of_label("cookie-banner"), Some(BlockRole::CookieBanner));
    assert_eq!(role_of_label("section testimonials"), Some(BlockRole::Testimonial));
    assert_eq!(role_of_label("https://schema.org/Review"), Some(BlockRole::Testimonial));
    assert_eq!(role_of_label("table vs-table"), Some(BlockRole::Comparison));
    assert_eq!(role_of_label("hero"), None);
    assert_eq!(role_of_text("© 2014–2026 Ledgerly Ltd."), Some(BlockRole::Copyright));
    assert_eq!(role_of_text("We use cookies to measure visits."), Some(BlockRole::CookieBanner));
    assert_eq!(role_of_text("— Dana Reyes, CEO and founder of Brightline"), Some(BlockRole::Testimonial));
    assert_eq!(role_of_text("“It saved us hours.” — Dana Reyes"), Some(BlockRole::Testimonial));
    assert_eq!(role_of_text("Metricly works without cookies."), None);
}
