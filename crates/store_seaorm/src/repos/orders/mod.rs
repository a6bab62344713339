//! Repositories of the orders domain: the catalogue, orders, and invoices.

mod catalog_repo;
mod invoices_repo;
mod orders_repo;
mod vat_rates_repo;
