//! What the product costs, sentence by sentence: which sentences state its own price or a free
//! tier ("Arbolog is free for up to 3 projects", "Pro is £4 a month"), which state someone
//! else's ("Twilio bills from $0.0079 per message", "unlike Mockforge at $99/month"), and the
//! pricing model they add up to. The extractive drafter writes `pricing_summary` and
//! `pricing_model` from the product's own sentences, and the grounding check refuses a price
//! that only someone else's sentence states.

use crate::meaning::{self, has_phrase};

/// Pricing models a draft may name, each with words a quote must contain for it.
pub const PRICING_MODELS: &[(&str, &[&str])] = &[
    ("free", &["free", "costs nothing"]),
    (
        "freemium",
        &[
            "free plan",
            "free forever",
            "freemium",
            "free tier",
            "free for",
            "free version",
            "is free",
            "are free",
            "stay free",
            "costs nothing",
            "free up to",
            "free account",
        ],
    ),
    ("free_trial", &["free trial", "trial", "try it free for", "days free"]),
    (
        "subscription",
        &[
            "/month",
            "/mo",
            "per month",
            "a month",
            "monthly",
            "/year",
            "per year",
            "a year",
            "yearly",
            "annually",
            "/user",
            "subscription",
            "pro monat",
            "/monat",
            "monatlich",
            "par mois",
            "al mes",
            "al mese",
            "and month",
            "and year",
        ],
    ),
    ("one_time", &["one-time", "one time", "lifetime", "pay once", "one payment", "once, and", "no subscription"]),
    ("open_source", &["open source", "open-source"]),
    (
        "usage_based",
        &[
            "per request",
            "pay as you go",
            "pay-as-you-go",
            "usage-based",
            "per 1,000",
            "per 1000",
            "per message",
            "only pay for what",
            "pay for the requests",
            "priced per",
            "per task",
            "per completed",
            "per call",
            "per api call",
            "per minute",
            "per gb",
            "per transaction",
            "per use",
            "per sms",
            "per text",
        ],
    ),
    ("contact_sales", &["contact sales", "contact us for", "request a quote", "quotation", "talk to sales"]),
];

/// Whether a text states a price: a currency next to a number.
pub fn states_price(text: &str) -> bool {
    let lower = text.to_lowercase();
    let has_digit = lower.chars().any(|c| c.is_ascii_digit());
    // Symbols anywhere; codes and words whole ("EUR", not "Europe" or "entrepreneurs").
    has_digit
        && (["$", "€", "£", "¥"].iter().any(|c| lower.contains(c))
            || ["usd", "eur", "gbp", "chf", "euro", "euros", "dollar", "dollars", "kr", "sek", "nok", "dkk", "cent", "cents"]
                .iter()
                .any(|c| has_phrase(&lower, c)))
}

/// Whether a text states a price above zero ("$0.10", "€7", "49 EUR"), not only "$0".
pub fn states_paid_price(text: &str) -> bool {
    let lower = text.to_lowercase();
    let amounts_after = ["$", "€", "£", "¥"].iter().flat_map(|symbol| lower.match_indices(symbol).map(|(at, s)| &lower[at + s.len()..]));
    // "USD 15/mo".
    let amounts_after_code = ["usd ", "eur ", "gbp ", "chf "]
        .iter()
        .flat_map(|code| lower.match_indices(code).filter(|(at, _)| *at == 0 || !lower[..*at].ends_with(char::is_alphanumeric)))
        .map(|(at, code)| &lower[at + code.len()..]);
    // "49 EUR", "4.50 $ a month".
    let amounts_before = [" usd", " eur", " gbp", " euro", " dollar", " chf", " $", " €", " £", " cent"]
        .iter()
        .flat_map(|code| lower.match_indices(code).map(|(at, _)| &lower[..at]))
        .map(|before| before.rsplit(' ').next().unwrap_or(""));
    amounts_after
        .chain(amounts_after_code)
        .map(|after| after.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == ',')).next().unwrap_or(""))
        .chain(amounts_before)
        .any(|amount| amount.chars().any(|c| c.is_ascii_digit() && c != '0'))
}

