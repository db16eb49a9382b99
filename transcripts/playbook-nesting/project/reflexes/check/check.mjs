// The house as it stands: the den lamp is on, the office lamp is off.
export default function check({ room }) {
  const state = room === "den" ? "on" : "off";
  return { text: `the ${room} lamp is ${state}`, data: { state } };
}
