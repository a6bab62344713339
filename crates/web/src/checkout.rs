//! The checkout page (`/checkout/<number>?t=<token>`): the order, its VAT and total, the billing
//! form that re-prices the order before payment (so the VAT shown is the VAT charged), and the
//! hand-over to the payment provider. The token is the page's key: a wrong one is a 404, like
//! an unknown number. Also the test provider's payment page.

use crate::{PageError, WebState, html};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use kernel::CountryCode;
use orders::{Billing, Order, OrderError, OrderStatus, ReturnUrls, VatTreatment};
use serde::Deserialize;

struct LineRow {
    name: String,
    detail: Option<String>,
    /// The listing it is for: its name and the owner's page of it.
    listing: Option<(String, String)>,
    /// When it takes effect, in words.
    effect: String,
    subtotal: String,
    vat: String,
    total: String,
}

#[derive(Template)]
#[template(path = "checkout.html")]
struct CheckoutPage<'a> {
    site_name: &'a str,
    number: &'a str,
    token: &'a str,
    notice: Option<String>,
    lines: Vec<LineRow>,
    subtotal: String,
    vat: String,
    vat_rate: String,
    total: String,
    vat_note: &'static str,
    pending: bool,
    /// Paid (or refunded after paying): the page is the order's receipt.
    receipt: bool,
    paid_on: Option<String>,
    refunded_on: Option<String>,
    status: &'static str,
    status_reason: Option<String>,
    expires_at: String,
    name: String,
    address: String,
    country: String,
    vat_number: String,
    country_error: Option<String>,
    vat_number_error: Option<String>,
    countries: Vec<crate::choices::CountryChoice>,
    /// The order's invoice and credit note, once issued.
    documents: Vec<crate::invoices::DocumentRow>,
}

#[derive(Template)]
#[template(path = "test_payment.html")]
struct TestPaymentPage<'a> {
    site_name: &'a str,
    number: &'a str,
    session: &'a str,
    /// The order's checkout token, which **Pay** and **Decline** send back.
    token: &'a str,
    total: String,
    return_to: &'a str,
}

#[derive(Debug, Deserialize)]
pub struct TokenQuery {
    #[serde(default)]
    t: String,
}

#[derive(Debug, Deserialize)]
pub struct BillingForm {
    #[serde(default)]
    t: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    address: String,
    #[serde(default)]
    country: String,
    #[serde(default)]
    vat_number: String,
}

/// What the VAT of an order or a quote is, in words.
pub(crate) fn vat_note(treatment: VatTreatment) -> &'static str {
    match treatment {
        VatTreatment::CountryNeeded => "Enter your country to see the VAT: it is needed before payment.",
        VatTreatment::Domestic => "VAT at the rate of the seller's country.",
        VatTreatment::EuConsumer => "VAT at your country's rate.",
        VatTreatment::ReverseCharge => "Reverse charge: your valid EU VAT number means you account for the VAT.",
        VatTreatment::OutsideScope => "Outside the EU: no VAT.",
    }
}

/// Field errors the form shows beside their inputs.
#[derive(Default)]
struct FormErrors {
    country: Option<String>,
    vat_number: Option<String>,
}

/// When a line takes effect, in words: its launch week's Monday, or when it was done.
fn effect(order: &Order, line: &orders::OrderLine) -> String {
    match (line.line.week, line.fulfilled_at) {
        (Some(week), _) => format!("The launch week begins on {}.", crate::dates::week_start(week)),
        (None, Some(done)) => format!("Done on {}.", crate::dates::long_date(done)),
        (None, None) if order.status == OrderStatus::Pending => "Once paid.".to_owned(),
        (None, None) => "Being done.".to_owned(),
    }
}

