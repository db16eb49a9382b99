//! `.mts` → JavaScript by erasing the types in place: every line and column stays where it was, so a
//! body's frames point at the author's own file.

use std::io::Write;
use std::sync::{Arc, Mutex};
use swc_common::errors::Handler;
use swc_common::sync::Lrc;
use swc_common::{GLOBALS, Globals, SourceMap};
use swc_ts_fast_strip::{Mode, Options, operate};

/// The stripper's own diagnostics, gathered for the error message.
#[derive(Clone, Default)]
struct Collected(Arc<Mutex<Vec<u8>>>);

impl Write for Collected {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().map_err(|_| std::io::Error::other("poisoned"))?.extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A TypeScript body whose types could not be stripped: the file, the stripper's error, and what its
/// diagnostics said (empty when they said nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotStripped {
    pub file_name: String,
    pub error: String,
    pub said: String,
}

impl std::fmt::Display for NotStripped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file_name, self.error)?;
        if !self.said.is_empty() {
            write!(f, "\n{}", self.said)?;
        }
        Ok(())
    }
}

impl std::error::Error for NotStripped {}

/// The deepest a `.mts` body may nest brackets (`(`, `[`, `{` and a template's `${`). The stripper's parser
/// recurses once or more per level and cannot be told to stop, so a file of a few thousand `(` would
/// overflow evoke's stack and abort it; the bound is checked before the parser sees the file.
pub const MAX_NESTING: usize = 256;

/// The most operators and braceless statements that may chain in the brackets open at a point. The parser
/// recurses on what nests without brackets too (`x => x => …`, `a = a = …`, `!!…`, `A<A<…>>`, `a: a: …`,
/// `if (a) if (a) …`, `else if` after `else if`), so these are bounded with the brackets. Every character
/// that may be such an operator (`= ! ~ + - < ? : | & *`) and every such keyword (`typeof`, `new`,
/// `await`, …) counts, comparisons too: counting one that is not is safe, missing one is not. Operators
/// count until the next `;` or `,` of their bracket or a keyword that only begins a statement (`const`,
/// `return`, …), so a file without semicolons is not one long chain; `if`, `else`, `for`, `while`, `do`
/// and `with` count until their bracket closes, since a `;` does not end an `else` chain.
pub const MAX_CHAIN: usize = 2048;

/// The deepest a `.mts` body may nest `(`, `[` and `{` counted over every byte, inside strings, comments,
/// template text and regular expressions too. The scanner behind [`MAX_NESTING`] reads JavaScript without
/// parsing it, and what it cannot tell apart (a `/` after `)` or `}`: division, or a regular expression?) can
/// make it skip real code as a string or a regex, so brackets hidden there reached the parser and
/// overflowed its stack. This count knows nothing of strings and so cannot be fooled: whatever the scanner
/// skips, the parser never sees brackets nested deeper than this. Its cost is that a body whose strings hold
/// more than this many unclosed brackets in a row is refused too.
pub const MAX_RAW_NESTING: usize = 1024;

/// The stack the stripper runs on. What the bounds admit takes at most about 36 MiB in a debug build
/// (16 KiB a level at worst) and far less in a release one. Only the pages touched are used.
const STRIP_STACK: usize = 64 << 20;

