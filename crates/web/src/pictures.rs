//! An owner's pictures on their listing's page (`/account/listings/<id>`): the logo and the
//! gallery sent as files (`multipart/form-data`, `POST .../pictures`), and the gallery put in
//! order, a picture or the logo removed (`POST .../gallery`); a founder's picture sent or removed
//! the same ways (`set_founder_avatar`). Each runs the operations the API
//! runs as the person (`upload_image`, then `update_my_listing`), so the limits, refusals and
//! history are the API's; a refusal is shown beside the field it concerns and nothing is kept.

use crate::guard::{as_person, own_form, signed_in};
use crate::mine::{Sent, render};
use crate::site::run_with;
use crate::{PageError, SignedInPost, WebState};
use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine;
use futures_util::StreamExt;
use kernel::FieldError;
use ops::operations::media::UploadImage;
use ops::operations::owner::{GetMyListing, ListingFounderPath, SetFounderAvatar, UpdateMyListing};
use ops::wire::{ListingPath, MyListingView};
use ops::{Caller, NoInput, OpError};
use serde_json::{Value, json};

/// The longest text field of the pictures' form that is read (the CSRF token, the alt text).
const MAX_TEXT_BYTES: usize = 4096;

/// What the pictures' form sent.
#[derive(Default)]
struct PictureForm {
    csrf: String,
    /// `logo`, `gallery` or `avatar`.
    action: String,
    alt: String,
    /// The founder whose picture it is (`avatar`).
    founder: String,
    file: Vec<u8>,
    /// The file was larger than the site takes: its size so far.
    too_large: Option<usize>,
}

/// Reads the form, stopping a file at one byte past `max_bytes` (it is refused by its size),
/// and the whole form once it is larger than a file and its few text fields can be.
async fn read_form(mut multipart: Multipart, max_bytes: usize) -> Result<PictureForm, String> {
    let mut form = PictureForm::default();
    let mut parts = 0;
    while let Some(field) = multipart.next().await {
        parts += 1;
        if parts > 8 {
            return Err("it has more parts than this form sends".into());
        }
        let mut field = field.map_err(|error| error.to_string())?;
        let name = field.name().unwrap_or_default().to_owned();
        let limit = if name == "file" { max_bytes + 1 } else { MAX_TEXT_BYTES };
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|error| error.to_string())?;
            if bytes.len() + chunk.len() > limit {
                if name != "file" {
                    return Err(format!("its field {name:?} is longer than this form sends"));
                }
                // Refused by its size: the rest of the body is not read (the form's own fields,
                // the token among them, come before the file).
                form.too_large = Some(bytes.len() + chunk.len());
                return Ok(form);
            }
            bytes.extend_from_slice(&chunk);
        }
        let text = || String::from_utf8_lossy(&bytes).trim().to_owned();
        match name.as_str() {
            "csrf" => form.csrf = text(),
            "action" => form.action = text(),
            "alt" => form.alt = text(),
            "founder" => form.founder = text(),
            "file" => form.file = bytes,
            _ => {}
        }
    }
    Ok(form)
}

/// `POST /account/listings/<id>/pictures`: a logo or a gallery picture sent as a file.
pub async fn send(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<i64>,
    multipart: Multipart,
) -> Result<HttpResponse, PageError> {
    let id = path.into_inner();
    let back = format!("/account/listings/{id}");
    // Signed in before the body is read: nobody else makes us read up to a file's worth.
    let session = signed_in(&state, &request).await?;
    let max_bytes = state.app.media.limits().max_bytes;
    let form = match read_form(multipart, max_bytes).await {
        Ok(form) => form,
        Err(detail) => {
            return Err(PageError::new(
                StatusCode::BAD_REQUEST,
                "The pictures could not be read",
                format!("The form did not arrive whole ({detail}); send it again."),
            )
            .back_to(&back));
        }
    };
    own_form(&state, &request, &session, &form.csrf, &back)?;
    let caller = as_person(&session, &request);
    let avatar_field = format!("avatar-{}", form.founder);
    let field = match form.action.as_str() {
        "logo" => "logo",
        "avatar" => avatar_field.as_str(),
        _ => "picture",
    };
    let refused = |field: &str, message: String, alt: &str| Sent {
        picture_errors: vec![FieldError::new(field, message)],
        alt: alt.to_owned(),
        ..Sent::default()
    };
    if form.file.is_empty() {
        let sent = refused(field, "Choose a picture file first.".into(), &form.alt);
        return render(&state, &request, id, StatusCode::BAD_REQUEST, None, sent).await;
    }
    if form.action == "gallery" && form.alt.is_empty() {
        let sent = refused("alt", "Say what the picture shows: a screen reader reads it out to people who cannot see it.".into(), "");
        return render(&state, &request, id, StatusCode::BAD_REQUEST, None, sent).await;
    }
    if let Some(bytes) = form.too_large {
        let message =
            format!("The file is larger than {} MiB (at least {bytes} bytes): send a smaller picture.", max_bytes / (1024 * 1024));
        return render(&state, &request, id, StatusCode::BAD_REQUEST, None, refused(field, message, &form.alt)).await;
    }
    let data = base64::engine::general_purpose::STANDARD.encode(&form.file);
    let uploaded =
        async { run_with(UploadImage, &state, &caller, NoInput {}, NoInput {}, ops::parse_body(json!({ "data": data }))?).await }.await;
    let image = match uploaded {
        Ok(image) => image.image,
        Err(OpError::Validation(errors)) => {
            let message = errors.first().map_or_else(|| "is not a picture we can keep".to_owned(), |error| error.message.clone());
            let sent = refused(field, format!("This file {message}."), &form.alt);
            return render(&state, &request, id, StatusCode::BAD_REQUEST, None, sent).await;
        }
        Err(error) => return Err(error.into()),
    };
    if form.action == "avatar" {
        return save_avatar(&state, &request, &caller, id, &form.founder, json!({ "avatar": image })).await;
    }
    let body = if form.action == "logo" {
        json!({ "logo": image })
    } else {
        let mut gallery = current_gallery(&state, &caller, id).await?;
        gallery.push(json!({ "image": image, "alt": form.alt }));
        json!({ "gallery": gallery })
    };
    save(&state, &request, &caller, id, body, &form.alt).await
}

