// Types of evoke's Node package (index.js): the same four verbs as the Rust library (docs/node.md).

/** The exit class of an `EvokeError` as a number: what the `evoke` command would exit with. */
export type ExitCode = 1 | 2 | 3 | 4 | 5 | 6;

/** The exit class's name, as the Rust enum `evoke::exit::Exit` spells it. */
export type ExitName = "Failed" | "Usage" | "NeedsPerson" | "Abstain" | "Declined" | "Refused";

/** The exit classes by name: `e.exit === Exit.NeedsPerson`. */
export declare const Exit: {
  readonly Done: 0;
  readonly Failed: 1;
  readonly Usage: 2;
  readonly NeedsPerson: 3;
  readonly Abstain: 4;
  readonly Declined: 5;
  readonly Refused: 6;
};

/** A refusal or fault of evoke's: every error of the Rust library reaches JavaScript as one. */
export class EvokeError extends Error {
  constructor(
    message: string,
    fields: { exit: ExitCode; exitName: ExitName; fix?: string | null; diagnostics?: Diagnostic[] },
  );
  readonly name: "EvokeError";
  /** 1 failed, 2 usage, 3 a person is needed, 4 nothing does that, 5 declined, 6 failed closed. */
  readonly exit: ExitCode;
  /** The exit class's name. */
  readonly exitName: ExitName;
  /** The command or edit that fixes it (`evoke trust` for an untrusted project), or null. */
  readonly fix: string | null;
  /** Each fault behind it (a manifest's, say); empty for most errors. */
  readonly diagnostics: Diagnostic[];
}

/** One fault in a file, as evoke reports it. */
export interface Diagnostic {
  /** What kind of fault it is: `wrong_type`, `code_key`, … */
  problem: string;
  /** The file, or what stands for it (`greet (handed as code)`). */
  file: string;
  /** Where it is: 1-based line and column. */
  line: number;
  column: number;
  /** The dotted key it concerns; empty for the file as a whole. */
  key: string;
  /** What is wrong. */
  message: string;
  /** What fixes it, or null. */
  fix: string | null;
  /** Whether it is an error (else a warning). */
  error: boolean;
  /** The fault as evoke prints it, in rustc's shape. */
  shown: string;
}

/** What a body handed as code receives: what a file body receives. */
export interface Called {
  /** Each stated argument as the body receives it: an option's key, a word's value, a pick's value. */
  args: Record<string, unknown>;
  /** The sentence as typed. */
  input: string;
  /** The settings: always empty for a body handed as code, which takes its own from the program. */
  config: Record<string, unknown>;
}

/**
 * What a body handed as code returns: the text a person is shown, or it with data beside it. The data is
 * what JSON holds as it is: NaN, Infinity, a BigInt, a function, a symbol, a Map or a Set is a failed run.
 */
export type Returned = string | { text: string; data?: unknown };

/** A reflex handed as code: its manifest's text and the function that is its body. */
export interface CodeReflex {
  /** The reflex.toml text, with no `run`, `grants` or `config`: the body is the function. */
  manifest: string;
  /**
   * Runs the call, on the thread that called `run`, before `run` returns. What it throws is the run's
   * failure, with the error's message and stack frames; a promise is a failure too.
   */
  body: (call: Called) => Returned;
}

/** How a project is opened: an option not listed here, or of another type, is an EvokeError of class 2. */
export interface OpenOptions {
  /** Answers from this recording instead of an engine, as `--recording FILE` gives them. */
  recording?: string;
  /** The `EVOKE_HOME` of this Evoke alone: its trust record, cache, log and home `evoke.toml`. */
  home?: string;
  /** Reflexes handed as code, by name, decided on beside the project's own. */
  reflexes?: Record<string, CodeReflex>;
}

/** How a project built in code is made. */
export interface InCodeOptions extends OpenOptions {
  /** The engine: a built-in's name (`local`, `embed`, `openai`) or an installed adapter's; else the home's. */
  adapter?: string;
}

/** What a person is asked to confirm before a call runs. */
export type ConfirmQuestion =
  | {
      kind: "call";
      /** The reflex's question, its placeholders filled: `Erase the work notes?`. */
      text: string;
      /** evoke's own line: the call as it will run. */
      own: string;
      /** Why the call waits for a yes. */
      reason: string;
    }
  | {
      kind: "own";
      /** A question of evoke's own. */
      text: string;
    };

/** The closed choices a missing value is answered from. */
export type Choices =
  | { type: "vocab"; words: Record<string, string> }
  | { type: "options"; options: Record<string, string> }
  | { type: "pick"; kind: string; range?: [number, number] };

/** A value the decision misses. */
export interface Missing {
  /** The argument's name. */
  arg: string;
  /** The reflex's question for it. */
  ask: string;
  /** Why it is asked for. */
  because: { type: string; [field: string]: unknown };
  /** What may answer it. */
  choices: Choices;
}

/**
 * Whoever answers for the program when a call waits for a yes or a value. Each answer is read as the
 * object's own property or its class's method, never from Object.prototype.
 */