/// Strips the types of the `.mts` body `source` (shown as `file_name`), refusing one that nests brackets
/// deeper than [`MAX_NESTING`] (or [`MAX_RAW_NESTING`] counting every byte) or chains more than
/// [`MAX_CHAIN`] operators.
pub fn strip_types(file_name: &str, source: &str) -> Result<String, NotStripped> {
    if let Some(too_deep) = too_deep(source).or_else(|| too_deep_raw(source)) {
        let error = match too_deep {
            TooDeep::Brackets { line } => format!(
                "brackets nest more than {MAX_NESTING} deep at line {line}, the most evoke strips; \
                 move the inner part into a function or a variable of its own"
            ),
            TooDeep::Raw { line } => format!(
                "brackets nest more than {MAX_RAW_NESTING} deep at line {line}, counting those in strings, \
                 comments and regular expressions too, the most evoke strips; move the inner part into a \
                 function or a variable of its own, or build a long run of brackets in a string from shorter ones"
            ),
            TooDeep::Chain { line } => format!(
                "more than {MAX_CHAIN} operators chain without a `;` or `,` at line {line}, the most evoke \
                 strips; split the expression into statements"
            ),
        };
        return Err(NotStripped { file_name: file_name.to_string(), error, said: String::new() });
    }
    strip_on_thread(file_name, source)
}

/// Runs the stripper on a thread of its own with [`STRIP_STACK`], unchecked: what it is given must have
/// passed the bounds.
fn strip_on_thread(file_name: &str, source: &str) -> Result<String, NotStripped> {
    let name = file_name.to_string();
    let text = source.to_string();
    let stripping =
        std::thread::Builder::new().name("strip".into()).stack_size(STRIP_STACK).spawn(move || strip_here(&name, text));
    match stripping.map(|handle| handle.join()) {
        Ok(Ok(stripped)) => stripped,
        Ok(Err(_)) => Err(NotStripped {
            file_name: file_name.to_string(),
            error: "the type stripper failed".into(),
            said: String::new(),
        }),
        Err(e) => Err(NotStripped {
            file_name: file_name.to_string(),
            error: format!("cannot start the type stripper: {e}"),
            said: String::new(),
        }),
    }
}

/// Which bound a body went over, and the line (from 1) where it did.
#[derive(Debug, PartialEq, Eq)]
enum TooDeep {
    Brackets { line: usize },
    Raw { line: usize },
    Chain { line: usize },
}

/// Where `(`, `[` and `{` first nest deeper than [`MAX_RAW_NESTING`], counted over every byte whatever it
/// is part of: an opener is one deeper, a closer one shallower (never below the top). No context, so
/// nothing can hide a bracket from it.
fn too_deep_raw(source: &str) -> Option<TooDeep> {
    let mut depth = 0usize;
    let mut line = 1;
    for &b in source.as_bytes() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_RAW_NESTING {
                    return Some(TooDeep::Raw { line });
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\n' => line += 1,
            _ => {}
        }
    }
    None
}

/// Whether a line ends at byte `i`, as JavaScript ends a `//` comment: at `\n`, `\r`, U+2028 or U+2029.
fn line_ends_at(bytes: &[u8], i: usize) -> bool {
    matches!(bytes[i], b'\n' | b'\r') || matches!(bytes.get(i..i + 3), Some([0xe2, 0x80, 0xa8 | 0xa9]))
}

/// Keywords that apply to what follows them, as a prefix operator does.
const PREFIX_WORDS: [&str; 9] = ["typeof", "void", "delete", "await", "new", "yield", "keyof", "infer", "extends"];

/// Keywords that only begin a statement (never inside an expression, unless after a `.`).
const STATEMENT_WORDS: [&str; 10] =
    ["const", "let", "var", "return", "throw", "export", "switch", "try", "break", "continue"];

/// Keywords whose statement may hold another without braces, each a level of the parser's recursion.
const NESTING_WORDS: [&str; 6] = ["if", "else", "for", "while", "do", "with"];

