//! The JSON Schemas of `schemas/` against the shipped manifests, the vectors and the parser.
//!
//! A schema is strict (an unknown key fails it, so an editor flags a typo) and can see one file only. So:
//! - a case the vectors accept with no warning must pass its schema;
//! - a case accepted with an `unknown_key` warning must fail it (strict where evoke only warns);
//! - a refused case must fail it, unless its fault needs something JSON Schema cannot see: another file,
//!   the reflex directory, a cross-reference between two keys, or identity normalization. Those are listed
//!   in [`inexpressible`], each with its reason, and only where they apply.
//!
//! Every disagreement is collected and reported with the case's file name.

use jsonschema::Validator;
use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};

const SCHEMAS: [&str; 5] = ["reflex", "overlay", "vocab", "evoke", "playbook"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn schema(name: &str) -> Value {
    let path = root().join(format!("schemas/{name}.schema.json"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()))
}

fn validator(name: &str) -> Validator {
    jsonschema::draft202012::new(&schema(name)).unwrap_or_else(|e| panic!("{name}.schema.json does not compile: {e}"))
}

/// The same schema on the `regex` crate's engine, which has no lookaround or backreference: the patterns
/// must read on engines without backtracking too, as some editors' do.
fn plain_validator(name: &str) -> Validator {
    jsonschema::draft202012::options()
        .with_pattern_options(jsonschema::PatternOptions::regex())
        .build(&schema(name))
        .unwrap_or_else(|e| panic!("{name}.schema.json does not compile on the regex engine: {e}"))
}

/// A TOML document as JSON, the way an editor's schema support reads it; `None` when it is not TOML.
fn toml_json(text: &str) -> Option<Value> {
    let table: toml::Table = toml::from_str(text).ok()?;
    Some(serde_json::to_value(table).expect("TOML converts to JSON"))
}

/// The first few reasons an instance fails a schema, for a readable report.
fn why(validator: &Validator, instance: &Value) -> String {
    let reasons: Vec<String> =
        validator.iter_errors(instance).take(3).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    reasons.join("; ")
}

/// A fault's dotted key (`examples."kill the lights".state`) as its segments.
fn segments(key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = key.chars().peekable();
    while chars.peek().is_some() {
        let mut segment = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => segment.extend(chars.next()),
                    '"' => break,
                    c => segment.push(c),
                }
            }
            chars.next_if_eq(&'.');
        } else {
            for c in chars.by_ref() {
                if c == '.' {
                    break;
                }
                segment.push(c);
            }
        }
        out.push(segment);
    }
    out
}

/// True when one of the schema's errors concerns the fault's key: the error's place and the key lie on one
/// path (a missing key is reported at its table, a bad key name at the table holding it, a bad element at
/// its array's key).
fn refuses_at(validator: &Validator, instance: &Value, key: &str) -> bool {
    let key = segments(key);
    validator.iter_errors(instance).any(|error| {
        let pointer = error.instance_path().to_string();
        let place: Vec<String> = pointer.split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect();
        let n = place.len().min(key.len());
        place[..n] == key[..n]
    })
}

/// A playbook's fault names a step by its number from 1 (`steps.2.when`); a JSON pointer counts items from
/// 0 (`/steps/1/when`). The expected output with the fault's step counted as the pointer counts it.
fn steps_from_zero(expected: &Value) -> Value {
    let mut out = expected.clone();
    if let Some(key) = expected["fault"]["key"].as_str()
        && let Some(rest) = key.strip_prefix("steps.")
    {
        let (number, after) = rest.split_once('.').map_or((rest, ""), |(n, a)| (n, a));
        if let Ok(n) = number.parse::<usize>() {
            let tail = if after.is_empty() { String::new() } else { format!(".{after}") };
            out["fault"]["key"] = json!(format!("steps.{}{tail}", n - 1));
        }
    }
    out
}

/// The JSON value at a fault's dotted key (bare segments only, which is all the cases below need).
fn at<'v>(value: &'v Value, key: &str) -> Option<&'v Value> {
    key.split('.').try_fold(value, |v, segment| v.get(segment))
}

fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some('a'..='z')) && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
}

