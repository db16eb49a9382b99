// Sends nothing anywhere: it says what it would send, and to whom.
export default function send({ to, report }) {
  return report ? `sent ${JSON.stringify(report)} to ${to}` : `nothing to send to ${to}`;
}
