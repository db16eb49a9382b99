"""The exit classes of evoke and the exception each error of the library is raised as."""

from __future__ import annotations

from enum import IntEnum
from typing import Any


class Exit(IntEnum):
    """What the ``evoke`` command exits with for the same end: the closed set of exit codes."""

    DONE = 0
    """The body ran and returned."""
    FAILED = 1
    """The body failed, or evoke itself did."""
    USAGE = 2
    """A call of the library, or a file it names, cannot be read."""
    NEEDS_PERSON = 3
    """A person is needed and none can answer: an untrusted project, a confirm with nobody present."""
    ABSTAIN = 4
    """Nothing installed does what was asked."""
    DECLINED = 5
    """The person said no, or left a question unanswered."""
    REFUSED = 6
    """Failed closed before anything ran."""


class EvokeError(Exception):
    """An error of evoke's library: its exit class (``exit``), its message and the fix, when there is one."""

    exit: Exit
    """What the ``evoke`` command would exit with: a number and a name (``Exit.NEEDS_PERSON``, 3)."""
    message: str
    """One line, in evoke's words."""
    fix: str | None
    """The command or edit that fixes it, when there is one."""
    diagnostics: list[dict[str, Any]]
    """The refusals behind it, such as each fault of a manifest: ``severity``, ``type``, ``file``,
    ``line``, ``column``, ``key``, ``message`` and ``fix``."""

    def __init__(
        self,
        exit: Exit | int,
        message: str,
        fix: str | None = None,
        diagnostics: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(message)
        self.exit = Exit(exit)
        self.message = message
        self.fix = fix
        self.diagnostics = diagnostics or []

    def __str__(self) -> str:
        return self.message if self.fix is None else f"{self.message} (fix: {self.fix})"


class FailedError(EvokeError):
    """Exit class 1: evoke itself failed (a panic caught at the library's edge, a fault)."""


class UsageError(EvokeError):
    """Exit class 2: a call that cannot be read, such as a decision run by another ``Evoke``."""


class NeedsPersonError(EvokeError):
    """Exit class 3: a person is needed and none can answer, such as an untrusted project."""


class AbstainError(EvokeError):
    """Exit class 4: nothing installed does what was asked."""


class DeclinedError(EvokeError):
    """Exit class 5: the person said no, or left a question unanswered."""


class RefusedError(EvokeError):
    """Exit class 6: evoke failed closed before anything ran."""


_CLASSES: dict[Exit, type[EvokeError]] = {
    Exit.FAILED: FailedError,
    Exit.USAGE: UsageError,
    Exit.NEEDS_PERSON: NeedsPersonError,
    Exit.ABSTAIN: AbstainError,
    Exit.DECLINED: DeclinedError,
    Exit.REFUSED: RefusedError,
}


def _error(exit: int, message: str, fix: str | None, diagnostics: list[dict[str, Any]]) -> EvokeError:
    """The exception of exit class ``exit``: what the native module raises for each error."""
    kind = _CLASSES.get(Exit(exit), EvokeError)
    return kind(exit, message, fix, diagnostics)
