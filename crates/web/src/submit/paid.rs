//! The paid launch a maker shapes before paying: the launch (or the bundle), its week (Mondays
//! only, so it never goes live on a surprise weekday), extras from the price list with their
//! prices, and the price with VAT for the buyer's country, priced by `quote_order` as the API
//! prices it. "Go to checkout" runs `create_checkout` with the same items and lands on the
//! order's checkout page. A listing waiting in the free queue comes here to upgrade: the paid
//! launch takes it out of the queue and frees its place. The page's script asks
//! `/submit/drafts/<id>/quote` for the price as choices change; without it, "Show the price"
//! does the same.

use super::editor::Problem;
use super::{draft_of, person, see_other};
use crate::choices::{self, CategoryChoice, CountryChoice};
use crate::dates::week_start;
use crate::site::{Meta, page, run, run_with};
use crate::{PageError, SignedInPost, WebState};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use kernel::FieldError;
use ops::operations::catalog::{ListProducts, ProductView};
use ops::operations::orders::{CreateCheckout, QuoteOrder, QuoteView};
use ops::operations::owner::GetMyListing;
use ops::wire::{ListingPath, MyListingView};
use ops::{Caller, NoInput, OpError};
use orders::{ProductKind, WeekRule};
use serde_json::{Map, Value, json};

/// At most this many extra categories (`orders::MAX_EXTRA_CATEGORIES`).
const CATEGORY_SLOTS: usize = orders::MAX_EXTRA_CATEGORIES;

/// A launch product the maker may choose (the paid launch, the bundle).
struct LaunchChoice {
    code: String,
    name: String,
    description: String,
    price: String,
    checked: bool,
}

/// A week the launch may be given.
struct WeekChoice {
    value: String,
    label: String,
    checked: bool,
    /// Every paid launch place of the week is taken: shown, not to be chosen.
    full: bool,
}

/// A choice of an extra's option (featured placement: homepage or category).
struct OptionInput {
    /// The form's name: `option.<code>.<key>`.
    name: String,
    label: String,
    /// Each choice's value and its words.
    choices: Vec<(String, String)>,
    chosen: String,
}

/// An extra from the price list, as the page offers it.
struct ExtraRow {
    code: String,
    name: String,
    description: String,
    price: String,
    chosen: bool,
    options: Vec<OptionInput>,
    /// Extra categories: the categories picked so far, one a slot.
    category_slots: Option<Vec<String>>,
    /// Billboard: the amount typed, in dollars.
    amount: Option<String>,
    error: Option<String>,
}

/// One line of the price.
struct QuoteLine {
    name: String,
    detail: Option<String>,
    subtotal: String,
    vat: String,
    total: String,
}

/// The price as the page shows it.
pub(crate) struct QuoteRows {
    lines: Vec<QuoteLine>,
    subtotal: String,
    vat_rate: String,
    vat: String,
    total: String,
    note: &'static str,
}

#[derive(Template)]
#[template(path = "site/paid_launch.html")]
struct PaidPage<'a> {
    site_name: &'a str,
    meta: Meta,
    draft_id: String,
    csrf: String,
    listing: MyListingView,
    upgrading: bool,
    launches: Vec<LaunchChoice>,
    weeks: Vec<WeekChoice>,
    week_error: Option<String>,
    extras: Vec<ExtraRow>,
    categories: Vec<CategoryChoice>,
    countries: Vec<CountryChoice>,
    country: String,
    country_error: Option<String>,
    vat_number: String,
    vat_number_error: Option<String>,
    problems: Vec<Problem>,
    quote: Option<QuoteRows>,
}

#[derive(Template)]
#[template(path = "site/paid_quote.html")]
struct QuoteFragment {
    quote: Option<QuoteRows>,
}

/// What the form holds, read from its pairs.
struct Choices {
    pairs: Vec<(String, String)>,
}

impl Choices {
    fn one(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(key, _)| key == name).map(|(_, value)| value.trim()).filter(|value| !value.is_empty())
    }

    fn all(&self, name: &str) -> Vec<&str> {
        self.pairs.iter().filter(|(key, _)| key == name).map(|(_, value)| value.trim()).filter(|value| !value.is_empty()).collect()
    }

    fn has_extra(&self, code: &str) -> bool {
        self.all("extra").contains(&code)
    }
}

