"""The HTTP bodies and WebSocket messages of the web protocol as pydantic models.

Input is read in two steps. :func:`load_json` reads the text as strict JSON: ``NaN``,
``Infinity`` and lone surrogates (``"\\ud800"``) are refused, since neither can be sent
back in an answer. The models then check each field (strict types: no ``"1"`` for ``1``);
a field with its own error code (a game, a rule, a bot) checks itself with the helpers of
:mod:`konkun.server.core.protocol`, which raise that code's :class:`ProtocolError`. Any other
mistake becomes ``bad_request`` naming the field (:func:`validated`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from konkun.server.core.protocol import (
    MAX_ACTION_TEXT,
    MAX_MESSAGE_BYTES,
    ProtocolError,
    bot_seats,
    clean_nickname,
    rule_texts,
)
from konkun.server.features.lifecycle import hints_of, move_seconds_of

M = TypeVar("M", bound=BaseModel)

Int32 = Annotated[int, Field(strict=True, ge=-(2**31), lt=2**31)]
"""An integer field (no booleans, floats or texts), within 32 bits."""

MAX_TOKEN_TEXT = 1024


def _refuse_constant(name: str) -> Any:
    raise ProtocolError("bad_request", f"{name} is not a JSON number")


def _check_text(value: Any, depth: int = 0) -> None:
    """Refuse lone surrogates anywhere in ``value`` (they cannot be encoded as UTF-8)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ProtocolError("bad_request", "text holds a lone surrogate (not valid "
                                "Unicode)") from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, depth + 1)
            _check_text(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_text(item, depth + 1)


def load_json(raw: str | bytes, what: str = "request body") -> dict[str, Any]:
    """``raw`` read as one strict JSON object; raise ``bad_request`` otherwise."""
    try:
        data = json.loads(raw, parse_constant=_refuse_constant)
    except ProtocolError as error:
        raise ProtocolError("bad_request", f"{what} is not valid JSON: {error.message}") \
            from None
    except (ValueError, RecursionError):
        raise ProtocolError("bad_request", f"{what} is not valid JSON") from None
    _check_text(data)
    if not isinstance(data, dict):
        raise ProtocolError("bad_request", f"{what} must be a JSON object", data)
    return data


def validated(model: type[M], data: dict[str, Any]) -> M:
    """``data`` as a ``model``; a field of the wrong type is ``bad_request`` naming it."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise _bad_request(error) from None


def _bad_request(error: ValidationError) -> ProtocolError:
    first = error.errors(include_url=False)[0]
    field = ".".join(str(part) for part in first.get("loc", ())) or "message"
    problem = first.get("msg", "invalid")
    if first.get("type") == "missing":
        return ProtocolError("bad_request", f"field {field!r} is missing")
    return ProtocolError("bad_request", f"field {field!r}: {problem}", first.get("input"))


class RequestBody(BaseModel):
    """The base of every HTTP body: frozen, unknown fields ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True)


# -- HTTP bodies ------------------------------------------------------------------------


class GuestBody(RequestBody):
    """``POST /api/guest``: ``{"nickname": str}``."""

    nickname: str

    @field_validator("nickname", mode="before")
    @classmethod
    def _nickname(cls, value: Any) -> str:
        return clean_nickname(value)


