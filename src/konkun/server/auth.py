"""Guest identities: signed tokens that bind a seat to one person.

``POST /api/guest`` hands out a token (itsdangerous, signed with the server's secret) that
names a fresh ``player_id`` and the guest's nickname. The token is the only credential: the
server keeps no password, and a token that does not verify is refused.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from itsdangerous import BadSignature, URLSafeSerializer

from konkun.server.protocol import ProtocolError, clean_nickname

SECRET_FILE = "secret.key"
"""The file in the data directory that keeps the signing secret between runs."""

_SALT = "konkun.guest.v1"


@dataclass(frozen=True)
class Guest:
    """A guest: a stable player id and the nickname chosen with it."""

    player_id: str
    nickname: str


class TokenSigner:
    """Issues and verifies guest tokens with one secret."""

    def __init__(self, secret: str) -> None:
        if not secret:
            raise ValueError("the token secret must not be empty")
        self._serializer = URLSafeSerializer(secret, salt=_SALT)

    def issue(self, nickname: str) -> tuple[str, Guest]:
        """A new guest with this nickname and its token."""
        guest = Guest(player_id=secrets.token_urlsafe(12), nickname=clean_nickname(nickname))
        token = self._serializer.dumps({"id": guest.player_id, "name": guest.nickname})
        return str(token), guest

    def verify(self, token: str) -> Guest:
        """The guest a token names; raise ``unauthorized`` when it does not verify."""
        if not isinstance(token, str) or not token or len(token) > 1024:
            raise ProtocolError("unauthorized", "missing or malformed token")
        try:
            data = self._serializer.loads(token)
        except BadSignature:
            raise ProtocolError("unauthorized", "token does not verify") from None
        if not isinstance(data, dict) or not isinstance(data.get("id"), str) \
                or not isinstance(data.get("name"), str):
            raise ProtocolError("unauthorized", "token does not name a guest")
        return Guest(player_id=data["id"], nickname=data["name"])


def load_secret(explicit: str | None, data_dir: Path) -> str:
    """The signing secret: ``explicit``, else ``$KONKUN_SECRET``, else the secret file in
    ``data_dir`` (created with a fresh random secret the first time)."""
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
    data_dir.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_hex(32)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(secret + "\n")
    return secret
