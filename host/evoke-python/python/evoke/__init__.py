"""evoke from Python: open a trusted project, decide a sentence, and run the decision through a person
who confirms and answers, under the same trust, gate, bars and bounds as the ``evoke`` command.

    from evoke import Evoke

    evoke = Evoke.open("docs/examples/home")
    decision = evoke.decide("turn on the kitchen lights")
    ran = evoke.run(decision, person)

See docs/python.md.
"""

from evoke._errors import (
    AbstainError,
    DeclinedError,
    EvokeError,
    Exit,
    FailedError,
    NeedsPersonError,
    RefusedError,
    UsageError,
)
from evoke._evoke import Decision, Evoke, Plan, PlanRan, Question, Ran, Reflex
from evoke._types import JSON, Call, Outcome, Person, Result

__all__ = [
    "JSON",
    "AbstainError",
    "Call",
    "Decision",
    "DeclinedError",
    "Evoke",
    "EvokeError",
    "Exit",
    "FailedError",
    "NeedsPersonError",
    "Outcome",
    "Person",
    "Plan",
    "PlanRan",
    "Question",
    "Ran",
    "RefusedError",
    "Reflex",
    "Result",
    "UsageError",
]
