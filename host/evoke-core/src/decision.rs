//! A decision and its JSON line. Field order is the wire's; absent optionals are omitted.

use crate::manifest::Effect;
use crate::question::{QuestionId, serialize_pairs};
use crate::recognize::{PickValue, Span};
use serde::Serialize;
use serde::ser::Serializer;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Run,
    Confirm,
    Ask,
    Abstain,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Run => "run",
            Outcome::Confirm => "confirm",
            Outcome::Ask => "ask",
            Outcome::Abstain => "abstain",
        }
    }
}

impl Serialize for Effect {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A typed value (003 "Values"): never invented, always a closed choice or an exact span.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Value {
    Option {
        key: String,
    },
    Word {
        word: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        value: Option<String>,
    },
    Pick {
        span: Span,
        value: PickValue,
    },
    Flag,
}

impl Value {
    /// How the value reads in a call and a confirm template: the key, the word, the words typed.
    pub fn shown(&self) -> &str {
        match self {
            Value::Option { key } => key,
            Value::Word { word, .. } => word,
            Value::Pick { span, .. } => &span.text,
            Value::Flag => "true",
        }
    }
}

/// The arguments in the manifest's order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Args(pub Vec<(String, Value)>);

impl Args {
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

impl Serialize for Args {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_pairs(&self.0, serializer)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Judgment {
    pub question: QuestionId,
    pub top: String,
    pub p: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Contender {
    pub reflex: String,
    pub route: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fits: Option<f64>,
}

/// What a confirm shows: evoke's own line first, why the call waits, then the reflex's filled question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prompt {
    pub own: String,
    pub reason: String,
    pub template: String,
}

/// Why a complete call stops at confirm, in the gate's order (docs/decision.md).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Because {
    Destructive,
    NoGate,
    UnderFloor {
        bar: f64,
    },
    /// A value stands on one view, and the words of the input name another value for its argument: the
    /// engine and the words disagree (`turn off the office lights` read as the den). `reads` is the key the
    /// words name when asked alone, where that question found the disagreement (`douse` read as `off`, and
    /// alone as `on`).
    OneView {
        arg: String,
        words: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        reads: Option<String>,
    },
    /// A code written unlike the codes the argument's examples assert, set apart only by a case or a
    /// separator (`ab1234` beside `AB-1234`): the examples would write it otherwise, so a write waits.
    Respelt {
        arg: String,
        text: String,
    },
    /// A text the call took that was typed without quotes (`draft a mail to dana@example.com`): where it
    /// starts and ends is the engine's reading, so a write waits for a yes.
    TextRead {
        arg: String,
        text: String,
    },
    /// Words of a write's input that nothing the reflex says reads: the input may ask for more than the
    /// call does (the read-back).
    More {
        words: Vec<String>,
    },
    /// Words that follow a pick's value with nothing between, which may be part of it (`30 ish`): the
    /// value may be cut short.
    Cut {
        words: Vec<String>,
    },
    UnconsumedSpan,
    /// A text in quotes that no value took, where the reflex takes a text in quotes: the person quoted
    /// something the call leaves out (`quotes` lists it).
    Quoted,
    /// Words of a write's input that a text typed without quotes may be, which no value took, where the
    /// reflex takes a text: the person may have said a text the call leaves out.
    TextLeft {
        words: Vec<String>,
    },
    RunnerUp {
        reflex: String,
        route: f64,
    },
    /// A write or destructive call whose sentence is no request: a question, a remark, a condition, a
    /// request taken back or one not to (the mood module).
    NotARequest {
        mood: crate::mood::Mood,
    },
    TwoThings,
    /// Words of the sentence set aside as pointing back at the call (`let me know when it rings`): they may
    /// add a detail to it that no value reads (003's `detail`), so it waits for a person.
    Detail {
        words: Vec<String>,
    },
    /// A step written for one of the things words like `both` point at: the value of `arg` an earlier step
    /// took, which the step's own words do not name (003's `pointed`).
    Pointed {
        arg: String,
        words: String,
    },
    /// A woven part that matched nothing alone, read as the reflex the whole sentence gives its words
    /// (`weave.span_*`, 003's `named`): the engine read it in context, so it waits for a person.
    Named {
        words: String,
    },
    /// A value of `arg` the step's own words do not say, taken from `words`, another part of the sentence
    /// that said it once for several steps (003's basis `shared`, which stands on those words and a yes).
    Shared {
        arg: String,
        words: String,
    },
    /// A write of a plan file whose step journal is not here (pruned, removed, or the file was written
    /// elsewhere): evoke cannot know whether it ran before, so it asks.
    NoJournal,
}

/// What a value read from the input stands on (003's `basis`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Basis {
    /// Its own question alone: a pick among several spans, or a flag.
    Ask { ask: f64 },
    /// Two views that agree: its question, and words of the input that name it (the reader, which cannot
    /// make it surer than the question: two views of 0.92 give 0.92).
    Views { ask: f64, reader: f64 },
    /// One view: its question, with no word of the input naming it; `words` are those the read-back found
    /// it read from, where it found any.
    View {
        ask: f64,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        words: Vec<String>,
        /// Whether those words, asked alone, name the value.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        anchored: bool,
        /// The other key those words name asked alone, where they name one: the readings disagree.
        #[serde(skip_serializing_if = "Option::is_none")]
        reads: Option<String>,
    },
    /// The one span of its kind in the input, taken by its question.
    Only { ask: f64 },
    /// A value its question judged unstated, read from words of the input that name it, which the
    /// argument's question asked of them alone names too: `yes` is how surely.
    Words { words: Vec<String>, yes: f64 },
    /// A code the words spell, taken by its question, with its `shape` beside the codes the argument's
    /// examples assert, where they assert any.
    Spelled {
        ask: f64,
        #[serde(skip_serializing_if = "Option::is_none")]
        shape: Option<crate::shape::Shape>,
    },
    /// A text typed without quotes, taken by its question, with the `others` it could have been.
    Text { ask: f64, others: Vec<String> },
    /// A value another part of the sentence states for several steps, `from` its words; it waits for a yes.
    Shared { from: String },
}

/// Per argument with a value read from the input, its basis, in the manifest's order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bases(pub Vec<(String, Basis)>);

impl Serialize for Bases {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_pairs(&self.0, serializer)
    }
}

