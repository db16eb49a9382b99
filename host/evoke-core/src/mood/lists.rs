//! The mood's word lists, read once from `lists.toml`.
//!
//! The lists are data so that one file holds every word the mood reads, each list with the one rule that
//! reads it and why; the docs' copy is checked against the same file. The file is built into the program,
//! so a list that does not parse is a fault of the build, found by the tests, never of a sentence.

use serde::Deserialize;
use std::ops::Deref;
use std::sync::LazyLock;

/// The data file, as written.
pub const TEXT: &str = include_str!("lists.toml");

/// One table of the data file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    owner: String,
    doc: String,
    words: Option<Vec<String>>,
    phrases: Option<Vec<String>>,
}

/// One list of the data file, parsed.
#[derive(Debug)]
pub struct List {
    /// The list's name, the table's key (`taken_back`).
    pub name: &'static str,
    /// The rule that reads it: a file of `mood/` (`negation`), or `readback` for the read-back's own.
    pub owner: &'static str,
    /// Why the rule needs it.
    pub doc: &'static str,
    /// Its entries, each a word or a phrase of words (one word for a list of `words`).
    pub entries: &'static [&'static [&'static str]],
    /// Whether the table holds `phrases` rather than `words`.
    pub phrases: bool,
}

/// Every list, in the file's order.
pub static LISTS: LazyLock<Vec<List>> = LazyLock::new(|| match parse(TEXT) {
    Ok(lists) => lists,
    Err(why) => panic!("mood/lists.toml: {why}"),
});

/// The lists of a data file's text, or why it does not read.
pub fn parse(text: &str) -> Result<Vec<List>, String> {
    let tables: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut lists = Vec::new();
    for (name, value) in tables {
        let table: Table = value.try_into().map_err(|e| format!("[{name}]: {e}"))?;
        let (raw, phrases) = match (table.words, table.phrases) {
            (Some(words), None) => (words, false),
            (None, Some(phrases)) => (phrases, true),
            _ => return Err(format!("[{name}]: holds one of `words` and `phrases`")),
        };
        let mut entries: Vec<&'static [&'static str]> = Vec::new();
        for entry in raw {
            let split: Vec<&'static str> = entry.split(' ').map(|w| &*w.to_string().leak()).collect();
            // A word list holds words; a phrase's words are split by one space, never more.
            if split.iter().any(|w| w.is_empty()) || (!phrases && split.len() > 1) {
                return Err(format!("[{name}]: `{entry}` is not a word or words split by one space"));
            }
            entries.push(split.leak());
        }
        lists.push(List {
            name: name.leak(),
            owner: table.owner.leak(),
            doc: table.doc.leak(),
            entries: entries.leak(),
            phrases,
        });
    }
    Ok(lists)
}

/// The list named `name`; a name the file lacks is a fault of the build.
fn list(name: &str, phrases: bool) -> &'static List {
    let Some(list) = LISTS.iter().find(|l| l.name == name) else {
        panic!("mood/lists.toml has no [{name}]");
    };
    assert_eq!(list.phrases, phrases, "mood/lists.toml: [{name}] holds the wrong kind of entries");
    list
}

/// A list of single words, read as a slice of them.
pub struct Words(&'static [&'static str]);

impl Words {
    /// The list named `name` of the data file.
    fn named(name: &str) -> Words {
        Words(list(name, false).entries.iter().map(|e| e[0]).collect::<Vec<_>>().leak())
    }
}

