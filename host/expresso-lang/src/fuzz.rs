//! The parser's fuzz entry point: any bytes in, never a panic. A fuzzer (or the stable test that mutates
//! the vectors' sources) calls this; it parses, checks when the parse is clean, and renders every
//! diagnostic, so the whole path from bytes to a printed error is exercised.

/// Returns how many diagnostics the input produced, so a caller can tell the path ran.
pub fn fuzz(input: &[u8]) -> usize {
    let source = String::from_utf8_lossy(input);
    let parsed = crate::parse(&source);
    let mut count = parsed.diagnostics.len();
    for d in &parsed.diagnostics {
        let _ = d.render("fuzz.ex", &source);
    }
    if !parsed.diagnostics.iter().any(|d| d.is_error()) {
        let report = crate::check(&parsed.program);
        for d in &report.diagnostics {
            let _ = d.render("fuzz.ex", &source);
        }
        count += report.diagnostics.len();
    }
    count
}
