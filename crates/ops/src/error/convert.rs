//! Every conversion of a domain error into an `OpError`, in one place: what each variant
//! means to a caller is decided here, not in the operations.

use crate::OpError;
use kernel::RepoError;
use listings::OwnerError;

impl From<RepoError> for OpError {
    fn from(error: RepoError) -> Self {
        Self::internal(error)
    }
}

impl From<OwnerError> for OpError {
    fn from(error: OwnerError) -> Self {
        match error {
            OwnerError::NotFound => OpError::NotFound("you own no listing with this id".into()),
            OwnerError::NotAllowed(message) => OpError::field("listing_id", message),
            OwnerError::Repo(err) => OpError::internal(err),
        }
    }
}
