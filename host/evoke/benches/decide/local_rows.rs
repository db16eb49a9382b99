//! The rows decided by the `local` engine, each a whole process of the binary:
//! - one `evoke try --json` on the example project of docs/examples/home (3 reflexes), its answer cached;
//! - the first decision of a new process on a project of 150 reflexes, the route model kept in the cache
//!   place from an earlier process, the answer cache cold (a sentence never decided before);
//! - the filter on that project, every line a new sentence.
//!
//! The 150 reflexes are made here, ten verbs by fifteen things, ten examples each, so the bench needs no
//! data set. Every decision is checked to be the expected reflex (run or confirm) before a time is shown.

use super::timing::{Timed, median, ms, node, ratio_line, run};
use evoke::drive::{DEADLINE, Request, decide};
use evoke_adapters::local::Local;
use evoke_files::project::{Location, load};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

const RUNS: usize = 21;
const FILTER_LINES: usize = 2_000;

const VERBS: [&str; 10] = ["open", "close", "clean", "check", "paint", "lock", "heat", "count", "water", "sort"];
const THINGS: [&str; 15] = [
    "garage", "window", "fridge", "oven", "garden", "boat", "bike", "roof", "shed", "piano", "printer", "camera",
    "kettle", "fence", "mailbox",
];
const EXAMPLES: [&str; 10] = [
    "{v} the {t}",
    "please {v} my {t}",
    "can you {v} the {t} now",
    "i want to {v} the {t}",
    "{v} {t}",
    "go {v} the {t} for me",
    "time to {v} the {t}",
    "would you {v} our {t}",
    "{v} that {t} please",
    "let us {v} the {t}",
];

fn reflex_name(i: usize) -> String {
    format!("{}_{}", VERBS[i % VERBS.len()], THINGS[i / VERBS.len()])
}

fn fill(template: &str, i: usize) -> String {
    template.replace("{v}", VERBS[i % VERBS.len()]).replace("{t}", THINGS[i / VERBS.len()])
}

/// The 150-reflex project, answered by `local`.
pub fn write_project(dir: &Path) {
    let mut toml = String::from("adapter = \"local\"\n\n[reflexes]\n");
    for i in 0..VERBS.len() * THINGS.len() {
        let name = reflex_name(i);
        let reflex = dir.join("reflexes").join(&name);
        std::fs::create_dir_all(&reflex).unwrap();
        std::fs::write(reflex.join("body.mjs"), "export default () => 'done';\n").unwrap();
        let mut manifest = format!(
            "reflex = 1\ndescription = \"{} the {}.\"\neffect = \"read\"\nconfirm = \"Do it?\"\nrun = \"body.mjs\"\n\n[examples]\n",
            VERBS[i % VERBS.len()],
            THINGS[i / VERBS.len()]
        );
        for example in EXAMPLES {
            writeln!(manifest, "\"{}\" = {{}}", fill(example, i)).unwrap();
        }
        std::fs::write(reflex.join("reflex.toml"), manifest).unwrap();
        writeln!(toml, "{name} = \"reflexes/{name}\"").unwrap();
    }
    std::fs::write(dir.join("evoke.toml"), toml).unwrap();
}

/// The `n`th new sentence and the reflex it asks for: a way of asking for one of the 150, then a word
/// of letters only that no earlier sentence had, so that the answer cache never answers it.
fn sentence(n: usize) -> (String, String) {
    let i = (n * 7) % (VERBS.len() * THINGS.len());
    let asked = fill(["{v} the {t} right away", "please {v} my {t} today", "could you {v} the {t}"][n % 3], i);
    (format!("{asked} {}", super::word(n + 50_000)), reflex_name(i))
}

/// `"reflex":"NAME"` in a decision's line, and an outcome that would call it.
fn decided(line: &str, reflex: &str) -> bool {
    line.contains(&format!("\"reflex\":\"{reflex}\""))
        && (line.contains("\"outcome\":\"run\"") || line.contains("\"outcome\":\"confirm\""))
}

