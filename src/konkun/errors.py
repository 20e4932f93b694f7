"""The typed errors of konkun.

Every error is a :class:`ValueError` so that callers that only care about "bad input" can
catch one type; the message always quotes the offending input and, where there is one,
the position it was applied to. The command line turns each into exit status 2 and one
line on standard error.

The position of a deal holds every hidden card (hands, the stock in order), so it belongs
only where the user typed it (the command line). Every error therefore also carries its
:attr:`KonkunError.reason`: the message without the position, which names only the input
and what the seat to act may see (its own cards and public ones). The terminal, the
server, the RL environments and the bots show a seat ``error.reason``, never ``str(error)``.

>>> error = IllegalMoveError("Qd:As", "As not on the table", "classic As/Kd/- 0 1 -")
>>> str(error)
"illegal move 'Qd:As' in classic As/Kd/- 0 1 -: As not on the table"
>>> error.reason
'As not on the table'
"""

from __future__ import annotations


class KonkunError(ValueError):
    """Base of every error konkun raises for bad input.

    ``KonkunError(message)`` or ``KonkunError(message, position)``: ``str()`` is the
    message followed by ``in POSITION`` when there is one; :attr:`reason` is the message
    alone (for errors about a deal: words that show no hidden card).
    """

    position: str | None
    """The text of the position the input was applied to, or ``None``; it may show every
    hidden card (KPN), so it is for the one who typed it, never for a seat."""

    def __init__(self, message: str = "", position: str | None = None) -> None:
        super().__init__(message)
        self.position = position

    @property
    def reason(self) -> str:
        """What was wrong, without the position: what an interface shows a seat."""
        return str(self.args[0]) if self.args else ""

    def __str__(self) -> str:
        if self.position is None:
            return self.reason
        return f"{self.reason} in {self.position}"


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
    """A well-formed move or action that the rules do not allow in this position.

    ``IllegalMoveError(action, reason, position)``: ``action`` is the action's text,
    ``reason`` why it is illegal in words that name only the acting seat's cards and public
    cards (the deals' ``why_illegal``), ``position`` the position's text or ``None``.
    ``str()`` is python-chess's ``illegal move 'Qd:As' in POSITION: REASON``.
    ``IllegalMoveError(message)`` alone is a message about no particular action, shown to
    a seat as it is (it must name no hidden card).
    """

    action: str | None
    """The text of the illegal action (``None`` for the one-message form)."""

    def __init__(self, action: str | None, reason: str | None = None,
                 position: str | None = None) -> None:
        if reason is None:  # the one-message form
            action, reason = None, action or ""
        ValueError.__init__(self, action, reason, position)
        self.action = action
        self._reason = reason
        self.position = position

    @property
    def reason(self) -> str:
        """Why the action is illegal, in words safe to show the seat that tried it."""
        return self._reason

    def __str__(self) -> str:
        if self.action is None:
            return self._reason if self.position is None \
                else f"{self._reason} in {self.position}"
        where = "" if self.position is None else f" in {self.position}"
        return f"illegal move {self.action!r}{where}: {self._reason}"

    def __reduce__(self) -> tuple[type[IllegalMoveError], tuple[str | None, str, str | None]]:
        return (type(self), (self.action, self._reason, self.position))


class GameOverError(IllegalMoveError):
    """A move played after the deal or the game has ended."""


def one_line(message: str) -> str:
    """An error message folded onto one line (runs of white space, newlines included,
    become one space), as the command line and the server show it."""
    return " ".join(message.split())
