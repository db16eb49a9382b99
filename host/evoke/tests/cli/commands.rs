//! Every literal command evoke prints for a single call runs as printed: each is split as a shell splits
//! it (`shlex`), its placeholder replaced by a value, run with this build, and must do what the line said.

use crate::support::World;

/// A reflex whose body prints the values it was given, as JSON: a room from a vocabulary (one word holds
/// a space), a state from options, and a text.
const NOTE: &str = r#"reflex = 1
description = "Leave a note in a room, with the lamp on or off."
effect = "write"
confirm = "Leave {what} in the {room} with the lamp {state}?"
run = "note.mjs"

[args.room]
ask = "Which room?"
vocab = "rooms"

[args.state]
ask = "On or off?"
options.on = "Switch on."
options.off = "Switch off."

[args.what]
ask = "What note?"
pick = "text"

[examples]
"leave a note with the lamp on" = { state = "on" }
"#;

const BODY: &str = "export default function (args) { return JSON.stringify(args); }\n";

/// The text value a sentence gives: spaces, a leading `-`, both kinds of quote.
const TEXT: &str = r#"-it's "big" now"#;

/// The project sits in a directory whose name holds a space, named with `-C`, so every printed command
/// names it too.
const DIR: &str = "my project";

/// A text is what a pair of quotes encloses: `«…»` here, so the text itself can hold both kinds of quote.
///
/// A sentence, the answers the recording gives it, and what the printed command must do once run.
struct Case {
    what: &'static str,
    sentence: String,
    answers: String,
    /// The placeholder as printed, and the value a person puts in its place.
    fill: Option<(&'static str, &'static str)>,
    /// What the body must be given once the command runs.
    wanted: serde_json::Value,
}

fn span(sentence: &str, part: &str) -> String {
    // A span counts characters, not bytes.
    let start = sentence[..sentence.find(part).unwrap()].chars().count();
    format!("\"{start}-{}\"", start + part.chars().count())
}

fn cases() -> Vec<Case> {
    let text_sentence = format!("note «{TEXT}» in the den with the lamp on");
    let living = "note «hello» in the living room with the lamp off".to_string();
    let no_room = "note «hello» with the lamp off".to_string();
    let no_state = "note «hello» in the den".to_string();
    vec![
        Case {
            what: "an ask with a vocabulary, answered with a word that holds a space",
            answers: format!(
                "\"note.room\" = {{ unstated = 0.9, den = 0.05, \"living room\" = 0.05 }}\n\"note.state\" = {{ off = 0.95, on = 0.03, unstated = 0.02 }}\n\"note.what\" = {{ {} = 0.95, unstated = 0.05 }}\n",
                span(&no_room, "hello")
            ),
            sentence: no_room,
            fill: Some(("<den|living room>", "living room")),
            wanted: serde_json::json!({ "room": "living room", "state": "off", "what": "hello" }),
        },
        Case {
            what: "an ask with options",
            answers: format!(
                "\"note.room\" = {{ den = 0.95, unstated = 0.05 }}\n\"note.state\" = {{ unstated = 0.9, on = 0.05, off = 0.05 }}\n\"note.what\" = {{ {} = 0.95, unstated = 0.05 }}\n",
                span(&no_state, "hello")
            ),
            sentence: no_state,
            fill: Some(("<on|off>", "off")),
            wanted: serde_json::json!({ "room": "den", "state": "off", "what": "hello" }),
        },
        Case {
            what: "a confirm without a terminal, of a text with spaces, a leading `-` and quotes",
            answers: format!(
                "\"note.room\" = {{ den = 0.95, unstated = 0.05 }}\n\"note.state\" = {{ on = 0.95, unstated = 0.05 }}\n\"note.what\" = {{ {} = 0.95, unstated = 0.05 }}\n",
                span(&text_sentence, TEXT)
            ),
            sentence: text_sentence,
            fill: None,
            wanted: serde_json::json!({ "room": "den", "state": "on", "what": TEXT }),
        },
        Case {
            what: "a confirm without a terminal, of a room whose word holds a space",
            answers: format!(
                "\"note.room\" = {{ \"living room\" = 0.95, unstated = 0.05 }}\n\"note.state\" = {{ off = 0.95, unstated = 0.05 }}\n\"note.what\" = {{ {} = 0.95, unstated = 0.05 }}\n",
                span(&living, "hello")
            ),
            sentence: living,
            fill: None,
            wanted: serde_json::json!({ "room": "living room", "state": "off", "what": "hello" }),
        },
    ]
}

