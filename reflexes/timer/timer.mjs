// Starts a detached countdown that outlives the run (a body must return at once) and, when the
// time is up, appends a line to ~/.local/state/evoke-timers.log and rings the terminal bell if it can.
import { spawn } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";

export default function timer({ duration, label }) {
  const log = join(homedir(), ".local", "state", "evoke-timers.log");
  const name = label ?? "timer";
  const ring = `
    const { appendFileSync, mkdirSync } = require("node:fs");
    const { dirname } = require("node:path");
    setTimeout(() => {
      mkdirSync(dirname(${JSON.stringify(log)}), { recursive: true });
      appendFileSync(${JSON.stringify(log)}, new Date().toISOString() + " " + ${JSON.stringify(name)} + " is done\\n");
    }, ${Number(duration) * 1000});`;
  const child = spawn(process.execPath, ["-e", ring], { detached: true, stdio: "ignore" });
  child.unref();
  const minutes = duration % 60 === 0 ? `${duration / 60} min` : `${duration} s`;
  return { text: `${name} set for ${minutes}`, data: { seconds: duration, label: name, log } };
}
