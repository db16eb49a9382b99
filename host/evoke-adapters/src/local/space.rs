//! A vector space over a set of texts: weighted word, word-pair and letter-run features, each weighted by
//! how rare it is among the texts (its IDF), compared by cosine. Built once per distinct set of texts;
//! a query touches only the texts that share a feature with it, through an inverted index.

use super::words::{Word, is_stop, words};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// How features are drawn from a text, and how much each kind weighs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Shape {
    /// The weight of a stop word's features, against 1 for any other word.
    pub stop: f32,
    /// The weight of a pair of neighbouring words, against 1 for a word.
    pub pairs: f32,
    /// Letter runs of these lengths inside each word (with its edges marked); `0` leaves them out.
    pub grams: (usize, usize),
}

/// One text's features, as `(feature, weight)`, the feature a 64-bit hash.
pub type Features = Vec<(u64, f32)>;

fn fnv(channel: u8, parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325 ^ u64::from(channel);
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            h ^= 0x1f;
            h = h.wrapping_mul(0x100000001b3);
        }
        for b in part.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    h
}

/// The word features of a text (words and pairs of neighbouring words).
pub fn word_features(ws: &[Word], shape: &Shape) -> Features {
    let mut out: HashMap<u64, f32> = HashMap::new();
    for (i, w) in ws.iter().enumerate() {
        let weight = if is_stop(w) { shape.stop } else { 1.0 };
        *out.entry(fnv(b'w', &[&w.stem])).or_default() += weight;
        if shape.pairs > 0.0
            && let Some(next) = ws.get(i + 1)
        {
            let pair_weight = if is_stop(w) && is_stop(next) { shape.stop } else { 1.0 };
            *out.entry(fnv(b'p', &[&w.stem, &next.stem])).or_default() += shape.pairs * pair_weight;
        }
    }
    in_order(out)
}

/// A text's features in the order of their hashes: every sum over them then runs in one order, so a
/// space built twice, or a query read twice, gives the same bits.
fn in_order(features: HashMap<u64, f32>) -> Features {
    let mut out: Features = features.into_iter().collect();
    out.sort_unstable_by_key(|(f, _)| *f);
    out
}

/// The letter-run features of a text: runs inside each word, the word's edges marked.
pub fn gram_features(ws: &[Word], shape: &Shape) -> Features {
    let (lo, hi) = shape.grams;
    let mut out: HashMap<u64, f32> = HashMap::new();
    if lo == 0 {
        return Vec::new();
    }
    let mut buf: Vec<char> = Vec::with_capacity(32);
    let mut s = String::with_capacity(16);
    for w in ws {
        let weight = if is_stop(w) { shape.stop } else { 1.0 };
        buf.clear();
        buf.push('<');
        buf.extend(w.lower.chars());
        buf.push('>');
        for n in lo..=hi {
            if buf.len() < n {
                break;
            }
            for start in 0..=buf.len() - n {
                s.clear();
                s.extend(&buf[start..start + n]);
                *out.entry(fnv(b'c', &[&s])).or_default() += weight;
            }
        }
    }
    in_order(out)
}

/// A space over some texts: the IDF of each feature and an inverted index of the texts' vectors, laid
/// out flat (a sorted list of features, searched by bisection) so that a kept space reads back as a few
/// arrays rather than a map of many small lists.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Space {
    /// Every feature some text holds, in increasing order.
    features: Vec<u64>,
    /// Per feature, its IDF.
    idf: Vec<f32>,
    /// Per feature, where its postings start in `postings`; one more entry closes the last.
    starts: Vec<u32>,
    /// Per feature in turn, the texts holding it and the feature's weight in each normalized vector.
    postings: Vec<(u32, f32)>,
    /// The IDF of a feature no text holds.
    unseen: f32,
    count: usize,
}

/// Log-scaled term weight.
fn tf(x: f32) -> f32 {
    if x <= 1.0 { x.max(0.0) } else { 1.0 + x.ln() }
}

