"""Types of the native module ``evoke._evoke``, re-exported by ``evoke``."""

from collections.abc import Callable, Sequence
from os import PathLike
from typing import Any, Literal, final

from evoke._errors import Exit
from evoke._types import JSON, Call, Outcome, Person, Result

__all__ = ["Decision", "Evoke", "Plan", "PlanRan", "Question", "Ran", "Reflex"]

@final
class Question:
    """What a person is asked before a call runs."""

    @property
    def text(self) -> str:
        """The question a person answers yes or no."""
    @property
    def own(self) -> str | None:
        """evoke's own line about the call, shown before the question (``None`` for evoke's own question)."""
    @property
    def reason(self) -> str | None:
        """Why the call waits for a yes (``None`` for evoke's own question)."""

@final
class Reflex:
    """A reflex handed as code: a name, its ``reflex.toml`` text without ``run``, ``grants`` or
    ``config``, and a callable body. A body that raises is a failed run with the exception's message and
    frames."""

    def __new__(cls, name: str, manifest: str, body: Callable[[Call], str | Result]) -> Reflex: ...
    @property
    def name(self) -> str:
        """The name it is decided and logged under."""
    @property
    def item(self) -> str:
        """Its ``item`` as a plan file pins it: the hash of its manifest."""

@final
class Decision:
    """One decision of a sentence, made by ``Evoke.decide``; only the ``Evoke`` that made it runs it."""

    @property
    def outcome(self) -> Outcome:
        """Which of the four outcomes this is."""
    @property
    def input(self) -> str:
        """The sentence as decided."""
    @property
    def json(self) -> str:
        """The line ``evoke try --json`` prints for the same input and answers, with ``values`` after it."""
    @property
    def values(self) -> dict[str, JSON]:
        """Each argument as the body would receive it, in the call's order."""
    @property
    def reflex(self) -> str | None:
        """The chosen reflex, ``None`` for an abstain."""
    @property
    def call(self) -> str | None:
        """The complete call on one line, for a run or a confirm."""
    @property
    def effect(self) -> Literal["read", "write", "destructive"] | None:
        """What the call does to the world, for a run or a confirm."""
    @property
    def question(self) -> Question | None:
        """What a confirm asks."""
    @property
    def missing(self) -> list[dict[str, Any]]:
        """Each value an ask misses, with its question and closed choices (empty unless an ask)."""

@final
class Plan:
    """The plan of a sentence read as several steps, or of a playbook it picked, made by ``Evoke.plan``."""

    @property
    def input(self) -> str:
        """The sentence as planned."""
    @property
    def outcome(self) -> Outcome:
        """The plan's verdict: its weakest step's outcome, or ``abstain`` when refused whole."""
    @property
    def playbook(self) -> str | None:
        """The playbook that wrote the plan, when one did."""
    @property
    def json(self) -> str:
        """The plan line ``evoke try --json`` prints for the same input and answers."""
    @property
    def ran(self) -> bool:
        """Whether ``Evoke.run_plan`` took it already: a plan runs once."""

@final
class PlanRan:
    """How a plan's run ended."""

    @property
    def exit(self) -> Exit:
        """The exit the command would end with: ``Exit.DONE`` when every step ran and returned."""
    @property
    def lines(self) -> list[str]:
        """Each line of the run, in the order written, as ``evoke --json`` prints them."""

@final
class Ran:
    """What a run gave: the body's result, or its failure."""

    @property
    def succeeded(self) -> bool:
        """Whether the body returned."""
    @property
    def text(self) -> str | None:
        """The text the body returned."""
    @property
    def data(self) -> JSON:
        """The data the body returned beside its text (``None`` when it returned none)."""
    @property
    def failure(self) -> str | None:
        """The body's failure, when it did not return."""
    @property
    def frames(self) -> list[str]:
        """A failed body's frames, innermost first, as ``at NAME (FILE:LINE)``."""
    @property
    def json(self) -> str:
        """The JSON line of the call with its result, as ``evoke --json`` prints it."""

@final
class Evoke:
    """A trusted project, opened with the engine that decides in it. Its calls block."""

    @staticmethod
    def open(
        dir: str | PathLike[str],
        recording: str | PathLike[str] | None = None,
        home: str | PathLike[str] | None = None,
        reflexes: Sequence[Reflex] = (),
    ) -> Evoke:
        """Opens the project in ``dir``, refused unless trusted (``NeedsPersonError``, fix ``evoke trust``)."""
    @staticmethod
    def in_code(
        reflexes: Sequence[Reflex],
        recording: str | PathLike[str] | None = None,
        home: str | PathLike[str] | None = None,
        adapter: str | None = None,
    ) -> Evoke:
        """A project of ``reflexes`` alone, decided by ``adapter`` (else the home's engine, else ``local``)."""
    def decide(self, sentence: str) -> Decision:
        """Decides ``sentence``, running nothing; a sentence read as several steps raises ``UsageError``."""
    def plan(self, sentence: str) -> Plan:
        """Plans ``sentence`` read as several steps or a playbook, running nothing."""
    def run(self, decision: Decision, person: Person) -> Ran:
        """Runs a decision this ``Evoke`` made through ``person``: a confirm only on its ``True``."""
    def run_plan(self, plan: Plan, person: Person) -> PlanRan:
        """Runs a plan this ``Evoke`` made, once, by the command's runner, through ``person``."""
    def save(self, plan: Plan) -> str:
        """The sealed plan file of ``plan``, as ``evoke try --save FILE`` writes it."""
    def why(self, back: int = 1) -> str:
        """The text ``evoke why back`` prints, from this ``Evoke``'s log (1 is the last)."""