/// Why a refusal cannot be expressed by a schema of one file, or `None` when it can and the schema must
/// refuse. `folder` is the vector folder, `case` the whole case, `file` the TOML under test as JSON.
fn inexpressible(folder: &str, fault: &Value, case: &Value, file: &Value) -> Option<&'static str> {
    let kind = fault["type"].as_str().unwrap_or("");
    let key = fault["key"].as_str().unwrap_or("");
    match kind {
        "unknown_argument" | "bad_value" if folder == "playbook" => {
            Some("needs the called reflex's arguments, or the fields its result yields")
        }
        "unknown_placeholder" if folder == "playbook" => {
            Some("a placeholder must name a key of [slots]: a cross-reference")
        }
        // The directory, other files, and the identity of utterances are out of a schema's sight.
        "run_missing" => Some("needs the reflex directory's listing"),
        "duplicate_utterance" => Some(
            "needs identity normalization (NFC, case, whitespace, final . ! ? …); TOML refuses exact duplicates itself",
        ),
        "duplicate_word" => Some("needs identity normalization; TOML refuses exact duplicates itself"),
        // Cross-references between two keys of one file.
        "unknown_placeholder" => Some("a placeholder must name a key of [args]: a cross-reference"),
        "placeholder_not_required" => Some("needs the named argument's optional/flag: a cross-reference"),
        "argv_flag" | "argv_takes" => Some("needs the named argument's source: a cross-reference"),
        "unknown_argument" => Some("a record's key must be a key of [args] or a `was` name: a cross-reference"),
        "bad_value" => {
            Some("a record's value depends on its argument's source, options and utterance: a cross-reference")
        }
        "vocab_asserted" => Some("needs the asserted argument's source: a cross-reference"),
        "was_conflict" => Some("a `was` name must not be another argument's name or `was`: a cross-reference"),
        // Only `min <= max` is out of reach; a range that is not two numbers is the schema's.
        "bad_range" => {
            let range = at(file, key)?.as_array()?;
            let (min, max) = (range.first()?.as_f64()?, range.get(1)?.as_f64()?);
            (range.len() == 2 && min > max).then_some("`min <= max` compares two items of one array")
        }
        // TOML's `1.0` and `1` are one JSON number; only the float is out of reach.
        "bad_version" => at(file, key)
            .filter(|v| v.as_f64() == Some(1.0))
            .map(|_| "`reflex = 1.0` and `reflex = 1` are the same JSON number"),
        // Overlays: what the shipped manifest holds is another file.
        "effect_loosened" => Some("needs the shipped manifest's effect"),
        "unknown_option" => Some("needs the shipped argument's option keys"),
        "contract_key" if folder == "overlay" => {
            let shipped = toml_json(case["input"]["manifest"].as_str().unwrap_or(""))?;
            let segments: Vec<&str> = key.split('.').collect();
            match segments.as_slice() {
                ["args", name] if is_name(name) => Some("a new argument: needs the shipped manifest's argument names"),
                ["args", name, "options"] => shipped["args"].get(*name).filter(|arg| arg.get("options").is_none()).map(
                    |_| "`options` on an argument whose shipped source is not options: needs the shipped manifest",
                ),
                _ => None,
            }
        }
        // A record may hold a boolean for a flag only; which arguments are flags is another key's.
        "wrong_type" => {
            let path = segments(key);
            let record_value = path.len() == 3 && (path[0] == "examples" || path[0] == "tests");
            let value = path.iter().try_fold(file, |v, s| v.get(s.as_str()));
            (record_value && value.is_some_and(Value::is_boolean))
                .then_some("a boolean is a flag's value only: needs the argument's source")
        }
        // A playbook checked against the installed reflexes: what they take, yield and call is not in the file.
        "no_reflex" | "missing_argument" | "no_field" | "maybe_source" | "branch_into_plan" | "too_deep" => {
            Some("needs the installed reflexes and playbooks")
        }
        "too_long" if folder == "playbook" && file["steps"].as_array().is_some_and(|s| s.len() <= 16) => {
            Some("counts a called playbook's steps: needs the installed playbooks")
        }
        "bad_when" => {
            let step: usize = key.split('.').nth(1)?.parse().ok()?;
            let waits_on = file["steps"].get(step)?["when"]["step"].as_u64()?;
            (waits_on >= 1).then_some("`when.step` is compared with the step's own place in the list")
        }
        // A vocabulary's name is its file's name, which the schema never sees.
        "bad_name" if folder == "vocab" && key.is_empty() => Some("the vocabulary's name is its file name"),
        _ => None,
    }
}

