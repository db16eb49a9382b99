//! A question's id, typed: every shape of id evoke asks under, written to the wire as the text 001 and 003
//! give it and read back from that text. Inside the process an id is only ever this enum; its text is made
//! where it crosses to an engine, a recording, the log or a plan file, and read where it comes back.

use crate::text::is_name;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// The text of the route question's id.
const ROUTE: &str = "route";
const FITS: &str = "fits.";
/// The namespace of the questions evoke asks of a sentence on its own account, and their names in it.
const WEAVE: &str = "weave.";
const CUT: &str = "cut_";
const SPAN: &str = "span_";
const ASIDE: &str = "aside_";
const AGAIN: &str = "again_";
const ALONE: &str = "alone_";

/// The names evoke's own question ids begin with (`route`, `fits.<reflex>`, `weave.<name>`): no reflex
/// or playbook takes one, so that no id of a reflex's is read as one of evoke's.
pub const RESERVED_NAMES: [&str; 3] = ["weave", "route", "fits"];

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum QuestionId {
    /// `route`: which reflex, or none of them.
    Route,
    /// `fits.<reflex>`: whether this reflex does what the request asks.
    Fits { reflex: String },
    /// `<reflex>.<arg>`: an argument's value.
    Arg { reflex: String, arg: String },
    /// `weave.cut_<start>_<end>`: whether the connective at these character offsets separates two things.
    Cut { start: usize, end: usize },
    /// `weave.span_<start>_<end>`: the reflex the whole sentence gives the words at these offsets (003's
    /// `named` repair).
    Span { start: usize, end: usize },
    /// `weave.aside_<start>_<end>`: what the part at these offsets does in the whole sentence: asks for
    /// nothing, adds a detail to what the rest asks, or asks a thing of its own (003's `asides` `does`).
    Aside { start: usize, end: usize },
    /// `weave.again_<start>_<end>_<reflex>__<arg>`: whether the request asks for the value at these
    /// offsets as well as the one read for the argument.
    Again { start: usize, end: usize, reflex: String, arg: String },
    /// `weave.alone_<start>_<end>_<reflex>__<arg>`: the argument's question asked of the words at these
    /// offsets alone: what they name on their own (003's `anchored`).
    Alone { start: usize, end: usize, reflex: String, arg: String },
    /// `<name>`: a question another program asks evoke's engines under a name of its own (an expresso
    /// leaf, `match`). No reflex question has this shape.
    Leaf { name: String },
}

impl QuestionId {
    pub fn fits(reflex: &str) -> Self {
        QuestionId::Fits { reflex: reflex.to_string() }
    }

    pub fn arg(reflex: &str, arg: &str) -> Self {
        QuestionId::Arg { reflex: reflex.to_string(), arg: arg.to_string() }
    }

    /// The reflex whose argument this asks about: an argument's, or the one an again question writes anew.
    pub fn arg_of(&self) -> Option<(&str, &str)> {
        match self {
            QuestionId::Arg { reflex, arg }
            | QuestionId::Again { reflex, arg, .. }
            | QuestionId::Alone { reflex, arg, .. } => Some((reflex, arg)),
            _ => None,
        }
    }

    /// The id without its namespace, as a reading labels the question: `room` for `lights.room`,
    /// `lights` for `fits.lights`, `again_21_27_lights__room` for an again question.
    pub fn short(&self) -> String {
        match self {
            QuestionId::Route => ROUTE.to_string(),
            QuestionId::Fits { reflex } => reflex.clone(),
            QuestionId::Arg { arg, .. } => arg.clone(),
            QuestionId::Cut { start, end } => format!("{CUT}{start}_{end}"),
            QuestionId::Span { start, end } => format!("{SPAN}{start}_{end}"),
            QuestionId::Aside { start, end } => format!("{ASIDE}{start}_{end}"),
            QuestionId::Again { start, end, reflex, arg } => format!("{AGAIN}{start}_{end}_{reflex}__{arg}"),
            QuestionId::Alone { start, end, reflex, arg } => format!("{ALONE}{start}_{end}_{reflex}__{arg}"),
            QuestionId::Leaf { name } => name.clone(),
        }
    }