/// Where the body first goes over [`MAX_NESTING`] or [`MAX_CHAIN`], if it does. A small scanner that
/// skips comments, strings, template text and regular expressions, so brackets inside them neither count
/// nor close; what it cannot tell apart (a `/` after `)` is read as division) only ever makes it count
/// a bracket or an operator that is not one, never miss one the parser will read.
fn too_deep(source: &str) -> Option<TooDeep> {
    #[derive(PartialEq)]
    enum Open {
        Module,
        Bracket,
        Template,
    }
    let bytes = source.as_bytes();
    // The brackets open, each with the operators chained in it since its last `;` or `,`, and the
    // braceless statements begun in it.
    let mut open: Vec<(Open, usize, usize)> = vec![(Open::Module, 0, 0)];
    let mut chained = 0usize;
    let mut line = 1;
    let mut i = 0;
    // Whether a `/` here would begin a regular expression: after an operator or at the start, not after a
    // value (a name, a number, `)` or `]`).
    let mut regex_may_start = true;
    // The last byte of code before this one that is not a space: a word after `.` is a property.
    let mut before = b';';
    // Inside a template's text (after a backtick, or after the `}` closing a `${`).
    let mut in_template = false;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            line += 1;
        }
        let mut chain = 0;
        let mut nesting = 0;
        if in_template {
            match b {
                b'\\' => i += 1,
                b'`' => {
                    in_template = false;
                    regex_may_start = false;
                }
                b'$' if bytes.get(i + 1) == Some(&b'{') => {
                    in_template = false;
                    open.push((Open::Template, 0, 0));
                    regex_may_start = true;
                    i += 1;
                }
                _ => {}
            }
            i += 1;
            if open.len() > MAX_NESTING + 1 {
                return Some(TooDeep::Brackets { line });
            }
            continue;
        }
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                // JavaScript ends the comment at any line terminator, not only `\n`: what follows a lone
                // `\r` or a U+2028 is code, and must be counted.
                while i < bytes.len() && !line_ends_at(bytes, i) {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    line += usize::from(bytes[i] == b'\n');
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'/' if regex_may_start => {
                let mut in_class = false;
                i += 1;
                while i < bytes.len() && !line_ends_at(bytes, i) {
                    match bytes[i] {
                        b'\\' => i += 1,
                        b'[' => in_class = true,
                        b']' => in_class = false,
                        b'/' if !in_class => break,
                        _ => {}
                    }
                    i += 1;
                }
                regex_may_start = false;
            }
            b'\'' | b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b && !matches!(bytes[i], b'\n' | b'\r') {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                regex_may_start = false;
            }
            b'`' => in_template = true,
            b'(' | b'[' | b'{' => {
                open.push((Open::Bracket, 0, 0));
                regex_may_start = true;
            }
            b')' | b']' | b'}' => {
                if open.len() > 1 {
                    let (kind, expr, stmt) = open.pop().unwrap_or((Open::Module, 0, 0));
                    chained -= expr + stmt;
                    in_template = b == b'}' && kind == Open::Template;
                }
                regex_may_start = b == b'}';
            }
            b';' | b',' => {
                if let Some(top) = open.last_mut() {
                    chained -= top.1;
                    top.1 = 0;
                }
                regex_may_start = true;
            }
            b' ' | b'\t' | b'\r' | b'\n' => {}
            b'_' | b'$' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | 0x80.. => {
                // A word: a value, unless it is a keyword after which an expression starts.
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'_' | b'$' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | 0x80..)
                {
                    i += 1;
                }
                let word = &source[start..i];
                let property = before == b'.';
                if !property && STATEMENT_WORDS.contains(&word) {
                    if let Some(top) = open.last_mut() {
                        chained -= top.1;
                        top.1 = 0;
                    }
                } else if !property && PREFIX_WORDS.contains(&word) {
                    chain = 1;
                } else if !property && NESTING_WORDS.contains(&word) {
                    nesting = 1;
                }
                regex_may_start = !property
                    && matches!(
                        word,
                        "return"
                            | "typeof"
                            | "case"
                            | "do"
                            | "else"
                            | "in"
                            | "of"
                            | "new"
                            | "delete"
                            | "void"
                            | "throw"
                            | "yield"
                            | "await"
                            | "instanceof"
                    );
                before = b'a';
                if let Some(top) = open.last_mut() {
                    top.1 += chain;
                    top.2 += nesting;
                    chained += chain + nesting;
                }
                if chained > MAX_CHAIN {
                    return Some(TooDeep::Chain { line });
                }
                continue;
            }
            b'=' | b'!' | b'~' | b'+' | b'-' | b'<' | b'?' | b':' | b'|' | b'&' | b'*' => {
                chain = 1;
                regex_may_start = true;
            }
            _ => regex_may_start = true,
        }
        if !b.is_ascii_whitespace() {
            before = b;
        }
        if let Some(top) = open.last_mut() {
            top.1 += chain;
            chained += chain;
        }
        if chained > MAX_CHAIN {
            return Some(TooDeep::Chain { line });
        }
        if open.len() > MAX_NESTING + 1 {
            return Some(TooDeep::Brackets { line });
        }
        i += 1;
    }
    None
}

