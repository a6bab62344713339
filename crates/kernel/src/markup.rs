//! Text inside markup we write by hand (SVG badges, badge embed code, sitemaps, Atom feeds):
//! the one escaping function, valid for HTML and XML content and attribute values.

/// Escapes `&`, `<`, `>`, `"` and `'`, and drops control characters (XML 1.0 forbids most of
/// them even escaped; none belongs in a name, caption or address).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => {}
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
    }
}
