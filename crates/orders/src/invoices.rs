//! VAT invoices and credit notes. A paid order gets one invoice, issued by a job right after the
//! payment settles (which then e-mails the receipt); a refunded order that had an invoice gets
//! one credit note cancelling it. Each document is numbered in its series (`INV-000001`,
//! `CN-000001`) consecutively without gaps: the repository takes the next number and stores the
//! document in one transaction. A document is kept exactly as issued (seller, buyer, lines,
//! rates, totals and the VAT wording of its day), so a later change of settings or prices never
//! rewrites it.

use crate::order::{Order, OrderLine};
use crate::service::{OrderError, OrdersService};
use crate::vat::{VatRate, VatTreatment};
use async_trait::async_trait;
use kernel::{Cents, CountryCode, Email, Job, JobHandler, JobOutcome, JobRun, RepoError, UserId};
use serde::{Deserialize, Serialize};
use serde_json::json;
use time::OffsetDateTime;

/// An invoice, or a credit note correcting one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentKind {
    Invoice,
    CreditNote,
}

impl DocumentKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Invoice => "invoice",
            Self::CreditNote => "credit_note",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        [Self::Invoice, Self::CreditNote].into_iter().find(|kind| kind.as_str() == raw)
    }

    /// The series its numbers run in, each without gaps.
    pub fn series(self) -> &'static str {
        match self {
            Self::Invoice => "INV",
            Self::CreditNote => "CN",
        }
    }

    /// The document's number: `INV-000042`.
    pub fn number(self, sequence: i64) -> String {
        format!("{}-{sequence:06}", self.series())
    }

    /// Its title, as printed.
    pub fn title(self) -> &'static str {
        match self {
            Self::Invoice => "VAT invoice",
            Self::CreditNote => "Credit note",
        }
    }
}

/// The seller or the buyer, as printed on a document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Party {
    pub name: String,
    pub address: Option<String>,
    /// ISO 3166 alpha-2.
    pub country: Option<String>,
    pub vat_number: Option<String>,
    pub email: Option<String>,
}

impl Party {
    /// The party as printed, one line each: name, address parts (split at commas and line
    /// breaks), country in words, VAT number, e-mail. The page and the PDF print the same.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![if self.name.is_empty() { "(no name given)".to_owned() } else { self.name.clone() }];
        if let Some(address) = &self.address {
            lines.extend(address.split([',', '\n']).map(str::trim).filter(|part| !part.is_empty()).map(str::to_owned));
        }
        if let Some(country) = self.country.as_deref().and_then(|code| CountryCode::parse(code).ok()) {
            lines.push(country.name().unwrap_or(country.as_str()).to_owned());
        }
        if let Some(number) = &self.vat_number {
            lines.push(format!("VAT number: {number}"));
        }
        if let Some(email) = &self.email {
            lines.push(email.clone());
        }
        lines
    }
}

/// The seller on every document (settings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seller {
    pub name: String,
    pub address: Option<String>,
    pub country: CountryCode,
    pub vat_number: Option<String>,
}

/// One line of a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentLine {
    pub description: String,
    pub net_cents: i64,
    /// The VAT rate in hundredths of a percent.
    pub vat_basis_points: u32,
    pub vat_cents: i64,
    pub total_cents: i64,
}

impl DocumentLine {
    /// "19 %".
    pub fn vat_rate(&self) -> String {
        VatRate::from_basis_points(self.vat_basis_points).map_or_else(|| format!("{} bp", self.vat_basis_points), |rate| rate.to_string())
    }
}

/// What a document says, kept as issued.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentBody {
    pub seller: Party,
    pub buyer: Party,
    pub order_number: String,
    /// When the order was paid (RFC 3339): the date of supply.
    pub paid_at: Option<String>,
    pub lines: Vec<DocumentLine>,
    pub currency: String,
    /// Negative on a credit note.
    pub subtotal_cents: i64,
    pub vat_cents: i64,
    pub total_cents: i64,
    /// `domestic`, `eu_consumer`, `reverse_charge` or `outside_scope`.
    pub vat_treatment: String,
    /// The VAT wording the treatment needs ("Reverse charge: ...").
    pub vat_note: Option<String>,
    /// On a credit note: the invoice it cancels.
    pub credits: Option<String>,
}

