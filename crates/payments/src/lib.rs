//! Payment providers behind `orders::PaymentProvider`: `TestProvider` (the embedded demo's
//! payment page on the site) and `StripeProvider` (Stripe Checkout Sessions over its REST API
//! with our own reqwest). Both sign their webhooks the same way (`signature`) and send events of
//! the same shape (`event`), so a test payment goes through the very path a real one does.
//! `ViesRegistry` asks the EU's VIES service about VAT numbers.

pub mod event;
pub mod signature;
pub mod stripe;
pub mod test_provider;
pub mod vies;

pub use stripe::{StripeConfig, StripeProvider};
pub use test_provider::TestProvider;
pub use vies::ViesRegistry;
