//! The command line: `serve` (the default), `migrate`, `seed --demo`, account commands, the
//! outbox, the site team's review of owner edits (`edits`), and the order commands
//! (`prices`, `vat-rates`, `orders`, `tasks`, in `cli_orders`).

use crate::database::open_database;
use crate::settings::Settings;
use crate::startup::Application;
use crate::telemetry;
use crate::wiring::Services;
use accounts::{AccountsError, Scopes};
use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};
use kernel::{ApiKeyId, Clock, Email, SystemClock};
use std::path::PathBuf;
use std::sync::Arc;

/// Launchdir: a product-launch directory with a REST API and an MCP tool server.
#[derive(Debug, Parser)]
#[command(name = "launchdir", version)]
pub struct Cli {
    /// A settings file (default: ./launchdir.toml when it exists, or $LAUNCHDIR_CONFIG).
    #[arg(long, global = true)]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the site and API (the default command).
    Serve,
    /// Apply pending database migrations.
    Migrate,
    /// Write data into the database.
    Seed(SeedArgs),
    /// Manage user accounts.
    #[command(subcommand)]
    User(UserCommand),
    /// Manage API keys.
    #[command(name = "api-key", subcommand)]
    ApiKey(ApiKeyCommand),
    /// Read the e-mail outbox (the default mailer writes e-mails there).
    #[command(subcommand)]
    Outbox(OutboxCommand),
    /// Review owners' edits of their listings: the version history with before/after copies.
    #[command(subcommand)]
    Edits(EditsCommand),
    /// Product prices (USD cents, excluding VAT).
    #[command(subcommand)]
    Prices(crate::cli_orders::PricesCommand),
    /// VAT rates per country, each from a date on.
    #[command(name = "vat-rates", subcommand)]
    VatRates(crate::cli_orders::VatRatesCommand),
    /// Orders: list, show, refund.
    #[command(subcommand)]
    Orders(crate::cli_orders::OrdersCommand),
    /// The site team's tasks for paid lines.
    #[command(subcommand)]
    Tasks(crate::cli_orders::TasksCommand),
    /// Votes the fraud rules flag, and discounting one.
    #[command(subcommand)]
    Votes(crate::cli_moderation::VotesCommand),
    /// Recent reviews, and hiding one from the site and the rating (or showing it again).
    #[command(subcommand)]
    Reviews(crate::cli_moderation::ReviewsCommand),
    /// Print the REST API's OpenAPI document with the default base URL and quotas (what
    /// `docs/openapi.json` holds; a server serves its own at `/api/v1/openapi.json`).
    Openapi,
}

#[derive(Debug, Subcommand)]
pub enum EditsCommand {
    /// The newest edits, newest first: who, when, which listing, what changed.
    List {
        /// Only the edits of this listing id.
        #[arg(long)]
        listing: Option<i64>,
        /// How many to show.
        #[arg(long, default_value_t = 20)]
        limit: u64,
    },
    /// One edit's review copy: each changed value before and after, then both full copies.
    Show { id: i64 },
}

#[derive(Debug, Subcommand)]
pub enum OutboxCommand {
    /// The newest e-mails, newest first.
    List {
        /// How many to show.
        #[arg(long, default_value_t = 20)]
        limit: u64,
    },
}

