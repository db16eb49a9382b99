//! Transcripts: a folder holding a project, a recording and `transcript`, the terminal word for word.
//!
//! In `transcript`, a line `$ evoke …` is a command (split as a POSIX shell would, never run by one; the
//! word `evoke` stands for the implementation) run with no terminal; the lines after it are what it
//! prints on stdout, a line starting `! ` is a line of stderr, and `? N` is its exit code. `#` starts a
//! comment. A line that is a JSON object on both sides is compared as JSON (key order aside, numbers by
//! value).
//!
//! A line `% evoke …` runs the command in a pseudo-terminal, as a person would: the lines after it are
//! the terminal as it reads, both streams together, and a line ending in `<answer>` is a prompt the
//! person answers: the runner waits for the text before it, then types `answer` and Enter (the terminal
//! echoes it, so the line reads with the answer in place).
//!
//! `transcripts/README.md` describes the format and how a step runs for a transcript's author.

use crate::{Report, STEP_TIMEOUT, run_for};
use evoke_core::conform::same;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

#[derive(Debug, Default, Clone)]
pub struct Step {
    pub command: Vec<String>,
    pub terminal: bool,
    pub stdout: Vec<String>,
    pub stderr: Vec<String>,
    pub exit: Option<i32>,
    pub line: usize,
}

/// A transcript line that does not read, by its 1-based number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {fault}")]
pub struct ParseError {
    pub line: usize,
    pub fault: LineFault,
}

/// What is wrong with one line of a transcript, and what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineFault {
    #[error("the command does not split")]
    DoesNotSplit,
    #[error("a command starts with `evoke`")]
    NotEvoke,
    #[error("output before any command")]
    OutputFirst,
    #[error("`? N` takes a number")]
    ExitNotANumber,
    #[error("output after the exit code; start a command with `$ `")]
    OutputAfterExit,
}

pub fn parse(text: &str) -> Result<Vec<Step>, ParseError> {
    let mut steps: Vec<Step> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = |fault| ParseError { line: n + 1, fault };
        let command =
            line.strip_prefix("$ ").map(|c| (c, false)).or_else(|| line.strip_prefix("% ").map(|c| (c, true)));
        if let Some((command, terminal)) = command {
            let words = shlex::split(command).ok_or_else(|| at(LineFault::DoesNotSplit))?;
            if words.first().map(String::as_str) != Some("evoke") {
                return Err(at(LineFault::NotEvoke));
            }
            steps.push(Step { command: words[1..].to_vec(), terminal, line: n + 1, ..Step::default() });
            continue;
        }
        if line.starts_with('#') && steps.last().is_none_or(|s| s.exit.is_some()) {
            continue;
        }
        let Some(step) = steps.last_mut() else {
            if line.trim().is_empty() {
                continue;
            }
            return Err(at(LineFault::OutputFirst));
        };
        if let Some(code) = line.strip_prefix("? ") {
            step.exit = Some(code.trim().parse().map_err(|_| at(LineFault::ExitNotANumber))?);
        } else if step.exit.is_some() {
            if !line.trim().is_empty() {
                return Err(at(LineFault::OutputAfterExit));
            }
        } else if step.terminal {
            step.stdout.push(line.to_string());
        } else if let Some(err) = line.strip_prefix("! ") {
            step.stderr.push(err.to_string());
        } else if line == "!" {
            step.stderr.push(String::new());
        } else {
            step.stdout.push(line.to_string());
        }
    }
    Ok(steps)
}

/// Every step of every transcript under `root`. A `root` that does not read, a folder without a
/// `transcript`, and a transcript without a step are failures, never skips.
pub fn run(implementation: &Path, root: &Path) -> Report {
    run_within(implementation, root, STEP_TIMEOUT)
}

/// As [`run`], each step given `timeout` (a terminal step waits that long for each prompt and the end).
pub fn run_within(implementation: &Path, root: &Path, timeout: Duration) -> Report {
    let mut report = Report::default();
    let entries = match std::fs::read_dir(root) {
        Ok(entries) => entries,
        Err(e) => {
            report.failures.push(format!("{}: cannot read the transcripts: {e}", root.display()));
            return report;
        }
    };
    let mut flows: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && p.file_name().is_some_and(|n| crate::is_evokes(&n.to_string_lossy())))
        .collect();
    flows.sort();
    if flows.is_empty() {
        report.failures.push(format!("{}: no transcript", root.display()));
    }
    for flow in flows {
        let name = flow.file_name().unwrap_or_default().to_string_lossy().to_string();
        if !flow.join("transcript").is_file() {
            report.failures.push(format!("{name}: the folder has no `transcript`"));
            continue;
        }
        match flow_report(implementation, &flow, timeout) {
            Ok(flow_report) => {
                for failure in flow_report.failures.iter() {
                    report.failures.push(format!("{name}/{failure}"));
                }
                report.passed += flow_report.passed;
            }
            Err(e) => report.failures.push(format!("{name}: {e}")),
        }
    }
    report
}

