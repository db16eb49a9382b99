//! The TypeScript types of `sdk/js`, used as a body's author uses them: installed into the body's folder with
//! `npm install --save-dev <evoke>/sdk/js`, imported with `import type { Body } from "evoke-sdk"`, and checked
//! by `tsc`. A body that keeps to the types passes; one that returns what a body may not return fails.
//!
//! `tsc` is the one `.ci/build-components` installs into `target/js-tools`; without it the test is skipped,
//! or fails in CI, by the rule of the components (`support/built.rs`).

#[path = "support/built.rs"]
mod built_rule;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// A body's folder with the SDK installed as the docs say, and the body `source` in `name.mts`.
fn body_folder(name: &str, source: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("evoke-sdk-js-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let sdk = root().join("sdk/js");
    let out = Command::new("npm")
        .args(["install", "--save-dev", "--no-audit", "--no-fund", "--loglevel=error"])
        .arg(&sdk)
        .current_dir(&dir)
        .output()
        .expect("npm runs");
    assert!(out.status.success(), "npm install of sdk/js failed: {}", String::from_utf8_lossy(&out.stderr));
    std::fs::write(dir.join(format!("{name}.mts")), source).unwrap();
    dir
}

/// `tsc --noEmit --strict --module nodenext name.mts` in `dir`: whether it passed, and what it said.
fn type_check(tsc: &Path, dir: &Path, name: &str) -> (bool, String) {
    let out = Command::new(tsc)
        .args(["--noEmit", "--strict", "--module", "nodenext", "--target", "es2022"])
        .arg(format!("{name}.mts"))
        .current_dir(dir)
        .output()
        .expect("tsc runs");
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

const GREET: &str = r#"import type { Amount, Body } from "evoke-sdk";

const greet: Body<{ name: string; loud?: true; tip?: Amount }, { greeting: string }> = async (
  { name, loud, tip },
  { input, config, signal },
) => {
  signal.throwIfAborted();
  const text = `${config.greeting}, ${name}${tip ? ` (${tip.amount} ${tip.currency})` : ""}`;
  return loud ? { text: text.toUpperCase(), data: { name, input } } : text;
};
export default greet;
"#;

#[test]
fn a_body_imports_the_types_from_its_folder() {
    let tsc = root().join("target/js-tools/node_modules/.bin/tsc");
    if !built_rule::present(&tsc) {
        return;
    }
    let dir = body_folder("greet", GREET);
    assert!(dir.join("node_modules/evoke-sdk/index.d.ts").is_file(), "npm did not install the SDK into the folder");
    let (passed, said) = type_check(&tsc, &dir, "greet");
    assert!(passed, "the body does not type-check: {said}");

    // The same body, returning a number, is not a body.
    let wrong = GREET.replace("return loud ?", "return 42; loud ?");
    let dir = body_folder("wrong", &wrong);
    let (passed, said) = type_check(&tsc, &dir, "wrong");
    assert!(!passed, "a body returning a number type-checked");
    assert!(said.contains("TS2322") && said.contains("Result"), "{said}");

    // A config key the body did not declare is an error too: the types are not `any`.
    let undeclared = GREET.replace("config.greeting", "config.salutation");
    let dir = body_folder("undeclared", &undeclared);
    let (passed, said) = type_check(&tsc, &dir, "undeclared");
    assert!(!passed, "an undeclared config key type-checked");
    assert!(said.contains("salutation"), "{said}");
}
