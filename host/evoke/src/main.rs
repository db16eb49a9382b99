//! The `evoke` command: parse the command line, hand it to the library, exit with its code.

use std::process::ExitCode;

// A decision allocates many small strings and maps; mimalloc serves them markedly faster than the
// system allocator (see `cargo bench -p evoke --bench decide`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    evoke::cli::main()
}
