// The Node package as a program uses it: the line `evoke try --json` prints, a destructive call that runs
// only on the confirm callback's yes, a decision that runs only where it was made, and every refusal an
// EvokeError with the command's exit class and fix.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Decision, Evoke, EvokeError, Exit } from "../index.js";
import { evoke, playbookProject, repo, tempDir, trust, wipeProject, withoutMs } from "../testing.mjs";

const home = join(repo, "docs/examples/home");
const sdkRecording = join(repo, "docs/examples/sdk.recording.toml");

/** The line `evoke try --json` prints for the kitchen sentence in the example project, timings aside. */
function triedKitchen(evokeHome) {
  const args = ["-C", home, "--recording", sdkRecording, "try", "--json", "turn on the kitchen lights"];
  return withoutMs(evoke(evokeHome, args).trimEnd());
}

/** Says one answer to every confirm, and keeps each question asked. */
function answers(yes, present = true) {
  const asked = [];
  return { asked, present, confirm: (question) => (asked.push(question), yes), ask: () => null };
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

test("decide writes the line evoke try --json prints, with values, and run runs it", () => {
  const evokeHome = tempDir("home");
  trust(evokeHome, home);
  const opened = Evoke.open(home, { recording: sdkRecording, home: evokeHome });
  const decision = opened.decide("turn on the kitchen lights");
  const expected = `${triedKitchen(evokeHome).slice(0, -1)},"values":{"room":"kitchen","state":"on"}}`;
  assert.equal(withoutMs(decision.json), expected);
  assert.deepEqual(decision.toJSON(), JSON.parse(decision.json));
  assert.equal(decision.outcome, "run");
  assert.equal(decision.call, 'lights room="kitchen" state="on"');
  assert.deepEqual(decision.values, { room: "kitchen", state: "on" });

  // The recording clears the write bar, so the call runs without the confirm callback being asked.
  const person = answers(true);
  const ran = opened.run(decision, person);
  assert.equal(ran.text, "kitchen lights on");
  assert.equal(ran.succeeded, true);
  assert.equal(ran.failure, null);
  assert.deepEqual(ran.data, { room: "kitchen", on: true, percent: 100 });
  assert.deepEqual(person.asked, []);
  assert.equal(JSON.parse(ran.json).result.text, "kitchen lights on");
});

test("the example prints the line evoke try prints, then runs it", () => {
  const evokeHome = tempDir("home");
  trust(evokeHome, home);
  const printed = execFileSync(process.execPath, [join(repo, "docs/examples/sdk.mjs")], {
    env: { ...process.env, EVOKE_HOME: evokeHome },
    encoding: "utf8",
  });
  const lines = printed.trimEnd().split("\n");
  assert.equal(lines.length, 2, printed);
  const expected = `${triedKitchen(evokeHome).slice(0, -1)},"values":{"room":"kitchen","state":"on"}}`;
  assert.equal(withoutMs(lines[0]), expected);
  assert.equal(lines[1], "kitchen lights on");
});

test("a destructive call runs only on the confirm callback's yes", () => {
  const { root, home: evokeHome, recording, mark } = wipeProject();
  const opened = Evoke.open(root, { recording, home: evokeHome });
  const decision = opened.decide("erase the work notes");
  assert.equal(decision.outcome, "confirm");
  assert.equal(decision.call, 'wipe folder="work"');
  assert.ok(decision.toJSON().because.some((b) => b.type === "destructive"), decision.json);

  const no = answers(false);
  const declined = thrownBy(() => opened.run(decision, no));
  assert.ok(declined instanceof EvokeError, String(declined));
  assert.deepEqual([declined.exit, declined.exitName, no.asked.length], [5, "Declined", 1]);
  assert.equal(no.asked[0].kind, "call");
  assert.equal(no.asked[0].text, "Erase the work notes?");
  assert.ok(!existsSync(mark), "the body ran on a no");

  // A confirm that answers anything but `true` is a no.
  const truthy = { confirm: () => "yes" };
  assert.equal(thrownBy(() => opened.run(decision, truthy)).exit, 5);
  assert.ok(!existsSync(mark), "the body ran on a truthy answer that is not true");

  const nobody = answers(true, false);
  const alone = thrownBy(() => opened.run(decision, nobody));
  assert.deepEqual([alone.exit, alone.exitName, nobody.asked.length], [3, "NeedsPerson", 0]);
  assert.ok(!existsSync(mark), "the body ran with nobody to ask");

  const yes = answers(true);
  const ran = opened.run(decision, yes);
  assert.deepEqual([ran.text, yes.asked.length], ["erased work", 1]);
  assert.equal(readFileSync(mark, "utf8"), "work");
});

test("an exception in the confirm callback reaches the caller, and nothing runs", () => {
  const { root, home: evokeHome, recording, mark } = wipeProject();
  const opened = Evoke.open(root, { recording, home: evokeHome });
  const decision = opened.decide("erase the work notes");
  const mine = new RangeError("the person's own failure");
  const thrown = thrownBy(() => opened.run(decision, { confirm: () => { throw mine; } }));
  assert.equal(thrown, mine);
  assert.ok(!existsSync(mark), "the body ran after the callback threw");
});

test("an ask asks the callback for the missing value, then confirms and runs", () => {
  const { root, home: evokeHome, recording, mark } = wipeProject();
  const opened = Evoke.open(root, { recording, home: evokeHome });
  const decision = opened.decide("erase the notes");
  assert.equal(decision.outcome, "ask");
  assert.deepEqual(decision.missing.map((m) => m.arg), ["folder"]);

  const unanswered = thrownBy(() => opened.run(decision, { ask: () => null, confirm: () => true }));
  assert.equal(unanswered.exit, 5);
  const alone = thrownBy(() => opened.run(decision, { present: false, ask: () => "work", confirm: () => true }));
  assert.equal(alone.exit, 3);
  const mine = new Error("the person's own failure");
  assert.equal(thrownBy(() => opened.run(decision, { ask: () => { throw mine; } })), mine);
  const wrong = thrownBy(() => opened.run(decision, { ask: () => "garden", confirm: () => true }));
  assert.equal(wrong.exit, 5);
  assert.match(wrong.message, /`folder`.*"garden" is not one of the choices/);
  assert.equal(wrong.fix, "answer `folder` with one of: work|home");
  assert.ok(!existsSync(mark), "the body ran without an answer among the choices");

  const asked = [];
  const person = { ask: (missing) => (asked.push(missing), "home"), confirm: () => true };
  const ran = opened.run(decision, person);
  assert.equal(ran.text, "erased home");
  assert.deepEqual(asked.map((m) => [m.arg, m.ask, m.choices.type]), [["folder", "Which folder?", "options"]]);
  assert.equal(readFileSync(mark, "utf8"), "home");
});

test("an abstain is decided, and running it is an EvokeError of class 4", () => {
  const { root, home: evokeHome, recording, mark } = wipeProject();
  const opened = Evoke.open(root, { recording, home: evokeHome });
  const decision = opened.decide("make me a coffee");
  assert.deepEqual([decision.outcome, decision.reflex, decision.call, decision.values], ["abstain", null, null, null]);
  assert.deepEqual(decision.toJSON().contenders, [{ reflex: "wipe", route: 0.02 }]);
  const person = answers(true);
  const refused = thrownBy(() => opened.run(decision, person));
  assert.deepEqual([refused.exit, refused.exitName, person.asked.length], [4, "Abstain", 0]);
  assert.ok(!existsSync(mark), "a body ran on an abstain");
});

test("a decision runs only in the Evoke that made it", () => {
  const first = wipeProject();
  const second = wipeProject();
  const opened = Evoke.open(first.root, { recording: first.recording, home: first.home });
  const other = Evoke.open(second.root, { recording: second.recording, home: second.home });
  const decision = other.decide("erase the work notes");
  const yes = answers(true);
  const refused = thrownBy(() => opened.run(decision, yes));
  assert.deepEqual([refused.exit, yes.asked.length], [2, 0]);

  // Nothing but a Decision decide made is taken: not its fields, not a copy, not a new one.
  const forged = JSON.parse(decision.json);
  assert.equal(thrownBy(() => other.run(forged, yes)).exit, 2);
  assert.equal(thrownBy(() => other.run(Object.create(Decision.prototype), yes)).exit, 2);
  assert.equal(thrownBy(() => new Decision()).exit, 2);
  assert.equal(yes.asked.length, 0);
  assert.ok(!existsSync(first.mark) && !existsSync(second.mark), "a body ran");
});

test("an untrusted project is an EvokeError of class 3 whose fix is evoke trust", () => {
  const refused = thrownBy(() => Evoke.open(home, { home: tempDir("home") }));
  assert.ok(refused instanceof EvokeError);
  assert.ok(refused instanceof Error);
  assert.equal(refused.name, "EvokeError");
  assert.deepEqual([refused.exit, refused.exitName, refused.fix], [3, "NeedsPerson", "evoke trust"]);
  assert.equal(refused.exit, Exit.NeedsPerson);
  const mistyped = thrownBy(() => Evoke.open(home, { home: 5 }));
  assert.deepEqual([mistyped.constructor, mistyped.exit], [EvokeError, 2], String(mistyped));
  assert.match(refused.message, /not trusted/);
});

test("a sentence that fails closed is an EvokeError of class 6", () => {
  const { root, home: evokeHome, recording } = wipeProject();
  const opened = Evoke.open(root, { recording, home: evokeHome });
  const refused = thrownBy(() => opened.decide("a sentence the recording never heard"));
  assert.deepEqual([refused instanceof EvokeError, refused.exit, refused.exitName], [true, 6, "Refused"]);
});

test("a plan is the line evoke try prints, and decide names plan for it", () => {
  const { home: evokeHome, project, recording } = playbookProject();
  const opened = Evoke.open(project, { recording, home: evokeHome });
  const plan = opened.plan("good night in the den");
  const tried = evoke(evokeHome, ["-C", project, "--recording", recording, "try", "--json", "good night in the den"]);
  assert.equal(withoutMs(plan.json), withoutMs(tried.trimEnd()));
  assert.equal(plan.playbook, "good_night");
  assert.equal(plan.steps.length, 4);

  const refused = thrownBy(() => opened.decide("good night in the den"));
  assert.equal(refused.exit, 2);
  assert.match(refused.fix, /Evoke::plan/);
  const one = thrownBy(() => opened.plan("turn off the den lamp"));
  assert.deepEqual([one.exit, one.fix], [2, "Evoke::decide"]);
});

/** The lines of a plan's run that are JSON, read. */
function jsonLines(ran) {
  return ran.lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line));
}

