//! What a signed-in person owns, on the account pages: their listings (status, launch week, the
//! last badge check), drafts and orders on `/account`, and one listing's page
//! (`/account/listings/<id>`) to edit its profile and post an update. Every read and change
//! runs the operation the API runs (`list_my_listings`, `get_my_listing`, `update_my_listing`,
//! `post_listing_update`, `list_my_drafts`, `list_my_orders`) as the person, so the bounds,
//! errors and history are the API's; someone else's listing is 404.

use crate::guard::{as_person, signed_in};
use crate::site::{Picture, run_with};
use crate::{PageError, SignedInPost, WebState, words};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use kernel::FieldError;
use ops::operations::drafts::ListMyDrafts;
use ops::operations::orders::ListMyOrders;
use ops::operations::owner::{GetMyListing, ListMyListings, PostListingUpdate, UpdateMyListing};
use ops::wire::{ListingPath, MyListingView};
use ops::{Caller, NoInput, OpError, Pagination};
use serde_json::{Value, json};

/// One of the person's listings as `/account` lists it.
pub(crate) struct ListingRow {
    pub id: i64,
    pub name: String,
    pub status: String,
    pub week: Option<String>,
    /// The last badge check in words, when there was one.
    pub badge: Option<String>,
    pub public_url: Option<String>,
}

pub(crate) struct DraftRow {
    pub name: String,
    pub url: String,
    pub status: String,
    pub completeness: u8,
}

pub(crate) struct OrderRow {
    pub number: String,
    pub status: String,
    pub total: String,
    pub created: String,
}

/// What the person owns, for `/account`: the newest 50 of each.
#[derive(Default)]
pub(crate) struct Owned {
    pub listings: Vec<ListingRow>,
    pub drafts: Vec<DraftRow>,
    pub orders: Vec<OrderRow>,
    /// Invoices and credit notes, newest first.
    pub invoices: Vec<crate::invoices::DocumentRow>,
}

pub(crate) async fn owned(state: &WebState, caller: &Caller) -> Result<Owned, OpError> {
    let page = Pagination::first(50);
    let (listings, drafts, orders) = tokio::join!(
        run_with(ListMyListings, state, caller, NoInput {}, page, NoInput {}),
        run_with(ListMyDrafts, state, caller, NoInput {}, page, NoInput {}),
        run_with(ListMyOrders, state, caller, NoInput {}, page, NoInput {}),
    );
    let invoices = match caller.user_id() {
        Ok(owner) => crate::invoices::rows_of(state, owner).await,
        Err(_) => Vec::new(),
    };
    Ok(Owned {
        invoices,
        listings: listings?
            .items
            .into_iter()
            .map(|listing| ListingRow {
                id: listing.id,
                name: listing.name,
                status: listing.status.replace('_', " "),
                // "14 December 2026": the week's Monday in words.
                week: listing
                    .launch_week
                    .map(|week| kernel::Week::parse_date(&week).map_or(week, |week| crate::dates::long_day(week.monday()))),
                badge: listing
                    .badge_check
                    .map(|check| format!("{} on {}", words(&check.result), crate::dates::long_date_of(&check.checked_at))),
                public_url: listing.public_url,
            })
            .collect(),
        drafts: drafts?
            .items
            .into_iter()
            .map(|draft| DraftRow {
                name: draft.name.unwrap_or_else(|| draft.url.clone()),
                url: draft.url,
                status: words(draft.status),
                completeness: draft.completeness,
            })
            .collect(),
        orders: orders?
            .items
            .into_iter()
            .map(|order| OrderRow {
                total: kernel::Cents::new(order.total_cents).to_string(),
                status: words(order.status),
                created: crate::dates::long_date_of(&order.created_at),
                number: order.number,
            })
            .collect(),
    })
}

