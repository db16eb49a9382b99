//! Every line evoke shows a person is written here, so wording and colour live in one place.

use crate::error::CommandError;
use crate::reading::Reading;
use evoke_core::decision::{Decision, Prompt};
use evoke_core::diag::Diagnostic;
use evoke_core::lint::Finding;
use evoke_core::question::QuestionId;
use evoke_core::text::{escape_outside, escape_outside_lines};

mod adapter;
mod add;
mod check;
mod plan;
mod project;
mod update;
pub use adapter::{adapter_added, adapter_list, adapter_removed};
pub use add::{added, inactive, thefts};
pub use check::{against_newest, manifest_reads, manifest_refused, playbook_reads, repository_next};
pub use plan::{
    found_nothing, plan_from_elsewhere, plan_reading, plan_refused, plan_saved, plan_step, plan_step_started_before,
    plan_steps, plan_why, playbook_examples, playbook_pick_waits, playbook_picked, playbook_waits, step_asks,
    step_declined, step_end, step_head, step_line, step_not_chosen, step_not_run, step_ran_before,
};
pub use project::{home_trusted, listed, nothing_installed, playbook_summary, trusted, trusting};
pub use update::{grant_list, update_event};

fn paint(text: &str, code: &str, colour: bool) -> String {
    if colour { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_string() }
}

/// A diagnostic, its label coloured when `colour` (`Ui::colour`).
pub fn diagnostic(d: &Diagnostic, colour: bool) -> String {
    let shown = d.render();
    if !colour {
        return shown;
    }
    let (label, code) = if d.is_error() { ("error", "1;31") } else { ("warning", "1;33") };
    shown.replacen(label, &paint(label, code, true), 1)
}

