"""The shapes a program hands to evoke and gets back: a person, a body's call and result, JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NotRequired, Protocol, TypeAlias, TypedDict

if TYPE_CHECKING:
    from evoke._evoke import Question

Outcome: TypeAlias = Literal["run", "confirm", "ask", "abstain"]
"""The four outcomes of a decision."""

JSON: TypeAlias = "None | bool | int | float | str | list[JSON] | dict[str, JSON]"
"""A value JSON can hold."""


class Call(TypedDict):
    """What a reflex handed as code receives: the stated arguments, the sentence, and its settings (empty)."""

    args: dict[str, JSON]
    input: str
    config: dict[str, JSON]


class Result(TypedDict):
    """What a body may return in place of a str: the text a person is shown, and data beside it."""

    text: str
    data: NotRequired[JSON]


class Person(Protocol):
    """Whoever answers a run's questions.

    ``present`` (a bool, or a method returning one) is optional and true when absent; without a person
    present, a confirm or an ask raises ``NeedsPersonError``."""

    def confirm(self, question: Question, /) -> bool:
        """Only ``True`` runs the call; anything else, or an exception, is a no."""
        ...

    def ask(self, missing: dict[str, Any], /) -> str | int | None:
        """A value the call misses, from ``missing["choices"]``: a listed key, its number, or words read as
        the argument's kind. ``None`` leaves it unanswered."""
        ...
