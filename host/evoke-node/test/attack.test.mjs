// The Node package as a hostile or careless program uses it: callbacks that answer with odd types or
// throw what is no Error, bodies whose results break when read, forged and cloned decisions, polluted
// prototypes, mutated fields, re-entrant calls, worker threads and garbage collection while a body runs.
// A promise that holds is a test here; a promise that breaks is a skipped test named for the rule, which
// fails once it is no longer skipped.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import v8 from "node:v8";
import vm from "node:vm";
import { Worker } from "node:worker_threads";
import { Decision, Evoke, EvokeError, Plan } from "../index.js";
import { tempDir } from "../testing.mjs";

const WIPE = `reflex = 1
description = "Erase every note in one folder."
effect = "destructive"
confirm = "Erase the {folder} notes?"

[args.folder]
ask = "Which folder?"
options.work = "The work notes."
options.home = "The home notes."

[examples]
"erase the work notes" = { folder = "work" }
"wipe my home notes" = { folder = "home" }
`;

const NOTE = `reflex = 1
description = "Write a note in one folder."
effect = "write"
confirm = "Note in {folder}?"

[args.folder]
ask = "Which folder?"
options.work = "The work notes."
options.home = "The home notes."

[examples]
"note in work" = { folder = "work" }
"add a note to my home notes" = { folder = "home" }
`;

const RECORDING = `id = "replay"

[gate]
route = 0.5
fits  = 0.3
read  = 0.6
write = 0.8

[answers."erase the work notes"]
route         = { wipe = 0.97, none = 0.03 }
"fits.wipe"   = { yes = 0.95 }
"wipe.folder" = { work = 0.97, home = 0.02, unstated = 0.01 }

[answers."erase the notes"]
route         = { wipe = 0.97, none = 0.03 }
"fits.wipe"   = { yes = 0.95 }
"wipe.folder" = { unstated = 0.9, work = 0.05, home = 0.05 }
`;

const TWO_STEPS = "erase the work notes, then add a note to my home notes";

/** A project built in code whose destructive `wipe` reflex has `body`, answered by the recording. */
function wiping(body) {
  const home = tempDir("home");
  const recording = join(home, "recording.toml");
  writeFileSync(recording, RECORDING);
  return Evoke.inCode({ recording, home, reflexes: { wipe: { manifest: WIPE, body } } });
}

/** A project built in code with `wipe` and `note`, both with `body`, decided by the local engine. */
function wipingAndNoting(body) {
  return Evoke.inCode({
    home: tempDir("home"),
    adapter: "local",
    reflexes: { wipe: { manifest: WIPE, body }, note: { manifest: NOTE, body } },
  });
}

/** A body that counts its calls in `calls` and says which folder it erased. */
function counted(calls) {
  return (call) => {
    calls.push(call.args.folder);
    return `erased ${call.args.folder}`;
  };
}

/** What `work` throws; fails when it throws nothing. */
function thrownBy(work) {
  try {
    work();
  } catch (e) {
    return e;
  }
  assert.fail("it threw nothing");
}

/** What `work` returns, or what it throws: whichever it did. */
function outcomeOf(work) {
  try {
    return { returned: work() };
  } catch (e) {
    return { threw: e };
  }
}

const yes = { confirm: () => true };

test("a confirm that answers anything but true is a no, whatever its type", () => {
  const calls = [];
  const opened = wiping(counted(calls));
  const decision = opened.decide("erase the work notes");
  assert.equal(decision.outcome, "confirm");
  const answers = [
    "yes",
    "true",
    1,
    {},
    [true],
    new Boolean(true),
    { valueOf: () => true, toString: () => "true" },
    Promise.resolve(true),
    (function* () {
      yield true;
    })(),
    () => true,
  ];
  for (const answer of answers) {
    const refused = thrownBy(() => opened.run(decision, { confirm: () => answer }));
    assert.ok(refused instanceof EvokeError, `${String(refused)} for ${typeof answer}`);
    assert.equal(refused.exit, 5, `${typeof answer} ${String(answer)}`);
  }
  // An async callback's promise resolves to true, and is still no yes.
  assert.equal(thrownBy(() => opened.run(decision, { confirm: async () => true })).exit, 5);
  assert.deepEqual(calls, [], "the body ran on an answer that is not true");
});

