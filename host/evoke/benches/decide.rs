//! Every figure of docs/performance.md's table of decisions, each a whole process of the binary beside a
//! baseline measured in the same run:
//! - a 50-reflex project answered by `replay`: in process, the whole decision (bounds, recognizers,
//!   questions, validation, gate) beside the adapter's own share (the recording's look-up), over 10,000
//!   inputs; then through the binary in filter mode, 10,000 lines on stdin, `--json`, logging included,
//!   against the in-process rate; then one `evoke try --json` with the 200-answer recording against
//!   `node -e 0`;
//! - the rows answered by `local` (decide/local_rows.rs): one `evoke try --json` on the example project,
//!   the first decision of a process on 150 reflexes, and the filter on them.
//!
//! Each process is timed by the wall clock and by its CPU time (decide/timing.rs): on a shared machine
//! the wall clock counts the waits for a core. Times are printed as ratios, never asserted; what is
//! asserted is that every decision timed is the one expected, not a refusal.
//!
//! Run: `cargo bench -p evoke --bench decide`; `-- --evoke PATH` times the binary at PATH instead.

use evoke::drive::{DEADLINE, Request, decide};
use evoke_adapters::replay::Replay;
use evoke_core::adapter::{Adapter, State};
use evoke_core::question::{Questions, plan_digest};
use evoke_core::recording::read_recording;
use evoke_files::project::{Location, load};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

#[path = "decide/local_rows.rs"]
mod local_rows;
#[path = "decide/timing.rs"]
mod timing;

// The allocator the evoke binary runs with, so the in-process figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const REFLEXES: usize = 50;
const DISTINCT: usize = 200;
const INPUTS: usize = 10_000;

fn write_project(dir: &Path) {
    let mut toml = String::from("[reflexes]\n");
    for i in 0..REFLEXES {
        let reflex = dir.join(format!("r{i}"));
        std::fs::create_dir_all(&reflex).unwrap();
        std::fs::write(reflex.join("body.mjs"), "export default () => 'ok';\n").unwrap();
        std::fs::write(
            reflex.join("reflex.toml"),
            format!(
                "reflex = 1\ndescription = \"Do the {w} thing to a device.\"\nnot_for = [\"the {v} thing\"]\neffect = \"write\"\n\
                 confirm = \"Do {{mode}} for {{minutes}}?\"\nrun = \"body.mjs\"\n\
                 [args.mode]\nask = \"Which mode?\"\noptions.fast = \"Quickly.\"\noptions.slow = \"Slowly.\"\n\
                 [args.minutes]\nask = \"For how long?\"\npick = \"duration\"\n\
                 [examples]\n\"do the {w} thing fast for 5 minutes\" = {{ mode = \"fast\", minutes = \"5 minutes\" }}\n",
                w = word(i + 100),
                v = word((i + 1) % REFLEXES + 100)
            ),
        )
        .unwrap();
        writeln!(toml, "r{i} = \"r{i}\"").unwrap();
    }
    std::fs::write(dir.join("evoke.toml"), toml).unwrap();

    let mut recording = String::from("id = \"replay\"\n[gate]\nroute = 0.5\nread = 0.6\nwrite = 0.8\n");
    for n in 0..DISTINCT {
        let winner = n % REFLEXES;
        let input = sentence(n);
        let minutes = input.find("10 minutes").map(|byte| input[..byte].chars().count()).unwrap();
        let mut route = format!("r{winner} = 0.9, none = 0.04");
        let share = 0.06 / (REFLEXES - 1) as f64;
        for other in (0..REFLEXES).filter(|o| *o != winner) {
            write!(route, ", r{other} = {share:.6}").unwrap();
        }
        writeln!(recording, "[answers.\"{input}\"]\nroute = {{ {route} }}").unwrap();
        // The sentence's `and` is a place it could be cut: the binary reads every sentence as a possible
        // weave and asks it beside the route; the answer keeps the sentence whole, one decision.
        let and = input.find(" and ").map(|byte| input[..byte].chars().count() + 1).unwrap();
        writeln!(recording, "\"weave.cut_{and}_{}\" = {{ no = 0.97, yes = 0.03 }}", and + 3).unwrap();
        let mut ranked: Vec<usize> = (0..REFLEXES).filter(|o| *o != winner).collect();
        ranked.sort_by_key(|o| format!("r{o}"));
        for fit in std::iter::once(winner).chain(ranked.into_iter().take(1)) {
            writeln!(recording, "\"fits.r{fit}\" = {{ yes = 0.9 }}").unwrap();
        }
        writeln!(recording, "\"r{winner}.mode\" = {{ fast = 0.95, unstated = 0.05 }}").unwrap();
        writeln!(recording, "\"r{winner}.minutes\" = {{ \"{minutes}-{}\" = 0.97, unstated = 0.03 }}", minutes + 10)
            .unwrap();
    }
    std::fs::write(dir.join("recording.toml"), recording).unwrap();
}

