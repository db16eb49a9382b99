//! The home benchmark (issue #33): MASSIVE's home requests and labelled non-requests, decided by `local`
//! and by `embed` against one committed project.
//!
//! The project (`benches/home/project/`) holds one reflex per MASSIVE intent of the alarm, audio volume
//! and smart home (`iot_*`) families, sixteen in all, each with its first ten distinct `train` sentences
//! as examples, and the reflexes of `docs/examples/home`: lights (with the rooms), timer and volume.
//! `project` writes it from the table below; the report refuses to measure a committed project that
//! differs from what the table writes.
//!
//! The test sentences are the rest of `train` and all of `dev` for those sixteen intents. Each, and
//! every sentence of `home/non-requests.jsonl`, is decided in process at the engine's shipped gate, each
//! round's answers validated, two ways: whole, through evoke-core's `Decider` (as CLINC's benchmark
//! decides), and woven, through its `Weaver` (as the command decides: `check` holds this to
//! `evoke try --json`).
//!
//! What counts:
//!
//! - **Right reflex**: the intent's own reflex; or `lights` for `iot_hue_lightoff`, `iot_hue_lighton` and
//!   `iot_hue_lightdim` when its `state` is `off`, `on` and `dim` (or not read yet); or `volume` for the
//!   `audio_volume_*` intents that change the level. The example project's reflexes do the same act, so
//!   choosing them is no mistake. A MASSIVE sentence asks one thing: a woven plan of several steps is
//!   never right.
//! - **Acted on**: the right reflex, with the outcome run, confirm or ask.
//! - **A value contradicts the annotation** when an argument holds a value for a MASSIVE slot it reads
//!   and the annotation says otherwise: a picked span that overlaps none of the slot's annotated spans, or
//!   that lies on another slot's; an option or a room other than the one the annotated words name, or any
//!   when they name none of them; a level read from `by …`, or a step from `to …` or `at …`. Leaving out an
//!   optional argument contradicts too when the annotation states a value it could hold: an option or a
//!   room it names, or a span of the argument's kind inside the annotated words.
//! - **A wrong run**: a run of a reflex that is not right, or of the right one with a contradicting value.
//! - **A plain request** is a test sentence whose intent acts (its effect is `write`) and whose every
//!   required argument's slot is annotated in `annot_utt`: it states every value its call needs. Its
//!   goal is to run without a question; `plain FILE` lists them.
//!
//! ```text
//! cargo bench -p evoke-adapters -F embed --bench home --profile dev                 # both engines, both ways
//! cargo bench -p evoke-adapters -F embed --bench home --profile dev -- local        # one engine's
//! cargo bench -p evoke-adapters -F embed --bench home --profile dev -- local woven  # woven only
//! cargo bench -p evoke-adapters -F embed --bench home --profile dev -- project [DIR]  # write the project
//! cargo bench -p evoke-adapters -F embed --bench home --profile dev -- plain [FILE]   # the plain requests
//! cargo bench -p evoke-adapters -F embed --bench home --profile dev -- misses ENGINE [woven]  # plain ones not run
//! cargo bench -p evoke-adapters -F embed --bench home --profile dev -- outcomes ENGINE FILE [woven]  # all
//! cargo bench -p evoke-adapters -F embed --bench home --profile dev -- check  # readings; `evoke try` agrees
//! ```
//!
//! `embed` loads the model named by `EVOKE_EMBED_MODEL`, else `~/.cache/evoke/models/all-MiniLM-L6-v2`.
//! The data folder is `../shared/data` from the workspace, or `EVOKE_DATA`.

use evoke_adapters::embed::{Embed, GATE as EMBED_GATE, Params as EmbedParams};
use evoke_adapters::local::{ArgParams, GATE, Local};
use evoke_core::adapter::{Gate, State};
use evoke_core::catalog::{Catalog, Reflex};
use evoke_core::decide::Decider;
use evoke_core::decision::{Decision, Outcome, Value};
use evoke_core::manifest::{Source as ArgSource, read_manifest};
use evoke_core::project::{ReflexSource, read_project_file};
use evoke_core::question::Questions;
use evoke_core::recognize::candidates;
use evoke_core::validate::validate;
use evoke_core::vocab::{Vocabulary, read_vocab};
use evoke_core::weave::weaver::{Weaver, Woven};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Examples per MASSIVE reflex, as CLINC's benchmark takes them.
const EXAMPLES: usize = 10;

/// Where an argument's value comes from, as the manifest declares it.
#[derive(Clone, Copy)]
enum Source {
    /// The project's vocabulary of rooms.
    Rooms,
    /// A pick of this kind.
    Pick(&'static str),
    /// Keys and meanings.
    Options(&'static [(&'static str, &'static str)]),
}

/// How a number is meant, when MASSIVE's `change_amount` words can say either.
#[derive(Clone, Copy, PartialEq)]
enum Reading {
    /// Any span of the slot.
    Any,
    /// A level to set: `by …` contradicts it.
    Level,
    /// A step to change by: `to …` and `at …` contradict it.
    Step,
}

/// One argument of a MASSIVE reflex and the slots of MASSIVE's annotation it reads.
struct ArgSpec {
    name: &'static str,
    ask: &'static str,
    source: Source,
    optional: bool,
    slots: &'static [&'static str],
    reading: Reading,
}

/// One MASSIVE intent's reflex.
struct IntentSpec {
    intent: &'static str,
    effect: &'static str,
    description: &'static str,
    not_for: &'static [&'static str],
    confirm: &'static str,
    args: &'static [ArgSpec],
}

const ROOM: ArgSpec = ArgSpec {
    name: "room",
    ask: "Which room?",
    source: Source::Rooms,
    optional: true,
    slots: &["house_place"],
    reading: Reading::Any,
};

const BRIGHTNESS: ArgSpec = ArgSpec {
    name: "brightness",
    ask: "How bright, in percent?",
    source: Source::Pick("number"),
    optional: true,
    slots: &["change_amount"],
    reading: Reading::Level,
};

const STEP: ArgSpec = ArgSpec {
    name: "step",
    ask: "By how much, in percent?",
    source: Source::Pick("number"),
    optional: true,
    slots: &["change_amount"],
    reading: Reading::Step,
};

