//! The words a text is made of, as numbers beside its sentence vector: the route's head reads them too.
//! A sentence encoder reads `turn on the socket` and `turn off the socket` as nearly one sentence; the
//! head, fitted to the examples, learns from these numbers that `off` is what tells the two reflexes apart.
//!
//! Each word's stem (the project's one reading of words) falls in one of [`BUCKETS`] places by a fixed
//! hash, with a sign from the hash, so that two stems sharing a place mostly cancel rather than add.
//! Small words count as much as any: `on`, `off`, `up` and `down` are what tells many reflexes apart. The
//! whole is scaled to length `weight`: a text of many words says each of them less.

use evoke_core::words::words;

/// How many places the stems share.
pub const BUCKETS: usize = 256;

/// The text's word numbers, [`BUCKETS`] long, of length `weight` (all zero for a text of no word).
pub fn features(text: &str, weight: f32) -> Vec<f32> {
    let mut out = vec![0.0f32; BUCKETS];
    for w in words(text) {
        let h = fnv1a(w.stem.as_bytes());
        let sign = if h >> 63 == 0 { 1.0 } else { -1.0 };
        out[(h % BUCKETS as u64) as usize] += sign;
    }
    let norm = out.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        out.iter_mut().for_each(|x| *x *= weight / norm);
    }
    out
}

/// FNV-1a, 64 bits: a hash fixed for good, since heads fitted on it are kept on disk.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_of_words_has_the_length_asked_and_one_of_no_word_is_zero() {
        let v = features("turn off the socket", 0.5);
        assert_eq!(v.len(), BUCKETS);
        assert!((v.iter().map(|x| x * x).sum::<f32>().sqrt() - 0.5).abs() < 1e-6);
        assert!(features(" ?! ", 0.5).iter().all(|x| *x == 0.0));
    }

    #[test]
    fn on_and_off_fall_apart_and_a_stem_reads_alike_in_two_forms() {
        let (on, off) = (features("turn on the socket", 1.0), features("turn off the socket", 1.0));
        assert_ne!(on, off);
        assert_eq!(features("lights", 1.0), features("light", 1.0));
    }
}