fn strip_here(file_name: &str, source: String) -> Result<String, NotStripped> {
    let cm: Lrc<SourceMap> = Default::default();
    let collected = Collected::default();
    let handler = Handler::with_emitter_writer(Box::new(collected.clone()), Some(cm.clone()));
    let options = Options {
        module: Some(true),
        filename: Some(file_name.to_string()),
        mode: Mode::StripOnly,
        ..Default::default()
    };
    GLOBALS.set(&Globals::new(), || operate(&cm, &handler, source, options)).map(|out| out.code).map_err(|e| {
        let said = collected.0.lock().map(|b| String::from_utf8_lossy(&b).trim().to_string()).unwrap_or_default();
        NotStripped { file_name: file_name.to_string(), error: e.to_string(), said }
    })
}

#[cfg(test)]
mod tests {
    use super::{MAX_CHAIN, MAX_NESTING, MAX_RAW_NESTING, strip_on_thread, strip_types};

    #[test]
    fn keeps_lines_and_columns() {
        let ts = "const a: number = 1;\nexport default function body(x: { n: number }): string {\n  throw new Error(`n=${x.n}`);\n}\n";
        let js = strip_types("t.mts", ts).unwrap();
        assert_eq!(js.lines().count(), ts.lines().count());
        let ts_line = ts.lines().nth(2).unwrap();
        let js_line = js.lines().nth(2).unwrap();
        assert_eq!(ts_line.find("throw"), js_line.find("throw"));
        assert!(!js.contains(": number"));
    }

    #[test]
    fn brackets_nested_past_the_limit_are_refused_naming_the_file_and_the_limit() {
        let deep = format!("export default {}1{};\n", "(".repeat(5000), ")".repeat(5000));
        let refused = strip_types("deep.mts", &deep).unwrap_err();
        assert!(refused.to_string().starts_with("deep.mts: "), "{refused}");
        assert!(refused.error.contains(&format!("more than {MAX_NESTING} deep at line 1")), "{refused}");
    }

    #[test]
    fn nesting_up_to_the_limit_strips() {
        let n = MAX_NESTING;
        let at_limit = format!("export default (x: number) => {}x{};\n", "[".repeat(n), "]".repeat(n));
        let js = strip_types("ok.mts", &at_limit).unwrap();
        assert!(!js.contains(": number"));
    }

    #[test]
    fn brackets_in_strings_comments_templates_and_regexes_neither_count_nor_close() {
        let hidden = format!(
            "const s = '{c}'; // {c}\n/* {c} */ const t = `{c}${{1}}{c}`; const r = /[)]{c}/;\nexport default {o}1{cl};\n",
            c = ")".repeat(300),
            o = "(".repeat(300),
            cl = ")".repeat(300)
        );
        let refused = strip_types("hidden.mts", &hidden).unwrap_err();
        assert!(refused.error.contains("at line 3"), "{refused}");
        // Each holds 300 opened before it closes them: the scanner counting inside would pass 256.
        let quoted = format!(
            "export const s = '{o}{c}', t = `{o}{c}`, r = /{o}{c}/; // {o}{c}\n",
            o = "\\(".repeat(300),
            c = "\\)".repeat(300)
        );
        strip_types("quoted.mts", &quoted).unwrap();
    }

