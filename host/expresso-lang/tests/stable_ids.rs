//! An author's stable id (`id "…"` after an action or a leaf call): how it parses, what is refused.

use expresso_lang::ast::{ExprKind, KeyPart, Stmt};
use expresso_lang::sites::key_sites;
use expresso_lang::span::position;
use expresso_lang::{compile, parse};

fn errors(source: &str) -> Vec<(&'static str, usize)> {
    let diagnostics = match compile(source) {
        Ok(compiled) => compiled.report.diagnostics,
        Err(diagnostics) => diagnostics,
    };
    diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code.as_str(), position(source, d.span.start).line))
        .collect()
}

fn rendered(source: &str) -> String {
    let diagnostics = compile(source).err().expect("refused");
    diagnostics.iter().map(|d| d.render("t.ex", source)).collect()
}

const AGENT: &str = "leaf classify(s: Span) -> enum(bug, other)\nagent \"T\" {\n  grants { ai.classify, ai.summarize, tasks.create, message.send, notify.send }\n";

#[test]
fn an_id_after_an_action_or_a_leaf_call_takes_the_ordinals_place() {
    let source = format!(
        "{AGENT}  on message {{\n    let c = classify(.message) id \"kind\"\n    let s = summarize(recent) id \"sum\"\n    say \"{{s}}\"\n    create_task \"Bug\" assignee: \"oncall\" id \"create-bug\"\n    let id = .speaker\n    notify id \"hi\" id \"2\"\n  }}\n}}\n"
    );
    let compiled = compile(&source)
        .unwrap_or_else(|d| panic!("{}", d.iter().map(|d| d.render("t.ex", &source)).collect::<String>()));
    let behavior = &compiled.program.agents[0].behaviors[0];
    let parts: Vec<(String, &str)> = key_sites(behavior).iter().map(|s| (s.part().to_string(), s.name)).collect();
    assert_eq!(
        parts,
        vec![
            ("kind".to_string(), "classify"),
            ("sum".to_string(), "summarize"),
            ("2".to_string(), "say"),
            ("create-bug".to_string(), "create_task"),
            ("2".to_string(), "notify"),
        ]
    );
    // `id` is still a name: `let id = …` and `notify id "hi"` read as before, the id clause after them.
    let Stmt::Action(notify) = &behavior.body[5] else { panic!("notify last") };
    assert_eq!(notify.key_part(), KeyPart::Id("2"));
    assert!(matches!(&notify.args[0].1.kind, ExprKind::Var(v) if v == "id"));
    let Stmt::Let { value, .. } = &behavior.body[0] else { panic!("let first") };
    assert!(matches!(&value.kind, ExprKind::Leaf { id: Some(id), ordinal: 0, .. } if id.text == "kind"));
}

#[test]
fn an_inline_leaf_takes_an_id_after_its_schema() {
    let source = "agent \"T\" {\n  grants { ai.mood }\n  on message {\n    let m = leaf mood(.message) -> enum(up, down) id \"mood\"\n  }\n}\n";
    let parsed = parse(source);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let sites = key_sites(&parsed.program.agents[0].behaviors[0]);
    assert_eq!(sites.iter().map(|s| s.part().to_string()).collect::<Vec<_>>(), vec!["mood"]);
}

#[test]
fn an_id_holding_a_separator_or_nothing_is_refused_at_its_line() {
    for (id, what) in [
        ("a/b", "holds `/`"),
        ("a|b", "holds `|`"),
        ("x:1", "holds `:`"),
        ("%7C", "holds `%`"),
        ("a b", "a space"),
        ("", "is empty"),
    ] {
        let source = format!(
            "agent \"T\" {{\n  grants {{ message.send }}\n  on message {{\n    say \"x\" id \"{id}\"\n  }}\n}}\n"
        );
        assert_eq!(errors(&source), vec![("E_ID", 4)], "{id}");
        let text = rendered(&source);
        assert!(text.contains(what), "{text}");
        assert!(text.contains("fix: name the action with letters, digits and dashes"), "{text}");
    }
    let long = "x".repeat(65);
    let source =
        format!("agent \"T\" {{\n  grants {{ message.send }}\n  on message {{ say \"x\" id \"{long}\" }}\n}}\n");
    assert_eq!(errors(&source), vec![("E_ID", 3)]);
    let fits = "x".repeat(64);
    assert_eq!(errors(&source.replace(&long, &fits)), vec![]);
}

