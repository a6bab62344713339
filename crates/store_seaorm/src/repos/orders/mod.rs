//! Repositories of the orders domain: the catalogue and orders.

mod catalog_repo;
mod orders_repo;
