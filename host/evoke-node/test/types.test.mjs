// index.d.ts, checked by `tsc` against a program that keeps to it and one that does not. The `tsc` is the
// one `.ci/build-components` installs into target/js-tools; without it the test is skipped, or fails
// under CI, which always installs it.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { repo, tempDir } from "../testing.mjs";

const tsc = join(repo, "target/js-tools/node_modules/.bin/tsc");
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

const KEEPS = `import { Evoke, EvokeError, Exit, type CodeReflex, type Person } from "evoke";

const greet: CodeReflex = {
  manifest: "reflex = 1",
  body: ({ args, input }) => ({ text: \`hello \${String(args.who)} (\${input})\`, data: { who: args.who } }),
};
const person: Person = {
  present: true,
  confirm: (question) => question.kind === "call" && question.own.length > 0,
  ask: (missing) => (missing.choices.type === "options" ? (Object.keys(missing.choices.options)[0] ?? null) : null),
};
try {
  const evoke = Evoke.open("home", { recording: "recording.toml", reflexes: { greet } });
  const decision = evoke.decide("turn on the kitchen lights");
  const outcome: "run" | "confirm" | "ask" | "abstain" = decision.outcome;
  const line: string = decision.json;
  const ran = evoke.run(decision, person);
  const text: string | null = ran.text ?? ran.failure;
  const plan = Evoke.inCode({ adapter: "local" }).plan("erase the notes, then write one");
  const saved: string = evoke.save(plan);
  const planRan: 0 | 1 | 2 | 3 | 4 | 5 | 6 = evoke.runPlan(plan, person).exit;
  console.log(outcome, line, text, saved, evoke.why(1), plan.steps.length, planRan);
} catch (e) {
  if (e instanceof EvokeError) {
    const exit: 1 | 2 | 3 | 4 | 5 | 6 = e.exit;
    if (exit === Exit.NeedsPerson) console.log("trust it first");
    console.log(exit, e.exitName, e.fix, e.diagnostics.map((d) => d.shown));
  }
}
`;

// Each line breaks the types once; the test expects an error on each.
const BREAKS = `import { Evoke, Decision } from "evoke";

const evoke = Evoke.open("home");
const decision = evoke.decide("turn on the kitchen lights");
evoke.run(decision, { confirm: () => "yes" });
evoke.run(JSON.parse(decision.json) as { outcome: "run"; input: string; json: string }, {});
Evoke.inCode({ reflexes: { greet: { manifest: "reflex = 1", body: () => 42 } } });
new Decision();
`;

/** `tsc --noEmit --strict` over `source`, importing this package as `evoke`: its status and output. */
function typeCheck(source) {
  const dir = tempDir("types");
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(packageDir, join(dir, "node_modules/evoke"), "dir");
  writeFileSync(join(dir, "program.mts"), source);
  const args = ["--noEmit", "--strict", "--module", "nodenext", "--target", "es2022", "program.mts"];
  const out = spawnSync(tsc, args, { cwd: dir, encoding: "utf8" });
  return { status: out.status, said: `${out.stdout}${out.stderr}` };
}

test("a program that keeps to index.d.ts checks, and one that breaks it does not", (t) => {
  if (!existsSync(tsc)) {
    assert.ok(!process.env.CI, `tsc is not installed at ${tsc}: run bash .ci/build-components`);
    t.skip("skipped (tsc not installed): bash .ci/build-components installs it");
    return;
  }
  const keeps = typeCheck(KEEPS);
  assert.equal(keeps.status, 0, keeps.said);

  const breaks = typeCheck(BREAKS);
  assert.notEqual(breaks.status, 0, breaks.said);
  const lines = [...breaks.said.matchAll(/program\.mts\((\d+),\d+\): error/g)].map((m) => Number(m[1]));
  assert.deepEqual([...new Set(lines)], [5, 6, 7, 8], breaks.said);
});
