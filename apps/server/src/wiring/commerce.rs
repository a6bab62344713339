//! Wiring of the orders domain: the catalogue, the payment provider the settings choose, the
//! seller (country and the details invoices print), VIES where enabled, and the week rules the
//! catalogue and orders share.

use crate::settings::Settings;
use anyhow::Context;
use kernel::Clock;
use ops::CommerceServices;
use orders::{CatalogService, OrdersDeps, OrdersService, PaymentProvider, WeekPolicy};
use std::sync::Arc;
use store_seaorm::SeaStore;

/// The catalogue and the order use cases, on one week policy.
pub fn commerce(
    settings: &Settings,
    store: &SeaStore,
    clock: &Arc<dyn Clock>,
    mailer: Arc<dyn kernel::Mailer>,
) -> anyhow::Result<CommerceServices> {
    let policy = WeekPolicy {
        launch_offset: settings.launch_offset()?,
        paid_weeks_ahead: settings.paid_weeks_ahead,
        free_queue_min_weeks: settings.free_queue_min_weeks,
        paid_launches_per_week: settings.paid_launches_per_week,
    };
    Ok(CommerceServices {
        catalog: CatalogService::new(store.products(), clock.clone(), policy),
        orders: orders_service(settings, store, clock, policy, mailer)?,
    })
}

/// The payment provider of `[payments] provider`.
fn payment_provider(settings: &Settings) -> anyhow::Result<Arc<dyn PaymentProvider>> {
    let payments = &settings.payments;
    Ok(match payments.provider.as_str() {
        "stripe" => Arc::new(
            payments::StripeProvider::new(payments::StripeConfig {
                api_base: payments.stripe_api_base.clone(),
                secret_key: payments.stripe_secret_key.clone().context("payments.stripe_secret_key is needed for stripe")?,
                webhook_secret: payments.stripe_webhook_secret.clone().context("payments.stripe_webhook_secret is needed for stripe")?,
                payment_method_types: payments.stripe_payment_methods.clone(),
            })
            .map_err(|err| anyhow::anyhow!(err.0))?,
        ),
        _ => {
            // Without a configured secret each start signs with a new one: the test provider's
            // events are made and received by the same server.
            let secret = match &payments.test_webhook_secret {
                Some(secret) => secret.clone(),
                None => kernel::secrets::random_token().context("no randomness for the test provider's secret")?,
            };
            Arc::new(payments::TestProvider::new(&settings.site_url(), secret))
        }
    })
}

/// The order use cases.
fn orders_service(
    settings: &Settings,
    store: &SeaStore,
    clock: &Arc<dyn Clock>,
    policy: WeekPolicy,
    mailer: Arc<dyn kernel::Mailer>,
) -> anyhow::Result<OrdersService> {
    let seller = kernel::CountryCode::parse(&settings.seller_country).map_err(|err| anyhow::anyhow!("seller_country {}", err.0))?;
    let registry: Option<Arc<dyn orders::VatNumberRegistry>> =
        if settings.payments.vies { Some(Arc::new(payments::ViesRegistry::new().map_err(|err| anyhow::anyhow!(err.0))?)) } else { None };
    Ok(OrdersService::new(OrdersDeps {
        orders: store.orders(),
        products: store.products(),
        rates: store.vat_rates(),
        registry,
        listings: listings::PurchaseService::new(store.purchases(), clock.clone(), policy.launch_offset),
        provider: payment_provider(settings)?,
        clock: clock.clone(),
        policy,
        invoicing: orders::Invoicing {
            invoices: store.invoices(),
            printer: Arc::new(invoice_pdf::PdfPrinter),
            seller: orders::Seller {
                name: settings.seller_name.clone().unwrap_or_else(|| settings.site_name.clone()),
                address: settings.seller_address.clone(),
                country: seller.clone(),
                vat_number: settings.seller_vat_number.clone(),
            },
            mailer,
            site_url: settings.site_url(),
        },
        seller,
    }))
}
