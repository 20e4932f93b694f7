"""Guest identities: signed tokens that bind a seat to one person.

``POST /api/guest`` hands out a token (itsdangerous, signed and timestamped with the
server's secret) that names a fresh ``player_id``, the guest's nickname and a session id.
The token is the only credential: the server keeps no password, and a token that does not
verify, has expired (``Settings.token_seconds``) or whose session was revoked is refused.
A token older than ``Settings.token_renew_seconds`` is renewed silently (same player, same
session) whenever it is used; revoking a session ends all its renewals. Processes whose
clocks differ by up to :data:`CLOCK_SKEW` seconds accept each other's tokens.

A **seat token** (:meth:`TokenSigner.seat_token`, the token of a seat's link) names the same
player and session but also one table: it verifies only where that table is named
(``verify(token, table=...)``: the table's WebSocket and its seat's own routes), never for
the account or anything else. Tokens of the first release (no timestamp, no session)
expired with the release after it and are refused.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from itsdangerous import BadSignature, URLSafeTimedSerializer

from konkun.server.core.protocol import ProtocolError, clean_nickname

SECRET_FILE = "secret.key"
"""The file in the data directory that keeps the signing secret between runs."""

_SALT_TIMED = "konkun.guest.v2"
_SALT_SEAT = "konkun.seat.v1"

CLOCK_SKEW = 300.0
"""Seconds a token's time may be ahead of this process's clock (another process whose clock
runs ahead signed it) and still verify."""


@dataclass(frozen=True)
class Guest:
    """A guest: a stable player id and the nickname chosen with it."""

    player_id: str
    nickname: str
    session: str = ""
    """The session the token belongs to (kept by renewals; what a revocation ends)."""
    issued_at: float = 0.0
    """When the token was signed (Unix time)."""
    table: str | None = None
    """The one table a seat token opens; ``None`` for a player's own token."""


class TokenSigner:
    """Issues, verifies, renews and revokes guest tokens with one secret."""

    def __init__(self, secret: str, lifetime: float = 7 * 86400.0,
                 renew_after: float = 86400.0, skew: float = CLOCK_SKEW,
                 clock: Callable[[], float] = time.time) -> None:
        if not secret:
            raise ValueError("the token secret must not be empty")
        self.lifetime = lifetime
        self.renew_after = renew_after
        self.skew = skew
        self._clock = clock
        self._serializer = URLSafeTimedSerializer(secret, salt=_SALT_TIMED)
        self._seats = URLSafeTimedSerializer(secret, salt=_SALT_SEAT)
        self.revoked: set[str] = set()
        """Revoked session ids."""

    def issue(self, nickname: str) -> tuple[str, Guest]:
        """A new guest with this nickname and its token."""
        guest = Guest(player_id=secrets.token_urlsafe(12), nickname=clean_nickname(nickname),
                      session=secrets.token_urlsafe(12))
        return self._sign(guest), guest

    def session_for(self, player_id: str, nickname: str) -> tuple[str, Guest]:
        """A token in a new session for an existing player (an account logging in)."""
        guest = Guest(player_id=player_id, nickname=nickname,
                      session=secrets.token_urlsafe(12))
        return self._sign(guest), guest

    def token_for(self, guest: Guest) -> str:
        """A fresh token for ``guest`` in its own session (a claimed nickname)."""
        return self._sign(guest)

    def seat_token(self, guest: Guest, table: str) -> str:
        """A token of ``guest``'s session that opens only ``table`` (a seat's link)."""
        return self._sign(Guest(guest.player_id, guest.nickname, guest.session, table=table))

    def _sign(self, guest: Guest) -> str:
        data = {"id": guest.player_id, "name": guest.nickname, "sid": guest.session}
        if guest.table is not None:
            return str(self._seats.dumps(data | {"table": guest.table}))
        return str(self._serializer.dumps(data))

    def verify(self, token: str, table: str | None = None) -> Guest:
        """The guest a token names; raise ``unauthorized`` when it does not verify, has
        expired or was revoked. A seat token verifies only when ``table`` is its table."""
        if not isinstance(token, str) or not token or len(token) > 1024:
            raise ProtocolError("unauthorized", "missing or malformed token")
        data, issued = self._signed(token)
        if not isinstance(data, dict) or not isinstance(data.get("id"), str) \
                or not isinstance(data.get("name"), str):
            raise ProtocolError("unauthorized", "token does not name a guest")
        scope = data.get("table")
        if scope is not None and scope != table:
            raise ProtocolError("unauthorized", "this is a seat link's token: it opens only "
                                "its own table's seat")
        age = self._clock() - issued
        if age < -self.skew:
            raise ProtocolError("unauthorized", "token signed in the future: check the "
                                "server clocks")
        if age > self.lifetime:
            raise ProtocolError("unauthorized", "token expired: get a new one "
                                "(POST /api/guest)")
        sid = data.get("sid")
        session = sid if isinstance(sid, str) else str(data["id"])
        if session in self.revoked:
            raise ProtocolError("unauthorized", "token revoked")
        return Guest(player_id=data["id"], nickname=data["name"], session=session,
                     issued_at=issued, table=scope if isinstance(scope, str) else None)

    def _signed(self, token: str) -> tuple[object, float]:
        """The data of a player's or a seat's token and when it was signed."""
        for serializer in (self._serializer, self._seats):
            try:
                data, stamp = serializer.loads(token, return_timestamp=True)
            except BadSignature:
                continue
            return data, float(stamp.timestamp())
        raise ProtocolError("unauthorized", "token does not verify (a token of the first "
                            "release has expired: get a new one)")

    def renewal(self, guest: Guest) -> str | None:
        """A fresh token for ``guest`` when its token is due for renewal, else ``None``
        (a seat token is renewed as a seat token of the same table)."""
        if self._clock() - guest.issued_at < self.renew_after:
            return None
        return self._sign(guest)

    def revoke(self, guest: Guest) -> None:
        """End ``guest``'s session: its token and every renewal of it stop verifying."""
        self.revoked.add(guest.session)


