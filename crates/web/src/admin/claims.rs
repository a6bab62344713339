//! The admin page of ownership claims: every claim with its listing, claimant, method, status
//! and latest check (a proof gone says since when), searchable by listing or address. A verified DNS, meta or file claim can be checked again now; the answer is
//! recorded on the claim and in the audit log. Ownership is never removed automatically.

use super::notice::{Notice, done};
use super::pages::{failed, list, log, page_request};
use super::{Action, Admin, AdminPost, ListQuery, Row};
use crate::PageError;
use crate::dates::date_and_time;
use crate::site::Pager;
use crate::{CsrfForm, WebState};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use claims::{CheckOutcome, ClaimMethod, ClaimStatus};
use kernel::ClaimId;

pub async fn claims(
    state: web::Data<WebState>,
    request: HttpRequest,
    query: web::Query<ListQuery>,
    Admin(session): Admin,
) -> Result<HttpResponse, PageError> {
    let found = match state.app.claims.for_team(Some(&query.q), page_request(&query)).await {
        Ok(found) => found,
        Err(err) => return Err(failed(&err)),
    };
    let pager = Pager::new("/admin/claims", &[("q", query.q.clone())], found.page, found.per_page, found.total);
    let mut marks = super::listing_marks(&state, found.items.iter().map(|team| team.claim.listing)).await;
    let rows = found
        .items
        .into_iter()
        .map(|team| {
            let claim = team.claim;
            let mut status = claim.status.as_str().to_owned();
            if let Some(since) = claim.proof_missing_since {
                status.push_str(&format!(", proof gone since {}", date_and_time(since)));
            }
            let check = claim.last_check.as_ref().map_or_else(
                || "not checked yet".to_owned(),
                |check| {
                    format!(
                        "{}: {} ({}, {})",
                        check.outcome.as_str().replace('_', " "),
                        check.found,
                        check.looked_at,
                        date_and_time(check.at)
                    )
                },
            );
            let recheckable = claim.status == ClaimStatus::Verified && claim.method != ClaimMethod::Email;
            Row {
                cells: vec![
                    format!("#{}", claim.id),
                    claim.listing_slug.to_string(),
                    team.claimant_email,
                    claim.method.as_str().to_owned(),
                    status,
                    date_and_time(claim.created_at),
                    check,
                ],
                actions: if recheckable {
                    vec![Action {
                        post: true,
                        url: format!("/admin/claims/{}/recheck", claim.id),
                        label: "Check again".into(),
                        aria: format!("Check claim {} again", claim.id),
                        input: None,
                    }]
                } else {
                    Vec::new()
                },
                listing: marks.remove(&claim.listing),
            }
        })
        .collect();
    let intro = "A verified claim makes its claimant an owner and earns the Verified badge. Verified DNS, meta and file \
                 proofs are checked again monthly; a proof that is gone is shown here and e-mailed to the site team, and \
                 the owner keeps the listing until you decide.";
    Ok(list(
        &state,
        &request,
        &session,
        "Claims",
        intro,
        vec!["Claim", "Listing", "Claimant", "Method", "Status", "Made", "Latest check"],
        rows,
        Some(&query),
        Some(pager),
        None,
        StatusCode::OK,
    ))
}

pub async fn recheck(
    state: web::Data<WebState>,
    path: web::Path<i64>,
    AdminPost { session, .. }: AdminPost<CsrfForm>,
) -> Result<HttpResponse, PageError> {
    let id = path.into_inner();
    let outcome = match state.app.claims.recheck(ClaimId::new(id)).await {
        Ok(Some(outcome)) => outcome,
        Ok(None) => {
            return Err(PageError::new(StatusCode::NOT_FOUND, "No such claim", "No verified DNS, meta or file claim has this number."));
        }
        Err(err) => return Err(failed(&err)),
    };
    let (said, notice) = match outcome {
        CheckOutcome::Verified => ("the proof is still there", Notice::ClaimStillProven),
        CheckOutcome::NotFound => ("the proof is gone", Notice::ClaimProofGone),
        CheckOutcome::CouldNotCheck => ("the site or its DNS did not answer; nothing was recorded", Notice::ClaimNotChecked),
    };
    log(&state, &session, "claim.recheck", &format!("claim {id}"), said).await?;
    Ok(done("/admin/claims", notice, Some(id)))
}
