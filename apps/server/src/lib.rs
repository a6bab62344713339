//! The Launchdir server: settings, wiring of adapters into the application, the HTTP server
//! and the command line. `Application::build` starts the real server (port 0 works), so tests
//! run against the same code as production.

mod bookkeeping;
pub mod cli;
mod cli_moderation;
mod cli_orders;
mod database;
pub mod demo_pictures;
mod http;
mod periodic;
pub mod settings;
mod startup;
pub mod telemetry;
mod wiring;
pub mod worker;

pub use database::open_database;
pub use startup::Application;
pub use wiring::Services;
