//! Keys that survive edits: a statement inserted before an action shifts the leaf ordinals after it, and
//! an action (or a leaf call) given its old place as its stable id (`id "5"`) keeps its keys, so a re-run
//! of the same log over the same journal and world table applies nothing new.

mod support;

use expresso_lang::compile;
use expresso_runtime::provider::NoProvider;
use expresso_runtime::recording::Recording;
use expresso_runtime::{Error, MemoryStore, Outcome, Runtime};
use serde_json::json;
use support::{TRIAGE, message};

fn log() -> Vec<expresso_runtime::Event> {
    vec![
        message("m1", 1000, "dana", "Checkout returns a 500 every time I pay #bug"),
        message("m2", 2000, "lee", "where do I change my avatar?"),
        message("m3", 3000, "sam", "I'm furious, this keeps breaking and we are cancelling our plan"),
    ]
}

fn run(
    source: &str,
    j: &mut MemoryStore,
    w: &mut MemoryStore,
    provider: &dyn expresso_runtime::Provider,
) -> Result<Outcome, Error> {
    let compiled = compile(source)
        .unwrap_or_else(|d| panic!("{}", d.iter().map(|d| d.render("t.ex", source)).collect::<String>()));
    let mut rt = Runtime::new(&compiled, j, w, provider);
    rt.run(log())?;
    Ok(rt.into_outcome())
}

fn keys(outcome: &Outcome) -> Vec<&str> {
    outcome.effects.iter().map(|e| e["idemKey"].as_str().unwrap()).collect()
}

/// The worked example run once: its journal and world table, with the five effects applied.
fn first_run() -> (MemoryStore, MemoryStore) {
    let (mut j, mut w) = (MemoryStore::new(), MemoryStore::new());
    let recording = Recording::from_json(include_str!("../../../transcripts/expresso-triage/recording.json")).unwrap();
    let first = run(TRIAGE, &mut j, &mut w, &recording).unwrap();
    assert_eq!(first.new_effects, 5);
    assert!(keys(&first).contains(&"m3|Triage#0/5/reply|message.send"));
    (j, w)
}

const REPLY: &str = "      reply \"Escalating now.\"\n";
/// A statement inserted before the last `reply`: an action under a condition no event of the log meets.
const INSERTED: &str = "      if c.urgency == low { say \"Filed for later.\" }\n";

#[test]
fn an_action_given_its_old_place_as_its_id_applies_nothing_new_after_an_insert() {
    let (j, w) = first_run();
    let pinned = TRIAGE.replace(REPLY, &format!("{INSERTED}      reply \"Escalating now.\" id \"5\"\n"));
    assert_ne!(pinned, TRIAGE);
    let (mut j2, mut w2) = (j.clone(), w.clone());
    let again = run(&pinned, &mut j2, &mut w2, &NoProvider).unwrap();
    assert_eq!((again.provider_calls, again.journal_hits), (0, 3));
    assert_eq!((again.new_effects, again.deduped_effects), (0, 5));
    assert_eq!((j2, w2), (j.clone(), w.clone()), "the stores are as the first run left them");

    // Without the id the same edit re-keys the reply (`…/5/reply` becomes `…/6/reply`): m3 is answered twice.
    let unpinned = TRIAGE.replace(REPLY, &format!("{INSERTED}{REPLY}"));
    let (mut j3, mut w3) = (j, w);
    let rekeyed = run(&unpinned, &mut j3, &mut w3, &NoProvider).unwrap();
    assert_eq!(rekeyed.new_effects, 1);
    assert_eq!(keys(&rekeyed), vec!["m3|Triage#0/6/reply|message.send"]);
    assert_eq!(rekeyed.effects[0]["args"], json!({ "text": "Escalating now." }));
}

#[test]
fn a_leaf_call_inserted_with_an_id_and_every_site_pinned_keeps_the_journal_and_the_world() {
    let (j, w) = first_run();
    // A new leaf call before `classify`, named; the old sites pinned at their old places.
    let edited = TRIAGE
        .replace(
            "    let c = classify(.message) ",
            "    let first = classify(here..end_of_turn) id \"first-look\"\n    let c = classify(.message) id \"0\"",
        )
        .replace("react \"🐞\"", "react \"🐞\" id \"1\"")
        .replace("due: \"+1d\"", "due: \"+1d\" id \"2\"")
        .replace("reply \"Logged. Open bugs: {open_bugs}.\"", "reply \"Logged. Open bugs: {open_bugs}.\" id \"3\"")
        .replace(
            "notify \"oncall\" \"Churn risk from {.speaker}\"",
            "notify \"oncall\" \"Churn risk from {.speaker}\" id \"4\"",
        )
        .replace(REPLY, "      reply \"Escalating now.\" id \"5\"\n");
    assert_eq!(edited.matches(" id \"").count(), 7, "{edited}");
    let mut answers = serde_json::Map::new();
    for id in ["m1", "m2", "m3"] {
        answers.insert(
            format!("Triage#0|{id}/Triage#0/first-look/classify"),
            json!({ "kind": "question", "urgency": "low" }),
        );
    }
    let new_leaf_only = Recording::new(answers);
    let (mut j2, mut w2) = (j.clone(), w.clone());
    let again = run(&edited, &mut j2, &mut w2, &new_leaf_only).unwrap();
    assert_eq!((again.provider_calls, again.journal_hits), (3, 3), "only the new leaf is asked");
    assert_eq!((again.new_effects, again.deduped_effects), (0, 5));
    assert_eq!(w2, w);

    // Unpinned, the old `classify` moves to ordinal 1: its answers are not in the journal, and nobody has them.
    let unpinned = TRIAGE.replace(
        "    let c = classify(.message) ",
        "    let first = classify(here..end_of_turn) id \"first-look\"\n    let c = classify(.message) ",
    );
    let (mut j3, mut w3) = (j, w);
    let fault = run(&unpinned, &mut j3, &mut w3, &new_leaf_only).unwrap_err();
    assert!(fault.to_string().contains("Triage#0|m1/Triage#0/1/classify"), "{fault}");
}
