use super::*;
use crate::parse;

const TRIAGE: &str = include_str!("../../../../transcripts/expresso-triage/triage.ex");

fn checked(source: &str) -> Report {
    let parsed = parse(source);
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
    check(&parsed.program)
}

fn errors(source: &str) -> Vec<(&'static str, usize)> {
    checked(source)
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code.as_str(), crate::span::position(source, d.span.start).line))
        .collect()
}

#[test]
fn the_worked_example_is_world_and_needs_exactly_its_grants() {
    let report = checked(TRIAGE);
    assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
    let agent = &report.agents[0];
    assert_eq!(agent.effect, Effect::World);
    assert_eq!(agent.needs, vec!["ai.classify", "message.send", "notify.send", "react.add", "tasks.create"]);
    assert!(agent.over_granted.is_empty());
    assert_eq!(agent.leaves, vec![LeafUse { name: "classify".into(), closed: true }]);
}

#[test]
fn the_three_variants_of_the_worked_example() {
    let pure = TRIAGE.replace("at most world", "at most pure");
    // Under a pure ceiling every leaf is refused: classify (line 10) and the five actions.
    let found = errors(&pure);
    assert!(found.iter().all(|(c, _)| *c == "E_CEILING"), "{found:?}");
    assert_eq!(found.iter().map(|(_, l)| *l).collect::<Vec<_>>(), vec![10, 12, 13, 15, 18, 19]);
    let no_tasks = TRIAGE.replace("tasks.create, ", "");
    assert_eq!(errors(&no_tasks), vec![("E_GRANT", 13)]);
    let no_classify = TRIAGE.replace(", ai.classify", "");
    assert_eq!(errors(&no_classify), vec![("E_GRANT", 10)]);
}

#[test]
fn observation_capabilities_of_each_model_sigil() {
    let source = r#"
leaf ai.extract(s: Span) -> list<text>
leaf mood(s: Span) -> enum(calm, tense)
agent "A" {
  grants { message.send }
  on someone says ~"upset" {
    let a = ai.extract(.text)
    let b = mood(.text)
    say summarize(recent)
  }
}
"#;
    let report = checked(source);
    let grant_errors: Vec<String> =
        report.diagnostics.iter().filter(|d| d.code == Code::Grant).map(|d| d.message.clone()).collect();
    assert_eq!(
        grant_errors,
        vec![
            "the fuzzy trigger `~\"…\"` needs the capability `ai.match`, which `grants` does not hold",
            "the leaf `ai.extract` needs the capability `ai.extract`, which `grants` does not hold",
            "the leaf `mood` needs the capability `ai.mood`, which `grants` does not hold",
            "`summarize` needs the capability `ai.summarize`, which `grants` does not hold",
        ]
    );
    assert_eq!(report.agents[0].needs, vec!["ai.extract", "ai.match", "ai.mood", "ai.summarize", "message.send"]);
    assert_eq!(
        report.agents[0].leaves,
        vec![
            LeafUse { name: "ai.extract".into(), closed: false },
            LeafUse { name: "mood".into(), closed: true },
            LeafUse { name: "summarize".into(), closed: false }
        ]
    );
}

#[test]
fn a_fuzzy_trigger_under_at_most_pure_is_above_the_ceiling() {
    let source = "agent \"A\" {\n  grants { ai.match }\n  at most pure\n  on someone says ~\"hi\" { }\n}\n";
    assert_eq!(errors(source), vec![("E_CEILING", 4)]);
    let report = checked(source);
    assert_eq!(report.agents[0].effect, Effect::Model);
}

#[test]
fn a_missing_ceiling_is_world_and_a_pure_agent_is_pure() {
    let source = "agent \"Counter\" {\n  memory n = 0\n  at most pure\n  on someone says /./ { remember n += 1 }\n}\nagent \"B\" { grants { message.send } on message { say \"x\" } }\n";
    let report = checked(source);
    assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
    assert_eq!((report.agents[0].effect, report.agents[0].ceiling), (Effect::Pure, Effect::Pure));
    assert_eq!((report.agents[1].effect, report.agents[1].ceiling), (Effect::World, Effect::World));
}

#[test]
fn duplicate_agents_and_type_errors() {
    let dup = "agent \"A\" { }\nagent \"A\" { }\n";
    assert_eq!(errors(dup), vec![("E_DUP_AGENT", 2)]);
    let not_a_list = "leaf k(s: Span) -> enum(a, b)\nagent \"A\" {\n  grants { ai.k }\n  on message {\n    for x in k(.text) { }\n  }\n}\n";
    assert_eq!(errors(not_a_list), vec![("E_TYPE", 5)]);
    let bad_case = "leaf k(s: Span) -> enum(a, b)\nagent \"A\" {\n  grants { ai.k }\n  on message {\n    if k(.text) == c { }\n  }\n}\n";
    assert_eq!(errors(bad_case), vec![("E_TYPE", 5)]);
    let unknown = "agent \"A\" { on message { let x = nothing.field } }";
    assert_eq!(errors(unknown), vec![("E_TYPE", 1)]);
    let no_leaf = "agent \"A\" { on message { let x = nope(.text) } }";
    assert_eq!(errors(no_leaf), vec![("E_TYPE", 1)]);
    let no_memory = "agent \"A\" { on message { remember n += 1 } }";
    assert_eq!(errors(no_memory), vec![("E_TYPE", 1)]);
}

#[test]
fn an_over_grant_is_a_warning_not_an_error() {
    let report = checked("agent \"A\" { grants { tasks.create, message.send } on message { say \"x\" } }");
    assert_eq!(report.agents[0].over_granted, vec!["tasks.create"]);
    let codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, vec!["W_OVER_GRANT"]);
    assert!(!report.diagnostics[0].is_error());
}

#[test]
fn an_interpolated_duration_is_marked_and_a_number_is_not() {
    let source = "agent \"A\" {\n  memory wait = 90s\n  memory n = 3\n  on message {\n    let d = 5m\n    remember n = 4\n    let s = \"{d} {wait} {2h} {n} {300000}\"\n  }\n}\n";
    let report = checked(source);
    let marked: Vec<&str> = report.durations.iter().map(|s| &source[s.start..s.end]).collect();
    assert_eq!(marked, vec!["d", "wait", "2h"]);
}

#[test]
fn a_schedule_that_starts_as_a_clock_form_must_be_one() {
    let source = "agent \"T\" {\n  grants { message.send }\n  on schedule \"every 5m\" { say \"tick\" }\n  on schedule \"every 5 minutes\" { say \"x\" }\n  on schedule \"daily 9am\" { say \"y\" }\n  on schedule \"standup\" { say \"z\" }\n}\n";
    assert_eq!(errors(source), vec![("E_SCHEDULE", 4), ("E_SCHEDULE", 5)]);
    let report = checked(source);
    let rendered = report.diagnostics[0].render("t.ex", source);
    assert!(rendered.contains("t.ex:4:6"), "{rendered}");
    assert!(rendered.contains("takes one duration"), "{rendered}");
    assert!(rendered.contains("fix: write `every 5m`"), "{rendered}");
}
