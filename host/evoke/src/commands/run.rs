//! `evoke run NAME key=value…`: a call by name. Nothing is decided, but every value is checked against
//! the same sources and ranges as a decision's, and a destructive call still confirms.

use crate::body::{self, interrupted};
use crate::drive::DEADLINE;
use crate::exit::Exit;
use crate::line::{NamedLine, RanFields, to_line};
use crate::log::Log;
use crate::session::Workspace;
use crate::{prompt, render};
use evoke_core::catalog::Reflex;
use evoke_core::decision::{Args, Because, Outcome, Prompt, Value, call_line};
use evoke_core::manifest::{Effect, Source, fill};
use evoke_core::recognize::{PickKind, PickValue, Span, candidates};
use std::time::Instant;

pub fn run(session: &Workspace, name: &str, pairs: &[String], json: bool) -> Exit {
    let Some(reflex) = session.catalog.get(name) else {
        let why = match session.project.installed(name).map(|i| &i.status) {
            // Only what came from outside is escaped: evoke's own `= fix:` line stays a line of its own.
            Some(Err(inactive)) => format!(
                "{} is inactive: {}\n  = fix: {}",
                render::shown(name),
                render::shown(&inactive.why),
                render::shown(&inactive.fix)
            ),
            _ => format!("no reflex is installed as `{}`", render::shown(name)),
        };
        render::err(&format!("error: {why}\n"));
        return Exit::Usage;
    };
    let args = match read_args(reflex, pairs) {
        Ok(args) => args,
        Err(NotRead::Unclean(message)) => {
            render::err(&format!("error: {message}\n"));
            return Exit::Refused;
        }
        Err(NotRead::Usage(message)) => {
            render::err(&format!("error: {}\n", render::shown(&message)));
            return Exit::Usage;
        }
    };
    let call = call_line(name, &args);
    let destructive = reflex.manifest.effect == Effect::Destructive;
    let prompt_shown = destructive.then(|| Prompt {
        own: format!("evoke will run: {call}"),
        reason: "it is destructive, and a destructive call always asks first".into(),
        template: fill(&reflex.manifest.confirm, |n| args.get(n).map_or(String::new(), |v| v.shown().to_string())),
    });
    let because = [Because::Destructive];
    let line_of = |outcome, ran| {
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
        })
    };
    let mut log = Log::open(&session.places.log());
    let mut waited = std::time::Duration::ZERO;
    if let Some(p) = &prompt_shown {
        if !prompt::person_present() {
            let line = line_of(Outcome::Confirm, None);
            let _ = log.append(&line, &[], &[]);
            if json {
                render::out(&format!("{line}\n"));
            } else {
                render::err(&format!(
                    "evoke: {} ({})\na destructive call confirms at a terminal: run it there\n",
                    render::shown(&p.template),
                    p.reason
                ));
            }
            return Exit::NeedsPerson;
        }
        render::err(&format!("{} — {}\n", render::shown(&p.own), p.reason));
        let asked = Instant::now();
        let yes = prompt::confirm(&p.template);
        waited = asked.elapsed();
        if !yes {
            let _ = log.append(&line_of(Outcome::Confirm, None), &[], &[]);
            render::err("evoke: declined; nothing ran\n");
            return Exit::Declined;
        }
    }
    let Some(dir) = body::dir_of(&session.project, name) else { return Exit::Failed };
    let deadline = Instant::now() + DEADLINE + waited;
    let prepared = match body::prepare(&session.project, reflex, &dir, &args, "", deadline) {
        Ok(prepared) => prepared,
        Err(not) => {
            render::err(&format!("error: {}\n", not.message()));
            return not.exit();
        }
    };
    let runtime = match crate::session::runtime() {
        Ok(runtime) => runtime,
        Err(exit) => return exit,
    };
    let ran = runtime.block_on(body::run(&prepared, &session.places.cache, interrupted()));
    let line = line_of(Outcome::Run, Some(RanFields::of(&ran)));
    let _ = log.append(&line, &[], &[]);
    if json {
        render::out(&format!("{line}\n"));
    }
    match &ran.result {
        Ok(output) => {
            if !json {
                render::out(&render::result(&output.text));
            }
            Exit::Done
        }
        Err(failure) => {
            if !json {
                render::err(&render::failure(failure));
            }
            Exit::Failed
        }
    }
}

/// Why the pairs of a call by name were not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotRead {
    /// A value breaks the text rules: refused (exit 6), as a sentence holding it is.
    Unclean(String),
    /// A name or a value the reflex does not take (exit 2).
    Usage(String),
}

/// Reads `key=value` pairs (and bare flag names) against the reflex's arguments. Former names follow
/// `was`; every value must be one its source offers. Every value first meets the rules a sentence does
/// (clean text, at most 2,000 characters), since it reaches the same places: the confirm template, the
/// literal command, the body.
pub fn read_args(reflex: &Reflex, pairs: &[String]) -> Result<Args, NotRead> {
    let manifest = &reflex.manifest;
    let mut given: Vec<(String, Value)> = Vec::new();
    let usage = NotRead::Usage;
    let mut seen = std::collections::BTreeSet::new();
    for pair in pairs {
        let (key, text) = match pair.split_once('=') {
            Some((key, text)) => (key, Some(text)),
            None => (pair.as_str(), None),
        };
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
            return Err(NotRead::Unclean(format!(
                "the value of `{}` is refused: it {what}; a value given by name meets the text rules of a \
                 sentence, so it can never repaint the confirm line\n  = fix: {fix}",
                render::shown(key)
            )));
        }
        let Some(live) = manifest.live_name(key) else {
            let names: Vec<&str> = manifest.args.iter().map(|a| a.name.as_str()).collect();
            return Err(usage(format!(
                "{} has no argument `{key}`; its arguments are: {}",
                reflex.name,
                names.join(", ")
            )));
        };
        let arg = manifest.arg(live).expect("a live name names an argument");
        // Given twice (or under its name and a former one), one value would silently win over the other.
        if !seen.insert(live.to_string()) {
            return Err(usage(format!("`{live}` is given twice; give it once")));
        }
        let value = match (&arg.source, text) {
            (Source::Flag, None | Some("true" | "yes")) => Some(Value::Flag),
            (Source::Flag, Some("false" | "no")) => None,
            (Source::Flag, Some(other)) => {
                return Err(usage(format!("`{live}` is a flag: write `{live}` alone, not `{live}={other}`")));
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
    Ok(Args(ordered))
}
