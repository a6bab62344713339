//! The verdict of each check, from what the adapters found: the TXT records at the verification
//! name (the strings of one record joined; any record may match; a resolver that could not
//! answer is "could not check", never "not found"), the meta tags named for verification in the
//! homepage's head (comments and scripts never count: the adapter reads the parsed head), and the
//! well-known file's body (trimmed). A failed check says what was looked at and what was found.

/// What a check concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// The proof is there: what was looked at.
    Verified { looked_at: String },
    /// Looked, and the proof is not there: what was looked at and what was found.
    NotFound { looked_at: String, found: String },
    /// Could not look (a resolver failure or timeout, a site that did not answer): try again.
    CouldNotCheck { looked_at: String, why: String },
}

/// What a TXT lookup answered: each record as its strings, or why there was no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TxtLookup {
    Records(Vec<Vec<String>>),
    /// The name exists without TXT records, or does not exist (NXDOMAIN).
    None,
    /// SERVFAIL, a timeout, a refused query.
    Failed(String),
}

pub fn dns_verdict(name: &str, lookup: &TxtLookup, expected: &str) -> Check {
    let looked_at = format!("TXT records at {name}");
    match lookup {
        TxtLookup::Failed(why) => Check::CouldNotCheck { looked_at, why: why.clone() },
        TxtLookup::None => Check::NotFound { looked_at, found: "none".into() },
        TxtLookup::Records(records) if records.iter().any(|strings| strings.concat().trim() == expected) => Check::Verified { looked_at },
        TxtLookup::Records(records) => {
            let found = match records.len() {
                0 => "none".to_owned(),
                1 => "found 1 record; it does not match".to_owned(),
                n => format!("found {n} records, none matches"),
            };
            Check::NotFound { looked_at, found }
        }
    }
}

/// `contents`: the `content` of every meta tag with the verification name in the head.
pub fn meta_verdict(url: &str, contents: &[String], expected: &str) -> Check {
    let looked_at = format!("meta tags named for verification in the head of {url}");
    if contents.iter().any(|content| content.trim() == expected) {
        return Check::Verified { looked_at };
    }
    let found = match contents.len() {
        0 => "none".to_owned(),
        1 => "found 1 tag; its content does not match".to_owned(),
        n => format!("found {n} tags, none matches"),
    };
    Check::NotFound { looked_at, found }
}

/// `body`: the file's body (at most 4 KiB, read by the adapter), trimmed before comparing.
pub fn file_verdict(url: &str, body: &str, expected: &str) -> Check {
    if body.trim() == expected {
        return Check::Verified { looked_at: url.to_owned() };
    }
    let shown: String = body.trim().chars().take(60).collect();
    let found = if shown.is_empty() { "an empty file".to_owned() } else { format!("a file that says {shown:?}") };
    Check::NotFound { looked_at: url.to_owned(), found }
}

/// What a site probe found: the thing looked for, an answer without it (a 404, a redirect to
/// another host: what was found instead), or no answer at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe<T> {
    Found(T),
    Missing(String),
    Failed(String),
}

/// The verdict of a probe that did not find what it looked for, or of what it found by `judge`.
pub fn probe_verdict<T>(looked_at: &str, probe: Probe<T>, judge: impl FnOnce(T) -> Check) -> Check {
    match probe {
        Probe::Found(found) => judge(found),
        Probe::Missing(found) => Check::NotFound { looked_at: looked_at.to_owned(), found },
        Probe::Failed(why) => Check::CouldNotCheck { looked_at: looked_at.to_owned(), why },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAME: &str = "_launchdir-verification.acme.com";
    const VALUE: &str = "launchdir-verification=tok";

    #[test]
    fn a_txt_record_split_into_strings_matches_and_any_record_may() {
        let split = TxtLookup::Records(vec![vec!["v=spf1 -all".into()], vec!["launchdir-verif".into(), "ication=tok".into()]]);
        assert!(matches!(dns_verdict(NAME, &split, VALUE), Check::Verified { .. }));
    }

    #[test]
    fn a_missing_record_is_not_found_and_a_failure_is_not_a_verdict() {
        assert_eq!(
            dns_verdict(NAME, &TxtLookup::None, VALUE),
            Check::NotFound { looked_at: format!("TXT records at {NAME}"), found: "none".into() }
        );
        let other = TxtLookup::Records(vec![vec!["a".into()], vec!["b".into()]]);
        assert_eq!(
            dns_verdict(NAME, &other, VALUE),
            Check::NotFound { looked_at: format!("TXT records at {NAME}"), found: "found 2 records, none matches".into() }
        );
        assert!(matches!(dns_verdict(NAME, &TxtLookup::Failed("SERVFAIL".into()), VALUE), Check::CouldNotCheck { .. }));
    }

    #[test]
    fn meta_and_file_compare_the_token_exactly_after_trimming() {
        assert!(matches!(meta_verdict("https://acme.com/", &["wrong".into(), " tok ".into()], "tok"), Check::Verified { .. }));
        assert!(matches!(meta_verdict("https://acme.com/", &[], "tok"), Check::NotFound { found, .. } if found == "none"));
        assert!(matches!(file_verdict("https://acme.com/.well-known/launchdir-verification.txt", "tok\n", "tok"), Check::Verified { .. }));
        assert!(matches!(file_verdict("u", "tokx", "tok"), Check::NotFound { .. }));
    }
}
