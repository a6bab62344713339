//! Where the company is, as its sentences, address lines and footers say it, and never a customer's or a person's place.

use super::*;

fn places(text: &str) -> Vec<(Option<String>, Option<&'static str>)> {
    company_places(text, &["Brightlog".to_owned()]).into_iter().map(|p| (p.city, p.country)).collect()
}

#[test]
fn the_gazetteer_knows_cities_and_when_a_name_is_ambiguous() {
    assert_eq!(country_of_city("Porto"), Some("PT"));
    assert_eq!(country_of_city("Kraków"), Some("PL"));
    assert_eq!(country_of_city("krakow"), Some("PL"));
    assert_eq!(country_of_city("Valencia"), None);
    assert_eq!(country_of_city("Aarhus"), Some("DK"));
    assert!(cities_named("Notion").is_empty());
    assert_eq!((country_of_city("Cologne"), country_of_city("Ghent"), country_of_city("Seville")), (Some("DE"), Some("BE"), Some("ES")));
}

#[test]
fn a_city_named_before_its_quarter_is_the_city() {
    assert_eq!(places("We work from a former print shop in Cologne's Ehrenfeld, with six desks."), [(Some("Cologne".into()), Some("DE"))]);
    assert!(places("From a hospice shop in Harrogate to a rowing club, most of our charities are small.").is_empty(), "examples");
    assert_eq!(
        address_places("Duneberry Pty Ltd · Level 1, 30 Peel Street · Adelaide SA 5000 · Australia"),
        [CompanyPlace { city: Some("Adelaide".into()), country: Some("AU") }]
    );
}