/// "25", "25.5", "$25.50" as cents; `None` for anything else.
fn dollars_to_cents(raw: &str) -> Option<i64> {
    let raw = raw.trim().trim_start_matches('$').trim();
    let (whole, fraction) = raw.split_once('.').unwrap_or((raw, ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) || fraction.len() > 2 || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let cents = format!("{fraction:0<2}").parse::<i64>().ok()?;
    whole.parse::<i64>().ok()?.checked_mul(100)?.checked_add(cents)
}

/// Whether a product is an extra a new launch may take (bought for the listing, no week of its
/// own): featured placement, extra categories, the billboard, reviews and any new product the
/// site team sells. The launch products, skipping the queue and relaunches are not extras.
fn is_extra(product: &ProductView) -> bool {
    let kind = ProductKind::of(&product.code);
    product.needs_listing
        && product.week_rule == WeekRule::None
        && !kind.launches()
        && !matches!(kind, ProductKind::SkipQueue | ProductKind::Relaunch)
}

/// The order's items as `quote_order` and `create_checkout` take them, in the order the page
/// shows them: the launch first, then the extras chosen, each with the field it belongs to.
fn items(listing: i64, products: &[ProductView], form: &Choices, errors: &mut Vec<FieldError>) -> (Vec<Value>, Vec<String>) {
    let launch = form.one("launch").unwrap_or("launch");
    let mut items = vec![json!({"product": launch, "listing_id": listing, "week": form.one("week")})];
    let mut places = vec!["launch".to_owned()];
    for product in products.iter().filter(|product| is_extra(product) && form.has_extra(&product.code)) {
        let code = &product.code;
        let mut item = Map::new();
        item.insert("product".into(), json!(code));
        item.insert("listing_id".into(), json!(listing));
        let mut options = Map::new();
        for (key, _) in option_rules(product) {
            if let Some(value) = form.one(&format!("option.{code}.{key}")) {
                options.insert(key, json!(value));
            }
        }
        if !options.is_empty() {
            item.insert("options".into(), Value::Object(options));
        }
        match ProductKind::of(code) {
            ProductKind::ExtraCategories => {
                item.insert("categories".into(), json!(form.all(&format!("category.{code}"))));
            }
            ProductKind::BillboardMin => match form.one(&format!("amount.{code}")).map(|raw| (raw, dollars_to_cents(raw))) {
                Some((_, Some(cents))) => {
                    item.insert("amount_cents".into(), json!(cents));
                }
                Some((_, None)) => {
                    errors.push(FieldError::new(format!("extra.{code}"), "Enter an amount in dollars, such as 25 or 25.50."))
                }
                None => {}
            },
            _ => {}
        }
        items.push(Value::Object(item));
        places.push(format!("extra.{code}"));
    }
    (items, places)
}

/// The options a product declares that have a list of choices: (key, choices).
fn option_rules(product: &ProductView) -> Vec<(String, Vec<String>)> {
    let Some(Value::Object(rules)) = &product.options else { return Vec::new() };
    rules
        .iter()
        .filter_map(|(key, rule)| {
            let choices = rule.get("enum")?.as_array()?.iter().filter_map(|choice| choice.as_str().map(str::to_owned)).collect();
            Some((key.clone(), choices))
        })
        .collect()
}

/// The order request body of the form.
fn request_body(items: Vec<Value>, form: &Choices) -> Value {
    json!({"items": items, "billing_country": form.one("country"), "vat_number": form.one("vat_number")})
}

/// Where an operation's error belongs on the page: `items[0].week` by the week, an extra's by
/// that extra, the billing country by its picker.
fn place_of(field: &str, places: &[String]) -> String {
    if let Some(rest) = field.strip_prefix("items[") {
        let index = rest.split(']').next().and_then(|index| index.parse::<usize>().ok());
        let place = index.and_then(|index| places.get(index)).cloned().unwrap_or_else(|| "launch".to_owned());
        return if place == "launch" && rest.contains("].week") { "week".to_owned() } else { place };
    }
    match field {
        "billing_country" => "country".to_owned(),
        "vat_number" => "vat_number".to_owned(),
        _ => field.to_owned(),
    }
}

pub(crate) fn vat_words(quote: &QuoteView) -> &'static str {
    crate::checkout::vat_note(quote.vat.treatment)
}

