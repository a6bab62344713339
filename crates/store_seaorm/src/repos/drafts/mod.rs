//! The repository of the drafts domain.

mod drafts_repo;