    #[test]
    fn chains_past_the_limit_are_refused_not_a_stack_overflow() {
        let links =
            [("arrows", "x=>"), ("assignments", "a="), ("generics", "A<"), ("negations", "!"), ("labels", "a:")];
        for (name, link) in links {
            let chain = format!("let a, x; export default {}1;\n", link.repeat(10_000));
            let refused = strip_types("chain.mts", &chain).unwrap_err();
            assert!(refused.error.contains(&format!("more than {MAX_CHAIN} operators chain")), "{name}: {refused}");
        }
    }

    #[test]
    fn the_most_the_bounds_admit_strips_within_the_stack() {
        // Every bracket level open at once, with every operator the chain bound admits inside, each of the
        // costliest kind found (an arrow, a generic): the stripper's stack must hold it.
        let n = MAX_NESTING - 1;
        let arrows = format!("export default {}{}1{};\n", "(".repeat(n), "x=>".repeat(MAX_CHAIN - n), ")".repeat(n));
        strip_types("arrows.mts", &arrows).unwrap();
        let generics = format!(
            "type A<T> = T;\nexport const v: {}number{} = 1;\n",
            "A<".repeat(MAX_CHAIN - 8),
            ">".repeat(MAX_CHAIN - 8)
        );
        strip_types("generics.mts", &generics).unwrap();
    }

    #[test]
    fn a_long_file_of_statements_is_not_one_chain() {
        let with_semicolons: String = (0..5000).map(|i| format!("const a{i}: number = {i} + 1;\n")).collect();
        strip_types("semi.mts", &with_semicolons).unwrap();
        let without: String = (0..5000).map(|i| format!("export const a{i} = -{i} + 1\n")).collect();
        strip_types("bare.mts", &without).unwrap();
        let object =
            format!("export const o = {{ {} }};\n", (0..5000).map(|i| format!("k{i}: {i}, ")).collect::<String>());
        strip_types("object.mts", &object).unwrap();
    }

    #[test]
    fn statements_nested_without_braces_are_bounded_too() {
        for (name, link) in [("ifs", "if (a) "), ("else ifs", "if (a) a; else "), ("loops", "while (a) ")] {
            let nested = format!("let a = 0;\n{}a;\n", link.repeat(10_000));
            let refused = strip_types("nested.mts", &nested).unwrap_err();
            assert!(refused.error.contains(&format!("more than {MAX_CHAIN} operators chain")), "{name}: {refused}");
        }
    }

    #[test]
    fn refuses_what_does_not_parse() {
        let refused = strip_types("bad.mts", "export default (: => ").unwrap_err();
        assert_eq!(refused.file_name, "bad.mts");
        assert!(refused.to_string().starts_with("bad.mts: "), "{refused}");
    }

    /// The attacks that fooled the scanner into skipping real code as a string, a regex or a comment, each
    /// hiding 200,000 nested `(` from it: before the raw count they reached the parser and overflowed the
    /// strip thread's stack, aborting evoke (SIGABRT). Each must now be refused.
    #[test]
    fn brackets_hidden_from_the_scanner_are_refused_not_a_stack_overflow() {
        let deep = format!("{}1{}", "(".repeat(200_000), ")".repeat(200_000));
        let attacks = [
            (
                "regex holding a backtick",
                "let s: string = \"x\";\nif (s) /`/.test(s);\nexport default function () { return DEEP; }",
            ),
            (
                "regex holding a quote",
                "let s: string = \"x\";\nif (s) /'/.test(s), DEEP;\nexport default function () { return 1; }",
            ),
            ("object then division", "let x: any = {} / DEEP / 2;\nexport default function () { return 1; }"),
            (
                "`of` then division",
                "let of: number = 4;\nlet y = of / DEEP / 2;\nexport default function () { return 1; }",
            ),
            ("comment ended by CR", "// hi\rexport const v = DEEP;\nexport default function () { return 1; }"),
            (
                "comment ended by U+2028",
                "// hi\u{2028}export const v = DEEP;\nexport default function () { return 1; }",
            ),
            (
                "comment ended by U+2029",
                "// hi\u{2029}export const v = DEEP;\nexport default function () { return 1; }",
            ),
        ];
        for (name, attack) in attacks {
            let refused = strip_types("z.mts", &attack.replace("DEEP", &deep)).unwrap_err();
            assert!(refused.to_string().starts_with("z.mts: brackets nest more than "), "{name}: {refused}");
            assert!(refused.error.contains(" deep at line "), "{name}: {refused}");
        }
    }