const ALARM_TIME: ArgSpec = ArgSpec {
    name: "time",
    ask: "At what time?",
    source: Source::Pick("time"),
    optional: true,
    slots: &["time", "timeofday"],
    reading: Reading::Any,
};

const ALARM_DATE: ArgSpec = ArgSpec {
    name: "date",
    ask: "On which day?",
    source: Source::Pick("date"),
    optional: true,
    slots: &["date"],
    reading: Reading::Any,
};

const COLORS: &[(&str, &str)] = &[
    ("red", "Red."),
    ("orange", "Orange."),
    ("yellow", "Yellow."),
    ("green", "Green."),
    ("blue", "Blue."),
    ("purple", "Purple; also 'violet', 'lavender'."),
    ("pink", "Pink."),
    ("white", "Plain white, the usual light."),
    ("warm", "Warm white: soft and yellowish, for the evening."),
    ("cool", "Cool white: bluish daylight, for reading and work."),
];

const COFFEES: &[(&str, &str)] = &[
    ("espresso", "A short strong espresso."),
    ("cappuccino", "A cappuccino, with foamed milk."),
    ("latte", "A latte, with plenty of milk."),
    ("americano", "An americano: espresso topped up with hot water."),
    ("black", "Plain black filter coffee."),
];

/// The sixteen intents, in the order of their first sentence in MASSIVE's `train`.
///
/// Effects: a query changes nothing, so it is `read`; `audio_volume_other` opens the sound settings to
/// look at or adjust by hand, which changes nothing either. Every other intent changes a device, and is
/// `write`. `alarm_remove` is `write` too, not `destructive`: what it loses is a time the person can set
/// again in one sentence, while `destructive` is kept for what cannot be put back (evoke confirms a
/// destructive call every time, so no removal would ever be measured running).
const INTENTS: &[IntentSpec] = &[
    IntentSpec {
        intent: "alarm_set",
        effect: "write",
        description: concat!(
            "Set an alarm to ring at a time of day.\n",
            "One alarm per request, at a time like \"six am\", on the day said or the next one."
        ),
        not_for: &["a countdown for a length of time", "saying which alarms are set", "removing an alarm"],
        confirm: "Set an alarm for {time}?",
        args: &[ArgSpec { optional: false, ..ALARM_TIME }, ALARM_DATE],
    },
    IntentSpec {
        intent: "alarm_query",
        effect: "read",
        description: "Say which alarms are set and when they ring.\nReads the alarms; changes none.",
        not_for: &["setting a new alarm", "removing an alarm"],
        confirm: "List the alarms?",
        args: &[ALARM_TIME, ALARM_DATE],
    },
    IntentSpec {
        intent: "alarm_remove",
        effect: "write",
        description: concat!(
            "Remove an alarm that is set, or all of them.\n",
            "The alarm at the time or on the day said; every alarm when none is named."
        ),
        not_for: &["setting a new alarm", "saying which alarms are set", "stopping a countdown timer"],
        confirm: "Remove the alarm?",
        args: &[ALARM_TIME, ALARM_DATE],
    },
    IntentSpec {
        intent: "audio_volume_mute",
        effect: "write",
        description: "Mute the speaker: no sound until it is unmuted, or for the length of time said.",
        not_for: &["turning the volume down a step", "pausing the music"],
        confirm: "Mute the speaker?",
        args: &[ArgSpec {
            name: "length",
            ask: "For how long?",
            source: Source::Pick("duration"),
            optional: true,
            slots: &["time"],
            reading: Reading::Any,
        }],
    },
    IntentSpec {
        intent: "audio_volume_up",
        effect: "write",
        description: "Turn the speaker volume up: louder by a step, or by the amount said.",
        not_for: &["setting the volume to a level in percent", "making the lights brighter"],
        confirm: "Turn the volume up?",
        args: &[STEP],
    },
    IntentSpec {
        intent: "audio_volume_down",
        effect: "write",
        description: "Turn the speaker volume down: quieter by a step, or by the amount said.",
        not_for: &["setting the volume to a level in percent", "muting the sound", "dimming the lights"],
        confirm: "Turn the volume down?",
        args: &[STEP],
    },
    IntentSpec {
        intent: "audio_volume_other",
        effect: "read",
        description: "Open the speaker's sound settings, to look at them or adjust them by hand.",
        not_for: &["turning the volume up or down", "muting the sound"],
        confirm: "Open the sound settings?",
        args: &[],
    },
    IntentSpec {
        intent: "iot_hue_lightchange",
        effect: "write",
        description: "Change the colour of the lights, in one room or everywhere.",
        not_for: &["switching the lights on or off", "making the lights brighter or darker"],
        confirm: "Make the lights {color}?",
        args: &[
            ArgSpec {
                name: "color",
                ask: "Which colour?",
                source: Source::Options(COLORS),
                optional: false,
                slots: &["color_type"],
                reading: Reading::Any,
            },
            ROOM,
        ],
    },
    IntentSpec {
        intent: "iot_hue_lightoff",
        effect: "write",
        description: "Switch the lights off, in one room or everywhere.",
        not_for: &["switching off a plug, a vacuum or a coffee machine", "dimming the lights"],
        confirm: "Switch the lights off?",
        args: &[ROOM],
    },
    IntentSpec {
        intent: "iot_hue_lightdim",
        effect: "write",
        description: "Dim the lights: darker without switching them off, to the brightness said.",
        not_for: &["switching the lights off", "turning the volume down"],
        confirm: "Dim the lights?",
        args: &[ROOM, BRIGHTNESS],
    },
    IntentSpec {
        intent: "iot_hue_lightup",
        effect: "write",
        description: "Make the lights brighter, to the brightness said.",
        not_for: &["switching the lights on", "turning the volume up"],
        confirm: "Make the lights brighter?",
        args: &[ROOM, BRIGHTNESS],
    },
    IntentSpec {
        intent: "iot_hue_lighton",
        effect: "write",
        description: "Switch the lights on, in one room or everywhere.",
        not_for: &["switching on a plug, a vacuum or a coffee machine", "making the lights brighter"],
        confirm: "Switch the lights on?",
        args: &[ROOM],
    },
    IntentSpec {
        intent: "iot_cleaning",
        effect: "write",
        description: "Start the robot vacuum cleaner, in one room or the whole home.",
        not_for: &["the washing machine or the dishwasher"],
        confirm: "Start the vacuum?",
        args: &[
            ROOM,
            ArgSpec {
                name: "at",
                ask: "At what time?",
                source: Source::Pick("time"),
                optional: true,
                slots: &["time"],
                reading: Reading::Any,
            },
        ],
    },
    IntentSpec {
        intent: "iot_coffee",
        effect: "write",
        description: "Make a cup of coffee with the coffee machine.",
        not_for: &["ordering coffee from a shop", "tea"],
        confirm: "Make a coffee?",
        args: &[ArgSpec {
            name: "kind",
            ask: "Which coffee?",
            source: Source::Options(COFFEES),
            optional: true,
            slots: &["coffee_type"],
            reading: Reading::Any,
        }],
    },
    IntentSpec {
        intent: "iot_wemo_on",
        effect: "write",
        description: "Switch on the smart plug (the Wemo socket) and what is plugged into it.",
        not_for: &["the lights", "the robot vacuum", "the coffee machine"],
        confirm: "Switch the smart plug on?",
        args: &[],
    },
    IntentSpec {
        intent: "iot_wemo_off",
        effect: "write",
        description: "Switch off the smart plug (the Wemo socket) and what is plugged into it.",
        not_for: &["the lights", "the robot vacuum", "the coffee machine"],
        confirm: "Switch the smart plug off?",
        args: &[],
    },
];

