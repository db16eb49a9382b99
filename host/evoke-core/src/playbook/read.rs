//! Reading `playbook.toml` into a [`Playbook`], with every refusal and warning placed. What a file says
//! on its own is judged here; what needs the installed reflexes is [`super::check`]'s.

use super::{Action, MAX_STEPS, Playbook, Step, When};
use crate::decide::MAX_INPUT_CHARS;
use crate::diag::{Problem, Reading};
use crate::doc::{Doc, Entry, KeyPath, Sink, TableReader, number_of};
use crate::manifest::Arg;
use crate::manifest::placeholders;
use crate::manifest::read::{read_args, read_description};
use crate::manifest::records::{Author, Seen, read_records};
use crate::text::{escape_outside, is_name, is_sentinel};
use std::ops::Range;
use toml::de::DeValue;

/// Reads a playbook. `file` is the path shown in diagnostics.
pub fn read_playbook(file: &str, text: &str) -> Reading<Playbook> {
    let doc = Doc::new(file, text);
    let mut sink = Sink::new(&doc);
    let playbook = read_placed(&doc, &mut sink).playbook;
    let failed = sink.has_errors();
    Reading { value: playbook.filter(|_| !failed), diagnostics: sink.finish() }
}

/// Where a step's keys are written, so that a refusal found against the installed reflexes is placed
/// at the key it concerns.
#[derive(Debug, Clone)]
pub(crate) struct StepPlace {
    /// `steps.<n>`, the step counted from 1 as `when.step` counts it.
    pub path: KeyPath,
    /// The step's table.
    pub span: Range<usize>,
    /// `call`, when the step calls.
    pub call: Option<Range<usize>>,
    /// Each argument of a call by name, with its key.
    pub args: Vec<(String, KeyPath, Range<usize>)>,
    /// `when`, when the step has one.
    pub when: Option<(KeyPath, Range<usize>)>,
}

/// A playbook as far as it read: the whole, and the parts a check can judge even when another part did
/// not read, so that every refusal is reported at once.
#[derive(Debug, Default)]
pub(crate) struct Placed {
    /// The playbook, when every part of it read; with errors in the sink it is not one to use.
    pub playbook: Option<Playbook>,
    /// The slots, when they read.
    pub slots: Option<Vec<Arg>>,
    /// Each step in order, `None` where it did not read, with where it is written.
    pub steps: Vec<Option<(Step, StepPlace)>>,
}

/// Reads the playbook into `sink`, with where each step is written.
pub(crate) fn read_placed(doc: &Doc, sink: &mut Sink) -> Placed {
    let root = match doc.parse() {
        Ok(root) => root,
        Err(fault) => {
            sink.diagnostics.push(fault);
            return Placed::default();
        }
    };
    let mut top = TableReader::new(root.get_ref(), KeyPath::root(), 0..0);
    let read = read_top(&mut top, sink);
    top.finish(sink);
    read
}

