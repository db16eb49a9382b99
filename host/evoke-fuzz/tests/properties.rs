//! Properties of identity, the text rules and the recognizers, over generated inputs.

use evoke_core::catalog::{Catalog, Reflex};
use evoke_core::decide::{Decider, Refusal};
use evoke_core::diag::Problem;
use evoke_core::identity::identity;
use evoke_core::manifest::read_manifest;
use evoke_core::overlay::read_overlay;
use evoke_core::recognize::{CivilDate, PickKind, candidates, recognize, recognize_at};
use evoke_core::text::{check_clean, is_bidi_control, is_line_separator};
use evoke_core::vocab::read_vocab;
use proptest::prelude::*;
use unicode_normalization::UnicodeNormalization;

/// The marks identity drops, one per application.
const MARKS: [char; 4] = ['.', '!', '?', '…'];

/// Whitespace evoke may meet in a sentence: ASCII, no-break, the wide and thin spaces, the line breaks.
const SPACES: [&str; 9] = [" ", "  ", "\t", "\n", "\u{a0}", "\u{3000}", "\u{2009}", "\r\n", " \u{2028} "];

/// Characters the text rules refuse.
fn unclean() -> impl Strategy<Value = char> {
    prop_oneof![
        (0u32..=0x1f).prop_map(|c| char::from_u32(c).unwrap()),
        (0x7fu32..=0x9f).prop_map(|c| char::from_u32(c).unwrap()),
        proptest::sample::select(vec![
            '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
            '\u{200E}', '\u{200F}', '\u{061C}', '\u{2028}', '\u{2029}'
        ]),
    ]
}

/// A word without whitespace: letters with accents (composed and not), capitals, digits and punctuation.
fn word() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            4 => proptest::char::range('a', 'z'),
            2 => proptest::char::range('A', 'Z'),
            1 => proptest::sample::select(vec!['é', 'É', 'ß', 'Σ', 'ς', 'İ', 'ǅ', 'ﬁ', '\u{301}', '\u{327}', 'Å', 'Ω']),
            1 => proptest::sample::select(vec!['.', '!', '?', '…', '\'', '-', '1', '0']),
            1 => any::<char>().prop_filter("no whitespace", |c| !c.is_whitespace()),
        ],
        1..8,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

