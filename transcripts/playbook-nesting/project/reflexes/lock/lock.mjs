// Says what it would lock.
export default function lock({ door }) {
  return { text: `${door} door locked`, data: { door } };
}