fn read_top(top: &mut TableReader, sink: &mut Sink) -> Placed {
    match top.get("playbook") {
        None => top.missing(sink, "playbook", "add `playbook = 1` as the first line"),
        Some(entry) => {
            if !matches!(entry.value.get_ref(), DeValue::Integer(_)) || number_of(entry.value.get_ref()) != Some(1.0) {
                sink.error(
                    Problem::BadVersion,
                    &entry.path,
                    &entry.key_span,
                    "this evoke reads `playbook = 1` playbooks only".into(),
                    "write `playbook = 1`",
                );
            }
        }
    }
    let description = match top.get("description") {
        Some(e) => read_description(&e, sink),
        None => {
            top.missing(sink, "description", "describe what the playbook does: `description = \"…\"`");
            None
        }
    };
    let not_for = top.get("not_for").map_or(Some(Vec::new()), |e| e.texts(sink));
    let slots = top.get("slots").map_or(Some(Vec::new()), |e| read_args(&e, sink));
    // Records and placeholders are checked against the slots; with slots that did not read, checking would
    // only add echoes of the same fault.
    let slots_read = slots.is_some();
    let slot_list = slots.clone().unwrap_or_default();
    let mut seen = Seen::new();
    let examples = top
        .get("examples")
        .map_or(Some(Vec::new()), |e| read_records(&e, &slot_list, Author::Playbook, &mut seen, sink));
    let steps = match top.get("steps") {
        Some(e) => read_steps(&e, &slot_list, slots_read, sink),
        None => {
            top.missing(sink, "steps", "write each step under [[steps]]: `say = \"…\"` or `call = \"reflex\"`");
            None
        }
    };
    let steps = steps.unwrap_or_default();
    let whole: Option<Vec<Step>> =
        if steps.is_empty() { None } else { steps.iter().map(|s| s.as_ref().map(|(step, _)| step.clone())).collect() };
    let playbook = (|| {
        Some(Playbook {
            description: description?,
            not_for: not_for?,
            slots: slots.clone()?,
            examples: examples?,
            steps: whole?,
        })
    })();
    Placed { playbook, slots, steps }
}

/// Each step as it read, `None` where it did not; `None` for the whole when `steps` is no list of steps or
/// is too long (a step past the bound is no step of the playbook).
fn read_steps(
    entry: &Entry,
    slots: &[Arg],
    check_names: bool,
    sink: &mut Sink,
) -> Option<Vec<Option<(Step, StepPlace)>>> {
    let DeValue::Array(items) = entry.value.get_ref() else {
        entry.wrong_type(sink, "an array of tables", "write each step under its own [[steps]] header");
        return None;
    };
    if items.is_empty() {
        sink.error(
            Problem::Empty,
            &entry.path,
            &entry.key_span,
            "the playbook has no step".into(),
            "write at least one step under [[steps]]",
        );
        return None;
    }
    let mut steps = Vec::new();
    let mut ok = true;
    for (index, item) in items.iter().enumerate() {
        let number = index + 1;
        let step =
            Entry { name: "steps", path: entry.path.child(&number.to_string()), key_span: item.span(), value: item };
        if number == MAX_STEPS + 1 {
            sink.error(
                Problem::TooLong,
                &step.path,
                &step.key_span,
                format!("the playbook has {} steps; a playbook has at most {MAX_STEPS}", items.len()),
                "split the routine into two playbooks, or leave steps out",
            );
            ok = false;
        }
        steps.push(read_step(&step, number, slots, check_names, sink));
    }
    ok.then_some(steps)
}

fn read_step(
    entry: &Entry,
    number: usize,
    slots: &[Arg],
    check_names: bool,
    sink: &mut Sink,
) -> Option<(Step, StepPlace)> {
    let mut table = entry.table(sink)?;
    let say = table.get("say");
    let call = table.get("call");
    let args = table.get("args");
    let when = table.get("when");
    let mut place = StepPlace {
        path: entry.path.clone(),
        span: entry.key_span.clone(),
        call: call.as_ref().map(|c| c.key_span.clone()),
        args: Vec::new(),
        when: when.as_ref().map(|w| (w.path.clone(), w.key_span.clone())),
    };
    let action = match (&say, &call) {
        (Some(say), None) => {
            if let Some(args) = &args {
                sink.error(
                    Problem::BadStep,
                    &args.path,
                    &args.key_span,
                    format!("step {number} says words: `args` belongs to a step that calls"),
                    "write the values into the words, or make the step `call = \"reflex\"` with `args`",
                );
                None
            } else {
                read_say(say, slots, check_names, sink).map(Action::Say)
            }
        }
        (None, Some(call)) => {
            let reflex = read_call(call, sink);
            let args = match &args {
                Some(args) => read_call_args(args, slots, check_names, &mut place, sink),
                None => Some(Vec::new()),
            };
            Some(Action::Call { reflex: reflex?, args: args? })
        }
        (Some(_), Some(call)) => {
            sink.error(
                Problem::BadStep,
                &call.path,
                &call.key_span,
                format!("step {number} both says words and calls a reflex"),
                "keep one of `say` and `call`; write the other as a step of its own",
            );
            None
        }
        (None, None) => {
            sink.error(
                Problem::BadStep,
                &entry.path,
                &entry.key_span,
                format!("step {number} neither says words nor calls a reflex"),
                "write `say = \"…\"` or `call = \"reflex\"` in the step",
            );
            None
        }
    };
    let when = match &when {
        Some(when) => read_when(when, number, sink).map(Some),
        None => Some(None),
    };
    table.finish(sink);
    Some((Step { action: action?, when: when? }, place))
}

