//! Tests of the offline VAT number checks: a valid and a wrong-check-digit number of each member state, the special forms, format errors and normalisation (cross-checked against python-stdnum).
use super::*;

/// Accepted by python-stdnum 2.2 (most from its docstrings), with the form it normalises to.
#[rustfmt::skip]
const VALID: &[(&str, &str)] = &[
    ("ATU13585627", "ATU13585627"),
    ("BE0428759497", "BE0428759497"), ("BE428759497", "BE0428759497"), ("BE(0)428759497", "BE0428759497"),
    ("BG175074752", "BG175074752"), ("BG8032056031", "BG8032056031"), ("BG7111042925", "BG7111042925"),
    ("CY10259033P", "CY10259033P"),
    ("CZ25123891", "CZ25123891"), ("CZ7103192745", "CZ7103192745"), ("CZ640903926", "CZ640903926"), ("CZ991231123", "CZ991231123"),
    ("DE136695976", "DE136695976"),
    ("DK13585628", "DK13585628"),
    ("EE100594102", "EE100594102"),
    ("ESB64717838", "ESB64717838"), ("ESA13585625", "ESA13585625"), ("ESJ99216582", "ESJ99216582"),
    ("ES54362315K", "ES54362315K"), ("ESX5253868R", "ESX5253868R"), ("ESM1234567L", "ESM1234567L"),
    ("FI20774740", "FI20774740"),
    ("FR61954506077", "FR61954506077"), ("FRK7399859412", "FRK7399859412"), ("FR4Z123456782", "FR4Z123456782"),
    ("EL094259216", "EL094259216"), ("GR94259216", "EL094259216"),
    ("HR33392005961", "HR33392005961"),
    ("HU12892312", "HU12892312"),
    ("IE6433435F", "IE6433435F"), ("IE6433435OA", "IE6433435OA"), ("IE8D79739I", "IE8D79739I"),
    ("IT00743110157", "IT00743110157"),
    ("LT119511515", "LT119511515"), ("LT100001919017", "LT100001919017"), ("LT100004801610", "LT100004801610"),
    ("LU15027442", "LU15027442"),
    ("LV40003521600", "LV40003521600"), ("LV16117519997", "LV16117519997"), ("LV32867300679", "LV32867300679"),
    ("MT11679112", "MT11679112"),
    ("NL004495445B01", "NL004495445B01"), ("NL4495445B01", "NL004495445B01"), ("NL002455799B11", "NL002455799B11"),
    ("PL8567346215", "PL8567346215"),
    ("PT501964843", "PT501964843"),
    ("RO18547290", "RO18547290"), ("RO1630615123457", "RO1630615123457"),
    ("SE123456789701", "SE123456789701"),
    ("SI50223054", "SI50223054"),
    ("SK2022749619", "SK2022749619"), ("SK7103192745", "SK7103192745"),
];

/// Refused by python-stdnum 2.2 with InvalidChecksum.
#[rustfmt::skip]
const WRONG_CHECK: &[&str] = &[
    "ATU13585626", "BE0431150351", "BG175074751", "BG7111042922", "CY10259033Z", "CZ25123890", "CZ7103192746", "DE136695978",
    "DK13585627", "EE100594103", "ESB64717839", "ES54362315Z", "ESX5253868A", "FI20774741", "FR84323140391", "EL123456781",
    "HR33392005962", "HU12892313", "IE6433435E", "IT00743110158", "LT100001919018", "LU15027443", "LV40003521601", "LV32867300677",
    "MT11679113", "NL123456789B90", "PL8567346216", "PT501964842", "RO18547291", "RO1630615123458", "SE123456789101", "SI50223055",
    "SK2022749618",
];

fn countries<'a>(numbers: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut countries: Vec<&str> = numbers.into_iter().map(|n| if n.starts_with("EL") { "GR" } else { &n[..2] }).collect();
    countries.dedup();
    countries
}

fn normalised(raw: &str) -> Result<String, VatNumberError> {
    VatNumber::parse(raw).map(|n| n.as_str().to_owned())
}

#[test]
fn member_states_are_sorted_iso_codes() {
    assert!(MEMBER_STATES.is_sorted());
    assert!(MEMBER_STATES.contains(&"GR") && !MEMBER_STATES.contains(&"EL"));
}