fn evoke_in(evoke: &str, project: &Path, home: &Path) -> Command {
    let mut command = Command::new(evoke);
    command.arg("-C").arg(project).current_dir(project).env("EVOKE_HOME", home);
    command
}

fn trust(evoke: &str, project: &Path, home: &Path) {
    let (output, _) = run(evoke_in(evoke, project, home).arg("trust"), None);
    assert!(output.status.success(), "trust: {}", String::from_utf8_lossy(&output.stderr));
}

/// What the rows measured, for the summary.
pub struct Figures {
    pub home: Timed,
    pub version: Timed,
    pub home_node: Option<Timed>,
    pub first: Timed,
    pub first_node: Option<Timed>,
    pub listed: Timed,
    pub filter_ms_a_line: f64,
    pub in_process_ms: f64,
}

pub fn rows(evoke: &str) -> Figures {
    // One process on the example project, the answer cached by a first run, beside `node -e 0` and
    // beside `evoke --version`, the least a process of this binary costs.
    let home = tempfile::tempdir().unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples/home").canonicalize().unwrap();
    trust(evoke, &example, home.path());
    let sentence_home = "kill the lights in the den";
    let mut times = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..=RUNS {
        let (output, timed) = run(evoke_in(evoke, &example, home.path()).args(["try", "--json", sentence_home]), None);
        let line = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success() && decided(&line, "lights"), "the example decides the lights: {line}");
        let (version, version_timed) = run(Command::new(evoke).arg("--version"), None);
        assert!(version.status.success());
        let node = node();
        // The first round fills the answer cache and the kept model: it is not counted.
        if round > 0 {
            times.0.push(timed);
            times.1.push(version_timed);
            times.2.extend(node);
        }
    }
    let (home_runs, version_runs, node_runs) = times;
    let home_figure = median(&home_runs);
    let version_figure = median(&version_runs);
    let home_node = (!node_runs.is_empty()).then(|| median(&node_runs));
    if let Some(node) = home_node {
        println!(
            "{}",
            ratio_line("one `evoke try --json` on the example, local, cached", home_figure, "`node -e 0`", node)
        );
        println!("{}", ratio_line("`evoke --version`", version_figure, "`node -e 0`", node));
    }

    // The 150-reflex project: its route model fitted and kept by a first process.
    let project = tempfile::tempdir().unwrap();
    write_project(project.path());
    trust(evoke, project.path(), home.path());
    let (warm, _) = run(evoke_in(evoke, project.path(), home.path()).args(["try", "--json", "open the garage"]), None);
    assert!(
        decided(&String::from_utf8_lossy(&warm.stdout), "open_garage"),
        "{}",
        String::from_utf8_lossy(&warm.stdout)
    );
    let kept = home.path().join("cache/local");
    assert!(std::fs::read_dir(&kept).is_ok_and(|mut d| d.next().is_some()), "the route model is kept in {kept:?}");
    let mut first = Vec::new();
    let mut first_node = Vec::new();
    let mut listed = Vec::new();
    for n in 0..RUNS {
        // `evoke list` starts, checks the trust and reads the 150 manifests, and asks no engine: what a
        // decision costs before its engine is asked.
        let (output, timed) = run(evoke_in(evoke, project.path(), home.path()).arg("list"), None);
        assert!(String::from_utf8_lossy(&output.stdout).lines().filter(|l| l.contains(" active ")).count() == 150);
        listed.push(timed);
        let (input, reflex) = sentence(n);
        let (output, timed) = run(evoke_in(evoke, project.path(), home.path()).args(["try", "--json", &input]), None);
        let line = String::from_utf8_lossy(&output.stdout);
        assert!(decided(&line, &reflex), "{input:?} decides {reflex}: {line}");
        assert!(!line.contains("\"trace\":[]"), "a new sentence asks the engine, not the answer cache: {line}");
        first.push(timed);
        first_node.extend(node());
    }
    let first_figure = median(&first);
    let first_node = (!first_node.is_empty()).then(|| median(&first_node));
    if let Some(node) = first_node {
        println!(
            "{}",
            ratio_line(
                "first decision of a process, 150 reflexes, local, model kept, new sentence",
                first_figure,
                "`node -e 0`",
                node
            )
        );
    }
    let listed = median(&listed);
    println!(
        "  of which before the engine is asked (`evoke list`: start, trust, 150 manifests): {:.2} ms wall, {:.2} ms CPU; \
         the start alone (`evoke --version`): {:.2} ms CPU",
        ms(listed.wall),
        ms(listed.cpu),
        ms(version_figure.cpu)
    );
    println!(
        "  the same beside `evoke try --json` on the example (cached): ratio {:.2} wall, {:.2} CPU",
        first_figure.wall.as_secs_f64() / home_figure.wall.as_secs_f64(),
        first_figure.cpu.as_secs_f64() / home_figure.cpu.as_secs_f64()
    );

    // The filter on that project, every line new, beside the same decisions in process.
    let lines: Vec<(String, String)> = (RUNS..RUNS + FILTER_LINES).map(sentence).collect();
    let stdin: String = lines.iter().map(|(input, _)| format!("{input}\n")).collect();
    let (output, timed) = run(evoke_in(evoke, project.path(), home.path()).args(["try", "--json"]), Some(stdin));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed = String::from_utf8_lossy(&output.stdout);
    let printed: Vec<&str> = printed.lines().collect();
    assert_eq!(printed.len(), FILTER_LINES, "one line per input");
    for ((input, reflex), line) in lines.iter().zip(&printed) {
        assert!(decided(line, reflex), "{input:?} decides {reflex}: {line}");
    }
    let filter_ms = ms(timed.wall) / FILTER_LINES as f64;
    let in_process_ms = in_process(project.path(), &home.path().join("cache/local"), &lines);
    println!(
        "filter mode, 150 reflexes, local, {FILTER_LINES} new lines: {filter_ms:.3} ms a line wall, {:.3} ms CPU; \
         in process (decide alone, no cache, no log): {in_process_ms:.3} ms; ratio {:.2}",
        ms(timed.cpu) / FILTER_LINES as f64,
        filter_ms / in_process_ms
    );
    Figures {
        home: home_figure,
        version: version_figure,
        home_node,
        first: first_figure,
        first_node,
        listed,
        filter_ms_a_line: filter_ms,
        in_process_ms,
    }
}

