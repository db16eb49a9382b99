// Types for an evoke file body: a `.mts` or `.mjs` module inside the reflex directory whose default
// export evoke calls with `(args, { input, config, signal })`, and whose result is a string or
// `{ text, data? }`.
//
// From a body's folder, install this folder as a development dependency, then import the types:
//
//   npm install --save-dev /path/to/evoke/sdk/js
//
//   import type { Body } from "evoke-sdk";
//
//   const lights: Body<{ room: string; state: "on" | "off" | "dim"; brightness?: number }, { bridge: string }> =
//     async ({ room, state }, { config, signal }) => {
//       await fetch(`http://${config.bridge}/rooms/${room}/${state}`, { method: "PUT", signal });
//       return `${room} lights ${state}`;
//     };
//   export default lights;
//
// Import them with `import type` only: evoke strips type imports before Node runs the body, and the package
// has types and no code. Or, without the import, annotate the parameters: `(args: Args, ctx:
// Context<{ bridge: string }>)`.

/** An option's key: one of the keys the manifest lists under `options`. */
export type OptionKey = string;

/** A vocabulary word's `value`, or the word itself when the user gave it no value. */
export type Word = string;

/** A number read from the input (`pick = "number"`). */
export type NumberValue = number;

/** A duration (`pick = "duration"`), in whole seconds. */
export type Seconds = number;

/** A date (`pick = "date"`), resolved by evoke to a day in the user's time zone when the body runs: `"2026-12-04"`. */
export type Day = string;

/** A time of day (`pick = "time"`), 24-hour: `"17:30"`. */
export type Time = string;

/** An amount of money (`pick = "amount"`): `€12` is `{ amount: 1200, currency: "EUR" }`. */
export interface Amount {
  /** In the currency's minor units. */
  amount: number;
  /** The ISO 4217 code. */
  currency: string;
}

/** A code (`pick = "code"`), as its text. */
export type Code = string;

/** A text (`pick = "text"`), as typed. */
export type Text = string;

/** A flag that was stated. A flag not stated is absent. */
export type Flag = true;

/** Any value a body can receive for one argument. */
export type Value = OptionKey | Word | NumberValue | Seconds | Day | Time | Amount | Code | Text | Flag;

/**
 * The arguments, by name: every argument that has a value. An unstated optional argument and a flag not
 * stated are absent, so write optional ones with `?`.
 */
export type Args = Record<string, Value>;

/** What a body is told besides its arguments. */
export interface Context<Config extends Record<string, string> = Record<string, string>> {
  /** The sentence as typed; empty for a call by name (`evoke run`). */
  input: string;
  /** Every key of the manifest's `[config]`, as a string; a secret is read for this run only. */
  config: Config;
  /** Aborted at the deadline, when the person declines, and on SIGTERM; pass it to `fetch` and timers. */
  signal: AbortSignal;
}

/** What a body returns: a string is `{ text }`. */
export type Result =
  | string
  | {
      /** One or more lines for a person. */
      text: string;
      /** Anything JSON can hold, for a program reading the line (`result.data`). */
      data?: unknown;
    };

/** A body: the module's default export. Throwing is failure; the error's message is shown and logged. */
export type Body<A extends Args = Args, Config extends Record<string, string> = Record<string, string>> = (
  args: A,
  context: Context<Config>,
) => Result | Promise<Result>;
