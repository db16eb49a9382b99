//! The `evoke` command: parse the command line, hand it to the library, exit with its code.

use std::process::ExitCode;

fn main() -> ExitCode {
    evoke::cli::main()
}