test("a callback that throws what is no Error reaches the caller as thrown, and nothing runs", () => {
  const calls = [];
  const opened = wiping(counted(calls));
  const decision = opened.decide("erase the work notes");
  const odd = Symbol("odd");
  const nullProto = Object.create(null);
  for (const value of [42, "a string", null, odd, nullProto]) {
    const thrown = thrownBy(() =>
      opened.run(decision, {
        confirm: () => {
          throw value;
        },
      }),
    );
    assert.equal(thrown, value);
  }
  // undefined is thrown too: the caller sees it, not an EvokeError standing for it.
  let caught = "nothing";
  try {
    opened.run(decision, {
      confirm: () => {
        throw undefined;
      },
    });
  } catch (e) {
    caught = e;
  }
  assert.equal(caught, undefined);
  const asked = opened.decide("erase the notes");
  assert.equal(asked.outcome, "ask");
  assert.equal(
    thrownBy(() =>
      opened.run(asked, {
        ask: () => {
          throw 7;
        },
        confirm: () => true,
      }),
    ),
    7,
  );
  assert.deepEqual(calls, []);
});

test("a body that throws a number, a string, undefined or a symbol is a failed run", () => {
  for (const [value, failure] of [
    [42, "42"],
    ["disk full", "disk full"],
    [undefined, "undefined"],
    [Symbol("gone"), "Symbol(gone)"],
  ]) {
    const opened = wiping(() => {
      throw value;
    });
    const ran = opened.run(opened.decide("erase the work notes"), yes);
    assert.deepEqual([ran.succeeded, ran.failure, ran.text], [false, failure, null], ran.json);
    assert.equal(JSON.parse(ran.json).error, failure);
  }
});

test("a body's results that JSON cannot hold are failed runs, and the process lives on", () => {
  const cyclic = {};
  cyclic.self = cyclic;
  let deep = {};
  for (let i = 0; i < 100_000; i += 1) deep = { deep };
  let nested = {};
  for (let i = 0; i < 300; i += 1) nested = { nested };
  for (const [returned, said] of [
    [{ text: "x", data: cyclic }, /not JSON/],
    [{ text: "x", data: deep }, /not JSON/],
    [{ text: "x", data: nested }, /not JSON/],
    [{ text: "x", data: { toJSON: () => { throw new Error("no"); } } }, /not JSON: no/],
    ["x".repeat(2 << 20), /more than 1048576 bytes/],
    [new String("text"), /returned object/],
    [{ text: { toString: () => "text" } }, /returned object/],
  ]) {
    const opened = wiping(() => returned);
    const ran = opened.run(opened.decide("erase the work notes"), yes);
    assert.equal(ran.succeeded, false, ran.json);
    assert.match(ran.failure, said);
  }
});

test("a body's text keeps its control characters and its unicode", () => {
  const text = "a\u0000b\u001b[31m\u2028é🙂";
  const opened = wiping(() => ({ text, data: { text } }));
  const ran = opened.run(opened.decide("erase the work notes"), yes);
  assert.equal(ran.text, text);
  assert.deepEqual(ran.data, { text });
  assert.equal(JSON.parse(ran.json).result.text, text);
});

test("an ask's answer is taken only among its choices, whatever its type", () => {
  const calls = [];
  const opened = wiping(counted(calls));
  const decision = opened.decide("erase the notes");
  assert.equal(decision.outcome, "ask");
  for (const answer of [0, 3, -1, 1.5, NaN, Infinity, 1e21, 2n, true, "garden", "work\u0000", ["work"]]) {
    const refused = thrownBy(() => opened.run(decision, { ask: () => answer, confirm: () => true }));
    assert.ok(refused instanceof EvokeError, String(refused));
    assert.equal(refused.exit, 5, `${typeof answer} ${String(answer)}`);
  }
  for (const answer of [new String("work"), { toString: () => "work" }, Promise.resolve("work")]) {
    const refused = thrownBy(() => opened.run(decision, { ask: () => answer, confirm: () => true }));
    assert.equal(refused.exit, 5, String(answer));
  }
  assert.deepEqual(calls, [], "a body ran on an answer not among the choices");
  assert.equal(opened.run(decision, { ask: () => 2, confirm: () => true }).text, "erased home");
  assert.equal(opened.run(decision, { ask: () => "work", confirm: () => true }).text, "erased work");
});

