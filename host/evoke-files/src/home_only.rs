//! Settings only the user's home `evoke.toml` may hold. A project's `evoke.toml` may choose an adapter by
//! name and nothing more: where requests go (`url`), which variable holds a key (`key_env`), any bar
//! (`gate`, `[bars.NAME]`) and every other `[adapters.NAME]` setting are refused there, each with the line
//! to move. Trust binds a project's content, not its intent: a cloned project, once trusted, must still
//! not be able to send a secret to a host of its choosing or lower a bar.

use evoke_core::diag::{Diagnostic, Place, Problem, Severity};
use std::path::Path;

/// The top-level keys of `evoke.toml` whose settings are read from the home file alone.
pub const HOME_ONLY: [&str; 3] = ["adapters", "bars", "gate"];

/// One diagnostic per setting under a home-only key in a project's `evoke.toml` (`file` is its name as
/// shown, `text` its content), each naming its line and the home file to move it to. A file that is not
/// TOML gives none here: the project file's own reading refuses it.
pub fn refuse(file: &str, text: &str, home_file: &Path) -> Vec<Diagnostic> {
    let Ok(doc) = toml_edit::Document::parse(text) else { return Vec::new() };
    let mut out = Vec::new();
    for top in HOME_ONLY {
        if let Some((key, item)) = doc.as_table().get_key_value(top) {
            settings(item, key, &quote(top), &mut |path, key| out.push(diagnostic(file, text, home_file, path, key)));
        }
    }
    out.sort_by_key(|d| (d.place.line, d.place.column));
    out
}

/// Calls `found` with the dotted path and key of every setting under `item`: every value that is not a
/// table, and a table that holds nothing (its header alone still says something a project may not).
fn settings(item: &toml_edit::Item, key: &toml_edit::Key, path: &str, found: &mut dyn FnMut(&str, &toml_edit::Key)) {
    match item.as_table_like() {
        Some(table) if !table.is_empty() => {
            for (name, _) in table.iter() {
                if let Some((child_key, child)) = table.get_key_value(name) {
                    settings(child, child_key, &format!("{path}.{}", quote(name)), found);
                }
            }
        }
        _ => found(path, key),
    }
}

fn diagnostic(file: &str, text: &str, home_file: &Path, path: &str, key: &toml_edit::Key) -> Diagnostic {
    let span = key.span().unwrap_or(0..0);
    Diagnostic {
        severity: Severity::Error,
        problem: Problem::HomeOnly,
        file: file.to_string(),
        place: place(text, span),
        key: path.to_string(),
        message: format!(
            "`{path}` is a setting only your home evoke.toml may hold: a project chooses its adapter by name and \
             nothing more, so that no project can send a key to a host of its choosing or lower a bar"
        ),
        fix: Some(format!("move this line to your home evoke.toml at {}", home_file.display())),
    }
}

/// The line and column (1-based, in characters) of a byte span, with its source line for the snippet.
fn place(text: &str, span: std::ops::Range<usize>) -> Place {
    let start = span.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let end = span.end.clamp(start, line_end);
    Place {
        line: text[..start].matches('\n').count() + 1,
        column: text[line_start..start].chars().count() + 1,
        source_line: text[line_start..line_end].trim_end_matches('\r').to_string(),
        width: text[start..end].chars().count().max(1),
    }
}

/// A key segment as the dotted path writes it: bare when it can be, else quoted as TOML quotes it.
fn quote(segment: &str) -> String {
    if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
        segment.to_string()
    } else {
        toml_edit::Value::from(segment).to_string().trim().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_each_setting_at_its_line_in_every_spelling() {
        let text = "adapter = \"openai\"\ngate.route = 0.2\n[adapters.openai]\nurl = \"http://x\"\n\n[bars]\nlocal = { write = 0.1 }\n";
        let found = refuse("evoke.toml", text, Path::new("/home/u/.config/evoke/evoke.toml"));
        let seen: Vec<(usize, &str)> = found.iter().map(|d| (d.place.line, d.key.as_str())).collect();
        assert_eq!(seen, [(2, "gate.route"), (4, "adapters.openai.url"), (7, "bars.local.write")]);
        assert!(found.iter().all(|d| d.problem == Problem::HomeOnly && d.is_error()));
        assert_eq!(
            found[0].fix.as_deref(),
            Some("move this line to your home evoke.toml at /home/u/.config/evoke/evoke.toml")
        );
        assert_eq!((found[1].place.column, found[1].place.width), (1, 3));
    }

    #[test]
    fn an_empty_table_is_refused_by_its_header_and_choosing_by_name_is_not() {
        let found = refuse("evoke.toml", "adapter = \"openai\"\n[adapters.openai]\n", Path::new("/h/evoke.toml"));
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].place.line, found[0].key.as_str()), (2, "adapters.openai"));
        assert!(refuse("evoke.toml", "adapter = \"openai\"\n[reflexes]\n", Path::new("/h/evoke.toml")).is_empty());
    }
}