/// A text in quotes, as typed inside its marks, with the marks: `{ "text": "tea", "marks": ["“", "”"] }`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Quote {
    pub text: String,
    pub marks: [String; 2],
}

/// Why a required argument is missing.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MissingBecause {
    Unstated,
    NotOffered,
    OutOfRange {
        range: [f64; 2],
        value: f64,
    },
    /// The input names `key` only to spare it (`every light except the den`): it is asked for, and `key`
    /// is not among the choices.
    Excluded {
        key: String,
    },
    /// The engine holds two or more of the argument's values and none as surely as the route's bar asks of
    /// a reflex (`set a timer for 5 or 10 minutes`), or it read an option the input names only where it
    /// states how things are (`the kitchen was left on, turn it off`): which was meant is for the person to
    /// say.
    Unsettled,
    /// Words of the input answer the ask, and the engine read no value from them (judged `unstated`): the
    /// words are shown, and a listed value they name is made ready for a yes (`likely`).
    Unread,
}

/// The closed choices a person answers an ask from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Choices {
    Vocab {
        words: Texts,
    },
    Options {
        options: Texts,
    },
    Pick {
        kind: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        range: Option<[f64; 2]>,
        /// What the words of the input that answer the ask read as, where they say a value aloud.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        readings: Vec<PickReading>,
        /// Values of the pick's kind recalled from this session's results, the latest first.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        recent: Vec<String>,
    },
}

/// A span of the input a pick's ask could take, and the value it reads as: `"150"` as the number 150.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PickReading {
    pub text: String,
    pub value: crate::recognize::PickValue,
}

impl Choices {
    /// Whether `key` is among the choices a person may answer.
    pub fn offers(&self, key: &str) -> bool {
        match self {
            Choices::Vocab { words } => words.0.iter().any(|(k, _)| k == key),
            Choices::Options { options } => options.0.iter().any(|(k, _)| k == key),
            Choices::Pick { .. } => false,
        }
    }

    /// The same choices less `key`: what a person may answer once the input has spared it.
    pub fn without(self, key: &str) -> Choices {
        let less = |texts: Texts| Texts(texts.0.into_iter().filter(|(k, _)| k != key).collect());
        match self {
            Choices::Vocab { words } => Choices::Vocab { words: less(words) },
            Choices::Options { options } => Choices::Options { options: less(options) },
            pick @ Choices::Pick { .. } => pick,
        }
    }
}

/// Keys and their texts, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Texts(pub Vec<(String, String)>);

impl Serialize for Texts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_pairs(&self.0, serializer)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Missing {
    pub arg: String,
    pub ask: String,
    pub because: MissingBecause,
    /// The words of the input that answer the ask, as typed, where the read-back found any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words: Option<Vec<String>>,
    pub choices: Choices,
    /// The listed value the words that answer the ask name, made ready for a yes, where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub likely: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decision {
    pub input: String,
    pub outcome: Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reflex: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<Args>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    /// What each value read from the input stands on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub basis: Option<Bases>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unconsumed: Option<Vec<Span>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weakest: Option<Judgment>,
    pub judgments: Vec<Judgment>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runner_up: Option<Contender>,
    pub contenders: Vec<Contender>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<Prompt>,
    /// The words no value holds that the gate reads (`answers` and `more`), where there are any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<Vec<crate::readback::Left>>,
    /// How far the call holds all the input says, where it holds less than all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whole: Option<f64>,
    /// The texts in quotes no value took, where the reflex takes a text in quotes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quotes: Option<Vec<Quote>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub because: Option<Vec<Because>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<Vec<Missing>>,
}

impl Decision {
    /// A decision of `outcome` on `reflex` with `args` and nothing judged: no confidence, judgments or
    /// reasons. What an abstain starts from, and a test's fixture.
    pub fn bare(input: &str, outcome: Outcome, reflex: Option<&str>, args: Args) -> Decision {
        Decision {
            input: input.into(),
            outcome,
            reflex: reflex.map(str::to_string),
            call: reflex.map(|r| call_line(r, &args)),
            args: reflex.map(|_| args),
            effect: None,
            basis: None,
            unconsumed: None,
            confidence: None,
            weakest: None,
            judgments: Vec::new(),
            runner_up: None,
            contenders: Vec::new(),
            prompt: None,
            left: None,
            whole: None,
            quotes: None,
            because: None,
            missing: None,
        }
    }
}

/// The call on one line: `lights room="den" state="off"`; a flag stands as its bare name.
pub fn call_line(reflex: &str, args: &Args) -> String {
    let mut line = reflex.to_string();
    for (name, value) in &args.0 {
        line.push(' ');
        line.push_str(name);
        if *value != Value::Flag {
            line.push('=');
            line.push_str(&serde_json::Value::String(value.shown().to_string()).to_string());
        }
    }
    line
}
