//! The PDF file format, as much of it as text and rules need (PDF 1.4): a catalogue, a page
//! tree, one content stream a page, the two standard Helvetica fonts in WinAnsi encoding, the
//! document's title, and the cross-reference table with each object's byte offset.

use std::fmt::Write as _;

/// The two fonts a document uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Font {
    Regular,
    Bold,
}

impl Font {
    fn resource(self) -> &'static str {
        match self {
            Self::Regular => "F1",
            Self::Bold => "F2",
        }
    }
}

/// Helvetica's advance widths (thousandths of the size) for the characters documents hold
/// most; others take the width of a digit, which is close for the rest of the Latin letters.
fn advance(c: char, font: Font) -> f32 {
    let bold = font == Font::Bold;
    let width = match c {
        ' ' | ',' | '.' | '/' | ':' | ';' | 'I' | '!' | 'f' | 't' => 278,
        'i' | 'j' | 'l' => 222 + if bold { 56 } else { 0 },
        '(' | ')' | '-' | 'r' => 333 + if bold && c == 'r' { 56 } else { 0 },
        'm' | 'M' => 833,
        'w' => 722 + if bold { 56 } else { 0 },
        'W' => 944,
        '%' => 889,
        'A'..='H' | 'K' | 'N' | 'O' | 'Q' | 'R' | 'U' | 'V' | 'X' | 'Y' => 722,
        'J' | 'c' | 'k' | 's' | 'v' | 'x' | 'y' | 'z' => 500 + if bold { 56 } else { 0 },
        'L' | 'T' | 'Z' | 'P' | 'S' => 667,
        _ => 556,
    };
    width as f32 / 1000.0
}

/// How wide `text` is in `font` at `size`, in points.
pub fn text_width(text: &str, font: Font, size: f32) -> f32 {
    text.chars().map(|c| advance(c, font)).sum::<f32>() * size
}

/// A character in the fonts' WinAnsi encoding; one it lacks is a question mark.
fn win_ansi(c: char) -> u8 {
    match c {
        ' '..='~' => c as u8,
        '\u{a0}'..='\u{ff}' => c as u32 as u8,
        '€' => 0x80,
        '…' => 0x85,
        '‘' => 0x91,
        '’' => 0x92,
        '“' => 0x93,
        '”' => 0x94,
        '•' => 0x95,
        '–' => 0x96,
        '—' => 0x97,
        '›' => 0x9b,
        _ => b'?',
    }
}

/// `text` as a PDF string literal: bytes in WinAnsi, with `(`, `)` and `\` escaped.
fn literal(text: &str) -> Vec<u8> {
    let mut out = vec![b'('];
    for byte in text.chars().map(win_ansi) {
        if matches!(byte, b'(' | b')' | b'\\') {
            out.push(b'\\');
        }
        out.push(byte);
    }
    out.push(b')');
    out
}

/// A document being written, page by page; drawing goes to the newest page.
pub struct Pdf {
    size: (f32, f32),
    title: String,
    pages: Vec<Vec<u8>>,
}

impl Pdf {
    /// A document of one empty page of `size` points.
    pub fn new(size: (f32, f32), title: String) -> Self {
        Self { size, title, pages: vec![Vec::new()] }
    }

    /// Starts a new page.
    pub fn new_page(&mut self) {
        self.pages.push(Vec::new());
    }

    fn page(&mut self) -> &mut Vec<u8> {
        self.pages.last_mut().expect("a document has a page from the start")
    }

    /// Text whose baseline starts at (`x`, `y`).
    pub fn text(&mut self, x: f32, y: f32, font: Font, size: f32, text: &str) {
        let page = self.page();
        page.extend_from_slice(format!("BT /{} {size:.1} Tf {x:.2} {y:.2} Td ", font.resource()).as_bytes());
        page.extend_from_slice(&literal(text));
        page.extend_from_slice(b" Tj ET\n");
    }

    /// Text that ends at `right`.
    pub fn text_right(&mut self, right: f32, y: f32, font: Font, size: f32, text: &str) {
        self.text(right - text_width(text, font, size), y, font, size, text);
    }

    /// A horizontal rule from `from` to `to` at `y`.
    pub fn rule(&mut self, from: f32, y: f32, to: f32, thickness: f32) {
        let line = format!("{thickness:.2} w {from:.2} {y:.2} m {to:.2} {y:.2} l S\n");
        self.page().extend_from_slice(line.as_bytes());
    }

    /// The file.
    pub fn finish(self) -> Vec<u8> {
        // Objects: 1 catalogue, 2 page tree, 3 and 4 the fonts, 5 the information dictionary,
        // then a page and its contents for each page.
        let page_ids: Vec<usize> = (0..self.pages.len()).map(|index| 6 + 2 * index).collect();
        let mut objects: Vec<Vec<u8>> = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            format!(
                "<< /Type /Pages /Kids [{}] /Count {} >>",
                page_ids.iter().map(|id| format!("{id} 0 R")).collect::<Vec<_>>().join(" "),
                self.pages.len()
            )
            .into_bytes(),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_vec(),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>".to_vec(),
            [b"<< /Title ".as_slice(), &literal(&self.title), b" /Producer (Launchdir) >>"].concat(),
        ];
        for (index, content) in self.pages.iter().enumerate() {
            let contents_id = page_ids[index] + 1;
            objects.push(
                format!(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {} {}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents {contents_id} 0 R >>",
                    self.size.0, self.size.1
                )
                .into_bytes(),
            );
            objects.push([format!("<< /Length {} >>\nstream\n", content.len()).as_bytes(), content, b"endstream"].concat());
        }
        let mut file = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
        let mut offsets = Vec::with_capacity(objects.len());
        for (index, object) in objects.iter().enumerate() {
            offsets.push(file.len());
            file.extend_from_slice(format!("{} 0 obj\n", index + 1).as_bytes());
            file.extend_from_slice(object);
            file.extend_from_slice(b"\nendobj\n");
        }
        let xref = file.len();
        let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
        for offset in offsets {
            let _ = writeln!(table, "{offset:010} 00000 n ");
        }
        let _ = write!(table, "trailer\n<< /Size {} /Root 1 0 R /Info 5 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1);
        file.extend_from_slice(table.as_bytes());
        file
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_encoded() {
        assert_eq!(literal("a (b) \\ c"), b"(a \\(b\\) \\\\ c)".to_vec());
        assert_eq!(literal("€5 – Zürich"), b"(\x805 \x96 Z\xfcrich)".to_vec());
        assert_eq!(literal("日本"), b"(??)".to_vec());
    }
}
