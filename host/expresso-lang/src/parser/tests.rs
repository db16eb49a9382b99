use super::*;

const TRIAGE: &str = include_str!("../../../../transcripts/expresso-triage/triage.ex");

fn codes(source: &str) -> Vec<(&'static str, usize)> {
    parse(source)
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), crate::span::position(source, d.span.start).line))
        .collect()
}

#[test]
fn the_worked_example_parses_with_ordinals_in_evaluation_order() {
    let parsed = parse(TRIAGE);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let agent = &parsed.program.agents[0];
    assert_eq!(agent.name.text, "Triage");
    assert_eq!(agent.grants.len(), 5);
    assert_eq!(
        agent.home,
        Some(Home { place: Place::Channel, tag: Some("support".into()), span: agent.home.as_ref().unwrap().span })
    );
    let body = &agent.behaviors[0].body;
    // classify is leaf 0; react, create_task, reply are 1, 2, 3; notify and reply 4, 5.
    let Stmt::Let { value, .. } = &body[0] else { panic!("let first") };
    assert!(matches!(value.kind, ExprKind::Leaf { ordinal: 0, .. }));
    let Stmt::If { then, .. } = &body[1] else { panic!("if second") };
    let ordinals: Vec<usize> =
        then.iter().filter_map(|s| if let Stmt::Action(a) = s { Some(a.ordinal) } else { None }).collect();
    assert_eq!(ordinals, vec![1, 2, 3]);
    let Stmt::If { then, .. } = &body[2] else { panic!("if third") };
    let caps: Vec<(&str, usize)> = then
        .iter()
        .filter_map(|s| if let Stmt::Action(a) = s { Some((a.cap.as_str(), a.ordinal)) } else { None })
        .collect();
    assert_eq!(caps, vec![("notify.send", 4), ("message.send", 5)]);
}

#[test]
fn spans_point_at_the_source() {
    let parsed = parse(TRIAGE);
    let agent = &parsed.program.agents[0];
    assert_eq!(&TRIAGE[agent.name.span.start..agent.name.span.end], "\"Triage\"");
    assert_eq!(&TRIAGE[agent.grants[1].span.start..agent.grants[1].span.end], "tasks.create");
    let leaf = &parsed.program.leaves[0];
    assert_eq!(&TRIAGE[leaf.name.span.start..leaf.name.span.end], "classify");
}

#[test]
fn recovery_reports_several_errors_at_once() {
    let source = "agent \"A\" {\n  on message {\n    let = 1\n    say \"ok\"\n    frobnicate 3\n  }\n  on meeting begins { say \"x\" }\n}\n";
    assert_eq!(codes(source), vec![("E_PARSE", 3), ("E_PARSE", 5), ("E_MEETING_PHASE", 7)]);
}

#[test]
fn the_static_parse_errors_of_section_4() {
    let redeclared = "leaf a(s: Span) -> bool\nleaf a(s: Span) -> text\n";
    assert_eq!(codes(redeclared), vec![("E_LEAF_SCHEMA", 2)]);
    let same = "leaf a(s: Span) -> bool\nleaf a(t: Span) -> boolean\n";
    assert_eq!(codes(same), vec![]);
    let inline = "leaf a(s: Span) -> bool\nagent \"X\" { on message { let v = leaf a(.text) -> number } }\n";
    assert_eq!(codes(inline), vec![("E_LEAF_SCHEMA", 2)]);
    assert_eq!(codes("agent \"X\" { on silence for \"5m\" { } }"), vec![("E_SILENCE_DURATION", 1)]);
    assert_eq!(codes("agent \"X\" { on silence for 5 { } }"), vec![("E_SILENCE_DURATION", 1)]);
    assert_eq!(codes("agent \"X\" { on meeting over { } }"), vec![("E_MEETING_PHASE", 1)]);
}

#[test]
fn ten_thousand_parentheses_are_an_error_not_an_overflow() {
    let source = format!("agent \"X\" {{ on message {{ say {}1{} }} }}", "(".repeat(10_000), ")".repeat(10_000));
    let found = codes(&source);
    assert_eq!(found, vec![("E_DEPTH", 1)]);
}