/// The project's rooms: the example project's five, then the other rooms MASSIVE's home requests name,
/// and the whole home.
const ROOMS: &[(&str, &str)] = &[
    ("kitchen", "Where the cooking happens."),
    ("den", "The TV room downstairs; also 'the snug'."),
    ("office", "The upstairs study."),
    ("living room", "The big room by the front door; also 'the lounge'."),
    ("bedroom", "Where I sleep."),
    ("bathroom", "Where the bath and the shower are."),
    ("hall", "The entrance and the stairs; also 'the hallway'."),
    ("dining room", "Where we eat."),
    ("garage", "Where the car is kept."),
    ("porch", "The covered step outside the front door."),
    ("garden", "Outside, behind the house."),
    ("balcony", "Outside, upstairs."),
    ("house", "Every room at once; also 'the whole house', 'home', 'the flat', 'everywhere'."),
];

/// The slots of MASSIVE's annotation an argument of the example project's reflexes reads.
fn home_slots(reflex: &str, arg: &str) -> Option<(&'static [&'static str], Reading)> {
    match (reflex, arg) {
        ("lights", "room") => Some((&["house_place"], Reading::Any)),
        ("lights", "brightness") | ("volume", "level") => Some((&["change_amount"], Reading::Level)),
        ("timer", "duration") => Some((&["time"], Reading::Any)),
        _ => None,
    }
}

/// The slots an argument of any reflex of the project reads, and how.
fn slots_of(reflex: &str, arg: &str) -> Option<(&'static [&'static str], Reading)> {
    match INTENTS.iter().find(|i| i.intent == reflex) {
        Some(spec) => spec.args.iter().find(|a| a.name == arg).map(|a| (a.slots, a.reading)),
        None => home_slots(reflex, arg),
    }
}

fn spec(intent: &str) -> &'static IntentSpec {
    INTENTS.iter().find(|i| i.intent == intent).unwrap_or_else(|| panic!("{intent} is none of the sixteen"))
}

fn data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("EVOKE_DATA") {
        return PathBuf::from(dir);
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for up in here.ancestors() {
        for candidate in [up.join("shared/data"), up.join("../shared/data")] {
            if candidate.join("massive-en-us").is_dir() {
                return candidate;
            }
        }
    }
    PathBuf::from("../shared/data")
}

fn bench_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/home")
}

