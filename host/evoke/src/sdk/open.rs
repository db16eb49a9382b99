//! An open project: the trusted session the command opens, and the verbs a program calls on it.

use super::error::guarded;
use super::{CodeReflex, Decision, Error, Plan, PlanRan, Ran};
use crate::drive::{DEADLINE, Failed};
use crate::error::CommandError;
use crate::exit::Exit;
use crate::line::{Line, RanFields, to_line};
use crate::log::Log;
use crate::session::{self, Session};
use crate::ui::Person;
use evoke_core::decision::Outcome;
use evoke_core::manifest::Effect;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How a project is opened: the command line's `--recording`, and the `EVOKE_HOME` of the call.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    /// Answers from this recording instead of an engine (`--recording FILE`); the lock's pin of the engine
    /// then does not apply, as on the command line.
    pub recording: Option<PathBuf>,
    /// The directory evoke keeps its files under (its trust record, cache, log and home `evoke.toml` with
    /// the bars), for this `Evoke` alone; without one, `EVOKE_HOME` or the platform's places.
    pub home: Option<PathBuf>,
    /// Reflexes handed as code, decided on beside the project's own; a name the project installs already
    /// is refused.
    pub reflexes: Vec<CodeReflex>,
    /// The engine of a project built in code ([`Evoke::in_code`]): a built-in's name (`local`, `embed`,
    /// `openai`) or an installed adapter's. A project opened from a directory names its own in
    /// `evoke.toml`, and this is refused there.
    pub adapter: Option<String>,
}

/// A trusted project, opened with the engine that decides in it: the same checks as the `evoke` command
/// (the project trusted as it is now, the engine the one `evoke.lock` pins unless a recording answers,
/// the bars of the home `evoke.toml`).
///
/// Its calls block; each makes its own runtime's work, so call them from outside an async runtime.
pub struct Evoke {
    session: Session,
    /// Taken only when the `Evoke` is dropped inside an async runtime, where a runtime may not block.
    runtime: Option<tokio::runtime::Runtime>,
    origin: u64,
    /// The reflexes handed as code: each runs its function where an installed one starts its body.
    code: Vec<CodeReflex>,
}

/// Tells each `Evoke` apart, so a decision is run only by the one that made it.
static ORIGINS: AtomicU64 = AtomicU64::new(0);

impl Evoke {
    /// Opens the project in `dir` (a directory holding `evoke.toml`), refused unless trusted.
    pub fn open(dir: &Path, options: OpenOptions) -> Result<Evoke, Error> {
        guarded(|| {
            if options.adapter.is_some() {
                return Err(CommandError::usage(
                    "a project opened from a directory names its engine in its evoke.toml",
                )
                .with_fix("set `adapter` in the project's evoke.toml, or leave OpenOptions::adapter unset")
                .into());
            }
            let opened = session::Options {
                project_dir: Some(dir),
                recording: options.recording.as_deref(),
                tag: None,
                home: options.home.as_deref(),
            };
            let workspace = with_code(session::Workspace::open(&opened)?, &options.reflexes)?;
            let session = Session::of(workspace, opened.recording)?;
            if opened.recording.is_none() {
                session::check_locked_adapter(&session)?;
            }
            Evoke::of(session, options.reflexes)
        })
    }

    /// A project built in code: only the reflexes `options` hands over, decided by `options.adapter` (else
    /// the engine the home `evoke.toml` names, else `local`) under the bars of the home `evoke.toml`. It has
    /// no files, so there is nothing to trust and no lock to hold its engine to; the program that hands the
    /// reflexes over is their author.
    pub fn in_code(options: OpenOptions) -> Result<Evoke, Error> {
        guarded(|| {
            let workspace = session::Workspace::in_code(options.home.as_deref(), options.adapter.as_deref())?;
            let workspace = with_code(workspace, &options.reflexes)?;
            let session = Session::of(workspace, options.recording.as_deref())?;
            Evoke::of(session, options.reflexes)
        })
    }

    fn of(session: Session, code: Vec<CodeReflex>) -> Result<Evoke, Error> {
        let runtime = session::runtime()?;
        Ok(Evoke { session, runtime: Some(runtime), origin: ORIGINS.fetch_add(1, Ordering::Relaxed), code })
    }