/// A word of letters only for each number, so that no input holds a stray number or code.
fn word(mut n: usize) -> String {
    let mut word = String::new();
    loop {
        word.push((b'a' + (n % 26) as u8) as char);
        n /= 26;
        if n == 0 {
            break word;
        }
    }
}

fn sentence(n: usize) -> String {
    format!("please do the {} thing fast for 10 minutes and say {}", word(n % REFLEXES + 100), word(n + 1000))
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    write_project(dir.path());
    // `cargo bench … -- --write DIR` leaves the project and its inputs in DIR, to profile by hand.
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--write") {
        let target = Path::new(&args[at + 1]);
        write_project(target);
        let inputs: String = (0..INPUTS).map(|i| sentence(i % DISTINCT) + "\n").collect();
        std::fs::write(target.join("inputs.txt"), inputs).unwrap();
        return;
    }
    let project = load(Location { root: dir.path().to_path_buf(), home: false }).unwrap();
    let catalog = project.catalog();
    assert_eq!(catalog.reflexes().len(), REFLEXES);
    let text = std::fs::read_to_string(dir.path().join("recording.toml")).unwrap();
    let replay = Replay::new(read_recording("recording.toml", &text).value.unwrap().into());
    let plan = plan_digest(&catalog);
    let inputs: Vec<String> = (0..INPUTS).map(|i| sentence(i % DISTINCT)).collect();

    // In process: every decision whole, then the adapter's share alone.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    let request = Request {
        catalog: &catalog,
        adapter: &replay,
        gate: replay.gate(),
        plan: &plan,
        cache: None,
        deadline: Instant::now() + DEADLINE * 1000,
        reviews: None,
    };
    let mut outcomes = std::collections::BTreeMap::new();
    let started = Instant::now();
    for input in &inputs {
        let decided = runtime.block_on(decide(&request, input)).expect("every benchmark input decides");
        *outcomes.entry(decided.decision.outcome.as_str()).or_insert(0) += 1;
    }
    let whole = started.elapsed();
    let in_process_rate = INPUTS as f64 / whole.as_secs_f64();
    let route_only = Questions(vec![(evoke_core::question::QuestionId::Route, evoke_core::question::route(&catalog))]);
    let started = Instant::now();
    for input in &inputs {
        let state = State { request: input.clone() };
        std::hint::black_box(replay.answer_now(&state, &route_only).unwrap());
        std::hint::black_box(replay.answer_now(&state, &route_only).unwrap());
    }
    let adapter = started.elapsed();
    let started = Instant::now();
    for input in &inputs {
        std::hint::black_box(evoke_core::recognize::recognize(input));
    }
    let recognizers = started.elapsed();
    let per = |d: Duration| d.as_secs_f64() * 1e6 / INPUTS as f64;
    println!(
        "in process, {REFLEXES} reflexes, {INPUTS} inputs: {:.0} decisions/s, {:.1} µs each ({:.1} µs beside the adapter's {:.1} µs); recognizers {:.1} µs; outcomes {outcomes:?}",
        INPUTS as f64 / whole.as_secs_f64(),
        per(whole),
        per(whole.saturating_sub(adapter)),
        per(adapter),
        per(recognizers)
    );

    // Through the binary, in filter mode.
    // `-- --evoke PATH` times another build of the binary (an earlier commit's, to compare a change).
    let evoke =
        args.iter().position(|a| a == "--evoke").map_or(env!("CARGO_BIN_EXE_evoke"), |at| args[at + 1].as_str());
    let home = tempfile::tempdir().unwrap();
    let trusted =
        Command::new(evoke).arg("trust").current_dir(dir.path()).env("EVOKE_HOME", home.path()).output().unwrap();
    assert!(trusted.status.success(), "{}", String::from_utf8_lossy(&trusted.stderr));
    let replay_in = |command: &mut Command| {
        command
            .args(["-C", &dir.path().display().to_string(), "try", "--json", "--recording", "recording.toml"])
            .current_dir(dir.path())
            .env("EVOKE_HOME", home.path());
    };
    let mut stdin = String::new();
    for input in &inputs {
        stdin.push_str(input);
        stdin.push('\n');
    }
    let mut filter = Command::new(evoke);
    replay_in(&mut filter);
    let (output, filter_timed) = timing::run(&mut filter, Some(stdin));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = output.stdout.iter().filter(|b| **b == b'\n').count();
    assert_eq!(lines, INPUTS, "one line per input");
    // A rate of refusals would measure the wrong thing: every line must be a decision that runs.
    let runs = String::from_utf8_lossy(&output.stdout).matches("\"outcome\":\"run\"").count();
    assert_eq!(runs, INPUTS, "every input decides run: {}", String::from_utf8_lossy(&output.stdout[..400]));
    let filter_rate = INPUTS as f64 / filter_timed.wall.as_secs_f64();
    println!(
        "filter mode (binary, --json, logged): {filter_rate:.0} decisions/s, {:.1} µs each over {INPUTS} lines \
         ({:.1} µs CPU); ratio {:.2} of the in-process rate",
        filter_timed.wall.as_secs_f64() * 1e6 / INPUTS as f64,
        filter_timed.cpu.as_secs_f64() * 1e6 / INPUTS as f64,
        filter_rate / in_process_rate
    );

    // One whole process, beside node starting and doing nothing.
    let mut ours = Vec::new();
    let mut node = Vec::new();
    for _ in 0..21 {
        let mut one = Command::new(evoke);
        replay_in(&mut one);
        let (output, timed) = timing::run(one.arg(sentence(3)), None);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        assert!(String::from_utf8_lossy(&output.stdout).contains("\"outcome\":\"run\""), "the sentence decides run");
        ours.push(timed);
        node.extend(timing::node());
    }
    let ours = timing::median(&ours);
    let node = (!node.is_empty()).then(|| timing::median(&node));
    match node {
        Some(node) => println!(
            "{} (medians of 21)",
            timing::ratio_line("one `evoke try --json`, replay", ours, "`node -e 0`", node)
        ),
        None => println!("one `evoke try --json`: {:.1} ms (node not found)", timing::ms(ours.wall)),
    }

    let local = local_rows::rows(evoke);
    summary(in_process_rate, filter_rate, ours, node, &local);
}

