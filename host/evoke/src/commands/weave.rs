//! Running a woven plan: settled first (every missing required value asked up front), shown numbered,
//! then run stage by stage, each step through the same gate as one input when its turn comes. A failure,
//! a decline or a refusal ends the weave after its stage; the steps after it are skipped and say so. The
//! exit code is the worst step's.

use crate::body::{self, interrupted};
use crate::drive::{DEADLINE, TraceEntry};
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::journal::{Journal, JournalError, Mark, Origin};
use crate::line::{RanFields, to_line};
use crate::log::Log;
use crate::reading::{LoggedPlan, LoggedStep};
use crate::render;
use crate::session::Session;
use crate::ui::{Person, Question, Ui};
use crate::weave::PlanDecided;
use evoke_core::decide::answered;
use evoke_core::decision::{Decision, Outcome, Value};
use evoke_core::manifest::Effect;
use evoke_core::weave::plan::{self, Plan, VerdictBecause};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// How a step ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ran,
    Failed,
    Declined,
    Refused,
    Skipped,
    Unanswered,
}

/// Why a step stopped, or did not run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Why {
    EarlierStep,
    /// A step that runs only under a value an earlier step yields, that step having yielded another.
    NotChosen {
        from: usize,
        value: serde_json::Value,
    },
    Said {
        message: String,
    },
}

/// The line of one step: `step` and `steps` first, the decision's fields, `trace`, what the run added,
/// and `status` last with `why`.
#[derive(Serialize)]
pub struct StepLine<'a> {
    pub step: usize,
    pub steps: usize,
    #[serde(flatten)]
    pub decision: &'a Decision,
    pub trace: &'a [TraceEntry],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub bound: &'a [Bound],
    #[serde(flatten)]
    pub ran: Option<RanFields<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<&'a Pinned>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub from: &'a [evoke_core::playbook::From],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<&'a evoke_core::playbook::When>,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<Why>,
}

/// A value a step took from another step's result.
#[derive(Debug, Clone, Serialize)]
pub struct Bound {
    pub arg: String,
    pub from: usize,
    pub field: String,
    pub value: Value,
}

/// Which plan file a step ran from: the file as shown and the SHA-256 of what was read.
#[derive(Debug, Clone, Serialize)]
pub struct Pinned {
    pub file: String,
    pub id: String,
}

/// The sentence's own line of a plan a playbook wrote: `step` 0, the count, the decision that picked the
/// playbook, the playbook and its slots, and no `status`.
#[derive(Serialize)]
struct HeadLine<'a> {
    step: usize,
    steps: usize,
    #[serde(flatten)]
    decision: &'a Decision,
    trace: &'a [TraceEntry],
    playbook: &'a str,
    slots: serde_json::Map<String, serde_json::Value>,
}

/// The one line of a plan refused before it was made: an abstain over the whole input.
#[derive(Serialize)]
struct WholeLine<'a> {
    input: &'a str,
    outcome: Outcome,
    judgments: [(); 0],
    contenders: [(); 0],
    because: &'a [VerdictBecause],
    excluded: &'a [evoke_core::weave::plan::Excluded],
    trace: &'a [TraceEntry],
}

/// How a plan is run.
pub struct Options<'a> {
    /// Where the plan's lines are written, and who answers its confirms and asks.
    pub ui: &'a Ui<'a>,
    pub json: bool,
    pub project_flag: Option<&'a Path>,
    pub pinned: Option<Pinned>,
    /// `N.arg=value`, given to `evoke run FILE`: each fills a value step N still needs.
    pub assigned: &'a [String],
    /// The global options to give again in a command printed for a person (`Context::repeated`).
    pub repeated: &'a [String],
    /// Whether Ctrl-C and SIGTERM stop a running step's body: the command's own signals. A library's
    /// host program keeps its signals to itself.
    pub signals: bool,
    /// The reflexes a library caller handed over as code: a step of one runs its function.
    pub code: &'a [crate::sdk::CodeReflex],
}

