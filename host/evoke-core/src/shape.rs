//! 003's `shape`: a code the input spells, held against the codes its argument's examples assert. Its
//! form is each character's class (a capital, a small letter, a digit) with every other character kept
//! as the separator it is: `AB-1234` is `AA-9999`. A letter of the Latin alphabet and a letter of another
//! script are of different classes, so a code spelt with look-alike letters (a Greek `ΑΒ-1234`) has no
//! example's form. A code of the form of an example is `whole`. One that
//! only a case or a separator sets apart from an example's (`ab1234` beside `AB-1234`) is `completed`:
//! the examples would write it otherwise, so a write on it waits (`respelt`); its value stays as typed. One
//! of no example's form, even so, is `open`.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    Whole,
    Completed,
    Open,
}

/// Each character's class, separators kept.
fn form(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            c if c.is_ascii_digit() => '9',
            c if c.is_ascii_uppercase() => 'A',
            c if c.is_ascii_alphabetic() => 'a',
            c if c.is_uppercase() => 'Ω',
            c if c.is_alphabetic() => 'ω',
            other => other,
        })
        .collect()
}

/// The form with its case and its separators set aside.
fn loose(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .map(|c| match c {
            c if c.is_ascii_digit() => '9',
            c if c.is_ascii_alphabetic() => 'a',
            _ => 'ω',
        })
        .collect()
}

/// The shape of `typed` against the values `examples` assert; `None` where no example asserts one.
pub fn of(typed: &str, examples: &[&str]) -> Option<Shape> {
    if examples.is_empty() {
        return None;
    }
    let shape = if examples.iter().any(|e| form(e) == form(typed)) {
        Shape::Whole
    } else if examples.iter().any(|e| loose(e) == loose(typed)) {
        Shape::Completed
    } else {
        Shape::Open
    };
    Some(shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_whole_completed_or_open_beside_its_examples() {
        let examples = ["AB-1234", "CD-5678"];
        assert_eq!(of("XY-0001", &examples), Some(Shape::Whole));
        assert_eq!(of("xy0001", &examples), Some(Shape::Completed));
        assert_eq!(of("XY 0001", &examples), Some(Shape::Completed));
        assert_eq!(of("xy-0001", &examples), Some(Shape::Completed));
        assert_eq!(of("1234-AB", &examples), Some(Shape::Open));
        assert_eq!(of("XY-00001", &examples), Some(Shape::Open));
        assert_eq!(of("XY-0001", &[]), None);
    }

    #[test]
    fn a_code_spelt_with_letters_of_another_script_has_no_examples_form() {
        let examples = ["AB-1234"];
        // Greek capital alpha and beta, which look like `A` and `B`.
        assert_eq!(of("\u{391}\u{392}-1234", &examples), Some(Shape::Open));
        assert_eq!(of("\u{3b1}\u{3b2}1234", &examples), Some(Shape::Open));
        assert_eq!(of("\u{391}\u{392}-1234", &["\u{393}\u{394}-5678"]), Some(Shape::Whole));
    }
}