#[test]
fn valid_numbers_of_every_member_state() {
    for &(raw, expected) in VALID {
        assert_eq!(normalised(raw), Ok(expected.to_owned()), "{raw}");
    }
    assert_eq!(countries(VALID.iter().map(|v| v.0)), MEMBER_STATES);
}

#[test]
fn wrong_check_digits_of_every_member_state() {
    for &raw in WRONG_CHECK {
        assert_eq!(VatNumber::parse(raw), Err(CheckDigits), "{raw}");
    }
    assert_eq!(countries(WRONG_CHECK.iter().copied()), MEMBER_STATES);
}

#[test]
fn format_errors() {
    for raw in [
        "DE",
        "DE13669597",
        "DE1366959761",
        "DE036695976",
        "DE13669597A",
        "ATX13585627",
        "BE2428759497",
        "CY12000001X",
        "CZ1103492745",
        "CZ590312123",
        "ESO1234567L",
        "FRIO334175221",
        "IE8?79739J",
        "LV16137519997",
        "NL004495445A01",
        "NL000000000B01",
        "RO1630615993454",
        "RO0123",
        "SE123456789702",
        "DE13669597\u{0666}",
        "FRÅ1234567890",
        "DE136/695/976",
    ] {
        assert_eq!(VatNumber::parse(raw), Err(Format), "{raw}");
    }
}

#[test]
fn unknown_prefixes() {
    for raw in ["", "D", "136695976", "XX136695976", "GB123456789", "XI123456789", "EU372000041", "ÄT13585627", "€1"] {
        assert_eq!(VatNumber::parse(raw), Err(UnknownCountry), "{raw}");
    }
}

#[test]
fn greece_is_read_as_el() {
    for raw in ["GR094259216", "gr 094 259 216", "EL094259216"] {
        let number = VatNumber::parse(raw).expect(raw);
        assert_eq!((number.as_str(), number.prefix(), number.country(), number.local()), ("EL094259216", "EL", "GR", "094259216"));
    }
}

#[test]
fn separators_and_lower_case_are_normalised() {
    for (raw, expected) in [
        (" de 136.695-976 ", "DE136695976"),
        ("fr 61 954 506 077", "FR61954506077"),
        ("esx-5253868-r", "ESX5253868R"),
        ("nl4495445b01", "NL004495445B01"),
        ("BE 0428.759.497", "BE0428759497"),
        ("ie 6433435oa", "IE6433435OA"),
        ("AT\u{a0}U1358\u{2013}5627\t", "ATU13585627"),
    ] {
        assert_eq!(normalised(raw), Ok(expected.to_owned()), "{raw}");
    }
    let number = VatNumber::parse("de 136695976").expect("valid");
    assert_eq!((number.prefix(), number.country(), number.local()), ("DE", "DE", "136695976"));
}

#[test]
fn errors_read_as_plain_english() {
    for error in [UnknownCountry, Format, CheckDigits] {
        assert!(error.to_string().starts_with("the "));
    }
}

/// Random strings, and valid numbers with one character replaced, never panic, and what parses normalises to itself.
#[test]
fn no_panic_on_any_input() {
    const CHARS: &[char] =
        &['0', '1', '5', '9', 'A', 'B', 'U', 'x', '(', ')', ' ', '.', '-', '+', '*', 'é', 'ß', '€', '\u{0663}', '\u{ff11}', '😀'];
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state % bound as u64).unwrap_or(0)
    };
    for round in 0..20_000_u32 {
        let raw: String = if round.is_multiple_of(2) {
            let length = next(16);
            PREFIXES[next(27)].chars().chain((0..length).map(|_| CHARS[next(CHARS.len())])).collect()
        } else {
            let mut chars: Vec<char> = VALID[next(VALID.len())].0.chars().collect();
            let at = next(chars.len());
            chars[at] = CHARS[next(CHARS.len())];
            chars.into_iter().collect()
        };
        if let Ok(number) = VatNumber::parse(&raw) {
            assert_eq!(VatNumber::parse(number.as_str()).as_ref(), Ok(&number), "{raw}");
        }
    }
}