/// Where a plan's journal comes from.
pub enum Journaled<'a> {
    /// A sentence said now: a new request, with a new journal.
    Said,
    /// A plan file, by its seal: the file's own journal, read again. Without one here, every write asks
    /// first, since evoke cannot know which ran before.
    File { seal: &'a str },
    /// A plan file sealed by another key, by the hash of its whole text: nothing in it can be verified
    /// here, so every write asks first, every time it runs.
    Elsewhere { text: &'a str },
    /// `evoke resume`: the journal it took up, already held.
    Resumed(Journal),
}

/// The project a plan runs in, as its journal is keyed: the root's canonical path.
pub fn project_key(session: &Session) -> std::path::PathBuf {
    let root = &session.project.location.root;
    std::fs::canonicalize(root).unwrap_or_else(|_| root.clone())
}

/// A journal that cannot be taken up, as the person reads it: nothing ran.
pub fn journal_refused(e: JournalError) -> CommandError {
    match e {
        JournalError::Busy { .. } => CommandError::refused(format!("{e}; nothing ran"))
            .with_fix("wait for the other evoke to end, then run the plan again: its journal keeps what ran"),
        other => CommandError::refused(format!("the plan's journal is refused: {other}; nothing ran")),
    }
}

/// What one step's run came to.
struct Ended {
    exit: Exit,
    /// The result's `data`, which a later step may take a field of.
    data: Option<serde_json::Value>,
}

/// Prints and logs a refused plan's one line, and says why.
pub fn refused_plan(ui: &Ui, log: &mut Log, woven: &PlanDecided, json: bool) -> CommandResult {
    let plan = &woven.plan;
    let trace = woven.all_trace();
    let line = to_line(&WholeLine {
        input: &plan.input,
        outcome: Outcome::Abstain,
        judgments: [],
        contenders: [],
        because: &plan.verdict.because,
        excluded: &plan.excluded,
        trace: &trace,
    });
    let _ = log.append(&line, &woven.rounds, &[]);
    if json {
        ui.json_line(&line);
    } else {
        for because in &plan.verdict.because {
            ui.err(&render::plan_refused(because));
        }
    }
    let asks = plan
        .verdict
        .because
        .iter()
        .any(|b| matches!(b, VerdictBecause::SeveralSources { .. } | VerdictBecause::NoSource { .. }));
    Ok(if asks { Exit::NeedsPerson } else { Exit::Abstain })
}

pub async fn act(
    session: &Session,
    log: &mut Log,
    woven: PlanDecided,
    started: Instant,
    options: &Options<'_>,
    journaled: Journaled<'_>,
) -> CommandResult {
    let ui = options.ui;
    if woven.plan.refused() {
        return refused_plan(options.ui, log, &woven, options.json);
    }
    let PlanDecided { mut plan, trace: own_trace, rounds: own_rounds, steps: decided, answers: plan_answers, head } =
        woven;
    // A playbook's pick has its own line, step 0; a woven sentence's own rounds go on its first step's.
    let (own_trace, own_rounds) = if head.is_some() { (Vec::new(), Vec::new()) } else { (own_trace, own_rounds) };
    // The plan as decided, before any answer a person gives: what a journal and `evoke resume` name it by.
    let digest = plan.digest();
    // What a plan file of it holds, should it stop for a value no one here can give.
    let settled = plan.clone();
    // Every value given as `N.arg=value` is read before anything runs: one that does not fit runs nothing.
    let assigned = assignments(session, &plan, options.assigned)?;
    // The journal is held from here to the plan's end: another evoke taking up the same plan is refused
    // before it reads what ran, never let run a step this one is running.
    let state = &session.places.state;
    let (mut journal, asks_each_write) = match journaled {
        Journaled::Said => {
            let journal = Journal::open(state, &project_key(session), &digest, Origin::Said, &plan.input, false);
            (journal.map_err(journal_refused)?, false)
        }
        Journaled::File { seal } => {
            let origin = Origin::File { seal };
            let journal = Journal::open(state, &project_key(session), &digest, origin, &plan.input, true)
                .map_err(journal_refused)?;
            let found = journal.found();
            (journal, !found)
        }
        Journaled::Elsewhere { text } => {
            let origin = Origin::Elsewhere { text };
            let journal = Journal::open(state, &project_key(session), &digest, origin, &plan.input, true)
                .map_err(journal_refused)?;
            (journal, true)
        }
        Journaled::Resumed(journal) => (journal, false),
    };
    // Every write of a plan whose journal cannot be trusted waits for a yes: held now, and again whenever
    // a step is decided anew (an answer, a value bound at its turn).
    let hold = |decision: Decision| {
        if asks_each_write { evoke_core::decide::held_without_journal(&session.catalog, &decision) } else { decision }
    };
    for step in &mut plan.steps {
        step.decision = hold(step.decision.clone());
    }
    let count = plan.steps.len();
    let present = ui.present();
    let mut waited = std::time::Duration::ZERO;
    // The sentence's own round is logged on the first step's line, beside that step's rounds.
    let traces: Vec<Vec<TraceEntry>> = decided
        .iter()
        .enumerate()
        .map(|(i, d)| if i == 0 { own_trace.iter().chain(&d.trace).cloned().collect() } else { d.trace.clone() })
        .collect();
    let rounds: Vec<Vec<crate::drive::Round>> = decided
        .iter()
        .enumerate()
        .map(|(i, d)| if i == 0 { own_rounds.iter().chain(&d.rounds).cloned().collect() } else { d.rounds.clone() })
        .collect();
    let bounds: std::cell::RefCell<Vec<Vec<Bound>>> = std::cell::RefCell::new(vec![Vec::new(); count]);
    let from_of: Vec<Vec<evoke_core::playbook::From>> = plan.steps.iter().map(|s| s.from.clone()).collect();
    let when_of: Vec<Option<evoke_core::playbook::When>> = plan.steps.iter().map(|s| s.when.clone()).collect();
    if let Some(head) = &head {
        emit_head(log, head, count, options);
    }
    let mut results: Vec<Option<serde_json::Value>> = vec![None; count];
    let mut ran_ok: Vec<bool> = vec![false; count];
    let emit = |log: &mut Log, i: usize, decision: &Decision, ran: Option<&evoke_bodies::Ran>, status, why| {
        let bound = bounds.borrow();
        let line = to_line(&StepLine {
            step: i + 1,
            steps: count,
            decision,
            trace: &traces[i],
            bound: &bound[i],
            ran: ran.map(RanFields::of),
            pinned: options.pinned.as_ref(),
            from: &from_of[i],
            when: when_of[i].as_ref(),
            status,
            why,
        });
        if let Err(e) = log.append(&line, &rounds[i], &decided[i].candidates) {
            ui.err(&render::not_logged("step", &e));
        }
        if options.json {
            ui.json_line(&line);
        }
    };

    // Settled first: every missing required value is asked before anything runs.
    #[allow(clippy::needless_range_loop)] // `i` is the step's number too, and `decided` is written by it
    for i in 0..count {
        let decision = plan.steps[i].decision.clone();
        if decision.outcome != Outcome::Ask || (!plan.binds.is_empty() && plan::filled_by_binds(&plan, i + 1)) {
            continue;
        }
        let mut decision = decision;
        if !assigned[i].is_empty() {
            let given: Vec<(String, Value)> = assigned[i].iter().map(|a| (a.arg.clone(), a.value.clone())).collect();
            decision = hold(answered(
                &session.catalog,
                session.gate.as_ref(),
                &decided[i].candidates,
                &decision,
                &given,
                Some(&plan.input),
            ));
            plan.steps[i].decision = decision.clone();
            if decision.outcome != Outcome::Ask {
                continue;
            }
        }
        if !present && options.json {
            // The JSON lines say what stopped; no plan is saved for a command no one is shown.
            return Ok(stopped_before_running(&plan, i, "", options, &emit, log));
        }
        if !present {
            let said = match answer_command(session, &settled, &plan, &plan_answers, &assigned, &journal, options) {
                Ok(AnswerCommand::Run(command)) => render::unanswered_in_plan(&decision, i + 1, &command, false),
                Ok(AnswerCommand::AtTerminal(command)) => render::unanswered_in_plan(&decision, i + 1, &command, true),
                Err(e) => {
                    ui.err(&render::warning(&e.message, None));
                    render::unanswered_in_plan(&decision, i + 1, &again_command(options), true)
                }
            };
            return Ok(stopped_before_running(&plan, i, &said, options, &emit, log));
        }
        let asked = Instant::now();
        ui.err(&render::step_asks(i + 1, decision.reflex.as_deref().unwrap_or_default()));
        let Some(answers) = crate::act::ask_missing(ui, &session.catalog, &decision) else {
            for (j, step) in plan.steps.iter().enumerate() {
                let (status, why) = if j == i { (Status::Declined, None) } else { skipped() };
                emit(log, j, &step.decision, None, status, why);
            }
            ui.err(&render::left_unanswered());
            return Ok(Exit::Declined);
        };
        waited += asked.elapsed();
        plan.steps[i].decision = hold(answered(
            &session.catalog,
            session.gate.as_ref(),
            &decided[i].candidates,
            &decision,
            &answers,
            Some(&plan.input),
        ));
    }

    // A playbook not reviewed as it is now, or picked under the bar of its strongest step, waits for one
    // yes with every step shown: a playbook never runs a step the person has not seen.
    let mut shown_whole = false;
    if let Some(head) = &head
        && let Some(question) = &head.confirm
    {
        if !present {
            for (j, step) in plan.steps.iter().enumerate() {
                let why = Why::Said { message: question.clone() };
                emit(log, j, &step.decision, None, Status::Unanswered, Some(why));
            }
            if !options.json {
                let again = match &options.pinned {
                    Some(pinned) => format!("run {} again", render::command(&["evoke", "run", &pinned.file])),
                    None => "say it again".to_string(),
                };
                ui.err(&render::playbook_waits(&head.playbook, question, &again));
            }
            return Ok(Exit::NeedsPerson);
        }
        ui.out(&render::plan_steps(&plan));
        // The sentences that pick it are part of what the person says yes to: a routine claiming an
        // everyday sentence is seen here, not found out when it runs.
        if let Some(playbook) = session.catalog.playbook(&head.playbook) {
            ui.out(&render::playbook_examples(playbook));
        }
        shown_whole = true;
        let asked = Instant::now();
        let yes = ui.confirm(Question::Own(question));
        waited += asked.elapsed();
        if !yes {
            for (j, step) in plan.steps.iter().enumerate() {
                emit(log, j, &step.decision, None, Status::Declined, None);
            }
            ui.err(&render::declined());
            return Ok(Exit::Declined);
        }
        crate::playbook::record_reviews(ui, session, &head.unreviewed);
    }

    // Never half done: where no one can say yes, a step that would wait for one stops the plan before
    // its first step runs, not after it. A plan run again counts what its journal holds: a done step does
    // not run, and one left at `intent` waits for a yes too.
    let waits = plan.steps.iter().enumerate().find_map(|(i, s)| {
        let mark = journal.entry(i + 1).map(|e| e.mark);
        match mark {
            Some(Mark::Done) => None,
            Some(Mark::Intent) => Some((i, true)),
            // A step whose value is bound at its turn is decided then; a destructive one always waits, and
            // every write waits where the journal cannot be trusted.
            None => {
                // An ask has no effect on its line yet: its reflex's, from the manifest.
                let reflex = s.decision.reflex.as_deref().and_then(|r| session.catalog.get(r));
                let effect = reflex.map_or(Effect::Destructive, |r| r.manifest.effect);
                let bound_later = !plan::binds_of(&plan, i + 1).is_empty()
                    && (effect == Effect::Destructive || (asks_each_write && effect != Effect::Read));
                (s.decision.outcome == Outcome::Confirm || bound_later).then_some((i, false))
            }
        }
    });
    if let Some((waits, started_before)) = waits
        && !present
    {
        let said = if started_before {
            render::plan_step_started_before(waits + 1, &again_command(options))
        } else {
            render::plan_waits(waits + 1, &plan.steps[waits].decision)
        };
        return Ok(stopped_before_running(&plan, waits, &said, options, &emit, log));
    }

    if !options.json && !shown_whole {
        ui.out(&render::plan_steps(&plan));
    }
    journal
        .begin()
        .map_err(|e| CommandError::failed(format!("the plan's journal cannot be kept: {e}; nothing ran")))?;

    let mut exit = Exit::Done;
    let mut stop_after: Option<usize> = None;
    for (stage_index, stage) in plan.stages.clone().iter().enumerate() {
        if stop_after.is_some_and(|s| stage_index > s) {
            for &n in stage {
                let (status, why) = skipped();
                emit(log, n - 1, &plan.steps[n - 1].decision, None, status, why);
            }
            continue;
        }
        for &n in stage {
            let i = n - 1;
            // A step a playbook runs only under a value: a source that did not run, or yielded another
            // value, passes it by. Passing it by is the routine's choice, not a failure.
            if let Some(when) = &plan.steps[i].when {
                let source = when.step.saturating_sub(1);
                let yielded = results.get(source).cloned().flatten().and_then(|d| d.get(&when.field).cloned());
                let passed = match (ran_ok.get(source).copied().unwrap_or(false), yielded) {
                    (false, _) => Some(Why::EarlierStep),
                    (true, Some(v)) if crate::playbook::field_holds(&v, &when.is) => None,
                    (true, v) => Some(Why::NotChosen { from: when.step, value: v.unwrap_or_default() }),
                };
                if let Some(why) = passed {
                    if !options.json {
                        ui.err(&render::step_not_chosen(n, when));
                    }
                    emit(log, i, &plan.steps[i].decision, None, Status::Skipped, Some(why));
                    continue;
                }
            }
            let mut decision = plan.steps[i].decision.clone();
            let binds = plan::binds_of(&plan, n);
            if !binds.is_empty() {
                let mut answers = Vec::new();
                let mut lacking = None;
                let mut refused_bound: Option<String> = None;
                for b in &binds {
                    let field = results[b.from - 1].as_ref().and_then(|d| d.get(&b.field));
                    let value = field.and_then(|f| plan::taken(b.kind, f));
                    // A value a body reported meets the argument's range as a typed value does.
                    let out_of_range = value
                        .as_ref()
                        .and_then(|v| plan::bound_refused(&session.catalog, decision.reflex.as_deref()?, &b.arg, v));
                    if let Some(message) = out_of_range {
                        refused_bound = Some(message);
                        break;
                    }
                    match value {
                        Some(value) => {
                            bounds.borrow_mut()[i].push(Bound {
                                arg: b.arg.clone(),
                                from: b.from,
                                field: b.field.clone(),
                                value: value.clone(),
                            });
                            answers.push((b.arg.clone(), value));
                        }
                        None => lacking = Some(b),
                    }
                }
                // A value no earlier step gave stops the step as one its words do not read.
                let mut unread = refused_bound.or_else(|| {
                    lacking.map(|b| format!("step {} gave no {} of the kind {} takes", b.from, b.field, b.arg))
                });
                // An optional value is written into the step's words, decided again under the same gate.
                let mut candidates = decided[i].candidates.clone();
                let mut fills = Vec::new();
                let taken = if unread.is_none() { answers } else { Vec::new() };
                for ((arg, value), b) in taken.into_iter().zip(&binds) {
                    if b.via != "rewrite" {
                        fills.push((arg, value));
                        continue;
                    }
                    let Some(words) = plan::rewritten_words(&decision.input, &value) else {
                        unread = Some(format!("the value of {arg} cannot be written into the step's words"));
                        break;
                    };
                    let request = session.request(Instant::now());
                    match crate::drive::decide(&request, &words).await {
                        Ok(again)
                            if again.decision.reflex == decision.reflex
                                && again.decision.args.as_ref().and_then(|a| a.get(&arg)).map(|v| v.shown())
                                    == Some(value.shown()) =>
                        {
                            candidates = again.candidates.clone();
                            decision = again.decision;
                        }
                        Ok(_) => {
                            unread = Some(format!("\"{words}\" did not read {} as its {arg}", value.shown()));
                            break;
                        }
                        Err(failed) => {
                            unread = Some(failed.failure.to_string());
                            break;
                        }
                    }
                }
                if let Some(message) = unread {
                    if !options.json {
                        ui.err(&render::step_not_run(n, &message));
                    }
                    emit(log, i, &decision, None, Status::Refused, Some(Why::Said { message }));
                    exit = exit.worse(Exit::Refused);
                    stop_after.get_or_insert(stage_index);
                    continue;
                }
                if !fills.is_empty() {
                    decision = answered(
                        &session.catalog,
                        session.gate.as_ref(),
                        &candidates,
                        &decision,
                        &fills,
                        Some(&plan.input),
                    );
                }
                decision = hold(decision);
                plan.steps[i].decision = decision.clone();
                if !options.json {
                    let call = decision.call.clone().unwrap_or_default();
                    ui.out(&render::plan_step(n, &call, decision.confidence));
                }
            }
            let deadline = started + DEADLINE + waited;
            let ended =
                step(session, log, &mut journal, i, &decision, deadline, present, &mut waited, options, &emit).await;
            exit = exit.worse(ended.exit);
            if ended.exit != Exit::Done && stop_after.is_none() {
                stop_after = Some(stage_index);
            }
            results[i] = ended.data;
            ran_ok[i] = ended.exit == Exit::Done;
        }
    }
    if stop_after.is_some() && !options.json {
        ui.err(&render::weave_stopped());
    }
    Ok(exit)
}

/// Prints and logs the step-0 line of a plan a playbook wrote.
fn emit_head(log: &mut Log, head: &crate::playbook::Head, count: usize, options: &Options<'_>) {
    let ui = options.ui;
    let slots = head.slots.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect();
    let line = to_line(&HeadLine {
        step: 0,
        steps: count,
        decision: &head.pick.decision,
        trace: &head.pick.trace,
        playbook: &head.playbook,
        slots,
    });
    if let Err(e) = log.append(&line, &head.pick.rounds, &head.pick.candidates) {
        ui.err(&render::not_logged("plan's own line", &e));
    }
    if options.json {
        ui.json_line(&line);
    } else {
        ui.out(&render::playbook_picked(&head.playbook, count));
    }
}

/// The command that runs the plan again at a terminal: its file's, or `evoke resume`.
fn again_command(options: &Options<'_>) -> String {
    match &options.pinned {
        Some(pinned) => render::command(&["evoke", "run", &pinned.file]),
        None => render::command(&["evoke", "resume"]),
    }
}

/// One `N.arg=value` given to `evoke run FILE`, read against step N's reflex.
#[derive(Debug, Clone)]
struct Assigned {
    arg: String,
    /// As given, to be given again in a command printed later.
    text: String,
    value: Value,
}

/// Reads every `N.arg=value` against the plan: N a step of it, `arg` an argument of its reflex, the value
/// read exactly as `evoke run NAME arg=value` reads it (options, vocabulary, range, the text rules), and,
/// for an argv body, never one that starts with `-`. Only a value the step still needs may be given: one
/// the plan holds, or takes from an earlier step, is refused. Per step, in the plan's order.
fn assignments(session: &Session, plan: &Plan, given: &[String]) -> Result<Vec<Vec<Assigned>>, CommandError> {
    const FORM: &str = "give each as N.arg=value, N the number of a step that still needs `arg`";
    let count = plan.steps.len();
    let mut per_step: Vec<Vec<Assigned>> = vec![Vec::new(); count];
    for pair in given {
        let usage = |message: String| {
            CommandError::usage(format!("`{pair}`: {message}; nothing ran")).with_fix(FORM.to_string())
        };
        let Some((key, text)) = pair.split_once('=') else {
            return Err(usage("a plan file takes N.arg=value, and this has no `=`".into()));
        };
        let Some((n, arg)) = key.split_once('.') else {
            return Err(usage("a plan file takes N.arg=value, and this names no step".into()));
        };
        let Some(n) = n.parse::<usize>().ok().filter(|n| (1..=count).contains(n)) else {
            return Err(usage(format!("the plan has steps 1 to {count}; there is no step {n}")));
        };
        let decision = &plan.steps[n - 1].decision;
        let name = decision.reflex.as_deref().unwrap_or_default();
        let Some(reflex) = session.catalog.get(name) else {
            return Err(usage(format!("step {n} calls no reflex installed here")));
        };
        let (live, value) = crate::commands::run::read_value(reflex, arg, Some(text)).map_err(|mut e| {
            e.message = format!("`{pair}`: step {n} ({name}): {}; nothing ran", e.message);
            if e.fix.is_none() {
                e.fix = Some(FORM.to_string());
            }
            e
        })?;
        let Some(value) = value else {
            return Err(usage(format!("step {n} ({name}) needs a value for `{live}`, not a flag set to false")));
        };
        let missing = decision.outcome == Outcome::Ask
            && decision.missing.iter().flatten().any(|m| m.arg == live)
            && !plan.binds.iter().any(|b| b.step == n && b.arg == live);
        if !missing {
            let holds = match decision.args.as_ref().and_then(|a| a.get(&live)) {
                Some(v) => format!("already holds `{live}` as \"{}\"", v.shown()),
                None if plan.binds.iter().any(|b| b.step == n && b.arg == live) => {
                    format!("takes `{live}` from an earlier step")
                }
                None => format!("does not ask for `{live}`"),
            };
            return Err(CommandError::usage(format!(
                "`{pair}`: step {n} ({name}) {holds}; a plan file's assignment fills only a value the plan still \
                 needs; nothing ran"
            ))
            .with_fix("leave it out; to change what the sentence says, say the sentence again"));
        }
        if per_step[n - 1].iter().any(|a| a.arg == live) {
            return Err(usage(format!("`{n}.{live}` is given twice; give it once")));
        }
        // An argv body never takes a value that starts with `-`: refused now, before any step runs.
        let argv = matches!(&reflex.manifest.run, evoke_core::manifest::Run::Argv(argv)
            if argv.iter().skip(1).any(|e| *e == format!("{{{live}}}")));
        if argv && text.trim_start().starts_with('-') {
            return Err(usage(format!(
                "step {n} ({name}) runs a program, and a value that starts with `-` could become its option"
            )));
        }
        per_step[n - 1].push(Assigned { arg: live, text: text.to_string(), value });
    }
    Ok(per_step)
}

/// How a plan that stopped for a value is answered.
pub enum AnswerCommand {
    /// The literal command that runs the whole plan with the answer: its plan file and `N.arg=<…>`.
    Run(String),
    /// Only at a terminal: the plan has run in part, and its journal is taken up by this command.
    AtTerminal(String),
}

/// The literal command that answers a plan stopped for a value: `evoke run FILE N.arg='<…>' …`, every value
/// given so far and a placeholder for each one still missing. The file is the plan's own when it ran from
/// one; otherwise the plan is saved now, sealed, in the state place, as `try --save` saves it.
fn answer_command(
    session: &Session,
    settled: &Plan,
    plan: &Plan,
    answers: &[evoke_core::weave::planfile::Answer],
    assigned: &[Vec<Assigned>],
    journal: &Journal,
    options: &Options<'_>,
) -> Result<AnswerCommand, CommandError> {
    let file = match &options.pinned {
        Some(pinned) => std::fs::canonicalize(&pinned.file).unwrap_or_else(|_| pinned.file.clone().into()),
        None => {
            // A plan taken up by `evoke resume` that has run in part goes on under its own journal.
            if (1..=plan.steps.len()).any(|n| journal.entry(n).is_some()) {
                return Ok(AnswerCommand::AtTerminal(again_command(options)));
            }
            save_asked(session, settled, answers)?
        }
    };
    let mut words = vec!["evoke".to_string()];
    words.extend(options.repeated.iter().cloned());
    words.push("run".into());
    words.push(file.display().to_string());
    for (i, step) in plan.steps.iter().enumerate() {
        let n = i + 1;
        for a in &assigned[i] {
            words.push(format!("{n}.{}={}", a.arg, a.text));
        }
        let decision = &step.decision;
        if decision.outcome != Outcome::Ask {
            continue;
        }
        for m in decision.missing.iter().flatten() {
            if plan.binds.iter().any(|b| b.step == n && b.arg == m.arg) {
                continue;
            }
            words.push(render::placeholder(&format!("{n}.{}", m.arg), m));
        }
    }
    Ok(AnswerCommand::Run(render::command(&words)))
}

/// How many plans saved for an answer are kept: a new one past this many removes the oldest.
const ASKED_KEPT: usize = crate::journal::KEPT;

/// Saves a plan stopped for a value as a sealed plan file in the state place (`weave/asked/`), with its
/// journal begun, and gives its path. Each is one request: it carries an id of its own, so the same
/// sentence stopped again is a new plan file with a new journal, as a sentence said again is a new request.
fn save_asked(
    session: &Session,
    plan: &Plan,
    answers: &[evoke_core::weave::planfile::Answer],
) -> Result<std::path::PathBuf, CommandError> {
    use sha2::Digest;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let mut hasher = sha2::Sha256::new();
    hasher.update(b"evoke asked\0");
    hasher.update(std::process::id().to_le_bytes());
    hasher.update(now.as_nanos().to_le_bytes());
    hasher.update(plan.input.as_bytes());
    let id: String = hasher.finalize().iter().take(12).map(|b| format!("{b:02x}")).collect();
    let dir = session.places.state.join("weave").join("asked");
    evoke_files::atomic::create_private_dirs(&dir)
        .map_err(|e| CommandError::failed(format!("cannot make {}: {e}", dir.display())))?;
    let path = dir.join(format!("{id}.plan.json"));
    let sealed = seal_plan(session, plan, answers, &[], Some(&id))?;
    evoke_files::atomic::write(&path, sealed.as_bytes())
        .map_err(|e| CommandError::failed(format!("cannot write {}: {e}", path.display())))?;
    prune_asked(&dir, &path);
    Ok(path)
}

/// Removes the oldest plans saved for an answer past [`ASKED_KEPT`], never `keep`.
fn prune_asked(dir: &Path, keep: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut saved: Vec<(std::time::SystemTime, std::path::PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p != keep && p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| Some((p.symlink_metadata().ok()?.modified().ok()?, p)))
        .collect();
    if saved.len() < ASKED_KEPT {
        return;
    }
    saved.sort();
    let extra = saved.len() + 1 - ASKED_KEPT;
    for (_, path) in saved.into_iter().take(extra) {
        let _ = std::fs::remove_file(path);
    }
}

fn skipped() -> (Status, Option<Why>) {
    (Status::Skipped, Some(Why::EarlierStep))
}

/// A plan that needs an answer no one can give here: every step's line at once, nothing run, and `said`
/// of the step `asking` (what it asks, and how to answer).
fn stopped_before_running<F>(
    plan: &Plan,
    asking: usize,
    said: &str,
    options: &Options<'_>,
    emit: &F,
    log: &mut Log,
) -> Exit
where
    F: Fn(&mut Log, usize, &Decision, Option<&evoke_bodies::Ran>, Status, Option<Why>),
{
    let ui = options.ui;
    // The step that waits says the question no one answered; the others say which step held them, since
    // none of them was stopped by a step that ran.
    let held = Why::Said { message: format!("step {} waits for a person; nothing ran", asking + 1) };
    for (j, step) in plan.steps.iter().enumerate() {
        let (status, why) = if j == asking || step.decision.outcome == Outcome::Ask {
            (Status::Unanswered, Some(Why::Said { message: question_of(&step.decision) }))
        } else {
            (Status::Skipped, Some(held.clone()))
        };
        emit(log, j, &step.decision, None, status, why);
    }
    if !options.json {
        ui.err(said);
    }
    Exit::NeedsPerson
}

/// The question a waiting step puts to a person: its confirm's own question, or what its ask asks.
fn question_of(decision: &Decision) -> String {
    if let Some(prompt) = &decision.prompt {
        return prompt.template.clone();
    }
    let asks: Vec<&str> = decision.missing.iter().flatten().map(|m| m.ask.as_str()).collect();
    if asks.is_empty() { "a yes".to_string() } else { asks.join(" ") }
}

/// One step at its turn: the journal first, then the gate, then the body.
#[allow(clippy::too_many_arguments)]
async fn step<F>(
    session: &Session,
    log: &mut Log,
    journal: &mut Journal,
    i: usize,
    decision: &Decision,
    deadline: Instant,
    present: bool,
    waited: &mut std::time::Duration,
    options: &Options<'_>,
    emit: &F,
) -> Ended
where
    F: Fn(&mut Log, usize, &Decision, Option<&evoke_bodies::Ran>, Status, Option<Why>),
{
    let ui = options.ui;
    let n = i + 1;
    let call = decision.call.clone().unwrap_or_default();
    let effect = decision.effect.unwrap_or(Effect::Destructive);
    let said = |message: String| Some(Why::Said { message });
    if let Some(entry) = journal.entry(n).cloned() {
        match entry.mark {
            Mark::Done => {
                if !options.json {
                    ui.err(&render::step_ran_before(n));
                    if let Some(result) = &entry.result {
                        ui.out(&render::result(result));
                    }
                }
                let status = if entry.failed { Status::Failed } else { Status::Ran };
                emit(log, i, decision, None, status, said("it ran before; it does not run again".into()));
                let exit = if entry.failed { Exit::Failed } else { Exit::Done };
                return Ended { exit, data: entry.data.clone() };
            }
            Mark::Intent => {
                let question = format!("step {n} ({}) started before and may already have acted; run it again?", call);
                if !present {
                    let message = format!("{question} Answer at a terminal: {}", again_command(options));
                    if !options.json {
                        ui.err(&render::said(&message));
                    }
                    emit(log, i, decision, None, Status::Unanswered, said(message));
                    return Ended { exit: Exit::NeedsPerson, data: None };
                }
                let asked = Instant::now();
                let yes = ui.confirm(Question::Own(&question));
                *waited += asked.elapsed();
                if !yes {
                    emit(log, i, decision, None, Status::Declined, None);
                    return Ended { exit: Exit::Declined, data: None };
                }
            }
        }
    }
    match decision.outcome {
        Outcome::Abstain | Outcome::Ask => {
            emit(log, i, decision, None, Status::Refused, said("the step was not settled".into()));
            return Ended { exit: Exit::Refused, data: None };
        }
        Outcome::Confirm => {
            let Some(prompt) = decision.prompt.clone() else {
                return Ended { exit: Exit::Failed, data: None };
            };
            if !present {
                if !options.json {
                    // The plan goes on from its journal, at a terminal: a call by name would run this step
                    // alone and lose the steps after it.
                    ui.err(&render::step_unanswered(n, &prompt, &again_command(options)));
                }
                emit(log, i, decision, None, Status::Unanswered, said(prompt.template.clone()));
                return Ended { exit: Exit::NeedsPerson, data: None };
            }
            if !crate::act::confirmed(ui, &prompt, waited) {
                ui.err(&render::step_declined(n));
                emit(log, i, decision, None, Status::Declined, None);
                return Ended { exit: Exit::Declined, data: None };
            }
        }
        Outcome::Run => {}
    }
    /// What runs: a function handed over as code, or a body evoke starts.
    enum Runs<'c> {
        Code(&'c crate::sdk::CodeReflex),
        Body(body::Prepared),
    }
    let runs = match options.code.iter().find(|c| Some(c.name()) == decision.reflex.as_deref()) {
        Some(code) => Runs::Code(code),
        None => match crate::act::prepare(session, decision, deadline + *waited) {
            Ok(prepared) => Runs::Body(prepared),
            // The step's error is said where it stands; the weave goes on to end its stage.
            Err(e) => {
                ui.error(&e);
                let status = if e.exit == Exit::Refused { Status::Refused } else { Status::Failed };
                emit(log, i, decision, None, status, said(e.message.clone()));
                return Ended { exit: e.exit, data: None };
            }
        },
    };
    let journaled = effect != Effect::Read;
    if journaled && let Err(e) = journal.intent(n, &call) {
        let message = format!("the step's intent cannot be recorded: {e}; it did not run");
        ui.error(&CommandError::failed(message));
        emit(log, i, decision, None, Status::Refused, said(format!("the journal cannot be written: {e}")));
        return Ended { exit: Exit::Failed, data: None };
    }
    let ran = match runs {
        Runs::Code(code) => code.call(&decision.args.clone().unwrap_or_default(), &decision.input),
        Runs::Body(prepared) if options.signals => body::run(&prepared, &session.places.cache, interrupted()).await,
        Runs::Body(prepared) => body::run(&prepared, &session.places.cache, std::future::pending()).await,
    };
    let (text, failed) = match &ran.result {
        Ok(output) => (Some(output.text.as_str()), false),
        Err(failure) => (Some(failure.message.as_str()), true),
    };
    let data = ran.result.as_ref().ok().and_then(|o| o.data.as_ref());
    if journaled && let Err(e) = journal.done(n, &call, text, data, failed) {
        ui.err(&render::step_end_not_recorded(&e));
    }
    if ran.cancelled {
        emit(log, i, decision, Some(&ran), Status::Failed, said("cancelled".into()));
        return Ended { exit: Exit::Failed, data: None };
    }
    let exit = crate::act::shown(ui, &ran, options.json);
    match &ran.result {
        Ok(output) => {
            emit(log, i, decision, Some(&ran), Status::Ran, None);
            Ended { exit, data: output.data.clone() }
        }
        Err(failure) => {
            emit(log, i, decision, Some(&ran), Status::Failed, said(failure.message.clone()));
            Ended { exit, data: None }
        }
    }
}

/// The plan whole on one line, as `evoke try --json` prints it.
#[derive(Serialize)]
pub struct PlanLine<'a> {
    #[serde(flatten)]
    pub plan: &'a Plan,
    pub trace: &'a [TraceEntry],
}

