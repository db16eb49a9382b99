// Sets the default output's volume with ALSA's amixer. argv bodies take whole elements only, and amixer
// reads a percentage as "40%", so this body is a file that writes the element itself.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export default async function volume({ level }, { signal }) {
  const percent = Math.round(Number(level));
  await run("amixer", ["-q", "sset", "Master", `${percent}%`], { signal });
  return { text: `volume set to ${percent}%`, data: { level: percent } };
}
