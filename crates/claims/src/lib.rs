#![doc = include_str!("../README.md")]

pub mod checks;
pub mod model;

pub use checks::{Check, TxtLookup, dns_verdict, file_verdict, meta_verdict};
pub use model::{
    CLAIM_LIFETIME, Claim, ClaimMethod, ClaimStatus, EMAIL_LINK_LIFETIME, EmailRefusal, Instructions, Publish, claimable_email,
    instructions,
};