/// Runs one flow's steps. An `Err` is the flow's failure as the report prints it.
fn flow_report(implementation: &Path, flow: &Path, timeout: Duration) -> Result<Report, String> {
    let text = std::fs::read_to_string(flow.join("transcript")).map_err(|e| e.to_string())?;
    let steps = parse(&text).map_err(|e| e.to_string())?;
    if steps.is_empty() {
        return Err("transcript: no step".into());
    }
    let home = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut report = Report::default();
    for step in steps {
        if step.terminal {
            match terminal(implementation, flow, home.path(), &step, timeout) {
                Ok(()) => report.passed += 1,
                Err(problem) => report.failures.push(format!(
                    "transcript:{} `evoke {}`\n    {problem}",
                    step.line,
                    step.command.join(" ")
                )),
            }
            continue;
        }
        let mut command = Command::new(implementation);
        command
            .args(&step.command)
            .current_dir(flow)
            .env("EVOKE_HOME", home.path())
            .env("NO_COLOR", "1")
            .env_remove("EVOKE_NODE");
        let output = match run_for(command, None, timeout) {
            Ok(output) => output,
            Err(problem) => {
                report.failures.push(format!(
                    "transcript:{} `evoke {}`\n    {problem}",
                    step.line,
                    step.command.join(" ")
                ));
                continue;
            }
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let mut problems = Vec::new();
        compare("stdout", &step.stdout, &stdout, &mut problems);
        compare("stderr", &step.stderr, &stderr, &mut problems);
        if let Some(exit) = step.exit
            && output.status.code() != Some(exit)
        {
            problems.push(format!("exit {:?}, expected {exit}", output.status.code()));
        }
        if problems.is_empty() {
            report.passed += 1;
        } else {
            report.failures.push(format!(
                "transcript:{} `evoke {}`\n    {}",
                step.line,
                step.command.join(" "),
                problems.join("\n    ")
            ));
        }
    }
    Ok(report)
}

fn compare(stream: &str, expected: &[String], actual: &str, problems: &mut Vec<String>) {
    let actual: Vec<&str> = actual.lines().collect();
    if actual.len() != expected.len() {
        problems.push(format!(
            "{stream}: {} lines, expected {}:\n      {}",
            actual.len(),
            expected.len(),
            actual.join("\n      ")
        ));
        return;
    }
    for (want, got) in expected.iter().zip(actual) {
        let as_json = |s: &str| serde_json::from_str::<Value>(s).ok().filter(Value::is_object);
        let equal = match (as_json(want), as_json(got)) {
            (Some(w), Some(g)) => same(&w, &g, false),
            _ => want == got,
        };
        if !equal {
            problems.push(format!("{stream}:\n      expected {want}\n      actual   {got}"));
        }
    }
}

/// Runs one step in a pseudo-terminal, answering its prompts, and compares the whole screen's text. Each
/// wait (for a prompt, for the end) may take `timeout`. An `Err` is every difference found, as the report
/// prints them.
fn terminal(implementation: &Path, flow: &Path, home: &Path, step: &Step, timeout: Duration) -> Result<(), String> {
    use expectrl::{Eof, Session};
    let mut command = Command::new(implementation);
    command.args(&step.command).current_dir(flow).env("EVOKE_HOME", home).env("NO_COLOR", "1").env("TERM", "dumb");
    let mut session = Session::spawn(command).map_err(|e| format!("cannot start a terminal: {e}"))?;
    session.set_expect_timeout(Some(timeout));
    let timed_out = |e: &expectrl::Error| match e {
        expectrl::Error::ExpectTimeout => format!("timed out after {} s", timeout.as_secs()),
        e => e.to_string(),
    };
    // A person's terminal echoes what they type.
    session.set_echo(true, None).map_err(|e| format!("cannot turn the terminal's echo on: {e}"))?;
    let mut seen = Vec::new();
    let mut expected = Vec::new();
    for line in &step.stdout {
        let answer = line.strip_suffix('>').and_then(|l| l.rsplit_once('<'));
        match answer {
            Some((prompt, typed)) => {
                let found = session.expect(prompt).map_err(|e| {
                    let e = timed_out(&e);
                    format!("waited for {prompt:?}: {e}; the terminal showed:\n{}", String::from_utf8_lossy(&seen))
                })?;
                seen.extend_from_slice(found.before());
                seen.extend_from_slice(found.get(0).unwrap_or_default());
                session.send_line(typed).map_err(|e| e.to_string())?;
                expected.push(format!("{prompt}{typed}"));
            }
            None => expected.push(line.clone()),
        }
    }
    let rest = session.expect(Eof).map_err(|e| format!("the command did not end: {}", timed_out(&e)))?;
    seen.extend_from_slice(rest.before());
    // What the end of file matched is the rest of the screen.
    seen.extend_from_slice(rest.get(0).unwrap_or_default());
    let status = session.wait().map_err(|e| e.to_string())?;
    let code = match status {
        expectrl::WaitStatus::Exited(_, code) => Some(code),
        _ => None,
    };
    let screen = String::from_utf8_lossy(&seen).replace("\r\n", "\n").replace('\r', "");
    let shown: Vec<&str> = screen.lines().collect();
    let mut problems = Vec::new();
    if shown != expected.iter().map(String::as_str).collect::<Vec<_>>() {
        problems.push(format!(
            "the terminal showed:\n      {}\n    expected:\n      {}",
            shown.join("\n      "),
            expected.join("\n      ")
        ));
    }
    if let Some(exit) = step.exit
        && code != Some(exit)
    {
        problems.push(format!("exit {code:?}, expected {exit}"));
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n    ")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_does_not_read_is_named_by_its_number() {
        let refused = parse("$ evoke try x\n? 0\nleft over\n").unwrap_err();
        assert_eq!(refused, ParseError { line: 3, fault: LineFault::OutputAfterExit });
        assert_eq!(refused.to_string(), "line 3: output after the exit code; start a command with `$ `");
        assert_eq!(parse("$ ls\n").unwrap_err(), ParseError { line: 1, fault: LineFault::NotEvoke });
        assert_eq!(parse("hello\n").unwrap_err().fault, LineFault::OutputFirst);
        assert_eq!(parse("$ evoke x\n? many\n").unwrap_err().fault, LineFault::ExitNotANumber);
    }
}
