//! A playbook against the installed reflexes and playbooks: every refusal that can be known before a step
//! is decided, each placed at the key it concerns. A `say` step's reflex is known only once its words are
//! decided, so what depends on it (a `when` on its result, its effect) is the run's to refuse.

use super::read::{StepPlace, read_placed};
use super::{Action, MAX_STEPS, Playbook, Step};
use crate::catalog::{Catalog, Reflex};
use crate::diag::{Problem, Reading};
use crate::doc::{Doc, Sink};
use crate::manifest::{Arg, Effect, Source};
use crate::recognize::{PickKind, candidates};
use crate::text::escape_outside;

/// Reads the playbook installed as `name` and checks it against `catalog`: what [`super::read_playbook`]
/// refuses, and then each call's reflex and arguments, each `when`, the depth and the length. The value is
/// the playbook when nothing refused it.
pub fn check(file: &str, text: &str, name: &str, catalog: &Catalog) -> Reading<Playbook> {
    let doc = Doc::new(file, text);
    let mut sink = Sink::new(&doc);
    let read = read_placed(&doc, &mut sink);
    // Every step that read is checked, even beside one that did not, so that one `evoke check` reports
    // every refusal it can at its line; a step that did not read is the reading's to refuse.
    let slots = read.slots.unwrap_or_default();
    check_steps(name, &slots, &read.steps, catalog, &mut sink);
    let failed = sink.has_errors();
    Reading { value: read.playbook.filter(|_| !failed), diagnostics: sink.finish() }
}

/// The strongest effect among the playbook's steps, a called playbook's own steps counted; `Read` when it
/// has none. A `say` step counts as `Write`: its reflex is known only once its words are decided, and a
/// pick clears at most the write bar, so the playbook is consented to, listed and locked as writing at
/// least; a destructive reflex its words decide to confirms at its own turn, every time.
pub fn strongest_effect(playbook: &Playbook, catalog: &Catalog) -> Effect {
    effect_within(playbook, catalog, 1)
}

/// `depth` bounds the walk: past it a called playbook counts as the effect it was installed under.
fn effect_within(playbook: &Playbook, catalog: &Catalog, depth: usize) -> Effect {
    playbook
        .steps
        .iter()
        .map(|step| match &step.action {
            Action::Say(_) => Effect::Write,
            Action::Call { reflex, .. } => match catalog.playbook(reflex) {
                Some(inner) if depth > 0 => effect_within(inner, catalog, depth - 1),
                _ => catalog.get(reflex).map_or(Effect::Read, |r| r.manifest.effect),
            },
        })
        .max()
        .unwrap_or(Effect::Read)
}

