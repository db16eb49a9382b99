// evoke for Node: open a trusted project, decide a sentence, run the decision through your own person.
// The addon (evoke.node, built from src/lib.rs) holds the Rust library; this file gives it its JavaScript
// shape and turns every refusal into an EvokeError.

"use strict";

const { join } = require("node:path");
const { types } = require("node:util");

const MARK = "evoke-error:";

let native;
try {
  native = require(join(__dirname, "evoke.node"));
} catch (e) {
  const hint = "build it with `cargo build -p evoke-node` and copy target/debug/libevoke_node.so to " +
    join(__dirname, "evoke.node");
  throw new Error(`evoke's addon is not built (${e.message}); ${hint}`, { cause: e });
}

/** The exit classes by name, as the Rust enum `evoke::exit::Exit` spells them: `e.exit === Exit.NeedsPerson`. */
const Exit = Object.freeze({ Done: 0, Failed: 1, Usage: 2, NeedsPerson: 3, Abstain: 4, Declined: 5, Refused: 6 });

/** A refusal or fault of evoke's, with the exit class the `evoke` command would end with. */
class EvokeError extends Error {
  constructor(message, { exit, exitName, fix, diagnostics } = {}) {
    super(message);
    this.name = "EvokeError";
    /** The exit class as a number: 1 failed, 2 usage, 3 needs a person, 4 abstain, 5 declined, 6 refused. */
    this.exit = exit;
    /** The exit class's name: `Failed`, `Usage`, `NeedsPerson`, `Abstain`, `Declined` or `Refused`. */
    this.exitName = exitName;
    /** The command or edit that fixes it, or null. */
    this.fix = fix ?? null;
    /** Each fault behind it (a manifest's, say): where it is, what it is and its fix, and as evoke prints it. */
    this.diagnostics = diagnostics ?? [];
  }
}

// The addon marks an evoke::Error by the start of its message, with the error's fields as JSON after it.
function rethrown(e) {
  if (e instanceof Error && typeof e.message === "string" && e.message.startsWith(MARK)) {
    const { exit, name, message, fix, diagnostics } = JSON.parse(e.message.slice(MARK.length));
    return new EvokeError(message, { exit, exitName: name, fix, diagnostics });
  }
  return e;
}

function guarded(work) {
  try {
    return work();
  } catch (e) {
    throw rethrown(e);
  }
}

// What a value is, for a refusal that names it: `null`, `an array`, or its `typeof`.
function kindOf(value) {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value;
}

// Where the first lone surrogate of `text` is, or -1: UTF-16 that no Unicode text holds, which the addon
// would turn into U+FFFD and so into text nobody wrote.
function loneSurrogateIn(text) {
  if (text.isWellFormed()) return -1;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i += 1;
        continue;
      }
    }
    if (unit >= 0xd800 && unit <= 0xdfff) return i;
  }
  return -1;
}

// The options a verb takes, read as the object's own properties. A key it does not know or a value of the
// wrong type is the program's mistake: left unread, it would open an Evoke other than the one asked for.
function optionsOf(options, verb, keys) {
  const shape = `${verb}({ ${keys.map((key) => `${key}?`).join(", ")} })`;
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw usage(`${verb} takes its options as an object, not ${kindOf(options)}; nothing was opened`, shape);
  }
  const read = {};
  for (const key of Object.keys(options)) {
    const value = options[key];
    if (!keys.includes(key)) {
      // A reflex handed at the top level is the likeliest slip: its fix names where it goes.
      const fix = typeof value?.manifest === "string" && typeof value?.body === "function"
        ? `hand it under reflexes: ${verb}({ reflexes: { ${key}: { manifest, body } } })`
        : shape;
      throw usage(`${verb} takes no option \`${key}\`; it takes ${keys.join(", ")}; nothing was opened`, fix);
    }
    read[key] = value;
  }
  for (const key of keys.filter((key) => key !== "reflexes")) {
    const value = read[key];
    if (value === undefined || value === null) {
      read[key] = null;
    } else if (typeof value !== "string") {
      throw usage(`${verb} takes options.${key} as a string, not ${kindOf(value)}; nothing was opened`,
        `${verb}({ ${key}: "…" })`);
    } else if (loneSurrogateIn(value) >= 0) {
      throw usage(`${verb} takes options.${key} as well-formed text, and it has a lone surrogate at index ` +
        `${loneSurrogateIn(value)}; nothing was opened`, `${verb}({ ${key}: text.toWellFormed() })`);
    }
  }
  const reflexes = read.reflexes;
  if (reflexes !== undefined && reflexes !== null && (typeof reflexes !== "object" || Array.isArray(reflexes))) {
    throw usage(`${verb} takes options.reflexes as an object of reflexes by name, not ${kindOf(reflexes)}; ` +
      "nothing was opened", `${verb}({ reflexes: { name: { manifest: "reflex = 1 …", body: (call) => "…" } } })`);
  }
  return read;
}

