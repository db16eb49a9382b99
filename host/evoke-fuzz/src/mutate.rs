//! Deterministic mutations for the stable smoke test: byte flips, truncations, deletions, repeats,
//! splices of other seeds, and insertions of control and bidi characters, syntax and huge numbers. The
//! generator is seeded, so a failure replays on every machine.

/// A xorshift generator: small, seeded, the same everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_u64() % n as u64) as usize }
    }
}

/// Characters the text rules refuse: C0 and C1 controls, DEL, and every bidi control.
pub const UNCLEAN: [char; 16] = [
    '\0', '\u{7}', '\u{8}', '\t', '\r', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}', '\u{202A}', '\u{202E}', '\u{2066}',
    '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
];

/// Numbers at and past the edges of every integer and float type a parser might hold.
pub const HUGE: [&str; 12] = [
    "99999999999999999999999999",
    "18446744073709551616",
    "9223372036854775808",
    "-9223372036854775809",
    "1e309",
    "-1e309",
    "4.9e-324",
    "nan",
    "inf",
    "0x7fffffffffffffff",
    "1_000_000_000_000_000_000",
    "v18446744073709551616.0.0",
];

/// Pieces of the syntax the parsers read.
const SYNTAX: [&str; 22] = [
    "\"",
    "'",
    "'''",
    "\"\"\"",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    ".",
    "\n",
    "[args.x]\n",
    "//",
    "@",
    ":",
    "\\u202E",
    "\\u0007",
    "none",
    "unstated",
    "{\"raw\":{}}",
    "é",
];

/// One to four mutations of `input`; `others` are spliced from.
pub fn mutate(input: &[u8], others: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(8) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 => out.truncate(at),
            2 => {
                let end = (at + 1 + rng.below(16)).min(out.len());
                out.drain(at.min(end)..end);
            }
            3 => {
                let end = (at + 1 + rng.below(32)).min(out.len());
                let piece = out[at.min(end)..end].to_vec();
                for _ in 0..1 + rng.below(8) {
                    out.splice(at..at, piece.iter().copied());
                }
            }
            4 if !others.is_empty() => {
                let other = &others[rng.below(others.len())];
                let from = rng.below(other.len() + 1);
                let to = (from + rng.below(64)).min(other.len());
                out.splice(at..at, other[from..to].iter().copied());
            }
            5 => {
                let mut buf = [0; 4];
                let ch = UNCLEAN[rng.below(UNCLEAN.len())];
                out.splice(at..at, ch.encode_utf8(&mut buf).bytes());
            }
            6 => out.splice(at..at, HUGE[rng.below(HUGE.len())].bytes()).for_each(drop),
            _ => out.splice(at..at, SYNTAX[rng.below(SYNTAX.len())].bytes()).for_each(drop),
        }
    }
    out
}
