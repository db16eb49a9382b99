//! The one way a command reaches a person: standard output and the error stream, colour, whether anyone is
//! there to answer, and the prompts. A command writes through the `Ui` it is given and acts through its
//! [`Person`]; the wording of every line is made in `render`, never here.

use crate::error::{CommandError, CommandResult};
use crate::exit::Exit;
use crate::render;
use evoke_core::decision::{Missing, Prompt, Value};
use std::ffi::OsStr;
use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::Mutex;

/// A question put to a person before something runs.
#[derive(Debug, Clone, Copy)]
pub enum Question<'a> {
    /// A call's confirm: evoke's own line (`Prompt::own`, `Prompt::reason`), then the reflex's question.
    Call(&'a Prompt),
    /// A question of evoke's own: a playbook's whole plan, a step that may already have acted.
    Own(&'a str),
}

/// Whoever answers for a command: a person at a terminal, or a library caller's own answers. The plan
/// runner and the one-call path act through this, never through a terminal of their own.
pub trait Person {
    /// Whether anyone can answer; without one, a confirm or an ask ends with the command that answers it.
    fn present(&self) -> bool;
    /// A yes/no before something runs: only a yes runs.
    fn confirm(&self, question: Question<'_>) -> bool;
    /// A value the decision misses, from its closed choices; `None` when it is left unanswered.
    fn ask(&self, missing: &Missing) -> Option<Value>;
}

/// A person who is present, answers each confirm with a function of the question, and gives no missing
/// value: what a program that only confirms hands to [`Evoke::run`](crate::Evoke::run).
///
/// ```
/// use evoke::{ConfirmWith, Person, Question};
/// let person = ConfirmWith::new(|question| matches!(question, Question::Call(_)));
/// assert!(person.present() && !person.confirm(Question::Own("go on?")));
/// ```
pub struct ConfirmWith<F>(F);

impl<F: Fn(Question<'_>) -> bool> ConfirmWith<F> {
    /// The person who answers each confirm with `confirm`.
    pub fn new(confirm: F) -> ConfirmWith<F> {
        ConfirmWith(confirm)
    }
}

impl<F: Fn(Question<'_>) -> bool> Person for ConfirmWith<F> {
    fn present(&self) -> bool {
        true
    }

    fn confirm(&self, question: Question<'_>) -> bool {
        (self.0)(question)
    }

    fn ask(&self, _: &Missing) -> Option<Value> {
        None
    }
}

/// Colour on the error stream: only on a terminal, and never under a non-empty `NO_COLOR`.
pub fn colour_rule(stderr_terminal: bool, no_color: Option<&OsStr>) -> bool {
    stderr_terminal && no_color.is_none_or(|v| v.is_empty())
}

/// A person can answer only when both the input and the stream the prompts go to are a terminal.
pub fn present_rule(stdin_terminal: bool, stderr_terminal: bool) -> bool {
    stdin_terminal && stderr_terminal
}

/// How many times a person may give an answer that is not among the choices.
const TRIES: usize = 3;

/// Where the streams go: the process's own, or (in tests) text in memory.
enum Streams {
    Process,
    /// Nobody at a terminal: what is written is kept for the library to hand back (`Ui::captured`).
    Captured {
        out: Mutex<Vec<u8>>,
        err: Mutex<Vec<u8>>,
    },
    #[cfg(test)]
    Script {
        input: Mutex<io::Cursor<Vec<u8>>>,
        out: Mutex<Vec<u8>>,
        err: Mutex<Vec<u8>>,
        present: bool,
    },
}

/// `'p` is how long the person handed in by a library caller lives; the command's own has none.
pub struct Ui<'p> {
    streams: Streams,
    /// Standard output held back while the filter has more input waiting (`hold`, `release`).
    held: Mutex<Option<Vec<u8>>>,
    colour: bool,
    /// A library caller's answers, in place of the terminal's.
    person: Option<&'p dyn Person>,
}

impl Default for Ui<'_> {
    fn default() -> Self {
        Ui::terminal()
    }
}