test("no copy, clone, proxy or prototype of a decision or a plan runs", () => {
  const calls = [];
  const opened = wipingAndNoting(counted(calls));
  const decision = opened.decide("erase the work notes");
  const forged = [
    structuredClone(decision),
    structuredClone(decision.toJSON()),
    Object.assign(Object.create(Decision.prototype), decision),
    new Proxy(decision, {}),
    Object.create(decision),
  ];
  for (const copy of forged) {
    const refused = thrownBy(() => opened.run(copy, yes));
    assert.ok(refused instanceof EvokeError, String(refused));
    assert.equal(refused.exit, 2);
  }
  const plan = opened.plan(TWO_STEPS);
  for (const copy of [structuredClone(plan), new Proxy(plan, {}), Object.create(Plan.prototype)]) {
    assert.equal(thrownBy(() => opened.runPlan(copy, yes)).exit, 2);
    assert.equal(thrownBy(() => opened.save(copy)).exit, 2);
  }
  assert.deepEqual(calls, []);
  // The real ones still run.
  assert.equal(opened.run(decision, yes).text, "erased work");
  assert.equal(opened.runPlan(plan, yes).exitName, "Done");
});

test("the native addon takes no object of another class for a decision", () => {
  const native = createRequire(import.meta.url)("../evoke.node");
  const opened = native.NativeEvoke.inCode(null, tempDir("home"), "local", [], []);
  const answer = () => "true";
  for (const stand of [opened, {}, Object.create(native.NativeDecision.prototype)]) {
    assert.throws(() => opened.run(stand, true, answer), /NativeDecision/);
  }
  assert.throws(() => new native.NativeDecision(), /constructor/);
});

test("an Evoke goes on after each kind of error", () => {
  const calls = [];
  const opened = wiping(counted(calls));
  const decision = opened.decide("erase the work notes");
  assert.equal(thrownBy(() => opened.decide("nothing the recording heard")).exit, 6);
  assert.ok(thrownBy(() => opened.decide(42)) instanceof TypeError);
  assert.equal(thrownBy(() => opened.run(decision, { confirm: () => false })).exit, 5);
  assert.equal(thrownBy(() => opened.run({}, yes)).exit, 2);
  assert.equal(thrownBy(() => opened.why(0)).exit, 2);
  assert.equal(thrownBy(() => opened.why("1")).exit, 2);
  assert.equal(
    thrownBy(() =>
      opened.run(decision, {
        confirm: () => {
          throw new Error("mine");
        },
      }),
    ).message,
    "mine",
  );
  assert.equal(opened.run(decision, yes).text, "erased work");
  assert.deepEqual(calls, ["work"]);
});

test("garbage collected while a body runs, a run still ends with its result", () => {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  let dropped = wiping(() => {
    dropped = null;
    for (let i = 0; i < 3; i += 1) {
      new Array(100_000).fill({ i });
      gc();
    }
    return { text: "erased", data: { after: "gc" } };
  });
  const opened = dropped;
  for (let i = 0; i < 5; i += 1) {
    const ran = opened.run(opened.decide("erase the work notes"), {
      confirm: () => {
        gc();
        return true;
      },
    });
    assert.deepEqual([ran.text, ran.data], ["erased", { after: "gc" }]);
  }
});