pub fn lint_finding(file: &str, f: &Finding, colour: bool) -> String {
    let label = paint("warning", "1;33", colour);
    let kind = serde_json::to_value(f.kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    format!(
        "{label}[lint:{kind}]: {}\n  --> {}\n   = key: {}\n",
        escape_outside(&f.message),
        escape_outside(file),
        escape_outside(&f.key)
    )
}

/// An error as a person reads it: the diagnostics behind it, then `error: …`, then the fix. The message
/// and the fix may quote outside text (a path, a remote's words), so both are shown escaped.
pub fn error(e: &CommandError, colour: bool) -> String {
    let mut out: String = e.diagnostics.iter().map(|d| diagnostic(d, colour)).collect();
    out.push_str(&format!("error: {}\n", escape_outside(&e.message)));
    if let Some(fix) = &e.fix {
        out.push_str(&fix_line(fix));
    }
    out
}

/// The `= fix:` line under an error, a warning, an inactive reflex or a theft: written here alone.
pub fn fix_line(fix: &str) -> String {
    format!("  = fix: {}\n", escape_outside(fix))
}

/// A warning: something did not happen that the command could do without; with the fix when there is one.
pub fn warning(message: &str, fix: Option<&str>) -> String {
    format!("warning: {}\n{}", escape_outside(message), fix.map(fix_line).unwrap_or_default())
}

/// A note: a step the command left out, and why.
pub fn note(message: &str) -> String {
    format!("note: {}\n", escape_outside(message))
}

/// A body's result as shown at a terminal: its lines, every other control or bidi character escaped, so a
/// body can print text but never drive the terminal (a clipboard write, a cleared screen, a new title).
pub fn result(text: &str) -> String {
    format!("{}\n", escape_outside_lines(text))
}

/// The human reading of a decision: the route, each argument read with `unstated` among the choices,
/// the fit per reflex, then the outcome and the weakest judgment. `try` and `why` both print through here,
/// so a logged decision reads exactly as it did. Every string came from a decision or from the log, so
/// each is shown escaped.
pub fn reading(r: &Reading) -> String {
    // The answers are as the engine gave them, keyed by the ids' texts.
    let ranked = |question: &QuestionId| -> String {
        let Some(answer) = r.answers.get(&question.to_string()) else { return String::new() };
        // Keys that would print as 0.00 say nothing a reader can use.
        let mut keys: Vec<(&String, &f64)> = answer.iter().filter(|(_, p)| **p >= 0.005).collect();
        keys.sort_by(|a, b| b.1.total_cmp(a.1).then_with(|| a.0.cmp(b.0)));
        keys.iter()
            .map(|(k, p)| {
                let key = match r.span_text(k) {
                    Some(text) => format!("\"{}\"", escape_outside(text)),
                    None => escape_outside(k).into_owned(),
                };
                format!("{key} {p:.2}")
            })
            .collect::<Vec<_>>()
            .join(" · ")
    };
    let mut arg_questions: Vec<&QuestionId> =
        r.judgments.iter().filter_map(|j| j.question.as_ref()).filter(|q| **q != QuestionId::Route).collect();
    // What words asked alone named, each after its argument's own row (`room alone  office 0.90`).
    let alone: Vec<QuestionId> = r
        .answers
        .keys()
        .filter_map(|k| k.parse::<QuestionId>().ok())
        .filter(|id| matches!(id, QuestionId::Alone { .. }))
        .collect();
    for id in &alone {
        let at = arg_questions.iter().position(|q| q.arg_of() == id.arg_of()).map_or(arg_questions.len(), |i| i + 1);
        arg_questions.insert(at, id);
    }
    let fits: Vec<String> =
        r.fits.iter().map(|(reflex, fits)| format!("{} {fits:.2}", escape_outside(reflex))).collect();
    let mut width = arg_questions.iter().map(|q| argument(q).chars().count()).max().unwrap_or(0);
    if !fits.is_empty() {
        width = width.max("fits".len());
    }

    let mut out = String::new();
    if r.answers.contains_key(&QuestionId::Route.to_string()) {
        out.push_str(&format!("  {}\n", ranked(&QuestionId::Route)));
    }
    for question in &arg_questions {
        out.push_str(&format!("  {:<width$}  {}\n", argument(question), ranked(question)));
    }
    if !fits.is_empty() {
        out.push_str(&format!("  {:<width$}  {}\n", "fits", fits.join(" · ")));
    }
    out.push_str(&format!("  {}\n", outcome_line(r)));
    out
}

/// A question's argument, as a reading labels it: `room` for `lights.room`.
fn argument(question: &QuestionId) -> String {
    match question {
        QuestionId::Alone { arg, .. } => format!("{} alone", escape_outside(arg)),
        _ => escape_outside(&question.short()).into_owned(),
    }
}

fn outcome_line(r: &Reading) -> String {
    let weakest = r
        .weakest
        .as_ref()
        .map(|(question, p)| format!(" · weakest: {} {p:.2}", question.as_ref().map(argument).unwrap_or_default()))
        .unwrap_or_default();
    let listed = |items: &[String]| items.iter().map(|i| escape_outside(i).into_owned()).collect::<Vec<_>>().join(", ");
    match r.outcome.as_str() {
        "run" => format!("run {}{weakest}", escape_outside(&r.call)),
        "confirm" => format!("confirm {} · because: {}{weakest}", escape_outside(&r.call), listed(&r.because)),
        "ask" => format!("ask {}{weakest}", listed(&r.missing)),
        // A plan refused whole: its reasons, as evoke said them when it refused.
        "abstain" if !r.refused.is_empty() => {
            let said: Vec<String> = r
                .refused
                .iter()
                .map(|because| plan_refused(because).trim_end().trim_start_matches("evoke: ").to_string())
                .collect();
            format!("abstain · {}", said.join(" · "))
        }
        "abstain" => match r.judgments.first() {
            Some(route) => format!("abstain · route: {} {:.2}", escape_outside(&route.top), route.p),
            None => "abstain · nothing is installed".to_string(),
        },
        other => other.to_string(),
    }
}

/// `evoke why`'s first line: the input as typed, quoted as the JSON line quotes it.
pub fn logged_input(input: &str) -> String {
    format!("{}\n", crate::line::to_line(&input))
}

/// `evoke why` of a decision that failed closed: its error is all there is to say.
pub fn logged_refusal(error: &str) -> String {
    format!("  {}\n", escape_outside(error))
}

/// `evoke why`'s last line: what the body printed when it ran, or its error.
pub fn logged_run(ran: Option<&str>, error: Option<&str>) -> String {
    match (ran, error) {
        (Some(text), _) => format!("  ran: {}", result(text)),
        (None, Some(error)) => format!("  failed: {}\n", escape_outside(error)),
        (None, None) => String::new(),
    }
}

/// One held-out test of `evoke test`: pass or FAIL, the reflex, the utterance, what it was decided as, and
/// for a `false` record, what it must not be.
pub fn tested(ok: bool, reflex: &str, utterance: &str, got: &str, must_not: bool) -> String {
    let mark = if ok { "pass" } else { "FAIL" };
    let wanted = if must_not { format!(" (must not be {reflex})") } else { String::new() };
    format!("{}\n", escape_outside(&format!("{mark}  {reflex}  {utterance:?}  → {got}{wanted}")))
}

pub fn tests_passed(passed: usize, failed: usize) -> String {
    format!("{passed} passed, {failed} failed\n")
}

/// The confirm question a person answers at a terminal: the reflex's filled template, then `[y/N]`.
pub fn confirm_question(question: &str) -> String {
    format!("{} [y/N] ", escape_outside(question))
}

/// Why an answer typed at an ask is none of its choices.
pub fn not_a_choice(why: &str) -> String {
    format!("{}\n", escape_outside(why))
}

/// The line before an ask that says why a value the sentence gave is asked again, when it gave one: out of
/// the argument's range, not among its choices, or spared. Empty for a value never said.
fn asked_because(missing: &evoke_core::decision::Missing) -> String {
    use evoke_core::decision::MissingBecause;
    let said =
        missing.words.as_ref().map(|w| w.iter().map(|w| format!("\"{}\"", escape_outside(w))).collect::<Vec<_>>());
    let said = said.map(|w| w.join(", "));
    let number = |n: f64| if n.fract() == 0.0 && n.abs() < 1e15 { format!("{}", n as i64) } else { format!("{n}") };
    match (&missing.because, said) {
        (MissingBecause::OutOfRange { range: [low, high], value }, _) => {
            format!("{} is outside {} to {}.\n", number(*value), number(*low), number(*high))
        }
        (MissingBecause::NotOffered, Some(said)) => format!("{said} is not among the choices.\n"),
        (MissingBecause::NotOffered, None) => "The sentence names a value that is not among the choices.\n".into(),
        (MissingBecause::Excluded { key }, _) => format!("The sentence spares \"{}\".\n", escape_outside(key)),
        (MissingBecause::Unread, Some(said)) => match &missing.likely {
            Some(likely) => format!("{said} was not read as a value; \"{}\" is likely.\n", escape_outside(likely)),
            None => format!("{said} was not read as a value.\n"),
        },
        (MissingBecause::Unsettled, _) => match &missing.choices {
            evoke_core::decision::Choices::Pick { readings, .. } if readings.len() > 1 => {
                let said: Vec<String> = readings.iter().map(|r| format!("\"{}\"", escape_outside(&r.text))).collect();
                format!("The sentence could mean {}.\n", said.join(" or "))
            }
            _ => "The sentence could mean more than one.\n".into(),
        },
        (MissingBecause::Unstated | MissingBecause::Unread, _) => String::new(),
    }
}

/// The question of a missing value and its closed choices, numbered, after the line that says why a value
/// the sentence gave is asked again.
pub fn ask_choices(missing: &evoke_core::decision::Missing) -> String {
    use evoke_core::decision::Choices;
    let listed = |texts: &[(String, String)]| {
        let width = texts.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0);
        texts
            .iter()
            .enumerate()
            .map(|(i, (k, t))| format!("  {:>2}  {:<width$}  {}\n", i + 1, escape_outside(k), escape_outside(t)))
            .collect::<String>()
    };
    let ask = format!("{}{}", asked_because(missing), escape_outside(&missing.ask));
    match &missing.choices {
        Choices::Vocab { words } => format!("{ask}\n{}", listed(&words.0)),
        Choices::Options { options } => format!("{ask}\n{}", listed(&options.0)),
        Choices::Pick { kind, range, recent, .. } => {
            let range = range.map_or(String::new(), |[low, high]| format!(", from {low} to {high}"));
            format!("{ask} (a {kind}{range})\n{}", recalled(recent))
        }
    }
}