impl<'p> Ui<'p> {
    /// The process's own streams and terminal.
    pub fn terminal() -> Ui<'p> {
        let colour = colour_rule(io::stderr().is_terminal(), std::env::var_os("NO_COLOR").as_deref());
        Ui { streams: Streams::Process, held: Mutex::new(None), colour, person: None }
    }

    /// A `Ui` that keeps what it writes instead of printing it ([`Ui::captured_out`]), with nobody present
    /// to answer and no colour: the library's.
    pub fn captured() -> Ui<'p> {
        let streams = Streams::Captured { out: Mutex::new(Vec::new()), err: Mutex::new(Vec::new()) };
        Ui { streams, held: Mutex::new(None), colour: false, person: None }
    }

    /// What a [`Ui::captured`] wrote to its standard output and its error stream; nothing for another `Ui`.
    pub fn captured_out(&self) -> (String, String) {
        let Streams::Captured { out, err } = &self.streams else { return Default::default() };
        let text =
            |b: &Mutex<Vec<u8>>| String::from_utf8_lossy(&b.lock().unwrap_or_else(|e| e.into_inner())).into_owned();
        (text(out), text(err))
    }

    /// This `Ui`, with `person` answering its confirms and asks (and saying whether anyone is present) in
    /// place of the terminal.
    pub fn with_person(mut self, person: &'p dyn Person) -> Ui<'p> {
        self.person = Some(person);
        self
    }

    /// Whether the error stream is coloured.
    pub fn colour(&self) -> bool {
        self.colour
    }

    /// Whether standard input is a terminal: with no sentence, input that is not one is read a line at a
    /// time (the filter).
    pub fn input_is_terminal(&self) -> bool {
        match &self.streams {
            Streams::Process => io::stdin().is_terminal(),
            Streams::Captured { .. } => false,
            #[cfg(test)]
            Streams::Script { .. } => false,
        }
    }

    /// Whether progress is drawn: only on a terminal's error stream; a pipe or a log gets nothing.
    pub fn draws_progress(&self) -> bool {
        matches!(self.streams, Streams::Process) && io::stderr().is_terminal()
    }

    /// Writes to standard output, or holds it while the filter holds. A closed standard output is no
    /// error worth a message: what was written had no reader.
    pub fn out(&self, text: &str) {
        let _ = self.out_bytes(text.as_bytes());
    }

    /// [`Ui::out`] of bytes a library made (a manual page, completions), saying whether they were written.
    pub fn out_bytes(&self, bytes: &[u8]) -> io::Result<()> {
        if let Ok(mut held) = self.held.lock()
            && let Some(buffer) = held.as_mut()
        {
            buffer.extend_from_slice(bytes);
            return Ok(());
        }
        match &self.streams {
            Streams::Process => io::stdout().write_all(bytes),
            Streams::Captured { out, .. } => {
                out.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(bytes);
                Ok(())
            }
            #[cfg(test)]
            Streams::Script { out, .. } => {
                out.lock().unwrap().extend_from_slice(bytes);
                Ok(())
            }
        }
    }

    /// A JSON line, as `--json` prints one: the line is already made safe for a terminal (`line::to_line`).
    pub fn json_line(&self, line: &str) {
        self.out(&format!("{line}\n"));
    }

    /// Writes to the error stream; a closed stream is not an error worth dying over, and one nobody reads
    /// must not hold evoke past its deadline or Ctrl-C, so the text waits a moment for it and is then
    /// dropped (`evoke_bodies::stderr`).
    pub fn err(&self, text: &str) {
        match &self.streams {
            Streams::Process => {
                let _ = evoke_bodies::stderr::write_all(text.as_bytes());
            }
            Streams::Captured { err, .. } => {
                err.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(text.as_bytes())
            }
            #[cfg(test)]
            Streams::Script { err, .. } => err.lock().unwrap().extend_from_slice(text.as_bytes()),
        }
    }

    /// A warning, with its fix when there is one.
    pub fn warn(&self, message: &str, fix: Option<&str>) {
        self.err(&render::warning(message, fix));
    }

    /// An error as a person reads it (`render::error`), coloured as this stream is.
    pub fn error(&self, e: &CommandError) {
        self.err(&render::error(e, self.colour));
    }

    /// A command's end: an error is printed, once, here; the exit is the command's or the error's.
    pub fn finished(&self, outcome: CommandResult) -> Exit {
        match outcome {
            Ok(exit) => exit,
            Err(e) => {
                self.error(&e);
                e.exit
            }
        }
    }

    /// From now on, hold what `out` writes until `release`: the filter writes a pipe once per wait for
    /// input, not once per line.
    pub fn hold(&self) {
        if let Ok(mut held) = self.held.lock() {
            held.get_or_insert_with(Vec::new).clear();
        }
    }

    /// Writes out what was held, in one write, and flushes; `keep` goes on holding after.
    pub fn release(&self, keep: bool) {
        let Ok(mut held) = self.held.lock() else { return };
        match &self.streams {
            Streams::Process => {
                let mut stdout = io::stdout().lock();
                if let Some(buffer) = held.as_mut() {
                    let _ = stdout.write_all(buffer);
                    // Cleared, not replaced: the filter fills it again at once, and a new buffer growing to
                    // the same size from nothing cost a copy at every doubling and fresh pages from the kernel.
                    buffer.clear();
                }
                let _ = stdout.flush();
            }
            Streams::Captured { out, .. } => {
                if let Some(buffer) = held.as_mut() {
                    out.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(buffer);
                    buffer.clear();
                }
            }
            #[cfg(test)]
            Streams::Script { out, .. } => {
                if let Some(buffer) = held.as_mut() {
                    out.lock().unwrap().extend_from_slice(buffer);
                    buffer.clear();
                }
            }
        }
        if !keep {
            *held = None;
        }
    }

    fn read_line(&self) -> Option<String> {
        let mut line = String::new();
        let read = match &self.streams {
            Streams::Process => io::stdin().lock().read_line(&mut line),
            Streams::Captured { .. } => return None,
            #[cfg(test)]
            Streams::Script { input, .. } => input.lock().unwrap().read_line(&mut line),
        };
        match read {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim().to_string()),
        }
    }
}

