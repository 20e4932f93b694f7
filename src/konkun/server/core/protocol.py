"""The messages of the web protocol (``docs/protocol.md``): parsing, validation and errors.

Every bad input becomes a :class:`ProtocolError` with a stable ``code``, a human message and
the offending input; :func:`error_payload` turns it into the JSON both HTTP and WebSocket
clients receive. Nothing here touches a table: a message that fails here changes nothing.
"""

from __future__ import annotations

import json
import math
from typing import Any, cast

from konkun.server.core.names import NicknameError, check_nickname
from konkun.server.core.outbound import ErrorMessage

MAX_MESSAGE_BYTES = 4096
"""The largest WebSocket message the server reads (bytes of UTF-8)."""

MAX_BODY_BYTES = 16 * 1024
"""The largest HTTP request body the server reads."""

MAX_ACTION_TEXT = 512
MAX_RULE_TEXT = 64
MAX_RULES = 32
MAX_BOT_SPEC = 64

HTTP_STATUS = {
    "bad_request": 400,
    "unknown_table": 404,
    "unknown_game": 400,
    "invalid_rule": 400,
    "unknown_bot": 400,
    "unauthorized": 401,
    "seat_taken": 409,
    "bad_seat": 400,
    "bad_contribution": 400,
    "not_seated": 403,
    "not_waiting": 409,
    "not_started": 409,
    "not_your_turn": 409,
    "stale_turn": 409,
    "invalid_action": 400,
    "illegal_move": 409,
    "game_over": 409,
    "not_finished": 409,
    "too_large": 413,
    "too_slow": 408,
    "unsupported_media_type": 415,
    "forbidden_origin": 403,
    "rate_limited": 429,
    "too_many_tables": 503,
    "too_many_connections": 503,
    "too_many_seats": 429,
    "storage": 503,
    "not_found": 404,
    "not_creator": 403,
    "hints_off": 403,
    "not_absent": 409,
    "resigned": 409,
    "people_moved": 409,
    "not_idle": 409,
    "chat_empty": 400,
    "chat_too_long": 400,
    "chat_closed": 409,
    "chat_full": 409,
    "nickname_too_long": 400,
    "analysis_busy": 503,
    "internal": 500,
}
"""The HTTP status of each error code."""

_MISSING = object()


class ProtocolError(Exception):
    """A bad input, reported to the client as ``{"type": "error", "code", "message"}``."""

    def __init__(self, code: str, message: str, input: Any = _MISSING,
                 details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.input = input
        self.details = details or {}
        """Fields the error adds to its payload (a limit's ``limit`` and ``max``)."""

    @property
    def status(self) -> int:
        """The HTTP status for this error."""
        return HTTP_STATUS.get(self.code, 400)

    def payload(self) -> ErrorMessage:
        """The error as the JSON object sent to the client."""
        return cast("ErrorMessage", error_payload(self.code, self.message, self.input)
                    | self.details)  # a limit's refusal: limit, max, mine


def error_payload(code: str, message: str, input: Any = _MISSING) -> ErrorMessage:
    """The error message ``{"type": "error", "code", "message"[, "input"]}``."""
    payload: ErrorMessage = {"type": "error", "code": code, "message": message}
    if input is not _MISSING:
        payload["input"] = _echo(input)
    return payload


def _echo(value: Any) -> Any:
    """The offending input, cut short so that an error never grows a message, and always
    sendable: no ``NaN`` or infinity, no lone surrogate."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, bool | int | float) or value is None:
        return value
    if not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False, default=str)
    value = value.encode("utf-8", "replace").decode("utf-8")
    return value if len(value) <= 200 else value[:200] + "…"


def require_str(data: dict[str, Any], field: str, limit: int) -> str:
    """The text field ``field`` of a message; raise ``bad_request`` when absent or too long."""
    value = data.get(field)
    if not isinstance(value, str):
        raise ProtocolError("bad_request", f"field {field!r} must be a string", value)
    if len(value) > limit:
        raise ProtocolError("bad_request", f"field {field!r} is over {limit} characters", value)
    return value


def require_int(data: dict[str, Any], field: str) -> int:
    """The integer field ``field`` of a message; raise ``bad_request`` otherwise."""
    value = data.get(field)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError("bad_request", f"field {field!r} must be an integer", value)
    if not -(2**31) <= value < 2**31:
        raise ProtocolError("bad_request", f"field {field!r} is out of range", value)
    return value


def clean_nickname(nickname: object) -> str:
    """A nickname, trimmed; raise ``nickname_too_long`` for one over 24 user-perceived
    characters (emoji count as one), ``bad_request`` for an empty (or all-space) one or
    one holding control characters (:mod:`konkun.server.core.names`)."""
    if not isinstance(nickname, str):
        raise ProtocolError("bad_request", "nickname must be a string", nickname)
    try:
        return check_nickname(nickname)
    except NicknameError as error:
        code = "nickname_too_long" if error.reason == "too_long" else "bad_request"
        raise ProtocolError(code, str(error), nickname) from None


def rule_texts(rules: object) -> dict[str, str]:
    """Rule options as ``{name: text}``; numbers and booleans become text (``true``)."""
    if rules is None:
        return {}
    if not isinstance(rules, dict):
        raise ProtocolError("bad_request", "rules must be an object {name: value}", rules)
    if len(rules) > MAX_RULES:
        raise ProtocolError("bad_request", f"more than {MAX_RULES} rule options", rules)
    texts: dict[str, str] = {}
    for name, value in rules.items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, int | float | str):
            text = str(value).strip()
        else:
            raise ProtocolError(
                "invalid_rule", f"rule {name!r} must be a string, number or boolean", value)
        if len(str(name)) > MAX_RULE_TEXT or len(text) > MAX_RULE_TEXT:
            raise ProtocolError("invalid_rule", f"rule {name!r} is too long", value)
        texts[str(name).strip()] = text
    return texts


def bot_seats(bots: object, num_seats: int) -> dict[int, str]:
    """Bot seats as ``{seat: spec}`` from ``{"1": "greedy", ...}``; seats checked."""
    if bots is None:
        return {}
    if not isinstance(bots, dict):
        raise ProtocolError("bad_request", "bots must be an object {seat: spec}", bots)
    seats: dict[int, str] = {}
    for key, spec in bots.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise ProtocolError("bad_seat", f"bot seat {key!r} is not a seat number",
                                key) from None
        if not 0 <= seat < num_seats:
            raise ProtocolError(
                "bad_seat", f"bot seat {seat} is out of range 0..{num_seats - 1}", key)
        if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_BOT_SPEC:
            raise ProtocolError("unknown_bot", f"bot spec for seat {seat} must be a short "
                                "non-empty string", spec)
        seats[seat] = spec.strip()
    return seats