fn read_jsonl(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

/// One MASSIVE sentence and its annotated slots.
struct Item {
    split: &'static str,
    intent: String,
    utt: String,
    annot: String,
    /// (slot, start, end, words), offsets in characters of `utt`.
    slots: Vec<(String, usize, usize, String)>,
}

/// The slots of an `annot_utt`, placed in the sentence: `[slot : words]` stands for `words`.
fn annotated(annot: &str) -> (String, Vec<(String, usize, usize, String)>) {
    let mut text = String::new();
    let mut slots = Vec::new();
    let mut rest = annot;
    while let Some(open) = rest.find('[') {
        text.push_str(&rest[..open]);
        let Some(close) = rest[open..].find(']') else { break };
        let inner = &rest[open + 1..open + close];
        let (slot, words) = inner.split_once(" : ").unwrap_or(("", inner));
        let start = text.chars().count();
        text.push_str(words);
        slots.push((slot.trim().to_string(), start, text.chars().count(), words.to_string()));
        rest = &rest[open + close + 1..];
    }
    text.push_str(rest);
    (text, slots)
}

fn massive(name: &str, split: &'static str) -> Vec<Item> {
    read_jsonl(&data_dir().join("massive-en-us").join(name))
        .into_iter()
        .filter(|v| INTENTS.iter().any(|i| i.intent == v["intent"].as_str().unwrap()))
        .map(|v| {
            let utt = v["utt"].as_str().unwrap().to_string();
            let annot = v["annot_utt"].as_str().unwrap().to_string();
            let (text, slots) = annotated(&annot);
            assert_eq!(text, utt, "the annotation spells the sentence");
            Item { split, intent: v["intent"].as_str().unwrap().to_string(), utt, annot, slots }
        })
        .collect()
}

/// Each intent's examples (its first ten distinct `train` sentences, in file order) and the test
/// sentences: the rest of `train`, then all of `dev`.
fn split() -> (BTreeMap<String, Vec<Item>>, Vec<Item>) {
    let mut examples: BTreeMap<String, Vec<Item>> = BTreeMap::new();
    let mut tests = Vec::new();
    let mut seen = BTreeSet::new();
    for item in massive("train.jsonl", "train") {
        let chosen = examples.entry(item.intent.clone()).or_default();
        if chosen.len() < EXAMPLES && seen.insert(evoke_core::identity::identity(&item.utt)) {
            chosen.push(item);
        } else {
            tests.push(item);
        }
    }
    tests.extend(massive("dev.jsonl", "dev"));
    (examples, tests)
}

fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// The key of `options` an annotated value names: a key said as a word of it (a plural `s` aside), or a
/// name quoted in a key's meaning; `None` when it names none.
fn option_named(options: &[(String, String)], value: &str) -> Option<String> {
    let value = value.to_lowercase();
    let words: Vec<&str> = value.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let said = |key: &str| {
        let key_words: Vec<&str> = key.split(' ').collect();
        words
            .windows(key_words.len())
            .any(|w| w.iter().zip(&key_words).all(|(a, b)| a == b || a.strip_suffix('s') == Some(b)))
    };
    options
        .iter()
        .find(|(key, meaning)| said(key) || quoted(meaning).iter().any(|name| said(name)))
        .map(|(key, _)| key.clone())
}

/// The room an annotated place names: a word of the vocabulary or a name quoted in its meaning, read
/// without an opening `the`, `my` or `our`, spaces and a plural `s` aside (`bed room` is the bedroom);
/// else the longest such word said whole inside it (`front porch` is the porch).
fn room_named(vocab: &Vocabulary, value: &str) -> Option<String> {
    let squash = |s: &str| {
        let s = s.trim().to_lowercase();
        let mut s = s.as_str();
        for lead in ["the ", "my ", "our "] {
            s = s.strip_prefix(lead).unwrap_or(s);
        }
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        s.strip_suffix('s').map(str::to_string).unwrap_or(s)
    };
    let names = |w: &evoke_core::vocab::Word| {
        let mut names = quoted(&w.what);
        names.push(w.word.clone());
        names
    };
    let whole = squash(value);
    if let Some(w) = vocab.words.iter().find(|w| names(w).iter().any(|name| squash(name) == whole)) {
        return Some(w.word.clone());
    }
    let padded = format!(" {} ", value.to_lowercase().split_whitespace().collect::<Vec<_>>().join(" "));
    vocab
        .words
        .iter()
        .flat_map(|w| names(w).into_iter().map(move |name| (w, name)))
        .filter(|(_, name)| padded.contains(&format!(" {} ", name.to_lowercase())))
        .max_by_key(|(_, name)| name.len())
        .map(|(w, _)| w.word.clone())
}

/// The names a meaning quotes: `also 'the snug'` quotes `the snug`.
fn quoted(meaning: &str) -> Vec<String> {
    meaning.split('\'').skip(1).step_by(2).map(|s| s.trim_start_matches("the ").to_string()).collect()
}

/// The reflex.toml of one MASSIVE intent: its examples assert an option their annotation names, so that
/// they teach it; picks and rooms are read from the sentence, never asserted.
fn manifest_text(spec: &IntentSpec, examples: &[Item]) -> String {
    let mut t = String::from("reflex = 1\n\n");
    t.push_str(&format!("description = {}\n", toml_string(spec.description)));
    let not_for: Vec<String> = spec.not_for.iter().map(|n| toml_string(n)).collect();
    t.push_str(&format!("not_for = [{}]\n", not_for.join(", ")));
    t.push_str("tags = [\"home\", \"massive\"]\n");
    t.push_str(&format!("effect = \"{}\"\n", spec.effect));
    t.push_str(&format!("confirm = {}\n", toml_string(spec.confirm)));
    t.push_str("run = \"body.mjs\"\n");
    for arg in spec.args {
        t.push_str(&format!("\n[args.{}]\nask = {}\n", arg.name, toml_string(arg.ask)));
        match arg.source {
            Source::Rooms => t.push_str("vocab = \"rooms\"\n"),
            Source::Pick(kind) => {
                t.push_str(&format!("pick = \"{kind}\"\n"));
                if kind == "number" {
                    t.push_str("range = [1, 100]\n");
                }
            }
            Source::Options(options) => {
                for (key, meaning) in options {
                    t.push_str(&format!("options.{key} = {}\n", toml_string(meaning)));
                }
            }
        }
        if arg.optional {
            t.push_str("optional = true\n");
        }
    }
    t.push_str("\n[examples]\n");
    for item in examples {
        let mut asserted = Vec::new();
        for arg in spec.args {
            let Source::Options(options) = arg.source else { continue };
            let options: Vec<(String, String)> = options.iter().map(|(k, m)| (k.to_string(), m.to_string())).collect();
            let named = item
                .slots
                .iter()
                .filter(|(slot, ..)| arg.slots.contains(&slot.as_str()))
                .find_map(|(.., words)| option_named(&options, words));
            if let Some(key) = named {
                asserted.push(format!("{} = \"{key}\"", arg.name));
            }
        }
        t.push_str(&format!("{} = {{ {} }}\n", toml_string(&item.utt), asserted.join(", ")).replace("{  }", "{}"));
    }
    t
}

fn rooms_text() -> String {
    let mut t = String::from(
        "# The example project's rooms (docs/examples/home), then the other places MASSIVE's home requests name.\n",
    );
    for (word, meaning) in ROOMS {
        let key = if word.contains(' ') { toml_string(word) } else { word.to_string() };
        let meaning = toml_string(meaning);
        if *word == "office" {
            // The example project's office lights are a group on the bridge, named by its value.
            t.push_str(&format!("{key} = {{ what = {meaning}, value = \"group-7\" }}\n"));
        } else {
            t.push_str(&format!("{key} = {meaning}\n"));
        }
    }
    t
}

/// Every file of the project, by its path in the project, as `project` writes it.
fn project_files() -> BTreeMap<String, String> {
    let (examples, _) = split();
    let mut files = BTreeMap::new();
    let mut toml = String::from(
        "# The home benchmark's project (benches/home.rs writes it; see benches/home/README.md): the example\n\
         # project's reflexes, then one reflex per MASSIVE home intent.\n\
         adapter = \"local\"\n\n[reflexes]\n\
         lights = \"../../../../../docs/examples/home/reflexes/lights\"\n\
         timer = \"../../../../../reflexes/timer\"\n\
         volume = \"../../../../../reflexes/volume\"\n",
    );
    for spec in INTENTS {
        let chosen = examples.get(spec.intent).map_or(&[][..], Vec::as_slice);
        assert_eq!(chosen.len(), EXAMPLES, "{} has ten distinct train sentences", spec.intent);
        files.insert(format!("reflexes/{}/reflex.toml", spec.intent), manifest_text(spec, chosen));
        // The body is trivial: the benchmark measures deciding, and `evoke try` never runs it.
        files.insert(format!("reflexes/{}/body.mjs", spec.intent), "export default () => \"done\";\n".into());
        toml.push_str(&format!("{} = \"reflexes/{}\"\n", spec.intent, spec.intent));
    }
    files.insert("evoke.toml".into(), toml);
    files.insert("vocab/rooms.toml".into(), rooms_text());
    files
}

fn project_dir() -> PathBuf {
    bench_dir().join("project")
}

fn write_project(dir: &Path) {
    for (path, text) in project_files() {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    println!("wrote {} ({} MASSIVE reflexes and the example project's three)", dir.display(), INTENTS.len());
}

/// The committed project, read as the command reads it: its evoke.toml, each reflex's manifest, the
/// rooms. Refused when it differs from what `project` writes, so that the figures are of the table here.
fn load_project() -> Catalog {
    let dir = project_dir();
    for (path, text) in project_files() {
        let on_disk = std::fs::read_to_string(dir.join(&path)).unwrap_or_default();
        assert!(
            on_disk == text,
            "{} differs from what the bench writes: run `cargo bench -p evoke-adapters -F embed --bench home \
             --profile dev -- project` and commit it",
            dir.join(path).display()
        );
    }
    let read = |path: &Path| std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let project = read_project_file("evoke.toml", &read(&dir.join("evoke.toml"))).value.expect("evoke.toml reads");
    let mut reflexes = Vec::new();
    for (name, source) in project.reflexes {
        let ReflexSource::Path(path) = source else { panic!("{name} is not a folder") };
        let rdir = dir.join(path);
        let reading = read_manifest("reflex.toml", &read(&rdir.join("reflex.toml")), &|_: &str| true);
        let manifest = reading.value.unwrap_or_else(|| panic!("{name}: {:?}", reading.diagnostics));
        let mut vocabs = BTreeMap::new();
        for arg in &manifest.args {
            if let ArgSource::Vocab(v) = &arg.source {
                let file = format!("vocab/{v}.toml");
                let vocab = read_vocab(v, &file, &read(&dir.join(&file))).value.expect("the vocabulary reads");
                vocabs.insert(v.clone(), vocab);
            }
        }
        reflexes.push(Reflex { name, manifest, vocabs: vocabs.into_iter().collect() });
    }
    Catalog::new(reflexes)
}

/// A plain request: its intent acts, and every required argument's slot is annotated.
fn plain(item: &Item) -> bool {
    let spec = spec(&item.intent);
    spec.effect == "write"
        && spec
            .args
            .iter()
            .filter(|a| !a.optional)
            .all(|a| item.slots.iter().any(|(slot, ..)| a.slots.contains(&slot.as_str())))
}

/// What answers one round: an engine's `answer_now`.
type AnswerFn = dyn Fn(&State, &Questions) -> evoke_core::adapter::Raw;

/// An engine's answers to one round.
type Answer<'a> = &'a AnswerFn;

/// One decision through the decision path, in process.
fn decision_of(catalog: &Catalog, answer: Answer, gate: Gate, input: &str) -> Decision {
    let mut decider = Decider::new(catalog, Some(gate), input).expect("the input is in bounds");
    while let Some(questions) = decider.questions() {
        let questions = questions.clone();
        let raw = answer(&State { request: input.to_string() }, &questions);
        let answers = validate(&questions, &raw).expect("the engine's answers validate");
        decider.feed(&answers);
    }
    decider.decision().expect("decided").clone()
}

/// A sentence as the command decides it: woven (cut at an `and` or a `then` it judges to join two
/// requests, a spared part left out), every round answered by the engine.
fn woven_of(catalog: &Catalog, answer: Answer, gate: Gate, input: &str) -> Woven {
    let mut weaver = Weaver::new(catalog, Some(gate), input).expect("the input is in bounds");
    while let Some((text, questions)) = weaver.questions() {
        let questions = questions.clone();
        let raw = answer(&State { request: text.to_string() }, &questions);
        let answers = validate(&questions, &raw).expect("the engine's answers validate");
        weaver.feed(&answers).expect("within bounds");
    }
    weaver.woven().expect("woven").clone()
}

/// A sentence's decision, whole or woven, read as one: the decision, where its words start in the
/// sentence (`None` when a step's words were repaired, so that its spans cannot be placed), and how many
/// steps it holds. A plan stands as its first step with the plan's verdict as the outcome; a plan of no
/// step as the whole sentence's decision, abstained.
fn decided(catalog: &Catalog, engine: &Engine, woven: bool, input: &str) -> (Decision, Option<usize>, usize) {
    let whole = || decision_of(catalog, &*engine.answer, engine.gate, input);
    if !woven {
        return (whole(), Some(0), 1);
    }
    match woven_of(catalog, &*engine.answer, engine.gate, input) {
        Woven::One(d) => (d, Some(0), 1),
        Woven::Plan(plan) => match plan.steps.first() {
            Some(step) => {
                let mut d = step.decision.clone();
                d.outcome = plan.verdict.outcome;
                let said: String = input.chars().skip(step.start).take(step.end - step.start).collect();
                (d, (said == step.text).then_some(step.start), plan.steps.len())
            }
            None => {
                let mut d = whole();
                d.outcome = Outcome::Abstain;
                (d, Some(0), 0)
            }
        },
    }
}

/// Whether the decision's reflex does what the intent asks (its state read, when it has one).
fn right_reflex(intent: &str, d: &Decision) -> bool {
    let Some(reflex) = d.reflex.as_deref() else { return false };
    if reflex == intent {
        return true;
    }
    let state = d.args.as_ref().and_then(|a| a.get("state")).map(Value::shown);
    match (reflex, intent) {
        ("lights", "iot_hue_lightoff") => state.is_none_or(|s| s == "off"),
        ("lights", "iot_hue_lighton") => state.is_none_or(|s| s == "on"),
        ("lights", "iot_hue_lightdim") => state.is_none_or(|s| s == "dim"),
        ("volume", "audio_volume_up" | "audio_volume_down" | "audio_volume_other") => true,
        _ => false,
    }
}

/// The first argument of the decision whose value contradicts the annotation, with why. `offset` is
/// where the decided words start in the sentence: a woven step's spans count from its own start.
fn contradiction(catalog: &Catalog, item: &Item, d: &Decision, offset: usize) -> Option<String> {
    let reflex = catalog.get(d.reflex.as_deref()?)?;
    let empty = Default::default();
    let args = d.args.as_ref().unwrap_or(&empty);
    for arg in &reflex.manifest.args {
        let Some((slots, reading)) = slots_of(&reflex.name, &arg.name) else { continue };
        let marked: Vec<&(String, usize, usize, String)> =
            item.slots.iter().filter(|(slot, ..)| slots.contains(&slot.as_str())).collect();
        let overlaps = |a: (usize, usize), b: (usize, usize)| a.0 < b.1 && b.0 < a.1;
        let named = |words: &str| -> Option<String> {
            match &arg.source {
                ArgSource::Options(options) => option_named(options, words),
                ArgSource::Vocab(v) => {
                    reflex.vocab_of(&arg.name).or(reflex.vocabs.get(v)).and_then(|voc| room_named(voc, words))
                }
                _ => None,
            }
        };
        let why = |what: String| Some(format!("{}: {what}", arg.name));
        match args.get(&arg.name) {
            Some(Value::Pick { span, .. }) => {
                let at = (span.start + offset, span.end + offset);
                if !marked.is_empty() && !marked.iter().any(|(_, s, e, _)| overlaps(at, (*s, *e))) {
                    return why(format!("{:?} is not the annotated {:?}", span.text, marked[0].3));
                }
                if let Some((slot, ..)) =
                    item.slots.iter().find(|(slot, s, e, _)| !slots.contains(&slot.as_str()) && overlaps(at, (*s, *e)))
                {
                    return why(format!("{:?} lies on the slot {slot}", span.text));
                }
                for (_, s, e, words) in &marked {
                    let words = words.to_lowercase();
                    let by = words.starts_with("by ");
                    let to = words.starts_with("to ") || words.starts_with("at ");
                    if overlaps(at, (*s, *e)) && ((reading == Reading::Level && by) || (reading == Reading::Step && to))
                    {
                        return why(format!("{:?} is said as {words:?}", span.text));
                    }
                }
            }
            Some(value @ (Value::Option { .. } | Value::Word { .. })) => {
                let key = value.shown().to_string();
                if let Some((.., words)) =
                    marked.iter().find(|(.., words)| named(words).as_deref() != Some(key.as_str()))
                {
                    return why(format!("{key:?} where the annotation says {words:?}"));
                }
            }
            Some(Value::Flag) => {}
            None => {
                for (_, s, e, words) in &marked {
                    let stated = match &arg.source {
                        ArgSource::Pick(kind) => {
                            candidates(&item.utt, *kind).iter().any(|c| c.span.start >= *s && c.span.end <= *e)
                        }
                        _ => named(words).is_some(),
                    };
                    if stated {
                        return why(format!("left out where the annotation says {words:?}"));
                    }
                }
            }
        }
    }
    None
}

/// One test sentence's decision, read against its annotation.
struct Row<'a> {
    item: &'a Item,
    plain: bool,
    decision: Decision,
    right: bool,
    contradicts: Option<String>,
}

impl Row<'_> {
    fn acted(&self) -> bool {
        self.right && self.decision.outcome != Outcome::Abstain
    }
    fn ran_right(&self) -> bool {
        self.right && self.decision.outcome == Outcome::Run && self.contradicts.is_none()
    }
    fn wrong_run(&self) -> bool {
        self.decision.outcome == Outcome::Run && !self.ran_right()
    }
}