class TableBody(RequestBody):
    """``POST /api/tables``: game, variant, seats, rules and bots (``docs/protocol.md``)."""

    game: str
    variant: str | None = None
    seats: Int32
    rules: dict[str, str] = Field(default_factory=dict)
    bots: dict[Any, Any] = Field(default_factory=dict)
    """Bot specs by seat number, as sent (:meth:`bot_seats` checks them)."""
    move_seconds: int = 0
    """The move clock (0: none; :func:`konkun.server.features.lifecycle.move_seconds_of`)."""
    hints: bool = True
    """Whether the table offers hints (:func:`konkun.server.features.lifecycle.hints_of`)."""
    rated: Annotated[bool, Field(strict=True)] = False
    """Whether the game counts for ratings: hints are then off and a move clock runs
    (:data:`konkun.server.web.account_routes.RATED_MOVE_SECONDS` when none is asked)."""
    request_id: Annotated[str, Field(strict=True, min_length=1, max_length=64)] | None = None
    """The client's name for this request: a repeat makes no second table."""

    @field_validator("move_seconds", mode="before")
    @classmethod
    def _move_seconds(cls, value: Any) -> int:
        return move_seconds_of(value)

    @field_validator("hints", mode="before")
    @classmethod
    def _hints(cls, value: Any) -> bool:
        return hints_of(value)

    @field_validator("game", mode="before")
    @classmethod
    def _game(cls, value: Any) -> str:
        if not isinstance(value, str):
            from konkun.server.core.games import game_names

            raise ProtocolError("unknown_game", "field 'game' must name a game: "
                                + " or ".join(repr(n) for n in game_names()), value)
        return value

    @field_validator("variant", mode="before")
    @classmethod
    def _variant(cls, value: Any) -> str | None:
        if value is not None and not isinstance(value, str):
            raise ProtocolError("unknown_game", "field 'variant' must be a string", value)
        return value or None

    @field_validator("rules", mode="before")
    @classmethod
    def _rules(cls, value: Any) -> dict[str, str]:
        return rule_texts(value)

    @field_validator("bots", mode="before")
    @classmethod
    def _bots(cls, value: Any) -> dict[Any, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise ProtocolError("bad_request", "bots must be an object {seat: spec}", value)
        return value

    def bot_seats(self) -> dict[int, str]:
        """The bot seats as ``{seat: spec}``, each seat checked against ``seats``."""
        return bot_seats(self.bots, self.seats)


Contribution = Annotated[str, Field(strict=True, max_length=64)]
"""A seat's random value for the match seed: 64 lowercase hex digits (``docs/fairness.md``;
checked by :func:`konkun.server.features.fair.checked_contribution`)."""


class SitBody(RequestBody):
    """``POST /api/tables/{id}/sit``: ``{"seat": i, "contribution": hex}`` (the
    contribution is optional)."""

    seat: Int32
    contribution: Contribution | None = None


# -- WebSocket messages -----------------------------------------------------------------


class ActionMessage(RequestBody):
    """``{"type": "action", "action": text, "turn": n}``: play for the sender's seat."""

    type: Literal["action"]
    action: Annotated[str, Field(strict=True, max_length=MAX_ACTION_TEXT)]
    turn: Int32


class SitMessage(RequestBody):
    """``{"type": "sit", "seat": i, "contribution": hex}``: take a seat, adding a random
    value to the match seed (optional)."""

    type: Literal["sit"]
    seat: Int32
    contribution: Contribution | None = None


class LeaveMessage(RequestBody):
    """``{"type": "leave"}``: free the sender's seat while the table waits."""

    type: Literal["leave"]


class PingMessage(RequestBody):
    """``{"type": "ping"}``: answered with ``{"type": "pong"}``."""

    type: Literal["ping"]


class HelloMessage(RequestBody):
    """``{"type": "hello", "token": text}``: the first message, naming the guest."""

    type: Literal["hello"]
    token: Annotated[str, Field(strict=True, max_length=MAX_TOKEN_TEXT)] | None = None


class CancelMessage(RequestBody):
    """``{"type": "cancel"}``: the creator removes the table while it waits."""

    type: Literal["cancel"]


class RematchMessage(RequestBody):
    """``{"type": "rematch", "contribution": hex}``: a seated player asks for (or
    accepts) a rematch, with a random value for the new match's seed (optional)."""

    type: Literal["rematch"]
    contribution: Contribution | None = None


class VoteBotMessage(RequestBody):
    """``{"type": "vote_bot", "seat": i}``: let the bot play for an absent player's seat."""

    type: Literal["vote_bot"]
    seat: Int32


class BackMessage(RequestBody):
    """``{"type": "back"}``: the sender plays their seat again (after a timeout)."""

    type: Literal["back"]


class ResignMessage(RequestBody):
    """``{"type": "resign"}``: the sender's seat gives up the match (it ranks last)."""

    type: Literal["resign"]


class AbortMessage(RequestBody):
    """``{"type": "abort"}``: end a playing table on which no person has moved yet."""

    type: Literal["abort"]


class ClaimMessage(RequestBody):
    """``{"type": "claim"}``: give up the seat to move, idle too long (``docs/server.md``)."""

    type: Literal["claim"]


class ChatMessage(RequestBody):
    """``{"type": "chat", "text": ...}``: a line of chat to everyone at the table (its
    length is checked by :mod:`konkun.server.features.chat`)."""

    type: Literal["chat"]
    text: Annotated[str, Field(strict=True, max_length=MAX_MESSAGE_BYTES)]


ClientMessage = (ActionMessage | SitMessage | LeaveMessage | PingMessage | HelloMessage
                 | CancelMessage | RematchMessage | VoteBotMessage | BackMessage
                 | ChatMessage | ResignMessage | AbortMessage | ClaimMessage)

_MESSAGES: dict[str, type[BaseModel]] = {
    "action": ActionMessage, "sit": SitMessage, "leave": LeaveMessage, "ping": PingMessage,
    "hello": HelloMessage, "cancel": CancelMessage, "rematch": RematchMessage,
    "vote_bot": VoteBotMessage, "back": BackMessage, "chat": ChatMessage,
    "resign": ResignMessage, "abort": AbortMessage, "claim": ClaimMessage}


def parse_client_message(text: str | bytes | None) -> ClientMessage:
    """Read one WebSocket message from a client; raise :class:`ProtocolError` when it is
    too large, not JSON, not an object, of an unknown type or with a bad field."""
    if text is None or isinstance(text, bytes):
        raise ProtocolError("bad_request", "messages must be JSON text frames, not binary")
    size = len(text.encode("utf-8", "replace"))
    if len(text) > MAX_MESSAGE_BYTES or size > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"message of {size} bytes is over the limit of "
                            f"{MAX_MESSAGE_BYTES} bytes")
    data = load_json(text, "message")
    kind = data.get("type")
    model = _MESSAGES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ProtocolError(
            "bad_request", f"unknown message type {kind!r}: expected "
            + ", ".join(repr(name) for name in _MESSAGES), data)
    parsed: ClientMessage = validated(model, data)  # type: ignore[assignment]
    return parsed