impl<'a> PlanLine<'a> {
    pub fn of(woven: &'a crate::weave::PlanDecided, trace: &'a [TraceEntry]) -> Self {
        PlanLine { plan: &woven.plan, trace }
    }
}

/// `evoke why` for a weave, from the log alone: a step's line explains that step and lists every step
/// of its plan with how it ended; a plan refused whole says why; `try`'s plan line lists its steps.
pub fn why(ui: &Ui, log_path: &Path, back: usize, entry: &serde_json::Value) -> Exit {
    // A plan `try` printed, or one refused whole.
    if entry.get("step").is_none() {
        ui.out(&render::plan_why(&LoggedPlan::of(entry)));
        return Exit::Done;
    }
    let this = LoggedStep::of(entry);
    ui.out(&render::step_head(&this));
    crate::commands::why::explain(ui, entry);
    ui.out(&render::step_end(&this));
    // The plan's other lines sit beside this one in the log, in the order they were written.
    ui.out(&render::the_plan());
    let (step, steps) = (this.step.unwrap_or(1) as usize, this.steps.unwrap_or(1));
    let first = back + step - 1;
    for k in 0..steps as usize {
        let Some(at) = first.checked_sub(k) else { break };
        let Ok(line) = crate::log::entry(log_path, at) else { break };
        let other = LoggedStep::of(&line);
        if other.steps != Some(steps) {
            break;
        }
        ui.out(&render::step_line(&other));
    }
    Exit::Done
}

