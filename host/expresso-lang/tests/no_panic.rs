//! Hostile shapes are errors, never overflows. Mutations of every shipped program and vector source run in
//! evoke-fuzz's smoke test, beside evoke's parsers, with the one mutation engine.

use expresso_lang::fuzz::fuzz;

#[test]
fn hostile_shapes_are_errors_not_overflows() {
    let shapes = [
        "(".repeat(10_000),
        format!("agent \"A\" {{ on message {}", "{ if true ".repeat(10_000)),
        format!("leaf a(s: Span) -> {}text{}", "list<".repeat(10_000), ">".repeat(10_000)),
        format!("agent \"A\" {{ on message {{ say \"{}\" }} }}", "{\\\"".repeat(5_000)),
        format!("agent \"A\" {{ on message {{ say .x{} }} }}", ".y".repeat(10_000)),
        format!("agent \"A\" {{ on message {{ let x = a{} }} }}", " == a".repeat(10_000)),
        format!("agent \"A\" {{ on message {{ say \"{}\" }} }}", "{(".repeat(5_000)),
        "\u{FEFF}agent".to_string(),
    ];
    for shape in &shapes {
        assert!(fuzz(shape.as_bytes()) >= 1, "{}…", &shape[..40.min(shape.len())]);
    }
}
