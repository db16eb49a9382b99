//! Spans: byte ranges of the source, turned into 1-based lines and character columns only for display.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end: end.max(start) }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// Where a span starts, as a person reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// The 1-based line and column (in characters) of a byte offset; an offset past the end reads as the end.
pub fn position(source: &str, offset: usize) -> Position {
    let offset = floor_boundary(source, offset.min(source.len()));
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = source[line_start..offset].chars().count() + 1;
    Position { line, column }
}

/// The text of the line holding a byte offset, without its line break.
pub fn line_text(source: &str, offset: usize) -> &str {
    let offset = floor_boundary(source, offset.min(source.len()));
    let start = source[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = source[offset..].find('\n').map_or(source.len(), |i| offset + i);
    source[start..end].trim_end_matches('\r')
}

fn floor_boundary(source: &str, mut offset: usize) -> usize {
    while offset > 0 && !source.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_characters() {
        let source = "ab\n🐞x";
        assert_eq!(position(source, 0), Position { line: 1, column: 1 });
        assert_eq!(position(source, 3), Position { line: 2, column: 1 });
        // The bug is four bytes but one character.
        assert_eq!(position(source, 7), Position { line: 2, column: 2 });
        assert_eq!(line_text(source, 7), "🐞x");
    }
}