/// `say`: one line of words whose every `{name}` is a slot.
fn read_say(entry: &Entry, slots: &[Arg], check_names: bool, sink: &mut Sink) -> Option<String> {
    let words = entry.nonempty_text(sink, false)?;
    // The words are decided as a typed sentence is, under the same bound: past it every run would fail.
    let length = words.chars().count();
    if length > MAX_INPUT_CHARS {
        sink.error(
            Problem::TooLong,
            &entry.path,
            &entry.key_span,
            format!("the words are {length} characters; a sentence is at most {MAX_INPUT_CHARS}"),
            "say the step in one sentence, or split it into two steps",
        );
        return None;
    }
    let Ok(found) = placeholders(&words) else {
        sink.error(
            Problem::BadPlaceholder,
            &entry.path,
            &entry.key_span,
            "the words have a brace that does not make a whole `{slot}`".into(),
            "write each slot as {name}; a literal brace cannot appear in a step's words",
        );
        return None;
    };
    let mut ok = true;
    for placeholder in found {
        if check_names && !slots.iter().any(|s| s.name == placeholder.name) {
            unknown_slot(entry, &placeholder.name, slots, sink);
            ok = false;
        }
    }
    ok.then_some(words)
}

fn unknown_slot(entry: &Entry, name: &str, slots: &[Arg], sink: &mut Sink) {
    let names: Vec<&str> = slots.iter().map(|s| s.name.as_str()).collect();
    let fix = if names.is_empty() {
        format!("declare it under [slots.{name}], or remove the placeholder")
    } else {
        format!("name one of the slots ({}), or declare it under [slots.NAME]", names.join(", "))
    };
    sink.error(
        Problem::UnknownPlaceholder,
        &entry.path,
        &entry.key_span,
        format!("`{}` names {{{}}}, which is not a slot of the playbook", entry.path, escape_outside(name)),
        &fix,
    );
}

/// `call`: a local name, as `evoke.toml` names reflexes and playbooks.
fn read_call(entry: &Entry, sink: &mut Sink) -> Option<String> {
    let name = entry.text(sink, false)?;
    if !is_name(&name) || is_sentinel(&name) {
        sink.error(
            Problem::BadName,
            &entry.path,
            &entry.key_span,
            format!("\"{}\" is not a local name", escape_outside(&name)),
            "call a reflex or playbook by the name `evoke.toml` installs it under: [a-z][a-z0-9_]*",
        );
        return None;
    }
    Some(name)
}