/// The terminal's person: the prompts go to the error stream, so standard output carries only results,
/// and nothing is accepted that is not a closed choice.
impl Person for Ui<'_> {
    fn present(&self) -> bool {
        if let Some(person) = &self.person {
            return person.present();
        }
        match &self.streams {
            Streams::Process => present_rule(io::stdin().is_terminal(), io::stderr().is_terminal()),
            Streams::Captured { .. } => false,
            #[cfg(test)]
            Streams::Script { present, .. } => *present,
        }
    }

    fn confirm(&self, question: Question<'_>) -> bool {
        if let Some(person) = &self.person {
            return person.confirm(question);
        }
        let asked = match question {
            // evoke's own line first, so the reflex's words can never pass for evoke's.
            Question::Call(prompt) => {
                self.err(&render::confirm_line(prompt));
                prompt.template.as_str()
            }
            Question::Own(question) => question,
        };
        self.err(&render::confirm_question(asked));
        matches!(self.read_line().as_deref().map(str::to_lowercase).as_deref(), Some("y" | "yes"))
    }

    fn ask(&self, missing: &Missing) -> Option<Value> {
        if let Some(person) = &self.person {
            return person.ask(missing);
        }
        self.err(&render::ask_choices(missing));
        for _ in 0..TRIES {
            self.err(&render::ask_again());
            let answer = self.read_line().filter(|a| !a.is_empty())?;
            match crate::prompt::accept(missing, &answer) {
                Ok(value) => return Some(value),
                Err(why) => self.err(&render::not_a_choice(&why.to_string())),
            }
        }
        None
    }
}

