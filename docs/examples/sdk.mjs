// Opens docs/examples/home under a recording, decides one sentence, prints its JSON line, and runs it
// through a person who says yes to every confirm (docs/node.md). Its project must be trusted first:
// `evoke -C docs/examples/home trust`; the addon must be built (docs/node.md, "Build").

import { fileURLToPath } from "node:url";
import { Evoke, EvokeError } from "../../host/evoke-node/index.js";

const examples = fileURLToPath(new URL(".", import.meta.url));
const saysYes = { present: true, confirm: () => true, ask: () => null };

try {
  const evoke = Evoke.open(`${examples}home`, { recording: `${examples}sdk.recording.toml` });
  const decision = evoke.decide("turn on the kitchen lights");
  console.log(decision.json);
  const ran = evoke.run(decision, saysYes);
  console.log(ran.text ?? ran.failure ?? "");
} catch (e) {
  if (!(e instanceof EvokeError)) throw e;
  console.error(`error: ${e.message}${e.fix ? `\nfix: ${e.fix}` : ""}`);
  process.exitCode = e.exit;
}
