//! Test support: every test gets its own migrated database.
//!
//! `LAUNCHDIR_TEST_DATABASE_URL` chooses the backend. Unset or `sqlite`: a fresh SQLite file in
//! the temp directory. A `postgres://` URL: a fresh schema in that database, dropped when the
//! test ends. `cargo xtask test` runs the suite once per backend.

use crate::{DbConfig, connect, migrate};
use sea_orm::{ConnectionTrait, DatabaseConnection};
use std::path::PathBuf;

/// The environment variable that picks the test backend.
pub const TEST_DATABASE_ENV: &str = "LAUNCHDIR_TEST_DATABASE_URL";

/// A migrated database that belongs to one test.
pub struct TestDatabase {
    pub db: DatabaseConnection,
    /// The settings a server process needs to open the same database.
    pub config: DbConfig,
    cleanup: Cleanup,
}

enum Cleanup {
    File(PathBuf),
    Schema { admin_url: String, schema: String },
}

impl TestDatabase {
    /// Creates and migrates a database of its own for the calling test.
    ///
    /// # Panics
    /// When the database cannot be created: a test cannot go on without one.
    pub async fn new() -> Self {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let chosen = std::env::var(TEST_DATABASE_ENV).unwrap_or_default();
        let (config, cleanup) = if chosen.starts_with("postgres") {
            let schema = format!("t_{id}");
            let admin = connect(&DbConfig { max_connections: 1, ..DbConfig::new(chosen.clone()) })
                .await
                .unwrap_or_else(|err| panic!("cannot reach PostgreSQL at {chosen}: {err}"));
            admin.execute_unprepared(&format!("CREATE SCHEMA \"{schema}\"")).await.expect("create schema");
            admin.close().await.ok();
            let config = DbConfig { max_connections: 8, schema: Some(schema.clone()), ..DbConfig::new(chosen.clone()) };
            (config, Cleanup::Schema { admin_url: chosen, schema })
        } else {
            remove_stale_files();
            let path = std::env::temp_dir().join(format!("launchdir-test-{id}.db"));
            let config = DbConfig { max_connections: 8, ..DbConfig::new(format!("sqlite://{}", path.display())) };
            (config, Cleanup::File(path))
        };
        let db = connect(&config).await.expect("open test database");
        migrate(&db).await.expect("migrate test database");
        Self { db, config, cleanup }
    }

    /// Which backend the test runs on, for messages.
    pub fn backend_name(&self) -> &'static str {
        match self.cleanup {
            Cleanup::File(_) => "sqlite",
            Cleanup::Schema { .. } => "postgres",
        }
    }
}

/// Test databases shared for a whole test run are never dropped; files older than an hour are
/// left-overs of earlier runs.
fn remove_stale_files() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        let stale = entry.file_name().to_string_lossy().starts_with("launchdir-test-")
            && entry.metadata().and_then(|m| m.modified()).is_ok_and(|at| at.elapsed().is_ok_and(|age| age.as_secs() > 3600));
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        match &self.cleanup {
            Cleanup::File(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let mut file = path.clone().into_os_string();
                    file.push(suffix);
                    let _ = std::fs::remove_file(file);
                }
            }
            Cleanup::Schema { admin_url, schema } => {
                // Drop cannot await; a short-lived thread with its own runtime does the clean-up.
                let (url, schema) = (admin_url.clone(), schema.clone());
                let _ = std::thread::spawn(move || {
                    let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
                        return;
                    };
                    runtime.block_on(async move {
                        if let Ok(admin) = connect(&DbConfig { max_connections: 1, ..DbConfig::new(url) }).await {
                            let _ = admin.execute_unprepared(&format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE")).await;
                            admin.close().await.ok();
                        }
                    });
                })
                .join();
            }
        }
    }
}