    /// The sealed plan file of `plan`, as `evoke try --save FILE` writes it, for `evoke run FILE` to run
    /// in the same project: every reflex pinned as it is now, a reflex handed as code by its `item` alone.
    /// Its journal is begun, as the command begins it.
    pub fn save(&self, plan: &Plan) -> Result<String, Error> {
        guarded(|| {
            if plan.origin != self.origin {
                return Err(CommandError::usage("the plan was made by another Evoke; nothing was saved")
                    .with_fix("plan the sentence again with this Evoke")
                    .into());
            }
            if plan.woven().plan.refused() {
                return Err(CommandError::usage("a refused plan is not saved; nothing would run").into());
            }
            Ok(crate::runner::planfile::seal_plan(&self.session, &plan.woven().plan, &plan.woven().answers, None)?)
        })
    }

    /// Decides what `sentence` asks, running nothing, and logs it as `evoke try` does. A sentence read as
    /// several steps, or that picks a playbook, is [`Error::Plan`], which [`Evoke::plan`] plans; one that
    /// fails closed is an [`Error`] of exit class 6.
    pub fn decide(&self, sentence: &str) -> Result<Decision, Error> {
        guarded(|| {
            outside_runtime()?;
            let _nested = Nested::enter()?;
            let request = self.session.request(Instant::now());
            let woven = self.block_on(crate::weave::weave(&request, sentence))?;
            let mut log = Log::open(&self.session.places.log());
            match woven {
                Ok(crate::weave::Woven::One(mut decided)) => {
                    decided.decision = self.session.recall(decided.decision);
                    let line =
                        to_line(&Line { decision: &decided.decision, trace: &decided.trace, ran: None, error: None });
                    // A log that cannot be written loses the line for `why`, not the decision.
                    let _ = log.append(&line, &decided.rounds, &decided.candidates);
                    Decision::of(self.origin, decided)
                }
                Ok(crate::weave::Woven::Plan(woven)) => {
                    // Logged as `evoke try` logs a plan, so `why` explains this sentence and not one before it.
                    let plan = Plan::of(woven, self.origin);
                    let _ = log.append(&plan.to_json_line(), &plan.rounds(), &[]);
                    Err(Error::Plan { input: sentence.to_string() })
                }
                Err(Failed { failure, trace, rounds }) => {
                    let _ = log.append(&crate::line::refused_line(sentence, &failure, &trace), &rounds, &[]);
                    Err(CommandError::refused(failure.to_string()).into())
                }
            }
        })
    }

    /// Plans what `sentence` asks when it reads as several steps, or picks a playbook, running nothing, and
    /// logs the plan's line as `evoke try` does, so [`Evoke::why`] reads it. The [`Plan`] serializes to
    /// the line `evoke try --json` prints. A sentence read as one call is an [`Error`] of exit class 2
    /// whose fix names [`Evoke::decide`]; one that fails closed is an [`Error`] of exit class 6.
    pub fn plan(&self, sentence: &str) -> Result<Plan, Error> {
        guarded(|| {
            outside_runtime()?;
            let _nested = Nested::enter()?;
            let request = self.session.request(Instant::now());
            let woven = self.block_on(crate::weave::weave(&request, sentence))?;
            let mut log = Log::open(&self.session.places.log());
            match woven {
                Ok(crate::weave::Woven::Plan(woven)) => {
                    let plan = Plan::of(woven, self.origin);
                    // A log that cannot be written loses the line for `why`, not the plan.
                    let _ = log.append(&plan.to_json_line(), &plan.rounds(), &[]);
                    Ok(plan)
                }
                Ok(crate::weave::Woven::One(decided)) => {
                    let line =
                        to_line(&Line { decision: &decided.decision, trace: &decided.trace, ran: None, error: None });
                    let _ = log.append(&line, &decided.rounds, &decided.candidates);
                    Err(CommandError::usage(format!("`{sentence}` reads as one call, not a plan of several steps"))
                        .with_fix("Evoke::decide")
                        .into())
                }
                Err(Failed { failure, trace, rounds }) => {
                    let _ = log.append(&crate::line::refused_line(sentence, &failure, &trace), &rounds, &[]);
                    Err(CommandError::refused(failure.to_string()).into())
                }
            }
        })
    }