#[test]
fn two_sites_of_one_agent_with_one_id_are_refused_at_the_second() {
    // In two behaviors of one agent: an id names one action of the agent.
    let source = format!(
        "{AGENT}  on message {{\n    say \"a\" id \"greet\"\n  }}\n  on message /x/ {{\n    say \"b\" id \"greet\"\n  }}\n}}\n"
    );
    assert_eq!(errors(&source), vec![("E_DUP_ID", 8)]);
    let text = rendered(&source);
    assert!(text.contains("error[E_DUP_ID]: a second site of agent \"T\" with the id \"greet\""), "{text}");
    assert!(text.contains("t.ex:8:"), "{text}");
    assert!(text.contains("fix: give this `say` an id of its own"), "{text}");
    assert!(text.contains("note: the id is first given at t.ex:5:"), "{text}");
    // A leaf call and an action share the agent's ids too.
    let mixed =
        format!("{AGENT}  on message {{\n    let c = classify(.message) id \"k\"\n    say \"a\" id \"k\"\n  }}\n}}\n");
    assert_eq!(errors(&mixed), vec![("E_DUP_ID", 6)]);
    // Two agents may each use an id.
    let two = "agent \"A\" {\n  grants { message.send }\n  on message { say \"a\" id \"greet\" }\n}\nagent \"B\" {\n  grants { message.send }\n  on message { say \"b\" id \"greet\" }\n}\n";
    assert_eq!(errors(two), vec![]);
}

#[test]
fn a_pinned_number_names_one_site_of_its_behavior_and_takes_no_others_key() {
    // The same old place pinned in two behaviors is two keys (their sites differ).
    let two_behaviors = format!(
        "{AGENT}  on message {{\n    say \"a\" id \"0\"\n  }}\n  on message /x/ {{\n    say \"b\" id \"0\"\n  }}\n}}\n"
    );
    assert_eq!(errors(&two_behaviors), vec![]);
    // A new `say` before the pinned one holds ordinal 0 by its place: the key `T#0/0/say` twice.
    let taken = format!("{AGENT}  on message {{\n    say \"new\"\n    say \"old\" id \"0\"\n  }}\n}}\n");
    assert_eq!(errors(&taken), vec![("E_DUP_ID", 5)]);
    let text = rendered(&taken);
    assert!(text.contains("this `say` is keyed `T#0/0/say` by its place"), "{text}");
    assert!(text.contains("note: the id is given at t.ex:6:"), "{text}");
    // The same number on another verb is another key; twice in one behavior it is refused.
    let other_verb = format!("{AGENT}  on message {{\n    create_task \"new\"\n    say \"old\" id \"0\"\n  }}\n}}\n");
    assert_eq!(errors(&other_verb), vec![]);
    let twice = format!("{AGENT}  on message {{\n    say \"a\" id \"3\"\n    reply \"b\" id \"3\"\n  }}\n}}\n");
    assert_eq!(errors(&twice), vec![("E_DUP_ID", 6)]);
}

#[test]
fn an_id_that_follows_no_action_or_leaf_call_is_refused_saying_where_it_goes() {
    let source = format!("{AGENT}  on message {{\n    let k = classify(.message).kind\n    id \"kind\"\n  }}\n}}\n");
    let parsed = parse(&source);
    let found: Vec<(&str, usize)> =
        parsed.diagnostics.iter().map(|d| (d.code.as_str(), position(&source, d.span.start).line)).collect();
    assert_eq!(found, vec![("E_PARSE", 6)]);
    let text = parsed.diagnostics[0].render("t.ex", &source);
    assert!(text.contains("`id \"…\"` here names nothing"), "{text}");
    assert!(text.contains("or the leaf call's `)`"), "{text}");
}
