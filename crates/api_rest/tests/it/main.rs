//! Integration tests of the REST adapter that need no database.

mod openapi_document;