async fn page(
    state: &WebState,
    order: &Order,
    token: &str,
    form: Option<&BillingForm>,
    errors: FormErrors,
    notice: Option<String>,
    status: StatusCode,
) -> HttpResponse {
    let billing = &order.billing;
    let (name, address, country, vat_number) = match form {
        Some(form) => (form.name.clone(), form.address.clone(), form.country.clone(), form.vat_number.clone()),
        None => (
            billing.name.clone().unwrap_or_default(),
            billing.address.clone().unwrap_or_default(),
            billing.country.as_ref().map(ToString::to_string).unwrap_or_default(),
            billing.vat_number.clone().unwrap_or_default(),
        ),
    };
    let ids: Vec<kernel::ListingId> = order.lines.iter().filter_map(|line| line.line.listing_id).collect();
    let names = state.app.listings.feeds.summaries(&ids).await.unwrap_or_else(|err| {
        tracing::warn!(error = %err, "an order's listings could not be read");
        Default::default()
    });
    let documents = match state.app.commerce.orders.documents_of_checkout(order.number.as_str(), token).await {
        Ok(documents) => documents.iter().map(crate::invoices::DocumentRow::of).collect(),
        Err(err) => {
            tracing::warn!(error = %err, "an order's invoices could not be read");
            Vec::new()
        }
    };
    let lines = order
        .lines
        .iter()
        .map(|line| LineRow {
            name: line.line.product_name.clone(),
            // The week is in the "takes effect" column; the categories bought say which.
            detail: (!line.line.categories.is_empty()).then(|| line.line.categories.join(", ")),
            listing: line
                .line
                .listing_id
                .and_then(|id| names.get(&id).map(|listing| (listing.name.clone(), format!("/account/listings/{id}")))),
            effect: effect(order, line),
            subtotal: line.line.amounts.subtotal.to_string(),
            vat: line.line.amounts.vat.to_string(),
            total: line.line.amounts.total.to_string(),
        })
        .collect();
    let page = CheckoutPage {
        site_name: &state.app.site.name,
        number: order.number.as_str(),
        token,
        notice,
        lines,
        subtotal: order.totals.subtotal.to_string(),
        vat: order.totals.vat.to_string(),
        vat_rate: order.vat.rate.to_string(),
        total: order.totals.total.to_string(),
        vat_note: vat_note(order.vat.treatment),
        pending: order.status == OrderStatus::Pending,
        receipt: order.paid_at.is_some(),
        paid_on: order.paid_at.map(crate::dates::long_date_time),
        refunded_on: order.refunded_at.map(crate::dates::long_date),
        status: order.status.as_str(),
        status_reason: order.status_reason.clone(),
        expires_at: crate::dates::long_date_time(order.expires_at),
        name,
        address,
        country,
        vat_number,
        country_error: errors.country,
        vat_number_error: errors.vat_number,
        countries: crate::choices::countries(),
        documents,
    };
    // **Pay** leads on to the provider's payment page.
    crate::html_posting_to(status, &page, state.app.commerce.orders.provider_page_origin())
}

/// An unknown order, a wrong token, or the test provider's page while another provider is set.
fn no_such_order() -> PageError {
    PageError::from(OrderError::NotFound)
}

/// `GET /checkout/{number}?t=...`
pub async fn show(state: web::Data<WebState>, number: web::Path<String>, query: web::Query<TokenQuery>) -> Result<HttpResponse, PageError> {
    let order = state.app.commerce.orders.open_checkout(&number, &query.t).await?;
    Ok(page(&state, &order, &query.t, None, FormErrors::default(), None, StatusCode::OK).await)
}

/// `POST /checkout/{number}/billing`: checks the form, re-prices, and shows the page again.
pub async fn billing(
    state: web::Data<WebState>,
    number: web::Path<String>,
    form: web::Form<BillingForm>,
) -> Result<HttpResponse, PageError> {
    let order = state.app.commerce.orders.open_checkout(&number, &form.t).await?;
    let mut errors = FormErrors::default();
    let country = match form.country.trim() {
        "" => None,
        raw => match CountryCode::parse(raw) {
            Ok(country) => Some(country),
            Err(err) => {
                errors.country = Some(format!("Country {}.", err.0));
                None
            }
        },
    };
    if form.vat_number.trim().chars().count() > 32 {
        errors.vat_number = Some("A VAT number has at most 32 characters.".into());
    }
    if form.name.chars().count() > 200 || form.address.chars().count() > 500 {
        errors.country.get_or_insert_with(|| "The name has at most 200 characters and the address 500.".into());
    }
    if errors.country.is_some() || errors.vat_number.is_some() {
        return Ok(page(&state, &order, &form.t, Some(&form), errors, None, StatusCode::BAD_REQUEST).await);
    }
    let keep = |value: &str| Some(value.trim().to_owned()).filter(|value| !value.is_empty());
    let billing = Billing { name: keep(&form.name), address: keep(&form.address), country, vat_number: keep(&form.vat_number) };
    match state.app.commerce.orders.update_billing(&number, &form.t, billing).await {
        Ok(order) => {
            let notice = (!form.vat_number.trim().is_empty()
                && order.vat.treatment != VatTreatment::ReverseCharge
                && order.billing.country.as_ref().is_some_and(orders::in_eu))
            .then(|| "The VAT number did not pass its check for this country, so VAT is charged.".to_owned());
            Ok(page(&state, &order, &form.t, None, FormErrors::default(), notice, StatusCode::OK).await)
        }
        Err(OrderError::NotPending(_)) => {
            let notice = Some("This order can no longer be changed.".into());
            Ok(page(&state, &order, &form.t, None, FormErrors::default(), notice, StatusCode::CONFLICT).await)
        }
        Err(err) => Err(err.into()),
    }
}

