//! The parser's fuzz entry point never panics: every vector's source and the worked example, mutated many
//! ways by a deterministic generator (so a failure replays), plus hostile shapes, go through it.

use expresso_lang::fuzz::fuzz;
use std::path::PathBuf;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const PIECES: [&str; 24] = [
    "{",
    "}",
    "(",
    ")",
    "\"",
    "/",
    "~",
    "..",
    "->",
    "#",
    "\\",
    "{.x}",
    "leaf ",
    "agent \"A\" {",
    "on ",
    "for x in ",
    "list<",
    "enum(",
    "?",
    "5m",
    "\n",
    "🐞",
    "\u{202E}",
    "\u{0}",
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(6) {
        let at = rng.below(chars.len() + 1);
        match rng.below(3) {
            0 if !chars.is_empty() => {
                let end = (at + rng.below(16)).min(chars.len());
                chars.drain(at.min(chars.len())..end);
            }
            1 => {
                let piece = PIECES[rng.below(PIECES.len())];
                for (i, c) in piece.chars().enumerate() {
                    chars.insert((at + i).min(chars.len()), c);
                }
            }
            _ => {
                if let Some(c) = chars.get_mut(at) {
                    *c = char::from_u32(rng.next() as u32 % 0x3000).unwrap_or('x');
                }
            }
        }
    }
    chars.into_iter().collect()
}

fn sources() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors");
    let mut out = vec![include_str!("../../../transcripts/expresso-triage/triage.ex").to_string()];
    for folder in ["expresso-parse", "expresso-check", "expresso-keys", "expresso-route"] {
        let Ok(entries) = std::fs::read_dir(root.join(folder)) else { continue };
        for entry in entries.flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let case: serde_json::Value = serde_json::from_str(&text).unwrap();
            if let Some(source) = case["input"]["source"].as_str() {
                out.push(source.to_string());
            }
        }
    }
    out
}

#[test]
fn mutated_sources_never_panic() {
    let sources = sources();
    assert!(sources.len() > 20, "the vectors' sources are the seeds");
    let mut rng = Rng(0x5eed_e5e5);
    let mut diagnostics = 0;
    for round in 0..4000 {
        let seed = &sources[round % sources.len()];
        diagnostics += fuzz(mutate(seed, &mut rng).as_bytes());
    }
    assert!(diagnostics > 1000, "mutations should mostly be refused, found {diagnostics} diagnostics");
}

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
    let mut rng = Rng(42);
    for _ in 0..500 {
        let bytes: Vec<u8> = (0..rng.below(200)).map(|_| rng.next() as u8).collect();
        fuzz(&bytes);
    }
}
