#![doc = include_str!("../README.md")]

mod resolver;
#[cfg(feature = "testing")]
pub mod testing;

pub use resolver::HickoryTxtResolver;
