//! The repository of the content domain: the blog.

mod blog_repo;