    /// The text `evoke why back` prints, from this `Evoke`'s log alone: the decision or plan logged `back`
    /// lines from the last (1 is the last), how it was read, and what ran of it. A `back` past the log's
    /// start is an [`Error`] of exit class 2.
    pub fn why(&self, back: usize) -> Result<String, Error> {
        guarded(|| {
            let path = self.session.places.log();
            let entry = crate::log::entry(&path, back)?;
            let ui = crate::ui::Ui::captured();
            crate::commands::why::show(&ui, &path, back, &entry)?;
            Ok(ui.captured_out().0)
        })
    }

    /// Runs a decision this `Evoke` made, acting through `person` as the command acts through its
    /// terminal: a [`Decision::Confirm`] runs only on the person's yes (a destructive call is always a
    /// confirm); a [`Decision::Ask`] asks the person for each missing value and decides again; without
    /// a person present, a confirm or an ask ends in an error of exit class 3; an abstain is an error of
    /// exit class 4, and a no or a question left unanswered one of class 5. The body runs under the
    /// decision's deadline and bounds; its failure is in the [`Ran`], not an error.
    pub fn run(&self, decision: &Decision, person: &dyn Person) -> Result<Ran, Error> {
        guarded(|| {
            outside_runtime()?;
            let _nested = Nested::enter()?;
            let made = decision.made();
            if made.origin != self.origin {
                return Err(CommandError::usage("the decision was made by another Evoke; nothing ran")
                    .with_fix("decide the sentence again with this Evoke")
                    .into());
            }
            let session = &self.session;
            let started = Instant::now();
            // A prompt waiting for a person never counts against the deadline.
            let mut waited = Duration::ZERO;
            let mut core = made.core.clone();
            loop {
                if core.outcome != Outcome::Ask && crate::playbook::picks_playbook(&session.catalog, &core) {
                    return Err(Error::Plan { input: core.input.clone() });
                }
                match core.outcome {
                    Outcome::Abstain => {
                        return Err(
                            CommandError::new(Exit::Abstain, "nothing installed here does that; nothing ran").into()
                        );
                    }
                    Outcome::Ask | Outcome::Confirm if !person.present() => {
                        return Err(CommandError::new(
                            Exit::NeedsPerson,
                            "the call waits for a person's answer, and none is present; nothing ran",
                        )
                        .into());
                    }
                    Outcome::Ask => {
                        let asked = Instant::now();
                        let answers = crate::act::ask_missing(person, &session.catalog, &core);
                        waited += asked.elapsed();
                        let answers = match answers {
                            Ok(answers) => answers,
                            Err(crate::act::Unanswered::Left) => {
                                return Err(CommandError::new(
                                    Exit::Declined,
                                    "a question was left unanswered; nothing ran",
                                )
                                .into());
                            }
                            Err(crate::act::Unanswered::Refused { arg, why }) => {
                                return Err(CommandError::usage(format!(
                                    "the answer for `{arg}` is refused: {why}; nothing ran"
                                ))
                                .with_fix("answer with one of the choices the question lists (Missing::choices)")
                                .into());
                            }
                        };
                        core = evoke_core::decide::answered(
                            &session.catalog,
                            session.gate.as_ref(),
                            &made.candidates,
                            &core,
                            &answers,
                            None,
                        );
                    }
                    Outcome::Confirm => {
                        let Some(prompt) = core.prompt.clone() else {
                            return Err(CommandError::failed("the confirm came without its prompt; nothing ran").into());
                        };
                        if !crate::act::confirmed(person, &prompt, &mut waited) {
                            return Err(CommandError::new(Exit::Declined, "declined; nothing ran").into());
                        }
                        return self.execute(&core, made, started + DEADLINE + waited);
                    }
                    Outcome::Run if core.effect == Some(Effect::Destructive) => {
                        // The core never lets a destructive call run unasked; should it ever, nothing runs.
                        return Err(
                            CommandError::refused("a destructive call came without its confirm; nothing ran").into()
                        );
                    }
                    Outcome::Run => return self.execute(&core, made, started + DEADLINE + waited),
                }
            }
        })
    }

