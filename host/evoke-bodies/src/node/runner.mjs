// The runner evoke carries: imports a file body, calls its default export with (args, { input, config,
// signal }), and reports the result as one line of JSON on a channel of its own: fd 0 is a socket to
// evoke, read to its end for the call, then written with the result. The body's own stdout is evoke's
// stderr, so a stray line never corrupts a result.
import { readFileSync, writeSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [moduleFile, shownName] = process.argv.slice(2);
const moduleUrl = pathToFileURL(moduleFile).href;
const controller = new AbortController();
let reported = false;

function report(message) {
  if (reported) return;
  reported = true;
  writeSync(0, JSON.stringify(message) + "\n");
}

// The frames of the body's own file, from the first, named as the reflex names the file.
function frames(error) {
  const stack = typeof error?.stack === "string" ? error.stack.split("\n") : [];
  return stack
    .map((line) => line.trim())
    .filter((line) => line.startsWith("at ") && (line.includes(moduleUrl) || line.includes(moduleFile)))
    .map((line) => line.split(moduleUrl).join(shownName).split(moduleFile).join(shownName));
}

function failure(error) {
  const message = error instanceof Error ? error.message : String(error);
  return { error: { message, frames: frames(error) } };
}

// Deadline, decline, Ctrl-C: evoke sends SIGTERM to the group; the body hears it as its signal.
process.on("SIGTERM", () => controller.abort(new Error("the run was stopped")));
process.on("uncaughtException", (error) => {
  report(failure(error));
  process.exit(0);
});

const call = JSON.parse(readFileSync(0, "utf8"));
try {
  const module = await import(moduleUrl);
  if (typeof module.default !== "function") {
    throw new TypeError(`${shownName} has no default export to call`);
  }
  const out = await module.default(call.args, { input: call.input, config: call.config, signal: controller.signal });
  if (typeof out === "string") {
    report({ ok: { text: out } });
  } else if (out !== null && typeof out === "object" && typeof out.text === "string") {
    report(out.data === undefined ? { ok: { text: out.text } } : { ok: { text: out.text, data: out.data } });
  } else {
    report({ error: { message: `${shownName} returned neither a string nor { text, data? }`, frames: [] } });
  }
} catch (error) {
  report(failure(error));
}
// Pending writes of the body's own output finish before the runner leaves.
process.stdout.write("", () => process.exit(0));