/// Whether a sentence offers a free trial, prices by use ("priced per completed task") or asks
/// to be contacted for a price: pricing said without an amount.
pub fn states_pricing_terms(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    PRICING_MODELS
        .iter()
        .filter(|(model, _)| matches!(*model, "free_trial" | "contact_sales" | "usage_based"))
        .any(|(_, cues)| cues.iter().any(|cue| has_phrase(&lower, cue)))
        // "You pay once, inside the app": a one-time price said without its amount ("one time"
        // alone is too often "asked one time").
        || ["pay once", "paid once", "one payment", "no subscription", "one-time payment", "one-time purchase"]
            .iter()
            .any(|cue| has_phrase(&lower, cue))
}

/// Whether a sentence offers the product free for a time ("free for 14 days"):
/// a trial, not a free tier.
pub fn free_for_a_while(text: &str) -> bool {
    let lower = text.to_lowercase();
    let lower = lower.as_str();
    lower.match_indices("free for ").any(|(at, cue)| {
        let rest = &lower[at + cue.len()..];
        let rest = rest.strip_prefix("the first ").unwrap_or(rest);
        let number: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let unit = rest[number.len()..].trim_start();
        !number.is_empty() && ["day", "week", "month"].iter().any(|u| unit.starts_with(u))
    })
}

/// Whether a sentence offers something for free ("free for up to 3 projects", "costs nothing
/// for students", "It's free, and it will stay free").
pub fn states_free_tier(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    if free_for_a_while(&lower) {
        return false;
    }
    PRICING_MODELS
        .iter()
        .filter(|(model, _)| matches!(*model, "free" | "freemium"))
        .any(|(_, cues)| cues.iter().any(|cue| has_phrase(&lower, cue)))
        && !lower.contains("free trial")
        // "pay for the year and two months are free" is a discount, not a free tier.
        && !["months are free", "months free", "month free", "month is free"].iter().any(|discount| lower.contains(discount))
        && !["shipping", "delivery", "returns"].iter().any(|word| lower.contains(word))
}

/// A long price sentence cut after the clause that states its amount ("The Studio plan is £24
/// per user per month" of "… and adds deposits and balances, text reminders …"), so a
/// summary of several plans stays short; a short sentence as it is.
pub fn price_clause(sentence: &str) -> &str {
    if sentence.chars().count() <= 160 {
        return sentence;
    }
    let Some(amount) = sentence.find(['$', '€', '£']) else { return sentence };
    let rest = &sentence[amount..];
    let cut = [", ", "; ", " and ", " with ", " which "].iter().filter_map(|cue| rest.find(cue)).min();
    match cut {
        Some(cut) if sentence[..amount + cut].chars().count() >= 20 => sentence[..amount + cut].trim_end(),
        _ => sentence,
    }
}

/// Whether a short text is a plan's card that says no more than that the plan is free
/// ("Starter — free", "Hobby (free)").
pub fn free_plan_card(text: &str) -> bool {
    let lower = text.to_lowercase();
    let lower = lower.trim_end_matches(['.', ')', '!']);
    text.chars().count() <= 40 && (lower.ends_with(" free") || lower.ends_with("(free"))
}

/// Whether a plan's card says the plan is free: "Starter — free", or just "Free" under the
/// plan's name.
pub fn names_free_plan(text: &str) -> bool {
    free_plan_card(text) || text.trim().eq_ignore_ascii_case("free")
}

