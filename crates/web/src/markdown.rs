//! Markdown to HTML that is safe to put on a page: `pulldown-cmark` renders it, then `ammonia`
//! keeps only harmless elements and attributes (no scripts, styles, event handlers or
//! `javascript:` links, whoever wrote the text).

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};

/// Renders Markdown (CommonMark with tables and strikethrough) and cleans the result.
pub fn to_safe_html(markdown: &str) -> String {
    render(markdown, false)
}

/// `to_safe_html` for text under the page's own `h1` (a blog post under its title): every
/// heading goes one level down, so the page keeps one `h1`.
pub fn to_safe_html_below_title(markdown: &str) -> String {
    render(markdown, true)
}

fn lower(level: HeadingLevel) -> HeadingLevel {
    match level {
        HeadingLevel::H1 => HeadingLevel::H2,
        HeadingLevel::H2 => HeadingLevel::H3,
        HeadingLevel::H3 => HeadingLevel::H4,
        HeadingLevel::H4 => HeadingLevel::H5,
        _ => HeadingLevel::H6,
    }
}

fn render(markdown: &str, below_title: bool) -> String {
    // No footnotes: their links point at ids, which the cleaning removes.
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        Event::Start(Tag::Heading { level, id, classes, attrs }) if below_title => {
            Event::Start(Tag::Heading { level: lower(level), id, classes, attrs })
        }
        Event::End(TagEnd::Heading(level)) if below_title => Event::End(TagEnd::Heading(lower(level))),
        other => other,
    });
    let mut rendered = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut rendered, events);
    // Links leave with `rel="noopener noreferrer"`; headings keep no ids (none are generated).
    ammonia::Builder::default().link_rel(Some("noopener noreferrer")).clean(&rendered).to_string()
}

#[cfg(test)]
mod tests {
    use super::{to_safe_html, to_safe_html_below_title};

    #[test]
    fn text_under_a_title_keeps_the_page_to_one_h1() {
        let html = to_safe_html_below_title("# Post\n\n## Part\n\n###### Deep\n");
        assert_eq!(html.matches("<h1>").count(), 0, "{html}");
        assert!(html.contains("<h2>Post</h2>") && html.contains("<h3>Part</h3>") && html.contains("<h6>Deep</h6>"), "{html}");
    }

    #[test]
    fn markdown_is_rendered_and_cleaned() {
        let html = to_safe_html("# Title\n\nSome *text* and [a link](https://example.com).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert!(html.contains("<h1>Title</h1>"), "{html}");
        assert!(html.contains("<em>text</em>"), "{html}");
        assert!(html.contains(r#"<a href="https://example.com" rel="noopener noreferrer">a link</a>"#), "{html}");
        assert!(html.contains("<table>"), "{html}");
    }

    #[test]
    fn scripts_handlers_and_javascript_links_are_removed() {
        let html = to_safe_html(
            "<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[click](javascript:alert(1))\n\n<style>body{}</style><iframe src=//evil></iframe>",
        );
        for bad in ["<script", "onerror", "javascript:", "<style", "<iframe"] {
            assert!(!html.contains(bad), "{bad} survived: {html}");
        }
    }
}
