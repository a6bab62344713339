//! HTML to `drafts::site::Page` (html5ever through scraper): visible text blocks without
//! scripts, styles and navigation; title, meta and OpenGraph; JSON-LD of the types we read;
//! links, images, frames and icons resolved to absolute addresses.

use drafts::site::{BlockKind, Image, Link, Page, TextBlock, fold_whitespace};
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
    let mut walker = Walker { blocks: Vec::new(), section: None };
    if let Some(body) = document.select(&selector("body")).next() {
        let mut buffer = String::new();
        walker.walk(body, &mut buffer);
        walker.flush(&mut buffer, BlockKind::Other);
    }
    page.blocks = walker.blocks;
    page
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

struct Walker {
    blocks: Vec<TextBlock>,
    section: Option<String>,
}

impl Walker {
    fn walk(&mut self, element: ElementRef<'_>, buffer: &mut String) {
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
                    if BLOCKS.contains(&name) {
                        // Text before the block belongs to the enclosing one.
                        self.flush(buffer, BlockKind::Other);
                        let mut inner = String::new();
                        self.walk(child, &mut inner);
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
                        self.flush(&mut inner, kind);
                    } else {
                        buffer.push(' ');
                        self.walk(child, buffer);
                        buffer.push(' ');
                    }
                }
                _ => {}
            }
        }
    }

    fn flush(&mut self, buffer: &mut String, kind: BlockKind) {
        let text = fold_whitespace(buffer);
        buffer.clear();
        if text.is_empty() || self.blocks.len() >= MAX_BLOCKS {
            return;
        }
        let text: String = text.chars().take(MAX_BLOCK_CHARS).collect();
        if let BlockKind::Heading(_) = kind {
            self.section = Some(text.clone());
            self.blocks.push(TextBlock { kind, text, section: None });
        } else {
            self.blocks.push(TextBlock { kind, text, section: self.section.clone() });
        }
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