/// The table of docs/performance.md: each row's figure, its baseline and the goal.
fn summary(
    in_process_rate: f64,
    filter_rate: f64,
    replay: timing::Timed,
    node: Option<timing::Timed>,
    local: &local_rows::Figures,
) {
    let goal = |met: bool, by: f64| if met { "met".to_string() } else { format!("not met, by {by:.1}×") };
    println!("\n| what | figure | baseline | ratio | goal |");
    println!("| --- | --- | --- | --- | --- |");
    println!(
        "| filter, 50 reflexes, replay, {INPUTS} lines | {filter_rate:.0}/s | in process {in_process_rate:.0}/s | {:.2} | ≥ 50,000/s: {} |",
        filter_rate / in_process_rate,
        goal(filter_rate >= 50_000.0, 50_000.0 / filter_rate)
    );
    let process_row = |what: &str, ours: timing::Timed, node: Option<timing::Timed>, target: f64| match node {
        Some(node) => {
            let (wall, cpu) =
                (ours.wall.as_secs_f64() / node.wall.as_secs_f64(), ours.cpu.as_secs_f64() / node.cpu.as_secs_f64());
            println!(
                "| {what} | {:.1} ms ({:.1} ms CPU) | `node -e 0` {:.1} ms ({:.1} ms CPU) | {wall:.3} ({cpu:.3} CPU) | ≤ {target}×: wall {}, CPU {} |",
                timing::ms(ours.wall),
                timing::ms(ours.cpu),
                timing::ms(node.wall),
                timing::ms(node.cpu),
                goal(wall <= target, wall / target),
                goal(cpu <= target, cpu / target)
            )
        }
        None => println!("| {what} | {:.1} ms | (node not found) | | |", timing::ms(ours.wall)),
    };
    process_row("one `evoke try --json`, replay, 200-answer recording", replay, node, 0.05);
    process_row("one `evoke try --json`, example project, local, cached", local.home, local.home_node, 0.04);
    process_row("`evoke --version` (the least a process costs)", local.version, local.home_node, 0.04);
    println!(
        "| first decision of a process, 150 reflexes, local, model kept | {:.1} ms ({:.1} ms CPU) | `node -e 0` {} | {} | ≤ 10 ms: wall {}, CPU {} |",
        timing::ms(local.first.wall),
        timing::ms(local.first.cpu),
        local.first_node.map_or("-".into(), |n| format!("{:.1} ms", timing::ms(n.wall))),
        local
            .first_node
            .map_or("-".into(), |n| format!("{:.3}", local.first.wall.as_secs_f64() / n.wall.as_secs_f64())),
        goal(timing::ms(local.first.wall) <= 10.0, timing::ms(local.first.wall) / 10.0),
        goal(timing::ms(local.first.cpu) <= 10.0, timing::ms(local.first.cpu) / 10.0)
    );
    println!(
        "| `evoke list`, 150 reflexes (start, trust, manifests; no engine) | {:.1} ms ({:.1} ms CPU) | | | |",
        timing::ms(local.listed.wall),
        timing::ms(local.listed.cpu)
    );
    println!(
        "| filter, 150 reflexes, local, new lines | {:.3} ms a line | in process {:.3} ms | {:.2} | ≤ 0.5 ms: {} |",
        local.filter_ms_a_line,
        local.in_process_ms,
        local.filter_ms_a_line / local.in_process_ms,
        goal(local.filter_ms_a_line <= 0.5, local.filter_ms_a_line / 0.5)
    );
}