/// The values this session's results gave that a pick may take, on a line of their own: a person may type
/// one back.
fn recalled(recent: &[String]) -> String {
    if recent.is_empty() {
        return String::new();
    }
    let said: Vec<String> = recent.iter().map(|r| format!("\"{}\"", escape_outside(r))).collect();
    format!("  recent: {}\n", said.join(", "))
}

/// Every literal command evoke prints for a person, quoted here alone: each word as the shell reads it
/// back (`shlex`), so the command runs as printed, then escaped for the terminal. A placeholder is a word
/// like any other (`room='<den|office>'`): the line runs once the `<…>` inside its quotes is replaced by a
/// value.
pub fn command<S: AsRef<str>>(words: &[S]) -> String {
    let quote = |s: &str| shlex::try_quote(s).map(|q| q.to_string()).unwrap_or_else(|_| format!("'{s}'"));
    // `name=value` keeps its name bare and quotes the value alone (`room='living room'`): the shell reads
    // back the same word, and the name stays plain to read.
    let word = |w: &str| match w.split_once('=') {
        Some((name, value))
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')) =>
        {
            format!("{name}={}", quote(value))
        }
        _ => quote(w),
    };
    let quoted: Vec<String> = words.iter().map(|w| word(w.as_ref())).collect();
    // Values are clean text by the time they are here; escaping still keeps a stray one from the terminal.
    escape_outside(&quoted.join(" ")).into_owned()
}

