// Drafts nothing anywhere: it says what it would draft.
export default function mail({ to }) {
  return `drafted to ${to}`;
}