#[derive(Default)]
struct Tally {
    passed_clean: usize,
    strict_on_warning: usize,
    refused: usize,
    inexpressible: Vec<String>,
    skipped_toml: usize,
    disagreements: Vec<String>,
}

impl Tally {
    /// Compares a schema's verdict on `file` with the verdict `expected` (the vector's, or the parser's).
    fn judge(&mut self, name: &str, folder: &str, schema: &Validator, case: &Value, file: &Value, expected: &Value) {
        let valid = schema.is_valid(file);
        if let Some(fault) = expected.get("fault") {
            let kind = fault["type"].as_str().unwrap_or("?");
            if let Some(reason) = inexpressible(folder, fault, case, file) {
                let verdict = if valid { "passes" } else { "fails anyway" };
                self.inexpressible.push(format!("{name}: {kind} ({reason}); the schema {verdict}"));
            } else if valid {
                self.disagreements
                    .push(format!("{name}: refused with `{kind}` at `{}`, but the schema accepts it", fault["key"]));
            } else if !refuses_at(schema, file, fault["key"].as_str().unwrap_or("")) {
                self.disagreements.push(format!(
                    "{name}: refused with `{kind}` at `{}`, but the schema refuses it elsewhere: {}",
                    fault["key"],
                    why(schema, file)
                ));
            } else {
                self.refused += 1;
            }
            return;
        }
        let warned = expected["warnings"].as_array().is_some_and(|w| w.iter().any(|w| w["type"] == "unknown_key"));
        match (warned, valid) {
            (false, true) => self.passed_clean += 1,
            (true, false) => self.strict_on_warning += 1,
            (false, false) => {
                self.disagreements.push(format!("{name}: accepted, but the schema refuses it: {}", why(schema, file)))
            }
            (true, true) => self
                .disagreements
                .push(format!("{name}: accepted with an unknown_key warning, but the strict schema accepts it")),
        }
    }

    fn report(&self, what: &str) {
        eprintln!(
            "{what}: {} accepted and valid, {} warned and strictly refused, {} refused by both, {} inexpressible, {} not TOML (skipped), {} disagreements",
            self.passed_clean,
            self.strict_on_warning,
            self.refused,
            self.inexpressible.len(),
            self.skipped_toml,
            self.disagreements.len()
        );
        for line in &self.inexpressible {
            eprintln!("  inexpressible: {line}");
        }
        for line in &self.disagreements {
            eprintln!("  DISAGREES: {line}");
        }
    }
}

fn cases(folder: &str) -> Vec<(String, Value)> {
    let dir = root().join("vectors").join(folder);
    let Ok(entries) = fs::read_dir(&dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let case: Value =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
            (format!("{folder}/{}", path.file_name().unwrap().to_string_lossy()), case)
        })
        .collect()
}

/// Walks a schema and calls `visit` with the JSON pointer and every subschema found.
fn walk<'s>(pointer: String, schema: &'s Value, visit: &mut dyn FnMut(&str, &'s Value)) {
    let Some(object) = schema.as_object() else { return };
    visit(&pointer, schema);
    for (key, value) in object {
        match key.as_str() {
            "properties" | "$defs" => {
                for (name, sub) in value.as_object().into_iter().flatten() {
                    walk(format!("{pointer}/{key}/{name}"), sub, visit);
                }
            }
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                for (i, sub) in value.as_array().into_iter().flatten().enumerate() {
                    walk(format!("{pointer}/{key}/{i}"), sub, visit);
                }
            }
            // `not`, `if`, `then` and `else` constrain keys declared elsewhere; they declare none.
            "items" | "additionalProperties" | "propertyNames" => {
                walk(format!("{pointer}/{key}"), value, visit);
            }
            _ => {}
        }
    }
}

/// Follows a local `$ref` to the schema it names.
fn resolve<'s>(root: &'s Value, schema: &'s Value) -> &'s Value {
    match schema.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix('#')) {
        Some(pointer) => resolve(root, root.pointer(pointer).unwrap_or_else(|| panic!("dangling $ref #{pointer}"))),
        None => schema,
    }
}

