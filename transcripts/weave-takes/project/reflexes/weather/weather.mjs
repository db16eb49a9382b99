// Asks no service: it returns a fixed forecast, its data the whole result a later step may take.
export default function weather() {
  return { text: "clear, 21°", data: { sky: "clear", high: 21 } };
}
