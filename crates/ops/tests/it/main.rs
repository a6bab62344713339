//! Integration tests of the operation registry.

mod registry_matches_spec;
