// The runner evoke carries, given to Node on its command line (never read from a file): imports a file
// body, calls its default export with (args, { input, config, signal }), and reports the result as one
// line of JSON on a channel of its own: fd 0 is a socket to evoke, read to its end for the call, then
// written with the result. The body's own stdout is evoke's stderr, so a stray line never corrupts a
// result. The call names the body: a `.mjs` by its file, a `.mts` by its code, stripped by evoke for this
// run and imported from memory, so nothing in evoke's cache can stand in for it.
import { readFileSync, writeSync } from "node:fs";
import { pathToFileURL } from "node:url";

const controller = new AbortController();
let reported = false;

function report(message) {
  if (reported) return;
  reported = true;
  writeSync(0, JSON.stringify(message) + "\n");
}

const call = JSON.parse(readFileSync(0, "utf8"));
const { name: shownName, file: moduleFile, source, held } = call.body;
const moduleUrl =
  moduleFile !== undefined
    ? pathToFileURL(moduleFile).href
    : "data:text/javascript;base64," + Buffer.from(source, "utf8").toString("base64");

// The frames of the body's own file, from the first, named as the reflex names the file.
function frames(error) {
  const stack = typeof error?.stack === "string" ? error.stack.split("\n") : [];
  const names = moduleFile !== undefined ? [moduleUrl, moduleFile] : [moduleUrl];
  return stack
    .map((line) => line.trim())
    .filter((line) => line.startsWith("at ") && names.some((name) => line.includes(name)))
    .map((line) => names.reduce((text, name) => text.split(name).join(shownName), line));
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

try {
  // evoke asked for the permission model; a body never runs without it when it was asked for.
  if (held && !process.permission) {
    throw new Error("Node's permission model is not on, though evoke asked for it; nothing ran");
  }
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
