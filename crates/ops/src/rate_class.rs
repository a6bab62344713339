//! The rate classes: the one list of named quotas. An operation (or endpoint) declares the class
//! it counts against, `RateLimit-Policy` names it, and a setting sets each quota; `http_edge`
//! counts requests against them.

use kernel::RateQuota;

/// A named quota: what an operation (or endpoint) declares it counts against, what the
/// `RateLimit-Policy` header names, and a setting each. Reads are declared as `Read` and counted
/// as `ReadAnonymous` for a caller who is not signed in ([`RateClass::counted_as`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RateClass {
    /// Reads by a signed-in caller, per principal.
    Read,
    /// Reads by anyone else, per client address (never declared: what `Read` becomes).
    ReadAnonymous,
    /// Writes: `write` per principal (per client address for a caller that is not signed in).
    Write,
    /// `submit_listing`: each one reads a website, so it has a budget of its own.
    SubmitListing,
    /// `verify_claim`: each one looks up DNS or fetches a site.
    VerifyClaim,
    /// `create_checkout`: each one opens a payment.
    CreateCheckout,
    /// `/oauth/register`, per client address.
    OAuthRegister,
    /// Sign-in and sign-up attempts on the site, per client address.
    SignIn,
    /// MCP `initialize` (opens a session), per client address.
    McpInitialize,
    /// A vote or its withdrawal on the site, per account.
    Vote,
    /// The same, per client address: every account behind one network together.
    VoteNetwork,
    /// Writing, editing or deleting a review, and following or unfollowing, per account.
    Review,
    /// Writing, editing or deleting a review, per client address: every account behind one
    /// network together.
    ReviewNetwork,
}

impl RateClass {
    /// The quota a caller is counted under: reads split into signed-in and anonymous.
    pub fn counted_as(self, signed_in: bool) -> RateClass {
        match self {
            Self::Read if !signed_in => Self::ReadAnonymous,
            other => other,
        }
    }

    /// The quotas a request of this class may be counted under (for documentation).
    pub fn policies(self) -> Vec<RateClass> {
        match self {
            Self::Read => vec![Self::Read, Self::ReadAnonymous],
            other => vec![other],
        }
    }

    pub const ALL: [RateClass; 13] = [
        RateClass::Read,
        RateClass::ReadAnonymous,
        RateClass::Write,
        RateClass::SubmitListing,
        RateClass::VerifyClaim,
        RateClass::CreateCheckout,
        RateClass::OAuthRegister,
        RateClass::SignIn,
        RateClass::McpInitialize,
        RateClass::Vote,
        RateClass::VoteNetwork,
        RateClass::Review,
        RateClass::ReviewNetwork,
    ];

    /// The name headers, settings and the OpenAPI document use.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::ReadAnonymous => "read_anonymous",
            Self::Write => "write",
            Self::SubmitListing => "submit_listing",
            Self::VerifyClaim => "verify_claim",
            Self::CreateCheckout => "create_checkout",
            Self::OAuthRegister => "oauth_register",
            Self::SignIn => "sign_in",
            Self::McpInitialize => "mcp_initialize",
            Self::Vote => "vote",
            Self::VoteNetwork => "vote_network",
            Self::Review => "review",
            Self::ReviewNetwork => "review_network",
        }
    }

    /// Counted per client address whoever calls (the caller is not known yet, or not trusted).
    pub const fn per_client_only(self) -> bool {
        matches!(
            self,
            Self::ReadAnonymous | Self::OAuthRegister | Self::SignIn | Self::McpInitialize | Self::VoteNetwork | Self::ReviewNetwork
        )
    }

    /// The quota `decisions.md` sets, used when no setting says otherwise.
    pub const fn default_quota(self) -> RateQuota {
        match self {
            Self::Read => RateQuota::per_minute(600),
            Self::ReadAnonymous => RateQuota::per_minute(120),
            Self::Write => RateQuota::per_minute(120),
            Self::SubmitListing => RateQuota::per_hour(20),
            Self::VerifyClaim => RateQuota::per_hour(30),
            Self::CreateCheckout => RateQuota::per_hour(30),
            Self::OAuthRegister => RateQuota::per_hour(20),
            Self::SignIn => RateQuota::per_minute(10),
            Self::McpInitialize => RateQuota::per_minute(60),
            Self::Vote => RateQuota::per_hour(60),
            Self::VoteNetwork => RateQuota::per_hour(300),
            Self::Review => RateQuota::per_hour(30),
            Self::ReviewNetwork => RateQuota::per_hour(10),
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// The quota of every policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateQuotas([RateQuota; 13]);

impl Default for RateQuotas {
    fn default() -> Self {
        Self(RateClass::ALL.map(RateClass::default_quota))
    }
}

impl RateQuotas {
    pub fn get(&self, policy: RateClass) -> RateQuota {
        self.0[policy.index()]
    }

    pub fn set(&mut self, policy: RateClass, quota: RateQuota) {
        self.0[policy.index()] = quota;
    }
}