impl Deref for Words {
    type Target = [&'static str];
    fn deref(&self) -> &Self::Target {
        self.0
    }
}

/// A list of phrases, each a slice of words.
pub struct Phrases(&'static [&'static [&'static str]]);

impl Phrases {
    /// The list named `name` of the data file.
    fn named(name: &str) -> Phrases {
        Phrases(list(name, true).entries)
    }
}

impl Deref for Phrases {
    type Target = [&'static [&'static str]];
    fn deref(&self) -> &Self::Target {
        self.0
    }
}

/// Declares each list as a static of its kind, named as its table in capitals.
macro_rules! lists {
    ($($kind:ident $name:ident,)*) => {
        $(
            #[doc = concat!("The `", stringify!($name), "` list of `lists.toml` (its `doc` says what it holds).")]
            pub static $name: LazyLock<$kind> =
                LazyLock::new(|| $kind::named(&stringify!($name).to_ascii_lowercase()));
        )*
        /// Reads every list once, so that a list the file lacks or holds wrongly fails at once.
        #[cfg(test)]
        pub fn force_all() -> Vec<&'static str> {
            let mut names = Vec::new();
            $(
                LazyLock::force(&$name);
                names.push(stringify!($name));
            )*
            names
        }
    };
}

lists! {
    Phrases TAKEN_BACK,
    Words CLOSING_TAKEN_BACK,
    Phrases NEGATIONS,
    Words FORGETTING,
    Words SPARING,
    Words KEEPING,
    Words STAYING,
    Words EVERY,
    Words KEEPING_FROM,
    Words OTHER_ACTS,
    Words QUOTING,
    Words COMMANDS,
    Words STOPPING,
    Phrases CONDITIONS,
    Phrases ORDERING,
    Words TIME_UNITS,
    Words MENTIONING,
    Words HABITUAL,
    Words HEARSAY,
    Phrases MENTIONING_PHRASES,
    Phrases OWN_STATE,
    Words SPEAKER,
    Phrases TAILS,
    Phrases GOES_ON,
    Phrases UNFINISHED,
    Words DIRECTIONS_UP,
    Words DIRECTIONS_DOWN,
    Words SAID_OF,
    Words OPENERS,
    Phrases ASKING,
    Phrases COURTESIES,
    Phrases TELLING,
    Phrases TAG_QUESTIONS,
    Words QUESTION_WORDS,
    Words BE,
    Words AUXILIARIES,
    Words AFTER_A_SUBJECT,
    Words SUBJECTS,
    Words NOT_PAST,
    Words PREVENTING,
    Words DETERMINERS,
    Words FUZZY_CONDITIONS,
    Words FUZZY_NEGATIONS,
    Words NOT_SLIPS,
    Words EVERY_WHAT,
    Words HEDGES,
    Words ASIDE_SUBJECTS,
    Words LABELS,
    Words GREETINGS,
    Words CALLED,
    Words MESSAGING,
    Words NOT_NAMES,
    Words COME_ON,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mood's source files, each a rule's by its name, their tests cut off.
    const SOURCES: &[(&str, &str)] = &[
        ("mod", include_str!("mod.rs")),
        ("address", include_str!("address.rs")),
        ("asking", include_str!("asking.rs")),
        ("condition", include_str!("condition.rs")),
        ("form", include_str!("form.rs")),
        ("negation", include_str!("negation.rs")),
        ("quotation", include_str!("quotation.rs")),
        ("report", include_str!("report.rs")),
        ("slips", include_str!("slips.rs")),
        ("sparing", include_str!("sparing.rs")),
        ("spelling", include_str!("spelling.rs")),
        ("taken_back", include_str!("taken_back.rs")),
        ("unclear", include_str!("unclear.rs")),
        ("readback", include_str!("../readback.rs")),
    ];

    /// A file's code: its tests, which may name any list, cut off, and its comments, which may speak of
    /// another rule's list, left out.
    fn code(source: &str) -> String {
        let code = source.split("#[cfg(test)]\nmod tests {").next().unwrap_or(source);
        code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
    }

    /// How often `name` stands in `source` as a whole identifier (`EVERY` is not in `EVERY_WHAT`).
    fn uses(source: &str, name: &str) -> usize {
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        source
            .match_indices(name)
            .filter(|(at, _)| {
                !source[..*at].chars().next_back().is_some_and(ident)
                    && !source[at + name.len()..].chars().next().is_some_and(ident)
            })
            .count()
    }

    #[test]
    fn every_list_of_the_file_is_declared_and_every_declared_list_is_in_the_file() {
        let mut declared: Vec<String> = force_all().iter().map(|n| n.to_ascii_lowercase()).collect();
        let mut in_file: Vec<String> = LISTS.iter().map(|l| l.name.to_string()).collect();
        declared.sort();
        in_file.sort();
        assert_eq!(declared, in_file);
    }

    #[test]
    fn no_list_is_empty_or_says_an_entry_twice_and_each_says_why() {
        for list in LISTS.iter() {
            assert!(!list.entries.is_empty(), "[{}] is empty", list.name);
            assert!(!list.doc.trim().is_empty(), "[{}] says not why", list.name);
            for (i, entry) in list.entries.iter().enumerate() {
                assert!(!list.entries[..i].contains(entry), "[{}] says `{}` twice", list.name, entry.join(" "));
            }
        }
    }

    #[test]
    fn every_list_is_read_by_exactly_one_rule_its_owner() {
        for list in LISTS.iter() {
            let name = list.name.to_ascii_uppercase();
            // The read-back reads the mood's lists beside the mood (the words a request is phrased in are
            // `nothing` to it), so it counts as a reader only of the lists it owns.
            let readers: Vec<&str> = SOURCES
                .iter()
                .filter(|(rule, _)| *rule != "readback" || list.owner == "readback")
                .filter(|(_, source)| uses(&code(source), &name) > 0)
                .map(|(rule, _)| *rule)
                .collect();
            assert_eq!(
                readers,
                [list.owner],
                "[{}] is read by {readers:?}, and its owner is {}",
                list.name,
                list.owner
            );
        }
    }

    #[test]
    fn a_file_of_the_wrong_shape_is_refused_with_the_list_it_concerns() {
        assert!(parse("[a]\nowner = \"x\"\ndoc = \"y\"\nwords = [\"two words\"]\n").unwrap_err().contains("[a]"));
        assert!(parse("[a]\nowner = \"x\"\ndoc = \"y\"\n").unwrap_err().contains("one of"));
        assert!(parse("[a]\nowner = \"x\"\ndoc = \"y\"\nphrases = [\"a  b\"]\n").is_err());
        assert!(parse("[a]\nowner = \"x\"\ndoc = \"y\"\nwords = [\"w\"]\nextra = 1\n").is_err());
        let ok = parse("[a]\nowner = \"x\"\ndoc = \"y\"\nphrases = [\"never mind\", \"no\"]\n").unwrap();
        assert_eq!(ok[0].entries, [&["never", "mind"][..], &["no"][..]]);
    }

    /// The backticked pieces of some markdown, each with its runs of whitespace read as one space.
    fn backticked(text: &str) -> Vec<String> {
        text.split('`').skip(1).step_by(2).map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")).collect()
    }

    /// docs/decision.md, which copies the lists for readers.
    fn decision_md() -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/decision.md");
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    #[test]
    fn the_docs_table_of_word_lists_is_the_data_file() {
        let docs = decision_md();
        let section = docs.split("\n## Word lists\n").nth(1).expect("docs/decision.md has a `## Word lists` section");
        let section = section.split("\n## ").next().unwrap_or(section);
        let rows: Vec<&str> = section.lines().filter(|l| l.starts_with("| `")).collect();
        for (at, list) in LISTS.iter().enumerate() {
            let entries: Vec<String> = list.entries.iter().map(|e| format!("`{}`", e.join(" "))).collect();
            let want = format!("| `{}` | `{}` | {} | {} |", list.name, list.owner, list.doc, entries.join(", "));
            let row = rows.get(at).copied().unwrap_or("(no row)");
            let cells: Vec<&str> = row.trim_start_matches("| ").trim_end_matches(" |").split(" | ").collect();
            let read = (cells.len() == 4).then(|| (cells[0], cells[1], cells[2], backticked(cells[3])));
            let file = (
                format!("`{}`", list.name),
                format!("`{}`", list.owner),
                list.doc,
                list.entries.iter().map(|e| e.join(" ")).collect::<Vec<_>>(),
            );
            let same = read.is_some_and(|(name, owner, doc, words)| {
                name == file.0 && owner == file.1 && doc == file.2 && words == file.3
            });
            assert!(same, "row {} of the docs' word lists is not the data file's; it should read:\n{want}", at + 1);
        }
        assert_eq!(rows.len(), LISTS.len(), "the docs list {} lists, the data file {}", rows.len(), LISTS.len());
    }

    #[test]
    fn every_list_is_named_in_the_docs_and_each_example_given_is_in_it() {
        let docs = decision_md();
        let link = "`](#word-lists)";
        let mut named = Vec::new();
        for (at, _) in docs.match_indices(link) {
            let name = &docs[docs[..at].rfind("[`").expect("a link opens") + 2..at];
            let list =
                LISTS.iter().find(|l| l.name == name).unwrap_or_else(|| panic!("the docs name no list `{name}`"));
            named.push(name);
            // The examples in parentheses right after the link are the list's own.
            let Some(group) = docs[at + link.len()..].strip_prefix(" (") else { continue };
            let group = &group[..group.find(')').expect("the examples close")];
            for example in backticked(group) {
                let entry = example.to_lowercase();
                assert!(
                    list.entries.iter().any(|e| e.join(" ") == entry),
                    "the docs give `{example}` as a word of `{name}`, which the data file's list does not hold"
                );
            }
        }
        for list in LISTS.iter() {
            assert!(named.contains(&list.name), "the docs' rules name no list `{}`", list.name);
        }
    }
}