/// `args`: each argument's value as text, an option key, a vocabulary word or a pick's words, or exactly
/// one `{slot}` handing the slot's value on.
fn read_call_args(
    entry: &Entry,
    slots: &[Arg],
    check_names: bool,
    place: &mut StepPlace,
    sink: &mut Sink,
) -> Option<Vec<(String, String)>> {
    let mut table = entry.table(sink)?;
    let mut args = Vec::new();
    let mut ok = true;
    for arg in table.entries() {
        place.args.push((arg.name.to_string(), arg.path.clone(), arg.key_span.clone()));
        if !is_name(arg.name) {
            sink.error(
                Problem::BadName,
                &arg.path,
                &arg.key_span,
                format!("the argument \"{}\" is not a name", escape_outside(arg.name)),
                "name the reflex's argument as its manifest does: [a-z][a-z0-9_]*",
            );
            ok = false;
            continue;
        }
        let Some(value) = arg.nonempty_text(sink, false) else {
            ok = false;
            continue;
        };
        if value.contains(['{', '}']) {
            let whole = value.strip_prefix('{').and_then(|v| v.strip_suffix('}')).filter(|n| !n.contains(['{', '}']));
            match whole {
                None => {
                    // A slot written inside other words is the likely slip: name it, and the value it means.
                    let inner =
                        placeholders(&value).ok().and_then(|found| found.into_iter().find(|p| is_name(&p.name)));
                    let shown = escape_outside(&value);
                    let (message, fix) = match inner {
                        Some(slot) => (
                            format!(
                                "\"{shown}\" puts the slot {{{}}} inside other words; a slot must be the whole value",
                                escape_outside(&slot.name)
                            ),
                            format!(
                                "give the slot alone, `{} = \"{{{}}}\"`, or a value with no brace",
                                arg.name, slot.name
                            ),
                        ),
                        None => (
                            format!("\"{shown}\" holds a brace that makes no slot"),
                            format!(
                                "give a value with no brace, or a slot as the whole value: `{} = \"{{slot}}\"`",
                                arg.name
                            ),
                        ),
                    };
                    sink.error(Problem::BadPlaceholder, &arg.path, &arg.key_span, message, &fix);
                    ok = false;
                    continue;
                }
                Some(name) if check_names && !slots.iter().any(|s| s.name == name) => {
                    unknown_slot(&arg, name, slots, sink);
                    ok = false;
                    continue;
                }
                Some(_) => {}
            }
        }
        args.push((arg.name.to_string(), value));
    }
    table.finish(sink);
    ok.then_some(args)
}