#[test]
fn schemas_are_valid_strict_and_described() {
    let mut problems = Vec::new();
    for name in SCHEMAS {
        let schema = schema(name);
        if let Err(e) = jsonschema::meta::validate(&schema) {
            problems.push(format!("{name}: not a valid schema: {e}"));
        }
        if let Err(e) = jsonschema::draft202012::new(&schema) {
            problems.push(format!("{name}: does not compile: {e}"));
        }
        let plain =
            jsonschema::draft202012::options().with_pattern_options(jsonschema::PatternOptions::regex()).build(&schema);
        if let Err(e) = plain {
            problems.push(format!("{name}: does not compile on the regex engine: {e}"));
        }
        assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema", "{name}");
        assert_eq!(schema["$id"], format!("https://evoke.dev/schemas/{name}.schema.json"), "{name}");
        assert!(schema["title"].is_string() && schema["description"].is_string(), "{name}: title and description");

        walk(String::new(), &schema, &mut |pointer, sub| {
            // Every key an editor can complete carries its explanation, directly or where its $ref points.
            if let Some(properties) = sub.get("properties").and_then(Value::as_object) {
                for (key, value) in properties {
                    let target = resolve(&schema, value);
                    if value.get("description").is_none() && target.get("description").is_none() {
                        problems.push(format!("{name}: `{key}` at #{pointer} has no description"));
                    }
                }
                // A table with known keys is closed, so a typo is flagged.
                if sub.get("additionalProperties") != Some(&Value::Bool(false)) {
                    problems.push(format!("{name}: #{pointer} lists properties but is not closed"));
                }
            }
        });
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn shipped_manifests_validate() {
    let reflex = validator("reflex");
    let dir = root().join("reflexes");
    let mut seen = 0;
    let mut failures = Vec::new();
    for entry in fs::read_dir(&dir).expect("reflexes/") {
        let path = entry.unwrap().path().join("reflex.toml");
        let Ok(text) = fs::read_to_string(&path) else { continue };
        seen += 1;
        let file = toml_json(&text).unwrap_or_else(|| panic!("{} is not TOML", path.display()));
        if !reflex.is_valid(&file) {
            failures.push(format!("{}: {}", path.display(), why(&reflex, &file)));
        }
    }
    eprintln!("shipped manifests: {seen} checked, {} fail", failures.len());
    assert!(seen > 0, "no reflexes/*/reflex.toml found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn vectors_agree_with_schemas() {
    let reflex = validator("reflex");
    let overlay = validator("overlay");
    let vocab = validator("vocab");
    let playbook = validator("playbook");
    let plain =
        [plain_validator("reflex"), plain_validator("overlay"), plain_validator("vocab"), plain_validator("playbook")];
    let mut tally = Tally::default();
    let mut parser_notes = Vec::new();
    let mut total = 0;
    for (folder, schema, plain, text_key) in [
        ("manifest", &reflex, &plain[0], "toml"),
        ("overlay", &overlay, &plain[1], "overlay"),
        ("vocab", &vocab, &plain[2], "toml"),
        ("playbook", &playbook, &plain[3], "toml"),
    ] {
        for (name, case) in cases(folder) {
            total += 1;
            let expected = &case["expected"];
            let from_zero = steps_from_zero(expected);
            let judged = if folder == "playbook" { &from_zero } else { expected };
            let Some(file) = case["input"][text_key].as_str().and_then(toml_json) else {
                tally.skipped_toml += 1;
                if expected["fault"]["type"] != "toml" {
                    tally.disagreements.push(format!("{name}: not TOML, but the vector expects {expected}"));
                }
                continue;
            };
            tally.judge(&name, folder, schema, &case, &file, judged);
            if schema.is_valid(&file) != plain.is_valid(&file) {
                tally.disagreements.push(format!("{name}: the fancy-regex and regex engines disagree"));
            }
            // Beside the schema, note where the parser itself disagrees with the vector.
            if let Ok(actual) = evoke_core::conform::call(folder, &case["input"])
                && !evoke_core::conform::same(expected, &actual, false)
            {
                parser_notes.push(format!("{name}: the vector expects {expected}, the parser gives {actual}"));
            }
        }
    }
    tally.report(&format!("vectors ({total} cases)"));
    for note in &parser_notes {
        eprintln!("  parser vs vector: {note}");
    }
    assert!(tally.disagreements.is_empty(), "schema and vectors disagree:\n{}", tally.disagreements.join("\n"));
}

/// The shipped manifests inside the overlay and lint cases, judged against what the parser says of them.
#[test]
fn manifests_inside_other_cases_agree_with_the_parser() {
    let reflex = validator("reflex");
    let mut tally = Tally::default();
    for folder in ["overlay", "lint"] {
        for (name, case) in cases(folder) {
            let key = if folder == "overlay" { "manifest" } else { "toml" };
            let Some(file) = case["input"][key].as_str().and_then(toml_json) else {
                tally.skipped_toml += 1;
                continue;
            };
            let input = json!({ "toml": case["input"][key], "files": case["input"]["files"] });
            let parsed = evoke_core::conform::call("manifest", &input).expect("the manifest function runs");
            tally.judge(&format!("{name} (its manifest)"), "manifest", &reflex, &case, &file, &parsed);
        }
    }
    tally.report("manifests inside overlay and lint cases");
    assert!(tally.disagreements.is_empty(), "{}", tally.disagreements.join("\n"));
}

/// Manifests no vector covers (grants, config forms, run shapes), judged against the parser's verdict.
#[test]
fn schema_agrees_with_the_parser_beyond_the_vectors() {
    let reflex = validator("reflex");
    let head = "reflex = 1\ndescription = \"Do a thing.\"\nconfirm = \"Do it?\"\n";
    let body = "run = \"body.wasm\"\n";
    let cases: Vec<(&str, String)> = vec![
        (
            "grants accepted",
            format!(
                "{head}{body}[grants]\nfiles = {{ \"{{notes}}\" = \"read\", \"/tmp/out\" = \"write\" }}\nnet = [\"api.example.com:443\"]\n"
            ),
        ),
        ("grant of a bad access", format!("{head}{body}[grants]\nfiles = {{ \"/tmp\" = \"execute\" }}\n")),
        ("grant without a port", format!("{head}{body}[grants]\nnet = [\"api.example.com\"]\n")),
        ("grant of port 0", format!("{head}{body}[grants]\nnet = [\"api.example.com:0\"]\n")),
        ("grant of port 65536", format!("{head}{body}[grants]\nnet = [\"api.example.com:65536\"]\n")),
        ("grant of port 65535", format!("{head}{body}[grants]\nnet = [\"h:65535\"]\n")),
        ("grants unknown key", format!("{head}{body}[grants]\nexec = true\n")),
        ("config secret false", format!("{head}{body}[config]\ntoken = {{ about = \"A key\", secret = false }}\n")),
        ("config empty about", format!("{head}{body}[config]\ntoken = \"  \"\n")),
        ("config number", format!("{head}{body}[config]\ntoken = 3\n")),
        ("run dot slash", format!("{head}run = \"./body.wasm\"\n")),
        ("run backslash dotdot", format!("{head}run = \"a\\\\..\\\\body.wasm\"\n")),
        ("run dotdot inside a name", format!("{head}run = \"a..b.mjs\"\n")),
        ("run a number", format!("{head}run = 3\n")),
        ("argv bare", format!("{head}run = [\"true\"]\n")),
        ("argv empty program", format!("{head}run = [\"\"]\n")),
        ("argv relative program", format!("{head}run = [\"./x\"]\n")),
        ("argv brace in program", format!("{head}run = [\"{{x}}\"]\n")),
        ("argv number element", format!("{head}run = [\"x\", 3]\n")),
        ("not_for empty entry", format!("{head}{body}not_for = [\"\"]\n")),
        ("tags bad", format!("{head}{body}tags = [\"Home\"]\n")),
        ("description whitespace", format!("reflex = 1\ndescription = \" \\n \"\nconfirm = \"Do it?\"\n{body}")),
        (
            "description carriage return",
            format!("reflex = 1\ndescription = \"a\\r\\nb\"\nconfirm = \"Do it?\"\n{body}"),
        ),
        ("description NEL", format!("reflex = 1\ndescription = \"a\\u0085b\"\nconfirm = \"Do it?\"\n{body}")),
        ("description DEL", format!("reflex = 1\ndescription = \"a\\u007Fb\"\nconfirm = \"Do it?\"\n{body}")),
        ("description non-BMP", format!("reflex = 1\ndescription = \"lights 💡 on\"\nconfirm = \"Do it?\"\n{body}")),
        ("confirm nested brace", format!("reflex = 1\ndescription = \"x\"\nconfirm = \"Do {{a{{b}}}}?\"\n{body}")),
        ("confirm close first", format!("reflex = 1\ndescription = \"x\"\nconfirm = \"Do }}a{{?\"\n{body}")),
        ("reflex a string", format!("reflex = \"1\"\ndescription = \"x\"\nconfirm = \"Do it?\"\n{body}")),
        ("vocab arg bad name", format!("{head}{body}[args.room]\nask = \"Which?\"\nvocab = \"Rooms\"\n")),
        ("was bad name", format!("{head}{body}[args.room]\nask = \"Which?\"\nvocab = \"rooms\"\nwas = [\"Room\"]\n")),
        (
            "was accepted",
            format!("{head}{body}[args.room]\nask = \"Which?\"\nvocab = \"rooms\"\nwas = [\"place\", \"spot\"]\n"),
        ),
        (
            "optional false on flag",
            format!("{head}{body}[args.loud]\nask = \"Loud?\"\nflag = true\noptional = false\n"),
        ),
        (
            "range on duration",
            format!("{head}{body}[args.d]\nask = \"How long?\"\npick = \"duration\"\nrange = [1.5, 60]\n"),
        ),
        (
            "range of strings",
            format!("{head}{body}[args.d]\nask = \"How long?\"\npick = \"duration\"\nrange = [\"1\", \"60\"]\n"),
        ),
        (
            "range three numbers",
            format!("{head}{body}[args.d]\nask = \"How long?\"\npick = \"number\"\nrange = [1, 2, 3]\n"),
        ),
        ("range on vocab", format!("{head}{body}[args.d]\nask = \"Where?\"\nvocab = \"rooms\"\nrange = [1, 2]\n")),
        (
            "option key with spaces",
            format!("{head}{body}[args.s]\nask = \"Which?\"\noptions.\"very dim\" = \"Barely on.\"\n"),
        ),
        ("option key blank", format!("{head}{body}[args.s]\nask = \"Which?\"\noptions.\" \" = \"Blank.\"\n")),
        ("option meaning empty", format!("{head}{body}[args.s]\nask = \"Which?\"\noptions.on = \"\"\n")),
        ("argument eval", format!("{head}{body}[args.eval]\nask = \"Which?\"\npick = \"text\"\n")),
        ("argument not a table", format!("{head}{body}[args]\nroom = \"rooms\"\n")),
        ("record true", format!("{head}{body}[examples]\n\"do it\" = true\n")),
        ("record blank utterance", format!("{head}{body}[examples]\n\" \" = false\n")),
        (
            "record value a number",
            format!(
                "{head}{body}[args.n]\nask = \"How many?\"\npick = \"number\"\n[examples]\n\"do it 3 times\" = {{ n = 3 }}\n"
            ),
        ),
        (
            "record flag asserted",
            format!(
                "{head}{body}[args.loud]\nask = \"Loud?\"\nflag = true\n[examples]\n\"do it loudly\" = {{ loud = true }}\n\"do it\" = {{ loud = false }}\n"
            ),
        ),
        ("examples an array", format!("{head}{body}examples = [\"do it\"]\n")),
        (
            "record asserts an option as a boolean",
            format!(
                "{head}{body}[args.s]\nask = \"Which?\"\noptions.on = \"On.\"\n[examples]\n\"switch it on\" = {{ s = true }}\n"
            ),
        ),
        ("reflex a float", format!("reflex = 1.0\ndescription = \"x\"\nconfirm = \"Do it?\"\n{body}")),
    ];
    let mut tally = Tally::default();
    for (name, text) in &cases {
        let Some(file) = toml_json(text) else {
            panic!("the extra case `{name}` is not TOML:\n{text}");
        };
        let files = ["body.wasm", "a..b.mjs"];
        let parsed = evoke_core::conform::call("manifest", &json!({ "toml": text, "files": files })).unwrap();
        tally.judge(name, "manifest", &reflex, &json!({}), &file, &parsed);
    }
    tally.report("extra manifests against the parser");
    assert!(tally.disagreements.is_empty(), "{}", tally.disagreements.join("\n"));
}

#[test]
fn project_files_validate() {
    let evoke = validator("evoke");
    let good = [
        (
            "the whole shape",
            r#"
adapter = "local"

[reflexes]
lights = "reflexes/lights"
timer  = { ref = "https://github.com/someone/reflexes//timer", tag = "v1.2.0" }
mail   = { ref = "git@example.com:someone/mail.git", tag = "v0.3.1-rc.1" }
notes  = { ref = "ssh://git@example.com:2222/someone/notes.git//reflex", tag = "v10.0.0" }

[bars.local]
route = 0.5
fits  = 0.3
read  = 0.6
write = 0.8

[config.lights]
bridge = "192.168.1.20"
token  = { env = "HUE_TOKEN" }

[adapters.openai]
endpoint = "http://localhost:11434/v1"
model    = "llama3"
"#,
        ),
        ("empty", ""),
        ("a bar moved", "[bars.openai]\nwrite = 1\nread = 0\n"),
        (
            "playbooks",
            "[playbooks]\ngood_night = \"playbooks/good_night\"\nmorning = { ref = \"https://example.com/o/r\", tag = \"v1.0.0\" }\n",
        ),
    ];
    let bad = [
        ("replay chosen by a project", "adapter = \"replay\"\n"),
        ("a bar over 1", "[bars.local]\nread = 1.5\n"),
        ("a misspelt bar", "[bars.local]\nwrie = 0.5\n"),
        ("a remote without a tag", "[reflexes]\nx = { ref = \"https://example.com/a/b\" }\n"),
        ("a tag that is not a version", "[reflexes]\nx = { ref = \"https://example.com/a/b\", tag = \"main\" }\n"),
        ("a file:// ref", "[reflexes]\nx = { ref = \"file:///tmp/x\", tag = \"v1.0.0\" }\n"),
        ("an http ref", "[reflexes]\nx = { ref = \"http://example.com/a\", tag = \"v1.0.0\" }\n"),
        ("credentials in a ref", "[reflexes]\nx = { ref = \"https://me:pw@example.com/a\", tag = \"v1.0.0\" }\n"),
        ("a dotdot segment in a ref", "[reflexes]\nx = { ref = \"https://example.com/a/../b\", tag = \"v1.0.0\" }\n"),
        ("a local name that is not a name", "[reflexes]\nMy-Lights = \"reflexes/lights\"\n"),
        ("a secret stored in the file", "[config.lights]\ntoken = { value = \"s3cret\" }\n"),
        ("an env that is not a variable", "[config.lights]\ntoken = { env = \"$HUE\" }\n"),
        ("a control character in a value", "[config.lights]\nbridge = \"a\\u001b[2Jb\"\n"),
        ("an unknown top-level key", "adaptor = \"local\"\n"),
        ("settings for replay", "[adapters.replay]\nfile = \"answers.toml\"\n"),
        ("a local name the tool keeps", "[reflexes]\nroute = \"reflexes/route\"\n"),
        ("an empty env", "[config.lights]\ntoken = { env = \"\" }\n"),
        ("an empty path", "[reflexes]\nlights = \" \"\n"),
        ("a playbook under a name the tool keeps", "[playbooks]\nweave = \"playbooks/weave\"\n"),
    ];
    // What evoke's own reader refuses too; the rest of `bad` is refused by the schema alone, from the
    // spec's grammar of refs and tags, the built-in `replay` adapter, and the shape of names and variables.
    let reader_refuses = [
        "a bar over 1",
        "a remote without a tag",
        "a control character in a value",
        "a local name the tool keeps",
        "an empty env",
        "an empty path",
        "a playbook under a name the tool keeps",
    ];
    let mut failures = Vec::new();
    let reader = |text: &str| evoke_core::project::read_project_file("evoke.toml", text).value.is_some();
    for (name, text) in good {
        let file = toml_json(text).unwrap_or_else(|| panic!("`{name}` is not TOML"));
        if !evoke.is_valid(&file) {
            failures.push(format!("evoke.toml `{name}` should pass: {}", why(&evoke, &file)));
        }
        if !reader(text) {
            failures.push(format!("evoke.toml `{name}` passes the schema, but evoke's reader refuses it"));
        }
    }
    for (name, text) in bad {
        let file = toml_json(text).unwrap_or_else(|| panic!("`{name}` is not TOML"));
        if evoke.is_valid(&file) {
            failures.push(format!("evoke.toml `{name}` should fail, but passes"));
        }
        if reader_refuses.contains(&name) && reader(text) {
            failures.push(format!("evoke.toml `{name}`: evoke's reader accepts it"));
        } else if reader(text) {
            eprintln!("  evoke.toml `{name}`: refused by the schema only");
        }
    }
    eprintln!("evoke.toml samples: {} valid, {} invalid, {} wrong", good.len(), bad.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