/// A missing value as the word that stands for it in a printed command: `room=<den|office>`, which
/// `command` prints quoted, `room='<den|office>'`.
pub fn placeholder(arg: &str, m: &evoke_core::decision::Missing) -> String {
    format!("{arg}=<{}>", choices(m))
}

/// A missing value's choices as a placeholder shows them: `den|office`, or the kind of a pick.
pub fn choices(m: &evoke_core::decision::Missing) -> String {
    use evoke_core::decision::Choices;
    match &m.choices {
        Choices::Vocab { words } => words.0.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>().join("|"),
        Choices::Options { options } => options.0.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>().join("|"),
        Choices::Pick { kind, .. } => (*kind).to_string(),
    }
}

/// The literal command that makes a call by name: `evoke run lights room=den state=off`. A missing
/// value stands as its choices, `room='<den|office>'`, quoted as every word is (`command`).
pub fn literal_call(project: Option<&std::path::Path>, decision: &Decision) -> String {
    use evoke_core::decision::Value;
    let mut words = vec!["evoke".to_string()];
    if let Some(dir) = project {
        words.extend(["-C".to_string(), dir.display().to_string()]);
    }
    words.extend(["run".to_string(), decision.reflex.clone().unwrap_or_default()]);
    for (name, value) in decision.args.iter().flat_map(|args| &args.0) {
        match value {
            Value::Flag => words.push(name.to_string()),
            value => words.push(format!("{name}={}", value.shown())),
        }
    }
    for m in decision.missing.iter().flatten() {
        words.push(placeholder(&m.arg, m));
    }
    command(&words)
}

/// evoke's own line before a confirm question, so the reflex's words can never pass for evoke's.
pub fn confirm_line(prompt: &Prompt) -> String {
    format!("{} — {}\n", escape_outside(&prompt.own), escape_outside(&prompt.reason))
}

/// A destructive call by name where no person can confirm it: its question, and where to run it.
pub fn destructive_unanswered(prompt: &Prompt) -> String {
    format!(
        "evoke: {} ({})\na destructive call confirms at a terminal: run it there\n",
        escape_outside(&prompt.template),
        escape_outside(&prompt.reason)
    )
}

/// A decision that needs a person where none can answer: what it asks, then the literal command that
/// gives the answer. `step` names the step of a plan it is.
pub fn unanswered(project: Option<&std::path::Path>, decision: &Decision, step: Option<usize>) -> String {
    let command = literal_call(project, decision);
    let asks =
        || decision.missing.iter().flatten().map(|m| escape_outside(&m.ask).into_owned()).collect::<Vec<_>>().join(" ");
    let reflex = decision.reflex.as_deref().unwrap_or_default();
    let said = match (step, &decision.prompt, &decision.missing) {
        (None, Some(prompt), _) => {
            format!("evoke: {} ({})", escape_outside(&prompt.template), escape_outside(&prompt.reason))
        }
        (None, None, Some(_)) => format!("evoke: {reflex} needs an answer: {}", asks()),
        (None, None, None) => "evoke: a person must answer first".to_string(),
        // A step still missing a value is asked before anything runs; a complete one confirms at its turn.
        (Some(n), _, Some(_)) | (Some(n), None, None) => {
            format!("evoke: step {n} ({reflex}) needs an answer before anything runs: {}", asks())
        }
        (Some(n), Some(prompt), None) => {
            format!("evoke: step {n}: {} ({})", escape_outside(&prompt.template), escape_outside(&prompt.reason))
        }
    };
    format!("{said}\nto answer, run: {command}\n")
}

