"""Guest identities: signed tokens that bind a seat to one person.

``POST /api/guest`` hands out a token (itsdangerous, signed and timestamped with the
server's secret) that names a fresh ``player_id``, the guest's nickname and a session id.
The token is the only credential: the server keeps no password, and a token that does not
verify, has expired (``Settings.token_seconds``) or whose session was revoked is refused.
A token older than ``Settings.token_renew_seconds`` is renewed silently (same player, same
session) whenever it is used; revoking a session ends all its renewals.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from itsdangerous import BadSignature, SignatureExpired, URLSafeSerializer, URLSafeTimedSerializer

from konkun.server.core.protocol import ProtocolError, clean_nickname

SECRET_FILE = "secret.key"
"""The file in the data directory that keeps the signing secret between runs."""

_SALT = "konkun.guest.v1"
_SALT_TIMED = "konkun.guest.v2"


@dataclass(frozen=True)
class Guest:
    """A guest: a stable player id and the nickname chosen with it."""

    player_id: str
    nickname: str
    session: str = ""
    """The session the token belongs to (kept by renewals; what a revocation ends)."""
    issued_at: float = 0.0
    """When the token was signed (Unix time; 0 for a token of the first release)."""


class TokenSigner:
    """Issues, verifies, renews and revokes guest tokens with one secret."""

    def __init__(self, secret: str, lifetime: float = 7 * 86400.0,
                 renew_after: float = 86400.0) -> None:
        if not secret:
            raise ValueError("the token secret must not be empty")
        self.lifetime = lifetime
        self.renew_after = renew_after
        self._serializer = URLSafeTimedSerializer(secret, salt=_SALT_TIMED)
        self._legacy = URLSafeSerializer(secret, salt=_SALT)
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

    def _sign(self, guest: Guest) -> str:
        return str(self._serializer.dumps({"id": guest.player_id, "name": guest.nickname,
                                           "sid": guest.session}))

    def verify(self, token: str) -> Guest:
        """The guest a token names; raise ``unauthorized`` when it does not verify, has
        expired or was revoked."""
        if not isinstance(token, str) or not token or len(token) > 1024:
            raise ProtocolError("unauthorized", "missing or malformed token")
        try:
            data, stamp = self._serializer.loads(token, max_age=int(self.lifetime),
                                                 return_timestamp=True)
            issued = stamp.timestamp()
        except SignatureExpired:
            raise ProtocolError("unauthorized", "token expired: get a new one "
                                "(POST /api/guest)") from None
        except BadSignature:
            data, issued = self._verify_legacy(token), 0.0
        if not isinstance(data, dict) or not isinstance(data.get("id"), str) \
                or not isinstance(data.get("name"), str):
            raise ProtocolError("unauthorized", "token does not name a guest")
        sid = data.get("sid")
        session = sid if isinstance(sid, str) else str(data["id"])
        if session in self.revoked:
            raise ProtocolError("unauthorized", "token revoked")
        return Guest(player_id=data["id"], nickname=data["name"], session=session,
                     issued_at=issued)

    def _verify_legacy(self, token: str) -> object:
        """A token of the first release (no timestamp), accepted for one release and
        renewed at its first use."""
        try:
            return self._legacy.loads(token)
        except BadSignature:
            raise ProtocolError("unauthorized", "token does not verify") from None

    def renewal(self, guest: Guest) -> str | None:
        """A fresh token for ``guest`` when its token is due for renewal, else ``None``."""
        if time.time() - guest.issued_at < self.renew_after:
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
