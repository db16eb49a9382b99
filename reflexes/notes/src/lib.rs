//! `notes` lists the notes of the folder its `folder` setting names, or shows one: a body that reads a
//! directory it was granted (`files = { "{folder}" = "read" }`) and nothing else.

use evoke_sdk::{Args, Context, Output};
use std::path::Path;

/// The extensions a note may have; `groceries` finds `groceries.md` or `groceries.txt`.
const EXTENSIONS: [&str; 2] = ["md", "txt"];

fn is_note(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| EXTENSIONS.contains(&e))
}

fn list(folder: &Path) -> Result<Output, String> {
    let entries = std::fs::read_dir(folder).map_err(|e| format!("cannot list {}: {e}", folder.display()))?;
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && is_note(p))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    let text = match names.len() {
        0 => "no notes yet".to_string(),
        n => format!("{n} note{}: {}", if n == 1 { "" } else { "s" }, names.join(", ")),
    };
    let data = format!("[{}]", names.iter().map(|n| json_string(n)).collect::<Vec<_>>().join(","));
    Ok(Output::text(text).with_data_json(data))
}

fn show(folder: &Path, name: &str) -> Result<Output, String> {
    if name.contains('/') || name.contains('\\') || name.starts_with('.') {
        return Err(format!("\"{name}\" is not the name of a note"));
    }
    let candidates = std::iter::once(folder.join(name))
        .filter(|p| is_note(p))
        .chain(EXTENSIONS.iter().map(|ext| folder.join(format!("{name}.{ext}"))));
    for path in candidates {
        if let Ok(text) = std::fs::read_to_string(&path) {
            return Ok(Output::text(text.trim_end().to_string()));
        }
    }
    Err(format!("there is no note \"{name}\""))
}

/// `s` as a JSON string.
fn json_string(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn run(args: Args, ctx: Context) -> Result<Output, String> {
    let folder = Path::new(ctx.require("folder")?);
    match args.text("name") {
        Ok(name) => show(folder, name),
        Err(_) => list(folder),
    }
}

evoke_sdk::export!(run);