def load_secret(explicit: str | None, data_dir: Path) -> str:
    """The signing secret: ``explicit`` (a program's setting; the command line takes none,
    since every local user can read a command line), else ``$KONKUN_SECRET``, else the
    secret file in ``data_dir`` (created 0600 with a fresh random secret the first
    time)."""
    if explicit:
        return explicit
    from_env = os.environ.get("KONKUN_SECRET")
    if from_env:
        return from_env
    path = data_dir / SECRET_FILE
    if path.exists():
        text = path.read_text().strip()
        if text:
            return text
    make_private_dir(data_dir)
    secret = secrets.token_hex(32)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(secret + "\n")
    return secret


def make_private_dir(path: Path) -> None:
    """Create ``path`` (and its parents) readable by this user only (0700)."""
    if not path.exists():
        path.mkdir(parents=True, mode=0o700)
        path.chmod(0o700)  # mkdir's mode is masked by the umask


def private_file_problems(data_dir: Path) -> list[str]:
    """What in ``data_dir`` other local users can read: the directory when not 0700, the
    files in it when not 0600 (the database, its WAL, the secret)."""
    if not data_dir.is_dir():
        return []
    problems = []
    mode = data_dir.stat().st_mode & 0o777
    if mode & 0o077:
        problems.append(f"{data_dir} is mode {mode:o} (expected 700)")
    for path in sorted(data_dir.iterdir()):
        if path.is_file():
            mode = path.stat().st_mode & 0o777
            if mode & 0o077:
                problems.append(f"{path} is mode {mode:o} (expected 600)")
    return problems


_TOKEN_IN_TEXT = re.compile(r"(token=)[^&\s\"']+")


class TokenRedactor(logging.Filter):
    """Hides ``token=...`` in log records (uvicorn logs each request's URL, and a
    WebSocket of the first release carried its token there)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "token=" in record.msg:
            record.msg = _TOKEN_IN_TEXT.sub(r"\1[hidden]", record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_TOKEN_IN_TEXT.sub(r"\1[hidden]", arg)
                                if isinstance(arg, str) and "token=" in arg else arg
                                for arg in record.args)
        return True


def redact_tokens() -> None:
    """Install a :class:`TokenRedactor` on uvicorn's loggers (once)."""
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn"):
        target = logging.getLogger(name)
        if not any(isinstance(f, TokenRedactor) for f in target.filters):
            target.addFilter(TokenRedactor())