// A person's answer is its own property: one it inherits (from a polluted Object.prototype, say) is no
// answer of the program's.
// A person's answer: its own property, or one of the class it is made from, never one Object.prototype (or
// another built-in's) holds, so a polluted prototype answers nothing.
function ownOf(person, key) {
  if (person === undefined || person === null) return undefined;
  for (let at = person; at !== null && at !== undefined; at = Object.getPrototypeOf(at)) {
    if (at === Object.prototype || at === Function.prototype) return undefined;
    if (Object.hasOwn(at, key)) return at[key];
  }
  return undefined;
}

function usage(message, fix) {
  return new EvokeError(message, { exit: 2, exitName: "Usage", fix });
}

// A field of a decision's or a plan's line, copied: what a program does to the copy it read never changes
// the fields it reads next, which stay the line that runs.
function copied(field) {
  return field === undefined || field === null ? null : structuredClone(field);
}

// Only this file makes an Evoke, a Decision, a Plan, a Ran or a PlanRan: each constructor checks for this
// token, which no other module holds.
const MADE = Symbol("made by evoke");

/** One decision of a sentence: run, confirm, ask or abstain. Only `Evoke#decide` makes one. */
class Decision {
  #native;
  #line;
  #fields;
  #evoke;

  constructor(token, evoke, nativeDecision) {
    if (token !== MADE) {
      throw usage("a Decision is made only by Evoke#decide", "evoke.decide(sentence)");
    }
    this.#evoke = evoke;
    this.#native = nativeDecision;
    this.#line = nativeDecision.json;
    this.#fields = JSON.parse(this.#line);
  }

  /** `run`, `confirm`, `ask` or `abstain`. */
  get outcome() {
    return this.#fields.outcome;
  }

  /** The sentence as decided. */
  get input() {
    return this.#fields.input;
  }

  /** The chosen reflex's local name, or null when it abstains. */
  get reflex() {
    return this.#fields.reflex ?? null;
  }

  /** The call on one line (`lights room="kitchen" state="on"`), or null when it is not complete. */
  get call() {
    return this.#fields.call ?? null;
  }

