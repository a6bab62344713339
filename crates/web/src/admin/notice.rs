//! What an admin change did, shown once on the list it returns to. The address carries only a
//! code from a fixed set and, where the notice names a row, its number (`?done=review_hidden&of=42`):
//! the words are ours, so a link someone else made cannot put their text on an admin page as if
//! the site said it.

/// Every notice an admin page can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Notice {
    PriceUnchanged,
    PriceSet,
    VatRateSaved,
    ClaimStillProven,
    ClaimProofGone,
    ClaimNotChecked,
    VoteDiscounted,
    ReviewAlreadyHidden,
    ReviewAlreadyShown,
    ReviewHidden,
    ReviewShown,
    TaskAlreadyDone,
    TaskDone,
    AccountBlocked,
    AccountUnblocked,
}

impl Notice {
    const ALL: [Self; 15] = [
        Self::PriceUnchanged,
        Self::PriceSet,
        Self::VatRateSaved,
        Self::ClaimStillProven,
        Self::ClaimProofGone,
        Self::ClaimNotChecked,
        Self::VoteDiscounted,
        Self::ReviewAlreadyHidden,
        Self::ReviewAlreadyShown,
        Self::ReviewHidden,
        Self::ReviewShown,
        Self::TaskAlreadyDone,
        Self::TaskDone,
        Self::AccountBlocked,
        Self::AccountUnblocked,
    ];

    /// Its name in the address.
    pub(super) fn code(self) -> &'static str {
        match self {
            Self::PriceUnchanged => "price_unchanged",
            Self::PriceSet => "price_set",
            Self::VatRateSaved => "vat_rate_saved",
            Self::ClaimStillProven => "claim_still_proven",
            Self::ClaimProofGone => "claim_proof_gone",
            Self::ClaimNotChecked => "claim_not_checked",
            Self::VoteDiscounted => "vote_discounted",
            Self::ReviewAlreadyHidden => "review_already_hidden",
            Self::ReviewAlreadyShown => "review_already_shown",
            Self::ReviewHidden => "review_hidden",
            Self::ReviewShown => "review_shown",
            Self::TaskAlreadyDone => "task_already_done",
            Self::TaskDone => "task_done",
            Self::AccountBlocked => "account_blocked",
            Self::AccountUnblocked => "account_unblocked",
        }
    }

    /// The notice named `code`, if it is one of ours.
    pub(super) fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|notice| notice.code() == code)
    }

    /// What the page says; `of` is the row's number, where the notice names one.
    pub(super) fn text(self, of: Option<i64>) -> String {
        let of = of.map(|number| format!(" {number}")).unwrap_or_default();
        match self {
            Self::PriceUnchanged => "The price was that already; nothing changed.".to_owned(),
            Self::PriceSet => "The new price is saved.".to_owned(),
            Self::VatRateSaved => "The VAT rate is saved.".to_owned(),
            Self::ClaimStillProven => format!("Claim{of} checked again: the proof is still there."),
            Self::ClaimProofGone => format!("Claim{of} checked again: the proof is gone."),
            Self::ClaimNotChecked => format!("Claim{of} checked again: the site or its DNS did not answer; nothing was recorded."),
            Self::VoteDiscounted => format!("Vote{of} no longer counts."),
            Self::ReviewAlreadyHidden => format!("Review{of} was hidden already; nothing changed."),
            Self::ReviewAlreadyShown => format!("Review{of} was shown already; nothing changed."),
            Self::ReviewHidden => format!("Review{of} is hidden."),
            Self::ReviewShown => format!("Review{of} is shown again."),
            Self::TaskAlreadyDone => format!("Task{of} was done already; nothing changed."),
            Self::TaskDone => format!("Task{of} is done; its order line is fulfilled."),
            Self::AccountBlocked => format!("Account{of} is blocked."),
            Self::AccountUnblocked => format!("Account{of} is unblocked."),
        }
    }
}

/// Back to `path` with `notice` (about row `of`), shown once.
pub(super) fn done(path: &str, notice: Notice, of: Option<i64>) -> actix_web::HttpResponse {
    let mut pairs = vec![("done", notice.code().to_owned())];
    pairs.extend(of.map(|number| ("of", number.to_string())));
    let query = serde_urlencoded::to_string(pairs).unwrap_or_default();
    actix_web::HttpResponse::SeeOther().insert_header(("Location", format!("{path}?{query}"))).finish()
}

/// The notice a list's address asks for: ours, or none at all.
pub(super) fn shown(done: &str, of: Option<i64>) -> Option<String> {
    Notice::from_code(done).map(|notice| notice.text(of))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_notices_are_shown() {
        for notice in Notice::ALL {
            assert_eq!(Notice::from_code(notice.code()), Some(notice));
        }
        assert_eq!(shown("review_hidden", Some(42)).as_deref(), Some("Review 42 is hidden."));
        assert_eq!(shown("Your account is locked: call +1 555 0100", None), None);
        assert_eq!(shown("", None), None);
    }
}