    /// The offsets of a place to cut, for a cut question.
    pub fn cut(&self) -> Option<(usize, usize)> {
        match self {
            QuestionId::Cut { start, end } => Some((*start, *end)),
            _ => None,
        }
    }
}

/// Ids sort as their texts do, so that a map keyed by them keeps the order a map keyed by the texts had
/// (the order answers were read and written in before the ids were typed). Two ids of one text (an again
/// whose names could split twice) are told apart by their fields.
impl Ord for QuestionId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if self == other {
            return std::cmp::Ordering::Equal;
        }
        self.to_string().cmp(&other.to_string()).then_with(|| format!("{self:?}").cmp(&format!("{other:?}")))
    }
}

impl PartialOrd for QuestionId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for QuestionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuestionId::Route => f.write_str(ROUTE),
            QuestionId::Fits { reflex } => write!(f, "{FITS}{reflex}"),
            QuestionId::Arg { reflex, arg } => write!(f, "{reflex}.{arg}"),
            QuestionId::Cut { .. }
            | QuestionId::Span { .. }
            | QuestionId::Aside { .. }
            | QuestionId::Again { .. }
            | QuestionId::Alone { .. } => write!(f, "{WEAVE}{}", self.short()),
            QuestionId::Leaf { name } => f.write_str(name),
        }
    }
}

/// A text that is no id evoke writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAnId(pub String);

impl fmt::Display for NotAnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\" is not a question id", self.0)
    }
}

impl std::error::Error for NotAnId {}

/// An offset as [`fmt::Display`] writes it: digits, no sign, no leading zero. Any other spelling would
/// read back as an id whose text is not the one read.
fn offset(text: &str) -> Option<usize> {
    let canonical = text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
    if canonical { text.parse().ok() } else { None }
}

fn offsets(text: &str) -> Option<(usize, usize)> {
    let (start, end) = text.split_once('_')?;
    Some((offset(start)?, offset(end)?))
}

/// `<start>_<end>_<reflex>__<arg>`. A name may hold `__` itself, so the split is the first that leaves
/// two names; where several would (`a__b__c`), the reflex is the shorter, and the text reads back the same.
fn placed_arg(text: &str) -> Option<(usize, usize, String, String)> {
    let (start, rest) = text.split_once('_')?;
    let (end, names) = rest.split_once('_')?;
    let (start, end) = (offset(start)?, offset(end)?);
    let (reflex, arg) = names
        .char_indices()
        .filter(|(i, _)| names[*i..].starts_with("__"))
        .map(|(i, _)| (&names[..i], &names[i + 2..]))
        .find(|(reflex, arg)| is_name(reflex) && is_name(arg))?;
    Some((start, end, reflex.to_string(), arg.to_string()))
}

impl FromStr for QuestionId {
    type Err = NotAnId;

    fn from_str(text: &str) -> Result<Self, NotAnId> {
        let read = if text == ROUTE {
            Some(QuestionId::Route)
        } else if let Some(reflex) = text.strip_prefix(FITS) {
            is_name(reflex).then(|| QuestionId::fits(reflex))
        } else if let Some(name) = text.strip_prefix(WEAVE) {
            if let Some(rest) = name.strip_prefix(CUT) {
                offsets(rest).map(|(start, end)| QuestionId::Cut { start, end })
            } else if let Some(rest) = name.strip_prefix(SPAN) {
                offsets(rest).map(|(start, end)| QuestionId::Span { start, end })
            } else if let Some(rest) = name.strip_prefix(ASIDE) {
                offsets(rest).map(|(start, end)| QuestionId::Aside { start, end })
            } else if let Some(rest) = name.strip_prefix(ALONE) {
                placed_arg(rest).map(|(start, end, reflex, arg)| QuestionId::Alone { start, end, reflex, arg })
            } else {
                name.strip_prefix(AGAIN).and_then(placed_arg).map(|(start, end, reflex, arg)| QuestionId::Again {
                    start,
                    end,
                    reflex,
                    arg,
                })
            }
        } else if let Some((reflex, arg)) = text.split_once('.') {
            (is_name(reflex) && is_name(arg)).then(|| QuestionId::arg(reflex, arg))
        } else {
            is_name(text).then(|| QuestionId::Leaf { name: text.to_string() })
        };
        read.ok_or_else(|| NotAnId(text.to_string()))
    }
}

