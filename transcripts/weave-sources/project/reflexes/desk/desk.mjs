// The directory holds one desk.
export default function desk({ name }) {
  return { text: `${name}: desk 4B`, data: { desk_mail: `desk-4b@example.com` } };
}