/// Words of a sentence that make its price someone else's: a competitor's, a partner's, a
/// provider's, the shipping's.
const SOMEONE_ELSES: &[&str] = &[
    "unlike",
    "compared to",
    "compared with",
    " vs ",
    " vs.",
    "versus",
    "such as",
    " other ",
    " others ",
    "competitor",
    "alternative",
    "which charges",
    "which bills",
    "which costs",
    "which starts",
    "bills from",
    "bills per",
    " bills ",
    "charges us",
    "costs us",
    "cost us",
    "charges about",
    "charges from",
    "charge per seat",
    "we pay",
    "provider",
    "they charge",
    "their price",
    "shipping",
    "delivery",
    "at most",
    "in stores",
    "would cost",
    "used to pay",
    "instead of paying",
    "for comparison",
    " bundle",
    // Sold and billed by a partner: "an add-on for EUR 29 per month, invoiced by Stellenwerk".
    "invoiced by",
    "billed by",
    "sold by",
    // A bonus's value, a running cost, an old price.
    "worth",
    "electricity",
    "back in",
    "used to",
    // The market's price: "Most hosted changelog tools start around $35", "With a classic
    // monitoring service, the same checks can cost around €29".
    "most hosted",
    "tools start",
    "tools cost",
    "tools charge",
    "with a classic",
    "with a typical",
    "a typical ",
    "reseller",
    "refund",
    "money back",
    // An old price: "When we started, Duneberry cost $19 a month".
    "when we started",
    "when we launched",
    // A partner's price: "our partner Linkmoor charges $99 a month".
    "our partner ",
    // What early supporters paid once: "Our early backers on Kickstarter paid NZ$99".
    "backers",
    "kickstarter",
    "crowdfunding",
    // Another kind of product: "A running watch that measures the same things starts at …".
    "the same thing",
];

/// Plan names a price sentence may start with ("Pro is $12 a month").
const PLAN_WORDS: &[&str] = &[
    "pro",
    "professional",
    "agency",
    "small",
    "medium",
    "large",
    "org",
    "organisation",
    "organization",
    "company",
    "scale",
    "advanced",
    "essential",
    "essentials",
    "core",
    "light",
    "lite",
    "max",
    "ultimate",
    "gold",
    "silver",
    "bronze",
    "platinum",
    "community",
    "developer",
    "startup",
    "indie",
    "maker",
    "this",
    "that",
    "your",
    "my",
    "everything",
    "extra",
    "additional",
    "team",
    "teams",
    "business",
    "starter",
    "plus",
    "basic",
    "premium",
    "free",
    "hobby",
    "growth",
    "enterprise",
    "personal",
    "creator",
    "studio",
    "unlimited",
    "solo",
    "standard",
    "individual",
    "family",
    "lifetime",
    "the",
    "our",
    "each",
    "every",
    "one",
    "a",
    "an",
    "it",
    "its",
    "it's",
    "all",
    "plans",
    "plan",
    "pricing",
    "prices",
    "then",
    "after",
    "and",
    "or",
    "for",
    "monthly",
    "yearly",
    "annual",
    "license",
    "licence",
    "seat",
    "seats",
    "users",
    "students",
    "education",
    "nonprofits",
    "non-profits",
];

/// Verbs a price sentence puts between what costs and what it costs.
const PRICE_VERBS: &[&str] =
    &[" costs ", " cost ", " charges ", " charge ", " starts ", " start ", " bills ", " sell ", " sells ", " is ", " are ", " runs "];

/// Whether the sentence's price belongs to a name that is not the product's or a plan's
/// ("Rankhound starts from $129/month", "Shopify's Basic plan costs $39/month").
fn priced_subject_is_another(sentence: &str, product_names: &[String]) -> bool {
    // ASCII lower case keeps every byte offset of `sentence` (the verbs are ASCII).
    let lower = sentence.to_ascii_lowercase();
    let Some(verb_at) = PRICE_VERBS.iter().filter_map(|verb| lower.find(verb)).min() else { return false };
    let subject = &sentence[..verb_at];
    // "Kellokortti, which we used at my old agency, costs €11": the name before the clause is
    // what costs, whoever the clause speaks of.
    let head = subject.split(',').next().unwrap_or(subject);
    if head.len() < subject.len() && head.split_whitespace().count() <= 3 && names_another(head, product_names) {
        return true;
    }
    // "the PayLoom card reader, which PayLoom sell for £29": the clause's own subject sells.
    let clause = subject.rsplit(", ").next().unwrap_or(subject);
    if (clause.starts_with("which ") || clause.starts_with("who ")) && names_another(clause, product_names) {
        return true;
    }
    if meaning::speaks_of_company(&subject.to_lowercase(), product_names) {
        return false;
    }
    names_another(subject, product_names)
}

