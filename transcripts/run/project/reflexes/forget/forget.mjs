// Destructive by its manifest (no effect declared). This fixture only reports what it would forget.
export default function forget({ topic }) {
  return `forgot the ${topic} notes`;
}