test("a worker thread opens its own Evoke, and a decision sent to it is only data", async () => {
  const index = new URL("../index.js", import.meta.url).href;
  const testing = new URL("../testing.mjs", import.meta.url).href;
  const source = `
    import { parentPort, workerData } from "node:worker_threads";
    import { writeFileSync } from "node:fs";
    import { join } from "node:path";
    import { Evoke } from ${JSON.stringify(index)};
    import { tempDir } from ${JSON.stringify(testing)};
    const home = tempDir("worker");
    writeFileSync(join(home, "recording.toml"), workerData.recording);
    const opened = Evoke.inCode({
      recording: join(home, "recording.toml"),
      home,
      reflexes: { wipe: { manifest: workerData.manifest, body: (call) => "worker erased " + call.args.folder } },
    });
    let refused;
    try { opened.run(workerData.sent, { confirm: () => true }); } catch (e) { refused = e.exit; }
    const ran = opened.run(opened.decide("erase the work notes"), { confirm: () => true });
    parentPort.postMessage({ text: ran.text, refused });
  `;
  const decision = wiping(() => "main").decide("erase the work notes");
  const said = await Promise.all(
    [0, 1].map(
      () =>
        new Promise((resolve, reject) => {
          const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), {
            workerData: { recording: RECORDING, manifest: WIPE, sent: decision.toJSON() },
          });
          worker.once("message", resolve);
          worker.once("error", reject);
        }),
    ),
  );
  assert.deepEqual(said, [
    { text: "worker erased work", refused: 2 },
    { text: "worker erased work", refused: 2 },
  ]);
});

test("a body may run its own Evoke again from run, and each run keeps its own body", () => {
  const inner = [];
  let opened;
  opened = wiping((call) => {
    if (inner.length > 0) return `inner ${call.args.folder}`;
    inner.push("entered");
    const again = opened.run(opened.decide("erase the work notes"), yes);
    const other = wiping(() => "other");
    const elsewhere = other.run(other.decide("erase the work notes"), yes);
    return `outer, ${again.text}, ${elsewhere.text}`;
  });
  assert.equal(opened.run(opened.decide("erase the work notes"), yes).text, "outer, inner work, other");
});

test("a call of its Evoke from a plan's body is an EvokeError of class 2, and fails its step", () => {
  let opened;
  let inner;
  opened = wipingAndNoting(() => {
    inner ??= thrownBy(() => opened.decide("note in work"));
    throw inner;
  });
  const ran = opened.runPlan(opened.plan(TWO_STEPS), yes);
  assert.ok(inner instanceof EvokeError, String(inner));
  assert.equal(inner.exit, 2, inner.message);
  assert.match(inner.fix, /run_plan has returned/);
  assert.deepEqual([ran.exitName, ran.lines.map((line) => JSON.parse(line).status)], ["Failed", ["failed", "skipped"]]);
  // Once the plan has returned, the same call is made.
  assert.equal(opened.decide("note in work").call, 'note folder="work"');
});

test("wrong arguments to every verb are refused, and nothing runs", () => {
  const calls = [];
  const opened = wiping(counted(calls));
  const decision = opened.decide("erase the work notes");
  for (const wrong of [
    () => opened.decide(undefined),
    () => opened.plan(5),
    () => Evoke.open(5),
    () => Evoke.open(".", { recording: 5 }),
    () => Evoke.inCode({ adapter: 5 }),
    () => Evoke.prototype.decide.call({}, "erase the work notes"),
  ]) {
    assert.ok(thrownBy(wrong) instanceof TypeError, String(wrong));
  }
  for (const wrong of [
    () => opened.run(undefined),
    () => opened.run(null, yes),
    () => opened.runPlan(decision, yes),
    () => opened.save(decision),
    () => opened.why(-1),
    () => opened.why(NaN),
    () => opened.why(1.5),
    () => opened.why(2 ** 32),
    () => opened.why("1"),
    () => Evoke.inCode({ home: tempDir("home"), reflexes: { wipe: { manifest: 5, body: () => "" } } }),
  ]) {
    const refused = thrownBy(wrong);
    assert.ok(refused instanceof EvokeError, `${wrong}: ${refused}`);
    assert.equal(refused.exit, 2, String(wrong));
  }
  // A person of the wrong type confirms nothing.
  for (const person of [5, "yes", true]) {
    assert.equal(thrownBy(() => opened.run(decision, person)).exit, 5);
  }
  assert.deepEqual(calls, []);
});

// Defects: each test below fails on the code as it is; it is skipped so the suite stays green.