#[test]
fn every_trigger_statement_and_action_parses() {
    let source = r#"
leaf ai.extract_actions(s: Span) -> list<{ title: string, owner: user?, due: date? }> { prompt "Find the action items." }
agent "Scribe" {
  grants { tasks.create, notes.create, notify.send, message.send, react.add, ai.summarize, ai.match, ai.extract_actions, ai.mood }
  at most world
  voice "calm"
  avatar initials
  lives in meetings #standup
  memory count = 0
  on someone says /action item: (.+)/ { say "noted {.match.1}" }
  on someone says ~"someone sounds upset" { reply "I hear you." }
  on message in #general /help/ { react "👋" }
  on silence for 5m { say summarize(last 10m) }
  on meeting starts { say "Hello {meeting.title}" }
  on meeting ended {
    let items = ai.extract_actions(meeting)
    for item in items {
      if item.owner == "" or item.due == "" { tasks.create title: item.title } else { create_task item.title assignee: item.owner due: item.due }
    }
    let mood = leaf ai.mood(here..end_of_turn) -> enum(calm, tense)
    if mood == tense and count >= 1 { notify "host" "tense" } else if count < 0 { say "impossible" }
    create_note title: "Minutes" body: summarize(meeting)
    notes.create title: "Transcript" body: transcript
    notify.send to: "host" text: "done"
    message.send text: "bye" target: #general
    remember count += 1
  }
  on schedule "daily" { say summarize(recent) }
}
"#;
    let parsed = parse(source);
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
    let agent = &parsed.program.agents[0];
    assert_eq!(agent.behaviors.len(), 7);
    assert_eq!(parsed.program.leaves.len(), 2);
    assert!(parsed.program.leaves[1].inline);
}

#[test]
fn an_error_names_what_was_expected_and_the_fix() {
    let parsed = parse("agent \"A\" { at most everything }");
    let d = &parsed.diagnostics[0];
    assert_eq!(d.message, "`everything` is not a grade");
    assert_eq!(d.expected.as_deref(), Some("`pure`, `model` or `world`"));
    assert_eq!(d.fix.as_deref(), Some("the ceiling is one of pure, model, world"));
}

#[test]
fn an_action_takes_an_expression_that_starts_with_a_dot() {
    let source = r#"
agent "Echo" {
  on message {
    say .message
    reply .speaker
    create_task .message assignee: .speaker
    notify .speaker .message
    notify "host" .message
    notify.send to: .speaker text: .message
  }
}
"#;
    let parsed = parse(source);
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
    let body = &parsed.program.agents[0].behaviors[0].body;
    let actions: Vec<(&str, Vec<(&str, &ExprKind)>)> = body
        .iter()
        .filter_map(|s| if let Stmt::Action(a) = s { Some(a) } else { None })
        .map(|a| (a.verb.text.as_str(), a.args.iter().map(|(k, e)| (k.text.as_str(), &e.kind)).collect()))
        .collect();
    let bind = |name: &str| ExprKind::Binding(vec![name.to_string()]);
    let (message, speaker) = (bind("message"), bind("speaker"));
    let host = ExprKind::Str(vec![StrPart::Lit("host".into())]);
    assert_eq!(
        actions,
        vec![
            ("say", vec![("text", &message)]),
            ("reply", vec![("text", &speaker)]),
            ("create_task", vec![("title", &message), ("assignee", &speaker)]),
            ("notify", vec![("to", &speaker), ("text", &message)]),
            ("notify", vec![("to", &host), ("text", &message)]),
            ("notify.send", vec![("to", &speaker), ("text", &message)]),
        ]
    );
}

#[test]
fn a_verb_written_against_a_binding_names_the_space_it_lacks() {
    let parsed = parse("agent \"A\" { on message { say.message } }");
    let d = &parsed.diagnostics[0];
    assert_eq!(d.message, "`say.message` is not a statement");
    assert_eq!(d.fix.as_deref(), Some("put a space between the verb and the binding: `say .message`"));
}
