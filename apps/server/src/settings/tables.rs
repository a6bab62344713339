//! The tables of the settings file (`[rate_limits]`, `[payments]`, `[crawler]`, `[drafter]`,
//! `[mail]`, `[media]`, `[mcp]`), each declared once, with the `Debug` that keeps their secrets out.

use super::declare::{Declaration, SettingType, declare_settings};
use super::redact_url;

declare_settings! {
    /// `[rate_limits]`: each quota is requests per window, like `600/minute` or `20/hour`.
    #[derive(Debug)]
    pub struct RateLimitSettings {
        /// count requests against the quotas below (off: no limits and no `RateLimit` headers; for benchmarks)
        enabled: bool = true, env "LAUNCHDIR_RATE_LIMITS_ENABLED";
        /// reads of a signed-in caller, per principal
        read: String = "600/minute".into(), env "LAUNCHDIR_RATE_LIMITS_READ";
        /// reads without a credential (API, pages), per client address
        read_anonymous: String = "120/minute".into(), env "LAUNCHDIR_RATE_LIMITS_READ_ANONYMOUS";
        /// writes, per principal (per client address for the site's forms and the OAuth token endpoint)
        write: String = "120/minute".into(), env "LAUNCHDIR_RATE_LIMITS_WRITE";
        /// `submit_listing` (each reads a website), per principal
        submit_listing: String = "20/hour".into(), env "LAUNCHDIR_RATE_LIMITS_SUBMIT_LISTING";
        /// `verify_claim`, per principal
        verify_claim: String = "30/hour".into(), env "LAUNCHDIR_RATE_LIMITS_VERIFY_CLAIM";
        /// `create_checkout`, per principal
        create_checkout: String = "30/hour".into(), env "LAUNCHDIR_RATE_LIMITS_CREATE_CHECKOUT";
        /// `/oauth/register`, per client address
        oauth_register: String = "20/hour".into(), env "LAUNCHDIR_RATE_LIMITS_OAUTH_REGISTER";
        /// sign-in and sign-up attempts on the site, per client address
        sign_in: String = "10/minute".into(), env "LAUNCHDIR_RATE_LIMITS_SIGN_IN";
        /// MCP `initialize`, per client address
        mcp_initialize: String = "60/minute".into(), env "LAUNCHDIR_RATE_LIMITS_MCP_INITIALIZE";
        /// votes and withdrawals on the site, per account
        vote: String = "60/hour".into(), env "LAUNCHDIR_RATE_LIMITS_VOTE";
        /// votes and withdrawals on the site, per client address (every account behind it together)
        vote_network: String = "300/hour".into(), env "LAUNCHDIR_RATE_LIMITS_VOTE_NETWORK";
        /// writing, editing or deleting a review, and following, on the site, per account
        review: String = "30/hour".into(), env "LAUNCHDIR_RATE_LIMITS_REVIEW";
        /// writing, editing or deleting a review on the site, per client address (every account behind it together)
        review_network: String = "10/hour".into(), env "LAUNCHDIR_RATE_LIMITS_REVIEW_NETWORK";
    }
}