/// What a plan file pins, as it is here now.
pub fn pins(session: &Session) -> evoke_core::weave::planfile::Pins {
    use evoke_core::project::Setting;
    use evoke_core::weave::planfile::{self, AdapterPin, Pins, ReflexPin};
    let mut reflexes = std::collections::BTreeMap::new();
    let mut vocab = std::collections::BTreeMap::new();
    for reflex in session.catalog.reflexes() {
        // A secret's pin is the variable it is read from, never its value.
        let settings: Vec<(String, String)> = session
            .project
            .settings(&reflex.name)
            .iter()
            .map(|(k, s)| match s {
                Setting::Plain(v) => (k.clone(), format!("plain:{v}")),
                Setting::Env(var) => (k.clone(), format!("env:{var}")),
            })
            .collect();
        for (name, v) in &reflex.vocabs {
            vocab.insert(name.clone(), planfile::vocab(v));
        }
        // A playbook is pinned by the hash of its directory: its steps are its wording.
        if let Some(playbook) = session.project.playbook(&reflex.name) {
            let path = Some(playbook.dir.display().to_string());
            reflexes.insert(reflex.name.clone(), ReflexPin { item: playbook.item.clone(), path });
            continue;
        }
        let path = session.project.installed(&reflex.name).map(|i| i.dir.display().to_string());
        reflexes.insert(reflex.name.clone(), ReflexPin { item: planfile::item(reflex, &settings), path });
    }
    Pins {
        evoke: env!("CARGO_PKG_VERSION").to_string(),
        adapter: AdapterPin { name: session.adapter_name.clone(), id: session.adapter.id().to_string() },
        gate: session.gate,
        set: session.plan.clone(),
        reflexes,
        vocab,
    }
}

