//! The admin pages of the orders domain's settings: prices (the next quote uses a new one) and
//! VAT rates from a date on.

use super::notice::{Notice, done};
use super::pages::{failed, list, log};
use super::{Action, Admin, AdminPost, FreeForm, Input, ListQuery, Row, has, page_of};
use crate::guard::as_person;
use crate::site::run;
use crate::{PageError, WebState};
use accounts::signin::Session;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use kernel::{Cents, CountryCode};
use ops::operations::catalog::{ListProducts, ProductView};
use orders::{VatRate, VatRateEntry};
use serde::Deserialize;

/// The price list as the API shows it (`list_products`).
async fn products(state: &WebState, request: &HttpRequest, session: &Session) -> Result<Vec<ProductView>, PageError> {
    Ok(run(ListProducts, state, &as_person(session, request), &[], &[]).await?.items)
}

async fn prices_page(
    state: &web::Data<WebState>,
    request: &HttpRequest,
    session: &Session,
    query: &ListQuery,
    problem: Option<(String, String)>,
) -> Result<HttpResponse, PageError> {
    let products = products(state, request, session).await?;
    let (shown, pager) = page_of(products, query, "/admin/prices", |product| has(&product.code, &query.q) || has(&product.name, &query.q));
    let rows = shown
        .into_iter()
        .map(|product| {
            let error = problem.as_ref().filter(|(code, _)| *code == product.code).map(|(_, message)| message.clone());
            Row {
                listing: None,
                cells: vec![product.code.clone(), product.name.clone(), Cents::new(product.price_cents).to_string()],
                actions: vec![Action {
                    post: true,
                    url: format!("/admin/prices/{}", product.code),
                    label: "Set the price".into(),
                    aria: format!("Set the price of {}", product.name),
                    input: Some(Input {
                        id: format!("price-{}", product.code),
                        name: "cents",
                        label: format!("New price of {} (US cents, before VAT)", product.name),
                        value: product.price_cents.to_string(),
                        error,
                    }),
                }],
            }
        })
        .collect();
    let status = if problem.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    let intro = "The next quote uses a new price; orders made before keep theirs.";
    Ok(list(state, request, session, "Prices", intro, vec!["Code", "Product", "Price"], rows, Some(query), Some(pager), None, status))
}

pub async fn prices(
    state: web::Data<WebState>,
    request: HttpRequest,
    query: web::Query<ListQuery>,
    Admin(session): Admin,
) -> Result<HttpResponse, PageError> {
    prices_page(&state, &request, &session, &query, None).await
}

#[derive(Debug, Deserialize)]
pub struct PriceForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    cents: String,
}

crate::guard::token_in_csrf_field!(PriceForm);

pub async fn set_price(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    AdminPost { session, form }: AdminPost<PriceForm>,
) -> Result<HttpResponse, PageError> {
    let code = path.into_inner();
    let cents = match form.cents.trim().parse::<i64>() {
        Ok(cents @ 0..=100_000_000) => Cents::new(cents),
        _ => {
            let problem = (code, "a whole number of cents from 0 to 100000000".to_owned());
            return prices_page(&state, &request, &session, &ListQuery::default(), Some(problem)).await;
        }
    };
    let before = products(&state, &request, &session).await?.into_iter().find(|product| product.code == code);
    let Some(before) = before.map(|product| Cents::new(product.price_cents)) else {
        return Err(PageError::new(StatusCode::NOT_FOUND, "No such product", "There is no product with this code."));
    };
    if before == cents {
        return Ok(done("/admin/prices", Notice::PriceUnchanged, None));
    }
    match state.app.commerce.catalog.set_price(&code, cents).await {
        Ok(true) => {
            log(&state, &session, "price.set", &format!("product {code}"), &format!("{before} -> {cents}")).await?;
            Ok(done("/admin/prices", Notice::PriceSet, None))
        }
        Ok(false) => Err(PageError::new(StatusCode::NOT_FOUND, "No such product", "There is no product with this code.")),
        Err(err) => Err(failed(&err)),
    }
}

