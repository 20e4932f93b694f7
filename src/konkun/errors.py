"""The typed errors of konkun.

Every error is a :class:`ValueError` so that callers that only care about "bad input" can
catch one type; the message always quotes the offending input and, where there is one,
the position it was applied to. The command line turns each into exit status 2 and one
line on standard error.
"""

from __future__ import annotations


class KonkunError(ValueError):
    """Base of every error konkun raises for bad input."""


class InvalidCardError(KonkunError):
    """A card text that does not name a card (``'Zz'``)."""


class InvalidNotationError(KonkunError):
    """A position, move or record text that cannot be parsed."""


class InvalidPositionError(KonkunError):
    """A position that parses but cannot occur (a card twice, a seat out of range, ...)."""


class InvalidRuleError(KonkunError):
    """An unknown rule option, a value the option does not take, or a seat count the game
    is not played by; ``option`` names the rule option when there is one."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class IllegalMoveError(KonkunError):
    """A well-formed move or action that the rules do not allow in this position."""


class GameOverError(IllegalMoveError):
    """A move played after the deal or the game has ended."""


def one_line(message: str) -> str:
    """An error message folded onto one line (runs of white space, newlines included,
    become one space), as the command line and the server show it."""
    return " ".join(message.split())