/// Whether a text names something that is neither the product nor a plan ("Kellokortti",
/// "RosterBridge", "Shopify's"): not a sentence's capitalised first word ("Every lookup"), a
/// thing ("SIM-swap check") or a plan's name ("The Bench plan").
pub fn names_another(text: &str, product_names: &[String]) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.iter().enumerate().any(|(at, word)| {
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
        let bare = bare.strip_suffix("'s").or_else(|| bare.strip_suffix("’s")).unwrap_or(bare);
        let starter = at == 0 && SENTENCE_STARTERS.contains(&bare.to_lowercase().as_str());
        let compound = bare.rsplit('-').next().is_some_and(|last| last.chars().next().is_some_and(char::is_lowercase));
        let plan_name = words.get(at + 1).is_some_and(|next| {
            ["plan", "plans", "tier", "package", "edition", "licence", "license"]
                .contains(&next.trim_matches(|c: char| !c.is_alphanumeric()))
        });
        // "Bittern Full: €8 a month": a word right after the product's name names its plan.
        let own_plan = at > 0
            && product_names.iter().any(|name| {
                name.split_whitespace()
                    .last()
                    .is_some_and(|last| last.eq_ignore_ascii_case(words[at - 1].trim_matches(|c: char| !c.is_alphanumeric())))
            });
        bare.chars().next().is_some_and(char::is_uppercase)
            && !starter
            && !compound
            && !plan_name
            && !own_plan
            && !PLAN_WORDS.contains(&bare.to_lowercase().as_str())
            && !product_names.iter().any(|name| name.split_whitespace().any(|n| n.eq_ignore_ascii_case(bare)))
    })
}

/// Common words a sentence starts with, capitalised only for being first.
const SENTENCE_STARTERS: &[&str] = &[
    "every",
    "each",
    "all",
    "any",
    "the",
    "a",
    "an",
    "this",
    "that",
    "these",
    "those",
    "it",
    "its",
    "your",
    "extra",
    "additional",
    "if",
    "when",
    "for",
    "with",
    "after",
    "then",
    "and",
    "but",
    "so",
    "plus",
    "also",
    "only",
    "both",
    "one",
    "two",
    "most",
    "some",
];

/// Whether a sentence's price is someone else's rather than the product's (`product_names`).
pub fn someone_elses_price(sentence: &str, product_names: &[String]) -> bool {
    // "no other fees" speaks of the product's own price.
    // "no other fees" speaks of the product's own price, and so does "with free delivery".
    let lower =
        format!(" {} ", sentence.to_lowercase()).replace(" no other ", " ").replace("free delivery", "").replace("free shipping", "");
    SOMEONE_ELSES.iter().any(|cue| lower.contains(cue))
        || priced_subject_is_another(sentence, product_names)
        || names_anothers_price(sentence, product_names)
}

/// Whether a sentence puts a price on another name: its possessive ("Notion's $10 plan") or a
/// price in brackets right after it ("integrates with Mailchimp ($29/month)").
fn names_anothers_price(sentence: &str, product_names: &[String]) -> bool {
    let another = |word: &str| names_another(word, product_names);
    let words: Vec<&str> = sentence.split_whitespace().collect();
    words.windows(2).any(|pair| {
        let (name, next) = (pair[0], pair[1]);
        let possessive = name.strip_suffix("'s").or_else(|| name.strip_suffix("’s"));
        let priced_next = states_price(next) || next.starts_with('(') && states_price(next);
        match possessive {
            Some(owner) => another(owner) && (priced_next || states_price(sentence)),
            None => another(name) && next.starts_with('(') && states_price(next),
        }
    }) || words.windows(3).any(|three| {
        // "on DealBarn for 29 $": a marketplace's price.
        three[0] == "on" && another(three[1]) && three[2] == "for"
    }) || {
        // A comparison table's row: "Remindly Pro €29 a month".
        let price_at = words.iter().position(|word| states_price(word));
        price_at
            .is_some_and(|at| (1..=3).contains(&at) && words[..at].iter().all(|word| word.chars().next().is_some_and(char::is_uppercase)))
            && another(&words[..price_at.unwrap_or(0)].join(" "))
    }
}