impl Serialize for QuestionId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for QuestionId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names at the edges of `[a-z][a-z0-9_]*`: one letter, digits, underscores inside and at the end,
    /// a doubled underscore, and a long one.
    fn names() -> Vec<String> {
        let long = format!("a{}", "b_9".repeat(60));
        ["a", "z9", "lights", "fan_speed", "x_", "a__b", "q0_"].into_iter().map(str::to_string).chain([long]).collect()
    }

    fn round_trip(id: &QuestionId, text: &str) {
        assert_eq!(id.to_string(), text);
        assert_eq!(text.parse::<QuestionId>().as_ref(), Ok(id), "{text}");
        let json = serde_json::to_string(id).unwrap();
        assert_eq!(json, serde_json::to_string(text).unwrap());
        assert_eq!(&serde_json::from_str::<QuestionId>(&json).unwrap(), id);
    }

    #[test]
    fn every_id_of_evokes_own_begins_with_a_reserved_name() {
        let own = [
            QuestionId::Route,
            QuestionId::fits("lights"),
            QuestionId::Cut { start: 0, end: 1 },
            QuestionId::Span { start: 0, end: 1 },
            QuestionId::Aside { start: 0, end: 1 },
            QuestionId::Again { start: 0, end: 1, reflex: "lights".into(), arg: "room".into() },
            QuestionId::Alone { start: 0, end: 1, reflex: "lights".into(), arg: "room".into() },
        ];
        for id in own {
            let text = id.to_string();
            let head = text.split('.').next().unwrap_or_default();
            assert!(RESERVED_NAMES.contains(&head), "{text}");
        }
    }

    #[test]
    fn the_route_reads_back() {
        round_trip(&QuestionId::Route, "route");
    }

    #[test]
    fn a_fit_reads_back_for_every_name() {
        for name in names() {
            round_trip(&QuestionId::fits(&name), &format!("fits.{name}"));
        }
    }

    #[test]
    fn an_argument_reads_back_for_every_pair_of_names() {
        for reflex in names() {
            for arg in names() {
                round_trip(&QuestionId::arg(&reflex, &arg), &format!("{reflex}.{arg}"));
            }
        }
    }

    #[test]
    fn cuts_and_spans_read_back_at_their_offsets() {
        for (start, end) in [(0, 0), (0, 1), (9, 10), (12, 15), (usize::MAX - 1, usize::MAX)] {
            round_trip(&QuestionId::Cut { start, end }, &format!("weave.cut_{start}_{end}"));
            round_trip(&QuestionId::Span { start, end }, &format!("weave.span_{start}_{end}"));
            round_trip(&QuestionId::Aside { start, end }, &format!("weave.aside_{start}_{end}"));
        }
    }

    #[test]
    fn an_again_reads_back_where_its_names_hold_no_doubled_underscore() {
        round_trip(
            &QuestionId::Again { start: 21, end: 27, reflex: "lights".into(), arg: "room".into() },
            "weave.again_21_27_lights__room",
        );
        for reflex in names().into_iter().filter(|n| !n.contains("__")) {
            for arg in names() {
                // A reflex ending in `_` (`x___a`) still splits where two names are left.
                let id = QuestionId::Again { start: 0, end: 123, reflex: reflex.clone(), arg: arg.clone() };
                round_trip(&id, &format!("weave.again_0_123_{reflex}__{arg}"));
            }
        }
    }

    #[test]
    fn words_asked_alone_read_back_apart_from_an_again_at_the_same_place() {
        let alone = QuestionId::Alone { start: 0, end: 5, reflex: "lights".into(), arg: "state".into() };
        round_trip(&alone, "weave.alone_0_5_lights__state");
        let again = QuestionId::Again { start: 0, end: 5, reflex: "lights".into(), arg: "state".into() };
        assert_ne!(alone, again);
        assert_eq!(alone.arg_of(), Some(("lights", "state")));
    }

    #[test]
    fn an_again_whose_names_could_split_twice_keeps_its_text() {
        let text = "weave.again_1_2_a__b__c";
        let id: QuestionId = text.parse().unwrap();
        assert_eq!(id, QuestionId::Again { start: 1, end: 2, reflex: "a".into(), arg: "b__c".into() });
        assert_eq!(id.to_string(), text);
    }

    #[test]
    fn a_leaf_reads_back() {
        round_trip(&QuestionId::Leaf { name: "match".into() }, "match");
        round_trip(&QuestionId::Leaf { name: "amount".into() }, "amount");
    }

    #[test]
    fn the_short_label_is_the_text_past_the_namespace() {
        let ids = [
            QuestionId::Route,
            QuestionId::fits("lights"),
            QuestionId::arg("lights", "room"),
            QuestionId::Cut { start: 3, end: 6 },
            QuestionId::Span { start: 0, end: 9 },
            QuestionId::Aside { start: 2, end: 9 },
            QuestionId::Again { start: 21, end: 27, reflex: "lights".into(), arg: "room".into() },
            QuestionId::Leaf { name: "amount".into() },
        ];
        for id in ids {
            let text = id.to_string();
            assert_eq!(id.short(), text.split_once('.').map_or(text.as_str(), |(_, rest)| rest), "{text}");
        }
    }

    #[test]
    fn texts_evoke_never_writes_are_refused() {
        for text in [
            "",
            "fits.",
            "fits.Lights",
            "fits.a.b",
            "weave.cut_1",
            "weave.cut_01_2",
            "weave.cut_+1_2",
            "weave.cut_1_2_3",
            "weave.span_a_b",
            "weave.again_1_2_lights_room",
            "weave.again_1_2___room",
            "weave.other_1_2",
            "weave.x",
            "lights.",
            ".state",
            "lights.state.x",
            "Lights.state",
            "lights-state",
        ] {
            assert_eq!(text.parse::<QuestionId>(), Err(NotAnId(text.into())), "{text}");
        }
        assert!(serde_json::from_str::<QuestionId>("\"weave.x\"").is_err());
    }

    #[test]
    fn ids_sort_as_their_texts() {
        let mut ids = [
            QuestionId::Route,
            QuestionId::Cut { start: 10, end: 13 },
            QuestionId::arg("lights", "state"),
            QuestionId::fits("timer"),
            QuestionId::Cut { start: 9, end: 12 },
            QuestionId::Leaf { name: "amount".into() },
        ];
        ids.sort();
        let texts: Vec<String> = ids.iter().map(ToString::to_string).collect();
        let mut sorted = texts.clone();
        sorted.sort();
        assert_eq!(texts, sorted);
        let one: QuestionId = "weave.again_1_2_a__b__c".parse().unwrap();
        let other = QuestionId::Again { start: 1, end: 2, reflex: "a__b".into(), arg: "c".into() };
        assert_ne!(one.cmp(&other), std::cmp::Ordering::Equal);
        assert_eq!(one.cmp(&other), other.cmp(&one).reverse());
    }

    #[test]
    fn an_id_keys_a_json_object_by_its_text() {
        let map: std::collections::BTreeMap<QuestionId, u8> =
            [(QuestionId::Route, 1), (QuestionId::Cut { start: 3, end: 6 }, 2)].into();
        let json = serde_json::to_string(&map).unwrap();
        assert_eq!(json, r#"{"route":1,"weave.cut_3_6":2}"#);
        assert_eq!(serde_json::from_str::<std::collections::BTreeMap<QuestionId, u8>>(&json).unwrap(), map);
    }
}