/// A built engine: its name, its answers and its shipped gate.
struct Engine {
    name: &'static str,
    answer: Box<AnswerFn>,
    gate: Gate,
}

fn engine(name: &str) -> Engine {
    match name {
        "local" => {
            let local = Local::default();
            Engine {
                name: "local",
                answer: Box::new(move |s, q| local.answer_now(s, q).expect("local answers")),
                gate: GATE,
            }
        }
        "embed" => {
            let dir = evoke_embed::reference_model_dir().expect("EVOKE_EMBED_MODEL or HOME");
            let encoder = evoke_embed::Encoder::load(&dir).unwrap_or_else(|e| panic!("{e}"));
            let embed = Embed::new(
                std::sync::Arc::new(encoder),
                EmbedParams::default(),
                ArgParams::default(),
                EMBED_GATE,
                embed_cache(),
            );
            Engine {
                name: "embed",
                answer: Box::new(move |s, q| embed.answer_now(s, q).expect("embed answers")),
                gate: EMBED_GATE,
            }
        }
        other => panic!("no engine {other}: local or embed"),
    }
}

/// Where `embed` keeps its reflex side between runs, as the command does: evoke's cache place.
fn embed_cache() -> Option<PathBuf> {
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|p| !p.is_empty()).map(|h| PathBuf::from(h).join(".cache")))
        .map(|c| c.join("evoke/embed"))
}