/// A shell reads the line as printed, placeholder and all, as words alone: outside quotes there is no
/// character it would take as a redirection, a pipe, an expansion or a comment.
fn assert_words_alone(line: &str, what: &str) {
    let (mut single, mut double, mut escaped) = (false, false, false);
    for c in line.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if !single => escaped = true,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            _ if single || double => {}
            '<' | '>' | '|' | '&' | ';' | '(' | ')' | '$' | '`' | '*' | '?' | '[' | ']' | '#' | '~' | '{' | '}' => {
                panic!("{what}: a shell reads `{c}` in {line}")
            }
            _ => {}
        }
    }
    assert!(!single && !double && !escaped, "{what}: a quote left open in {line}");
}

#[test]
fn every_command_printed_for_a_single_call_runs_as_printed() {
    let world = World::empty();
    world.write(&format!("{DIR}/evoke.toml"), "[reflexes]\nnote = \"reflexes/note\"\n");
    world.write(&format!("{DIR}/vocab/rooms.toml"), "den = \"The den.\"\n\"living room\" = \"The living room.\"\n");
    world.write(&format!("{DIR}/reflexes/note/reflex.toml"), NOTE);
    world.write(&format!("{DIR}/reflexes/note/note.mjs"), BODY);
    // A write bar no answer clears: a complete call confirms, and without a terminal prints its command.
    let mut recording = String::from("id = \"replay\"\n\n[gate]\nroute = 0.5\nread = 0.6\nwrite = 0.99\n\n");
    let cases = cases();
    for case in &cases {
        recording.push_str(&format!(
            "[answers.{:?}]\nroute = {{ note = 0.95, none = 0.05 }}\n\"fits.note\" = {{ yes = 0.9 }}\n{}\n",
            case.sentence, case.answers
        ));
    }
    world.write("recording.toml", &recording);
    let trusted = world.evoke(&["-C", DIR, "trust"]);
    assert_eq!(trusted.code, 0, "{}", trusted.seen());

    for case in &cases {
        let said = world.evoke(&["-C", DIR, "--recording", "recording.toml", &case.sentence]);
        assert_eq!(said.code, 3, "{}: {}", case.what, said.seen());
        let printed = said
            .stderr
            .lines()
            .find_map(|l| l.strip_prefix("to answer, run: "))
            .unwrap_or_else(|| panic!("{}: no command printed\n{}", case.what, said.seen()));
        assert_words_alone(printed, case.what);
        let line = match case.fill {
            Some((placeholder, value)) => {
                assert!(printed.contains(placeholder), "{}: {printed}", case.what);
                printed.replace(placeholder, value)
            }
            None => printed.to_string(),
        };
        let words = shlex::split(&line).unwrap_or_else(|| panic!("{}: a shell cannot read {line}", case.what));
        assert_eq!(words[0], "evoke", "{}: {line}", case.what);
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        let ran = world.evoke(&args);
        assert_eq!(ran.code, 0, "{}: {line}\n{}", case.what, ran.seen());
        let given: serde_json::Value = serde_json::from_str(ran.stdout.trim())
            .unwrap_or_else(|e| panic!("{}: {line}\n{e}\n{}", case.what, ran.seen()));
        assert_eq!(given, case.wanted, "{}: {line}", case.what);
    }
}

#[test]
fn a_text_placeholder_run_unfilled_is_refused_and_nothing_runs() {
    let world = World::empty();
    world.write(&format!("{DIR}/evoke.toml"), "[reflexes]\nnote = \"reflexes/note\"\n");
    world.write(&format!("{DIR}/vocab/rooms.toml"), "den = \"The den.\"\n");
    world.write(&format!("{DIR}/reflexes/note/reflex.toml"), NOTE);
    world.write(&format!("{DIR}/reflexes/note/note.mjs"), BODY);
    let trusted = world.evoke(&["-C", DIR, "trust"]);
    assert_eq!(trusted.code, 0, "{}", trusted.seen());
    // The line an ask for the text prints, run as printed without the value put in.
    let ran = world.evoke(&["-C", DIR, "run", "note", "room=den", "state=on", "what=<text>"]);
    assert_eq!(ran.code, 2, "{}", ran.seen());
    assert!(ran.stdout.is_empty(), "the body ran: {}", ran.seen());
    assert!(ran.stderr.contains("placeholder"), "{}", ran.seen());
    // A text that only holds such words is anyone's.
    let ran = world.evoke(&["-C", DIR, "run", "note", "room=den", "state=on", "what=see <text> here"]);
    assert_eq!(ran.code, 0, "{}", ran.seen());
    assert!(ran.stdout.contains("see <text> here"), "{}", ran.seen());
}
