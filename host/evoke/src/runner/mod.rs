//! Running a woven plan: settled first (every missing required value asked up front), shown numbered,
//! then run stage by stage, each step through the same gate as one input when its turn comes. A failure,
//! a decline or a refusal ends the weave after its stage; the steps after it are skipped and say so. The
//! exit code is the worst step's.
//!
//! The runner acts through a [`Ui`] and the [`crate::ui::Person`] it holds: the command's terminal, or a
//! library caller's callbacks. `evoke SENTENCE`, `evoke run FILE`, `evoke resume` and the library's
//! `Evoke::run_plan` all run a plan through [`run`].

mod answer;
mod assigned;
mod beside;
mod lines;
pub mod planfile;
mod stages;
mod step;

pub use lines::{Bound, Pinned, PlanLine, Status, StepLine, Why};

use crate::drive::{Decided, Round, TraceEntry};
use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::journal::{Journal, JournalError, Mark, Origin};
use crate::line::{RanFields, to_line};
use crate::log::Log;
use crate::render;
use crate::session::Session;
use crate::ui::{Person, Question, Ui};
use crate::weave::PlanDecided;
use assigned::Assigned;
use evoke_core::decide::answered;
use evoke_core::decision::{Decision, Outcome, Value};
use evoke_core::manifest::Effect;
use evoke_core::weave::plan::{self, Plan, VerdictBecause};
use lines::{HeadLine, WholeLine};
use std::path::Path;
use std::time::{Duration, Instant};

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