test.skip("a body that throws a value String() cannot convert is a failed run, not a throw from run", () => {
  // Defect: index.js `called` turns what the body threw into text with String(e) outside any guard, so an
  // object without a prototype makes `run` throw a TypeError, while the log says the run failed.
  const opened = wiping(() => {
    throw Object.create(null);
  });
  const done = outcomeOf(() => opened.run(opened.decide("erase the work notes"), yes));
  assert.equal(done.threw, undefined, `run threw ${String(done.threw?.message ?? done.threw)}`);
  assert.equal(done.returned.succeeded, false);
});

test.skip("a body whose result throws when read is a failed run, not a throw from run", () => {
  // Defect: index.js `called` reads the result's `then` and `text` outside its try, so a getter or a
  // proxy that throws escapes through `run`, while the log records "the body's answer is not JSON".
  for (const result of [
    {
      get text() {
        throw new Error("text getter");
      },
    },
    new Proxy({}, { get: () => { throw new Error("proxy"); } }),
  ]) {
    const opened = wiping(() => result);
    const done = outcomeOf(() => opened.run(opened.decide("erase the work notes"), yes));
    assert.equal(done.threw, undefined, `run threw ${done.threw?.message}`);
    assert.equal(done.returned.succeeded, false);
  }
});

test.skip("a destructive call waits for the person's own confirm, not one inherited from Object.prototype", () => {
  // Defect: index.js #through reads `person?.confirm` (and `ask`, `present`) through the prototype chain,
  // so a polluted Object.prototype answers yes for a program that handed no person at all.
  const calls = [];
  const opened = wiping(counted(calls));
  const decision = opened.decide("erase the work notes");
  Object.prototype.confirm = () => true;
  let done;
  try {
    done = outcomeOf(() => opened.run(decision));
  } finally {
    delete Object.prototype.confirm;
  }
  assert.deepEqual(calls, [], "the destructive body ran with no confirm of the program's");
  assert.equal(done.threw?.exit, 5);
});

test.skip("a decision's fields stay the line it runs, whatever the program does to what it read", () => {
  // Defect: the getters of index.js Decision (values, prompt, missing) and Plan (steps, verdict) hand out
  // the one object they keep, so a mutation sticks: the decision then shows a call it will not run.
  const calls = [];
  const opened = wiping(counted(calls));
  const decision = opened.decide("erase the work notes");
  decision.values.folder = "home";
  decision.prompt.own = 'wipe folder="home"';
  assert.deepEqual(decision.values, JSON.parse(decision.json).values);
  assert.deepEqual(decision.prompt, JSON.parse(decision.json).prompt);
  assert.equal(opened.run(decision, yes).text, "erased work");
});

test.skip("a runPlan refused inside a plan's callback leaves its plan to run later", () => {
  // Defect: NativeEvoke::run_plan (src/lib.rs) takes the plan out of its cell before the Rust library
  // refuses the call, so a plan that never ran is spent: "the plan has run already".
  const calls = [];
  const opened = wipingAndNoting(counted(calls));
  const outer = opened.plan(TWO_STEPS);
  const later = opened.plan(TWO_STEPS);
  let inner;
  const ran = opened.runPlan(outer, {
    confirm: () => {
      inner ??= thrownBy(() => opened.runPlan(later, yes));
      return true;
    },
  });
  assert.equal(ran.exitName, "Done");
  assert.equal(inner.exit, 2);
  assert.deepEqual(calls, ["work", "home"]);
  const saved = outcomeOf(() => opened.save(later));
  assert.equal(saved.threw, undefined, `save threw ${saved.threw?.message}`);
  assert.equal(opened.runPlan(later, yes).exitName, "Done");
});

test.skip("a body run by runPlan cannot run a decision of its Evoke", () => {
  // Defect: docs/node.md says a body called by runPlan may not decide and run (an EvokeError inside the
  // body); a decision made before runs anyway, since Evoke::run of a code reflex never reaches block_on
  // (host/evoke/src/sdk/open.rs), the only place the refusal is made.
  const calls = [];
  let opened;
  let decided;
  let inner;
  opened = wipingAndNoting((call) => {
    calls.push(call.args.folder);
    if (call.args.folder === "home") inner = outcomeOf(() => opened.run(decided, yes));
    return "done";
  });
  decided = opened.decide("erase the work notes");
  assert.equal(opened.runPlan(opened.plan(TWO_STEPS), yes).exitName, "Done");
  assert.ok(inner.threw instanceof EvokeError, `the inner run returned ${inner.returned?.text}`);
  assert.deepEqual(calls, ["work", "home"], "the destructive body ran again inside the plan");
});

