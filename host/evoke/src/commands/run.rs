//! `evoke run NAME key=value…`: a call by name. Nothing is decided, but every value is checked against
//! the same sources and ranges as a decision's, and a destructive call still confirms. `evoke run FILE`
//! runs a plan file (over the runner, `crate::runner`).

use crate::body::{self, interrupted};
use crate::context::Context;
use crate::drive::DEADLINE;
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::line::{NamedLine, RanFields, to_line};
use crate::log::Log;
use crate::render;
use crate::runner::planfile::{self, Opened};
use crate::runner::{Journaled, Options};
use crate::session::{Session, Workspace};
use crate::ui::{Person, Ui};
use evoke_core::catalog::Reflex;
use evoke_core::decision::{Because, Outcome, Value, call_line};
use evoke_core::manifest::{Effect, Source};
use evoke_core::recognize::{PickKind, PickValue, Span, candidates};
use std::path::Path;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// The reflex's local name, or a plan file (FILE.json).
    name: String,
    /// Its values, as key=value, and flags by name; for a plan file, N.arg=value fills a value step N needs.
    values: Vec<String>,
}

pub fn run(context: &Context, args: &Args) -> CommandResult {
    let ui = &context.ui;
    // A plan file: `evoke run month.plan.json`, with `N.arg=value` filling a value step N still needs (a
    // reflex's name is never one ending `.json`).
    if args.name.ends_with(".json") {
        let path = std::path::Path::new(&args.name);
        // A plan saved under `--tag` pins the reflexes of that tag alone: it runs among them, as it was
        // decided, unless this run names a tag of its own (which the file's own check then holds to it).
        let session = match (&context.tag, planfile::saved_tag(path)) {
            (None, Some(tag)) => {
                crate::session::open_pinned(&crate::session::Options { tag: Some(&tag), ..context.options() })?
            }
            _ => context.session()?,
        };
        return run_file(&session, path, &args.values, context);
    }
    by_name(ui, &context.workspace()?, &args.name, &args.values, context.json)
}

/// `evoke run FILE`: the plan of a plan file, run only when its seal holds, every pin still holds and its
/// answers give the very plan written. Nothing runs otherwise. A file sealed by another key (written
/// elsewhere) is decided again here from its sentence, and each of its writes asks first.
fn run_file(session: &Session, path: &Path, assigned: &[String], context: &Context) -> CommandResult {
    let (ui, json, project_flag) = (&context.ui, context.json, context.project_dir());
    let repeated = context.repeated();
    let Opened { text, unsealed: opened, file, pinned } = planfile::open(session, path, ui, json, &repeated)?;
    let shown = &pinned.file;
    let refuse = |message: String| Err(CommandError::refused(format!("{shown}: {message}; nothing ran")));
    let runtime = crate::session::runtime()?;
    let mut log = Log::open(&session.places.log());
    let options = Options {
        ui,
        json,
        project_flag,
        pinned: Some(pinned.clone()),
        assigned,
        repeated: &repeated,
        signals: true,
        code: &[],
    };
    if !opened.ours {
        let journaled = Journaled::Elsewhere { text: &text };
        ui.err(&render::plan_from_elsewhere(shown));
        return runtime.block_on(async {
            let started = Instant::now();
            let request = session.request(started);
            match crate::weave::weave(&request, &file.input).await {
                Ok(crate::weave::Woven::Plan(woven)) => {
                    crate::runner::run(session, &mut log, *woven, started, &options, journaled).await
                }
                Ok(crate::weave::Woven::One(_)) => {
                    refuse("decided again here, it reads as one call: say it as a sentence".into())
                }
                Err(failed) => refuse(failed.failure.to_string()),
            }
        });
    }
    let engine = crate::weave::FromFile {
        id: session.adapter.id().to_string(),
        gate: session.gate,
        answers: file.answers.clone(),
    };
    runtime.block_on(async {
        let started = Instant::now();
        // The plan file's answers, never the cache's: the plan is the one its answers give.
        let request = session.request_through(&engine, None, started);
        let woven = match crate::weave::weave(&request, &file.input).await {
            Ok(crate::weave::Woven::Plan(woven)) => woven,
            Ok(crate::weave::Woven::One(_)) => return refuse("its answers give one call, not the plan written".into()),
            Err(failed) => return refuse(failed.failure.to_string()),
        };
        if serde_json::to_value(&woven.plan).ok().as_ref() != Some(&file.weave) {
            let line = text.lines().position(|l| l.trim_start().starts_with("\"weave\":")).map_or(1, |i| i + 1);
            return Err(CommandError::refused(format!(
                "{shown}: line {line}: `weave`: the plan written is not the plan its answers give; nothing ran"
            ))
            .with_fix("write the plan again: evoke try --save FILE \"…\""));
        }
        crate::runner::run(session, &mut log, *woven, started, &options, Journaled::File { seal: &opened.mac }).await
    })
}

