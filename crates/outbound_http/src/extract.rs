//! HTML to `drafts::site::Page` (html5ever through scraper): visible text blocks without
//! scripts, styles and navigation; title, meta and OpenGraph; JSON-LD of the types we read;
//! links, images, frames and icons resolved to absolute addresses.

use drafts::meaning;
use drafts::site::{BlockKind, BlockRole, Image, Link, Page, TextBlock, fold_whitespace};
use reqwest::Url;
use scraper::{ElementRef, Html, Node, Selector};

/// JSON-LD types kept.
const JSON_LD_TYPES: &[&str] = &[
    "Organization",
    "Corporation",
    "LocalBusiness",
    "SoftwareApplication",
    "WebApplication",
    "MobileApplication",
    "Product",
    "FAQPage",
    "Offer",
    "AggregateOffer",
    "Person",
    "PostalAddress",
    "WebSite",
];

/// Elements whose content is never visible text.
const SKIPPED: &[&str] = &[
    "script", "style", "noscript", "template", "svg", "canvas", "nav", "form", "button", "select", "textarea", "iframe", "object", "head",
];

/// Elements that start a block of text.
const BLOCKS: &[&str] = &[
    "p",
    "li",
    "dt",
    "dd",
    "summary",
    "blockquote",
    "td",
    "th",
    "figcaption",
    "address",
    "div",
    "section",
    "article",
    "header",
    "footer",
    "main",
    "aside",
    "ul",
    "ol",
    "dl",
    "table",
    "tr",
    "details",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "pre",
    "body",
];

/// Text blocks longer than this are cut (a page of one huge block tells nothing more).
const MAX_BLOCK_CHARS: usize = 5000;
/// Blocks kept per page.
const MAX_BLOCKS: usize = 2000;

fn selector(css: &str) -> Selector {
    Selector::parse(css).unwrap_or_else(|_| unreachable!("static selector {css}"))
}

/// Extracts what a page tells from its HTML.
pub fn extract(url: &Url, html: &str) -> Page {
    let document = Html::parse_document(html);
    let resolve = |href: &str| -> Option<String> {
        let href = href.trim();
        if href.is_empty() || href.starts_with('#') || href.to_ascii_lowercase().starts_with("javascript:") {
            return None;
        }
        url.join(href).ok().map(|mut joined| {
            joined.set_fragment(None);
            joined.to_string()
        })
    };
    let mut page = Page { url: url.to_string(), ..Page::default() };
    page.lang = document.select(&selector("html[lang]")).next().and_then(|html| html.attr("lang")).map(str::to_owned);
    page.title = document
        .select(&selector("title"))
        .next()
        .map(|title| fold_whitespace(&title.text().collect::<String>()))
        .filter(|t| !t.is_empty());
    for meta in document.select(&selector("meta[content]")) {
        let content = fold_whitespace(meta.attr("content").unwrap_or(""));
        if content.is_empty() {
            continue;
        }
        let name = meta.attr("name").or_else(|| meta.attr("property")).unwrap_or("").to_ascii_lowercase();
        match name.as_str() {
            "description" => page.meta_description = Some(content),
            "keywords" => page.meta_keywords = Some(content),
            og if og.starts_with("og:") => {
                let value = if og == "og:image" || og == "og:url" { resolve(&content).unwrap_or(content) } else { content };
                page.open_graph.insert(og.to_owned(), value);
            }
            _ => {}
        }
    }
    for script in document.select(&selector(r#"script[type="application/ld+json"]"#)) {
        let text: String = script.text().collect();
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) {
            collect_json_ld(value, &mut page.json_ld);
        }
    }
    for anchor in document.select(&selector("a[href]")) {
        if let Some(href) = anchor.attr("href").and_then(&resolve) {
            let text = fold_whitespace(&anchor.text().collect::<String>());
            page.links.push(Link { url: href, text });
        }
    }
    for image in document.select(&selector("img[src]")) {
        if let Some(src) = image.attr("src").and_then(&resolve) {
            let hint = format!("{} {}", image.attr("class").unwrap_or(""), image.attr("id").unwrap_or("")).to_ascii_lowercase();
            page.images.push(Image { url: src, alt: fold_whitespace(image.attr("alt").unwrap_or("")), hint: hint.trim().to_owned() });
        }
    }
    for frame in document.select(&selector("iframe[src], video[src], video source[src]")) {
        if let Some(src) = frame.attr("src").and_then(&resolve) {
            page.embeds.push(src);
        }
    }
    for icon in document.select(&selector("link[rel][href]")) {
        let rel = icon.attr("rel").unwrap_or("").to_ascii_lowercase();
        if rel.split_whitespace().any(|r| r == "icon" || r == "apple-touch-icon")
            && let Some(href) = icon.attr("href").and_then(&resolve)
        {
            page.icons.push(href);
        }
    }
    let mut walker = Walker { blocks: Vec::new(), section: None, scope: None };
    if let Some(body) = document.select(&selector("body")).next() {
        let mut buffer = String::new();
        walker.walk(body, &mut buffer, None, 0);
        walker.flush(&mut buffer, BlockKind::Other, None, 0);
    }
    page.blocks = walker.blocks;
    page
}