/// The profile fields the listing's page edits, with their labels; the rest (contact e-mail,
/// SEO texts, socials, FAQs) stay with the API.
const EDITED: [(&str, &str, Input); 14] = [
    ("tagline", "Tagline", Input::Line),
    ("headline", "Headline", Input::Line),
    ("short_description", "Short description", Input::Text),
    ("description", "Description", Input::Text),
    ("summary", "Long summary", Input::Text),
    ("pricing_model", "Pricing model (free, freemium, subscription, ...)", Input::Line),
    ("pricing_summary", "Pricing", Input::Line),
    ("country", "Country (two-letter code, such as DE)", Input::Line),
    ("city", "City", Input::Line),
    ("founded_year", "Year founded", Input::Year),
    ("demo_video_url", "Demo video (an https link)", Input::Line),
    ("features", "Features (one per line)", Input::List),
    ("usps", "What sets it apart (one per line)", Input::List),
    ("keywords", "Keywords (one per line)", Input::List),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Input {
    Line,
    Text,
    Year,
    List,
}

/// A field of the edit form.
struct FormField {
    name: &'static str,
    label: &'static str,
    value: String,
    multiline: bool,
    error: Option<String>,
}

/// The listing's current values, as the form shows them.
fn current(view: &MyListingView) -> Vec<(&'static str, String)> {
    let p = &view.profile;
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    let list = |items: &Vec<String>| items.join("\n");
    vec![
        ("tagline", text(&p.tagline)),
        ("headline", text(&p.headline)),
        ("short_description", text(&p.short_description)),
        ("description", text(&p.description)),
        ("summary", text(&p.summary)),
        ("pricing_model", text(&p.pricing.model)),
        ("pricing_summary", text(&p.pricing.summary)),
        ("country", text(&p.country)),
        ("city", text(&p.city)),
        ("founded_year", p.founded_year.map(|year| year.to_string()).unwrap_or_default()),
        ("demo_video_url", text(&p.demo_video_url)),
        ("features", list(&p.features)),
        ("usps", list(&p.usps)),
        ("keywords", list(&p.keywords)),
    ]
}

/// A picture of the gallery as the owner's page lists it.
struct GalleryRow {
    picture: Picture,
    alt: String,
}

#[derive(Template)]
#[template(path = "my_listing.html")]
struct MyListingPage<'a> {
    site_name: &'a str,
    csrf: String,
    listing: MyListingView,
    fields: Vec<FormField>,
    /// The logo we keep, if any.
    logo: Option<Picture>,
    gallery: Vec<GalleryRow>,
    /// Whether the public page shows the gallery (the media section is unlocked).
    gallery_shows: bool,
    /// Whether another picture fits.
    gallery_has_room: bool,
    /// What was wrong with a picture sent (`logo`, `picture`, `alt`), beside its field.
    picture_errors: Vec<FieldError>,
    /// The alt text sent with a refused picture, to send again.
    alt: String,
    /// The letter tile without a logo.
    initial: char,
    /// The listing's founders (slug, name) with their pictures.
    founders: Vec<crate::site::Person<(String, String)>>,
    /// The largest picture the site takes, in MiB.
    max_mib: usize,
    /// What was saved, shown once after a change.
    notice: Option<String>,
    update_title: String,
    update_body: String,
    update_errors: Vec<FieldError>,
}

impl MyListingPage<'_> {
    fn update_error(&self, field: &str) -> Option<&str> {
        crate::error_of(&self.update_errors, field)
    }

    fn picture_error(&self, field: &str) -> Option<&str> {
        crate::error_of(&self.picture_errors, field)
    }
}

/// What the forms were sent with, and what was wrong, to show them again.
#[derive(Default)]
pub(crate) struct Sent {
    pub fields: Vec<(String, String)>,
    pub field_errors: Vec<FieldError>,
    pub update: (String, String),
    pub update_errors: Vec<FieldError>,
    /// The pictures' forms: `logo`, `picture` or `alt` with what was wrong.
    pub picture_errors: Vec<FieldError>,
    pub alt: String,
}

pub(crate) async fn render(
    state: &WebState,
    request: &HttpRequest,
    id: i64,
    status: StatusCode,
    notice: Option<String>,
    sent: Sent,
) -> Result<HttpResponse, PageError> {
    let session = signed_in(state, request).await?;
    let caller = as_person(&session, request);
    let listing = run_with(GetMyListing, state, &caller, ListingPath { listing_id: id }, NoInput {}, NoInput {}).await?;
    let values = current(&listing);
    let fields = EDITED
        .iter()
        .map(|(name, label, input)| {
            let sent_value = sent.fields.iter().find(|(key, _)| key == name).map(|(_, value)| value.clone());
            let value = sent_value.or_else(|| values.iter().find(|(key, _)| key == name).map(|(_, value)| value.clone()));
            FormField {
                name,
                label,
                value: value.unwrap_or_default(),
                multiline: matches!(input, Input::Text | Input::List),
                error: sent
                    .field_errors
                    .iter()
                    .find(|error| error.field == format!("fields.{name}") || error.field.starts_with(&format!("fields.{name}[")))
                    // The API's words for an empty value are JSON's; a form's is a blank field.
                    .map(|error| error.message.replace(" or null", ", or blank")),
            }
        })
        .collect();
    let logo = listing.profile.logo.as_ref().and_then(|view| kernel::ImageRef::parse(&view.image).ok());
    let gallery: Vec<GalleryRow> = listing
        .gallery
        .iter()
        .filter_map(|item| {
            let image = kernel::ImageRef::parse(&item.image.image).ok()?;
            Some(GalleryRow { picture: Picture::of(&image, 160), alt: item.caption.clone().unwrap_or_default() })
        })
        .collect();
    let page = MyListingPage {
        site_name: &state.app.site.name,
        csrf: session.csrf_token.clone(),
        logo: logo.map(|logo| Picture::logo(&logo, 64)),
        gallery_has_room: gallery.len() < listings::GalleryImage::MAX_IMAGES,
        gallery,
        gallery_shows: listing.profile.unlocked.media,
        picture_errors: sent.picture_errors,
        alt: sent.alt,
        initial: listing.owned.name.chars().find(|c| c.is_alphanumeric()).map_or('·', |c| c.to_ascii_uppercase()),
        founders: listing
            .profile
            .founders
            .iter()
            .map(|founder| {
                let who = (founder.slug.to_string(), founder.name.clone());
                crate::site::Person::new(who, &founder.name, founder.avatar.as_ref(), 48)
            })
            .collect(),
        max_mib: state.app.media.limits().max_bytes / (1024 * 1024),
        listing,
        fields,
        notice,
        update_title: sent.update.0,
        update_body: sent.update.1,
        update_errors: sent.update_errors,
    };
    Ok(crate::html(status, &page))
}