declare_settings! {
    /// `[payments]`.
    pub struct PaymentSettings {
        /// `test` (a payment page on the site that says it is a test; no money moves) or `stripe`
        provider: String = "test".into(), env "LAUNCHDIR_PAYMENTS_PROVIDER";
        /// let a public site (an https `site_url`) run the `test` provider, whose **Pay** button settles orders with no money
        allow_test_provider: bool = false, env "LAUNCHDIR_PAYMENTS_ALLOW_TEST_PROVIDER";
        /// the secret the `test` provider signs its webhook events with; it is never logged
        test_webhook_secret: Option<String> = None, unset "random at each start (one server)", env "LAUNCHDIR_PAYMENTS_TEST_WEBHOOK_SECRET";
        /// Stripe's API, up to the version prefix
        stripe_api_base: String = "https://api.stripe.com".into(), env "LAUNCHDIR_PAYMENTS_STRIPE_API_BASE";
        /// the Stripe secret key (`sk_live_...`); it is never logged
        stripe_secret_key: Option<String> = None, unset "none (required for `stripe`)", env "LAUNCHDIR_PAYMENTS_STRIPE_SECRET_KEY";
        /// the signing secret of the Stripe webhook endpoint `{site_url}/webhooks/payments/stripe` (`whsec_...`); it is never logged
        stripe_webhook_secret: Option<String> = None, unset "none (required for `stripe`)", env "LAUNCHDIR_PAYMENTS_STRIPE_WEBHOOK_SECRET";
        /// payment methods Stripe Checkout offers, e.g. `card,paypal,crypto` (each must be enabled in the Stripe account; card
        /// includes Apple Pay and Google Pay)
        stripe_payment_methods: Vec<String> = Vec::new(), unset "none: Stripe picks from the account's settings", env "LAUNCHDIR_PAYMENTS_STRIPE_PAYMENT_METHODS";
        /// how often recent completed payments are read back from the provider to settle orders whose webhook never came
        reconcile_every_minutes: u64 = 180, env "LAUNCHDIR_PAYMENTS_RECONCILE_EVERY_MINUTES";
        /// ask the EU's VIES service to confirm VAT numbers (needs network; unanswered checks fall back to the offline check)
        vies: bool = false, env "LAUNCHDIR_PAYMENTS_VIES";
    }
}

impl std::fmt::Debug for PaymentSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentSettings")
            .field("provider", &self.provider)
            .field("stripe_api_base", &self.stripe_api_base)
            .field("stripe_payment_methods", &self.stripe_payment_methods)
            .field("reconcile_every_minutes", &self.reconcile_every_minutes)
            .field("vies", &self.vies)
            .finish_non_exhaustive()
    }
}

declare_settings! {
    /// `[crawler]`.
    #[derive(Debug)]
    pub struct CrawlerSettings {
        /// let the crawler reach loopback and private networks (tests crawl fixture sites with it); link-local (cloud
        /// metadata), multicast and reserved addresses stay refused
        // Not `..._ALLOW_PRIVATE_NETWORKS`: the variable keeps the name it is documented under.
        allow_private_networks: bool = false, env "LAUNCHDIR_CRAWLER_ALLOW_PRIVATE";
        /// read pages that show their content only with JavaScript as a browser shows them, in headless Chromium
        /// (`chromium` on `PATH`; its every request goes through the crawler's checks); without a browser such a
        /// draft says why it is thin
        render_javascript: bool = true, env "LAUNCHDIR_CRAWLER_RENDER_JAVASCRIPT";
    }
}

declare_settings! {
    /// `[drafter]`.
    pub struct DrafterSettings {
        /// `extractive` (no model) or `openai` (an OpenAI-compatible chat-completions endpoint)
        kind: String = "extractive".into(), env "LAUNCHDIR_DRAFTER_KIND";
        /// the model endpoint for `openai`, up to the version prefix
        base_url: String = "https://api.openai.com/v1".into(), env "LAUNCHDIR_DRAFTER_BASE_URL";
        /// the model `openai` asks
        model: String = "gpt-4o-mini".into(), env "LAUNCHDIR_DRAFTER_MODEL";
        /// the key for `openai`; it is never logged
        api_key: Option<String> = None, unset "none", env "LAUNCHDIR_DRAFTER_API_KEY";
        /// how long to wait for the model
        timeout_seconds: u64 = 60;
    }
}

declare_settings! {
    /// `[mail]`.
    pub struct MailSettings {
        /// `outbox` (stored in the database) or `smtp`
        transport: String = "outbox".into(), env "LAUNCHDIR_MAIL_TRANSPORT";
        /// for `smtp`: `smtps://user:pass@host:465` or `smtp://user:pass@host:587?tls=required`; the password is never logged
        smtp_url: Option<String> = None, unset "none", env "LAUNCHDIR_MAIL_SMTP_URL";
        /// the sender of every e-mail
        from: String = "Launchdir <noreply@localhost>".into(), env "LAUNCHDIR_MAIL_FROM";
    }
}

