//! Invoices and credit notes for people: `/account/invoices/<number>` shows one of the person's
//! documents as a page and `/account/invoices/<number>.pdf` as a PDF (someone else's is the
//! ordinary 404); the site team reads any of them under `/admin/invoices`. The page and the PDF
//! print the same document, as issued.

use crate::{PageError, WebState, html};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use kernel::Cents;
use orders::Invoice;

struct LineRow {
    description: String,
    net: String,
    rate: String,
    vat: String,
    total: String,
}

#[derive(Template)]
#[template(path = "invoice.html")]
struct DocumentPage<'a> {
    site_name: &'a str,
    title: &'static str,
    number: &'a str,
    issued: String,
    supplied: Option<String>,
    order_number: &'a str,
    credits: Option<&'a str>,
    seller: Vec<String>,
    buyer: Vec<String>,
    lines: Vec<LineRow>,
    currency: &'a str,
    subtotal: String,
    vat: String,
    total: String,
    note: Option<&'a str>,
    pdf: String,
    back: &'static str,
}

/// `INV-000001` or `INV-000001.pdf`: the number, and whether the PDF is wanted.
fn split_file(file: &str) -> (&str, bool) {
    match file.strip_suffix(".pdf") {
        Some(number) => (number, true),
        None => (file, false),
    }
}

/// The document as a page, or as its PDF.
fn respond(state: &WebState, document: &Invoice, pdf: bool, back: &'static str, base: &str) -> HttpResponse {
    if pdf {
        return HttpResponse::Ok()
            .content_type("application/pdf")
            .insert_header(("Content-Disposition", format!("inline; filename=\"{}.pdf\"", document.number)))
            .insert_header(("Cache-Control", "private, no-store"))
            .body(state.app.commerce.orders.pdf_of(document));
    }
    let body = &document.body;
    let cents = |amount: i64| Cents::new(amount).to_string();
    let page = DocumentPage {
        site_name: &state.app.site.name,
        title: document.kind.title(),
        number: &document.number,
        issued: crate::dates::long_date(document.issued_at),
        supplied: body.paid_at.as_deref().map(crate::dates::long_date_of),
        order_number: &body.order_number,
        credits: body.credits.as_deref(),
        seller: body.seller.lines(),
        buyer: body.buyer.lines(),
        lines: body
            .lines
            .iter()
            .map(|line| LineRow {
                description: line.description.clone(),
                net: cents(line.net_cents),
                rate: line.vat_rate(),
                vat: cents(line.vat_cents),
                total: cents(line.total_cents),
            })
            .collect(),
        currency: &body.currency,
        subtotal: cents(body.subtotal_cents),
        vat: cents(body.vat_cents),
        total: cents(body.total_cents),
        note: body.vat_note.as_deref(),
        pdf: format!("{base}/{}.pdf", document.number),
        back,
    };
    html(StatusCode::OK, &page)
}

/// `GET /account/invoices/{file}`: one of the person's documents.
pub async fn mine(state: web::Data<WebState>, request: HttpRequest, file: web::Path<String>) -> Result<HttpResponse, PageError> {
    let session = crate::guard::signed_in(&state, &request).await?;
    let (number, pdf) = split_file(&file);
    let document = state.app.commerce.orders.document(session.user.id, number).await?;
    Ok(respond(&state, &document, pdf, "/account", "/account/invoices"))
}

/// `GET /admin/invoices/{file}`: any document, for the site team (behind the admin gate).
pub async fn any(state: web::Data<WebState>, _: crate::admin::Admin, file: web::Path<String>) -> Result<HttpResponse, PageError> {
    let (number, pdf) = split_file(&file);
    let document = state.app.commerce.orders.any_document(number).await?;
    Ok(respond(&state, &document, pdf, "/admin/invoices", "/admin/invoices"))
}

/// A document in a list (the account page, the site team's list, a receipt).
pub(crate) struct DocumentRow {
    pub number: String,
    pub title: &'static str,
    pub issued: String,
    pub total: String,
    pub order_number: String,
}

impl DocumentRow {
    pub fn of(document: &Invoice) -> Self {
        Self {
            number: document.number.clone(),
            title: document.kind.title(),
            issued: crate::dates::long_date(document.issued_at),
            total: document.total().to_string(),
            order_number: document.body.order_number.clone(),
        }
    }
}

/// The person's documents, newest first; none when they cannot be read (the page still shows).
pub(crate) async fn rows_of(state: &WebState, owner: kernel::UserId) -> Vec<DocumentRow> {
    match state.app.commerce.orders.my_documents(owner).await {
        Ok(documents) => documents.iter().map(DocumentRow::of).collect(),
        Err(err) => {
            tracing::warn!(error = %err, "could not list a person's invoices");
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_name_says_page_or_pdf() {
        assert_eq!(split_file("INV-000001.pdf"), ("INV-000001", true));
        assert_eq!(split_file("CN-000002"), ("CN-000002", false));
    }
}