fn by_name(ui: &Ui, session: &Workspace, name: &str, pairs: &[String], json: bool) -> CommandResult {
    // A playbook is a plan of several calls, reviewed whole: it is picked by a sentence, never run by name.
    if let Some(playbook) = session.catalog.playbook(name) {
        let said = playbook.examples.iter().find(|e| e.asserts.is_some()).map(|e| e.utterance.clone());
        let fix = match said {
            Some(sentence) => format!("say a sentence that picks it: {}", render::command(&["evoke", &sentence])),
            None => "say a sentence that picks it, as its examples do".to_string(),
        };
        return Err(
            CommandError::usage(format!("`{name}` is a playbook, not a reflex: it runs from a sentence")).with_fix(fix)
        );
    }
    let Some(reflex) = session.catalog.get(name) else {
        return Err(match session.project.installed(name).map(|i| &i.status) {
            Some(Err(inactive)) => CommandError::inactive(name, inactive),
            _ => CommandError::usage(format!("no reflex is installed as `{name}`")),
        });
    };
    let args = read_args(reflex, pairs)?;
    let call = call_line(name, &args);
    let destructive = reflex.manifest.effect == Effect::Destructive;
    let prompt_shown = destructive.then(|| evoke_core::decide::destructive_prompt(reflex, &args, &call));
    let because = [Because::Destructive];
    let line_of = |outcome, ran, error| {
        to_line(&NamedLine {
            input: "",
            outcome,
            reflex: name,
            args: &args,
            call: &call,
            effect: reflex.manifest.effect,
            prompt: prompt_shown.as_ref(),
            because: destructive.then_some(&because[..]),
            trace: &[],
            ran,
            error,
        })
    };
    let mut log = Log::open(&session.places.log());
    let mut waited = std::time::Duration::ZERO;
    if let Some(p) = &prompt_shown {
        if !ui.present() {
            let line = line_of(Outcome::Confirm, None, None);
            let _ = log.append(&line, &[], &[]);
            if json {
                ui.json_line(&line);
            } else {
                ui.err(&render::destructive_unanswered(p));
            }
            return Ok(Exit::NeedsPerson);
        }
        if !crate::act::confirmed(ui, p, &mut waited) {
            let _ = log.append(&line_of(Outcome::Confirm, None, None), &[], &[]);
            ui.err(&render::declined());
            return Ok(Exit::Declined);
        }
    }
    let Some(dir) = body::dir_of(&session.project, name) else { return Ok(Exit::Failed) };
    let deadline = Instant::now() + DEADLINE + waited;
    let prepared = match body::prepare(&session.project, reflex, &dir, &args, "", deadline) {
        Ok(prepared) => prepared,
        Err(not) => {
            // Refused at the edge, before its body: logged and printed like any end, then said as an error.
            let refused = CommandError::from(not);
            let line = line_of(Outcome::Run, None, Some(&refused.message));
            let _ = log.append(&line, &[], &[]);
            if json {
                ui.json_line(&line);
            }
            return Err(refused);
        }
    };
    let runtime = crate::session::runtime()?;
    let ran = runtime.block_on(body::run(&prepared, &session.places.cache, interrupted()));
    let line = line_of(Outcome::Run, Some(RanFields::of(&ran)), None);
    let _ = log.append(&line, &[], &[]);
    if json {
        ui.json_line(&line);
    }
    Ok(crate::act::shown(ui, &ran, json))
}

/// Reads `key=value` pairs (and bare flag names) against the reflex's arguments. Former names follow
/// `was`; every value must be one its source offers. Every value first meets the rules a sentence does
/// (clean text, at most 2,000 characters), since it reaches the same places: the confirm template, the
/// literal command, the body.
///
/// A value that breaks the text rules is refused (exit 6), as a sentence holding it is; a name or a value
/// the reflex does not take is a usage error (exit 2).
pub fn read_args(reflex: &Reflex, pairs: &[String]) -> Result<evoke_core::decision::Args, CommandError> {
    let manifest = &reflex.manifest;
    let mut given: Vec<(String, Value)> = Vec::new();
    let usage = CommandError::usage;
    let mut seen = std::collections::BTreeSet::new();
    for pair in pairs {
        let (key, text) = match pair.split_once('=') {
            Some((key, text)) => (key, Some(text)),
            None => (pair.as_str(), None),
        };
        let (live, value) = read_value(reflex, key, text)?;
        let live = live.as_str();
        // Given twice (or under its name and a former one), one value would silently win over the other.
        if !seen.insert(live.to_string()) {
            return Err(usage(format!("`{live}` is given twice; give it once")));
        }
        given.retain(|(n, _)| n != live);
        if let Some(value) = value {
            given.push((live.to_string(), value));
        }
    }
    let missing: Vec<String> = manifest
        .args
        .iter()
        .filter(|a| a.is_required() && !given.iter().any(|(n, _)| *n == a.name))
        .map(|a| format!("{} ({})", a.name, a.ask))
        .collect();
    if !missing.is_empty() {
        return Err(usage(format!("{} needs {}", reflex.name, missing.join(", "))));
    }
    let ordered = manifest.args.iter().filter_map(|a| given.iter().find(|(n, _)| *n == a.name).cloned()).collect();
    Ok(evoke_core::decision::Args(ordered))
}

