#![doc = include_str!("../README.md")]

pub mod catalog;

pub use catalog::{CatalogService, Product, ProductOffer, ProductRepository, WeekPolicy, WeekRule};