/// Visible characters under which a page with scripts is taken for an empty shell that its
/// scripts fill.
const SHELL_TEXT_CHARS: usize = 200;

/// Whether a page shows its content only with JavaScript: next to no visible text, and scripts
/// (other than JSON-LD) to fill it.
pub fn needs_javascript(html: &str, page: &Page) -> bool {
    let visible: usize = page.blocks.iter().map(|block| block.text.chars().count()).sum();
    if visible >= SHELL_TEXT_CHARS {
        return false;
    }
    let document = Html::parse_document(html);
    document.select(&selector("script")).any(|script| script.attr("type").is_none_or(|kind| !kind.contains("json")))
}

/// Keeps JSON-LD objects of the types we read, `@graph` and arrays flattened.
fn collect_json_ld(value: serde_json::Value, into: &mut Vec<serde_json::Value>) {
    match value {
        serde_json::Value::Array(items) => items.into_iter().for_each(|item| collect_json_ld(item, into)),
        serde_json::Value::Object(mut map) => {
            if let Some(graph) = map.remove("@graph") {
                collect_json_ld(graph, into);
            }
            let typed = match map.get("@type") {
                Some(serde_json::Value::String(kind)) => JSON_LD_TYPES.contains(&kind.as_str()),
                Some(serde_json::Value::Array(kinds)) => kinds.iter().any(|k| k.as_str().is_some_and(|k| JSON_LD_TYPES.contains(&k))),
                _ => false,
            };
            if typed && into.len() < 50 {
                into.push(serde_json::Value::Object(map));
            }
        }
        _ => {}
    }
}

/// The role a heading gives the blocks after it, until a heading of its level or above, or
/// the end of the element that holds it.
struct HeadingScope {
    level: u8,
    role: BlockRole,
    /// Depth of the element holding the heading.
    depth: usize,
}

struct Walker {
    blocks: Vec<TextBlock>,
    section: Option<String>,
    scope: Option<HeadingScope>,
}

impl Walker {
    /// `around` is the role the enclosing elements give (a testimonial's `blockquote`, a
    /// `footer`, a `class="partners"` section); `depth` that of `element`.
    fn walk(&mut self, element: ElementRef<'_>, buffer: &mut String, around: Option<BlockRole>, depth: usize) {
        for child in element.children() {
            match child.value() {
                Node::Text(text) => {
                    buffer.push_str(text);
                }
                Node::Element(el) => {
                    let Some(child) = ElementRef::wrap(child) else { continue };
                    let name = el.name();
                    if SKIPPED.contains(&name) || hidden(child) {
                        buffer.push(' ');
                        continue;
                    }
                    if name == "br" {
                        buffer.push(' ');
                        continue;
                    }
                    let inside = role_of_element(child, around);
                    if name == "footer" || el.attr("role") == Some("contentinfo") {
                        // The page's footer is under no heading of the page.
                        self.scope = None;
                    }
                    if BLOCKS.contains(&name) {
                        // Text before the block belongs to the enclosing one.
                        self.flush(buffer, BlockKind::Other, around, depth);
                        let mut inner = String::new();
                        self.walk(child, &mut inner, inside, depth + 1);
                        let kind = match name {
                            "h1" => BlockKind::Heading(1),
                            "h2" => BlockKind::Heading(2),
                            "h3" => BlockKind::Heading(3),
                            "h4" => BlockKind::Heading(4),
                            "h5" => BlockKind::Heading(5),
                            "h6" => BlockKind::Heading(6),
                            "p" | "blockquote" | "address" | "figcaption" | "pre" => BlockKind::Paragraph,
                            "li" | "dd" | "td" => BlockKind::ListItem,
                            "dt" | "summary" | "th" => BlockKind::Term,
                            _ => BlockKind::Other,
                        };
                        self.flush(&mut inner, kind, inside, depth);
                    } else {
                        buffer.push(' ');
                        self.walk(child, buffer, inside, depth + 1);
                        buffer.push(' ');
                    }
                }
                _ => {}
            }
        }
        if self.scope.as_ref().is_some_and(|scope| scope.depth >= depth) {
            self.scope = None;
        }
    }

