// What the tests in test/ share: the repository's places, the built `evoke` command, trusting a project
// in a home of the test's own, and a project with a destructive reflex. It sits outside test/ so that
// `node --test` does not count it as a test file.

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root. */
export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

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

const WIPE = `reflex = 1
description = "Erase every note in one folder."
effect = "destructive"
confirm = "Erase the {folder} notes?"
run = "wipe.mjs"

[grants]
files = { "state" = "write" }

[args.folder]
ask = "Which folder?"
options.work = "The work notes."
options.home = "The home notes."

[examples]
"erase the work notes" = { folder = "work" }
`;

// Leaves a mark for each run, so a test sees whether the body ran.
const WIPE_BODY = `import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
export default function ({ folder }) {
  const state = join(dirname(fileURLToPath(import.meta.url)), "state");
  mkdirSync(state, { recursive: true });
  writeFileSync(join(state, "ran"), folder);
  return \`erased \${folder}\`;
}
`;

const WIPE_RECORDING = `id = "replay"

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