/// The key plan files are sealed with, made on first use in the data place.
fn plan_key(session: &Session) -> Result<[u8; evoke_files::plan_key::KEY_BYTES], CommandError> {
    evoke_files::plan_key::key(&session.places.data).map_err(|e| CommandError::failed(e.to_string()))
}

/// `evoke try --save FILE`: the plan whole, sealed, written atomically. Its journal is begun empty here,
/// so that running the file finds it: a file whose journal is missing asks before each write.
pub fn save(ui: &Ui, session: &Session, woven: &PlanDecided, path: &Path, tags: &[String]) -> CommandResult {
    let sealed = seal_plan(session, &woven.plan, &woven.answers, tags, None)?;
    evoke_files::atomic::write(path, sealed.as_bytes())
        .map_err(|e| CommandError::failed(format!("cannot write {}: {e}", path.display())))?;
    ui.err(&render::plan_saved(&path.display().to_string()));
    Ok(Exit::Done)
}

/// A plan file's text, sealed, with its journal begun (kept as it is when the same plan was saved before).
pub(crate) fn seal_plan(
    session: &Session,
    plan: &Plan,
    answers: &[evoke_core::weave::planfile::Answer],
    tags: &[String],
    asked: Option<&str>,
) -> Result<String, CommandError> {
    let weave = serde_json::to_value(plan).unwrap_or_default();
    let text = evoke_core::weave::planfile::write(&pins(session), &plan.input, tags, weave, answers.to_vec(), asked);
    let key = plan_key(session)?;
    let sealed = evoke_core::weave::planfile::seal(&text, &key);
    let opened = evoke_core::weave::planfile::unseal(&sealed, &key)
        .map_err(|e| CommandError::failed(format!("the plan just sealed does not open: {e}")))?;
    let digest = plan.digest();
    let origin = Origin::File { seal: &opened.mac };
    let project = project_key(session);
    let mut journal =
        Journal::open(&session.places.state, &project, &digest, origin, &plan.input, true).map_err(journal_refused)?;
    // The same plan saved again has the same seal: its journal, with what already ran, is kept as it is.
    if !journal.found() {
        journal.keep().map_err(|e| CommandError::failed(format!("the plan's journal cannot be begun: {e}")))?;
    }
    Ok(sealed)
}