pub async fn show(state: web::Data<WebState>, request: HttpRequest, path: web::Path<i64>) -> Result<HttpResponse, PageError> {
    let notice = match request.query_string() {
        "saved=1" => Some("Your changes are saved and public.".to_owned()),
        "unchanged=1" => Some("Nothing changed: the values were already these.".to_owned()),
        "posted=1" => Some("Your update is posted; followers are told by e-mail.".to_owned()),
        "pictures=1" => Some("Your pictures are saved.".to_owned()),
        _ => None,
    };
    render(&state, &request, path.into_inner(), StatusCode::OK, notice, Sent::default()).await
}

/// The `update_my_listing` body of the form: every edited field, blank ones cleared.
fn edit_body(form: &[(String, String)]) -> Value {
    let mut fields = serde_json::Map::new();
    for (name, _, input) in EDITED {
        let Some(raw) = form.iter().find(|(key, _)| key == name).map(|(_, value)| value.trim()) else { continue };
        let value = match input {
            _ if raw.is_empty() => Value::Null,
            Input::List => Value::from(raw.lines().map(str::trim).filter(|line| !line.is_empty()).collect::<Vec<_>>()),
            // A year that is not a number goes as text, so the operation names the field.
            Input::Year => raw.parse::<i64>().map_or_else(|_| Value::from(raw), Value::from),
            Input::Line | Input::Text => Value::from(raw),
        };
        fields.insert(name.to_owned(), value);
    }
    json!({ "fields": fields })
}

pub async fn edit(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<i64>,
    SignedInPost { session, form, .. }: SignedInPost<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let id = path.into_inner();
    let caller = as_person(&session, &request);
    let path = ListingPath { listing_id: id };
    match async { run_with(UpdateMyListing, &state, &caller, path, NoInput {}, ops::parse_body(edit_body(&form))?).await }.await {
        Ok(updated) => {
            let outcome = if updated.version.is_some() { "saved=1" } else { "unchanged=1" };
            Ok(HttpResponse::SeeOther().insert_header(("Location", format!("/account/listings/{id}?{outcome}"))).finish())
        }
        Err(OpError::Validation(errors)) => {
            let sent = Sent { fields: form, field_errors: errors, ..Sent::default() };
            render(&state, &request, id, StatusCode::BAD_REQUEST, None, sent).await
        }
        Err(error) => Err(error.into()),
    }
}

pub async fn post_update(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<i64>,
    SignedInPost { session, form, .. }: SignedInPost<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let id = path.into_inner();
    let value = |name: &str| form.iter().find(|(key, _)| key == name).map_or(String::new(), |(_, value)| value.clone());
    let caller = as_person(&session, &request);
    let body = json!({ "title": value("title").trim(), "body": value("body").trim() });
    let path = ListingPath { listing_id: id };
    match async { run_with(PostListingUpdate, &state, &caller, path, NoInput {}, ops::parse_body(body)?).await }.await {
        Ok(_) => Ok(HttpResponse::SeeOther().insert_header(("Location", format!("/account/listings/{id}?posted=1"))).finish()),
        Err(OpError::Validation(errors)) => {
            let sent = Sent { update: (value("title"), value("body")), update_errors: errors, ..Sent::default() };
            render(&state, &request, id, StatusCode::BAD_REQUEST, None, sent).await
        }
        Err(error) => Err(error.into()),
    }
}