/// Sentence-like text for the recognizers: their own words, numbers at the edges, quotes and any character.
fn sentence() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        6 => proptest::sample::select(vec![
            "10", "1.5", "1,000", "0", "007", "99999999999999999999", "-3", "ten", "twenty-five", "half", "a", "an",
            "minutes", "min", "hrs", "seconds", "90s", "1h30", "days", "weeks", "May", "4th", "of", "July", "2024-05-04",
            "tomorrow", "next", "last", "friday", "the", "14th", "at", "5pm", "noon", "o'clock", "7:30", "tonight",
            "$", "€", "£", "¥", "12", "EUR", "usd", "pounds", "$3.50", "ABC-123", "X7", "\"", "'", "«", "»", "“", "”",
            "„", "「", "」", "‘", "’", "and", "for", "in", "to", ".", ",", ":", "-", "%", "percent", "Ⅻ", "٣", "𝟙",
        ]).prop_map(str::to_string),
        1 => any::<char>().prop_map(|c| c.to_string()),
        1 => word(),
    ];
    let sep = proptest::sample::select(vec![" ", " ", " ", "", "  ", "\u{a0}", "\t"]);
    proptest::collection::vec((token, sep), 0..16).prop_map(|parts| parts.into_iter().map(|(t, s)| t + s).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Identity is stable: applied to its own result it changes nothing, unless that result still ends in
    /// a mark (it drops one per application: `wait!!` is `wait!`, whose identity is `wait`).
    #[test]
    fn identity_is_stable_once_no_mark_is_left(s in any::<String>()) {
        let once = identity(&s);
        if once.ends_with(MARKS) {
            let twice = identity(&once);
            prop_assert!(once.starts_with(&twice) && twice.len() < once.len(), "{:?}: {:?} then {:?}", s, once, twice);
        } else {
            prop_assert_eq!(identity(&once), once);
        }
    }

    /// Words separated by any whitespace, with any whitespace around them, have one identity.
    #[test]
    fn identity_ignores_whitespace(words in proptest::collection::vec(word(), 1..6),
                                   runs in proptest::collection::vec(proptest::sample::select(SPACES.to_vec()), 7)) {
        let plain = words.join(" ");
        let mut spaced = runs[0].to_string();
        for (i, w) in words.iter().enumerate() {
            spaced.push_str(w);
            spaced.push_str(runs[(i + 1) % runs.len()]);
        }
        prop_assert_eq!(identity(&spaced), identity(&plain), "{:?}", spaced);
    }

    /// Canonically equivalent spellings (composed, decomposed) have one identity, and it is NFC.
    #[test]
    fn identity_ignores_normalization(words in proptest::collection::vec(word(), 1..6)) {
        let s = words.join(" ");
        let id = identity(&s);
        prop_assert_eq!(identity(&s.nfd().collect::<String>()), id.clone());
        prop_assert_eq!(identity(&s.nfc().collect::<String>()), id.clone());
        prop_assert_eq!(id.nfc().collect::<String>(), id);
    }

    /// Upper and lower case have one identity (ASCII: every letter has one case pair there).
    #[test]
    fn identity_ignores_case(s in "[ -~]{0,40}") {
        prop_assert_eq!(identity(&s.to_ascii_uppercase()), identity(&s));
    }

    /// A string holding a control or bidi character is refused, wherever it sits; the line feed alone passes
    /// where a line feed is allowed. The refusal points at a character that is unclean.
    #[test]
    fn unclean_text_is_refused(before in any::<String>(), bad in unclean(), after in any::<String>()) {
        let s = format!("{before}{bad}{after}");
        let first = check_clean(&s, false);
        prop_assert!(first.is_err());
        let at = match first.unwrap_err() {
            evoke_core::text::Unclean::Control { at, ch } => { prop_assert!(ch.is_control() || is_line_separator(ch)); at }
            evoke_core::text::Unclean::Bidi { at, ch } => { prop_assert!(is_bidi_control(ch)); at }
        };
        prop_assert!(s.chars().take(at).all(|c| !c.is_control() && !is_line_separator(c) && !is_bidi_control(c)), "not the first");
        if bad != '\n' {
            prop_assert!(check_clean(&s, true).is_err());
        }
    }

    /// Text without controls, line separators and bidi controls is clean.
    #[test]
    fn clean_text_passes(s in any::<String>().prop_map(|s| s.chars().filter(|c| !c.is_control() && !is_line_separator(*c) && !is_bidi_control(*c)).collect::<String>())) {
        prop_assert!(check_clean(&s, false).is_ok());
    }

    /// Through the readers: a control or bidi character in any string a manifest, an overlay or a
    /// vocabulary holds, written raw or as a TOML escape, refuses the file, and a decision refuses an input
    /// holding one before any engine is asked.
    #[test]
    fn readers_refuse_unclean_text(slot in 0..MANIFEST_SLOTS, bad in unclean(), escaped in any::<bool>(),
                                   before in "[a-z ]{0,6}", after in "[a-z ]{0,6}") {
        prop_assume!(bad != '\n' || slot != 0); // only the description may hold a line feed
        let piece = if escaped || bad.is_control() { format!("{before}\\u{:04X}{after}", bad as u32) } else { format!("{before}{bad}{after}") };
        let manifest = manifest_with(slot, &piece);
        let reading = read_manifest("reflex.toml", &manifest, &|_: &str| true);
        prop_assert!(reading.value.is_none(), "accepted:\n{}", manifest);
        let problem = reading.first_error().unwrap().problem;
        prop_assert!(matches!(problem, Problem::ControlCharacter | Problem::BidiControl), "{:?}", problem);

        let shipped = read_manifest("reflex.toml", &manifest_with(slot, &before), &|_: &str| true).value.unwrap();
        let overlay = format!("[args.state]\nask = \"{piece}\"\n");
        prop_assert!(read_overlay("overlay.toml", &overlay, &shipped).value.is_none(), "{}", overlay);
        for vocab in [format!("\"den{piece}\" = \"the den\"\n"), format!("den = \"the {piece} den\"\n")] {
            prop_assert!(read_vocab("rooms", "vocab/rooms.toml", &vocab).value.is_none(), "{}", vocab);
        }
        let catalog = Catalog::new(vec![Reflex { name: "lights".into(), manifest: shipped, vocabs: Default::default() }]);
        let input = format!("turn {before}{bad}{after} on");
        let refusal = Decider::new(&catalog, None, &input).err();
        prop_assert!(matches!(refusal, Some(Refusal::ControlCharacter { .. } | Refusal::BidiControl { .. })), "{:?}", input);
    }

    /// Every candidate span lies inside the input, on character boundaries, and its text is the input's
    /// text there; candidates come sorted, and the candidates of one kind are the recognized ones of it.
    #[test]
    fn recognizer_spans_are_the_input(s in sentence(), day in 1u32..=28, month in 1u32..=12, year in -400i32..3000) {
        let chars: Vec<char> = s.chars().collect();
        let found = recognize(&s);
        for list in [found.clone(), recognize_at(&s, CivilDate { year, month, day })] {
            for c in &list {
                let span = &c.span;
                prop_assert!(span.start < span.end && span.end <= chars.len(), "{:?} in {:?}", span, s);
                let text: String = chars[span.start..span.end].iter().collect();
                prop_assert_eq!(&text, &span.text);
                let byte = |at: usize| s.char_indices().map(|(b, _)| b).chain([s.len()]).nth(at).unwrap();
                prop_assert_eq!(s.get(byte(span.start)..byte(span.end)), Some(span.text.as_str()), "splits a character");
                prop_assert!(!span.text.starts_with(char::is_whitespace) && !span.text.ends_with(char::is_whitespace),
                    "{:?} has whitespace at an edge", span.text);
                prop_assert_eq!(c.value.kind(), c.kind);
            }
            let keys: Vec<_> = list.iter().map(|c| (c.span.start, c.span.end, c.kind)).collect();
            prop_assert!(keys.windows(2).all(|w| w[0] <= w[1]), "not sorted: {:?}", keys);
        }
        for kind in PickKind::ALL {
            let of_kind: Vec<_> = found.iter().filter(|c| c.kind == kind).cloned().collect();
            prop_assert_eq!(candidates(&s, kind), of_kind);
        }
    }
}