/// Prints and logs a refused plan's lines, and says why: a line per step when a woven step's words found
/// nothing installed (that step `refused`, `found_nothing`, and the others `skipped`, since the plan runs
/// none of them); else the one line of a plan refused before it was made.
pub fn refused_plan(ui: &Ui, log: &mut Log, woven: &PlanDecided, json: bool, pinned: Option<&Pinned>) -> CommandResult {
    let plan = &woven.plan;
    let found_nothing = |b: &VerdictBecause| matches!(b, VerdictBecause::FoundNothing { .. });
    // A playbook's plan is refused whole, on one line, as its own page says.
    let a_step_found_nothing = plan.steps.iter().any(|s| s.decision.outcome == Outcome::Abstain);
    if woven.head.is_none() && a_step_found_nothing && plan.verdict.because.iter().all(found_nothing) {
        for line in found_nothing_lines(ui, log, woven, json, pinned) {
            ui.json_line(&line);
        }
        if !json {
            let texts: Vec<&str> = plan
                .verdict
                .because
                .iter()
                .filter_map(|b| match b {
                    VerdictBecause::FoundNothing { text } => Some(text.as_str()),
                    _ => None,
                })
                .collect();
            ui.err(&render::found_nothing(&texts));
        }
        return Ok(Exit::Abstain);
    }
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

/// Logs the line of every step of a plan a step of which found nothing installed, and gives them to be
/// printed under `--json` (none otherwise). The sentence's own rounds go on the first step's line.
fn found_nothing_lines(
    ui: &Ui,
    log: &mut Log,
    woven: &PlanDecided,
    json: bool,
    pinned: Option<&Pinned>,
) -> Vec<String> {
    let plan = &woven.plan;
    let first = plan.steps.iter().position(|s| s.decision.outcome == Outcome::Abstain).map_or(1, |i| i + 1);
    let held = Why::Said { message: format!("step {first} found nothing installed to do it; nothing ran") };
    let traces = own_on_first(&woven.trace, woven.steps.iter().map(|d| &d.trace));
    let rounds = own_on_first(&woven.rounds, woven.steps.iter().map(|d| &d.rounds));
    let mut lines = Vec::new();
    for (i, (step, decided)) in plan.steps.iter().zip(&woven.steps).enumerate() {
        let (status, why) = if step.decision.outcome == Outcome::Abstain {
            (Status::Refused, Why::FoundNothing)
        } else {
            (Status::Skipped, held.clone())
        };
        let line = to_line(&StepLine {
            step: i + 1,
            steps: plan.steps.len(),
            decision: &step.decision,
            trace: &traces[i],
            bound: &[],
            shared: &step.shared,
            beside: &step.beside,
            ran: None,
            pinned,
            from: &step.from,
            when: step.when.as_ref(),
            status,
            why: Some(why),
        });
        if let Err(e) = log.append(&line, &rounds[i], &decided.candidates) {
            ui.err(&render::not_logged("step", &e));
        }
        if json {
            lines.push(line);
        }
    }
    lines
}

/// Per step, what it logs: the sentence's own entries (its trace, its rounds) on the first step's line,
/// beside that step's own, and each other step's own alone.
fn own_on_first<'a, T: Clone + 'a>(own: &[T], steps: impl Iterator<Item = &'a Vec<T>>) -> Vec<Vec<T>> {
    steps.enumerate().map(|(i, s)| if i == 0 { own.iter().chain(s).cloned().collect() } else { s.clone() }).collect()
}

/// The plan a person made runnable by choosing, at a terminal, the one source of each value that several
/// earlier results could give (000 §13.2: it is asked, never guessed). `None` when no one is present, the
/// plan is refused for anything else, or a question is left unanswered.
fn sources_chosen(session: &Session, ui: &Ui, refused: &Plan) -> Option<Plan> {
    use evoke_core::decision::{Choices, Missing, MissingBecause, Texts};
    if !ui.present() || refused.verdict.because.is_empty() {
        return None;
    }
    let mut chosen = Vec::new();
    for because in &refused.verdict.because {
        let VerdictBecause::SeveralSources { step, arg, from, fields } = because else { return None };
        let options = from
            .iter()
            .zip(fields)
            .map(|(from, field)| {
                let reflex = refused.steps[from - 1].decision.reflex.clone().unwrap_or_default();
                (format!("{from}.{field}"), format!("step {from}'s {field} ({reflex})"))
            })
            .collect();
        let question = Missing {
            arg: arg.clone(),
            ask: format!("Step {step} refers back for its {arg}. Which result gives it?"),
            because: MissingBecause::Unstated,
            words: None,
            choices: Choices::Options { options: Texts(options) },
            likely: None,
        };
        let Some(Value::Option { key }) = ui.ask(&question) else { return None };
        let (from, field) = key.split_once('.')?;
        chosen.push(plan::Chosen { step: *step, arg: arg.clone(), from: from.parse().ok()?, field: field.into() });
    }
    let plan = plan::choose(&session.catalog, refused, &chosen);
    (!plan.refused()).then_some(plan)
}

/// A plan at its run: the journal held from its start to its end, what each step's line is made of, and
/// the time a person took to answer, which never counts against the deadline.
struct Runner<'r> {
    session: &'r Session,
    options: &'r Options<'r>,
    log: &'r mut Log,
    journal: Journal,
    /// Every write waits for a yes: the journal cannot say which ran before.
    asks_each_write: bool,
    present: bool,
    waited: Duration,
    count: usize,
    /// Per step: the trace and rounds logged on its line (the sentence's own on the first), its
    /// candidates, and the values bound at its turn.
    traces: Vec<Vec<TraceEntry>>,
    rounds: Vec<Vec<Round>>,
    decided: Vec<Decided>,
    bounds: Vec<Vec<Bound>>,
    /// Per step, the whole results it takes (`via: takes`), by argument, handed to its body at its turn.
    wholes: Vec<Vec<(String, serde_json::Value)>>,
    from_of: Vec<Vec<evoke_core::playbook::From>>,
    /// Per step, the words the sentence said once for several steps that it took.
    shared_of: Vec<std::collections::BTreeMap<String, evoke_core::weave::shared::Shared>>,
    /// Per step, the earlier step beside whose day each day of the month it says was read.
    beside_of: Vec<std::collections::BTreeMap<String, usize>>,
    when_of: Vec<Option<evoke_core::playbook::When>>,
}

