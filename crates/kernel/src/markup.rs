//! Text inside markup we write by hand (SVG badges, badge embed code, sitemaps, Atom feeds):
//! the one escaping function, valid for HTML and XML content and attribute values.

/// Whether XML 1.0 allows `c` in a document at all, escaped or not: tab, line feed, carriage
/// return, and everything from U+0020 but U+FFFE and U+FFFF (a Rust `char` is never a
/// surrogate). Text with any other character is refused at input (`ops::input`).
pub fn xml_allows(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}')
}

/// Escapes `&`, `<`, `>`, `"` and `'`, and drops control characters and every character XML
/// 1.0 forbids (even escaped; none belongs in a name, caption or address), so text stored
/// before input refused them cannot make a feed ill-formed.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() || !xml_allows(c) => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_characters_are_escaped_and_control_characters_dropped() {
        assert_eq!(escape("\"x\"\u{7}"), "&quot;x&quot;");
        assert_eq!(escape("<a href='1'>&</a>\n"), "&lt;a href=&#39;1&#39;&gt;&amp;&lt;/a&gt;");
        assert_eq!(escape("Fast\u{FFFE} and\u{FFFF} sure"), "Fast and sure");
    }

    #[test]
    fn xml_forbids_controls_and_the_two_noncharacters() {
        use super::xml_allows;
        for allowed in ['\t', '\n', '\r', ' ', 'é', '\u{D7FF}', '\u{E000}', '\u{FFFD}', '\u{10000}', '\u{10FFFF}'] {
            assert!(xml_allows(allowed), "{allowed:?}");
        }
        for forbidden in ['\u{0}', '\u{8}', '\u{B}', '\u{1F}', '\u{FFFE}', '\u{FFFF}'] {
            assert!(!xml_allows(forbidden), "{forbidden:?}");
        }
    }
}
