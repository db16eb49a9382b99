// Reflexes handed as code from Node: a manifest's text and a JavaScript function as the body, decided as an
// installed reflex is, run only on the confirm's yes, and a body that throws a failed run with its frames.

import assert from "node:assert/strict";
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Evoke, EvokeError } from "../index.js";
import { NOTE_CODE as NOTE, WIPE_CODE as WIPE, tempDir, wipeProject } from "../testing.mjs";

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
`;

/** A project built in code with `body` as the wipe reflex's, answered by the recording. */
function inCode(body) {
  const home = tempDir("home");
  const recording = join(home, "recording.toml");
  writeFileSync(recording, RECORDING);
  return Evoke.inCode({ recording, home, reflexes: { wipe: { manifest: WIPE, body } } });
}

/** The error `work` throws; fails when it throws none. */
function thrownBy(work) {
  try {
    work();
  } catch (e) {
    return e;
  }
  assert.fail("it threw nothing");
}

test("a reflex handed as code runs its function, only on the confirm's yes", () => {
  const calls = [];
  const opened = inCode((call) => {
    calls.push(call);
    return `erased ${call.args.folder}`;
  });
  const decision = opened.decide("erase the work notes");
  assert.equal(decision.outcome, "confirm");
  assert.equal(decision.call, 'wipe folder="work"');

  assert.equal(thrownBy(() => opened.run(decision, { confirm: () => false })).exit, 5);
  assert.deepEqual(calls, [], "the body ran on a no");

  const ran = opened.run(decision, { confirm: () => true });
  assert.deepEqual([ran.succeeded, ran.text, ran.frames], [true, "erased work", []]);
  assert.deepEqual(calls, [{ args: { folder: "work" }, input: "erase the work notes", config: {} }]);
  assert.match(ran.json, /"result":\{"text":"erased work"\}/);
});

test("a body's text and data come back in the Ran", () => {
  const opened = inCode(({ args }) => ({ text: "erased", data: { folder: args.folder, notes: 3 } }));
  const ran = opened.run(opened.decide("erase the work notes"), { confirm: () => true });
  assert.equal(ran.text, "erased");
  assert.deepEqual(ran.data, { folder: "work", notes: 3 });
});

function wipeNotes() {
  throw new Error("disk is read-only");
}

test("a body that throws is a failed run carrying its message and frames", () => {
  const opened = inCode(() => wipeNotes());
  const ran = opened.run(opened.decide("erase the work notes"), { confirm: () => true });
  assert.deepEqual([ran.succeeded, ran.failure, ran.text], [false, "disk is read-only", null]);
  const line = JSON.parse(ran.json);
  assert.equal(line.error, "disk is read-only");
  assert.ok(Array.isArray(line.frames), ran.json);
  assert.match(line.frames[0], /^at wipeNotes \(.*code\.test\.mjs:\d+:\d+\)$/, ran.json);
  // The frames end at the program's body: none of the package's own are among them.
  assert.ok(!line.frames.some((frame) => frame.includes("index.js")), ran.json);
  assert.deepEqual(ran.frames, line.frames);
});

test("a body that returns no text, or a promise, is a failed run", () => {
  for (const [body, said] of [
    [() => 42, /returned number/],
    [async () => "erased", /returned a promise/],
    // Its rejection is nobody's to handle: it must not end the process.
    [async () => Promise.reject(new Error("too late")), /returned a promise/],
    [() => ({ text: "erased", data: 10n }), /not JSON/],
  ]) {
    const opened = inCode(body);
    const ran = opened.run(opened.decide("erase the work notes"), { confirm: () => true });
    assert.equal(ran.succeeded, false);
    assert.match(ran.failure, said);
  }
});

test("a manifest that does not read, or a name taken already, is an EvokeError of class 2", () => {
  const handed = (reflexes) => thrownBy(() => Evoke.inCode({ home: tempDir("home"), reflexes }));
  const withRun = handed({ wipe: { manifest: `run = "wipe.mjs"\n${WIPE}`, body: () => "" } });
  assert.ok(withRun instanceof EvokeError, String(withRun));
  assert.equal(withRun.exit, 2);
  const [fault] = withRun.diagnostics;
  assert.deepEqual([fault.key, fault.line, fault.fix], ["run", 1, "remove `run`"], JSON.stringify(fault));
  assert.match(fault.shown, /wipe \(handed as code\):1:1/);

  const badName = handed({ "Wipe Notes": { manifest: WIPE, body: () => "" } });
  assert.equal(badName.exit, 2);
  const noBody = handed({ wipe: { manifest: WIPE } });
  assert.equal(noBody.exit, 2);

  const { root, home } = wipeProject();
  const taken = thrownBy(() => Evoke.open(root, { home, reflexes: { wipe: { manifest: WIPE, body: () => "" } } }));
  assert.equal(taken.exit, 2);
  assert.match(taken.message, /installed already/);
});

test("a reflex handed as code is decided beside the project's own", () => {
  const { root, home, recording, mark } = wipeProject();
  appendFileSync(
    recording,
    `