#[test]
fn sentences_about_the_company_give_its_place() {
    assert_eq!(places("We are based in Porto."), [(Some("Porto".into()), Some("PT"))]);
    assert_eq!(places("Brightlog is made in Leeds, UK."), [(Some("Leeds".into()), Some("GB"))]);
    assert_eq!(places("We're headquartered in Austin, Texas."), [(Some("Austin".into()), Some("US"))]);
    assert_eq!(places("We're a small Dutch company."), [(None, Some("NL"))]);
    assert_eq!(places("Brightlog Ltd is a wee company in Edinburgh, Scotland."), [(Some("Edinburgh".into()), Some("GB"))]);
    assert!(places("Our first customer was a coffee company in Lyon.").is_empty());
    assert_eq!(places("Now we are a small team of six persons in Porto, near the river."), [(Some("Porto".into()), Some("PT"))]);
    assert_eq!(places("Brightlog · made with a lot of coffee in Porto, Portugal"), [(Some("Porto".into()), Some("PT"))]);
    assert!(places("Our QA engineer works remote from Bilbao and visits every month.").is_empty());
    assert!(places("Our developer Piotr Nowak works from Poznań, Poland.").is_empty());
    assert!(places("We love Patel & Sons, a tailoring shop in Leicester with eleven staff.").is_empty());
    assert_eq!(places("Brightlog, a small company in Leeds, UK, makes it."), [(Some("Leeds".into()), Some("GB"))]);
    assert_eq!(places("Brightlog is a one-person shop in Halifax, Nova Scotia, Canada."), [(Some("Halifax".into()), Some("CA"))]);
    let imprint = "Brightlog GmbH, Neubaugasse 12/4, 1070 Vienna, Austria. Commercial register number FN 000000x, Commercial \
                   Court of Vienna. Managing director and responsible for the content of this site under media law: Jana Novak.";
    let short =
        "Brightlog GmbH, Neubaugasse 12/4, 1070 Vienna, Austria. Commercial register number FN 000000x, Commercial Court of Vienna.";
    assert_eq!(address_places(short), [CompanyPlace { city: Some("Vienna".into()), country: Some("AT") }]);
    let at = |city: &str, country: &'static str| vec![CompanyPlace { city: Some(city.into()), country: Some(country) }];
    assert_eq!(address_places("Brindlepad Sàrl · Avenue de Sévelin 20 · 1004 Lausanne · Switzerland"), at("Lausanne", "CH"));
    assert_eq!(address_places("Thimbleway Ltd · 3 Broadway, Lace Market, Nottingham NG1 1PS, England"), at("Nottingham", "GB"));
    assert_eq!(address_places("Our registered office: 9 Howley's Quay, Limerick, V94 X2K7, Ireland"), at("Limerick", "IE"));
    assert_eq!(places("Headquarters: Lisbon"), [(Some("Lisbon".into()), Some("PT"))]);
    assert_eq!(address_places("Kingfisherly GmbH · Hamburg"), at("Hamburg", "DE"));
    assert_eq!(address_places("Quartzline GmbH Neubaugasse 12/4 1070 Vienna Austria"), at("Vienna", "AT"));
    assert_eq!(places("Made by Claire and Julien Morel, in Nantes, France."), [(Some("Nantes".into()), Some("FR"))]);
    assert_eq!(places("Brightlog is made on the island of Gotland, Sweden (Visby)."), [(None, Some("SE"))]);
    assert_eq!(places("We sit in a room above a bakery in Turku, Finland."), [(Some("Turku".into()), Some("FI"))]);
    assert_eq!(places("Brightlog is made and supported by one person in Eugene, Oregon."), [(Some("Eugene".into()), Some("US"))]);
    assert_eq!(places("We're based between Bergen and Oslo."), [(Some("Bergen".into()), None)]);
    assert_eq!(places("Brightlog is made in a small studio on the Isle of Skye, Scotland."), [(None, Some("GB"))]);
    assert_eq!(places("We're a remote-first team registered in Tallinn, Estonia."), [(Some("Tallinn".into()), Some("EE"))]);
    assert_eq!(address_places(imprint), [CompanyPlace { city: Some("Vienna".into()), country: Some("AT") }]);
    assert_eq!(places("I run it from Melbourne, Australia."), [(Some("Melbourne".into()), Some("AU"))]);
    assert_eq!(places("Our team in Valencia, Spain ships every week."), [(Some("Valencia".into()), Some("ES"))]);
    assert_eq!(places("Our office is in Valencia."), [(Some("Valencia".into()), None)]);
    assert_eq!(places("We're based in Gdańsk."), [(Some("Gdańsk".into()), Some("PL"))]);
    assert!(places("We're a small team in Berlin on a mission.").contains(&(Some("Berlin".into()), Some("DE"))));
    assert_eq!(places("Our office is in London, Ontario."), [(Some("London".into()), None)]);
    assert!(places("We İ based in Porto ẞ.").len() <= 1, "no panic on letters whose lower case changes length");
    assert!(places("Our North American team ships daily.").is_empty());
    assert_eq!(places("Founded in 2019 in Berlin, Germany."), [(Some("Berlin".into()), Some("DE"))]);
    assert_eq!(places("Made in Leeds."), [(Some("Leeds".into()), Some("GB"))]);
}

#[test]
fn other_peoples_places_are_not_the_companys() {
    assert!(places("Our first customer, a bakery based in Berlin, loves it.").is_empty());
    assert!(places("We're hiring a remote engineer in Lisbon.").is_empty());
    assert!(places("Backed by investors from London.").is_empty());
    assert!(places("Import your notes from Notion in one click.").is_empty());
    assert!(places("A bakery in Berlin uses it every day.").is_empty());
    assert!(places("We took a small investment from a group of shop owners from Antwerp.").is_empty());
}

#[test]
fn address_lines_give_the_city_before_the_country() {
    let codes = |text| address_places(text).into_iter().map(|p| (p.city, p.country)).collect::<Vec<_>>();
    assert_eq!(codes("© 2024 Brightlog Ltd · Bristol, England"), [(Some("Bristol".into()), Some("GB"))]);
    assert_eq!(codes("Rua das Flores 12, 4050-262 Porto, Portugal"), [(Some("Porto".into()), Some("PT"))]);
    assert!(codes("Loved by customers in Berlin, Germany").is_empty());
    assert!(codes("our servers run in Frankfurt, Germany").is_empty());
}