/// Every test sentence decided, whole or woven, and read against its annotation. A MASSIVE sentence
/// asks one thing, so a plan of several steps is never the right reflex.
fn decide_tests<'a>(catalog: &Catalog, engine: &Engine, woven: bool, tests: &'a [Item]) -> Vec<Row<'a>> {
    tests
        .iter()
        .map(|item| {
            let (decision, offset, steps) = decided(catalog, engine, woven, &item.utt);
            let right = steps == 1 && right_reflex(&item.intent, &decision);
            let contradicts = match (decision.outcome, offset) {
                (Outcome::Run, Some(offset)) => contradiction(catalog, item, &decision, offset),
                (Outcome::Run, None) => Some("a repaired step, its values not placed".into()),
                _ => None,
            };
            Row { item, plain: plain(item), decision, right, contradicts }
        })
        .collect()
}

fn pct(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

fn mix(outcomes: impl Iterator<Item = Outcome>) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for o in outcomes {
        *counts.entry(o.as_str()).or_default() += 1;
    }
    ["run", "confirm", "ask", "abstain"]
        .iter()
        .map(|o| format!("{o} {}", counts.get(o).unwrap_or(&0)))
        .collect::<Vec<_>>()
        .join(" · ")
}

fn report(catalog: &Catalog, engine: &Engine, woven: bool, tests: &[Item], non_requests: &[(String, String)]) {
    let started = std::time::Instant::now();
    let rows = decide_tests(catalog, engine, woven, tests);
    let g = engine.gate;
    println!(
        "{}, {} · gate route {} · read {} · write {} · {} reflexes",
        engine.name,
        if woven { "woven as the command decides" } else { "each sentence decided whole" },
        g.route,
        g.read,
        g.write,
        catalog.reflexes().len()
    );
    let n = rows.len();
    let plain: Vec<&Row> = rows.iter().filter(|r| r.plain).collect();
    let acted = rows.iter().filter(|r| r.acted()).count();
    let ran = plain.iter().filter(|r| r.ran_right()).count();
    let wrong = rows.iter().filter(|r| r.wrong_run()).count();
    println!(
        "  test sentences             {n} ({} train, {} dev)",
        rows.iter().filter(|r| r.item.split == "train").count(),
        rows.iter().filter(|r| r.item.split == "dev").count()
    );
    println!("  outcomes                   {}", mix(rows.iter().map(|r| r.decision.outcome)));
    println!("  right reflex acted on      {acted} ({:.1}%)", pct(acted, n));
    println!(
        "  plain requests run         {ran} of {} ({:.1}%; goal embed ≥ 50%, local ≥ 30%)",
        plain.len(),
        pct(ran, plain.len())
    );
    println!("  plain requests' outcomes   {}", mix(plain.iter().map(|r| r.decision.outcome)));
    println!(
        "  wrong runs                 {wrong} ({:.2} per thousand test sentences; goal ≤ 3)",
        1000.0 * wrong as f64 / n.max(1) as f64
    );
    let wrong_reflex = rows.iter().filter(|r| r.decision.outcome == Outcome::Run && !r.right).count();
    println!("    of the wrong reflex      {wrong_reflex}");
    println!("    with a contradicting value {}", wrong - wrong_reflex);
    println!("  per intent: tests · plain · acted · plain run · wrong runs");
    for spec in INTENTS {
        let of: Vec<&Row> = rows.iter().filter(|r| r.item.intent == spec.intent).collect();
        let p: Vec<&&Row> = of.iter().filter(|r| r.plain).collect();
        println!(
            "    {:20} {:4} {:4}  {:5.1}%  {:5.1}%  {}",
            spec.intent,
            of.len(),
            p.len(),
            pct(of.iter().filter(|r| r.acted()).count(), of.len()),
            pct(p.iter().filter(|r| r.ran_right()).count(), p.len()),
            of.iter().filter(|r| r.wrong_run()).count()
        );
    }
    let decided: Vec<(&str, Decision)> =
        non_requests.iter().map(|(text, kind)| (kind.as_str(), decided(catalog, engine, woven, text).0)).collect();
    let runs = decided.iter().filter(|(_, d)| d.outcome == Outcome::Run).count();
    println!("  non-requests               {} · runs {runs} (goal 0)", decided.len());
    let kinds: BTreeSet<&str> = decided.iter().map(|(k, _)| *k).collect();
    for kind in kinds {
        println!("    {kind:13} {}", mix(decided.iter().filter(|(k, _)| *k == kind).map(|(_, d)| d.outcome)));
    }
    for (_, d) in decided.iter().filter(|(_, d)| d.outcome == Outcome::Run) {
        println!("    ran: {:?} → {}", d.input, d.call.clone().unwrap_or_default());
    }
    for r in rows.iter().filter(|r| r.wrong_run()) {
        println!(
            "  wrong run [{}] {:?} → {}{}",
            r.item.intent,
            r.item.utt,
            r.decision.call.clone().unwrap_or_default(),
            r.contradicts.as_ref().map(|c| format!(" ({c})")).unwrap_or_default()
        );
    }
    println!("  {:.1} s", started.elapsed().as_secs_f64());
    println!();
}

