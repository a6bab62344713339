//! Founders and roles as the sentences people write give them, and the people who are not founders.

use super::*;

fn names(text: &str) -> Vec<(String, Option<String>)> {
    let product = ["Birchbill".to_owned()];
    founders_in(text, &product).into_iter().map(|f| (f.name, f.title)).collect()
}

fn person(name: &str, title: Option<&str>) -> (String, Option<String>) {
    (name.to_owned(), title.map(str::to_owned))
}

#[test]
fn founders_are_read_from_the_sentences_people_write() {
    assert_eq!(
        names("Birchbill was started by Jana Dvořáková and Tomáš Novák. Jana is CEO."),
        [person("Jana Dvořáková", None), person("Tomáš Novák", None)]
    );
    assert_eq!(
        names("Birchbill is made by Marta Zielińska (CEO) and her brother Piotr Zieliński, who writes the code."),
        [person("Marta Zielińska", Some("CEO")), person("Piotr Zieliński", None)]
    );
    assert_eq!(
        names("Our founders, Lotte Peeters and Jonas Claes, met while working at a print shop."),
        [person("Lotte Peeters", None), person("Jonas Claes", None)]
    );
    assert_eq!(
        names("Hi, I'm Ben Hughes. I started Birchbill with my wife, Clara Hughes, and we've built it together."),
        [person("Ben Hughes", None), person("Clara Hughes", None)]
    );
    assert_eq!(
        names("Helen Marsh, our managing director, set up the company in 2014 with Colin Ward, who had run sites."),
        [person("Helen Marsh", None), person("Colin Ward", None)]
    );
    assert_eq!(names("Olá! I am Inês Carvalho, founder of Birchbill and the support team."), [person("Inês Carvalho", Some("Founder"))]);
    assert_eq!(
        names("Anna Berg and Jonas Lind founded Birchbill in 2023 after years of invoicing by hand."),
        [person("Anna Berg", None), person("Jonas Lind", None)]
    );
    assert!(names("Anna Berg and Jonas Lind use Birchbill every day.").is_empty());
    assert_eq!(
        names("Birchbill started in 2021, when Aisha Bello (CEO) and Marc Tremblay (CTO) got tired of guessing."),
        [person("Aisha Bello", Some("CEO")), person("Marc Tremblay", Some("CTO"))]
    );
}

#[test]
fn family_names_keep_their_particles() {
    assert_eq!(
        names("Our founders, Noor Khalil and Pieter de Graaf, met at university."),
        [person("Noor Khalil", None), person("Pieter de Graaf", None)]
    );
    assert_eq!(names("— Lucas van der Berg, co-founder of Birchbill"), [person("Lucas van der Berg", Some("co-founder"))]);
    assert!(looks_like_name("Ana dos Santos") && looks_like_name("Ludwig von Mises"));
    assert!(!looks_like_name("de Graaf") && !looks_like_name("Pieter de") && !looks_like_name("van der"), "a particle is inside a name");
}

#[test]
fn founders_are_read_from_lists_brackets_and_quotes() {
    assert_eq!(
        names("Founders: Amina Wekesa — CEO; Daniel Otieno — CTO"),
        [person("Amina Wekesa", Some("CEO")), person("Daniel Otieno", Some("CTO"))]
    );
    assert_eq!(
        names("The company is led by its founders Kai Tanaka (Managing Director) and Helena Gruber (Head of Engineering)."),
        [person("Kai Tanaka", Some("Managing Director")), person("Helena Gruber", Some("Head of Engineering"))]
    );
    assert_eq!(names("When I (Lena Vogt, CEO) started Birchbill, I was alone."), [person("Lena Vogt", Some("CEO"))]);
    assert_eq!(
        names("Marta Silva, Chief Product Officer, joined me as co-founder the year after."),
        [person("Marta Silva", Some("Chief Product Officer"))]
    );
    assert_eq!(
        names("\"Data problems can be solved,\" says Daniel Otieno, co-founder and CTO of Birchbill."),
        [person("Daniel Otieno", Some("co-founder and CTO"))]
    );
    assert_eq!(
        names("Birchbill is run by Mojca Novak, who founded it in 2016. She started it together with her brother, Luka Novak."),
        [person("Mojca Novak", None), person("Luka Novak", None)]
    );
}

#[test]
fn founders_are_read_from_clauses_around_their_names() {
    assert_eq!(
        names("Birchbill has two founders — Lucía Ferrer, who runs product, and Jordi Puig, our engineering lead."),
        [person("Lucía Ferrer", None), person("Jordi Puig", Some("engineering lead"))]
    );
    assert_eq!(
        names("There are two of us who started this. Morag Begg, our MD, does the talking; Ewan Strachan, CTO, does the code."),
        [person("Morag Begg", Some("MD")), person("Ewan Strachan", Some("CTO"))]
    );
    assert_eq!(
        names("I started it together with Lukas Brandt, who is our Co-founder & COO and takes care of the customers."),
        [person("Lukas Brandt", Some("Co-founder & COO"))]
    );
    assert_eq!(
        names("Hello, my name is Katrin Vogel, I am founder and CEO of Birchbill."),
        [person("Katrin Vogel", Some("founder and CEO"))]
    );
}

