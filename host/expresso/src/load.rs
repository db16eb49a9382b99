//! Reading the files the command line names, each refusal in evoke's shape: what, where, and the fix.

use crate::exit::Exit;
use expresso_lang::bounds::MAX_SOURCE_BYTES;
use expresso_lang::{Compiled, Diagnostic, compile};
use std::io::Read;
use std::path::Path;

/// Reads a text file of at most `limit` bytes. `what` is a bare noun ("event log"): the refusal says
/// "cannot read the event log …" and "name a readable event log", so it must carry no article.
pub fn text(path: &Path, limit: u64, what: &str) -> Result<String, Exit> {
    let refuse = |message: String| {
        eprintln!("error: cannot read the {what} {}: {message}", path.display());
        eprintln!("  = fix: name a readable {what}");
        Exit::Usage
    };
    let file = std::fs::File::open(path).map_err(|e| refuse(e.to_string()))?;
    let mut text = String::new();
    file.take(limit + 1).read_to_string(&mut text).map_err(|e| refuse(e.to_string()))?;
    if text.len() as u64 > limit {
        return Err(refuse(format!("larger than {limit} bytes")));
    }
    Ok(text)
}

/// Reads and compiles a program; prints every diagnostic to stderr. Warnings are printed and pass.
pub fn program(path: &Path) -> Result<(String, Compiled), Exit> {
    let source = text(path, MAX_SOURCE_BYTES as u64, "program")?;
    let file = path.display().to_string();
    match compile(&source) {
        Ok(compiled) => {
            print_all(&file, &source, &compiled.report.diagnostics);
            Ok((source, compiled))
        }
        Err(diagnostics) => {
            print_all(&file, &source, &diagnostics);
            let errors = diagnostics.iter().filter(|d| d.is_error()).count();
            eprintln!("{file}: refused ({errors} error{})", if errors == 1 { "" } else { "s" });
            Err(Exit::Usage)
        }
    }
}

pub fn print_all(file: &str, source: &str, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        eprint!("{}", d.render(file, source));
    }
}
