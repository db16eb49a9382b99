export default async function nap({}, { signal }) {
  await new Promise((resolve) => setTimeout(resolve, 60_000));
  return signal.aborted ? "woken" : "rested";
}