    /// The refusals [`Evoke::run_plan`] makes before it takes a plan, so that a binding can keep a plan
    /// that would be refused: a plan another `Evoke` made, a call made inside an async runtime (a callback
    /// of a plan running), or calls nested past [`MAX_NESTING`].
    pub fn check_run_plan(&self, plan: &Plan) -> Result<(), Error> {
        if plan.origin != self.origin {
            return Err(CommandError::usage("the plan was made by another Evoke; nothing ran")
                .with_fix("plan the sentence again with this Evoke")
                .into());
        }
        if plan.ran() {
            return Err(CommandError::usage("the plan ran already, or runs now; a plan runs once")
                .with_fix("plan the sentence again to run it again")
                .into());
        }
        outside_runtime()?;
        Nested::enter().map(drop)
    }

    /// Runs a plan this `Evoke` made, as the command runs a plan at a terminal, acting through `person`:
    /// every missing value asked before anything runs, a playbook's whole plan confirmed once when it
    /// waits for its review, then stage by stage, each step through its gate at its turn (a confirm only
    /// on the person's yes, a destructive step confirmed every time), journaled so that no step runs
    /// twice. A failure, a no or a refusal ends the plan after its stage, and the steps after it are
    /// skipped. Without a person present, a plan with a step that would wait runs nothing. How it ended is
    /// in the [`PlanRan`]; an error only when it could not begin (its journal taken by another run).
    pub fn run_plan(&self, plan: &Plan, person: &dyn Person) -> Result<PlanRan, Error> {
        guarded(|| {
            self.check_run_plan(plan)?;
            if !plan.begin() {
                return Err(CommandError::usage("the plan ran already, or runs now; a plan runs once")
                    .with_fix("plan the sentence again to run it again")
                    .into());
            }
            let ran = self.run_begun(plan, person);
            // A run refused before its first step (its journal held by another run) leaves the plan to run.
            plan.end(ran.is_ok());
            ran
        })
    }

    /// [`Evoke::run_plan`] of a plan taken for its run.
    fn run_begun(&self, plan: &Plan, person: &dyn Person) -> Result<PlanRan, Error> {
        let _nested = Nested::enter()?;
        let ui = crate::ui::Ui::captured().with_person(person);
        let options = crate::runner::Options {
            ui: &ui,
            json: true,
            project_flag: None,
            pinned: None,
            assigned: &[],
            repeated: &[],
            signals: false,
            code: &self.code,
        };
        let mut log = Log::open(&self.session.places.log());
        let woven = plan.woven().clone();
        let journaled = crate::runner::Journaled::Said;
        let act = crate::runner::run(&self.session, &mut log, woven, Instant::now(), &options, journaled);
        let exit = self.block_on(act)??;
        let lines = ui.captured_out().0.lines().map(str::to_string).collect();
        Ok(PlanRan { exit, lines })
    }

    /// Drives `work` to its end on this `Evoke`'s runtime; one dropped inside an async runtime has none.
    fn block_on<F: std::future::Future>(&self, work: F) -> Result<F::Output, Error> {
        outside_runtime()?;
        match &self.runtime {
            Some(runtime) => Ok(runtime.block_on(work)),
            None => Err(CommandError::failed("this Evoke was dropped; nothing ran").into()),
        }
    }