/// `when = { step, field, is }`: `step` an earlier step, counted from 1.
fn read_when(entry: &Entry, number: usize, sink: &mut Sink) -> Option<When> {
    let mut table = entry.table(sink)?;
    let step = match table.get("step") {
        Some(e) => {
            let n = match e.value.get_ref() {
                DeValue::Integer(_) => number_of(e.value.get_ref()),
                _ => None,
            };
            match n {
                Some(n) if n >= 1.0 && (n as usize) < number => Some(n as usize),
                _ => {
                    let said = match e.value.get_ref() {
                        DeValue::Integer(i) => i.as_str().to_string(),
                        other => crate::doc::kind_of(other).to_string(),
                    };
                    let fix = if number == 1 {
                        "the first step runs always: remove `when`, or move the step after the one it waits on"
                            .to_string()
                    } else {
                        format!("name an earlier step by its number, 1 to {}", number - 1)
                    };
                    sink.error(
                        Problem::BadWhen,
                        &entry.path,
                        &entry.key_span,
                        format!("step {number} waits on step {said}, which is not an earlier step"),
                        &fix,
                    );
                    None
                }
            }
        }
        None => {
            table.missing(sink, "step", "name the earlier step whose result decides: { step = 1, field, is }");
            None
        }
    };
    let field = match table.get("field") {
        Some(e) => e.text(sink, false).and_then(|f| {
            if is_name(&f) {
                Some(f)
            } else {
                sink.error(
                    Problem::BadName,
                    &e.path,
                    &e.key_span,
                    format!("the field \"{}\" is not a name", escape_outside(&f)),
                    "name a field the step's reflex declares under [yields]",
                );
                None
            }
        }),
        None => {
            table.missing(sink, "field", "name the field of the step's result: { step, field = \"state\", is }");
            None
        }
    };
    let is = match table.get("is") {
        Some(e) => e.nonempty_text(sink, false),
        None => {
            table.missing(sink, "is", "give the value the field must hold: { step, field, is = \"on\" }");
            None
        }
    };
    table.finish(sink);
    Some(When { step: step?, field: field?, is: is? })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::{Asserted, Record, Source};

    const GOOD_NIGHT: &str = r#"playbook = 1
description = "Wind the house down for the night"
not_for = ["a single light"]

[slots.room]
ask = "Which room?"
vocab = "rooms"
optional = true

[examples]
"good night" = true
"good night in the den" = { room = "den" }

[[steps]]
say = "turn off the lights in the {room}"

[[steps]]
call = "volume"
args = { level = "10" }

[[steps]]
call = "lights"
args = { room = "den", state = "off" }
when = { step = 1, field = "state", is = "on" }
"#;

    #[test]
    fn a_whole_playbook_reads() {
        let reading = read_playbook("playbooks/good_night/playbook.toml", GOOD_NIGHT);
        assert!(reading.diagnostics.is_empty(), "{:?}", reading.diagnostics);
        let playbook = reading.value.expect("it reads");
        assert_eq!(playbook.description, "Wind the house down for the night");
        assert_eq!(playbook.not_for, ["a single light"]);
        assert_eq!(playbook.slots.len(), 1);
        assert_eq!(playbook.slots[0].name, "room");
        assert_eq!(playbook.slots[0].source, Source::Vocab("rooms".into()));
        assert!(playbook.slots[0].optional);
        assert_eq!(
            playbook.examples,
            [
                Record { utterance: "good night".into(), asserts: Some(vec![]) },
                Record {
                    utterance: "good night in the den".into(),
                    asserts: Some(vec![("room".into(), Asserted::Text("den".into()))])
                },
            ]
        );
        assert_eq!(
            playbook.steps,
            [
                Step { action: Action::Say("turn off the lights in the {room}".into()), when: None },
                Step {
                    action: Action::Call { reflex: "volume".into(), args: vec![("level".into(), "10".into())] },
                    when: None
                },
                Step {
                    action: Action::Call {
                        reflex: "lights".into(),
                        args: vec![("room".into(), "den".into()), ("state".into(), "off".into())]
                    },
                    when: Some(When { step: 1, field: "state".into(), is: "on".into() }),
                },
            ]
        );
    }

    fn first(text: &str) -> (String, String, usize) {
        let reading = read_playbook("playbook.toml", text);
        assert!(reading.value.is_none(), "{text} should be refused");
        let d = reading.first_error().expect("an error");
        (d.problem.as_str().to_string(), d.key.clone(), d.place.line)
    }

    const HEAD: &str = "playbook = 1\ndescription = \"Wind down\"\n";

    #[test]
    fn each_step_is_placed_by_its_number() {
        let text = format!("{HEAD}[[steps]]\nsay = \"a\"\n[[steps]]\nsay = \"b {{room}}\"\n");
        assert_eq!(first(&text), ("unknown_placeholder".into(), "steps.2.say".into(), 6));
    }

    #[test]
    fn a_step_is_words_or_a_call() {
        assert_eq!(
            first(&format!("{HEAD}[[steps]]\nwhen = {{ step = 1, field = \"a\", is = \"b\" }}\n")).0,
            "bad_step"
        );
        let both = format!("{HEAD}[[steps]]\nsay = \"a\"\ncall = \"lights\"\n");
        assert_eq!(first(&both), ("bad_step".into(), "steps.1.call".into(), 5));
        let args = format!("{HEAD}[[steps]]\nsay = \"a\"\nargs = {{ room = \"den\" }}\n");
        assert_eq!(first(&args), ("bad_step".into(), "steps.1.args".into(), 5));
    }

    #[test]
    fn when_names_an_earlier_step() {
        for step in ["2", "0", "-1", "\"1\"", "1.0"] {
            let text = format!(
                "{HEAD}[[steps]]\nsay = \"a\"\n[[steps]]\nsay = \"b\"\nwhen = {{ step = {step}, field = \"x\", is = \"y\" }}\n"
            );
            assert_eq!(first(&text), ("bad_when".into(), "steps.2.when".into(), 7), "step = {step}");
        }
    }

    #[test]
    fn an_argument_is_a_value_or_one_whole_slot() {
        let slot = "[slots.room]\nask = \"Which room?\"\nvocab = \"rooms\"\n";
        let text = |value: &str| format!("{HEAD}{slot}[[steps]]\ncall = \"lights\"\nargs = {{ room = \"{value}\" }}\n");
        assert!(read_playbook("p.toml", &text("{room}")).value.is_some());
        assert_eq!(first(&text("the {room}")), ("bad_placeholder".into(), "steps.1.args.room".into(), 8));
        // Each says what a slot must be, and the value it likely means.
        let said = |value: &str| {
            let d = read_playbook("p.toml", &text(value)).first_error().cloned().expect("refused");
            (d.message, d.fix.unwrap_or_default())
        };
        let (message, fix) = said("x{room}");
        assert_eq!(message, "\"x{room}\" puts the slot {room} inside other words; a slot must be the whole value");
        assert_eq!(fix, "give the slot alone, `room = \"{room}\"`, or a value with no brace");
        let (message, fix) = said("x{");
        assert_eq!(message, "\"x{\" holds a brace that makes no slot");
        assert_eq!(fix, "give a value with no brace, or a slot as the whole value: `room = \"{slot}\"`");
        assert_eq!(first(&text("{place}")), ("unknown_placeholder".into(), "steps.1.args.room".into(), 8));
    }

    #[test]
    fn too_many_steps_are_refused_at_the_first_one_over() {
        let mut text = HEAD.to_string();
        for n in 0..=MAX_STEPS {
            text.push_str(&format!("[[steps]]\nsay = \"step {n}\"\n"));
        }
        let (problem, key, line) = first(&text);
        assert_eq!((problem.as_str(), key.as_str()), ("too_long", "steps.17"));
        assert_eq!(line, 3 + 2 * MAX_STEPS);
        text.truncate(text.rfind("[[steps]]").unwrap());
        assert!(read_playbook("p.toml", &text).value.is_some(), "{MAX_STEPS} steps read");
    }

    #[test]
    fn the_version_the_steps_and_clean_text_are_required() {
        assert_eq!(first("playbook = 2\ndescription = \"x\"\n[[steps]]\nsay = \"a\"\n").0, "bad_version");
        assert_eq!(first(HEAD), ("missing_key".into(), "steps".into(), 1));
        assert_eq!(first(&format!("{HEAD}steps = []\n")).0, "empty");
        assert_eq!(first(&format!("{HEAD}[[steps]]\nsay = \"a\\u202Eb\"\n")).0, "bidi_control");
        assert_eq!(first(&format!("{HEAD}[[steps]]\ncall = \"Lights\"\n")).0, "bad_name");
    }

    #[test]
    fn a_step_s_words_are_at_most_a_sentence_long() {
        let words = |n: usize| format!("{HEAD}[[steps]]\nsay = \"{}\"\n", "a".repeat(n));
        assert!(read_playbook("p.toml", &words(MAX_INPUT_CHARS)).value.is_some());
        assert_eq!(first(&words(MAX_INPUT_CHARS + 1)), ("too_long".into(), "steps.1.say".into(), 4));
    }

    #[test]
    fn an_unknown_key_warns_and_the_playbook_still_reads() {
        let reading = read_playbook("p.toml", &format!("{HEAD}[[steps]]\nsay = \"a\"\nwait = 3\n"));
        assert!(reading.value.is_some());
        let warnings: Vec<_> = reading.warnings().map(|w| (w.problem.as_str(), w.key.as_str(), w.place.line)).collect();
        assert_eq!(warnings, [("unknown_key", "steps.1.wait", 5)]);
    }
}