fn non_requests() -> Vec<(String, String)> {
    read_jsonl(&bench_dir().join("non-requests.jsonl"))
        .into_iter()
        .map(|v| (v["text"].as_str().unwrap().to_string(), v["kind"].as_str().unwrap().to_string()))
        .collect()
}

/// The plain requests, one JSON line each, to `file` or to standard output.
fn list_plain(file: Option<&str>) {
    let (_, tests) = split();
    let mut out = String::new();
    for item in tests.iter().filter(|i| plain(i)) {
        let line =
            serde_json::json!({ "intent": item.intent, "split": item.split, "utt": item.utt, "annot_utt": item.annot });
        out.push_str(&format!("{line}\n"));
    }
    match file {
        Some(f) => {
            std::fs::write(f, &out).unwrap_or_else(|e| panic!("cannot write {f}: {e}"));
            println!("{} plain requests of {} test sentences written to {f}", out.lines().count(), tests.len());
        }
        None => print!("{out}"),
    }
}

/// For every plain request not run right: its outcome, why the gate held it (`because`, `missing`) and
/// its weakest judgment.
fn misses(engine: &Engine, woven: bool) {
    let catalog = load_project();
    let (_, tests) = split();
    let rows = decide_tests(&catalog, engine, woven, &tests);
    let mut shown = 0;
    for r in rows.iter().filter(|r| r.plain && !r.ran_right()) {
        shown += 1;
        let d = &r.decision;
        let mut line = serde_json::json!({
            "intent": r.item.intent,
            "utt": r.item.utt,
            "outcome": d.outcome,
            "reflex": d.reflex,
            "right": r.right,
            "because": d.because,
            "missing": d.missing.as_ref().map(|missing| {
                missing.iter().map(|m| serde_json::json!({ "arg": m.arg, "because": m.because })).collect::<Vec<_>>()
            }),
            "weakest": d.weakest,
            "judgments": d.judgments,
            "contenders": d.contenders.iter().take(2).collect::<Vec<_>>(),
        });
        if let Some(c) = &r.contradicts {
            line["contradicts"] = serde_json::Value::String(c.clone());
        }
        println!("{line}");
    }
    eprintln!("{}: {shown} plain requests of {} not run right", engine.name, rows.iter().filter(|r| r.plain).count());
}