/// The gallery as `update_my_listing` takes it.
async fn current_gallery(state: &WebState, caller: &Caller, id: i64) -> Result<Vec<Value>, PageError> {
    let listing: MyListingView = run_with(GetMyListing, state, caller, ListingPath { listing_id: id }, NoInput {}, NoInput {}).await?;
    Ok(listing.gallery.iter().map(|item| json!({ "image": item.image.image, "alt": item.caption })).collect())
}

/// Runs `update_my_listing`; back to the page with what was saved, or the page with each error
/// beside its field (`gallery[3].alt` beside the alt text).
async fn save(
    state: &WebState,
    request: &HttpRequest,
    caller: &Caller,
    id: i64,
    body: Value,
    alt: &str,
) -> Result<HttpResponse, PageError> {
    let path = ListingPath { listing_id: id };
    match async { run_with(UpdateMyListing, state, caller, path, NoInput {}, ops::parse_body(body)?).await }.await {
        Ok(_) => Ok(HttpResponse::SeeOther().insert_header(("Location", format!("/account/listings/{id}?pictures=1#pictures"))).finish()),
        Err(OpError::Validation(errors)) => {
            let picture_errors = errors
                .into_iter()
                .map(|error| {
                    let field = if error.field.ends_with(".alt") {
                        "alt"
                    } else if error.field == "logo" {
                        "logo"
                    } else {
                        "picture"
                    };
                    FieldError::new(field, error.message)
                })
                .collect();
            let sent = Sent { picture_errors, alt: alt.to_owned(), ..Sent::default() };
            render(state, request, id, StatusCode::BAD_REQUEST, None, sent).await
        }
        Err(error) => Err(error.into()),
    }
}

/// Runs `set_founder_avatar`; back to the page with the picture shown, or the page with the
/// refusal beside the founder's file.
async fn save_avatar(
    state: &WebState,
    request: &HttpRequest,
    caller: &Caller,
    id: i64,
    founder: &str,
    body: Value,
) -> Result<HttpResponse, PageError> {
    let Ok(slug) = kernel::Slug::parse(founder) else {
        return Err(PageError::new(StatusCode::NOT_FOUND, "No such founder", "This listing has no founder by that name.".to_owned()));
    };
    let path = ListingFounderPath { listing_id: id, slug };
    match async { run_with(SetFounderAvatar, state, caller, path, NoInput {}, ops::parse_body(body)?).await }.await {
        Ok(_) => Ok(HttpResponse::SeeOther().insert_header(("Location", format!("/account/listings/{id}?pictures=1#founders"))).finish()),
        Err(OpError::Validation(errors)) => {
            let message = errors.first().map_or_else(|| "is not a picture we can keep".to_owned(), |error| error.message.clone());
            let sent = Sent { picture_errors: vec![FieldError::new(format!("avatar-{founder}"), message)], ..Sent::default() };
            render(state, request, id, StatusCode::BAD_REQUEST, None, sent).await
        }
        Err(error) => Err(error.into()),
    }
}