    /// Ends the block in `buffer`. Its role: what its own text says (a copyright line), else
    /// what the elements around it say, else what the heading above it says, else the footer
    /// it sits in. `depth` is that of the element holding the block.
    fn flush(&mut self, buffer: &mut String, kind: BlockKind, around: Option<BlockRole>, depth: usize) {
        let text = fold_whitespace(buffer);
        buffer.clear();
        if text.is_empty() || self.blocks.len() >= MAX_BLOCKS {
            return;
        }
        let text: String = text.chars().take(MAX_BLOCK_CHARS).collect();
        if let BlockKind::Heading(level) = kind {
            if self.scope.as_ref().is_some_and(|scope| level <= scope.level) {
                self.scope = None;
            }
            if let Some(role) = meaning::role_of_heading(&text) {
                self.scope = Some(HeadingScope { level, role, depth });
            }
        }
        let around_specific = around.filter(|role| *role != BlockRole::Footer);
        let role =
            meaning::role_of_text(&text).or(around_specific).or(self.scope.as_ref().map(|scope| scope.role)).or(around).unwrap_or_default();
        // A founder signing their own post is not attributing a quotation: no quotation above.
        let after_quotation =
            self.blocks.last().is_some_and(|last| last.role == BlockRole::Testimonial || last.text.starts_with(['“', '"', '„', '«', '‘']));
        let role = if role == BlockRole::Testimonial
            && around != Some(BlockRole::Testimonial)
            && !after_quotation
            && meaning::is_founders_signature(&text)
        {
            BlockRole::Content
        } else {
            role
        };
        if let BlockKind::Heading(_) = kind {
            self.section = Some(text.clone());
            self.blocks.push(TextBlock { kind, text, section: None, role });
        } else {
            self.blocks.push(TextBlock { kind, text, section: self.section.clone(), role });
        }
    }
}

/// The role an element gives what it holds: a `blockquote` or a figure with one is a
/// testimonial, a `footer` is the footer, and its `class`, `id`, `aria-label` or `itemtype` may
/// name one (`crate::meaning::role_of_label`); else what encloses it.
fn role_of_element(element: ElementRef<'_>, around: Option<BlockRole>) -> Option<BlockRole> {
    let el = element.value();
    let quotes = || element.descendants().any(|node| node.value().as_element().is_some_and(|inner| inner.name() == "blockquote"));
    let own = match el.name() {
        "blockquote" => Some(BlockRole::Testimonial),
        "figure" if quotes() => Some(BlockRole::Testimonial),
        "footer" => Some(BlockRole::Footer),
        _ if el.attr("role") == Some("contentinfo") => Some(BlockRole::Footer),
        _ => {
            let label = ["class", "id", "aria-label", "itemtype"].iter().filter_map(|name| el.attr(name)).collect::<Vec<_>>().join(" ");
            meaning::role_of_label(&label)
        }
    };
    match (own, around) {
        // A footer inside a testimonial is the testimonial's.
        (Some(BlockRole::Footer), Some(outer)) => Some(outer),
        (Some(own), _) => Some(own),
        (None, outer) => outer,
    }
}