/// An issued invoice or credit note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invoice {
    pub id: i64,
    pub kind: DocumentKind,
    pub number: String,
    pub sequence: i64,
    pub order_id: i64,
    pub owner: UserId,
    pub issued_at: OffsetDateTime,
    pub body: DocumentBody,
}

impl Invoice {
    pub fn total(&self) -> Cents {
        Cents::new(self.body.total_cents)
    }
}

/// A document to issue; the repository gives it its number.
#[derive(Debug, Clone)]
pub struct NewDocument {
    pub kind: DocumentKind,
    pub order_id: i64,
    pub owner: UserId,
    pub issued_at: OffsetDateTime,
    pub body: DocumentBody,
}

/// Where documents are kept.
#[async_trait]
pub trait InvoiceRepository: Send + Sync {
    /// Issues `new` under the next number of its series, taken in the same transaction that
    /// stores it (a failure leaves no gap). When the order has a document of this kind already,
    /// that one is returned and nothing is issued.
    async fn issue(&self, new: &NewDocument) -> Result<Invoice, RepoError>;
    /// The documents of an order, invoice first.
    async fn of_order(&self, order_id: i64) -> Result<Vec<Invoice>, RepoError>;
    async fn by_number(&self, number: &str) -> Result<Option<Invoice>, RepoError>;
    /// `owner`'s documents, newest first.
    async fn owned(&self, owner: UserId) -> Result<Vec<Invoice>, RepoError>;
    /// The newest documents (the site team's list).
    async fn recent(&self, limit: u64) -> Result<Vec<Invoice>, RepoError>;
}

/// Prints a document as a file people keep (a PDF).
pub trait DocumentPrinter: Send + Sync {
    /// The document as a PDF file.
    fn pdf(&self, document: &Invoice) -> Vec<u8>;
}

/// The wording a VAT treatment needs on the document.
pub fn vat_note(treatment: VatTreatment) -> Option<String> {
    match treatment {
        VatTreatment::ReverseCharge => {
            Some("Reverse charge: VAT to be accounted for by the customer (Article 196 of Council Directive 2006/112/EC).".to_owned())
        }
        VatTreatment::OutsideScope => Some("Outside the scope of EU VAT: no VAT charged.".to_owned()),
        VatTreatment::Domestic | VatTreatment::EuConsumer | VatTreatment::CountryNeeded => None,
    }
}

/// A line's description: the product, what it is for, and its week.
fn describe(line: &OrderLine, listing_name: Option<&str>) -> String {
    let mut text = line.line.product_name.clone();
    if let Some(name) = listing_name {
        text.push_str(&format!(" for {name}"));
    }
    if let Some(week) = line.line.week {
        let monday = week.monday();
        text.push_str(&format!(", launch week of {} {} {}", monday.day(), monday.month(), monday.year()));
    }
    if !line.line.categories.is_empty() {
        text.push_str(&format!(" ({})", line.line.categories.join(", ")));
    }
    text
}

/// The invoice of a paid order, as of now.
pub fn invoice_body(order: &Order, seller: &Seller, buyer_email: Option<&Email>, listing_names: &[(i64, String)]) -> DocumentBody {
    let name_of = |id: Option<kernel::ListingId>| {
        id.and_then(|id| listing_names.iter().find(|(known, _)| *known == id.get()).map(|(_, name)| name.as_str()))
    };
    let rate = order.vat.rate.basis_points();
    DocumentBody {
        seller: Party {
            name: seller.name.clone(),
            address: seller.address.clone(),
            country: Some(seller.country.as_str().to_owned()),
            vat_number: seller.vat_number.clone(),
            email: None,
        },
        buyer: Party {
            name: order.billing.name.clone().unwrap_or_default(),
            address: order.billing.address.clone(),
            country: order.billing.country.as_ref().map(|country| country.as_str().to_owned()),
            vat_number: order.billing.vat_number.clone().filter(|_| order.vat.treatment == VatTreatment::ReverseCharge),
            email: buyer_email.map(|email| email.as_str().to_owned()),
        },
        order_number: order.number.as_str().to_owned(),
        paid_at: order.paid_at.and_then(|at| at.format(&time::format_description::well_known::Rfc3339).ok()),
        lines: order
            .lines
            .iter()
            .map(|line| DocumentLine {
                description: describe(line, name_of(line.line.listing_id)),
                net_cents: line.line.amounts.subtotal.get(),
                vat_basis_points: rate,
                vat_cents: line.line.amounts.vat.get(),
                total_cents: line.line.amounts.total.get(),
            })
            .collect(),
        currency: Order::CURRENCY.to_owned(),
        subtotal_cents: order.totals.subtotal.get(),
        vat_cents: order.totals.vat.get(),
        total_cents: order.totals.total.get(),
        vat_treatment: order.vat.treatment.as_str().to_owned(),
        vat_note: vat_note(order.vat.treatment),
        credits: None,
    }
}

