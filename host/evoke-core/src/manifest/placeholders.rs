//! `{name}` placeholders in a `confirm` template and in argv elements.

/// One `{name}` in a template, with the byte range it covers (braces included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placeholder {
    pub name: String,
    pub range: std::ops::Range<usize>,
}

/// The placeholders of a template, or the byte offset of the first brace that does not close or open one.
pub fn placeholders(template: &str) -> Result<Vec<Placeholder>, usize> {
    let mut found = Vec::new();
    let mut open: Option<usize> = None;
    for (at, ch) in template.char_indices() {
        match (ch, open) {
            ('{', None) => open = Some(at),
            ('{', Some(_)) => return Err(at),
            ('}', Some(start)) => {
                found.push(Placeholder { name: template[start + 1..at].to_string(), range: start..at + 1 });
                open = None;
            }
            ('}', None) => return Err(at),
            _ => {}
        }
    }
    match open {
        Some(start) => Err(start),
        None => Ok(found),
    }
}

/// Fills each placeholder with what `value` gives for its name; a template that does not read is left as is.
pub fn fill(template: &str, value: impl Fn(&str) -> String) -> String {
    let Ok(found) = placeholders(template) else { return template.to_string() };
    let mut out = String::with_capacity(template.len());
    let mut last = 0;
    for p in found {
        out.push_str(&template[last..p.range.start]);
        out.push_str(&value(&p.name));
        last = p.range.end;
    }
    out.push_str(&template[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_and_refuses() {
        let found = placeholders("Set the {room} lights {state}?").unwrap();
        assert_eq!(found.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["room", "state"]);
        assert_eq!(placeholders("a { b"), Err(2));
        assert_eq!(placeholders("a } b"), Err(2));
        assert_eq!(placeholders("{a{b}}"), Err(2));
        assert_eq!(fill("Set the {room} lights {state}?", |n| n.to_uppercase()), "Set the ROOM lights STATE?");
    }
}