test("a playbook's plan runs through the person's one yes to its review", () => {
  const { home: evokeHome, project, recording } = playbookProject();
  const opened = Evoke.open(project, { recording, home: evokeHome });
  const no = answers(false);
  const declined = opened.runPlan(opened.plan("good night in the den"), no);
  assert.deepEqual([declined.exit, declined.exitName], [5, "Declined"], declined.lines.join("\n"));
  assert.deepEqual(no.asked, [{ kind: "own", text: "Run the 4 steps of the playbook good_night as shown?" }]);
  assert.ok(!jsonLines(declined).some((line) => line.status === "ran"), declined.lines.join("\n"));

  const yes = answers(true);
  const ran = opened.runPlan(opened.plan("good night in the den"), yes);
  assert.deepEqual([ran.exit, ran.exitName, yes.asked.length], [0, "Done", 1], ran.lines.join("\n"));
  const steps = jsonLines(ran).filter((line) => line.step > 0);
  assert.deepEqual(steps.map((line) => [line.call, line.status]), [
    ['check room="den"', "ran"],
    ['lamp room="den" state="off"', "ran"],
    ['lock door="front"', "ran"],
    ['lock door="back"', "ran"],
  ]);

  // Reviewed once, the playbook is not shown whole again, in this Evoke as in the next command: with no
  // one present, its steps that clear their bars run.
  const alone = opened.runPlan(opened.plan("good night in the den"), answers(true, false));
  assert.equal(alone.exit, 0, alone.lines.join("\n"));
});

test("why says what evoke why says", () => {
  const { root, home: evokeHome, recording } = wipeProject();
  const opened = Evoke.open(root, { recording, home: evokeHome });
  opened.decide("erase the work notes");
  const said = opened.why(1);
  assert.match(said, /erase the work notes/);
  assert.equal(said, evoke(evokeHome, ["-C", root, "why"]));
  assert.equal(thrownBy(() => opened.why(9)).exit, 2);
  assert.equal(thrownBy(() => opened.why(0)).exit, 2);
  assert.ok(thrownBy(() => opened.decide(undefined)) instanceof TypeError);
});
