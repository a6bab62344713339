#![doc = include_str!("../README.md")]

mod app;
mod caller;
mod error;
pub mod housekeeping;
mod input;
pub mod jobs;
pub mod operations;
pub mod params;
mod problem;
mod rate_class;
mod registry;
mod spec_presets;
pub mod wire;

pub use app::{AccountServices, App, Area, CommerceServices, ContentServices, Context, ListingServices, SiteConfig};
pub use caller::{AuthFailure, Caller, authenticate, authenticate_for};
pub use error::OpError;
pub use input::{InputPart, NoInput, RawInput, parse_body};
pub use jobs::JobRegistry;
pub use problem::Problem;
pub use rate_class::{RateClass, RateQuotas};
pub use registry::{DynOperation, HttpMethod, Input, Operation, OperationSpec, PartSchemas, find, registry, run_input, run_typed};
pub use wire::Pagination;
