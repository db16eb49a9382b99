// Edits good_night as a person would: one step more at its end, or that step taken out again, so the
// playbook ends as it began.
import { readFileSync, writeFileSync } from "node:fs";

const file = "../../playbooks/good-night/playbook.toml";
const added = '\n# Added later.\n[[steps]]\ncall = "lamp"\nargs = { room = "office", state = "off" }\n';

export default function revise({ change }) {
  const text = readFileSync(file, "utf8");
  const before = text.endsWith(added) ? text.slice(0, -added.length) : text;
  writeFileSync(file, change === "add" ? before + added : before);
  return { text: change === "add" ? "good_night: one step more" : "good_night: as it was" };
}