/// Runs a decided plan: refused whole, or settled, reviewed when a playbook waits for it, checked for a
/// step that would wait with no one present, then run stage by stage.
pub async fn run(
    session: &Session,
    log: &mut Log,
    woven: PlanDecided,
    started: Instant,
    options: &Options<'_>,
    journaled: Journaled<'_>,
) -> CommandResult {
    let ui = options.ui;
    let mut woven = woven;
    if woven.plan.refused() {
        match sources_chosen(session, ui, &woven.plan) {
            Some(plan) => woven.plan = plan,
            None => return refused_plan(ui, log, &woven, options.json, options.pinned.as_ref()),
        }
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
    let assigned = assigned::assignments(session, &plan, options.assigned)?;
    // The journal is held from here to the plan's end: another evoke taking up the same plan is refused
    // before it reads what ran, never let run a step this one is running.
    let state = &session.places.state;
    let (journal, asks_each_write) = match journaled {
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
    let count = plan.steps.len();
    // The sentence's own round is logged on the first step's line, beside that step's rounds.
    let traces = own_on_first(&own_trace, decided.iter().map(|d| &d.trace));
    let rounds = own_on_first(&own_rounds, decided.iter().map(|d| &d.rounds));
    let mut runner = Runner {
        session,
        options,
        log,
        journal,
        asks_each_write,
        present: ui.present(),
        waited: Duration::ZERO,
        count,
        traces,
        rounds,
        decided,
        bounds: vec![Vec::new(); count],
        wholes: vec![Vec::new(); count],
        from_of: plan.steps.iter().map(|s| s.from.clone()).collect(),
        shared_of: plan.steps.iter().map(|s| s.shared.clone()).collect(),
        beside_of: plan.steps.iter().map(|s| s.beside.clone()).collect(),
        when_of: plan.steps.iter().map(|s| s.when.clone()).collect(),
    };
    // Every write of a plan whose journal cannot be trusted waits for a yes: held now, and again whenever
    // a step is decided anew (an answer, a value bound at its turn).
    for step in &mut plan.steps {
        step.decision = runner.hold(step.decision.clone());
    }
    if let Some(head) = &head {
        runner.emit_head(head);
    }
    if let Some(exit) = runner.settle(&mut plan, &settled, &plan_answers, &assigned)? {
        return Ok(exit);
    }
    let shown_whole = match runner.review(&plan, head.as_deref()) {
        Ok(shown) => shown,
        Err(exit) => return Ok(exit),
    };
    if let Some(exit) = runner.stops_before_running(&plan) {
        return Ok(exit);
    }
    if !options.json && !shown_whole {
        ui.out(&render::plan_steps(&plan));
    }
    runner
        .journal
        .begin()
        .map_err(|e| CommandError::failed(format!("the plan's journal cannot be kept: {e}; nothing ran")))?;
    Ok(runner.stages(&mut plan, started).await)
}

impl Runner<'_> {
    /// The decision, held to wait for a yes on every write when the journal cannot be trusted.
    fn hold(&self, decision: Decision) -> Decision {
        if self.asks_each_write {
            evoke_core::decide::held_without_journal(&self.session.catalog, &decision)
        } else {
            decision
        }
    }

    /// Prints (under `--json`) and logs the line of step `i`.
    fn emit(
        &mut self,
        i: usize,
        decision: &Decision,
        ran: Option<&evoke_bodies::Ran>,
        status: Status,
        why: Option<Why>,
    ) {
        let line = to_line(&StepLine {
            step: i + 1,
            steps: self.count,
            decision,
            trace: &self.traces[i],
            bound: &self.bounds[i],
            shared: &self.shared_of[i],
            beside: &self.beside_of[i],
            // A step says Ctrl-C as its status and `why`, not as the body's `cancelled`.
            ran: ran.map(|ran| RanFields { cancelled: false, ..RanFields::of(ran) }),
            pinned: self.options.pinned.as_ref(),
            from: &self.from_of[i],
            when: self.when_of[i].as_ref(),
            status,
            why,
        });
        if let Err(e) = self.log.append(&line, &self.rounds[i], &self.decided[i].candidates) {
            self.options.ui.err(&render::not_logged("step", &e));
        }
        if self.options.json {
            self.options.ui.json_line(&line);
        }
    }

    /// Prints and logs the step-0 line of a plan a playbook wrote.
    fn emit_head(&mut self, head: &crate::playbook::Head) {
        let ui = self.options.ui;
        let slots = head.slots.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect();
        let line = to_line(&HeadLine {
            step: 0,
            steps: self.count,
            decision: &head.pick.decision,
            trace: &head.pick.trace,
            playbook: &head.playbook,
            slots,
        });
        if let Err(e) = self.log.append(&line, &head.pick.rounds, &head.pick.candidates) {
            ui.err(&render::not_logged("plan's own line", &e));
        }
        if self.options.json {
            ui.json_line(&line);
        } else {
            ui.out(&render::playbook_picked(&head.playbook, self.count));
        }
    }

    /// Settled first: every missing required value is asked before anything runs. `Some` exit when the
    /// plan ends here: a value no one can give, or one left unanswered.
    fn settle(
        &mut self,
        plan: &mut Plan,
        settled: &Plan,
        plan_answers: &[evoke_core::weave::planfile::Answer],
        assigned: &[Vec<Assigned>],
    ) -> Result<Option<Exit>, CommandError> {
        let (session, options, ui) = (self.session, self.options, self.options.ui);
        for i in 0..self.count {
            let decision = plan.steps[i].decision.clone();
            if decision.outcome != Outcome::Ask || (!plan.binds.is_empty() && plan::filled_by_binds(plan, i + 1)) {
                continue;
            }
            let mut decision = decision;
            if !assigned[i].is_empty() {
                let given: Vec<(String, Value)> =
                    assigned[i].iter().map(|a| (a.arg.clone(), a.value.clone())).collect();
                decision = self.hold(answered(
                    &session.catalog,
                    session.gate.as_ref(),
                    &self.decided[i].candidates,
                    &decision,
                    &given,
                    Some(&plan.input),
                ));
                plan.steps[i].decision = decision.clone();
                if decision.outcome != Outcome::Ask {
                    continue;
                }
            }
            if !self.present && options.json {
                // The JSON lines say what stopped; no plan is saved for a command no one is shown.
                return Ok(Some(self.stopped_before_running(plan, i, "")));
            }
            if !self.present {
                let answer =
                    answer::answer_command(session, settled, plan, plan_answers, assigned, &self.journal, options);
                let said = match answer {
                    Ok(answer::AnswerCommand::Run(command)) => {
                        render::unanswered_in_plan(&decision, i + 1, &command, false)
                    }
                    Ok(answer::AnswerCommand::AtTerminal(command)) => {
                        render::unanswered_in_plan(&decision, i + 1, &command, true)
                    }
                    Err(e) => {
                        ui.err(&render::warning(&e.message, None));
                        render::unanswered_in_plan(&decision, i + 1, &again_command(options), true)
                    }
                };
                return Ok(Some(self.stopped_before_running(plan, i, &said)));
            }
            let asked = Instant::now();
            ui.err(&render::step_asks(i + 1, decision.reflex.as_deref().unwrap_or_default()));
            let Ok(answers) = crate::act::ask_missing(ui, &session.catalog, &decision) else {
                for (j, step) in plan.steps.iter().enumerate() {
                    let (status, why) = if j == i { (Status::Declined, None) } else { skipped() };
                    self.emit(j, &step.decision, None, status, why);
                }
                ui.err(&render::left_unanswered());
                return Ok(Some(Exit::Declined));
            };
            self.waited += asked.elapsed();
            plan.steps[i].decision = self.hold(answered(
                &session.catalog,
                session.gate.as_ref(),
                &self.decided[i].candidates,
                &decision,
                &answers,
                Some(&plan.input),
            ));
        }
        Ok(None)
    }

    /// A playbook not reviewed as it is now, or picked under the bar of its strongest step, waits for one
    /// yes with every step shown: a playbook never runs a step the person has not seen. Whether the plan
    /// was shown whole, or the exit it ends with.
    fn review(&mut self, plan: &Plan, head: Option<&crate::playbook::Head>) -> Result<bool, Exit> {
        let (session, options, ui) = (self.session, self.options, self.options.ui);
        let Some(head) = head else { return Ok(false) };
        let Some(question) = &head.confirm else { return Ok(false) };
        if !self.present {
            for (j, step) in plan.steps.iter().enumerate() {
                let why = Why::Said { message: question.clone() };
                self.emit(j, &step.decision, None, Status::Unanswered, Some(why));
            }
            if !options.json {
                let again = match &options.pinned {
                    Some(pinned) => format!("run {} again", render::command(&["evoke", "run", &pinned.file])),
                    None => "say it again".to_string(),
                };
                ui.err(&render::playbook_waits(&head.playbook, question, &again));
            }
            return Err(Exit::NeedsPerson);
        }
        // Under `--json` standard output carries the lines alone; what the person reviews goes beside them.
        let show = |text: &str| if options.json { ui.err(text) } else { ui.out(text) };
        show(&render::plan_steps(plan));
        // The sentences that pick it are part of what the person says yes to: a routine claiming an
        // everyday sentence is seen here, not found out when it runs.
        if let Some(playbook) = session.catalog.playbook(&head.playbook) {
            show(&render::playbook_examples(playbook));
        }
        // Words the pick left unread, or its mood, are seen before the yes, not lost in it.
        if let Some(prompt) =
            head.pick.decision.prompt.as_ref().filter(|_| head.pick.decision.outcome == Outcome::Confirm)
        {
            show(&render::playbook_pick_waits(&prompt.reason));
        }
        let asked = Instant::now();
        let yes = ui.confirm(Question::Own(question));
        self.waited += asked.elapsed();
        if !yes {
            for (j, step) in plan.steps.iter().enumerate() {
                self.emit(j, &step.decision, None, Status::Declined, None);
            }
            ui.err(&render::declined());
            return Err(Exit::Declined);
        }
        crate::playbook::record_reviews(ui, session, &head.unreviewed);
        Ok(true)
    }

    /// Never half done: where no one can say yes, a step that would wait for one stops the plan before
    /// its first step runs, not after it. A plan run again counts what its journal holds: a done step does
    /// not run, and one left at `intent` waits for a yes too.
    fn stops_before_running(&mut self, plan: &Plan) -> Option<Exit> {
        if self.present {
            return None;
        }
        let waits = plan.steps.iter().enumerate().find_map(|(i, s)| {
            let mark = self.journal.entry(i + 1).map(|e| e.mark);
            match mark {
                Some(Mark::Done) => None,
                Some(Mark::Intent) => Some((i, true)),
                // A step whose value is bound at its turn is decided then; a destructive one always waits,
                // and every write waits where the journal cannot be trusted.
                None => {
                    // An ask has no effect on its line yet: its reflex's, from the manifest.
                    let reflex = s.decision.reflex.as_deref().and_then(|r| self.session.catalog.get(r));
                    let effect = reflex.map_or(Effect::Destructive, |r| r.manifest.effect);
                    let bound_later = !plan::binds_of(plan, i + 1).is_empty()
                        && (effect == Effect::Destructive || (self.asks_each_write && effect != Effect::Read));
                    (s.decision.outcome == Outcome::Confirm || bound_later).then_some((i, false))
                }
            }
        });
        let (waits, started_before) = waits?;
        let said = if started_before {
            render::plan_step_started_before(waits + 1, &again_command(self.options))
        } else {
            render::plan_waits(waits + 1, &plan.steps[waits].decision)
        };
        Some(self.stopped_before_running(plan, waits, &said))
    }

    /// A plan that needs an answer no one can give here: every step's line at once, nothing run, and
    /// `said` of the step `asking` (what it asks, and how to answer).
    fn stopped_before_running(&mut self, plan: &Plan, asking: usize, said: &str) -> Exit {
        // The step that waits says the question no one answered; the others say which step held them,
        // since none of them was stopped by a step that ran.
        let held = Why::Said { message: format!("step {} waits for a person; nothing ran", asking + 1) };
        for (j, step) in plan.steps.iter().enumerate() {
            let (status, why) = if j == asking || step.decision.outcome == Outcome::Ask {
                (Status::Unanswered, Some(Why::Said { message: question_of(&step.decision) }))
            } else {
                (Status::Skipped, Some(held.clone()))
            };
            self.emit(j, &step.decision, None, status, why);
        }
        if !self.options.json {
            self.options.ui.err(said);
        }
        Exit::NeedsPerson
    }
}

/// The command that runs the plan again at a terminal: its file's, or `evoke resume`.
fn again_command(options: &Options<'_>) -> String {
    match &options.pinned {
        Some(pinned) => render::command(&["evoke", "run", &pinned.file]),
        None => render::command(&["evoke", "resume"]),
    }
}

fn skipped() -> (Status, Option<Why>) {
    (Status::Skipped, Some(Why::EarlierStep))
}

/// The question a waiting step puts to a person: its confirm's own question, or what its ask asks.
fn question_of(decision: &Decision) -> String {
    if let Some(prompt) = &decision.prompt {
        return prompt.template.clone();
    }
    let asks: Vec<&str> = decision.missing.iter().flatten().map(|m| m.ask.as_str()).collect();
    if asks.is_empty() { "a yes".to_string() } else { asks.join(" ") }
}

#[cfg(test)]
mod tests;
