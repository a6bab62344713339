//! The repository of the claims domain.

mod claims_repo;