#[cfg(test)]
impl Ui<'_> {
    /// A `Ui` answered from `input`, its streams kept in memory.
    fn scripted(input: &str, present: bool) -> Ui<'static> {
        let streams = Streams::Script {
            input: Mutex::new(io::Cursor::new(input.as_bytes().to_vec())),
            out: Mutex::new(Vec::new()),
            err: Mutex::new(Vec::new()),
            present,
        };
        Ui { streams, held: Mutex::new(None), colour: false, person: None }
    }

    fn written(&self) -> (String, String) {
        let Streams::Script { out, err, .. } = &self.streams else { return Default::default() };
        let text = |b: &Mutex<Vec<u8>>| String::from_utf8_lossy(&b.lock().unwrap()).into_owned();
        (text(out), text(err))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoke_core::decision::{Choices, MissingBecause, Texts};

    #[test]
    fn colour_only_on_a_terminal_and_never_under_no_color() {
        assert!(colour_rule(true, None));
        assert!(colour_rule(true, Some(OsStr::new(""))), "an empty NO_COLOR is no NO_COLOR");
        assert!(!colour_rule(true, Some(OsStr::new("1"))));
        assert!(!colour_rule(false, None));
    }

    #[test]
    fn a_person_is_present_only_when_input_and_prompts_are_a_terminal() {
        assert!(present_rule(true, true));
        assert!(!present_rule(true, false), "prompts nobody sees");
        assert!(!present_rule(false, true), "answers from a pipe");
    }

    fn prompt() -> Prompt {
        Prompt {
            own: "lights wants to run".into(),
            reason: "it is destructive".into(),
            template: "Turn off the \u{1b}[2Jden?".into(),
        }
    }

    #[test]
    fn only_a_yes_confirms_and_the_question_is_shown_escaped() {
        let ui = Ui::scripted("Yes\n", true);
        assert!(ui.confirm(Question::Call(&prompt())));
        let (out, err) = ui.written();
        assert_eq!(out, "", "a prompt never goes to standard output");
        assert_eq!(err, "lights wants to run — it is destructive\nTurn off the \\u{1B}[2Jden? [y/N] ");
        for answer in ["n\n", "\n", "", "yess\n"] {
            assert!(!Ui::scripted(answer, true).confirm(Question::Own("run it again?")), "{answer:?}");
        }
    }

    #[test]
    fn an_ask_takes_a_listed_choice_after_an_answer_not_among_them() {
        let missing = Missing {
            arg: "room".into(),
            ask: "Which room?".into(),
            because: MissingBecause::Unstated,
            words: None,
            choices: Choices::Options { options: Texts(vec![("den".into(), "the den".into())]) },
            likely: None,
        };
        let ui = Ui::scripted("attic\n1\n", true);
        assert_eq!(ui.ask(&missing), Some(Value::Option { key: "den".into() }));
        let (_, err) = ui.written();
        assert!(err.contains("\"attic\" is not one of the choices"), "{err}");
        assert_eq!(Ui::scripted("", true).ask(&missing), None, "the end of input leaves it unanswered");
    }

    #[test]
    fn held_output_is_written_once_released() {
        let ui = Ui::scripted("", false);
        ui.hold();
        ui.out("a\n");
        ui.json_line("{}");
        assert_eq!(ui.written().0, "");
        ui.release(false);
        ui.out("b\n");
        assert_eq!(ui.written().0, "a\n{}\nb\n");
    }

    struct Refuses;
    impl Person for Refuses {
        fn present(&self) -> bool {
            true
        }
        fn confirm(&self, _: Question<'_>) -> bool {
            false
        }
        fn ask(&self, _: &Missing) -> Option<Value> {
            None
        }
    }

    #[test]
    fn a_person_handed_in_answers_in_place_of_the_terminal() {
        let ui = Ui::scripted("y\n", false).with_person(&Refuses);
        assert!(ui.present());
        assert!(!ui.confirm(Question::Call(&prompt())));
        assert_eq!(ui.written().1, "", "the terminal was not asked");
    }
}
