//! The co-founder invitation's page (`/invites/<token>`, the link `invite_cofounder` e-mails):
//! it names the product and the invited address, asks a person who is not signed in to sign in
//! or sign up first (coming back here), and takes their founder profile (name, role, a short
//! bio) with a POST carrying the session's CSRF token. The link works once, for 14 days; a used,
//! expired or unknown link says so.

use crate::{PageError, SignedInPost, WebState, message, percent_encode, session};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use drafts::{DraftError, DraftFounder, InviteState, OpenInvite};
use kernel::FieldError;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "invite.html")]
struct InvitePage<'a> {
    site_name: &'a str,
    invite: OpenInvite,
    token: String,
    /// Where signing in or up comes back to, encoded for a query.
    here: String,
    /// The session's CSRF token; `None` when not signed in (or signed in with another address).
    csrf: Option<String>,
    /// Signed in with an address the invitation did not go to.
    signed_in_elsewhere: bool,
    name: String,
    title: String,
    bio: String,
    errors: Vec<FieldError>,
}

impl InvitePage<'_> {
    fn error(&self, field: &str) -> Option<&str> {
        crate::error_of(&self.errors, field)
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct FounderForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    bio: String,
}

crate::guard::token_in_csrf_field!(FounderForm);

fn unusable(why: InviteState) -> PageError {
    let text = match why {
        InviteState::Accepted => {
            "This invitation was accepted already: its link works once. Ask the person who invited you for a new one if you need it."
        }
        _ => "This invitation has expired: its link works for 14 days. Ask the person who invited you for a new one.",
    };
    PageError::new(StatusCode::GONE, "This invitation cannot be used", text)
}

async fn render(
    state: &WebState,
    request: &HttpRequest,
    token: &str,
    status: StatusCode,
    sent: Option<(FounderForm, Vec<FieldError>)>,
) -> Result<HttpResponse, PageError> {
    let invite = state.app.drafts.invitation(token).await.map_err(|err| PageError::failed("an invitation could not be read", &err))?;
    let Some(invite) = invite else {
        let detail = "This invitation link is not valid: it may have been copied incompletely.";
        return Err(PageError::new(StatusCode::NOT_FOUND, "No such invitation", detail));
    };
    if invite.state != InviteState::Open {
        return Err(unusable(invite.state));
    }
    let session = session(state, request).await;
    // Only the invited address may accept: anyone else signed in is told which address to use.
    let invited = session.as_ref().is_none_or(|session| session.user.email.as_str().eq_ignore_ascii_case(&invite.email));
    let (form, errors) = sent.unwrap_or_else(|| {
        let name = session.as_ref().map(|session| session.user.display_name.clone()).unwrap_or_default();
        (FounderForm { name, ..FounderForm::default() }, Vec::new())
    });
    let page = InvitePage {
        site_name: &state.app.site.name,
        invite,
        token: token.to_owned(),
        here: percent_encode(&format!("/invites/{token}")),
        signed_in_elsewhere: !invited,
        csrf: session.filter(|_| invited).map(|session| session.csrf_token),
        name: form.name,
        title: form.title,
        bio: form.bio,
        errors,
    };
    Ok(crate::html(status, &page))
}

pub async fn show(state: web::Data<WebState>, request: HttpRequest, path: web::Path<String>) -> Result<HttpResponse, PageError> {
    render(&state, &request, &path, StatusCode::OK, None).await
}

pub async fn accept(
    state: web::Data<WebState>,
    request: HttpRequest,
    path: web::Path<String>,
    SignedInPost { session, form, .. }: SignedInPost<FounderForm>,
) -> Result<HttpResponse, PageError> {
    let founder = DraftFounder { name: form.name.clone(), title: Some(form.title.clone()), bio: Some(form.bio.clone()) };
    match state.app.drafts.accept_invitation(&path, session.user.id, session.user.email.as_str(), founder).await {
        Ok(accepted) => {
            let text = if accepted.on_listing {
                format!("You are now a founder of {}: on its draft, and its listing takes the change.", accepted.product)
            } else {
                format!("You are now a founder on the draft of {}; you appear on its listing once it is published.", accepted.product)
            };
            Ok(message(&state, StatusCode::OK, "Your founder profile is added", &text))
        }
        Err(DraftError::Invalid(errors)) if errors.iter().any(|error| error.field == "token") => Err(unusable(InviteState::Accepted)),
        Err(DraftError::Invalid(errors)) if errors.iter().any(|error| error.field == "email") => {
            let why = errors.iter().find(|error| error.field == "email").map(|error| error.message.clone()).unwrap_or_default();
            Err(PageError::new(StatusCode::FORBIDDEN, "Sign in with the invited address", format!("{}.", capitalised(&why))))
        }
        Err(DraftError::Invalid(errors)) => render(&state, &request, &path, StatusCode::BAD_REQUEST, Some((form, errors))).await,
        Err(DraftError::NotFound) => Err(PageError::new(StatusCode::NOT_FOUND, "No such invitation", "This invitation link is not valid.")),
        Err(err) => Err(PageError::failed("an invitation could not be accepted", &err)),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
