#![doc = include_str!("../README.md")]

mod memory;
mod shared;

pub use memory::MemoryLimiter;
pub use shared::{RedisLimiter, SharedLimiter};
