//! `.mts` → JavaScript by erasing the types in place: every line and column stays where it was, so a
//! body's frames point at the author's own file.

use std::io::Write;
use std::sync::{Arc, Mutex};
use swc_common::errors::Handler;
use swc_common::sync::Lrc;
use swc_common::{GLOBALS, Globals, SourceMap};
use swc_ts_fast_strip::{Mode, Options, operate};

/// The stripper's own diagnostics, gathered for the error message.
#[derive(Clone, Default)]
struct Collected(Arc<Mutex<Vec<u8>>>);

impl Write for Collected {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().map_err(|_| std::io::Error::other("poisoned"))?.extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A TypeScript body whose types could not be stripped: the file, the stripper's error, and what its
/// diagnostics said (empty when they said nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotStripped {
    pub file_name: String,
    pub error: String,
    pub said: String,
}

impl std::fmt::Display for NotStripped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file_name, self.error)?;
        if !self.said.is_empty() {
            write!(f, "\n{}", self.said)?;
        }
        Ok(())
    }
}

impl std::error::Error for NotStripped {}

pub fn strip_types(file_name: &str, source: &str) -> Result<String, NotStripped> {
    let cm: Lrc<SourceMap> = Default::default();
    let collected = Collected::default();
    let handler = Handler::with_emitter_writer(Box::new(collected.clone()), Some(cm.clone()));
    let options = Options {
        module: Some(true),
        filename: Some(file_name.to_string()),
        mode: Mode::StripOnly,
        ..Default::default()
    };
    GLOBALS.set(&Globals::new(), || operate(&cm, &handler, source.to_string(), options)).map(|out| out.code).map_err(
        |e| {
            let said = collected.0.lock().map(|b| String::from_utf8_lossy(&b).trim().to_string()).unwrap_or_default();
            NotStripped { file_name: file_name.to_string(), error: e.to_string(), said }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::strip_types;

    #[test]
    fn keeps_lines_and_columns() {
        let ts = "const a: number = 1;\nexport default function body(x: { n: number }): string {\n  throw new Error(`n=${x.n}`);\n}\n";
        let js = strip_types("t.mts", ts).unwrap();
        assert_eq!(js.lines().count(), ts.lines().count());
        let ts_line = ts.lines().nth(2).unwrap();
        let js_line = js.lines().nth(2).unwrap();
        assert_eq!(ts_line.find("throw"), js_line.find("throw"));
        assert!(!js.contains(": number"));
    }

    #[test]
    fn refuses_what_does_not_parse() {
        let refused = strip_types("bad.mts", "export default (: => ").unwrap_err();
        assert_eq!(refused.file_name, "bad.mts");
        assert!(refused.to_string().starts_with("bad.mts: "), "{refused}");
    }
}