/// ms a decision of `lines` by `local` in this process, its model read from `kept`, after one decision
/// that loads it.
fn in_process(project: &Path, kept: &Path, lines: &[(String, String)]) -> f64 {
    let project = load(Location { root: project.to_path_buf(), home: false }).unwrap();
    let catalog = project.catalog();
    assert_eq!(catalog.reflexes().len(), VERBS.len() * THINGS.len());
    let local = Local::from_table(None).unwrap();
    local.keep_models_in(kept.to_path_buf());
    let plan = evoke_core::question::plan_digest(&catalog);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    let request = Request {
        catalog: &catalog,
        adapter: &local,
        gate: evoke_core::adapter::Adapter::gate(&local),
        plan: &plan,
        cache: None,
        deadline: Instant::now() + DEADLINE * 1000,
        reviews: None,
    };
    let warm = runtime.block_on(decide(&request, "open the garage")).expect("the first decision");
    assert_eq!(warm.decision.reflex.as_deref(), Some("open_garage"));
    let started = Instant::now();
    for (input, reflex) in lines {
        let decided = runtime.block_on(decide(&request, input)).expect("every line decides");
        assert_eq!(decided.decision.reflex.as_deref(), Some(reflex.as_str()), "{input}");
    }
    ms(started.elapsed()) / lines.len() as f64
}