/// `evoke run FILE`: the plan of a plan file, run only when its seal holds, every pin still holds and its
/// answers give the very plan written. Nothing runs otherwise. A file sealed by another key (written
/// elsewhere) is decided again here from its sentence, and each of its writes asks first.
pub fn run_file(
    session: &Session,
    path: &Path,
    assigned: &[String],
    context: &crate::context::Context,
) -> CommandResult {
    let (ui, json, project_flag) = (&context.ui, context.json, context.project_dir());
    let repeated = context.repeated();
    use evoke_core::weave::planfile;
    let shown = path.display().to_string();
    let refused = |refused: planfile::Refused| {
        Err(CommandError::refused(format!("{shown}: {refused}; nothing ran")).with_fix(refused.fix))
    };
    let refuse = |message: String| Err(CommandError::refused(format!("{shown}: {message}; nothing ran")));
    // Bounded while reading and only a regular file: a link to /dev/zero reads as size 0 and never ends.
    let text = match evoke_files::bounded::read_to_string(path, planfile::MAX_BYTES as u64) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(CommandError::usage(format!("cannot read {shown}: {e}")));
        }
        Err(e) => return refuse(format!("cannot be read: {e}")),
    };
    let key = plan_key(session)?;
    let opened = match planfile::unseal(&text, &key) {
        Ok(opened) => opened,
        Err(e) => return refused(e),
    };
    // Lines are counted in the file as read; the sealed text lacks the seal's line.
    let shift = |mut e: planfile::Refused| {
        e.line += 1;
        e
    };
    let file = match planfile::read(&opened.text) {
        Ok(file) => file,
        Err(e) => return refused(shift(e)),
    };
    if let Err(e) = planfile::check(&opened.text, &file, &pins(session)) {
        return refused(shift(e));
    }
    let runtime = crate::session::runtime()?;
    let mut log = Log::open(&session.places.log());
    let pinned = Pinned { file: shown.clone(), id: planfile::id(&text) };
    let options = Options {
        ui,
        json,
        project_flag,
        pinned: Some(pinned),
        assigned,
        repeated: &repeated,
        signals: true,
        code: &[],
    };
    if !opened.ours {
        let journaled = Journaled::Elsewhere { text: &text };
        ui.err(&render::plan_from_elsewhere(&shown));
        return runtime.block_on(async {
            let started = Instant::now();
            let request = session.request(started);
            match crate::weave::weave(&request, &file.input).await {
                Ok(crate::weave::Woven::Plan(woven)) => {
                    act(session, &mut log, *woven, started, &options, journaled).await
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
        act(session, &mut log, *woven, started, &options, Journaled::File { seal: &opened.mac }).await
    })
}
