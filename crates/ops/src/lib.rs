#![doc = include_str!("../README.md")]

pub mod answers;
mod app;
mod caller;
pub mod encoding;
mod error;
pub mod housekeeping;
pub mod idempotency;
mod input;
pub mod jobs;
pub mod limits;
pub mod operations;
pub mod params;
pub mod passwords;
mod problem;
mod registry;
mod spec_presets;
pub mod wire;

pub use answers::{AnswerCache, KnownWriter};
pub use app::{App, SiteConfig};
pub use caller::{AuthFailure, Caller, authenticate, authenticate_for};
pub use encoding::KeptBody;
pub use error::OpError;
pub use idempotency::{Answer, Executed, execute};
pub use input::{InputPart, NoInput, RawInput};
pub use jobs::JobRegistry;
pub use limits::{Admission, ClientIp, RateClass, RateLimits, RateStatus, admit};
pub use problem::Problem;
pub use registry::{DynOperation, HttpMethod, Input, Operation, OperationSpec, PartSchemas, find, registry, run_typed};
pub use wire::Pagination;