    #[test]
    fn the_raw_count_refuses_past_its_limit_naming_the_file_the_line_and_the_limit() {
        // Hidden behind a regex after `)` the scanner reads as division, so only the raw count sees them.
        let n = MAX_RAW_NESTING + 1;
        let hidden =
            format!("let s = 1;\nif (s) /`/.test(s);\nexport const v = {}1{};\n", "[".repeat(n), "]".repeat(n));
        let refused = strip_types("raw.mts", &hidden).unwrap_err();
        assert!(refused.to_string().starts_with("raw.mts: "), "{refused}");
        assert!(refused.error.contains(&format!("more than {MAX_RAW_NESTING} deep at line 3")), "{refused}");
        // Closers that open nothing do not let the count go below the top, where they could hide openers.
        let closers = format!("// {}\n{}", ")".repeat(5000), hidden);
        assert!(strip_types("raw.mts", &closers).unwrap_err().error.contains("at line 4"));
    }

    #[test]
    fn a_line_comment_ends_at_cr_and_at_the_unicode_line_and_paragraph_separators() {
        // What follows the terminator is code the parser reads, so the scanner must count its brackets.
        let deep = format!("{}1{}", "(".repeat(300), ")".repeat(300));
        for end in ["\r", "\u{2028}", "\u{2029}"] {
            let refused = strip_types("c.mts", &format!("// hi{end}export const v = {deep};\n")).unwrap_err();
            assert!(refused.error.contains(&format!("more than {MAX_NESTING} deep")), "{end:?}: {refused}");
        }
    }

    #[test]
    fn the_deepest_nesting_the_raw_count_admits_strips_within_the_stack() {
        // The scanner may be fooled, so the parser may see every level the raw count admits, of any kind,
        // with a whole chain of arrows inside: the strip thread's stack must hold each.
        let n = MAX_RAW_NESTING;
        let kinds = [
            (
                "parentheses",
                format!("export const v = {}{}1{};\n", "(".repeat(n), "x=>".repeat(MAX_CHAIN), ")".repeat(n)),
            ),
            ("arrays", format!("export const v = {}{}1{};\n", "[".repeat(n), "x=>".repeat(MAX_CHAIN), "]".repeat(n))),
            (
                "objects",
                format!("export const v = {}{}1{};\n", "{a:".repeat(n), "x=>".repeat(MAX_CHAIN), "}".repeat(n)),
            ),
            ("blocks", format!("{}{}1;{}\n", "{".repeat(n), "x=>".repeat(MAX_CHAIN), "}".repeat(n))),
            (
                "templates",
                format!("export const v = {}{}1{};\n", "`${".repeat(n), "x=>".repeat(MAX_CHAIN), "}`".repeat(n)),
            ),
            ("types", format!("export let v: {}number{} = 1;\n", "{a:".repeat(n), "}".repeat(n))),
        ];
        for (name, source) in kinds {
            let js = strip_on_thread(name, &source);
            assert!(js.is_ok(), "{name}: {js:?}");
        }
    }
}