/// Rows for tests that need an exact situation rather than the demo directory.
pub mod fixtures {
    use crate::entity::{founder, interview_question, listing, listing_document, listing_founder, review, user, vote};
    use sea_orm::sea_query::Expr;
    use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, Set};
    use time::OffsetDateTime;

    /// The demo price list (the products every order test buys from).
    pub async fn products(db: &DatabaseConnection) {
        crate::seed::seed_products(db, &mut crate::seed::SeedReport::default()).await.expect("seed the products");
    }

    /// A top-level category.
    pub async fn category(db: &DatabaseConnection, slug: &str) -> i64 {
        crate::entity::category::ActiveModel {
            slug: Set(slug.to_owned()),
            name: Set(slug.to_uppercase()),
            description: Set(String::new()),
            parent_id: Set(None),
            position: Set(0),
            faqs: Set(serde_json::json!([])),
            ..Default::default()
        }
        .insert(db)
        .await
        .expect("insert category")
        .id
    }

    /// Puts a listing in a category, as its primary one or not.
    pub async fn in_category(db: &DatabaseConnection, listing_id: i64, category_id: i64, primary: bool) {
        crate::entity::listing_category::ActiveModel {
            listing_id: Set(listing_id),
            category_id: Set(category_id),
            is_primary: Set(primary),
        }
        .insert(db)
        .await
        .expect("insert listing category");
        if primary {
            listing::Entity::update_many()
                .col_expr(listing::Column::PrimaryCategoryId, Expr::value(category_id))
                .filter(listing::Column::Id.eq(listing_id))
                .exec(db)
                .await
                .expect("set the primary category");
        }
    }

    /// A listing with a launch week; `launched_at` is set for live listings.
    pub async fn listing(db: &DatabaseConnection, slug: &str, status: &str, week: kernel::Week, launched_at: OffsetDateTime) -> i64 {
        listing::ActiveModel {
            slug: Set(slug.to_owned()),
            name: Set(slug.to_uppercase()),
            url: Set(format!("https://{slug}.example")),
            domain: Set(format!("{slug}.example")),
            status: Set(status.to_owned()),
            launch_week: Set(Some(week.monday())),
            launched_at: Set((status == "live").then_some(launched_at)),
            votes_count: Set(0),
            views_count: Set(0),
            created_at: Set(launched_at),
            updated_at: Set(launched_at),
            ..Default::default()
        }
        .insert(db)
        .await
        .expect("insert listing")
        .id
    }

    pub async fn user(db: &DatabaseConnection, email: &str) -> i64 {
        user::ActiveModel {
            email: Set(email.to_owned()),
            display_name: Set(email.to_owned()),
            blocked: Set(false),
            password_hash: Set(None),
            created_at: Set(OffsetDateTime::now_utc()),
            email_confirmed_at: Set(Some(OffsetDateTime::now_utc())),
            ..Default::default()
        }
        .insert(db)
        .await
        .expect("insert user")
        .id
    }

    pub async fn set_owner(db: &DatabaseConnection, listing_id: i64, user_id: i64) {
        listing::Entity::update_many()
            .col_expr(listing::Column::OwnerUserId, Expr::value(user_id))
            .filter(listing::Column::Id.eq(listing_id))
            .exec(db)
            .await
            .expect("set owner");
    }

    /// A listing's status now.
    pub async fn status(db: &DatabaseConnection, listing_id: i64) -> String {
        listing::Entity::find_by_id(listing_id).one(db).await.expect("read listing").expect("the listing exists").status
    }

    /// Points a listing at another website (a fixture server).
    pub async fn set_url(db: &DatabaseConnection, listing_id: i64, url: &str) {
        listing::Entity::update_many()
            .col_expr(listing::Column::Url, Expr::value(url))
            .filter(listing::Column::Id.eq(listing_id))
            .exec(db)
            .await
            .expect("set url");
    }

    pub async fn set_plan(db: &DatabaseConnection, listing_id: i64, plan: &str) {
        listing::Entity::update_many()
            .col_expr(listing::Column::Plan, Expr::value(plan))
            .filter(listing::Column::Id.eq(listing_id))
            .exec(db)
            .await
            .expect("set plan");
    }

    /// Publishes a listing in `week`, launched at `at` (as the week-start job does).
    pub async fn publish(db: &DatabaseConnection, listing_id: i64, week: kernel::Week, at: OffsetDateTime) {
        listing::Entity::update_many()
            .col_expr(listing::Column::Status, Expr::value("live"))
            .col_expr(listing::Column::LaunchWeek, Expr::value(week.monday()))
            .col_expr(listing::Column::LaunchedAt, Expr::value(at))
            .filter(listing::Column::Id.eq(listing_id))
            .exec(db)
            .await
            .expect("publish");
    }

    /// Unlocks paid-only sections of a listing (`story`, `milestones`, `media`).
    pub async fn unlock(db: &DatabaseConnection, listing_id: i64, sections: &[&str]) {
        listing::Entity::update_many()
            .col_expr(listing::Column::UnlockedSections, Expr::value(serde_json::json!(sections)))
            .filter(listing::Column::Id.eq(listing_id))
            .exec(db)
            .await
            .expect("unlock sections");
    }

    pub async fn block(db: &DatabaseConnection, user_id: i64) {
        user::Entity::update_many()
            .col_expr(user::Column::Blocked, Expr::value(true))
            .filter(user::Column::Id.eq(user_id))
            .exec(db)
            .await
            .expect("block");
    }

    /// Takes back an account's confirmation of its address.
    pub async fn unconfirm(db: &DatabaseConnection, user_id: i64) {
        user::Entity::update_many()
            .col_expr(user::Column::EmailConfirmedAt, Expr::value(Option::<OffsetDateTime>::None))
            .filter(user::Column::Id.eq(user_id))
            .exec(db)
            .await
            .expect("unconfirm");
    }

    /// Makes an account as old as `made_at` says (accounts are made now).
    pub async fn account_made(db: &DatabaseConnection, user_id: i64, made_at: OffsetDateTime) {
        user::Entity::update_many()
            .col_expr(user::Column::CreatedAt, Expr::value(made_at))
            .filter(user::Column::Id.eq(user_id))
            .exec(db)
            .await
            .expect("set the account's age");
    }

    pub async fn review(db: &DatabaseConnection, listing_id: i64, user_id: i64, rating: i16, hidden: bool) {
        review::ActiveModel {
            listing_id: Set(listing_id),
            user_id: Set(user_id),
            rating: Set(rating),
            body: Set(None),
            hidden: Set(hidden),
            created_at: Set(OffsetDateTime::now_utc()),
            ..Default::default()
        }
        .insert(db)
        .await
        .expect("insert review");
    }

    /// Edits a listing's tagline as an owner's edit would: `updated_at` moves to now.
    pub async fn edit_tagline(db: &DatabaseConnection, listing_id: i64, tagline: &str) {
        listing::Entity::update_many()
            .col_expr(listing::Column::Tagline, Expr::value(tagline))
            .col_expr(listing::Column::UpdatedAt, Expr::value(OffsetDateTime::now_utc()))
            .filter(listing::Column::Id.eq(listing_id))
            .exec(db)
            .await
            .expect("edit tagline");
    }

    /// Whether the listing's kept document (migration 25) is built at its current revision.
    pub async fn document_is_current(db: &DatabaseConnection, listing_id: i64) -> bool {
        let kept = listing_document::Entity::find_by_id(listing_id).one(db).await.expect("read document");
        kept.is_some_and(|kept| kept.built_revision == Some(kept.revision) && kept.body.is_some())
    }

    /// Sets a listing's page views.
    pub async fn views(db: &DatabaseConnection, listing_id: i64, views: i64) {
        listing::Entity::update_many()
            .col_expr(listing::Column::ViewsCount, Expr::value(views))
            .filter(listing::Column::Id.eq(listing_id))
            .exec(db)
            .await
            .expect("set views");
    }

    pub async fn follow(db: &DatabaseConnection, listing_id: i64, user_id: i64, at: OffsetDateTime) {
        crate::shared::follows::follow(db, listing_id, user_id, at).await.expect("insert follow");
    }

    /// A vote at `at`, keeping the listing's `votes_count` in step.
    pub async fn vote(db: &DatabaseConnection, listing_id: i64, user_id: i64, at: OffsetDateTime) {
        vote::ActiveModel {
            listing_id: Set(listing_id),
            user_id: Set(user_id),
            created_at: Set(at),
            launch_week: Set(crate::shared::votes::utc_week(at)),
            ..Default::default()
        }
        .insert(db)
        .await
        .expect("insert vote");
        // The same statement the repository counts with: on PostgreSQL a connection keeps one
        // prepared statement per text, typed by its first use.
        crate::shared::votes::add_to_count(db, listing_id, 1).await.expect("count vote");
    }

    /// An asked (active) interview question.
    pub async fn interview_question(db: &DatabaseConnection, position: i32, question: &str) -> i64 {
        interview_question::ActiveModel {
            position: Set(position),
            question: Set(question.to_owned()),
            hint: Set(None),
            active: Set(true),
            ..Default::default()
        }
        .insert(db)
        .await
        .expect("insert interview question")
        .id
    }

    /// A founder of a listing, at `position` (0 is the primary founder).
    pub async fn founder(db: &DatabaseConnection, listing_id: i64, slug: &str, position: i32) -> i64 {
        let id = founder::ActiveModel {
            slug: Set(slug.to_owned()),
            name: Set(slug.replace('-', " ")),
            socials: Set(serde_json::json!({})),
            created_at: Set(OffsetDateTime::now_utc()),
            ..Default::default()
        }
        .insert(db)
        .await
        .expect("insert founder")
        .id;
        listing_founder::ActiveModel { listing_id: Set(listing_id), founder_id: Set(id), position: Set(position) }
            .insert(db)
            .await
            .expect("link founder");
        id
    }
}
