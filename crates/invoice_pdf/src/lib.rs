//! An issued invoice or credit note as a PDF a buyer files and an accountant reads: seller and
//! buyer, the document's number and dates, each line with its VAT rate, the totals and the VAT
//! wording, on A4 pages in the standard Helvetica fonts (nothing embedded, nothing loaded).
//! Written by hand (a few hundred bytes of objects around text): the document is text and
//! rules only, so a layout engine would be weight without use.

mod writer;

use kernel::Cents;
use orders::{DocumentKind, Invoice};
use writer::{Font, Pdf};

/// A4, in points.
const PAGE: (f32, f32) = (595.0, 842.0);
const MARGIN: f32 = 56.0;
/// The right edge of the amount columns.
const RIGHT: f32 = PAGE.0 - MARGIN;

/// "29 November 2026".
fn day(at: time::OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!("{} {} {}", at.day(), at.month(), at.year())
}

/// Splits `text` into lines of at most `width` points in `font` at `size`.
fn wrap(text: &str, font: Font, size: f32, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
        if writer::text_width(&candidate, font, size) <= width || line.is_empty() {
            line = candidate;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_owned()));
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The `orders::DocumentPrinter` this crate is.
#[derive(Debug, Clone, Copy, Default)]
pub struct PdfPrinter;

impl orders::DocumentPrinter for PdfPrinter {
    fn pdf(&self, document: &Invoice) -> Vec<u8> {
        render(document)
    }
}

/// The document as a PDF file.
pub fn render(document: &Invoice) -> Vec<u8> {
    let body = &document.body;
    let mut pdf = Pdf::new(PAGE, format!("{} {}", document.kind.title(), document.number));
    let mut y = PAGE.1 - MARGIN;

    pdf.text(MARGIN, y - 14.0, Font::Bold, 20.0, document.kind.title());
    let facts = [
        (format!("{} number", if document.kind == DocumentKind::Invoice { "Invoice" } else { "Credit note" }), document.number.clone()),
        ("Date of issue".to_owned(), day(document.issued_at)),
        ("Order".to_owned(), body.order_number.clone()),
    ];
    let mut fact_y = y - 4.0;
    for (label, value) in facts.iter().cloned().chain(
        body.paid_at
            .as_deref()
            .and_then(|at| time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339).ok())
            .map(|at| ("Date of supply".to_owned(), day(at))),
    ) {
        pdf.text_right(RIGHT - 110.0, fact_y, Font::Regular, 9.0, &label);
        pdf.text_right(RIGHT, fact_y, Font::Bold, 9.0, &value);
        fact_y -= 13.0;
    }
    if let Some(credits) = &body.credits {
        pdf.text_right(RIGHT - 110.0, fact_y, Font::Regular, 9.0, "Cancels invoice");
        pdf.text_right(RIGHT, fact_y, Font::Bold, 9.0, credits);
        fact_y -= 13.0;
    }
    y = fact_y.min(y - 40.0) - 16.0;

    // Seller left, buyer right.
    let column = (PAGE.0 - 2.0 * MARGIN) / 2.0;
    pdf.text(MARGIN, y, Font::Bold, 10.0, "From");
    pdf.text(MARGIN + column, y, Font::Bold, 10.0, "To");
    let (seller, buyer) = (body.seller.lines(), body.buyer.lines());
    let mut party_y = y - 14.0;
    for row in 0..seller.len().max(buyer.len()) {
        if let Some(line) = seller.get(row) {
            pdf.text(MARGIN, party_y, Font::Regular, 9.5, line);
        }
        if let Some(line) = buyer.get(row) {
            pdf.text(MARGIN + column, party_y, Font::Regular, 9.5, line);
        }
        party_y -= 12.5;
    }
    y = party_y - 20.0;

    // The lines.
    let columns = [("Net", RIGHT - 200.0), ("VAT rate", RIGHT - 135.0), ("VAT", RIGHT - 65.0), ("Total", RIGHT)];
    let description_width = RIGHT - 200.0 - 70.0 - MARGIN;
    let header = |page: &mut Pdf, y: f32| {
        page.text(MARGIN, y, Font::Bold, 9.5, &format!("Description (amounts in {})", body.currency));
        for (label, right) in columns {
            page.text_right(right, y, Font::Bold, 9.5, label);
        }
        page.rule(MARGIN, y - 5.0, RIGHT, 0.8);
    };
    header(&mut pdf, y);
    y -= 20.0;
    for line in &body.lines {
        let described = wrap(&line.description, Font::Regular, 9.5, description_width);
        let needed = 12.5 * described.len() as f32 + 6.0;
        if y - needed < MARGIN + 90.0 {
            pdf.new_page();
            y = PAGE.1 - MARGIN;
            header(&mut pdf, y);
            y -= 20.0;
        }
        let amounts = [
            Cents::new(line.net_cents).to_string(),
            line.vat_rate(),
            Cents::new(line.vat_cents).to_string(),
            Cents::new(line.total_cents).to_string(),
        ];
        for ((_, right), amount) in columns.iter().zip(&amounts) {
            pdf.text_right(*right, y, Font::Regular, 9.5, amount);
        }
        for text in described {
            pdf.text(MARGIN, y, Font::Regular, 9.5, &text);
            y -= 12.5;
        }
        y -= 6.0;
    }
    pdf.rule(MARGIN, y + 8.0, RIGHT, 0.5);
    y -= 8.0;
    for (label, cents, font) in
        [("Subtotal", body.subtotal_cents, Font::Regular), ("VAT", body.vat_cents, Font::Regular), ("Total", body.total_cents, Font::Bold)]
    {
        pdf.text_right(RIGHT - 110.0, y, font, 10.0, label);
        pdf.text_right(RIGHT, y, font, 10.0, &Cents::new(cents).to_string());
        y -= 14.0;
    }
    y -= 10.0;
    if let Some(note) = &body.vat_note {
        for text in wrap(note, Font::Bold, 9.5, RIGHT - MARGIN) {
            pdf.text(MARGIN, y, Font::Bold, 9.5, &text);
            y -= 12.5;
        }
    }
    if document.kind == DocumentKind::CreditNote {
        let text =
            format!("This credit note cancels invoice {} in full; the payment was refunded.", body.credits.as_deref().unwrap_or("?"));
        pdf.text(MARGIN, y - 4.0, Font::Regular, 9.5, &text);
    }
    pdf.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_descriptions_wrap_within_their_column() {
        let lines =
            wrap("Paid launch for A Rather Long Product Name, launch week of 2026-12-14 (design, ai, data)", Font::Regular, 9.5, 150.0);
        assert!(lines.len() > 1, "{lines:?}");
        assert!(lines.iter().all(|line| writer::text_width(line, Font::Regular, 9.5) <= 150.0), "{lines:?}");
        assert_eq!(wrap("", Font::Regular, 9.5, 100.0), vec![String::new()]);
    }
}