fn quote_rows(quote: &QuoteView) -> QuoteRows {
    let cents = |amount: i64| kernel::Cents::new(amount).to_string();
    QuoteRows {
        lines: quote
            .items
            .iter()
            .map(|line| QuoteLine {
                name: line.name.clone(),
                detail: line
                    .week
                    .as_deref()
                    .and_then(kernel::Week::parse_date)
                    .map(|week| format!("week of {}", week_start(week)))
                    .or_else(|| (!line.categories.is_empty()).then(|| line.categories.join(", "))),
                subtotal: cents(line.subtotal_cents),
                vat: cents(line.vat_cents),
                total: cents(line.total_cents),
            })
            .collect(),
        subtotal: cents(quote.subtotal_cents),
        vat_rate: format!("{} %", quote.vat.rate_percent),
        vat: cents(quote.vat_cents),
        total: cents(quote.total_cents),
        note: vat_words(quote),
    }
}

/// The listing a submitted draft made, and whether it may be launched paid from here.
async fn listing_for(state: &WebState, caller: &Caller, id: &str) -> Result<(String, MyListingView), PageError> {
    let draft = draft_of(state, caller, id).await?;
    let Some(listing_id) = draft.listing_id else { return Err(see_other(&format!("/submit/drafts/{}", draft.id)).into()) };
    let listing = run_with(GetMyListing, state, caller, ListingPath { listing_id }, NoInput {}, NoInput {}).await?;
    if !matches!(listing.owned.status, "draft" | "awaiting_badge") {
        // Launched, scheduled or archived: the launch page says where it stands.
        return Err(see_other(&format!("/submit/drafts/{}/launch", draft.id)).into());
    }
    Ok((draft.id, listing))
}

/// What every step of the page starts from: the draft's listing (one the person may launch
/// paid) and the price list.
struct Shaping {
    draft_id: String,
    listing: MyListingView,
    products: Vec<ProductView>,
}

async fn shaping(state: &WebState, caller: &Caller, id: &str) -> Result<Shaping, PageError> {
    let (draft_id, listing) = listing_for(state, caller, id).await?;
    let products = run(ListProducts, state, caller, &[], &[]).await?.items;
    Ok(Shaping { draft_id, listing, products })
}

/// The form's choices with nothing chosen yet: the paid launch in the first week with room.
fn first_choices(products: &[ProductView], full: &[kernel::Week]) -> Choices {
    let first_week =
        products.iter().find(|product| product.code == "launch").and_then(|launch| launch.weeks.iter().find(|week| !full.contains(week)));
    let mut pairs = vec![("launch".to_owned(), "launch".to_owned())];
    if let Some(week) = first_week {
        pairs.push(("week".to_owned(), week.to_string()));
    }
    Choices { pairs }
}

