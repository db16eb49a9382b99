// `split bill="€60" people=3 round`: a component body written in JavaScript, built with componentize-js.
//
// The module exports `run(args, ctx)`, the world's one export. A WIT value arrives as `{ tag, val }` (a
// flag as `{ tag: "flag" }`), an `s64` as a BigInt, an `f64` as a number; `args` is a list of
// `[name, value]` pairs. What `run` returns is the output `{ text, data }`; what it throws (a string) is
// the failure's message.

// Currencies whose minor unit is not a hundredth.
const MINOR_DIGITS = { JPY: 0, KRW: 0, BHD: 3, KWD: 3 };
const SYMBOLS = { EUR: "€", USD: "$", GBP: "£", JPY: "¥" };

function digitsOf(currency) {
  return MINOR_DIGITS[currency] ?? 2;
}

// `12345n` cents as `€123.45`; thousands are grouped with commas.
function shown(minor, currency) {
  const digits = digitsOf(currency);
  const scale = 10n ** BigInt(digits);
  const whole = (minor / scale).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = digits > 0 ? "." + (minor % scale).toString().padStart(digits, "0") : "";
  const symbol = SYMBOLS[currency];
  return symbol ? `${symbol}${whole}${fraction}` : `${whole}${fraction} ${currency}`;
}

export function run(args, _ctx) {
  const values = new Map(args);
  const bill = values.get("bill");
  if (bill?.tag !== "amount") {
    throw "the bill is not an amount";
  }
  const people = values.get("people");
  if (people?.tag !== "number") {
    throw "the number of people is not a number";
  }
  const count = people.val;
  if (!Number.isInteger(count) || count < 2 || count > 100) {
    throw `a bill cannot be split between ${count} people`;
  }
  const { amount, currency } = bill.val;
  if (amount < 0n) {
    throw "the bill is less than nothing";
  }
  const n = BigInt(count);
  // Each share is rounded up to the minor unit (or to a whole unit with `round`), so the shares cover the bill.
  const unit = values.get("round")?.tag === "flag" ? 10n ** BigInt(digitsOf(currency)) : 1n;
  const share = ((amount + n * unit - 1n) / (n * unit)) * unit;
  const over = share * n - amount;
  let text = `${shown(amount, currency)} split ${count} ways is ${shown(share, currency)} each`;
  if (over > 0n) {
    text += `; ${shown(over, currency)} over the bill`;
  }
  // Written by hand, not by JSON.stringify, which refuses a BigInt: the minor units stay exact.
  const data = `{"share":${share},"people":${count},"over":${over},"currency":${JSON.stringify(currency)}}`;
  return { text, data };
}