#[test]
fn founders_are_read_past_descriptions_pronouns_and_quotes() {
    assert_eq!(
        names("Birchbill was started by two former nurses, Aoife Byrne and Kemi Adebayo."),
        [person("Aoife Byrne", None), person("Kemi Adebayo", None)]
    );
    assert_eq!(names("\"People check Google first,\" said co-founder Tomás Rivera."), [person("Tomás Rivera", None)]);
    assert_eq!(names("Nell Ashby, who co-founded Birchbill with Rivera, tested it."), [person("Nell Ashby", None)]);
    assert_eq!(names("A note from our founder, Priya Raman"), [person("Priya Raman", None)]);
    assert_eq!(names("Nadia Sayeed leads engineering. She and Catherine started the company together."), [person("Nadia Sayeed", None)]);
    assert_eq!(without_pronouns("Ines Duarte (she/her), CEO and co-founder"), "Ines Duarte, CEO and co-founder");
    assert_eq!(role_of("Nadia Sayeed", "Nadia Sayeed leads engineering.").as_deref(), Some("leads engineering"));
    assert_eq!(role_of("Aoife Byrne", "Aoife is the company's CEO; Kemi runs the product.").as_deref(), Some("company's CEO"));
}

#[test]
fn founders_are_read_in_a_role_sentence_or_a_possessive() {
    assert_eq!(
        names("Our executive director and co-founder is Adaeze Nwosu."),
        [person("Adaeze Nwosu", Some("executive director and co-founder"))]
    );
    assert_eq!(
        names("\"Tutors hate chasing payments,\" says Amara Nwosu, Birchbill's founder and CEO."),
        [person("Amara Nwosu", Some("founder and CEO"))]
    );
    assert_eq!(
        names("Birchbill is a two-person company: Eva Lind (design) and Pekka Salo (code)."),
        [person("Eva Lind", None), person("Pekka Salo", None)]
    );
    assert!(names("Our support lead is Anna Berg.").is_empty());
    assert_eq!(names("Mikkel Sørensen, who started the foundation with her, still draws the icons."), [person("Mikkel Sørensen", None)]);
    assert_eq!(
        names("Birchbill is run by Sofia and Marco Bellini from a kitchen table."),
        [person("Sofia Bellini", None), person("Marco Bellini", None)]
    );
    assert!(names("says Rob Klein, Shoplane's founder and CEO.").is_empty());
}

#[test]
fn other_people_are_not_founders() {
    assert!(names("Nell Ashby, who co-founded Tablebell in 2015, loves it.").is_empty());
    assert!(names("Birchbill was started by people who care.").is_empty());
    assert!(names("There are two of us who started this. We met at a bakery; Anna sold bread.").is_empty());
    assert!(names("Tiago Moreira, our first hire, joined us in 2019.").is_empty());
    assert!(names("Jan Holm joined Northwind as co-founder in 2011.").is_empty());
    assert!(names("says Daniel Otieno, co-founder and CTO of Northwind.").is_empty());
    assert!(names("She started a bakery with her friend Ana Costa.").is_empty());
    assert!(names("Backed by Sam Altmanson, founder of Northwind Ventures.").is_empty());
    assert!(names("Our advisor Daniel Koh founded Tradelane in 2011.").is_empty());
    assert!(names("Loved by Acme Corp and Brightline.").is_empty());
    assert!(names("I'm Tom Hartley and I love trees.").is_empty());
    assert!(names("Birchbill Notes was built with privacy in mind.").is_empty());
    assert!(names("Hi, I'm Ben Hughes. I built Birchbill with Vue and Tailwind CSS.").iter().all(|(name, _)| name == "Ben Hughes"));
    assert!(names("Made by Acme Studio.").is_empty());
    assert!(names("Join 2,000 Founders Using Birchbill.").is_empty());
}

#[test]
fn roles_are_read_beside_a_name() {
    let text = "Birchbill started in 2021 when Aisha Bello (CEO) joined. Lotte Peeters, our CEO, started it. Jana is CEO and Tomáš codes.";
    assert_eq!(role_of("Aisha Bello", text).as_deref(), Some("CEO"));
    assert_eq!(role_of("Lotte Peeters", text).as_deref(), Some("CEO"));
    assert_eq!(role_of("Jana Dvořáková", text).as_deref(), Some("CEO"));
    assert_eq!(role_of("Tomáš Novák", text), None);
    assert_eq!(role_of("Ben Hughes", "Ben is back in October."), None);
    assert_eq!(role_of("Anna Berg", "Anna Berg, CEO, started it in 2019.").as_deref(), Some("CEO"));
    assert_eq!(role_of("Anna Berg", "Anna Berg — Founder & CEO").as_deref(), Some("Founder & CEO"));
    assert_eq!(role_of("Anna Berg", "Say hello to our CTO, Anna Berg.").as_deref(), Some("CTO"));
    assert_eq!(role_of("Anna Berg", "Anna Berg, who lives in Oslo, plays chess."), None);
    assert_eq!(role_of("Helen Marsh", "Helen Marsh, our managing director, set up the company").as_deref(), Some("managing director"));
}

#[test]
fn founders_are_read_after_a_products_cue_and_past_an_honorific() {
    assert_eq!(
        names("Birchbill co-founders Sam Reyes (CEO) and Ana Petrov (CTO) met at a travel site."),
        [person("Sam Reyes", Some("CEO")), person("Ana Petrov", Some("CTO"))]
    );
    assert_eq!(
        names("Birchbill's founder, Dr. Rachel Whitcombe, spent ten years testing."),
        [person("Rachel Whitcombe", Some("Birchbill's founder"))],
        "the honorific is neither the name's nor the role's"
    );
    assert_eq!(
        names("We are Noor Khalil and Pieter de Graaf, the two people behind Birchbill."),
        [person("Noor Khalil", None), person("Pieter de Graaf", None)]
    );
    assert!(names("We are Noor Khalil and Pieter de Graaf, two designers.").is_empty(), "'we are' alone names no founder");
}