export interface Person {
  /** Whether anyone can answer; false makes a confirm or an ask an EvokeError of class 3. Default true. */
  present?: boolean;
  /** A yes or no before the call runs: only `true` runs it. */
  confirm?(question: ConfirmQuestion): boolean;
  /**
   * The value of a missing argument, as a person would type it: a key or word among the choices, its
   * number in their order (from 1), or words a pick reads. `null` leaves it unanswered.
   */
  ask?(missing: Missing): string | number | null;
}

/** The JSON line of a decision, read as an object: the spec's line with `values` after it. */
export interface DecisionLine {
  input: string;
  outcome: "run" | "confirm" | "ask" | "abstain";
  reflex?: string;
  args?: Record<string, unknown>;
  call?: string;
  effect?: "read" | "write" | "destructive";
  confidence?: number;
  prompt?: { own: string; reason: string; template: string };
  because?: Array<{ type: string; [field: string]: unknown }>;
  missing?: Missing[];
  contenders?: Array<{ reflex: string; route: number; fits?: number }>;
  trace: Array<{ [field: string]: unknown }>;
  values?: Record<string, unknown>;
  [field: string]: unknown;
}

/** One decision of a sentence. Only `Evoke#decide` makes one, and only its own Evoke runs it. */
export class Decision {
  #private;
  private constructor();
  /** Which of the four outcomes it is. */
  readonly outcome: DecisionLine["outcome"];
  /** The sentence as decided. */
  readonly input: string;
  /** The chosen reflex, or null when it abstains. */
  readonly reflex: string | null;
  /** The call on one line (`lights room="kitchen" state="on"`), or null when it is not complete. */
  readonly call: string | null;
  /** Each argument as the body would receive it, or null when no reflex was chosen; a fresh copy each read. */
  readonly values: Record<string, unknown> | null;
  /** A confirm's prompt, or null; a fresh copy each read. */
  readonly prompt: DecisionLine["prompt"] | null;
  /** An ask's missing values, or null; a fresh copy each read. */
  readonly missing: Missing[] | null;
  /** The line `evoke try --json` prints, with `values` after it, exactly as the Rust library writes it. */
  readonly json: string;
  /** The line read as an object. */
  toJSON(): DecisionLine;
}

/** A sentence read as several steps, or a playbook it picks: planned, never run by the library. */
export class Plan {
  #private;
  private constructor();
  /** The sentence as planned. */
  readonly input: string;
  /** Each step, with its own decision; a fresh copy each read. */
  readonly steps: Array<{ [field: string]: unknown }>;
  /** Whether the plan would run, wait for a yes, or stop; a fresh copy each read. */
  readonly verdict: { [field: string]: unknown };
  /** The playbook the sentence picks, or null. */
  readonly playbook: string | null;
  /** The plan line `evoke try --json` prints, exactly as the Rust library writes it. */
  readonly json: string;
  /** The plan line read as an object. */
  toJSON(): { [field: string]: unknown };
}

/** What a run gave: the body's result, or the failure it ended with. */
export class Ran {
  #private;
  private constructor();
  /** Whether the body returned. */
  readonly succeeded: boolean;
  /** The text the body returned, or null. */
  readonly text: string | null;
  /** The data the body returned beside its text, or null. */
  readonly data: unknown;
  /** Why the body failed, or null. */
  readonly failure: string | null;
  /** The frames of a failed body's stack, innermost first (`at wipe (notes.js:3:9)`); empty otherwise. */
  readonly frames: readonly string[];
  /** The JSON line of the call with its result, as `evoke --json` prints it. */
  readonly json: string;
}

/** How a plan's run ended. */
export class PlanRan {
  #private;
  private constructor();
  /** The exit class the command would end with: 0 when every step ran and returned. */
  readonly exit: 0 | ExitCode;
  /** The exit class's name: `Done` when every step ran and returned. */
  readonly exitName: "Done" | ExitName;
  /** Each line the run wrote, as `evoke --json` prints them: a playbook's step 0 first, then one per step. */
  readonly lines: readonly string[];
}

/** A trusted project, opened with the engine that decides in it. Every call blocks. */
export class Evoke {
  #private;
  private constructor();
  /** Opens the project in `dir`; an untrusted one is an EvokeError of class 3 whose fix is `evoke trust`. */
  static open(dir: string, options?: OpenOptions): Evoke;
  /** A project built in code: only the reflexes handed over, with no files to trust and no lock. */
  static inCode(options?: InCodeOptions): Evoke;
  /** Decides what `sentence` asks, running nothing; logged as `evoke try` logs it. A lone surrogate is class 2. */
  decide(sentence: string): Decision;
  /** Plans a sentence read as several steps, or a playbook it picks, running nothing. */
  plan(sentence: string): Plan;
  /** The sealed plan file of a plan this Evoke made, as `evoke try --save FILE` writes it. */
  save(plan: Plan): string;
  /** Runs a decision this Evoke made through `person`; a body's failure is in the Ran, not thrown. */
  run(decision: Decision, person?: Person): Ran;
  /**
   * Runs a plan this Evoke made as the command runs one, through `person`; how it ended is in the PlanRan.
   * A plan runs once; a run refused before it begins leaves it to run later.
   */
  runPlan(plan: Plan, person?: Person): PlanRan;
  /** The text `evoke why back` prints; 1 is the last decision or plan logged. */
  why(back?: number): string;
}
