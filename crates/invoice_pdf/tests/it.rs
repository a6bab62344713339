//! The PDF read back by another program (lopdf), as a buyer's or accountant's tools read it:
//! it parses, and its text holds the document's number, the parties, each line and the totals.

use orders::{DocumentBody, DocumentKind, DocumentLine, Invoice, Party};

fn document(kind: DocumentKind, lines: usize) -> Invoice {
    let line = |index: usize| DocumentLine {
        description: format!("Paid launch for Product {index}, launch week of 2026-12-14"),
        net_cents: 4900,
        vat_basis_points: 1900,
        vat_cents: 931,
        total_cents: 5831,
    };
    let count = lines as i64;
    Invoice {
        id: 1,
        kind,
        number: kind.number(7),
        sequence: 7,
        order_id: 1,
        owner: kernel::UserId::new(1),
        issued_at: time::macros::datetime!(2026-11-29 10:43 UTC),
        body: DocumentBody {
            seller: Party {
                name: "Launchdir Ltd".into(),
                address: Some("1 Main Street, Dublin".into()),
                country: Some("IE".into()),
                vat_number: Some("IE1234567T".into()),
                email: None,
            },
            buyer: Party {
                name: "Müller (GmbH)".into(),
                address: Some("Hauptstraße 5, Berlin".into()),
                country: Some("DE".into()),
                vat_number: None,
                email: Some("ada@example.com".into()),
            },
            order_number: "LD-ABCDEF1234".into(),
            paid_at: Some("2026-11-29T10:40:00Z".into()),
            lines: (0..lines).map(line).collect(),
            currency: "USD".into(),
            subtotal_cents: 4900 * count,
            vat_cents: 931 * count,
            total_cents: 5831 * count,
            vat_treatment: "eu_consumer".into(),
            vat_note: None,
            credits: None,
        },
    }
}

fn text_of(pdf: &[u8]) -> String {
    let parsed = lopdf::Document::load_mem(pdf).expect("the PDF parses");
    let pages: Vec<u32> = parsed.get_pages().keys().copied().collect();
    parsed.extract_text(&pages).expect("its text can be read")
}

#[test]
fn an_invoice_parses_and_holds_its_number_parties_lines_and_total() {
    let pdf = invoice_pdf::render(&document(DocumentKind::Invoice, 3));
    assert!(pdf.starts_with(b"%PDF-1.4"));
    let text = text_of(&pdf);
    for expected in [
        "VAT invoice",
        "INV-000007",
        "LD-ABCDEF1234",
        "Launchdir Ltd",
        "IE1234567T",
        "Müller (GmbH)",
        "Germany",
        "Product 2",
        "19 %",
        "$174.93",
        "29 November 2026",
    ] {
        assert!(text.contains(expected), "{expected:?} missing from:\n{text}");
    }
}

#[test]
fn many_lines_flow_onto_more_pages() {
    let pdf = invoice_pdf::render(&document(DocumentKind::Invoice, 60));
    let parsed = lopdf::Document::load_mem(&pdf).unwrap();
    assert!(parsed.get_pages().len() >= 2);
    assert!(text_of(&pdf).contains("Product 59"));
}

#[test]
fn a_credit_note_names_the_invoice_it_cancels() {
    let mut note = document(DocumentKind::CreditNote, 1);
    note.body.credits = Some("INV-000007".into());
    note.body.total_cents = -5831;
    let text = text_of(&invoice_pdf::render(&note));
    assert!(
        text.contains("Credit note") && text.contains("CN-000007") && text.contains("INV-000007") && text.contains("-$58.31"),
        "{text}"
    );
}
