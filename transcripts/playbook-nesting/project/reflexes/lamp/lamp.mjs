// Says what it would switch.
export default function lamp({ room, state }) {
  return { text: `${room} lamp ${state}`, data: { room, state } };
}
