//! The site team's order commands: `prices`, `vat-rates`, `orders` and `tasks`. Each goes
//! through the orders domain's use cases, like the API does.

use crate::wiring::Services;
use anyhow::{Context, bail};
use clap::Subcommand;
use kernel::{Cents, CountryCode};
use orders::{Order, OrderError, OrderStatus, VatRate, VatRateEntry};

#[derive(Debug, Subcommand)]
pub enum PricesCommand {
    /// Every product on sale with its price (USD cents, excluding VAT).
    List,
    /// Sets a product's price; the next quote uses it, existing orders keep theirs.
    Set { code: String, cents: i64 },
}

#[derive(Debug, Subcommand)]
pub enum VatRatesCommand {
    /// Every rate, by country and the date it took effect.
    List,
    /// Sets a country's standard rate from a date on (e.g. `vat-rates set DE 19 --from 2027-01-01`).
    Set {
        country: String,
        /// Percent, up to two decimals (`25.5`).
        percent: String,
        /// The first day it applies (YYYY-MM-DD).
        #[arg(long)]
        from: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum OrdersCommand {
    /// The newest orders, newest first.
    List {
        /// Only orders of this status (`pending`, `paid`, `fulfilled`, `expired`, `canceled`, `refunded`, `needs_review`).
        #[arg(long)]
        status: Option<String>,
        #[arg(long, default_value_t = 20)]
        limit: u64,
    },
    /// One order with its lines, payment and status reason.
    Show { number: String },
    /// Gives an order's payment back through the provider; the order becomes `refunded`.
    Refund {
        number: String,
        /// Why (shown on the order).
        #[arg(long, default_value = "refunded by the site team")]
        reason: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum TasksCommand {
    /// Work the site team does for paid lines (AI reviews, done-for-you launches), open ones first.
    List {
        /// Also the tasks already done.
        #[arg(long)]
        all: bool,
    },
    /// Marks a task done; its order line is fulfilled when no task of it is open.
    Done { id: i64 },
}

fn order_summary(order: &Order) -> String {
    format!(
        "{}\t{}\t{} (VAT {})\tuser {}\t{}\t{} line(s)",
        order.number,
        order.status.as_str(),
        order.totals.total,
        order.totals.vat,
        order.owner,
        order.created_at,
        order.lines.len()
    )
}

fn no_order(err: OrderError, number: &str) -> anyhow::Error {
    match err {
        OrderError::NotFound => anyhow::anyhow!("there is no order {number}; `launchdir orders list` shows them"),
        other => anyhow::Error::new(other),
    }
}

pub async fn prices(services: &Services, command: PricesCommand) -> anyhow::Result<()> {
    match command {
        PricesCommand::List => {
            for offer in services.app.commerce.catalog.price_list().await? {
                let product = offer.product;
                println!("{}\t{}\t{}\t{}", product.code, product.price.get(), product.price, product.name);
            }
        }
        PricesCommand::Set { code, cents } => {
            if !(0..=100_000_000).contains(&cents) {
                bail!("CENTS must be between 0 and 100000000");
            }
            if !services.app.commerce.catalog.set_price(&code, Cents::new(cents)).await? {
                bail!("there is no product {code:?}; `launchdir prices list` shows them");
            }
            println!("{code} now costs {} (excluding VAT)", Cents::new(cents));
        }
    }
    Ok(())
}

pub async fn vat_rates(services: &Services, command: VatRatesCommand) -> anyhow::Result<()> {
    let orders = &services.app.commerce.orders;
    match command {
        VatRatesCommand::List => {
            for entry in orders.vat_rates().await? {
                println!("{}\t{}\tfrom {}", entry.country, entry.rate, entry.valid_from);
            }
        }
        VatRatesCommand::Set { country, percent, from } => {
            let country = CountryCode::parse(&country).map_err(|err| anyhow::anyhow!("COUNTRY {}", err.0))?;
            let rate = VatRate::parse_percent(&percent).context("PERCENT must be a number from 0 to 100 with at most two decimals")?;
            let valid_from = time::Date::parse(&from, time::macros::format_description!("[year]-[month]-[day]"))
                .context("--from must be a date YYYY-MM-DD")?;
            orders.set_vat_rate(&VatRateEntry { country: country.clone(), rate, valid_from }).await?;
            println!("{country}: {rate} from {valid_from}");
        }
    }
    Ok(())
}

pub async fn orders(services: &Services, command: OrdersCommand) -> anyhow::Result<()> {
    let orders = &services.app.commerce.orders;
    match command {
        OrdersCommand::List { status, limit } => {
            let status = match status.as_deref() {
                Some(raw) => Some(OrderStatus::parse(raw).with_context(|| format!("--status {raw:?} is not an order status"))?),
                None => None,
            };
            let list = orders.all(status, limit.clamp(1, 1000)).await?;
            if list.is_empty() {
                println!("no orders");
            }
            for order in list {
                println!("{}", order_summary(&order));
            }
        }
        OrdersCommand::Show { number } => {
            let order = orders.find(&number).await.map_err(|err| no_order(err, &number))?;
            println!("{}", order_summary(&order));
            if let Some(reason) = &order.status_reason {
                println!("reason: {reason}");
            }
            let country = order.billing.country.as_ref().map_or("none".to_owned(), ToString::to_string);
            println!(
                "VAT: {} ({}, check {}), billing country {country}",
                order.vat.rate,
                order.vat.treatment.as_str(),
                order.vat.check.as_str()
            );
            println!("payment: {} {}", order.provider.as_deref().unwrap_or("none"), order.payment_id.as_deref().unwrap_or("not paid"));
            for line in &order.lines {
                let week = line.line.week.map(|week| format!(" week {week}")).unwrap_or_default();
                let listing = line.line.listing_id.map(|id| format!(" listing {id}")).unwrap_or_default();
                let state = if line.fulfilled { "fulfilled" } else { "open" };
                println!(
                    "  #{} {}{listing}{week}\t{}\t{state}\t{}",
                    line.id,
                    line.line.product_code,
                    line.line.amounts.total,
                    line.outcome.as_deref().unwrap_or("")
                );
            }
        }
        OrdersCommand::Refund { number, reason } => {
            let order = orders.refund(&number, &reason).await.map_err(|err| no_order(err, &number))?;
            println!("{}", order_summary(&order));
        }
    }
    Ok(())
}

pub async fn tasks(services: &Services, command: TasksCommand) -> anyhow::Result<()> {
    match command {
        TasksCommand::List { all } => {
            let tasks = services.app.commerce.orders.tasks(!all).await?;
            if tasks.is_empty() {
                println!("no tasks");
            }
            for task in tasks {
                let listing = task.listing_id.map(|id| format!("listing {id}")).unwrap_or_default();
                let state = if task.done { "done" } else { "open" };
                println!("{}\t{}\t{}\t{listing}\t{state}\t{}", task.id, task.kind, task.order_number, task.created_at);
            }
        }
        TasksCommand::Done { id } => {
            let (task, _) = services.app.commerce.orders.finish_task(id).await.map_err(|err| match err {
                OrderError::NotFound => anyhow::anyhow!("there is no task {id}; `launchdir tasks list` shows them"),
                other => anyhow::Error::new(other),
            })?;
            println!("task {} ({}) of order {} is done", task.id, task.kind, task.order_number);
        }
    }
    Ok(())
}
