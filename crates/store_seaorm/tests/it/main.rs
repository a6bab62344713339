//! Integration tests of the store against a real database: SQLite by default, PostgreSQL when
//! `LAUNCHDIR_TEST_DATABASE_URL` names one (`cargo xtask test` runs both).

mod accounts;
mod boards;
mod catalog;
mod directory;
mod jobs;
mod migrations;
mod pool;
mod positions;
mod pragmas;
mod profiles;
mod reviews;
mod search_feed;