#[derive(Debug, Args)]
pub struct SeedArgs {
    /// Seed the demo directory (idempotent: running it again adds nothing).
    #[arg(long, required = true)]
    pub demo: bool,
    /// Also add this many generated listings (`bulk-N`), to benchmark at the size of a real
    /// directory.
    #[arg(long, default_value_t = 0)]
    pub bulk_listings: usize,
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create a user.
    Create {
        #[arg(long)]
        email: String,
        /// Display name (default: the e-mail's local part).
        #[arg(long)]
        name: Option<String>,
    },
    /// Give an account the admin role: the site team's pages under /admin.
    GrantAdmin {
        #[arg(long)]
        email: String,
    },
    /// Take the admin role away.
    RevokeAdmin {
        #[arg(long)]
        email: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum ApiKeyCommand {
    /// Create an API key; the key is printed once, as the last line of standard output.
    Create {
        #[arg(long)]
        email: String,
        /// Comma-separated scopes (default: account:read,listings:write,orders:write).
        #[arg(long)]
        scopes: Option<String>,
        #[arg(long)]
        name: Option<String>,
    },
    /// List a user's API keys (never their secrets).
    List {
        #[arg(long)]
        email: String,
    },
    /// Revoke an API key by id.
    Revoke { id: i64 },
}

/// The `launchdir` binary's whole life: parses the command line, runs the chosen command on a
/// multi-threaded runtime and turns the outcome into an exit code.
///
/// It lives here rather than in `main.rs` so the compiler generates the server's code once, in
/// this library: a future first polled in the binary is compiled again there (without the
/// library's shared copy), which doubled the last step of a release build.
pub fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start the async runtime: {err}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// `launchdir openapi`: the document with the default base URL and quotas.
fn print_openapi() -> anyhow::Result<()> {
    let document = api_rest::openapi::document(api_rest::openapi::DEFAULT_BASE_URL, &ops::RateQuotas::default());
    println!("{}", serde_json::to_string_pretty(&document)?);
    Ok(())
}

/// Runs a parsed command line.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let command = cli.command.unwrap_or(Command::Serve);
    if let Command::Openapi = command {
        // Needs no settings file, database or log: the document is the code's.
        return print_openapi();
    }
    let settings = Settings::load(cli.config.as_deref())?;
    telemetry::init(&settings);
    match command {
        Command::Serve => serve(settings).await,
        Command::Migrate => {
            let db = open_database(&settings).await?;
            store_seaorm::migrate(&db).await.context("migration failed")?;
            println!("database is up to date");
            Ok(())
        }
        Command::Seed(SeedArgs { demo: _, bulk_listings }) => {
            let db = open_database(&settings).await?;
            store_seaorm::migrate_if_sqlite(&db, &settings.database_url()).await?;
            let report = store_seaorm::seed::demo(&db, SystemClock.now()).await.context("seeding failed")?;
            if report.is_empty() {
                println!("the demo directory is already complete: nothing to add");
            } else {
                println!(
                    "seeded {} categories, {} products, {} interview questions, {} users, {} listings, {} founders, {} votes, \
                     {} blog posts, {} founder stories",
                    report.categories,
                    report.products,
                    report.questions,
                    report.users,
                    report.listings,
                    report.founders,
                    report.votes,
                    report.blog_posts,
                    report.stories
                );
            }
            // The demo's pictures, before any generated listing exists (those have none yet).
            let services = Services::build(&settings, db.clone(), Arc::new(SystemClock))?;
            let pictured = crate::demo_pictures::add(&services.app.media, &services.store).await?;
            if pictured > 0 {
                println!("drew the logos and screenshots of {pictured} demo listings");
            }
            if bulk_listings > 0 {
                // A million listings take minutes: say how far it is about twenty times.
                let started = std::time::Instant::now();
                let every = (bulk_listings / 20).max(1);
                let reported = std::cell::Cell::new(0);
                let progress = |done: usize| {
                    if done >= reported.get() + every || done == bulk_listings {
                        reported.set(done);
                        eprintln!("bulk seed: {done} of {bulk_listings} listings ({} s)", started.elapsed().as_secs());
                    }
                };
                let added = store_seaorm::seed::bulk_listings(&db, SystemClock.now(), bulk_listings, progress)
                    .await
                    .context("bulk seeding failed")?;
                let services = Services::build(&settings, db.clone(), Arc::new(SystemClock))?;
                let pictured = crate::demo_pictures::add_bulk(&services.app.media, &services.store, &settings.data_dir).await?;
                println!("gave {pictured} generated listings one of {} drawn logos", crate::demo_pictures::BULK_LOGOS);
                store_seaorm::optimize(&db).await.context("cannot refresh the planner's statistics")?;
                println!("added {added} generated listings");
                // The generated history reaches back years: its finished weeks get their awards
                // now, as the week-end job would have fixed them, rather than in a catch-up
                // that the server's first start would run (tens of seconds at a million listings).
                let services = Services::build(&settings, db, Arc::new(SystemClock))?;
                let fixed = services.app.listings.awards.fix_finished_weeks().await.context("cannot fix the awards of finished weeks")?;
                println!("fixed the awards of {} finished weeks", fixed.len());
            }
            // Every seeded listing's profile ready to read in one go, before the server starts.
            let started = std::time::Instant::now();
            let services = Services::build(&settings, open_database(&settings).await?, Arc::new(SystemClock))?;
            let prepared = services.app.listings.profiles.prepare_profiles().await.context("cannot make the listings' profiles ready")?;
            println!("made {prepared} listing profiles ready ({} s)", started.elapsed().as_secs());
            // Last, so the rows the profiles' preparation left behind are settled too.
            if bulk_listings > 0 {
                store_seaorm::settle_after_bulk_load(services.store.connection())
                    .await
                    .context("cannot vacuum and analyze the loaded tables")?;
            }
            Ok(())
        }
        Command::User(UserCommand::Create { email, name }) => {
            let services = services(&settings).await?;
            let email = parse_email(&email)?;
            let user = services.app.accounts.users.create_user(&email, name.as_deref()).await.map_err(describe)?;
            println!("created user {} <{}>", user.id, user.email);
            Ok(())
        }
        Command::User(role @ (UserCommand::GrantAdmin { .. } | UserCommand::RevokeAdmin { .. })) => {
            let (grant, email) = match role {
                UserCommand::GrantAdmin { email } => (true, email),
                UserCommand::RevokeAdmin { email } | UserCommand::Create { email, .. } => (false, email),
            };
            let services = services(&settings).await?;
            let address = parse_email(&email)?;
            if !services.app.accounts.admin.set_admin(&address, grant).await? {
                anyhow::bail!("no account uses {address}; `launchdir user create` makes one");
            }
            println!("{address} {}", if grant { "is an admin now: /admin" } else { "is no longer an admin" });
            Ok(())
        }
        Command::ApiKey(command) => api_key(&settings, command).await,
        Command::Prices(command) => crate::cli_orders::prices(&services(&settings).await?, command).await,
        Command::VatRates(command) => crate::cli_orders::vat_rates(&services(&settings).await?, command).await,
        Command::Orders(command) => crate::cli_orders::orders(&services(&settings).await?, command).await,
        Command::Tasks(command) => crate::cli_orders::tasks(&services(&settings).await?, command).await,
        Command::Votes(command) => crate::cli_moderation::votes(&services(&settings).await?, command).await,
        Command::Reviews(command) => crate::cli_moderation::reviews(&services(&settings).await?, command).await,
        Command::Openapi => print_openapi(),
        Command::Edits(command) => {
            let services = services(&settings).await?;
            match command {
                EditsCommand::List { listing, limit } => {
                    let versions = services.app.listings.owners.versions(listing.map(kernel::ListingId::new), limit.clamp(1, 1000)).await?;
                    if versions.is_empty() {
                        println!("no edits yet");
                    }
                    for version in versions {
                        println!(
                            "#{}\tlisting {}\t{}\tby {}\tchanged: {}",
                            version.id,
                            version.listing_id,
                            version.created_at,
                            version.editor_email.as_deref().unwrap_or("a deleted account"),
                            version.changed.join(", ")
                        );
                    }
                }
                EditsCommand::Show { id } => {
                    let version = services.app.listings.owners.version(id).await.map_err(|err| match err {
                        listings::OwnerError::NotFound => anyhow::anyhow!("there is no edit #{id}; `launchdir edits list` shows them"),
                        other => anyhow::Error::new(other),
                    })?;
                    print!("{}", review_copy(&version)?);
                }
            }
            Ok(())
        }
        Command::Outbox(OutboxCommand::List { limit }) => {
            let services = services(&settings).await?;
            let emails = services.store.outbox(limit.clamp(1, 1000)).await?;
            if emails.is_empty() {
                println!("the outbox is empty");
            }
            for email in emails {
                println!(
                    "#{} {} to {} [{}]\nSubject: {}\n\n{}\n",
                    email.id, email.created_at, email.to, email.kind, email.subject, email.body
                );
            }
            Ok(())
        }
    }
}

async fn serve(settings: Settings) -> anyhow::Result<()> {
    let app = Application::build(settings.clone()).await?;
    let address = format!("{}:{}", settings.bind.rsplit_once(':').map_or("127.0.0.1", |(host, _)| host), app.port());
    let (site, base) = (app.site_url().to_owned(), app.base_url().to_owned());
    tracing::info!(%address, "listening");
    println!("Launchdir is serving on http://{address}  (site {site}, API {base}, OpenAPI {base}/openapi.json)");
    app.run_until_stopped().await.context("the server stopped with an error")?;
    tracing::info!("stopped");
    Ok(())
}

async fn services(settings: &Settings) -> anyhow::Result<Services> {
    let db = open_database(settings).await?;
    store_seaorm::migrate_if_sqlite(&db, &settings.database_url()).await?;
    Services::build(settings, db, Arc::new(SystemClock))
}

fn parse_email(raw: &str) -> anyhow::Result<Email> {
    Email::parse(raw).map_err(|err| anyhow::anyhow!("--email {err}"))
}

fn describe(err: AccountsError) -> anyhow::Error {
    match err {
        AccountsError::Invalid { field, message } => anyhow::anyhow!("--{field} {message}"),
        other => anyhow::Error::new(other),
    }
}

async fn api_key(settings: &Settings, command: ApiKeyCommand) -> anyhow::Result<()> {
    let services = services(settings).await?;
    let accounts = &services.app.accounts.users;
    match command {
        ApiKeyCommand::Create { email, scopes, name } => {
            let email = parse_email(&email)?;
            let scopes = match scopes {
                Some(list) => {
                    let scopes = Scopes::parse_list(&list).map_err(|unknown| {
                        anyhow::anyhow!("--scopes: unknown scope {unknown:?} (known: account:read, listings:write, orders:write)")
                    })?;
                    if scopes.is_empty() {
                        bail!("--scopes must name at least one scope");
                    }
                    scopes
                }
                None => Scopes::all(),
            };
            let created = accounts.create_api_key(&email, name.as_deref(), scopes).await.map_err(describe)?;
            println!(
                "created API key {} \"{}\" with scopes {} (shown once; store it now)",
                created.key.id,
                created.key.name,
                created.key.scopes.to_text()
            );
            println!("{}", created.secret.expose());
            Ok(())
        }
        ApiKeyCommand::List { email } => {
            let email = parse_email(&email)?;
            let keys = accounts.list_api_keys(&email).await.map_err(describe)?;
            if keys.is_empty() {
                println!("{email} has no API keys");
            }
            for key in keys {
                let state = if key.revoked_at.is_some() { "revoked" } else { "active" };
                let last_used = key.last_used_at.map_or_else(|| "never".to_owned(), |at| at.to_string());
                println!(
                    "{}\t{}\t{}…\t{}\t{}\tcreated {}\tlast used {}",
                    key.id,
                    key.name,
                    key.prefix,
                    key.scopes.to_text(),
                    state,
                    key.created_at,
                    last_used
                );
            }
            Ok(())
        }
        ApiKeyCommand::Revoke { id } => {
            let key = accounts.revoke_api_key(ApiKeyId::new(id)).await.map_err(describe)?;
            println!("revoked API key {} \"{}\" ({}…)", key.id, key.name, key.prefix);
            Ok(())
        }
    }
}

/// The site team's review copy of one edit: who and when, each changed value before and after,
/// then both full copies.
pub fn review_copy(version: &listings::ListingVersion) -> anyhow::Result<String> {
    use std::fmt::Write;
    let before = serde_json::to_value(&version.before)?;
    let after = serde_json::to_value(&version.after)?;
    let mut out = String::new();
    writeln!(
        out,
        "Edit #{} of listing {} by {} at {}",
        version.id,
        version.listing_id,
        version.editor_email.as_deref().unwrap_or("a deleted account"),
        version.created_at
    )?;
    writeln!(out, "Changed: {}", version.changed.join(", "))?;
    for key in &version.changed {
        writeln!(out, "\n{key}\n  before: {}\n  after:  {}", before[key], after[key])?;
    }
    writeln!(out, "\nBefore (full copy):\n{}", serde_json::to_string_pretty(&before)?)?;
    writeln!(out, "\nAfter (full copy):\n{}", serde_json::to_string_pretty(&after)?)?;
    Ok(out)
}
