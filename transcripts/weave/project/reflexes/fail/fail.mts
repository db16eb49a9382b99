type Reading = { pressure: number };

function read(): Reading {
  throw new Error("the sprinkler did not answer");
}

export default function check(): string {
  return `pressure ${read().pressure}`;
}