/// A step of a plan that still needs a value where no one can give it: what it asks, then the command
/// that runs the whole plan with the answer (its plan file and `N.arg=<…>`), or, for a plan that ran in
/// part, the command that takes it up at a terminal.
pub fn unanswered_in_plan(decision: &Decision, step: usize, command: &str, at_terminal: bool) -> String {
    let asks =
        decision.missing.iter().flatten().map(|m| escape_outside(&m.ask).into_owned()).collect::<Vec<_>>().join(" ");
    let reflex = escape_outside(decision.reflex.as_deref().unwrap_or_default()).into_owned();
    let said = format!("evoke: step {step} ({reflex}) needs an answer before anything runs: {asks}");
    if at_terminal {
        format!("{said}\nto answer, run at a terminal: {command}\n")
    } else {
        format!("{said}\nto answer, run: {command}\n")
    }
}

/// A step that confirms at its turn where no one can answer: its question, and the command that takes
/// the plan up at a terminal (its journal keeps what ran).
pub fn step_unanswered(step: usize, prompt: &Prompt, command: &str) -> String {
    format!(
        "evoke: step {step}: {} ({})\nto answer, run at a terminal: {command}\n",
        escape_outside(&prompt.template),
        escape_outside(&prompt.reason),
    )
}

/// A plan with a step that waits for a yes where no one can give it: the step's question, and that
/// nothing ran.
pub fn plan_waits(step: usize, decision: &Decision) -> String {
    let said = match &decision.prompt {
        Some(prompt) => {
            format!("evoke: step {step}: {} ({})", escape_outside(&prompt.template), escape_outside(&prompt.reason))
        }
        None => format!("evoke: step {step} waits for a yes"),
    };
    let why = "a plan with a step that waits for a yes runs at a terminal, where that step asks at its turn";
    format!("{said}\nnothing ran: {why}\n")
}

/// A body's failure for a person: the message, then its frames; both are the body's words, escaped.
pub fn failure(failure: &evoke_bodies::Failure) -> String {
    let mut out = format!("error: {}\n", escape_outside_lines(&failure.message));
    for frame in &failure.frames {
        out.push_str(&format!("    {}\n", escape_outside(frame)));
    }
    out
}

/// What to do when words typed without quotes began with a command's name: `said` is the command line
/// that says them as one sentence.
pub fn sentence_needs_quotes(name: &str, said: &str) -> String {
    format!(
        "evoke: `{}` is one of evoke's commands, so the words after it were read as its arguments; to say a \
         sentence that starts with it, put the sentence in quotes: {}\n",
        escape_outside(name),
        escape_outside(said)
    )
}

/// A sentence nothing installed does: the call abstained.
pub fn nothing_does_that() -> String {
    "evoke: nothing installed does that\n".to_string()
}

/// A person said no to a confirm.
pub fn declined() -> String {
    "evoke: declined; nothing ran\n".to_string()
}

/// A person left an ask without an answer.
pub fn left_unanswered() -> String {
    "evoke: the question was left unanswered; nothing ran\n".to_string()
}

/// A plan's step ended it: the steps after it are not run.
pub fn weave_stopped() -> String {
    "evoke: the weave stopped; the steps after it did not run\n".to_string()
}

/// evoke's own words about a step, which may quote outside text.
pub fn said(message: &str) -> String {
    format!("evoke: {}\n", escape_outside(message))
}

/// The prompt for an answer to an ask, after its choices and after each answer not among them.
pub fn ask_again() -> String {
    "> ".to_string()
}

/// `evoke add`'s theft test where no other active reflex has an example to steal with.
pub fn no_theft_examples() -> String {
    "theft test: no other active reflex has an example to test\n".to_string()
}

/// `evoke update` in a project that fetches nothing.
pub fn nothing_to_update() -> String {
    "nothing to update: no reflex or playbook of this project is fetched\n".to_string()
}

/// The heading of the whole plan under `evoke why` of a step.
pub fn the_plan() -> String {
    "the plan:\n".to_string()
}

