//! The `evoke` command: parse the command line, hand it to the library, exit with its code.

use std::process::ExitCode;

// A decision allocates many small strings and maps; mimalloc serves them markedly faster than the
// system allocator (see `cargo bench -p evoke --bench decide`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // SAFETY: the first thing `main` does, while the process has its one thread.
    unsafe { evoke_adapters::embed::settle_thread_count() };
    evoke::cli::main()
}