/// The sentences of `text` that state the product's own price, free tier, trial or "contact
/// us for a quote", never as a question. On the product's pricing (`labelled`) any such
/// sentence will do; elsewhere the text must name the product.
pub fn own_price_sentences<'a>(text: &'a str, labelled: bool, product_names: &[String]) -> Vec<&'a str> {
    if !labelled && !meaning::names_product(text, product_names) {
        return Vec::new();
    }
    meaning::sentences(text)
        .into_iter()
        .filter(|sentence| !sentence.ends_with('?'))
        .filter(|sentence| states_price(sentence) || states_free_tier(sentence) || states_pricing_terms(sentence))
        .filter(|sentence| !someone_elses_price(sentence, product_names))
        .collect()
}

/// The pricing model the product's own price sentences add up to, with the sentence that says
/// so: open source first, then usage-based, a free tier beside a price, a free trial, a
/// one-time price, a subscription, a quote on request, and free.
pub fn pricing_model<'a>(sentences: &[&'a str]) -> Option<(&'static str, &'a str)> {
    let cue = |model: &str| sentences.iter().copied().find(|sentence| cue_of(model, sentence));
    let paid = sentences.iter().any(|sentence| states_paid_price(sentence));
    let free = sentences.iter().copied().find(|sentence| states_free_tier(sentence));
    if let Some(open) = cue("open_source") {
        return Some(("open_source", open));
    }
    if paid && let Some(usage) = cue("usage_based") {
        return Some(("usage_based", usage));
    }
    // A plan free for good makes the product freemium, with or without a trial of the others.
    // "You pay once: the app is free" prices a device, not a free tier.
    let tier = |sentence: &&str| {
        states_free_tier(sentence) && (cue_of("freemium", sentence) || names_free_plan(sentence)) && !cue_of("one_time", sentence)
    };
    if paid && let Some(free) = sentences.iter().copied().find(tier) {
        return Some(("freemium", free));
    }
    if paid
        && let Some(trial) = sentences.iter().copied().find(|sentence| {
            let lower = sentence.to_lowercase();
            let none = ["no trial", "no free trial", "without a trial"].iter().any(|no| lower.contains(no));
            !none && (cue_of("free_trial", sentence) || free_for_a_while(&lower))
        })
    {
        return Some(("free_trial", trial));
    }
    if paid && let Some(once) = cue("one_time").or_else(|| sentences.iter().copied().find(|sentence| paid_once(sentence))) {
        return Some(("one_time", once));
    }
    if paid && let Some(recurring) = cue("subscription") {
        return Some(("subscription", recurring));
    }
    if !paid && let Some(quote) = cue("contact_sales") {
        return Some(("contact_sales", quote));
    }
    if !paid && let Some(free) = free {
        return Some(("free", free));
    }
    None
}

/// Whether a sentence says an amount is paid once ("$79 once", "£6, once."), not monthly.
pub fn paid_once(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    lower.match_indices("once").any(|(at, _)| {
        let before = lower[..at].trim_end().trim_end_matches(',');
        before.ends_with(|c: char| c.is_ascii_digit()) && lower[at + 4..].chars().next().is_none_or(|c| !c.is_alphanumeric())
    })
}

/// Whether `sentence` holds one of `model`'s words, as whole words ("free account" is not
/// "free accountant"; "/month" is matched as written).
pub fn cue_of(model: &str, sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    PRICING_MODELS
        .iter()
        .find(|(m, _)| *m == model)
        .is_some_and(|(_, cues)| cues.iter().any(|cue| if cue.starts_with('/') { lower.contains(cue) } else { has_phrase(&lower, cue) }))
}

#[cfg(test)]
mod tests;