/// The credit note cancelling `invoice` in full: the same parties and lines, amounts negated.
pub fn credit_note_body(invoice: &Invoice) -> DocumentBody {
    let body = &invoice.body;
    DocumentBody {
        lines: body
            .lines
            .iter()
            .map(|line| DocumentLine {
                net_cents: -line.net_cents,
                vat_cents: -line.vat_cents,
                total_cents: -line.total_cents,
                ..line.clone()
            })
            .collect(),
        subtotal_cents: -body.subtotal_cents,
        vat_cents: -body.vat_cents,
        total_cents: -body.total_cents,
        credits: Some(invoice.number.clone()),
        ..body.clone()
    }
}

impl OrdersService {
    /// Issues the invoice of a paid order (once: the order's invoice if it has one). `None`
    /// for an order that was never paid.
    pub async fn issue_invoice(&self, order_id: i64) -> Result<Option<Invoice>, OrderError> {
        let Some(order) = self.orders.by_id(order_id).await? else { return Err(OrderError::NotFound) };
        if order.paid_at.is_none() {
            return Ok(None);
        }
        let email = self.orders.buyer_email(order.owner).await?;
        let mut names = Vec::new();
        for id in order.lines.iter().filter_map(|line| line.line.listing_id) {
            if let Some(facts) = self.listings.facts(order.owner, id).await? {
                names.push((id.get(), facts.name));
            }
        }
        let body = invoice_body(&order, &self.invoicing.seller, email.as_ref(), &names);
        let new = NewDocument { kind: DocumentKind::Invoice, order_id, owner: order.owner, issued_at: self.clock.now(), body };
        Ok(Some(self.invoicing.invoices.issue(&new).await?))
    }

    /// Issues the credit note of a refunded order's invoice (once); `None` when the order has
    /// no invoice (it was never paid, so nothing was invoiced).
    pub async fn issue_credit_note(&self, order_id: i64) -> Result<Option<Invoice>, OrderError> {
        let documents = self.invoicing.invoices.of_order(order_id).await?;
        let Some(invoice) = documents.iter().find(|document| document.kind == DocumentKind::Invoice) else { return Ok(None) };
        if let Some(note) = documents.iter().find(|document| document.kind == DocumentKind::CreditNote) {
            return Ok(Some(note.clone()));
        }
        let new = NewDocument {
            kind: DocumentKind::CreditNote,
            order_id,
            owner: invoice.owner,
            issued_at: self.clock.now(),
            body: credit_note_body(invoice),
        };
        Ok(Some(self.invoicing.invoices.issue(&new).await?))
    }

    /// The documents of `owner`'s order `number`.
    pub async fn documents_of(&self, owner: UserId, number: &str) -> Result<Vec<Invoice>, OrderError> {
        let order = self.get(owner, number).await?;
        Ok(self.invoicing.invoices.of_order(order.id).await?)
    }

    /// The documents of the order behind a checkout token (the receipt page).
    pub async fn documents_of_checkout(&self, number: &str, token: &str) -> Result<Vec<Invoice>, OrderError> {
        let order = self.open_checkout(number, token).await?;
        Ok(self.invoicing.invoices.of_order(order.id).await?)
    }

    /// One of `owner`'s documents; someone else's is not found.
    pub async fn document(&self, owner: UserId, number: &str) -> Result<Invoice, OrderError> {
        match self.invoicing.invoices.by_number(number).await? {
            Some(document) if document.owner == owner => Ok(document),
            _ => Err(OrderError::NotFound),
        }
    }

    /// Any document, for the site team.
    pub async fn any_document(&self, number: &str) -> Result<Invoice, OrderError> {
        self.invoicing.invoices.by_number(number).await?.ok_or(OrderError::NotFound)
    }

