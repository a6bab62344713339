//! Repositories of the listings domain: the directory, launches, boards, owners, votes, reviews, search and sitemaps.

mod alternatives_repo;
mod calendar_repo;
mod directory_repo;
mod feeds_repo;
mod founders_repo;
mod interview_repo;
mod lifecycle_repo;
mod owner_repo;
mod ownership_repo;
mod profile_repo;
mod purchases_repo;
mod rankings_repo;
mod reviews_repo;
mod search_repo;
mod sitemap_repo;
mod submission_repo;
mod votes_repo;
