// Keeps each room's lights in state/lights.json beside this file (the directory its manifest grants),
// so the example runs on any machine: no bridge, no network.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const DIM_PERCENT = 30;

export default function lights({ room, state, brightness }) {
  const folder = join(dirname(fileURLToPath(import.meta.url)), "state");
  const file = join(folder, "lights.json");
  let rooms = {};
  try {
    rooms = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    rooms = {};
  }
  const percent = state === "off" ? 0 : state === "dim" ? (brightness ?? DIM_PERCENT) : (brightness ?? 100);
  rooms[room] = { on: state !== "off", percent };
  mkdirSync(folder, { recursive: true });
  writeFileSync(file, JSON.stringify(rooms, null, 2) + "\n");
  const shown = state === "dim" ? `dimmed to ${percent}%` : state;
  return { text: `${room} lights ${shown}`, data: { room, ...rooms[room] } };
}