/// A component body compiled ahead, and how long it took.
pub fn compiled(name: &str, seconds: f64) -> String {
    format!("compiled {}'s component in {seconds:.1} s\n", escape_outside(name))
}

/// A setting as `evoke config` said it, or a line of text evoke prints whole: escaped, on its own line.
pub fn line(text: &str) -> String {
    format!("{}\n", escape_outside(text))
}

/// A line the log could not take: `what` (the decision, the plan, the step) was not logged, and why.
pub fn not_logged(what: &str, why: &dyn std::fmt::Display) -> String {
    warning(&format!("the {what} was not logged: {why}"), None)
}

/// A step that ran but whose end the journal could not take.
pub fn step_end_not_recorded(why: &dyn std::fmt::Display) -> String {
    warning(&format!("the step's end was not recorded: {why}"), None)
}

/// `evoke add` without its theft test, and why.
pub fn no_theft_test(why: &dyn std::fmt::Display) -> String {
    note(&format!("no theft test: {why}"))
}

/// `evoke add`'s theft test, stopped part way, and why.
pub fn theft_test_stopped(why: &dyn std::fmt::Display) -> String {
    note(&format!("the theft test stopped: {why}"))
}

/// `evoke list` in a project not trusted as it is: why nothing decides, and the fix.
pub fn nothing_decides_yet(why: &str, fix: &str) -> String {
    warning(&format!("nothing decides here yet: {why}"), Some(fix))
}

#[cfg(test)]
mod tests {
    use super::{ask_choices, found_nothing};
    use evoke_core::decision::{Choices, Missing, MissingBecause};

    #[test]
    fn parts_that_found_nothing_are_said_in_one_line() {
        assert_eq!(
            found_nothing(&["order a pizza", "buy \u{1b}milk"]),
            "evoke: nothing installed does \"order a pizza\" or \"buy \\u{1B}milk\", so the whole request is refused; \
             nothing ran\n"
        );
    }

    fn level(because: MissingBecause, words: Option<Vec<String>>) -> Missing {
        let choices =
            Choices::Pick { kind: "number", range: Some([0.0, 100.0]), readings: Vec::new(), recent: Vec::new() };
        Missing { arg: "level".into(), ask: "What volume, in percent?".into(), because, words, choices, likely: None }
    }

    #[test]
    fn a_value_asked_again_says_why_before_the_question() {
        let out = level(MissingBecause::OutOfRange { range: [0.0, 100.0], value: 150.0 }, Some(vec!["150".into()]));
        assert_eq!(ask_choices(&out), "150 is outside 0 to 100.\nWhat volume, in percent? (a number, from 0 to 100)\n");
        let never_said = level(MissingBecause::Unstated, None);
        assert_eq!(ask_choices(&never_said), "What volume, in percent? (a number, from 0 to 100)\n");
        let mut recalled = level(MissingBecause::Unstated, None);
        if let Choices::Pick { recent, .. } = &mut recalled.choices {
            *recent = vec!["40".into(), "5\u{1b}[2J".into()];
        }
        assert_eq!(
            ask_choices(&recalled),
            "What volume, in percent? (a number, from 0 to 100)\n  recent: \"40\", \"5\\u{1B}[2J\"\n"
        );
        let not_offered = level(MissingBecause::NotOffered, Some(vec!["turbo".into()]));
        assert!(ask_choices(&not_offered).starts_with("\"turbo\" is not among the choices.\n"));
        let unread =
            Missing { likely: Some("loud".into()), ..level(MissingBecause::Unread, Some(vec!["loud".into()])) };
        assert!(ask_choices(&unread).starts_with("\"loud\" was not read as a value; \"loud\" is likely.\n"));
        let reading = |text: &str, n: f64| evoke_core::decision::PickReading {
            text: text.into(),
            value: evoke_core::recognize::PickValue::Number(n),
        };
        let mut unsettled = level(MissingBecause::Unsettled, None);
        unsettled.choices = Choices::Pick {
            kind: "number",
            range: None,
            readings: vec![reading("20", 20.0), reading("30", 30.0)],
            recent: Vec::new(),
        };
        assert_eq!(
            ask_choices(&unsettled),
            "The sentence could mean \"20\" or \"30\".\nWhat volume, in percent? (a number)\n"
        );
    }
}