  /** Each argument as the body would receive it, or null when no reflex was chosen; a fresh copy each read. */
  get values() {
    return copied(this.#fields.values);
  }

  /** A confirm's prompt (`own`, `reason`, `template`), or null; a fresh copy each read. */
  get prompt() {
    return copied(this.#fields.prompt);
  }

  /** An ask's missing values, each with its question and closed choices, or null; a fresh copy each read. */
  get missing() {
    return copied(this.#fields.missing);
  }

  /** The JSON line `evoke try --json` prints for it, with `values` after it, exactly as Rust writes it. */
  get json() {
    return this.#line;
  }

  /** The JSON line read as an object, so `JSON.stringify(decision)` writes the same fields. */
  toJSON() {
    return JSON.parse(this.#line);
  }

  static nativeOf(decision, evoke) {
    // A private field's brand is set only by the constructor: a prototype alone or a copy lacks it.
    if (typeof decision !== "object" || decision === null || !(#native in decision)) {
      throw usage("run takes a Decision this Evoke's decide made; nothing ran", "evoke.decide(sentence)");
    }
    if (decision.#evoke !== evoke) {
      throw usage("the decision was made by another Evoke; nothing ran",
        "decide the sentence again with this Evoke");
    }
    return decision.#native;
  }
}

/** A sentence read as several steps, or a playbook it picks: planned, never run by the library. */
class Plan {
  #native;
  #line;
  #fields;
  #evoke;

  constructor(token, evoke, nativePlan) {
    if (token !== MADE) {
      throw usage("a Plan is made only by Evoke#plan", "evoke.plan(sentence)");
    }
    this.#evoke = evoke;
    this.#native = nativePlan;
    this.#line = nativePlan.json;
    this.#fields = JSON.parse(this.#line);
  }

  static nativeOf(plan, evoke) {
    if (typeof plan !== "object" || plan === null || !(#native in plan)) {
      throw usage("only a Plan this Evoke's plan made is taken; nothing ran or was saved", "evoke.plan(sentence)");
    }
    if (plan.#evoke !== evoke) {
      throw usage("the plan was made by another Evoke; nothing ran or was saved",
        "plan the sentence again with this Evoke");
    }
    return plan.#native;
  }

  /** The sentence as planned. */
  get input() {
    return this.#fields.input;
  }

  /** The plan's steps, each with its own decision; a fresh copy each read. */
  get steps() {
    return copied(this.#fields.steps);
  }

  /** The plan's verdict: whether it would run, wait for a yes, or stop; a fresh copy each read. */
  get verdict() {
    return copied(this.#fields.verdict);
  }

  /** The playbook the sentence picks, or null. */
  get playbook() {
    return copied(this.#fields.playbook);
  }

  /** The plan line `evoke try --json` prints, exactly as Rust writes it. */
  get json() {
    return this.#line;
  }

  /** The plan line read as an object. */
  toJSON() {
    return JSON.parse(this.#line);
  }
}

/** What a run gave: the body's text and data, or the failure it ended with. */
class Ran {
  constructor(token, ran) {
    if (token !== MADE) {
      throw usage("a Ran is made only by Evoke#run", "evoke.run(decision, person)");
    }
    /** Whether the body returned. */
    this.succeeded = ran.succeeded;
    /** The text the body returned, or null. */
    this.text = ran.text ?? null;
    /** The data the body returned beside its text, or null. */
    this.data = ran.data ?? null;
    /** Why the body failed, or null. */
    this.failure = ran.failure ?? null;
    /** The frames of a failed body's stack, innermost first, as its line carries them; empty otherwise. */
    this.frames = Object.freeze(this.succeeded ? [] : (JSON.parse(ran.line).frames ?? []));
    /** The JSON line of the call with its result, as `evoke --json` prints it. */
    this.json = ran.line;
    Object.freeze(this);
  }
}

/** How a plan's run ended: the exit class the command would end with, and each line it wrote. */
class PlanRan {
  constructor(token, ran) {
    if (token !== MADE) {
      throw usage("a PlanRan is made only by Evoke#runPlan", "evoke.runPlan(plan, person)");
    }
    /** The exit class as a number: 0 when every step ran and returned. */
    this.exit = ran.exit;
    /** The exit class's name: `Done` when every step ran and returned. */
    this.exitName = ran.name;
    /** Each line of the run as `evoke --json` prints them: a playbook's step 0 first, then one per step. */
    this.lines = Object.freeze(ran.lines);
    Object.freeze(this);
  }
}

// What a body threw or a result's read threw, as text. No value may make the reading itself throw: one
// String() cannot convert (an object with no prototype) is named by its tag instead.
function shown(value) {
  try {
    return value instanceof Error ? String(value.message) : String(value);
  } catch {
    try {
      return Object.prototype.toString.call(value);
    } catch {
      return "a value that cannot be shown";
    }
  }
}

// The frames of a thrown error's stack, innermost first, down to the body's caller in this file; none when
// the stack cannot be read.
function framesOf(e) {
  let stack;
  try {
    stack = e?.stack;
  } catch {
    return [];
  }
  const frames = [];
  for (const line of typeof stack === "string" ? stack.split("\n") : []) {
    const frame = line.trim();
    if (!frame.startsWith("at ")) continue;
    if (frame.includes(__filename)) break;
    frames.push(frame);
  }
  return frames;
}

// A body's failure as the addon reads it. Its text is made well-formed, since it is only shown.
function thrownJson(message, frames) {
  return JSON.stringify({ thrown: { message: message.toWellFormed(), frames: frames.map((f) => f.toWellFormed()) } });
}

// What `value`, found at `at` in a body's data, is when JSON cannot hold it as it is, or null when it can.
// JSON.stringify would write it changed (NaN as null, a Map as {}) or leave it out (a function, a symbol).
function unheld(value, inArray) {
  switch (typeof value) {
    case "number":
      return Number.isFinite(value) ? null : String(value);
    case "bigint":
      return `the BigInt ${value}n`;
    case "function":
      return "a function";
    case "symbol":
      return `the symbol ${shown(value)}`;
    case "undefined":
      // A property that is undefined reads the same once JSON leaves it out; an array's item would read null.
      return inArray ? "undefined" : null;
    case "string":
      return value.isWellFormed() ? null : "a string with a lone surrogate";
    case "object":
      break;
    default:
      return null;
  }
  if (value === null) return null;
  if (types.isMap(value) || types.isWeakMap(value)) return "a Map";
  if (types.isSet(value) || types.isWeakSet(value)) return "a Set";
  if (types.isPromise(value)) return "a promise";
  if (types.isRegExp(value)) return "a RegExp";
  if (types.isNativeError(value)) return "an Error";
  if (types.isAnyArrayBuffer(value) || types.isArrayBufferView(value)) return "binary data";
  if (types.isNumberObject(value) && !Number.isFinite(Number.prototype.valueOf.call(value))) {
    return `a Number of ${Number.prototype.valueOf.call(value)}`;
  }
  if (types.isSymbolObject(value)) return "a Symbol object";
  if (Object.getOwnPropertySymbols(value).some((key) => Object.prototype.propertyIsEnumerable.call(value, key))) {
    return "a symbol key";
  }
  return null;
}

// Where a key sits below the path of its holder: `data.n`, `data[0]`, `data["a b"]`.
function pathOf(holder, key, above) {
  if (Array.isArray(holder)) return `${above}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${above}.${key}` : `${above}[${JSON.stringify(key)}]`;
}

// A body's data as JSON, or a throw naming the first value JSON cannot hold and where it is.
function dataJson(data) {
  if (data === undefined || data === null) return "null";
  // The path of each object met, so a value below it is named by where it sits.
  const paths = new WeakMap();
  return JSON.stringify(data, function (key, value) {
    const above = paths.get(this);
    const at = above === undefined ? "data" : pathOf(this, key, above);
    const what = unheld(value, Array.isArray(this));
    if (what !== null) throw new Error(`${at} is ${what}, which JSON cannot hold`);
    if (typeof value === "object" && value !== null) paths.set(value, at);
    return value;
  });
}

// What a body handed as code gave, as the addon reads it: its text and data, or what it threw. Every read
// of the result is guarded, so no value a body throws or returns makes `run` itself throw.
function called(name, body, call) {
  let out;
  try {
    out = body(call);
  } catch (e) {
    return thrownJson(shown(e), framesOf(e));
  }
  const failed = (message) => thrownJson(message, []);
  // The result's `then`, `text` and `data` are each read once, so a getter cannot answer twice differently.
  let text;
  let data;
  try {
    if (typeof out?.then === "function") {
      // Nothing waits for the promise; a rejection of it must not end the process as an unhandled one.
      Promise.resolve(out).catch(() => {});
      return failed(`the body of ${name} returned a promise; a body handed as code returns its result before run does`);
    }
    if (typeof out === "string") {
      text = out;
    } else {
      text = out?.text;
      if (typeof text !== "string") {
        const kind = out === null ? "null" : typeof out;
        return failed(`the body of ${name} returned ${kind}, not a string or { text, data }`);
      }
      data = out.data;
    }
  } catch (e) {
    return failed(`the result the body of ${name} returned could not be read: ${shown(e)}`);
  }
  if (!text.isWellFormed()) {
    return failed(`the text the body of ${name} returned has a lone surrogate at index ${loneSurrogateIn(text)}, ` +
      "which no Unicode text holds");
  }
  try {
    return `{"text":${JSON.stringify(text)},"data":${dataJson(data)}}`;
  } catch (e) {
    return failed(`the data the body of ${name} returned is not JSON: ${shown(e)}`);
  }
}

// The reflexes handed as code, `{ name: { manifest, body } }`, as the addon takes them: names and
// manifests in one order, and the bodies in the same order, kept here on the JavaScript side.
function codeReflexes(reflexes) {
  // Each manifest and body is read once, so a getter cannot hand the check one value and the addon another.
  const read = Object.entries(reflexes ?? {}).map(([name, reflex]) => [name, reflex?.manifest, reflex?.body]);
  for (const [name, manifest, body] of read) {
    if (typeof manifest !== "string" || typeof body !== "function") {
      throw usage(`the reflex ${name} handed as code needs a manifest (its reflex.toml text) and a body function`,
        `reflexes: { ${name}: { manifest: "reflex = 1 …", body: (call) => "…" } }`);
    }
    for (const [what, text] of [["name", name], ["manifest", manifest]]) {
      const at = loneSurrogateIn(text);
      if (at >= 0) {
        throw usage(`the ${what} of the reflex ${name.toWellFormed()} handed as code has a lone surrogate at ` +
          `index ${at}, which no Unicode text holds`, `hand its ${what} as well-formed text (text.toWellFormed())`);
      }
    }
  }
  return {
    names: read.map(([name]) => name),
    manifests: read.map(([, manifest]) => manifest),
    bodies: read.map(([name, , body]) => (call) => called(name, body, call)),
  };
}

// A sentence is text: anything else is the program's mistake, not a sentence evoke could decide.
function sentenceOf(sentence, verb) {
  if (typeof sentence !== "string") {
    throw new TypeError(`${verb} takes the sentence as a string, not ${sentence === null ? "null" : typeof sentence}`);
  }
  // The addon would read a lone surrogate as U+FFFD, and evoke would decide and log a sentence nobody typed.
  const at = loneSurrogateIn(sentence);
  if (at >= 0) {
    throw usage(`the sentence has a lone surrogate at index ${at}, which no Unicode text holds; nothing was decided`,
      `${verb} the sentence as well-formed text (sentence.toWellFormed() shows where it breaks as U+FFFD)`);
  }
  return sentence;
}

/** A trusted project, opened with the engine that decides in it. */
class Evoke {
  #native;
  #bodies;

  constructor(token, nativeEvoke, bodies) {
    if (token !== MADE) {
      throw usage("an Evoke is made by Evoke.open or Evoke.inCode", "Evoke.open(dir, options)");
    }
    this.#native = nativeEvoke;
    this.#bodies = bodies;
  }

  /**
   * Opens the project in `dir`, refused unless it is trusted as it is now, with the reflexes handed as
   * code beside its own.
   * @param {string} dir a directory holding evoke.toml
   * @param {{recording?: string, home?: string, reflexes?: object}} [options]
   */
  static open(dir, options = {}) {
    if (typeof dir !== "string") {
      throw new TypeError("Evoke.open takes the project's directory as a string");
    }
    if (loneSurrogateIn(dir) >= 0) {
      throw usage(`Evoke.open takes the project's directory as well-formed text, and it has a lone surrogate at ` +
        `index ${loneSurrogateIn(dir)}; nothing was opened`, "Evoke.open(dir.toWellFormed())");
    }
    const { recording, home, reflexes } = optionsOf(options, "Evoke.open", ["recording", "home", "reflexes"]);
    const code = codeReflexes(reflexes);
    return guarded(() => {
      const opened = native.NativeEvoke.open(dir, recording, home, code.names, code.manifests);
      return new Evoke(MADE, opened, code.bodies);
    });
  }

  /**
   * A project built in code: only the reflexes handed over, with no files to trust.
   * @param {{recording?: string, home?: string, adapter?: string, reflexes?: object}} [options]
   */
  static inCode(options = {}) {
    const { recording, home, adapter, reflexes } =
      optionsOf(options, "Evoke.inCode", ["recording", "home", "adapter", "reflexes"]);
    const code = codeReflexes(reflexes);
    return guarded(() => {
      const opened = native.NativeEvoke.inCode(recording, home, adapter, code.names, code.manifests);
      return new Evoke(MADE, opened, code.bodies);
    });
  }

  /** Decides what `sentence` asks, running nothing. */
  decide(sentence) {
    return guarded(() => new Decision(MADE, this, this.#native.decide(sentenceOf(sentence, "decide"))));
  }

  /** Plans a sentence read as several steps, or a playbook it picks, running nothing. */
  plan(sentence) {
    return guarded(() => new Plan(MADE, this, this.#native.plan(sentenceOf(sentence, "plan"))));
  }

  /** The sealed plan file of a plan this Evoke made, as `evoke try --save FILE` writes it. */
  save(plan) {
    const made = Plan.nativeOf(plan, this);
    return guarded(() => this.#native.save(made));
  }

  /** The text `evoke why back` prints: 1 is the last decision or plan logged. */
  why(back = 1) {
    if (!Number.isInteger(back) || back < 1 || back > 0xffffffff) {
      throw usage(`why takes a count of decisions back from the last, 1 or more, not ${back}`, "evoke.why(1)");
    }
    return guarded(() => this.#native.why(back));
  }

  /**
   * Runs a decision this Evoke made, through `person`: a confirm runs only on `person.confirm`'s true;
   * an ask asks `person.ask` for each missing value and decides again.
   */
  run(decision, person = {}) {
    const made = Decision.nativeOf(decision, this);
    const ran = this.#through(person, (present, answer) => this.#native.run(made, present, answer));
    return new Ran(MADE, JSON.parse(ran));
  }

  /**
   * Runs a plan this Evoke made as the command runs one, through `person`: every missing value asked
   * first, a playbook's whole plan confirmed once, then each step through its gate at its turn. A plan
   * runs once.
   */
  runPlan(plan, person = {}) {
    const made = Plan.nativeOf(plan, this);
    const ran = this.#through(person, (present, answer) => this.#native.runPlan(made, present, answer));
    return new PlanRan(MADE, JSON.parse(ran));
  }

  // Calls `work` with the person's presence and the one callback the addon asks everything through:
  // confirms, asks, and the bodies handed as code.
  #through(person, work) {
    const present = ownOf(person, "present") ?? true;
    // An exception a callback throws stops the run (the Rust side is told only that it stopped) and
    // reaches the caller as it was thrown.
    let threw = null;
    const answer = (what, payload) => {
      try {
        if (what === "confirm") {
          const confirm = ownOf(person, "confirm");
          return JSON.stringify(typeof confirm === "function" && confirm.call(person, JSON.parse(payload)) === true);
        }
        if (what === "body") {
          const { index, call } = JSON.parse(payload);
          return this.#bodies[index](call);
        }
        if (what === "ask") {
          const ask = ownOf(person, "ask");
          const missing = JSON.parse(payload);
          const value = typeof ask === "function" ? ask.call(person, missing) : null;
          if (typeof value === "string" && loneSurrogateIn(value) >= 0) {
            // The addon cannot read it as text; it is refused here as any answer not among the choices is.
            throw new EvokeError(`the answer for \`${missing.arg}\` is not taken: it has a lone surrogate at index ` +
              `${loneSurrogateIn(value)}, which no Unicode text holds; nothing ran`, {
              exit: 5,
              exitName: "Declined",
              fix: `answer \`${missing.arg}\` with well-formed text among its choices`,
            });
          }
          return JSON.stringify(typeof value === "string" || typeof value === "number" ? value : null);
        }
      } catch (e) {
        threw = { e };
        return "not json";
      }
      return "null";
    };
    let done;
    try {
      done = work(present === true, answer);
    } catch (e) {
      if (threw) throw threw.e;
      throw rethrown(e);
    }
    if (threw) throw threw.e;
    return done;
  }
}

module.exports = { Evoke, Decision, Plan, Ran, PlanRan, EvokeError, Exit };
