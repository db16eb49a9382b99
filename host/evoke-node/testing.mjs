// What the tests in test/ share: the repository's places, the built `evoke` command, trusting a project
// in a home of the test's own, and a project with a destructive reflex. It sits outside test/ so that
// `node --test` does not count it as a test file.

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root. */
export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** A file of the manifests, bodies and recordings the library's tests share, in every language. */
export function fixture(name) {
  return readFileSync(join(repo, "host/evoke/tests/fixtures", name), "utf8");
}

/** A reflex handed as code whose body erases a folder of notes (destructive), and one that writes a note. */
export const WIPE_CODE = fixture("wipe-code.toml");
export const NOTE_CODE = fixture("note-code.toml");

/** The `evoke` command the workspace built; EVOKE_BIN names another. */
export const evokeBin = process.env.EVOKE_BIN ?? join(repo, "target/debug/evoke");

const made = [];
// Each test file runs in a process of its own, so its directories go when it ends.
process.on("exit", () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory under the system's temporary one, removed when the process ends. */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `evoke-node-${prefix}-`));
  made.push(dir);
  return dir;
}

/** `evoke ARGS` under `home`: its standard output, once it succeeded. */
export function evoke(home, args) {
  return execFileSync(evokeBin, args, { env: { ...process.env, EVOKE_HOME: home }, encoding: "utf8" });
}

/** Trusts `project` in `home`, as a person runs `evoke trust` there. */
export function trust(home, project) {
  evoke(home, ["-C", project, "trust"]);
}

/** A trace's timings differ from run to run; everything else in a line must not. */
export function withoutMs(line) {
  return line.replace(/"ms":\d+/g, '"ms":0');
}

const WIPE = fixture("wipe.toml");

// Leaves a mark for each run, so a test sees whether the body ran.
const WIPE_BODY = fixture("wipe.mjs");

const WIPE_RECORDING = `${fixture("wipe-recording.toml")}
[answers."erase the notes"]
route         = { wipe = 0.97, none = 0.03 }
"fits.wipe"   = { yes = 0.95 }
"wipe.folder" = { unstated = 0.9, work = 0.05, home = 0.05 }

[answers."make me a coffee"]
route         = { wipe = 0.02, none = 0.98 }
"fits.wipe"   = { yes = 0.02 }
`;

/**
 * A project with a destructive reflex, trusted in a home of its own: `{ root, home, recording, mark }`,
 * where `mark` is the file its body writes when it runs.
 */
export function wipeProject() {
  const root = tempDir("wipe");
  const home = tempDir("home");
  const write = (relative, text) => {
    const path = join(root, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  write("evoke.toml", '[reflexes]\nwipe = "reflexes/wipe"\n');
  write("reflexes/wipe/reflex.toml", WIPE);
  write("reflexes/wipe/wipe.mjs", WIPE_BODY);
  write("recording.toml", WIPE_RECORDING);
  trust(home, root);
  return { root, home, recording: join(root, "recording.toml"), mark: join(root, "reflexes/wipe/state/ran") };
}

/** The playbook transcript's project, copied where a test may trust it: `{ home, project, recording }`. */
export function playbookProject() {
  const root = tempDir("playbook");
  const home = tempDir("home");
  const from = join(repo, "transcripts/playbook");
  const project = join(root, "project");
  cpSync(join(from, "project"), project, { recursive: true });
  const recording = join(root, "recording.toml");
  cpSync(join(from, "recording.toml"), recording);
  trust(home, project);
  return { home, project, recording };
}