async fn vat_page(
    state: &web::Data<WebState>,
    request: &HttpRequest,
    session: &Session,
    query: &ListQuery,
    sent: Option<(&VatForm, Vec<(&'static str, String)>)>,
) -> Result<HttpResponse, PageError> {
    let rates = match state.app.commerce.orders.vat_rates().await {
        Ok(rates) => rates,
        Err(err) => return Err(failed(&err)),
    };
    let (shown, pager) = page_of(rates, query, "/admin/vat-rates", |entry| has(entry.country.as_str(), &query.q));
    let rows = shown
        .into_iter()
        .map(|entry| Row {
            listing: None,
            cells: vec![entry.country.to_string(), entry.rate.to_string(), entry.valid_from.to_string()],
            actions: Vec::new(),
        })
        .collect();
    let error = |name: &str| {
        sent.as_ref().and_then(|(_, errors)| errors.iter().find(|(field, _)| *field == name).map(|(_, message)| message.clone()))
    };
    let value = |pick: fn(&VatForm) -> &String| sent.as_ref().map(|(form, _)| pick(form).clone()).unwrap_or_default();
    let form = FreeForm {
        url: "/admin/vat-rates".into(),
        button: "Set the rate".into(),
        inputs: vec![
            Input {
                id: "vat-country".into(),
                name: "country",
                label: "Country (two letters)".into(),
                value: value(|form| &form.country),
                error: error("country"),
            },
            Input {
                id: "vat-percent".into(),
                name: "percent",
                label: "Rate in percent (25.5)".into(),
                value: value(|form| &form.percent),
                error: error("percent"),
            },
            Input {
                id: "vat-from".into(),
                name: "from",
                label: "From (YYYY-MM-DD)".into(),
                value: value(|form| &form.from),
                error: error("from"),
            },
        ],
    };
    let status = if sent.is_some() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
    let intro = "A new rate applies from its date on; quotes before it keep the old one.";
    Ok(list(
        state,
        request,
        session,
        "VAT rates",
        intro,
        vec!["Country", "Rate", "From"],
        rows,
        Some(query),
        Some(pager),
        Some(form),
        status,
    ))
}

pub async fn vat_rates(
    state: web::Data<WebState>,
    request: HttpRequest,
    query: web::Query<ListQuery>,
    Admin(session): Admin,
) -> Result<HttpResponse, PageError> {
    vat_page(&state, &request, &session, &query, None).await
}

#[derive(Debug, Deserialize)]
pub struct VatForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    country: String,
    #[serde(default)]
    percent: String,
    #[serde(default)]
    from: String,
}

crate::guard::token_in_csrf_field!(VatForm);

pub async fn set_vat_rate(
    state: web::Data<WebState>,
    request: HttpRequest,
    AdminPost { session, form }: AdminPost<VatForm>,
) -> Result<HttpResponse, PageError> {
    let mut errors: Vec<(&'static str, String)> = Vec::new();
    let country = CountryCode::parse(form.country.trim()).map_err(|err| errors.push(("country", err.0.to_string()))).ok();
    let rate = VatRate::parse_percent(form.percent.trim()).or_else(|| {
        errors.push(("percent", "a number from 0 to 100 with at most two decimals".to_owned()));
        None
    });
    let from = time::Date::parse(form.from.trim(), time::macros::format_description!("[year]-[month]-[day]"))
        .map_err(|_| errors.push(("from", "a date YYYY-MM-DD".to_owned())))
        .ok();
    let (Some(country), Some(rate), Some(valid_from)) = (country, rate, from) else {
        return vat_page(&state, &request, &session, &ListQuery::default(), Some((&form, errors))).await;
    };
    let entry = VatRateEntry { country: country.clone(), rate, valid_from };
    if let Err(err) = state.app.commerce.orders.set_vat_rate(&entry).await {
        return Err(failed(&err));
    }
    log(&state, &session, "vat_rate.set", &format!("country {country}"), &format!("{rate} from {valid_from}")).await?;
    Ok(done("/admin/vat-rates", Notice::VatRateSaved, None))
}