const MANIFEST_SLOTS: usize = 7;

/// A valid manifest with `piece` written inside one of its strings: the description, `not_for`, `confirm`,
/// an `ask`, an option's meaning, an example's utterance, a test's utterance.
fn manifest_with(slot: usize, piece: &str) -> String {
    let at = |n: usize| if slot == n { piece } else { "" };
    format!(
        "reflex = 1\ndescription = \"Turn the lights on or off.{}\"\nnot_for = [\"scenes{}\"]\neffect = \"write\"\n\
         confirm = \"Switch the lights {{state}}?{}\"\nrun = [\"lights\", \"{{state}}\"]\n\n[args.state]\n\
         ask = \"On or off?{}\"\noptions.on = \"Switch on.{}\"\noptions.off = \"Switch off.\"\n\n[examples]\n\
         \"turn the lights on{}\" = {{ state = \"on\" }}\n\n[tests]\n\"lights off please{}\" = {{ state = \"off\" }}\n",
        at(0),
        at(1),
        at(2),
        at(3),
        at(4),
        at(5),
        at(6)
    )
}

#[test]
fn the_template_reads_clean_in_every_slot() {
    for slot in 0..MANIFEST_SLOTS {
        let reading = read_manifest("reflex.toml", &manifest_with(slot, " fine"), &|_: &str| true);
        assert!(reading.value.is_some(), "slot {slot}: {:?}", reading.first_error().map(|d| d.render()));
    }
}

#[test]
fn identity_drops_one_mark_per_application() {
    assert_eq!(identity("Wait!!"), "wait!");
    assert_eq!(identity(&identity("Wait!!")), "wait");
}
