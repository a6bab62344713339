//! The role the page's structure gives a block: from the heading above it, the labels of the
//! elements around it, and its own text. `outbound_http::extract` applies them while reading.

use super::{is_roadmap_text, names_founding_people};
use crate::site::BlockRole;

/// The role a heading gives the blocks under it ("What our customers say", "Integrations",
/// "Notion vs. Quillpad", "Coming soon"), or `None`. A comparison of the product's own plans is
/// its pricing, not a comparison.
pub fn role_of_heading(heading: &str) -> Option<BlockRole> {
    let lower = format!(" {} ", heading.to_lowercase());
    let any = |words: &[&str]| words.iter().any(|word| lower.contains(word));
    // A consent notice's heading ("Cookie settings", "This website uses cookies"), not a product's
    // promise about cookies ("Know what's selling. Skip the cookie banner.", "Cookie-free").
    let about_consent = lower.contains("cookie")
        && lower.split_whitespace().count() <= 6
        && !any(&["cookie-free", "cookieless", "no cookie", "without cookie", "skip the cookie", "cookie banner"]);
    if about_consent || any(&["your privacy choices", "we value your privacy"]) {
        Some(BlockRole::CookieBanner)
    } else if any(&[
        "testimonial",
        "what people say",
        "customers say",
        "users say",
        "teams say",
        "loved by",
        "customer reviews",
        "user reviews",
        "what our users",
        "what our customers",
        "wall of love",
        "kundenstimmen",
        "kunden sagen",
        "témoignages",
        "temoignages",
        "ils nous font confiance",
        "ce que disent",
    ]) || lower.trim() == "reviews"
    {
        Some(BlockRole::Testimonial)
    } else if any(&[
        "integrations",
        "integrates with",
        "works with",
        "our partners",
        " partners ",
        "connects with",
        "plays well with",
        "intégrations",
    ]) {
        Some(BlockRole::Partner)
    } else if any(&[" vs ", " vs. ", "versus", "alternative", "compared to", "comparison", "how we compare", "vergleich", "comparatif"])
        && !any(&["plan", "tarif", "preis", "price", "pricing"])
    {
        Some(BlockRole::Comparison)
    } else if any(&[
        "roadmap",
        "coming soon",
        "what's next",
        "what’s next",
        "in the works",
        "demnächst",
        "bald verfügbar",
        "bientôt",
        "prochainement",
        " à venir",
    ]) {
        Some(BlockRole::Roadmap)
    } else {
        None
    }
}

/// The role an element's `class`, `id`, `aria-label` or `itemtype` gives everything inside it
/// (`class="testimonials"`, `id="cookie-banner"`, `itemtype="https://schema.org/Review"`).
pub fn role_of_label(label: &str) -> Option<BlockRole> {
    let lower = label.to_lowercase();
    let any = |words: &[&str]| words.iter().any(|word| lower.contains(word));
    let token = |word: &str| lower.split(|c: char| !c.is_alphanumeric()).any(|t| t == word);
    if any(&["cookie", "consent", "gdpr-banner"]) {
        Some(BlockRole::CookieBanner)
    } else if any(&["testimonial", "schema.org/review", "customer-stor", "customers-say", "social-proof", "kundenstimmen", "temoignage"])
        || token("review")
        || token("reviews")
    {
        // `review` as a word: a "preview" is not one.
        Some(BlockRole::Testimonial)
    } else if any(&["partner", "integration"]) {
        Some(BlockRole::Partner)
    } else if any(&["comparison", "compare", "versus"]) || token("vs") {
        Some(BlockRole::Comparison)
    } else if any(&["roadmap", "coming-soon", "coming_soon", "upcoming"]) {
        Some(BlockRole::Roadmap)
    } else {
        None
    }
}

/// The role a block's own text gives it, whatever surrounds it: a copyright line, a cookie
/// notice, a roadmap item, a quotation signed by someone.
pub fn role_of_text(text: &str) -> Option<BlockRole> {
    let lower = text.trim().to_lowercase();
    if lower.contains('©')
        || lower.starts_with("copyright")
        || lower.contains("(c) 19")
        || lower.contains("(c) 20")
        || lower.contains("all rights reserved")
    {
        Some(BlockRole::Copyright)
    } else if [
        "we use cookies",
        "this site uses cookies",
        "this website uses cookies",
        "wir verwenden cookies",
        "diese website verwendet cookies",
        "nous utilisons des cookies",
        "ce site utilise des cookies",
    ]
    .iter()
    .any(|cue| lower.starts_with(cue))
    {
        Some(BlockRole::CookieBanner)
    } else if is_roadmap_text(&lower) {
        Some(BlockRole::Roadmap)
    } else if lower.starts_with("— ") || lower.starts_with("– ") || lower.starts_with("- ") && names_founding_people(&lower) {
        // An attribution line under a quotation.
        Some(BlockRole::Testimonial)
    } else if lower.starts_with(['“', '"', '„', '«'])
        && (lower.contains(" — ") || lower.contains(" – ") || lower.contains("” -") || lower.contains("\" -"))
    {
        // A quotation followed by who said it.
        Some(BlockRole::Testimonial)
    } else {
        None
    }
}

/// Whether a line under a post is its author's signature as a founder ("— Declan Foley, Founder &
/// Lead Developer"): a dash, a name and a founding role of no other company. Below a quotation
/// the same line is a testimonial's attribution; the reader of the page tells them apart.
pub fn is_founders_signature(text: &str) -> bool {
    let Some(rest) = ["— ", "– ", "- "].iter().find_map(|dash| text.trim().strip_prefix(dash)) else { return false };
    let Some((name, role)) = rest.split_once(", ") else { return false };
    // "— Declan Foley, Founder & Lead Developer", and a post signed with a role alone: "— Kwame
    // Mensah, Chief Executive". A role at another company ("CEO of Brightline") is a customer's.
    let signed_with_role =
        crate::people::looks_like_name(name) && crate::people::is_role(role) && ![" of ", " at ", " @ "].iter().any(|at| role.contains(at));
    rest.chars().count() <= 80 && (names_founding_people(rest) || signed_with_role) && !super::founder_of_another(rest, &[])
}
