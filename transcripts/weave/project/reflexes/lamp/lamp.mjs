// Says what it would switch: the room as the body receives it (a word's value when the user set one).
export default function lamp({ room, state }) {
  return { text: `${room} lamp ${state}`, data: { room, state } };
}
