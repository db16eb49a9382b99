// The contact book holds one person.
export default function contact({ name }) {
  return { text: `${name}: ${name}@example.com`, data: { email: `${name}@example.com` } };
}