/// Reads one `key=value` (or a bare flag name, `text` `None`) against the reflex's arguments: the live
/// name it sets and its value (`None` for a flag given as false). The rules of [`read_args`], one value
/// at a time: a plan file's `N.arg=value` is read by this too.
pub fn read_value(reflex: &Reflex, key: &str, text: Option<&str>) -> Result<(String, Option<Value>), CommandError> {
    let manifest = &reflex.manifest;
    let usage = CommandError::usage;
    if let Some(text) = text
        && let Err(refusal) = evoke_core::decide::bound_value(text)
    {
        use evoke_core::decide::Refusal;
        let (what, fix) = match &refusal {
            Refusal::ControlCharacter { at, code } => {
                (format!("holds the control character {code} at character {}", at + 1), "write it without one")
            }
            Refusal::BidiControl { at, code } => {
                (format!("holds the bidi control {code} at character {}", at + 1), "write it without one")
            }
            Refusal::TooLong { chars, limit } => {
                (format!("is {chars} characters, over the {limit} a sentence may hold"), "shorten it")
            }
            other => (other.to_string(), "write it as clean text"),
        };
        return Err(CommandError::refused(format!(
            "the value of `{key}` is refused: it {what}; a value given by name meets the text rules of a \
             sentence, so it can never repaint the confirm line"
        ))
        .with_fix(fix));
    }
    let Some(live) = manifest.live_name(key) else {
        let names: Vec<&str> = manifest.args.iter().map(|a| a.name.as_str()).collect();
        if names.is_empty() {
            return Err(usage(format!("{} has no argument `{key}`; it takes none", reflex.name)));
        }
        return Err(usage(format!("{} has no argument `{key}`; its arguments are: {}", reflex.name, names.join(", "))));
    };
    let arg = manifest.arg(live).expect("a live name names an argument");
    let value = match (&arg.source, text) {
        (Source::Flag, None | Some("true" | "yes")) => Some(Value::Flag),
        (Source::Flag, Some("false" | "no")) => None,
        (Source::Flag, Some(other)) => {
            return Err(usage(format!("`{live}` is a flag: write `{live}` alone, not `{live}={other}`")));
        }
        (Source::Takes(returned), _) => {
            return Err(usage(format!(
                "`{live}` takes the whole result `{returned}` of an earlier step of a plan; no value given by name is one"
            ))
            .with_fix(format!("say it after a request whose reflex returns {returned}: `… and {} it`", reflex.name)));
        }
        (_, None) => return Err(usage(format!("`{live}` needs a value: {live}=…"))),
        (Source::Options(options), Some(text)) => match options.iter().find(|(k, _)| k == text) {
            Some((key, _)) => Some(Value::Option { key: key.clone() }),
            None => {
                let keys: Vec<&str> = options.iter().map(|(k, _)| k.as_str()).collect();
                return Err(usage(format!(
                    "\"{text}\" is not an option of `{live}`; choose one of: {}",
                    keys.join(", ")
                )));
            }
        },
        (Source::Vocab(vocab), Some(text)) => match reflex.vocab_of(live).and_then(|v| v.find(text)) {
            Some(word) => Some(Value::Word { word: word.word.clone(), value: word.value.clone() }),
            None => {
                let words: Vec<&str> = reflex
                    .vocab_of(live)
                    .map(|v| v.words.iter().map(|w| w.word.as_str()).collect())
                    .unwrap_or_default();
                return Err(usage(format!(
                    "\"{text}\" is not a word of vocab/{vocab}.toml; choose one of: {}",
                    words.join(", ")
                )));
            }
        },
        // The placeholder evoke printed in the command to answer an ask, run without its value put in:
        // taking it as the text would run the body with evoke's own words, a value nobody gave.
        (Source::Pick(PickKind::Text), Some(text)) if text == format!("<{}>", PickKind::Text.as_str()) => {
            return Err(usage(format!("`{live}={text}` is the placeholder of the command evoke printed"))
                .with_fix(format!("put the text in its place, inside its quotes: {live}='what you mean'")));
        }
        // Named, a text is the value as given: there is no sentence for quotes to mark it out of.
        (Source::Pick(PickKind::Text), Some(text)) => Some(Value::Pick {
            span: Span { start: 0, end: text.chars().count(), text: text.to_string() },
            value: PickValue::Text(text.to_string()),
        }),
        (Source::Pick(kind), Some(text)) => {
            let found = candidates(text, *kind).into_iter().find(|c| c.span.text == text.trim());
            let Some(found) = found else {
                return Err(usage(format!("\"{text}\" does not read as a {} for `{live}`", kind.as_str())));
            };
            if let (Some((low, high)), Some(n)) = (arg.range, found.value.comparable())
                && (n < low || n > high)
            {
                return Err(usage(format!("`{live}` is {n}, outside its range {low}–{high}")));
            }
            Some(Value::Pick { span: found.span, value: found.value })
        }
    };
    Ok((live.to_string(), value))
}