[answers."note in work"]
route         = { note = 0.97, wipe = 0.01, none = 0.02 }
"fits.note"   = { yes = 0.95 }
"fits.wipe"   = { yes = 0.01 }
"note.folder" = { work = 0.97, home = 0.02, unstated = 0.01 }
`,
  );
  const opened = Evoke.open(root, {
    recording,
    home,
    reflexes: { note: { manifest: NOTE, body: ({ args }) => `noted in ${args.folder}` } },
  });
  const decision = opened.decide("note in work");
  assert.deepEqual([decision.outcome, decision.call], ["run", 'note folder="work"']);
  assert.deepEqual(decision.toJSON().contenders.map((c) => c.reflex), ["note", "wipe"]);
  assert.equal(opened.run(decision, { confirm: () => true }).text, "noted in work");
  assert.ok(!existsSync(mark), "the project's own reflex ran");
});

const TWO_STEPS = "erase the work notes, then add a note to my home notes";

/** A project built in code with the wipe and note reflexes, decided by the local engine. */
function wipeAndNote(body) {
  return Evoke.inCode({
    home: tempDir("home"),
    adapter: "local",
    reflexes: { wipe: { manifest: WIPE, body }, note: { manifest: NOTE, body } },
  });
}

test("a plan of reflexes handed as code runs step by step, each through the person", () => {
  const calls = [];
  const opened = wipeAndNote((call) => (calls.push(call.args.folder), `done in ${call.args.folder}`));
  const declined = opened.runPlan(opened.plan(TWO_STEPS), { confirm: () => false });
  assert.deepEqual([declined.exit, declined.exitName], [5, "Declined"], declined.lines.join("\n"));
  assert.deepEqual(calls, [], "a step ran on a no");

  const asked = [];
  const plan = opened.plan(TWO_STEPS);
  const ran = opened.runPlan(plan, { confirm: (question) => (asked.push(question), true) });
  assert.deepEqual([ran.exit, ran.exitName], [0, "Done"], ran.lines.join("\n"));
  assert.deepEqual(ran.lines.map((line) => JSON.parse(line).status), ["ran", "ran"]);
  assert.deepEqual(calls, ["work", "home"]);
  // The destructive step confirmed at its turn, whatever else asked.
  assert.ok(asked.some((question) => question.text === "Erase the work notes?"), JSON.stringify(asked));

  // A plan runs once, and is saved only before it runs.
  assert.equal(thrownBy(() => opened.runPlan(plan, { confirm: () => true })).exit, 2);
  assert.equal(thrownBy(() => opened.save(plan)).exit, 2);
  assert.deepEqual(calls, ["work", "home"]);
});

test("a body may decide and run again, in its own Evoke or another, before it returns", () => {
  const other = inCode((call) => `other erased ${call.args.folder}`);
  let depth = 0;
  let opened;
  opened = inCode((call) => {
    depth += 1;
    if (depth > 1) return `inner erased ${call.args.folder}`;
    const again = opened.run(opened.decide("erase the work notes"), { confirm: () => true });
    const elsewhere = other.run(other.decide("erase the work notes"), { confirm: () => true });
    return `outer, then ${again.text}, then ${elsewhere.text}`;
  });
  const ran = opened.run(opened.decide("erase the work notes"), { confirm: () => true });
  assert.equal(ran.text, "outer, then inner erased work, then other erased work", ran.json);
  assert.equal(depth, 2);
});

test("a plan saved pins a reflex handed as code by its item alone", () => {
  const body = () => "done";
  const opened = wipeAndNote(body);
  const plan = opened.plan(TWO_STEPS);
  assert.equal(plan.steps.length, 2, plan.json);
  const file = JSON.parse(opened.save(plan));
  assert.deepEqual(Object.keys(file.reflexes).sort(), ["note", "wipe"]);
  assert.match(file.reflexes.wipe.item, /^sha256:/);
  assert.deepEqual(Object.keys(file.reflexes.wipe), ["item"]);

  const other = Evoke.inCode({ home: tempDir("home"), adapter: "local", reflexes: { wipe: { manifest: WIPE, body } } });
  assert.equal(thrownBy(() => other.save(plan)).exit, 2);
  assert.equal(thrownBy(() => opened.save(JSON.parse(plan.json))).exit, 2);
});
