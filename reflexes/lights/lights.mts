// Sets one Hue room (a "group") on, off or dimmed, through the bridge's local REST API.
// `room` is the user's word or the value they gave it (a Hue group id such as "group-7" or "7").

type State = "on" | "off" | "dim";

interface Args {
  room: string;
  state: State;
  brightness?: number;
}

interface Context {
  input: string;
  config: { bridge: string; token: string };
  signal: AbortSignal;
}

const DIM_PERCENT = 30;

export default async function lights({ room, state, brightness }: Args, { config, signal }: Context) {
  const group = room.replace(/^group-/, "");
  const percent = state === "dim" ? (brightness ?? DIM_PERCENT) : brightness;
  const action: Record<string, unknown> = { on: state !== "off" };
  if (percent !== undefined && state !== "off") {
    action.bri = Math.max(1, Math.round((percent / 100) * 254));
  }
  const url = `http://${config.bridge}/api/${encodeURIComponent(config.token)}/groups/${encodeURIComponent(group)}/action`;
  const response = await fetch(url, { method: "PUT", body: JSON.stringify(action), signal });
  if (!response.ok) {
    throw new Error(`the bridge answered ${response.status} ${response.statusText}`);
  }
  const answer = await response.json();
  const failed = Array.isArray(answer) ? answer.find((entry) => entry.error) : undefined;
  if (failed) {
    throw new Error(`the bridge refused: ${failed.error.description}`);
  }
  const shown = state === "dim" ? `dimmed to ${percent}%` : state;
  return { text: `${room} lights ${shown}`, data: { room, state, brightness: percent } };
}
