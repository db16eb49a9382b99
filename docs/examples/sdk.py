"""Opens docs/examples/home under a recording, decides one sentence, prints its JSON line, and runs it
through a person who says yes to every confirm (docs/python.md). Its project must be trusted first:
`evoke -C docs/examples/home trust`."""

from pathlib import Path

from evoke import Evoke, Question


class SaysYes:
    def confirm(self, question: Question) -> bool:
        return True

    def ask(self, missing: dict[str, object]) -> None:
        return None


examples = Path(__file__).resolve().parent
evoke = Evoke.open(examples / "home", recording=examples / "sdk.recording.toml")
decision = evoke.decide("turn on the kitchen lights")
print(decision.json)
ran = evoke.run(decision, SaysYes())
print(ran.text if ran.succeeded else ran.failure)