test.skip("a sentence is decided as typed or refused, never with a character replaced", () => {
  // Defect: a lone surrogate in the sentence becomes U+FFFD when napi turns it into UTF-8
  // (NativeEvoke::decide takes a String), so evoke decides and logs a sentence nobody typed; the
  // Python binding refuses the same sentence.
  const opened = wipingAndNoting(() => "erased");
  const sentence = "erase the work notes \ud800";
  const done = outcomeOf(() => opened.decide(sentence));
  if (done.threw === undefined) {
    assert.equal(done.returned.input, sentence);
  } else {
    assert.ok(done.threw instanceof TypeError || done.threw instanceof EvokeError, String(done.threw));
    assert.ok(!done.threw.message.includes("\ufffd"), done.threw.message);
  }
});

test.skip("a body that runs its Evoke again without end fails its run, and the process lives on", () => {
  // Defect: each nesting of run inside a body puts the Rust library's decide and run (their futures polled
  // on the caller's stack by block_on, host/evoke/src/sdk/open.rs) between two JavaScript frames; V8's stack
  // guard does not see them, and at a depth near 40 the process dies of SIGSEGV instead of a RangeError.
  const index = fileURLToPath(new URL("../index.js", import.meta.url));
  const source = `
    import { writeFileSync } from "node:fs";
    import { join } from "node:path";
    import { Evoke } from ${JSON.stringify(index)};
    const home = process.argv[1];
    writeFileSync(join(home, "recording.toml"), ${JSON.stringify(RECORDING)});
    let opened;
    const body = () => opened.run(opened.decide("erase the work notes"), { confirm: () => true }).text;
    opened = Evoke.inCode({
      recording: join(home, "recording.toml"),
      home,
      reflexes: { wipe: { manifest: ${JSON.stringify(WIPE)}, body } },
    });
    try {
      const ran = opened.run(opened.decide("erase the work notes"), { confirm: () => true });
      console.log("ran", ran.succeeded);
    } catch (e) {
      console.log("threw", e?.constructor?.name);
    }
  `;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", source, tempDir("home")], {
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.deepEqual([child.status, child.signal], [0, null], child.stderr.slice(-2000));
  assert.match(child.stdout, /^(ran false|threw )/);
});

test.skip("options it does not know, or of the wrong type, are refused rather than ignored", () => {
  // Defect: Evoke.inCode and Evoke.open (index.js) read only the option keys they know and take
  // Object.entries of whatever `reflexes` is, so reflexes handed at the top level, a number for the
  // options or for `reflexes` open an Evoke with no reflexes, which abstains on every sentence.
  const home = tempDir("home");
  const wipe = { manifest: WIPE, body: () => "erased" };
  for (const options of [{ home, adapter: "local", wipe }, { home, adapter: "local", reflexes: 5 }, 5]) {
    const done = outcomeOf(() => Evoke.inCode(options));
    assert.ok(done.threw instanceof TypeError || done.threw instanceof EvokeError, `opened with ${String(options)}`);
  }
});

test.skip("a body's data that JSON cannot hold is a failed run, not data silently changed", () => {
  // Defect: index.js `called` hands the data to JSON.stringify, which fails only on a BigInt: NaN and
  // Infinity become null, a Map {}, and a function or a symbol vanishes, so the run succeeds with data
  // the body never returned. The Python binding fails the same bodies ("NaN is not a JSON number").
  for (const data of [NaN, { n: Infinity }, new Map([["a", 1]]), { f: () => 1 }, [Symbol("s")]]) {
    const opened = wiping(() => ({ text: "erased", data }));
    const ran = opened.run(opened.decide("erase the work notes"), yes);
    assert.equal(ran.succeeded, false, `succeeded with ${JSON.stringify(ran.data)}`);
  }
});
