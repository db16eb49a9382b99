// The Node package as a hostile or careless program uses it: callbacks that answer with odd types or
// throw what is no Error, bodies whose results break when read, forged and cloned decisions, polluted
// prototypes, mutated fields, re-entrant calls, worker threads and garbage collection while a body runs.
// Each test is a promise named for its rule, and fails when the promise breaks.

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
import { NOTE_CODE as NOTE, WIPE_CODE as WIPE, tempDir } from "../testing.mjs";

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
  for (const answer of [0, 3, -1, 1.5, NaN, Infinity, 1e21, 2n, true, "garden", "work\u0000", "work\ud800", ["work"]]) {
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
    () => Evoke.open(".", { recording: 5 }),
    () => Evoke.inCode({ adapter: 5 }),
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

// The rules below each close a way a careless or hostile program could reach past the binding.

test("a body that throws a value String() cannot convert is a failed run, not a throw from run", () => {
  // What the body threw is read as text for its failure; no value may make that reading throw through `run`.
  const unreadable = new Proxy({}, {
    get: () => {
      throw new Error("get");
    },
    getPrototypeOf: () => {
      throw new Error("getPrototypeOf");
    },
  });
  for (const [value, failure] of [[Object.create(null), /^\[object Object\]$/], [unreadable, /./]]) {
    const opened = wiping(() => {
      throw value;
    });
    const done = outcomeOf(() => opened.run(opened.decide("erase the work notes"), yes));
    assert.equal(done.threw, undefined, `run threw ${String(done.threw?.message ?? done.threw)}`);
    assert.equal(done.returned.succeeded, false);
    assert.match(done.returned.failure, failure);
    assert.equal(JSON.parse(done.returned.json).error, done.returned.failure);
  }
});

test("a body whose result throws when read is a failed run, not a throw from run", () => {
  // The result's `then`, `text` and `data` are read inside a guard: a getter or a proxy that throws is the
  // run's failure, as the log records it.
  for (const result of [
    {
      get text() {
        throw new Error("text getter");
      },
    },
    {
      text: "erased",
      get data() {
        throw new Error("data getter");
      },
    },
    new Proxy({}, { get: () => { throw new Error("proxy"); } }),
  ]) {
    const opened = wiping(() => result);
    const done = outcomeOf(() => opened.run(opened.decide("erase the work notes"), yes));
    assert.equal(done.threw, undefined, `run threw ${done.threw?.message}`);
    assert.equal(done.returned.succeeded, false);
    assert.match(done.returned.failure, /could not be read: (text getter|data getter|proxy)$/);
    assert.equal(JSON.parse(done.returned.json).error, done.returned.failure);
  }
});

test("a destructive call waits for the person's own confirm, not one inherited from Object.prototype", () => {
  // A person's `confirm`, `ask` and `present` are its own properties: a polluted Object.prototype answers
  // nothing for a program that handed no person at all.
  const calls = [];
  const opened = wiping(counted(calls));
  const decision = opened.decide("erase the work notes");
  const asked = opened.decide("erase the notes");
  Object.prototype.confirm = () => true;
  Object.prototype.ask = () => "work";
  let done;
  let answered;
  try {
    done = outcomeOf(() => opened.run(decision));
    answered = outcomeOf(() => opened.run(asked, { confirm: () => true }));
  } finally {
    delete Object.prototype.confirm;
    delete Object.prototype.ask;
  }
  assert.deepEqual(calls, [], "the destructive body ran with no confirm of the program's");
  assert.equal(done.threw?.exit, 5);
  assert.equal(answered.threw?.exit, 5);
  // Its own properties answer as before, and so do the methods of the class it is made from.
  assert.equal(opened.run(asked, { ask: () => "home", confirm: () => true }).text, "erased home");
  class Answers {
    confirm() {
      return true;
    }
    ask() {
      return "home";
    }
  }
  assert.equal(opened.run(opened.decide("erase the notes"), new Answers()).text, "erased home");
});

test("a decision's fields stay the line it runs, whatever the program does to what it read", () => {
  // The getters hand out a fresh copy each read, so a mutation of what a program read never shows a call
  // other than the one that runs.
  const calls = [];
  const opened = wiping(counted(calls));
  const decision = opened.decide("erase the work notes");
  decision.values.folder = "home";
  decision.prompt.own = 'wipe folder="home"';
  assert.deepEqual(decision.values, JSON.parse(decision.json).values);
  assert.deepEqual(decision.prompt, JSON.parse(decision.json).prompt);
  assert.equal(opened.run(decision, yes).text, "erased work");
  const asked = opened.decide("erase the notes");
  asked.missing[0].arg = "elsewhere";
  assert.deepEqual(asked.missing, JSON.parse(asked.json).missing);
  const planned = wipingAndNoting(counted(calls));
  const plan = planned.plan(TWO_STEPS);
  plan.steps.pop();
  plan.steps[0].input = "changed";
  plan.verdict.changed = true;
  assert.deepEqual(plan.steps, JSON.parse(plan.json).steps);
  assert.deepEqual(plan.verdict, JSON.parse(plan.json).verdict);
  assert.equal(planned.runPlan(plan, yes).exitName, "Done");
  assert.deepEqual(calls, ["work", "work", "home"]);
});

test("a runPlan refused inside a plan's callback leaves its plan to run later", () => {
  // The plan is taken only once the Rust library accepts its run: a refused run spends nothing, and the
  // plan still saves and runs once the plan under way has returned.
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

test("a body run by runPlan cannot run a decision of its Evoke", () => {
  // As docs/node.md says, a body called by runPlan may not run a decision, even one made before: it is an
  // EvokeError inside the body, and the destructive body does not run again.
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

test("a sentence is decided as typed or refused, never with a character replaced", () => {
  // A lone surrogate would reach the addon as U+FFFD, so evoke would decide and log a sentence nobody
  // typed: it is refused as class 2, as the Python binding refuses it.
  const opened = wipingAndNoting(() => "erased");
  const sentence = "erase the work notes \ud800";
  for (const verb of ["decide", "plan"]) {
    const done = outcomeOf(() => opened[verb](sentence));
    assert.ok(done.threw instanceof EvokeError, String(done.threw ?? done.returned?.input));
    assert.equal(done.threw.exit, 2);
    assert.match(done.threw.message, /lone surrogate at index 21/);
    assert.ok(!done.threw.message.includes("\ufffd"), done.threw.message);
    assert.ok(done.threw.fix, "the refusal has no fix");
  }
  // A surrogate pair is one character, decided as typed.
  assert.equal(opened.decide("erase the work notes \ud83d\ude42").input, "erase the work notes \ud83d\ude42");
});

test("a body that runs its Evoke again without end fails its run, and the process lives on", () => {
  // Each nesting of run inside a body puts the Rust library's frames between two JavaScript frames, where
  // V8's stack guard does not see them: the library's bound on nesting refuses the call past it as class 2,
  // so the process lives on instead of dying of SIGSEGV. It runs in a child, which a crash would end alone.
  const index = fileURLToPath(new URL("../index.js", import.meta.url));
  const source = `
    import { writeFileSync } from "node:fs";
    import { join } from "node:path";
    import { Evoke } from ${JSON.stringify(index)};
    const home = process.argv[1];
    writeFileSync(join(home, "recording.toml"), ${JSON.stringify(RECORDING)});
    let opened;
    let refused;
    const body = () => {
      try {
        return opened.run(opened.decide("erase the work notes"), { confirm: () => true }).text;
      } catch (e) {
        refused ??= e?.exit;
        throw e;
      }
    };
    opened = Evoke.inCode({
      recording: join(home, "recording.toml"),
      home,
      reflexes: { wipe: { manifest: ${JSON.stringify(WIPE)}, body } },
    });
    try {
      const ran = opened.run(opened.decide("erase the work notes"), { confirm: () => true });
      console.log("ran", ran.succeeded, "refused", refused);
    } catch (e) {
      console.log("threw", e?.constructor?.name, "refused", refused);
    }
  `;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", source, tempDir("home")], {
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.deepEqual([child.status, child.signal], [0, null], child.stderr.slice(-2000));
  assert.match(child.stdout, /^(ran false|threw \w+) refused 2$/m);
});

test("options it does not know, or of the wrong type, are refused rather than ignored", () => {
  // Reflexes handed at the top level, or a number for the options or for `reflexes`, would open an Evoke
  // with no reflexes, which abstains on every sentence: each is class 2, naming the option and its fix.
  const home = tempDir("home");
  const wipe = { manifest: WIPE, body: () => "erased" };
  for (const [options, named, fix] of [
    [{ home, adapter: "local", wipe }, /`wipe`/, /reflexes: \{ wipe/],
    [{ home, adapter: "local", reflexes: 5 }, /options\.reflexes .* not number/, /reflexes: \{/],
    [{ home, adapter: "local", reflexes: [wipe] }, /options\.reflexes .* not an array/, /reflexes: \{/],
    [{ home, recording: 5 }, /options\.recording as a string, not number/, /recording: "/],
    [5, /options as an object, not number/, /Evoke\.inCode\(\{/],
    ["local", /options as an object, not string/, /Evoke\.inCode\(\{/],
  ]) {
    const done = outcomeOf(() => Evoke.inCode(options));
    assert.ok(done.threw instanceof EvokeError, `opened with ${JSON.stringify(options)}`);
    assert.equal(done.threw.exit, 2);
    assert.match(done.threw.message, named);
    assert.match(done.threw.fix, fix);
  }
  const unknown = thrownBy(() => Evoke.open(".", { home, adapter: "local" }));
  assert.deepEqual([unknown.exit, /`adapter`/.test(unknown.message)], [2, true], unknown.message);
  // An option inherited from a polluted Object.prototype is not read.
  Object.prototype.adapter = 5;
  try {
    const opened = Evoke.inCode({ home, adapter: "local", reflexes: { wipe } });
    assert.equal(opened.decide("erase the work notes").reflex, "wipe");
  } finally {
    delete Object.prototype.adapter;
  }
});

test("a body's data that JSON cannot hold is a failed run, not data silently changed", () => {
  // JSON.stringify alone would write NaN and Infinity as null and a Map as {}, and leave a function or a
  // symbol out, so the run would succeed with data the body never returned: each is a failed run naming it.
  for (const [data, named] of [
    [NaN, /^data is NaN/],
    [{ n: Infinity }, /^data\.n is Infinity/],
    [{ list: [1, -Infinity] }, /^data\.list\[1\] is -Infinity/],
    [new Map([["a", 1]]), /^data is a Map/],
    [{ "a b": new Set([1]) }, /^data\["a b"\] is a Set/],
    [{ f: () => 1 }, /^data\.f is a function/],
    [[Symbol("s")], /^data\[0\] is the symbol Symbol\(s\)/],
    [{ big: 2n }, /^data\.big is the BigInt 2n/],
    [[undefined], /^data\[0\] is undefined/],
    [{ text: "\ud800" }, /^data\.text is a string with a lone surrogate/],
    [{ [Symbol("key")]: 1 }, /^data is a symbol key/],
  ]) {
    const opened = wiping(() => ({ text: "erased", data }));
    const ran = opened.run(opened.decide("erase the work notes"), yes);
    assert.equal(ran.succeeded, false, `succeeded with ${JSON.stringify(ran.data)}`);
    const said = ran.failure.replace("the data the body of wipe returned is not JSON: ", "");
    assert.match(said, named);
    assert.match(said, /which JSON cannot hold$/);
  }
  // What JSON holds as it is stays as it was: a property left undefined reads the same once left out, and
  // a Date is written as its toJSON text.
  const when = new Date(0);
  const opened = wiping(() => ({ text: "erased", data: { n: 1.5, none: undefined, when, list: [null, "é"] } }));
  const ran = opened.run(opened.decide("erase the work notes"), yes);
  assert.deepEqual(ran.data, { n: 1.5, when: when.toJSON(), list: [null, "é"] });
  // A body's text with a lone surrogate is no text either.
  const broken = wiping(() => "erased \udc00");
  assert.match(broken.run(broken.decide("erase the work notes"), yes).failure, /lone surrogate at index 7/);
});
