//! Free and disposable mail domains: a mailbox anyone can open there proves nothing about a
//! company. The lists are maintained elsewhere and kept as text in `data/` (sources, versions
//! and licences in `data/README.md`), compiled in and read into one set on first use.

use std::collections::HashSet;
use std::sync::LazyLock;

/// The three lists, one domain a line, `#` starting a comment line.
const LISTS: [&str; 3] = [
    include_str!("../data/free_mail_domains.txt"),
    include_str!("../data/disposable_mail_domains.txt"),
    include_str!("../data/free_mail_additions.txt"),
];

static DOMAINS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    LISTS.iter().flat_map(|list| list.lines()).map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')).collect()
});

/// Whether `domain` (lower-case, no trailing dot) is named by the lists. Only the name itself:
/// the caller decides which parents of an address's domain to ask about.
pub fn listed(domain: &str) -> bool {
    DOMAINS.contains(domain)
}

/// Whether `domain` or a parent of it down to `registrable` (the domain's registrable domain, a
/// suffix of it) is listed: `mail.yahoo.co.uk` is free mail because `yahoo.co.uk` is.
pub fn free_or_disposable(domain: &str, registrable: &str) -> bool {
    let mut rest = domain;
    loop {
        if listed(rest) {
            return true;
        }
        if rest.len() <= registrable.len() {
            return false;
        }
        match rest.split_once('.') {
            Some((_, parent)) => rest = parent,
            None => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lists_hold_thousands_of_domains_each_a_plain_lower_case_name() {
        assert!(DOMAINS.len() > 15_000, "{} domains", DOMAINS.len());
        for list in LISTS {
            for line in list.lines().filter(|line| !line.starts_with('#')) {
                let fine = line.contains('.')
                    && !line.starts_with('.')
                    && !line.ends_with('.')
                    && line.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.');
                assert!(fine, "{line:?} is not a lower-case domain");
            }
        }
    }

    #[test]
    fn well_known_free_and_disposable_services_are_listed_and_companies_are_not() {
        for free in ["gmail.com", "outlook.com", "yahoo.co.uk", "icloud.com", "proton.me", "hey.com", "mailinator.com", "gmx.de"] {
            assert!(listed(free), "{free}");
        }
        for company in ["zendesk.com", "acme.com", "example.com", "github.com", "stripe.com"] {
            assert!(!listed(company), "{company}");
        }
    }

    #[test]
    fn a_subdomain_of_a_listed_domain_is_listed_down_to_the_registrable_domain() {
        assert!(free_or_disposable("mail.yahoo.co.uk", "yahoo.co.uk"));
        assert!(free_or_disposable("gmail.com", "gmail.com"));
        assert!(!free_or_disposable("mail.acme.com", "acme.com"));
        // Never above the registrable domain: `co.uk` is nobody's mail service, and asking about
        // it would be asking about every British company.
        assert!(!free_or_disposable("acme.co.uk", "acme.co.uk"));
    }
}
