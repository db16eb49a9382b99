//! Nothing panics on any input: every shipped manifest, mutated many ways, goes through every reader.

use evoke_core::manifest::read_manifest;
use evoke_core::overlay::read_overlay;
use evoke_core::vocab::read_vocab;
use std::path::PathBuf;

/// A small deterministic generator, so a failure replays.
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

const PIECES: [&str; 16] =
    ["\u{202E}", "\t", "\"", "{", "}", "[", "]", "=", "\n", "..", "none", "é", "\u{0}", "[args.x]\n", "'''", "0x7f"];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(chars.len() + 1);
        match rng.below(3) {
            0 if !chars.is_empty() => {
                let end = (at + rng.below(12)).min(chars.len());
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

#[test]
fn readers_never_panic() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../reflexes");
    let mut texts = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let file = entry.unwrap().path().join("reflex.toml");
        if let Ok(text) = std::fs::read_to_string(file) {
            texts.push(text);
        }
    }
    assert!(!texts.is_empty());
    let exists = |_: &str| true;
    let shipped = read_manifest("reflex.toml", &texts[0], &exists).value.expect("the first shipped manifest reads");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut refused = 0;
    for round in 0..3000 {
        let text = mutate(&texts[round % texts.len()], &mut rng);
        let reading = read_manifest("reflex.toml", &text, &exists);
        if reading.value.is_none() {
            refused += 1;
            assert!(reading.first_error().is_some(), "a refusal without an error:\n{text}");
            let _ = reading.first_error().unwrap().render();
        }
        let _ = read_overlay("overlay.toml", &text, &shipped);
        let _ = read_vocab("rooms", "vocab/rooms.toml", &text);
    }
    assert!(refused > 100, "the mutations should break most manifests, broke {refused}");
}