    /// Runs the body of a decided call and logs its line, as the command does.
    fn execute(
        &self,
        core: &evoke_core::decision::Decision,
        made: &super::decision::Made,
        deadline: Instant,
    ) -> Result<Ran, Error> {
        let session = &self.session;
        let mut log = Log::open(&session.places.log());
        let name = core.reflex.as_deref().unwrap_or_default();
        if let Some(code) = self.code.iter().find(|c| c.name() == name) {
            let ran = code.call(&core.args.clone().unwrap_or_default(), &core.input);
            session.remember(core, &ran);
            let line =
                to_line(&Line { decision: core, trace: &made.trace, ran: Some(RanFields::of(&ran)), error: None });
            let _ = log.append(&line, &[], &made.candidates);
            return Ok(Ran { ran, line });
        }
        let prepared = match crate::act::prepare(session, core, deadline) {
            Ok(prepared) => prepared,
            Err(e) => {
                let line = to_line(&Line { decision: core, trace: &made.trace, ran: None, error: Some(&e.message) });
                let _ = log.append(&line, &[], &made.candidates);
                return Err(e.into());
            }
        };
        // No signal of the host program's is taken over: only the deadline ends the body.
        let ran = self.block_on(crate::body::run(&prepared, &session.places.cache, std::future::pending()))?;
        session.remember(core, &ran);
        let line = to_line(&Line { decision: core, trace: &made.trace, ran: Some(RanFields::of(&ran)), error: None });
        let _ = log.append(&line, &[], &made.candidates);
        Ok(Ran { ran, line })
    }
}

/// How deep the library's calls may nest on one thread (a body or a callback calling evoke, whose body
/// calls it again, …): past this, a call is refused, not left to exhaust the thread's stack.
pub const MAX_NESTING: usize = 8;

thread_local! {
    /// The library's calls under way on this thread.
    static DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One call of the library under way on this thread, counted until it returns.
struct Nested;

impl Nested {
    fn enter() -> Result<Nested, Error> {
        let depth = DEPTH.with(|d| d.get());
        if depth >= MAX_NESTING {
            return Err(CommandError::usage(format!(
                "evoke's calls are nested {depth} deep on this thread (a body or callback calling evoke again); \
                 nothing ran"
            ))
            .with_fix(format!("call evoke from a body or callback at most {MAX_NESTING} levels deep"))
            .into());
        }
        DEPTH.with(|d| d.set(depth + 1));
        Ok(Nested)
    }
}

impl Drop for Nested {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// Refuses a call made inside an async runtime (a task, or a callback of a plan an `Evoke` is running):
/// blocking there would stall the runtime it came from, and running there would run beside the plan.
fn outside_runtime() -> Result<(), Error> {
    if tokio::runtime::Handle::try_current().is_err() {
        return Ok(());
    }
    Err(CommandError::usage(
        "evoke's calls block, and this one was made inside an async runtime or a callback of a plan evoke is \
         running; nothing ran",
    )
    .with_fix("call it from a thread of its own (std::thread::spawn, tokio::task::spawn_blocking), or once run_plan has returned")
    .into())
}

impl Drop for Evoke {
    fn drop(&mut self) {
        // A runtime dropped inside another waits for its tasks, and blocking there panics: it is let go in
        // the background instead.
        if tokio::runtime::Handle::try_current().is_ok()
            && let Some(runtime) = self.runtime.take()
        {
            runtime.shutdown_background();
        }
    }
}

/// The workspace with the reflexes handed as code after its own; each argument's vocabulary read from the
/// project's `vocab/`. A name installed twice is refused.
pub(crate) fn with_code(
    mut workspace: session::Workspace,
    code: &[CodeReflex],
) -> Result<session::Workspace, CommandError> {
    let mut more = Vec::new();
    for reflex in code {
        let name = reflex.name();
        if workspace.project.installed(name).is_some()
            || workspace.project.playbook(name).is_some()
            || more.iter().any(|r: &evoke_core::catalog::Reflex| r.name == name)
        {
            return Err(CommandError::usage(format!("the reflex {name} handed as code has a name installed already"))
                .with_fix("hand it over under another name"));
        }
        let mut reflex = reflex.reflex.clone();
        reflex.vocabs = evoke_files::project::vocabularies(&workspace.project.location.root, &reflex.manifest.args)
            .map_err(|inactive| {
                CommandError::usage(format!("the reflex {name} handed as code is refused: {}", inactive.why))
                    .with_fix(inactive.fix)
                    .with_diagnostics(inactive.diagnostics)
            })?;
        more.push(reflex);
    }
    workspace.catalog = std::mem::take(&mut workspace.catalog).with_reflexes(more);
    Ok(workspace)
}