impl Space {
    /// A space over `docs`, each given by its features.
    pub fn build(docs: &[Features]) -> Space {
        let n = docs.len() as f32;
        let mut df: HashMap<u64, u32> = HashMap::new();
        for doc in docs {
            for (f, _) in doc {
                *df.entry(*f).or_default() += 1;
            }
        }
        let idf: HashMap<u64, f32> = df.iter().map(|(f, d)| (*f, ((n + 1.0) / (*d as f32 + 1.0)).ln() + 1.0)).collect();
        let unseen = (n + 1.0).ln() + 1.0;
        let mut postings: HashMap<u64, Vec<(u32, f32)>> = HashMap::new();
        for (i, doc) in docs.iter().enumerate() {
            let weighted: Vec<(u64, f32)> = doc.iter().map(|(f, x)| (*f, tf(*x) * idf[f])).collect();
            let norm = weighted.iter().map(|(_, w)| w * w).sum::<f32>().sqrt();
            if norm == 0.0 {
                continue;
            }
            for (f, w) in weighted {
                postings.entry(f).or_default().push((i as u32, w / norm));
            }
        }
        let mut features: Vec<u64> = idf.keys().copied().collect();
        features.sort_unstable();
        let mut flat = Space { unseen, count: docs.len(), ..Space::default() };
        flat.starts.push(0);
        for f in features {
            flat.idf.push(idf[&f]);
            flat.postings.extend(postings.remove(&f).unwrap_or_default());
            flat.starts.push(flat.postings.len() as u32);
            flat.features.push(f);
        }
        flat
    }

    /// Whether the arrays hold together, as a space read back must before it is used: every index in
    /// bounds, the features in increasing order.
    pub fn holds_together(&self) -> bool {
        let n = self.features.len();
        self.idf.len() == n
            && self.starts.len() == n + 1
            && self.starts.first() == Some(&0)
            && self.starts.windows(2).all(|w| w[0] <= w[1])
            && self.starts.last().is_some_and(|last| *last as usize == self.postings.len())
            && self.features.windows(2).all(|w| w[0] < w[1])
            && self.postings.iter().all(|(doc, _)| (*doc as usize) < self.count)
    }

    /// The place of a feature among `features`.
    fn find(&self, feature: u64) -> Option<usize> {
        self.features.binary_search(&feature).ok()
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The cosine of `query` with every text, added into `sims` times `scale`.
    pub fn add_cosines(&self, query: &Features, scale: f32, sims: &mut [f32]) {
        let weighted: Vec<(Option<usize>, f32)> = query
            .iter()
            .map(|(f, x)| {
                let at = self.find(*f);
                (at, tf(*x) * at.map_or(self.unseen, |i| self.idf[i]))
            })
            .collect();
        let norm = weighted.iter().map(|(_, w)| w * w).sum::<f32>().sqrt();
        if norm == 0.0 {
            return;
        }
        for (at, w) in weighted {
            if let Some(i) = at {
                let list = &self.postings[self.starts[i] as usize..self.starts[i + 1] as usize];
                let q = scale * w / norm;
                for (doc, dw) in list {
                    sims[*doc as usize] += q * dw;
                }
            }
        }
    }
}

/// Both spaces over the same texts: words (with pairs) and letter runs.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Spaces {
    pub shape: Option<Shape>,
    words: Space,
    grams: Space,
}

/// How much of a text's similarity comes from words, against letter runs.
pub const WORDS_SHARE: f32 = 0.5;

impl Spaces {
    pub fn build(texts: &[&str], shape: Shape) -> Spaces {
        let ws: Vec<Vec<Word>> = texts.iter().map(|t| words(t)).collect();
        let word_docs: Vec<Features> = ws.iter().map(|w| word_features(w, &shape)).collect();
        let gram_docs: Vec<Features> = ws.iter().map(|w| gram_features(w, &shape)).collect();
        Spaces { shape: Some(shape), words: Space::build(&word_docs), grams: Space::build(&gram_docs) }
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether both spaces hold together over the same texts.
    pub fn holds_together(&self) -> bool {
        self.words.holds_together() && self.grams.holds_together() && self.words.len() == self.grams.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The similarity of the query's words to every text, in [0, 1].
    pub fn sims(&self, query: &[Word], words_share: f32) -> Vec<f32> {
        let mut sims = vec![0.0; self.len()];
        let Some(shape) = self.shape else { return sims };
        if shape.grams.0 == 0 {
            self.words.add_cosines(&word_features(query, &shape), 1.0, &mut sims);
        } else {
            self.words.add_cosines(&word_features(query, &shape), words_share, &mut sims);
            self.grams.add_cosines(&gram_features(query, &shape), 1.0 - words_share, &mut sims);
        }
        sims
    }
}