/// Hidden elements and navigation landmarks carry no visible content.
fn hidden(element: ElementRef<'_>) -> bool {
    let el = element.value();
    el.attr("hidden").is_some()
        || el.attr("aria-hidden").is_some_and(|v| v == "true")
        || el.attr("role").is_some_and(|role| role == "navigation")
        || el.attr("style").is_some_and(|style| style.replace(' ', "").contains("display:none"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The structure around text gives each block its role: whose words it is and what it is
    /// about.
    #[test]
    fn blocks_know_whose_words_they_are() {
        let url = Url::parse("https://quillpad.example/").unwrap();
        let html = r#"<html><body>
            <h1>Notes that write themselves</h1>
            <p>Quillpad turns meetings into notes.</p>
            <section><h2>What our customers say</h2>
              <p>It saved us hours every week.</p>
              <p>Dana Reyes, CEO and founder of Brightline</p>
            </section>
            <p>Back to our own words.</p>
            <figure><blockquote>Best notes app.</blockquote><figcaption>Sam Lee, founder of Acme</figcaption></figure>
            <div class="integrations-grid"><p>Shopify plans start at $39/month.</p></div>
            <h2>Features</h2>
            <ul><li>Live transcripts</li><li>Calendar sync (coming soon)</li></ul>
            <h2>Coming soon</h2><ul><li>Offline mode</li></ul>
            <h2>Quillpad vs. Notion</h2><table><tr><td>Notion: $10/month</td></tr></table>
            <div id="cookie-consent"><p>Accept all?</p></div>
            <footer><p>hello@quillpad.example</p><p>© 2014 Quillpad Ltd.</p></footer>
            </body></html>"#;
        let page = extract(&url, html);
        let role = |text: &str| page.blocks.iter().find(|b| b.text == text).unwrap_or_else(|| panic!("{text}: {:#?}", page.blocks)).role;
        assert_eq!(role("Quillpad turns meetings into notes."), BlockRole::Content);
        assert_eq!(role("It saved us hours every week."), BlockRole::Testimonial);
        assert_eq!(role("Dana Reyes, CEO and founder of Brightline"), BlockRole::Testimonial);
        assert_eq!(role("Back to our own words."), BlockRole::Content, "a heading's role ends with its section");
        assert_eq!(role("Best notes app."), BlockRole::Testimonial);
        assert_eq!(role("Sam Lee, founder of Acme"), BlockRole::Testimonial);
        assert_eq!(role("Shopify plans start at $39/month."), BlockRole::Partner);
        assert_eq!(role("Live transcripts"), BlockRole::Content);
        assert_eq!(role("Calendar sync (coming soon)"), BlockRole::Roadmap);
        assert_eq!(role("Offline mode"), BlockRole::Roadmap);
        assert_eq!(role("Notion: $10/month"), BlockRole::Comparison);
        assert_eq!(role("Accept all?"), BlockRole::CookieBanner);
        assert_eq!(role("hello@quillpad.example"), BlockRole::Footer);
        assert_eq!(role("© 2014 Quillpad Ltd."), BlockRole::Copyright);
    }

    #[test]
    fn blocks_metadata_and_links() {
        let url = Url::parse("https://acme.example/about").unwrap();
        let html = r#"<!doctype html><html lang="en"><head>
            <title> Acme  Analytics | About </title>
            <meta name="description" content="Privacy-first analytics.">
            <meta property="og:image" content="/og.png">
            <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"Acme"},{"@type":"BreadcrumbList"}]}</script>
            <style>.x{}</style></head>
            <body><nav><a href="/pricing">Pricing</a></nav>
            <h1>About <b>Acme</b></h1>
            <p>We were founded in 2019.<br>Based in Berlin.</p>
            <script>var secret = "not text";</script>
            <div hidden>Hidden text</div>
            <ul><li>Fast</li><li>Private</li></ul>
            <a href="https://github.com/acme#readme">GitHub</a>
            <img src="img/logo.svg" alt="Acme logo" class="Site-Logo">
            </body></html>"#;
        let page = extract(&url, html);
        assert_eq!(page.lang.as_deref(), Some("en"));
        assert_eq!(page.title.as_deref(), Some("Acme Analytics | About"));
        assert_eq!(page.meta_description.as_deref(), Some("Privacy-first analytics."));
        assert_eq!(page.open_graph["og:image"], "https://acme.example/og.png");
        assert_eq!(page.json_ld.len(), 1);
        let texts: Vec<&str> = page.blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(texts, ["About Acme", "We were founded in 2019. Based in Berlin.", "Fast", "Private", "GitHub"]);
        assert_eq!(page.blocks[1].section.as_deref(), Some("About Acme"));
        assert_eq!(page.blocks[2].kind, BlockKind::ListItem);
        assert!(page.links.iter().any(|l| l.url == "https://github.com/acme"));
        assert!(page.links.iter().any(|l| l.url == "https://acme.example/pricing"));
        assert_eq!(page.images[0].url, "https://acme.example/img/logo.svg");
        assert_eq!(page.images[0].hint, "site-logo");
    }
}