declare_settings! {
    /// `[media]`: logos, gallery images and avatars, kept by us and served from `/media`.
    pub struct MediaSettings {
        /// where kept images live: `files` (under `{data_dir}/media`) or `s3` (an S3-compatible bucket, for several servers)
        store: String = "files".into(), env "LAUNCHDIR_MEDIA_STORE";
        /// the most bytes an uploaded or fetched image may have
        max_bytes: usize = 10 * 1024 * 1024, env "LAUNCHDIR_MEDIA_MAX_BYTES";
        /// the most pixels of an image, in millions (checked from its header, before it is decoded)
        max_megapixels: u64 = 40, env "LAUNCHDIR_MEDIA_MAX_MEGAPIXELS";
        /// the most frames of an animated image (only its first is kept)
        max_frames: u32 = 100, env "LAUNCHDIR_MEDIA_MAX_FRAMES";
        /// for `s3`: the endpoint (`https://s3.eu-central-1.amazonaws.com`, `http://127.0.0.1:9000`)
        s3_endpoint: Option<String> = None, unset "none (required for `s3`)", env "LAUNCHDIR_MEDIA_S3_ENDPOINT";
        /// for `s3`: the bucket
        s3_bucket: Option<String> = None, unset "none (required for `s3`)", env "LAUNCHDIR_MEDIA_S3_BUCKET";
        /// for `s3`: the region requests are signed for
        s3_region: String = "us-east-1".into(), env "LAUNCHDIR_MEDIA_S3_REGION";
        /// for `s3`: the access key id
        s3_access_key_id: Option<String> = None, unset "none (required for `s3`)", env "LAUNCHDIR_MEDIA_S3_ACCESS_KEY_ID";
        /// for `s3`: the secret access key; it is never logged
        s3_secret_access_key: Option<String> = None, unset "none (required for `s3`)", env "LAUNCHDIR_MEDIA_S3_SECRET_ACCESS_KEY";
        /// for `s3`: put before every object's name (`launchdir/`)
        s3_prefix: Option<String> = None, unset "none", env "LAUNCHDIR_MEDIA_S3_PREFIX";
        /// for `s3`: name the bucket in the host (`bucket.endpoint`, AWS S3's way) instead of the path (S3-compatible servers' way)
        s3_virtual_hosted: bool = false, env "LAUNCHDIR_MEDIA_S3_VIRTUAL_HOSTED";
    }
}

impl std::fmt::Debug for MediaSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MediaSettings")
            .field("store", &self.store)
            .field("max_bytes", &self.max_bytes)
            .field("max_megapixels", &self.max_megapixels)
            .field("max_frames", &self.max_frames)
            .field("s3_endpoint", &self.s3_endpoint)
            .field("s3_bucket", &self.s3_bucket)
            .field("s3_region", &self.s3_region)
            .field("s3_prefix", &self.s3_prefix)
            .finish_non_exhaustive()
    }
}

declare_settings! {
    /// `[mcp]`.
    #[derive(Debug)]
    pub struct McpSettings {
        /// `Host` values `/mcp` answers (DNS-rebinding protection; others get 403)
        allowed_hosts: Vec<String> = Vec::new(), unset "the host of `site_url`, `localhost`, `127.0.0.1`, `::1`",
            env "LAUNCHDIR_MCP_ALLOWED_HOSTS";
        /// browser origins `/mcp` accepts; requests without `Origin` pass
        allowed_origins: Vec<String> = Vec::new(), unset "the origin of `site_url`", env "LAUNCHDIR_MCP_ALLOWED_ORIGINS";
        /// the most legacy sessions (`initialize`, protocols up to 2025-11-25) kept at once; more are refused with 503, and one client network (an IPv4 address, an IPv6 /64) holds at most a tenth of them (429 beyond)
        max_sessions: usize = 1000, env "LAUNCHDIR_MCP_MAX_SESSIONS";
        /// a legacy session without a message for this long ends
        session_idle_seconds: u64 = 180, env "LAUNCHDIR_MCP_SESSION_IDLE_SECONDS";
    }
}

impl std::fmt::Debug for MailSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailSettings")
            .field("transport", &self.transport)
            .field("smtp_url", &self.smtp_url.as_deref().map(redact_url))
            .field("from", &self.from)
            .finish()
    }
}

impl std::fmt::Debug for DrafterSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DrafterSettings")
            .field("kind", &self.kind)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .finish_non_exhaustive()
    }
}