/// The bench's own readings held to cases whose answer is known, then the in-process decisions held to
/// the `evoke` command's: every 40th test sentence and every 16th non-request, woven by `local` here and
/// decided by `evoke try --json` in the committed project, trusted in a home of its own, their JSON lines
/// compared whole but for the trace. Panics on the first difference. The command is `EVOKE_BIN`, else
/// the workspace's `target/debug/evoke`.
fn check() {
    let (text, slots) = annotated("wake me up at [time : nine am] on [date : friday]");
    assert_eq!(text, "wake me up at nine am on friday");
    assert_eq!(slots[0], ("time".to_string(), 14, 21, "nine am".to_string()));
    assert_eq!(slots[1], ("date".to_string(), 25, 31, "friday".to_string()));
    let catalog = load_project();
    let rooms = catalog.get("iot_hue_lightoff").and_then(|r| r.vocab_of("room")).expect("the rooms");
    for (said, room) in
        [("bed room", Some("bedroom")), ("front porch", Some("porch")), ("the lounge", Some("living room"))]
            .into_iter()
            .chain([("whole house", Some("house")), ("room", None), ("media room", None)])
    {
        assert_eq!(room_named(rooms, said).as_deref(), room, "{said}");
    }
    let colors: Vec<(String, String)> = COLORS.iter().map(|(k, m)| (k.to_string(), m.to_string())).collect();
    assert_eq!(option_named(&colors, "shine blue").as_deref(), Some("blue"));
    assert_eq!(option_named(&colors, "lavender").as_deref(), Some("purple"));
    assert_eq!(option_named(&colors, "romantic"), None);
    let (_, tests) = split();
    let find = |intent: &str, has_slot: bool| {
        tests
            .iter()
            .find(|i| i.intent == intent && i.slots.iter().any(|(s, ..)| s == "time") == has_slot)
            .expect("such a sentence")
    };
    assert!(plain(find("alarm_set", true)) && !plain(find("alarm_set", false)), "an alarm needs its time");
    assert!(!plain(find("alarm_query", true)), "a query is no plain request");
    println!("readings: as expected");

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bin = std::env::var_os("EVOKE_BIN").map_or_else(|| root.join("target/debug/evoke"), PathBuf::from);
    assert!(bin.is_file(), "{} is missing: `cargo build -p evoke` first, or set EVOKE_BIN", bin.display());
    let home = std::env::temp_dir().join(format!("evoke-home-bench-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let evoke = |args: &[&str]| {
        let out = std::process::Command::new(&bin)
            .args(args)
            .current_dir(project_dir())
            .env("EVOKE_HOME", &home)
            .output()
            .expect("evoke runs");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    evoke(&["trust"]);
    let local = engine("local");
    let non = non_requests();
    let sample: Vec<&str> = tests
        .iter()
        .step_by(40)
        .map(|i| i.utt.as_str())
        .chain(non.iter().step_by(16).map(|(t, _)| t.as_str()))
        .collect();
    let mut plans = 0;
    for input in &sample {
        let here = match woven_of(&catalog, &*local.answer, local.gate, input) {
            Woven::One(d) => serde_json::to_value(d).unwrap(),
            Woven::Plan(p) => {
                plans += 1;
                serde_json::to_value(p).unwrap()
            }
        };
        let mut there: serde_json::Value =
            serde_json::from_str(&evoke(&["try", "--json", input])).expect("a JSON line");
        // The trace times the engine's calls; everything else is the decision.
        there.as_object_mut().expect("an object").remove("trace");
        assert_eq!(here, there, "{input:?}: the bench and `evoke try --json` disagree");
    }
    let _ = std::fs::remove_dir_all(&home);
    println!(
        "{} sentences ({plans} woven into plans): the bench decides as `evoke try --json` does, line for line",
        sample.len()
    );
}

/// Every test sentence's and non-request's decision, one JSON line each: the intent (or `non-request`
/// and its kind), whether it is a plain request, whether the reflex is right, what contradicts the
/// annotation, and the decision as the command prints it.
fn outcomes(engine: &Engine, woven: bool, path: &Path) {
    use std::io::Write;
    let catalog = load_project();
    let (_, tests) = split();
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for r in decide_tests(&catalog, engine, woven, &tests) {
        let line = serde_json::json!({
            "intent": r.item.intent,
            "split": r.item.split,
            "annot_utt": r.item.annot,
            "plain": r.plain,
            "right": r.right,
            "contradicts": r.contradicts,
            "decision": r.decision,
        });
        writeln!(out, "{line}").unwrap();
    }
    for (text, kind) in non_requests() {
        let (decision, ..) = decided(&catalog, engine, woven, &text);
        writeln!(out, "{}", serde_json::json!({ "intent": "non-request", "kind": kind, "decision": decision }))
            .unwrap();
    }
    println!("written {}", path.display());
}

fn main() {
    // SAFETY: the first thing `main` does, while the process has its one thread.
    unsafe { evoke_adapters::embed::settle_thread_count() };
    let all: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    // `woven` anywhere decides as the command does; the report shows both ways without it.
    let woven = all.iter().any(|a| a == "woven");
    let args: Vec<String> = all.into_iter().filter(|a| a != "woven").collect();
    match args.first().map(String::as_str) {
        Some("project") => write_project(&args.get(1).map_or_else(project_dir, PathBuf::from)),
        Some("plain") => list_plain(args.get(1).map(String::as_str)),
        Some("check") => check(),
        Some("outcomes") => outcomes(
            &engine(args.get(1).map_or("embed", String::as_str)),
            woven,
            Path::new(args.get(2).map_or("target/home-outcomes.jsonl", String::as_str)),
        ),
        Some("misses") => misses(&engine(args.get(1).map_or("embed", String::as_str)), woven),
        which => {
            let catalog = load_project();
            let (_, tests) = split();
            let non = non_requests();
            let plain_count = tests.iter().filter(|i| plain(i)).count();
            println!(
                "MASSIVE home: {} intents, {} test sentences, {plain_count} plain requests; {} non-requests",
                INTENTS.len(),
                tests.len(),
                non.len()
            );
            println!();
            let names: Vec<&str> = match which {
                Some(name @ ("local" | "embed")) => vec![name],
                _ => vec!["local", "embed"],
            };
            for name in names {
                let engine = engine(name);
                for ways in [false, true] {
                    if !woven || ways {
                        report(&catalog, &engine, ways, &tests, &non);
                    }
                }
            }
        }
    }
}