    /// `owner`'s documents, newest first.
    pub async fn my_documents(&self, owner: UserId) -> Result<Vec<Invoice>, OrderError> {
        Ok(self.invoicing.invoices.owned(owner).await?)
    }

    /// A document as a PDF file.
    pub fn pdf_of(&self, document: &Invoice) -> Vec<u8> {
        self.invoicing.printer.pdf(document)
    }

    /// The newest documents, for the site team.
    pub async fn recent_documents(&self, limit: u64) -> Result<Vec<Invoice>, OrderError> {
        Ok(self.invoicing.invoices.recent(limit).await?)
    }

    /// The receipt e-mail of a paid order with its invoice.
    async fn send_receipt(&self, order: &Order, invoice: &Invoice) -> Result<(), OrderError> {
        let Some(to) = self.orders.buyer_email(order.owner).await? else { return Ok(()) };
        let site = &self.invoicing.site_url;
        let mut lines = String::new();
        for line in &invoice.body.lines {
            lines.push_str(&format!("  {}: {}\n", line.description, Cents::new(line.total_cents)));
        }
        let body = format!(
            "Thank you: order {order} is paid.\n\n{lines}\nTotal: {total} (VAT {vat}, {rate})\n\nYour invoice {invoice_number}:\n{site}/account/invoices/{invoice_number}\nas PDF: {site}/account/invoices/{invoice_number}.pdf\n\nYour orders and invoices are on your account page: {site}/account\n",
            order = order.number,
            total = invoice.total(),
            vat = Cents::new(invoice.body.vat_cents),
            rate = order.vat.rate,
            invoice_number = invoice.number,
        );
        let email =
            kernel::OutgoingEmail { to, subject: format!("Your receipt for order {}", order.number), body, kind: "order_receipt".into() };
        self.invoicing.mailer.send(email).await.map_err(|err| OrderError::Repo(RepoError::Backend(Box::new(err))))
    }
}

/// Issues a paid order's invoice and e-mails the receipt.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct IssueInvoice {
    pub order_id: i64,
}

impl Job for IssueInvoice {
    const KIND: &'static str = "order.invoice";
    const MAX_ATTEMPTS: u32 = 8;
}

#[async_trait]
impl JobHandler<IssueInvoice> for OrdersService {
    async fn run(&self, job: IssueInvoice, _: JobRun) -> JobOutcome {
        let issued = match self.issue_invoice(job.order_id).await {
            Ok(Some(invoice)) => invoice,
            Ok(None) => return JobOutcome::Done(json!({ "invoice": null, "why": "the order was never paid" })),
            Err(err) => return JobOutcome::Retry(kernel::error_chain(&err)),
        };
        let order = match self.orders.by_id(job.order_id).await {
            Ok(Some(order)) => order,
            Ok(None) => return JobOutcome::Failed("the order is gone".into()),
            Err(err) => return JobOutcome::Retry(kernel::error_chain(&err)),
        };
        // A retry after the mail went out sends it again: a receipt twice beats none.
        if let Err(err) = self.send_receipt(&order, &issued).await {
            return JobOutcome::Retry(kernel::error_chain(&err));
        }
        JobOutcome::Done(json!({ "invoice": issued.number }))
    }
}

/// Issues a refunded order's credit note.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct IssueCreditNote {
    pub order_id: i64,
}

impl Job for IssueCreditNote {
    const KIND: &'static str = "order.credit_note";
    const MAX_ATTEMPTS: u32 = 8;
}

#[async_trait]
impl JobHandler<IssueCreditNote> for OrdersService {
    async fn run(&self, job: IssueCreditNote, _: JobRun) -> JobOutcome {
        JobOutcome::from_result(self.issue_credit_note(job.order_id).await, |note| json!({ "credit_note": note.map(|note| note.number) }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_run_in_their_series() {
        assert_eq!(DocumentKind::Invoice.number(42), "INV-000042");
        assert_eq!(DocumentKind::CreditNote.number(1), "CN-000001");
        assert_eq!(DocumentKind::parse("credit_note"), Some(DocumentKind::CreditNote));
    }

    #[test]
    fn reverse_charge_and_exports_say_so() {
        assert!(vat_note(VatTreatment::ReverseCharge).unwrap().starts_with("Reverse charge"));
        assert!(vat_note(VatTreatment::OutsideScope).unwrap().contains("no VAT"));
        assert_eq!(vat_note(VatTreatment::Domestic), None);
    }
}