/// Prices the form's choices: the quote, or the problems (each at its place on the page).
async fn price(
    state: &WebState,
    caller: &Caller,
    listing: i64,
    products: &[ProductView],
    form: &Choices,
) -> Result<QuoteView, Vec<FieldError>> {
    let mut errors = Vec::new();
    let (items, places) = items(listing, products, form, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let body = request_body(items, form);
    let quoted = async { run_with(QuoteOrder, state, caller, NoInput {}, NoInput {}, ops::parse_body(body)?).await }.await;
    quoted.map_err(|error| placed(error, &places))
}

/// An operation's refusal as errors placed on the page.
fn placed(error: OpError, places: &[String]) -> Vec<FieldError> {
    match error {
        OpError::Validation(errors) => {
            errors.into_iter().map(|error| FieldError::new(place_of(&error.field, places), error.message)).collect()
        }
        other => vec![FieldError::new("launch", other.to_string())],
    }
}

#[allow(clippy::too_many_arguments)]
async fn render(
    state: &WebState,
    request: &HttpRequest,
    csrf: String,
    draft_id: String,
    listing: MyListingView,
    products: Vec<ProductView>,
    form: &Choices,
    outcome: Result<QuoteView, Vec<FieldError>>,
    status: StatusCode,
) -> HttpResponse {
    let (quote, errors) = match outcome {
        Ok(quote) => (Some(quote_rows(&quote)), Vec::new()),
        Err(errors) => (None, errors),
    };
    let error_at = |place: &str| {
        let found: Vec<&str> = errors.iter().filter(|error| error.field == place).map(|error| error.message.as_str()).collect();
        (!found.is_empty()).then(|| found.join(" "))
    };
    let chosen_launch = form.one("launch").unwrap_or("launch");
    let full = full_weeks(state).await;
    let launches: Vec<LaunchChoice> = products
        .iter()
        .filter(|product| ProductKind::of(&product.code).launches())
        .map(|product| LaunchChoice {
            code: product.code.clone(),
            name: product.name.clone(),
            description: product.description.clone(),
            price: kernel::Cents::new(product.price_cents).to_string(),
            checked: product.code == chosen_launch,
        })
        .collect();
    let weeks = products
        .iter()
        .find(|product| product.code == chosen_launch)
        .map(|launch| {
            launch
                .weeks
                .iter()
                .map(|week| WeekChoice {
                    value: week.to_string(),
                    label: week_start(*week),
                    checked: form.one("week") == Some(week.to_string().as_str()),
                    full: full.contains(week),
                })
                .collect()
        })
        .unwrap_or_default();
    let extras = products
        .iter()
        .filter(|product| is_extra(product))
        .map(|product| {
            let code = &product.code;
            let kind = ProductKind::of(code);
            ExtraRow {
                code: code.clone(),
                name: product.name.clone(),
                description: product.description.clone(),
                price: if kind == ProductKind::BillboardMin {
                    format!("from {}", kernel::Cents::new(product.price_cents))
                } else {
                    kernel::Cents::new(product.price_cents).to_string()
                },
                chosen: form.has_extra(code),
                options: option_rules(product)
                    .into_iter()
                    .map(|(key, choices)| {
                        let name = format!("option.{code}.{key}");
                        OptionInput {
                            chosen: form.one(&name).unwrap_or_default().to_owned(),
                            label: words_of(&key),
                            name,
                            choices: choices
                                .into_iter()
                                .map(|choice| (words_of(&choice), choice))
                                .map(|(words, value)| (value, words))
                                .collect(),
                        }
                    })
                    .collect(),
                category_slots: (kind == ProductKind::ExtraCategories).then(|| {
                    let picked = form.all(&format!("category.{code}"));
                    (0..CATEGORY_SLOTS).map(|slot| picked.get(slot).map(|slug| (*slug).to_owned()).unwrap_or_default()).collect()
                }),
                amount: (kind == ProductKind::BillboardMin).then(|| form.one(&format!("amount.{code}")).unwrap_or_default().to_owned()),
                error: error_at(&format!("extra.{code}")),
            }
        })
        .collect();
    let anchor = |place: &str| match place {
        "week" => "week-choices".to_owned(),
        "country" | "vat_number" => place.replace('_', "-"),
        place if place.starts_with("extra.") => format!("extra-{}", &place["extra.".len()..]),
        _ => "launch-choices".to_owned(),
    };
    let name_of = |place: &str| match place {
        "week" => "Launch week".to_owned(),
        "country" => "Country".to_owned(),
        "vat_number" => "EU VAT number".to_owned(),
        place => place
            .strip_prefix("extra.")
            .and_then(|code| products.iter().find(|product| product.code == code))
            .map_or_else(|| "Your launch".to_owned(), |product| product.name.clone()),
    };
    let problems = errors
        .iter()
        .map(|error| Problem { anchor: anchor(&error.field), message: format!("{}: {}", name_of(&error.field), error.message) })
        .collect();
    let upgrading = listing.owned.status == "awaiting_badge";
    let title = format!("Shape the paid launch of {}", listing.owned.name);
    let meta =
        Meta::new(state, request.path(), title, "Choose the week and extras of a paid launch, and see the price with VAT.".to_owned());
    let shaped = PaidPage {
        site_name: &state.app.site.name,
        meta,
        draft_id,
        csrf,
        listing,
        upgrading,
        launches,
        weeks,
        week_error: error_at("week").or_else(|| error_at("launch")),
        extras,
        categories: choices::categories(state, &crate::site::caller(request)).await,
        countries: choices::countries(),
        country: form.one("country").unwrap_or_default().to_uppercase(),
        country_error: error_at("country"),
        vat_number: form.one("vat_number").unwrap_or_default().to_owned(),
        vat_number_error: error_at("vat_number"),
        problems,
        quote,
    };
    page(request, status, &shaped)
}

/// The weeks without a paid launch place left.
async fn full_weeks(state: &WebState) -> Vec<kernel::Week> {
    state.app.commerce.orders.full_paid_weeks().await.unwrap_or_else(|err| {
        tracing::warn!(error = %err, "could not count the paid launches of the coming weeks");
        Vec::new()
    })
}

/// `placement` as "Placement".
fn words_of(key: &str) -> String {
    let spaced = key.replace('_', " ");
    let mut letters = spaced.chars();
    letters.next().map(|first| first.to_uppercase().chain(letters).collect()).unwrap_or_default()
}

/// `GET /submit/drafts/<id>/paid`: the page, priced for the paid launch in the first week.
pub async fn paid_page(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, PageError> {
    let (session, caller) = person(&state, &request).await?;
    let Shaping { draft_id, listing, products } = shaping(&state, &caller, &path).await?;
    let form = first_choices(&products, &full_weeks(&state).await);
    let outcome = price(&state, &caller, listing.owned.id, &products, &form).await;
    Ok(render(&state, &request, session.csrf_token, draft_id, listing, products, &form, outcome, StatusCode::OK).await)
}

/// `POST /submit/drafts/<id>/paid`: "Show the price" prices the choices again; "Go to checkout"
/// creates the order and goes to its checkout page. Anything wrong shows the page again with
/// each problem beside its field, and nothing is ordered.
pub async fn shape_paid(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    SignedInPost { session, form, .. }: SignedInPost<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let caller = crate::guard::as_person(&session, &request);
    let Shaping { draft_id, listing, products } = shaping(&state, &caller, &path).await?;
    let form = Choices { pairs: form };
    let outcome = if form.one("action") == Some("checkout") {
        let mut errors = Vec::new();
        let (items, places) = items(listing.owned.id, &products, &form, &mut errors);
        if errors.is_empty() {
            let body = request_body(items, &form);
            match async { run_with(CreateCheckout, &state, &caller, NoInput {}, NoInput {}, ops::parse_body(body)?).await }.await {
                Ok(created) => {
                    // The checkout page is on this site: go to its path, whatever address the site has.
                    let url = created.checkout_url;
                    return Ok(see_other(url.find("/checkout/").map_or(url.as_str(), |at| &url[at..])));
                }
                Err(error @ OpError::Validation(_)) => Err(placed(error, &places)),
                Err(error) => return Err(error.into()),
            }
        } else {
            Err(errors)
        }
    } else {
        price(&state, &caller, listing.owned.id, &products, &form).await
    };
    let status = if outcome.is_ok() { StatusCode::OK } else { StatusCode::BAD_REQUEST };
    Ok(render(&state, &request, session.csrf_token, draft_id, listing, products, &form, outcome, status).await)
}

/// `POST /submit/drafts/<id>/quote`: the price of the form's choices as the page shows it, for
/// the page's script; problems come back as the page would show them after "Show the price".
pub async fn quote(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    SignedInPost { session, form, .. }: SignedInPost<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let caller = crate::guard::as_person(&session, &request);
    let Shaping { listing, products, .. } = shaping(&state, &caller, &path).await?;
    let form = Choices { pairs: form };
    let fragment = match price(&state, &caller, listing.owned.id, &products, &form).await {
        Ok(quote) => QuoteFragment { quote: Some(quote_rows(&quote)) },
        // The script then submits the form, so the problems appear beside their fields.
        Err(_) => return Ok(HttpResponse::UnprocessableEntity().insert_header(("Cache-Control", "no-store")).finish()),
    };
    let body = fragment.render().map_err(|err| PageError::from(OpError::internal(kernel::RepoError::Backend(err.to_string().into()))))?;
    Ok(HttpResponse::Ok().insert_header(("Cache-Control", "no-store")).content_type("text/html; charset=utf-8").body(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_read_as_people_write_them() {
        assert_eq!(dollars_to_cents("25"), Some(2500));
        assert_eq!(dollars_to_cents("25.5"), Some(2550));
        assert_eq!(dollars_to_cents(" $25.05 "), Some(2505));
        for wrong in ["", "25.505", "-3", "2,5", "abc", "."] {
            assert_eq!(dollars_to_cents(wrong), None, "{wrong}");
        }
    }

    #[test]
    fn errors_find_their_place() {
        let places = vec!["launch".to_owned(), "extra.featured".to_owned()];
        assert_eq!(place_of("items[0].week", &places), "week");
        assert_eq!(place_of("items[0].listing_id", &places), "launch");
        assert_eq!(place_of("items[1].options.placement", &places), "extra.featured");
        assert_eq!(place_of("billing_country", &places), "country");
    }
}