/// `POST /account/listings/<id>/gallery`: `action` `up`, `down` or `remove` the picture at
/// `index`, `remove_logo`, or `remove_avatar` of a `founder`.
pub async fn arrange(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<i64>,
    SignedInPost { session, form, .. }: SignedInPost<Vec<(String, String)>>,
) -> Result<HttpResponse, PageError> {
    let id = path.into_inner();
    let caller = as_person(&session, &request);
    let value = |name: &str| form.iter().find(|(key, _)| key == name).map_or("", |(_, value)| value.as_str());
    let action = value("action");
    if action == "remove_logo" {
        return save(&state, &request, &caller, id, json!({ "logo": null }), "").await;
    }
    if action == "remove_avatar" {
        return save_avatar(&state, &request, &caller, id, value("founder"), json!({ "avatar": null })).await;
    }
    let mut gallery = current_gallery(&state, &caller, id).await?;
    let index = value("index").parse::<usize>().ok().filter(|index| *index < gallery.len());
    match (action, index) {
        ("remove", Some(index)) => {
            gallery.remove(index);
        }
        ("up", Some(index)) if index > 0 => gallery.swap(index, index - 1),
        ("down", Some(index)) if index + 1 < gallery.len() => gallery.swap(index, index + 1),
        // A stale button (the gallery changed in another tab): the page as it is now.
        _ => return Ok(HttpResponse::SeeOther().insert_header(("Location", format!("/account/listings/{id}#pictures"))).finish()),
    }
    save(&state, &request, &caller, id, json!({ "gallery": gallery }), "").await
}

/// `POST /submit/drafts/<id>/pictures`: a picture added to a draft (a screenshot, or the logo,
/// which then stands in for the others the draft holds), kept through `upload_image` and added
/// with `update_draft`; a refusal is shown beside the file on the editor.
pub async fn send_to_draft(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    multipart: Multipart,
) -> Result<HttpResponse, PageError> {
    use ops::operations::drafts::UpdateDraft;
    use ops::wire::DraftPath;
    let back = format!("/submit/drafts/{path}");
    let session = signed_in(&state, &request).await?;
    let form = match read_form(multipart, state.app.media.limits().max_bytes).await {
        Ok(form) => form,
        Err(detail) => {
            return Err(PageError::new(
                StatusCode::BAD_REQUEST,
                "The picture could not be read",
                format!("The form did not arrive whole ({detail}); send it again."),
            )
            .back_to(&back));
        }
    };
    own_form(&state, &request, &session, &form.csrf, &back)?;
    let caller = as_person(&session, &request);
    let draft = crate::submit::draft_of(&state, &caller, &path).await?;
    let refused = |message: String| crate::submit::EditorSent {
        values: vec![("upload_alt".to_owned(), form.alt.clone())],
        errors: vec![FieldError::new("upload", message)],
    };
    let max_mib = state.app.media.limits().max_bytes / (1024 * 1024);
    let problem = if form.file.is_empty() {
        Some("Choose a picture file first.".to_owned())
    } else if let Some(bytes) = form.too_large {
        Some(format!("The file is larger than {max_mib} MiB (at least {bytes} bytes): send a smaller picture."))
    } else if form.action != "logo" && form.alt.is_empty() {
        Some("Say what the picture shows: a screen reader reads it out to people who cannot see it.".to_owned())
    } else {
        None
    };
    if let Some(message) = problem {
        return Ok(crate::submit::editor_page(&state, &request, &session, draft, StatusCode::BAD_REQUEST, None, refused(message)).await);
    }
    let data = base64::engine::general_purpose::STANDARD.encode(&form.file);
    let image =
        match async { run_with(UploadImage, &state, &caller, NoInput {}, NoInput {}, ops::parse_body(json!({ "data": data }))?).await }
            .await
        {
            Ok(image) => image.image,
            Err(OpError::Validation(errors)) => {
                let message = errors.first().map_or_else(|| "is not a picture we can keep".to_owned(), |error| error.message.clone());
                return Ok(crate::submit::editor_page(
                    &state,
                    &request,
                    &session,
                    draft,
                    StatusCode::BAD_REQUEST,
                    None,
                    refused(format!("This file {message}.")),
                )
                .await);
            }
            Err(error) => return Err(error.into()),
        };
    let logo = form.action == "logo";
    let mut pictures: Vec<Value> = draft
        .pictures
        .iter()
        // A new logo stands in for the others: they stay in view, unused.
        .map(|p| json!({ "image": p.image, "alt": p.alt, "kept": p.kept && !(logo && p.role == drafts::PictureRole::Logo) }))
        .collect();
    let role = if logo { "logo" } else { "screenshot" };
    let added = json!({ "image": image, "alt": form.alt, "kept": true, "role": role });
    if logo {
        pictures.insert(0, added)
    } else {
        pictures.push(added)
    }
    let body = json!({ "pictures": pictures });
    let path = DraftPath { id: draft.id.clone() };
    match async { run_with(UpdateDraft, &state, &caller, path, NoInput {}, ops::parse_body(body)?).await }.await {
        Ok(updated) => {
            Ok(HttpResponse::SeeOther().insert_header(("Location", format!("/submit/drafts/{}?saved=1#pictures", updated.id))).finish())
        }
        Err(OpError::Validation(errors)) => {
            let message = errors.iter().map(|error| error.message.clone()).collect::<Vec<_>>().join("; ");
            Ok(crate::submit::editor_page(&state, &request, &session, draft, StatusCode::BAD_REQUEST, None, refused(message)).await)
        }
        Err(error) => Err(error.into()),
    }
}
