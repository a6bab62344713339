//! End-to-end tests: the real server on a free port, over HTTP, on the backend that
//! `LAUNCHDIR_TEST_DATABASE_URL` selects (SQLite by default).

mod account;
mod awards;
mod badges;
mod blog;
mod browser;
mod browsing;
mod catalog;
mod categories;
mod cli;
mod compare;
mod crawling;
mod drafts;
mod errors;
mod feeds;
mod founders;
mod helpers;
mod invitations;
mod launches;
mod leaderboards;
mod lifecycle;
mod listing;
mod mcp;
mod oauth;
mod orders;
mod own_account;
mod owner;
mod pages;
mod payments;
mod ratelimits;
mod routes;
mod search;
mod security;
mod settings;
mod site;
mod votes;