/// `steps` as they read, `None` where a step did not; one that did not counts as one step toward the bound.
fn check_steps(name: &str, slots: &[Arg], steps: &[Option<(Step, StepPlace)>], catalog: &Catalog, sink: &mut Sink) {
    let mut in_all = 0;
    let mut over = false;
    for (index, read) in steps.iter().enumerate() {
        let number = index + 1;
        let Some((step, place)) = read else {
            in_all += 1;
            continue;
        };
        if let Action::Call { reflex, args } = &step.action {
            check_call(name, slots, number, reflex, args, step.when.is_some(), place, catalog, sink);
        }
        if let (Some(when), Some((path, span))) = (&step.when, &place.when) {
            check_when(steps, number, when, path, span, catalog, sink);
        }
        in_all += match &step.action {
            Action::Call { reflex, .. } => catalog.playbook(reflex).map_or(1, |inner| inner.steps.len()),
            Action::Say(_) => 1,
        };
        if in_all > MAX_STEPS && !over {
            over = true;
            sink.error(
                Problem::TooLong,
                &place.path,
                &place.span,
                format!("with the playbooks it calls, the playbook has {in_all} steps by step {number}; at most {MAX_STEPS} run from one sentence"),
                "leave steps out, or split the routine into two playbooks",
            );
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn check_call(
    name: &str,
    slots: &[Arg],
    number: usize,
    reflex: &str,
    args: &[(String, String)],
    has_when: bool,
    place: &StepPlace,
    catalog: &Catalog,
    sink: &mut Sink,
) {
    let call_path = place.path.child("call");
    let call_span = place.call.clone().unwrap_or_else(|| place.span.clone());
    if reflex == name {
        sink.error(
            Problem::TooDeep,
            &call_path,
            &call_span,
            format!("step {number} calls the playbook {name} itself"),
            "write the steps out, or call the reflexes they call",
        );
        return;
    }
    if catalog.get(reflex).is_none()
        && let Some(why) = catalog.inactive(reflex)
    {
        sink.error(
            Problem::NoReflex,
            &call_path,
            &call_span,
            format!(
                "step {number} calls \"{}\", which is installed but inactive: {}",
                escape_outside(reflex),
                escape_outside(why)
            ),
            &format!("make {reflex} active first (`evoke list` says why it is not), or call another"),
        );
        return;
    }
    let Some(target) = catalog.get(reflex) else {
        let names: Vec<&str> = catalog.reflexes().iter().map(|r| r.name.as_str()).filter(|n| *n != name).collect();
        let fix = if names.is_empty() {
            "install the reflex first (`evoke add`), then call it by its local name".to_string()
        } else {
            format!("call one of: {}; or install it with `evoke add`", names.join(", "))
        };
        sink.error(
            Problem::NoReflex,
            &call_path,
            &call_span,
            format!("step {number} calls \"{}\", which is no installed reflex or playbook", escape_outside(reflex)),
            &fix,
        );
        return;
    };
    if let Some(inner) = catalog.playbook(reflex) {
        let deeper = inner.steps.iter().find_map(|s| match &s.action {
            Action::Call { reflex: r, .. } if r == reflex || catalog.playbook(r).is_some() => Some(r),
            _ => None,
        });
        if let Some(deeper) = deeper {
            sink.error(
                Problem::TooDeep,
                &call_path,
                &call_span,
                format!("step {number} calls the playbook {reflex}, which itself calls the playbook {deeper}; playbooks nest one level only"),
                &format!("call the steps of {reflex} here, or have {reflex} call reflexes only"),
            );
        }
        if has_when && let Some((path, span)) = &place.when {
            sink.error(
                Problem::BranchIntoPlan,
                path,
                span,
                format!(
                    "step {number} calls the playbook {reflex} only on a condition: a plan does not branch into another"
                ),
                "call the playbook always, or call its reflexes each under the condition",
            );
        }
    }
    let manifest = &target.manifest;
    for (arg, value) in args {
        let Some((path, span)) = place.args.iter().find(|(n, _, _)| n == arg).map(|(_, p, s)| (p, s)) else {
            continue;
        };
        let Some(taken) = manifest.live_name(arg).and_then(|live| manifest.arg(live)) else {
            let names: Vec<&str> = manifest.args.iter().map(|a| a.name.as_str()).collect();
            let fix = if names.is_empty() {
                format!("{reflex} takes no argument: remove `{arg}`")
            } else {
                format!("give one of its arguments: {}", names.join(", "))
            };
            sink.error(
                Problem::UnknownArgument,
                path,
                span,
                format!("step {number} gives {reflex} `{arg}`, which is not an argument of {reflex}"),
                &fix,
            );
            continue;
        };
        if let Some((message, fix)) = refused_value(slots, target, taken, value) {
            sink.error(Problem::BadValue, path, span, format!("step {number}: {message}"), &fix);
        }
    }
    for required in manifest.args.iter().filter(|a| a.is_required()) {
        let given = args.iter().any(|(arg, _)| manifest.live_name(arg) == Some(required.name.as_str()));
        if !given {
            sink.error(
                Problem::MissingArgument,
                &call_path,
                &call_span,
                format!("step {number} calls {reflex} without `{}`, which it requires", required.name),
                &format!("give it in `args`: {} = \"…\", or a slot: {} = \"{{slot}}\"", required.name, required.name),
            );
        }
    }
}

/// Why `value` cannot be the argument's, as a message and a fix; `None` when it can.
fn refused_value(slots: &[Arg], target: &Reflex, arg: &Arg, value: &str) -> Option<(String, String)> {
    let name = &arg.name;
    if let Some(slot) = value.strip_prefix('{').and_then(|v| v.strip_suffix('}')) {
        let slot = slots.iter().find(|s| s.name == slot)?;
        if fills(&slot.source, &arg.source) {
            return None;
        }
        return Some((
            format!(
                "the slot {{{}}} takes {}, but `{name}` takes {}",
                slot.name,
                source_said(&slot.source),
                source_said(&arg.source)
            ),
            format!("declare the slot as `{name}` is declared in {}'s manifest, or give a value", target.name),
        ));
    }
    let shown = escape_outside(value);
    match &arg.source {
        Source::Options(_) => (!arg.source.option_keys().any(|k| k == value)).then(|| {
            let keys: Vec<&str> = arg.source.option_keys().collect();
            (
                format!("\"{shown}\" is not an option of `{name}`"),
                format!("give one of its option keys: {}", keys.join(", ")),
            )
        }),
        Source::Vocab(vocab) => match target.vocab_of(name) {
            Some(words) if words.find(value).is_some() => None,
            Some(_) => Some((
                format!("\"{shown}\" is not a word of the vocabulary {vocab}"),
                format!("add it to vocab/{vocab}.toml, or give a word it holds"),
            )),
            None => Some((
                format!("`{name}` takes a word of the vocabulary {vocab}, which holds no words here"),
                format!("write vocab/{vocab}.toml with the word, or give the value as a slot"),
            )),
        },
        Source::Pick(kind) => match reads_as(value, *kind) {
            Reads::No => Some((
                format!("\"{shown}\" does not read as a {kind}, which `{name}` takes"),
                format!("write the {kind} as a person would say it"),
            )),
            Reads::Yes(Some(n)) if arg.range.is_some_and(|(low, high)| n < low || n > high) => {
                let (low, high) = arg.range.unwrap_or_default();
                Some((
                    format!("\"{shown}\" is outside the range of `{name}`, {low} to {high}"),
                    "give a value within the range".into(),
                ))
            }
            Reads::Yes(_) => None,
        },
        Source::Flag => (value != "true" && value != "false").then(|| {
            (
                format!("`{name}` is a flag: \"{shown}\" is neither \"true\" nor \"false\""),
                "write \"true\" or \"false\"".into(),
            )
        }),
        Source::Takes(returned) => Some((
            format!(
                "`{name}` takes the whole result `{returned}` of an earlier step, which no value written here gives"
            ),
            format!(
                "remove `{name}`: a step of {} takes it when it refers back to a step that returns it",
                target.name
            ),
        )),
    }
}

/// Whether a slot's values are all values of the argument: the same vocabulary, the same pick kind, a
/// flag for a flag, or option keys that the argument offers every one of.
fn fills(slot: &Source, arg: &Source) -> bool {
    match (slot, arg) {
        (Source::Options(_), Source::Options(_)) => slot.option_keys().all(|k| arg.option_keys().any(|a| a == k)),
        (Source::Vocab(a), Source::Vocab(b)) => a == b,
        (Source::Pick(a), Source::Pick(b)) => a == b,
        (Source::Flag, Source::Flag) => true,
        (Source::Takes(a), Source::Takes(b)) => a == b,
        _ => false,
    }
}

fn source_said(source: &Source) -> String {
    match source {
        Source::Options(_) => format!("the options {}", source.option_keys().collect::<Vec<_>>().join(", ")),
        Source::Vocab(vocab) => format!("words of the vocabulary {vocab}"),
        Source::Pick(kind) => format!("a {kind}"),
        Source::Flag => "a flag".into(),
        Source::Takes(returned) => format!("the whole result {returned}"),
    }
}

enum Reads {
    No,
    /// It reads, with the number a range compares when it has one.
    Yes(Option<f64>),
}

/// Whether the whole of `text` reads as one value of `kind`, by the recognizer a sentence is read with.
/// Any text is a `text`.
fn reads_as(text: &str, kind: PickKind) -> Reads {
    if kind == PickKind::Text {
        return Reads::Yes(None);
    }
    let length = text.chars().count();
    candidates(text, kind)
        .into_iter()
        .find(|c| c.span.start == 0 && c.span.end == length)
        .map_or(Reads::No, |c| Reads::Yes(c.value.comparable()))
}

fn check_when(
    steps: &[Option<(Step, StepPlace)>],
    number: usize,
    when: &super::When,
    path: &crate::doc::KeyPath,
    span: &std::ops::Range<usize>,
    catalog: &Catalog,
    sink: &mut Sink,
) {
    // A source that did not read is the reading's to refuse.
    let Some(Some((source, _))) = steps.get(when.step.wrapping_sub(1)) else { return };
    if source.when.is_some() {
        sink.error(
            Problem::MaybeSource,
            path,
            span,
            format!("step {number} waits on step {}, which may not run itself", when.step),
            "wait on a step that always runs, or give this step the same condition as that one",
        );
    }
    // Words are decided when the plan is made: which reflex, and so which fields, is known only then.
    let Action::Call { reflex, .. } = &source.action else { return };
    let Some(target) = catalog.get(reflex) else { return };
    let field = &when.field;
    if catalog.playbook(reflex).is_some() {
        sink.error(
            Problem::NoField,
            path,
            span,
            format!("step {number} waits on `{field}` of step {}, a playbook, whose result has no fields", when.step),
            "wait on a step that calls a reflex declaring the field under [yields]",
        );
        return;
    }
    let Some(declared) = target.manifest.yields.iter().find(|y| &y.field == field) else {
        let fields: Vec<&str> = target.manifest.yields.iter().map(|y| y.field.as_str()).collect();
        let fix = if fields.is_empty() {
            format!("{reflex} declares no [yields]: its result cannot decide a step")
        } else {
            format!("name one of the fields {reflex} yields: {}", fields.join(", "))
        };
        sink.error(
            Problem::NoField,
            path,
            span,
            format!("step {number} waits on `{field}`, which {reflex} (step {}) does not yield", when.step),
            &fix,
        );
        return;
    };
    if let Reads::No = reads_as(&when.is, declared.kind) {
        sink.error(
            Problem::BadValue,
            path,
            span,
            format!(
                "step {number} waits on `{field}` being \"{}\", which a {} cannot be",
                escape_outside(&when.is),
                declared.kind
            ),
            &format!("write a {} as `is`", declared.kind),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::read_manifest;
    use crate::playbook::read_playbook;
    use crate::vocab::read_vocab;
    use std::collections::BTreeMap;

    const LIGHTS: &str = r#"reflex = 1
description = "Turn the lights in one room on or off."
effect = "write"
confirm = "Set the {room} lights {state}?"
run = ["hue", "{room}", "{state}"]
[args.room]
ask = "Which room?"
vocab = "rooms"
[args.state]
ask = "On or off?"
options.on = "Switch on."
options.off = "Switch off."
[args.brightness]
ask = "How bright?"
pick = "number"
range = [1, 100]
optional = true
[args.fade]
ask = "Fade?"
flag = true
was = ["slow"]
"#;

    const STATUS: &str = r#"reflex = 1
description = "Say whether the lights are on and how bright."
effect = "read"
confirm = "Look?"
run = ["hue", "status"]
[yields.state]
kind = "text"
[yields.level]
kind = "number"
"#;

    const WIPE: &str = r#"reflex = 1
description = "Erase the history."
confirm = "Erase it?"
run = ["wipe"]
"#;

    fn reflex(name: &str, manifest: &str) -> Reflex {
        let manifest = read_manifest("reflex.toml", manifest, &|_: &str| false).value.expect("the manifest reads");
        let rooms = read_vocab("rooms", "vocab/rooms.toml", "den = \"The den\"\noffice = \"The office\"\n");
        let vocabs = BTreeMap::from([("rooms".to_string(), rooms.value.expect("the vocabulary reads"))]);
        Reflex { name: name.into(), manifest, vocabs }
    }

    /// lights, status and wipe installed, and the playbooks given, each by its text.
    fn catalog(playbooks: &[(&str, &str)]) -> Catalog {
        let reflexes = vec![reflex("lights", LIGHTS), reflex("status", STATUS), reflex("wipe", WIPE)];
        let base = Catalog::new(reflexes.clone());
        let playbooks = playbooks
            .iter()
            .map(|(name, text)| {
                let playbook = read_playbook("playbook.toml", text).value.expect("the playbook reads");
                let effect = strongest_effect(&playbook, &base);
                (playbook.as_reflex(name, effect, BTreeMap::new()), playbook)
            })
            .collect();
        Catalog::new(reflexes).with_playbooks(playbooks)
    }

    const HEAD: &str = "playbook = 1\ndescription = \"Wind down\"\n[slots.room]\nask = \"Which room?\"\nvocab = \"rooms\"\noptional = true\n";

    /// Every error as (problem, key, line).
    fn errors(text: &str, catalog: &Catalog) -> Vec<(String, String, usize)> {
        let reading = check("playbook.toml", text, "night", catalog);
        assert_eq!(reading.value.is_some(), reading.first_error().is_none());
        reading
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| (d.problem.as_str().to_string(), d.key.clone(), d.place.line))
            .collect()
    }

    fn one(problem: &str, key: &str, line: usize) -> Vec<(String, String, usize)> {
        vec![(problem.to_string(), key.to_string(), line)]
    }

    #[test]
    fn a_sound_playbook_checks_clean() {
        let text = format!(
            "{HEAD}[[steps]]\ncall = \"status\"\n[[steps]]\ncall = \"lights\"\nargs = {{ room = \"{{room}}\", state = \"off\", brightness = \"20\", slow = \"true\" }}\nwhen = {{ step = 1, field = \"state\", is = \"on\" }}\n[[steps]]\nsay = \"good night {{room}}\"\n"
        );
        let reading = check("playbook.toml", &text, "night", &catalog(&[]));
        assert!(reading.diagnostics.is_empty(), "{:?}", reading.diagnostics);
        assert_eq!(reading.value.expect("it checks").steps.len(), 3);
    }

    #[test]
    fn a_call_of_nothing_installed_names_what_is() {
        let text = format!("{HEAD}[[steps]]\ncall = \"lamp\"\n");
        let reading = check("playbook.toml", &text, "night", &catalog(&[]));
        let d = reading.first_error().expect("refused");
        assert_eq!((d.problem.as_str(), d.key.as_str(), d.place.line), ("no_reflex", "steps.1.call", 8));
        assert_eq!(d.fix.as_deref(), Some("call one of: lights, status, wipe; or install it with `evoke add`"));
    }

    #[test]
    fn a_call_of_an_inactive_name_says_it_is_inactive_and_why() {
        let cat = catalog(&[]).with_inactive(vec![("evening".into(), "it calls the playbook night".into())]);
        let text = format!("{HEAD}[[steps]]\ncall = \"evening\"\n");
        let reading = check("playbook.toml", &text, "night", &cat);
        let d = reading.first_error().expect("refused");
        assert_eq!((d.problem.as_str(), d.key.as_str(), d.place.line), ("no_reflex", "steps.1.call", 8));
        assert_eq!(d.message, "step 1 calls \"evening\", which is installed but inactive: it calls the playbook night");
        assert!(d.fix.as_deref().is_some_and(|f| f.starts_with("make evening active first")), "{:?}", d.fix);
    }

    #[test]
    fn each_argument_is_one_the_reflex_takes_with_a_value_it_can_hold() {
        let cat = catalog(&[]);
        let step = |args: &str| format!("{HEAD}[[steps]]\ncall = \"lights\"\nargs = {{ {args} }}\n");
        assert_eq!(
            errors(&step("room = \"den\", state = \"on\", colour = \"red\""), &cat),
            one("unknown_argument", "steps.1.args.colour", 9)
        );
        assert_eq!(errors(&step("room = \"den\""), &cat), one("missing_argument", "steps.1.call", 8));
        for (args, key) in [
            ("room = \"den\", state = \"dim\"", "state"),
            ("room = \"attic\", state = \"on\"", "room"),
            ("room = \"den\", state = \"on\", brightness = \"bright\"", "brightness"),
            ("room = \"den\", state = \"on\", brightness = \"200\"", "brightness"),
            ("room = \"den\", state = \"on\", fade = \"yes\"", "fade"),
            ("room = \"den\", state = \"{room}\"", "state"),
        ] {
            assert_eq!(errors(&step(args), &cat), one("bad_value", &format!("steps.1.args.{key}"), 9), "{args}");
        }
        // A word under identity, a number as said, and a slot of the same vocabulary all fill.
        assert!(errors(&step("room = \"Den\", state = \"on\", brightness = \"forty\""), &cat).is_empty());
        assert!(errors(&step("room = \"{room}\", state = \"off\""), &cat).is_empty());
    }

    #[test]
    fn a_slot_of_options_fills_an_argument_offering_every_one_of_them() {
        let cat = catalog(&[]);
        let slot = |options: &str| {
            format!(
                "playbook = 1\ndescription = \"x\"\n[slots.s]\nask = \"?\"\n{options}\n[[steps]]\ncall = \"lights\"\nargs = {{ room = \"den\", state = \"{{s}}\" }}\n"
            )
        };
        assert!(errors(&slot("options.on = \"On.\""), &cat).is_empty());
        assert_eq!(
            errors(&slot("options.on = \"On.\"\noptions.dim = \"Dim.\""), &cat),
            one("bad_value", "steps.1.args.state", 9)
        );
    }

    #[test]
    fn when_needs_a_field_the_step_yields_and_a_value_it_can_hold() {
        let cat = catalog(&[]);
        let when = |field: &str, is: &str| {
            format!(
                "{HEAD}[[steps]]\ncall = \"status\"\n[[steps]]\ncall = \"wipe\"\nwhen = {{ step = 1, field = \"{field}\", is = \"{is}\" }}\n"
            )
        };
        assert!(errors(&when("level", "40"), &cat).is_empty());
        assert_eq!(errors(&when("colour", "red"), &cat), one("no_field", "steps.2.when", 11));
        assert_eq!(errors(&when("level", "loud"), &cat), one("bad_value", "steps.2.when", 11));
        let of_lights = format!(
            "{HEAD}[[steps]]\ncall = \"lights\"\nargs = {{ room = \"den\", state = \"on\" }}\n[[steps]]\ncall = \"wipe\"\nwhen = {{ step = 1, field = \"state\", is = \"on\" }}\n"
        );
        assert_eq!(errors(&of_lights, &cat), one("no_field", "steps.2.when", 12));
    }

    #[test]
    fn every_step_that_read_is_checked_beside_one_that_did_not() {
        let text = format!(
            "{HEAD}[[steps]]\ncall = \"lights\"\nargs = {{ room = \"den\", state = \"on\", colour = \"red\" }}\n[[steps]]\nsay = \"a\"\ncall = \"wipe\"\n[[steps]]\ncall = \"status\"\n[[steps]]\ncall = \"wipe\"\nwhen = {{ step = 3, field = \"colour\", is = \"red\" }}\n"
        );
        assert_eq!(
            errors(&text, &catalog(&[])),
            [
                ("unknown_argument".to_string(), "steps.1.args.colour".to_string(), 9),
                ("bad_step".to_string(), "steps.2.call".to_string(), 12),
                ("no_field".to_string(), "steps.4.when".to_string(), 17),
            ]
        );
    }

    #[test]
    fn a_step_that_may_not_run_feeds_no_later_one() {
        let text = format!(
            "{HEAD}[[steps]]\ncall = \"status\"\n[[steps]]\ncall = \"status\"\nwhen = {{ step = 1, field = \"state\", is = \"on\" }}\n[[steps]]\ncall = \"wipe\"\nwhen = {{ step = 2, field = \"state\", is = \"on\" }}\n"
        );
        assert_eq!(errors(&text, &catalog(&[])), one("maybe_source", "steps.3.when", 14));
    }

    const EVENING: &str = "playbook = 1\ndescription = \"Evening\"\n[[steps]]\ncall = \"lights\"\nargs = { room = \"den\", state = \"on\" }\n[[steps]]\ncall = \"wipe\"\n";

    #[test]
    fn a_playbook_is_called_always_and_one_level_deep() {
        let deep = "playbook = 1\ndescription = \"Deep\"\n[[steps]]\ncall = \"evening\"\n";
        let cat = catalog(&[("evening", EVENING), ("deep", deep)]);
        let text = |call: &str| format!("{HEAD}[[steps]]\ncall = \"status\"\n[[steps]]\ncall = \"{call}\"\n");
        assert!(errors(&text("evening"), &cat).is_empty());
        assert_eq!(errors(&text("deep"), &cat), one("too_deep", "steps.2.call", 10));
        assert_eq!(errors(&text("night"), &cat), one("too_deep", "steps.2.call", 10));
        let branch = format!("{}when = {{ step = 1, field = \"state\", is = \"on\" }}\n", text("evening"));
        assert_eq!(errors(&branch, &cat), one("branch_into_plan", "steps.2.when", 11));
        let after = format!(
            "{}[[steps]]\ncall = \"wipe\"\nwhen = {{ step = 2, field = \"done\", is = \"yes\" }}\n",
            text("evening")
        );
        assert_eq!(errors(&after, &cat), one("no_field", "steps.3.when", 13));
    }

    #[test]
    fn a_called_playbook_s_steps_count_toward_the_bound() {
        let cat = catalog(&[("evening", EVENING)]);
        let mut text = HEAD.to_string();
        for _ in 0..MAX_STEPS - 2 {
            text.push_str("[[steps]]\nsay = \"a\"\n");
        }
        text.push_str("[[steps]]\ncall = \"evening\"\n");
        assert!(errors(&text, &cat).is_empty(), "{} steps in all", MAX_STEPS);
        text.push_str("[[steps]]\nsay = \"b\"\n");
        let line = 7 + 2 * (MAX_STEPS - 1);
        assert_eq!(errors(&text, &cat), one("too_long", &format!("steps.{MAX_STEPS}"), line));
    }

    #[test]
    fn the_strongest_effect_counts_words_as_a_write_and_a_called_playbook_s_calls() {
        let cat = catalog(&[("evening", EVENING)]);
        let effect = |steps: &str| {
            let playbook =
                read_playbook("p.toml", &format!("playbook = 1\ndescription = \"x\"\n{steps}")).value.unwrap();
            strongest_effect(&playbook, &cat)
        };
        // Words count as a write before they are decided: a say step is never "at most read".
        assert_eq!(effect("[[steps]]\nsay = \"erase everything\"\n"), Effect::Write);
        assert_eq!(effect("[[steps]]\ncall = \"status\"\n[[steps]]\nsay = \"look\"\n"), Effect::Write);
        assert_eq!(effect("[[steps]]\ncall = \"status\"\n"), Effect::Read);
        assert_eq!(effect("[[steps]]\ncall = \"status\"\n[[steps]]\ncall = \"lights\"\n"), Effect::Write);
        assert_eq!(effect("[[steps]]\ncall = \"status\"\n[[steps]]\ncall = \"evening\"\n"), Effect::Destructive);
    }
}
