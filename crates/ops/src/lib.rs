#![doc = include_str!("../README.md")]

mod app;
mod caller;
mod error;
mod input;
pub mod operations;
mod registry;

pub use app::{App, SiteConfig};
pub use caller::{AuthFailure, Caller, authenticate};
pub use error::OpError;
pub use input::{InputPart, NoInput, Pagination, RawInput};
pub use registry::{DynOperation, HttpMethod, Input, Operation, OperationSpec, PartSchemas, find, registry};