/// `POST /checkout/{number}/pay`: hands over to the provider's payment page.
pub async fn pay(state: web::Data<WebState>, number: web::Path<String>, form: web::Form<TokenQuery>) -> Result<HttpResponse, PageError> {
    let back = format!("{}/checkout/{}?t={}", state.site_url, number, crate::percent_encode(&form.t));
    let urls = ReturnUrls { success: back.clone(), cancel: back, checkout_token: form.t.clone() };
    let orders = &state.app.commerce.orders;
    // Refused: the checkout page again, with what stands in the way.
    let (errors, status) = match orders.begin_payment(&number, &form.t, &urls).await {
        Ok(session) => return Ok(HttpResponse::SeeOther().insert_header(("Location", session.url)).finish()),
        Err(OrderError::Invalid(errors)) => {
            let country = errors.iter().find(|error| error.field == "billing_country").map(|error| format!("Country {}.", error.message));
            (FormErrors { country, vat_number: None }, StatusCode::BAD_REQUEST)
        }
        Err(OrderError::NotPending(_)) => (FormErrors::default(), StatusCode::CONFLICT),
        Err(err) => return Err(err.into()),
    };
    let order = orders.open_checkout(&number, &form.t).await?;
    Ok(page(&state, &order, &form.t, None, errors, None, status).await)
}

/// `POST /checkout/{number}/cancel`: the buyer gives the order up before paying.
pub async fn cancel(state: web::Data<WebState>, number: web::Path<String>, form: web::Form<TokenQuery>) -> Result<HttpResponse, PageError> {
    let orders = &state.app.commerce.orders;
    let (order, status) = match orders.cancel(&number, &form.t).await {
        Ok(order) => (order, StatusCode::OK),
        Err(OrderError::NotPending(_)) => (orders.open_checkout(&number, &form.t).await?, StatusCode::CONFLICT),
        Err(err) => return Err(err.into()),
    };
    Ok(page(&state, &order, &form.t, None, FormErrors::default(), None, status).await)
}

#[derive(Debug, Deserialize)]
pub struct TestPaymentQuery {
    #[serde(default)]
    order: String,
    /// The order's checkout token.
    #[serde(default)]
    t: String,
    #[serde(default, rename = "return")]
    return_to: String,
}

#[derive(Debug, Deserialize)]
pub struct TestPaymentForm {
    #[serde(default)]
    order: String,
    #[serde(default)]
    t: String,
    #[serde(default, rename = "return")]
    return_to: String,
    #[serde(default)]
    action: String,
}

/// Where the test page sends the person back: their order's checkout page on this site only.
fn return_to(state: &WebState, raw: &str) -> String {
    let ours = format!("{}/checkout/", state.site_url);
    if raw.starts_with(&ours) && !raw.chars().any(|c| c.is_control() || c == '\\') {
        raw.to_owned()
    } else {
        format!("{}/", state.site_url)
    }
}

/// `GET /payments/test/{session}`: the test provider's payment page.
pub async fn test_payment_page(
    state: web::Data<WebState>,
    session: web::Path<String>,
    query: web::Query<TestPaymentQuery>,
) -> Result<HttpResponse, PageError> {
    if state.app.commerce.orders.provider_name() != "test" {
        return Err(no_such_order());
    }
    let order = state.app.commerce.orders.open_checkout(&query.order, &query.t).await?;
    if order.provider_session.as_deref() != Some(session.as_str()) {
        return Err(no_such_order());
    }
    let back = return_to(&state, &query.return_to);
    let page = TestPaymentPage {
        site_name: &state.app.site.name,
        number: order.number.as_str(),
        session: &session,
        token: &query.t,
        total: order.totals.total.to_string(),
        return_to: &back,
    };
    Ok(html(StatusCode::OK, &page))
}

/// `POST /payments/test/{session}`: **Pay** or **Decline**, through the webhook path.
pub async fn test_payment(
    state: web::Data<WebState>,
    session: web::Path<String>,
    request: HttpRequest,
    form: web::Form<TestPaymentForm>,
) -> Result<HttpResponse, PageError> {
    if state.app.commerce.orders.provider_name() != "test" {
        return Err(no_such_order());
    }
    let pay = form.action == "pay";
    state.app.commerce.orders.simulate_payment(&form.order, &form.t, &session, pay).await?;
    crate::known_writer(&request);
    Ok(HttpResponse::SeeOther().insert_header(("Location", return_to(&state, &form.return_to))).finish())
}
