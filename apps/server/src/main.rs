//! The `launchdir` binary: the allocator, then the library's `cli::main` (the command line).

#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> std::process::ExitCode {
    launchdir_server::cli::main()
}
