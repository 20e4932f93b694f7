"""Accounts: a guest claims their nickname with a password and keeps their player id.

An account *is* a guest's player id with a password: claiming (``POST /api/account/claim``)
stores the nickname, its two skeletons (:mod:`konkun.nicknames`: Unicode's UTS #39
skeleton in small letters and in capitals, each unique, so ``Маша`` and a mixed-script
``MAШA`` cannot both be accounts) and an argon2 hash of the password
under the guest's ``player_id``. Every game the guest played stays theirs, since seats and
the games index name that id. Logging in from any device (``POST /api/account/login``)
gives a token for the same player id in a new session; every session of an account is
kept in ``konkun_sessions``, so "log out everywhere" revokes them all (through
``konkun_revoked``, as ``POST /api/revoke`` does for one) and a password change revokes
every other one. Logins, password changes and claims are counted when they start and
bounded per account and address, per address and at once
(:class:`~konkun.server.core.loginlimit.LoginLimiter`). See ``docs/server.md``,
"Accounts and sessions".
"""

from __future__ import annotations

import asyncio
import functools
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import String, delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from konkun.nicknames import caps_skeleton, nickname_skeleton
from konkun.server.core.loginlimit import LoginLimiter
from konkun.server.core.protocol import HTTP_STATUS, ProtocolError, clean_nickname
from konkun.server.store.storage import now_text

T = TypeVar("T")

ACCOUNT_ERRORS = {
    "nickname_taken": 409,
    "already_claimed": 409,
    "weak_password": 400,
    "wrong_password": 401,
    "login_limited": 429,
    "not_an_account": 403,
    "unknown_player": 404,
}
"""The error codes of accounts, profiles and leaderboards, with their HTTP status."""
HTTP_STATUS.update(ACCOUNT_ERRORS)

MIN_PASSWORD = 8
MAX_PASSWORD = 256
"""Password lengths accepted, in characters (argon2 takes any length; the cap bounds
the work one request can ask for)."""


class AccountsBase(DeclarativeBase):
    """The schema of accounts and their sessions."""


class AccountRow(AccountsBase):
    """A claimed nickname: the guest's player id, the nickname, its skeletons in small
    letters and in capitals (each unique) and the password's argon2 hash."""

    __tablename__ = "konkun_accounts"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    nickname: Mapped[str] = mapped_column(String(200))
    skeleton: Mapped[str] = mapped_column(String(200), unique=True)
    caps_skeleton: Mapped[str] = mapped_column(String(200), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[str] = mapped_column(String(40))
    password_changed_at: Mapped[str] = mapped_column(String(40))


class SessionRow(AccountsBase):
    """One live session of an account (a device it logged in on, or the guest session
    it was claimed from)."""

    __tablename__ = "konkun_sessions"

    session: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    created_at: Mapped[str] = mapped_column(String(40))


@dataclass(frozen=True)
class Account:
    """An account as read back."""

    player_id: str
    nickname: str
    skeleton: str
    password_hash: str
    created_at: str
    caps_skeleton: str = ""


def _account(row: AccountRow) -> Account:
    return Account(row.player_id, row.nickname, row.skeleton, row.password_hash,
                   row.created_at, row.caps_skeleton)


def skeleton_of(nickname: str) -> str:
    """The nickname's skeleton; ``bad_request`` when it shows nothing (only separators,
    accents or invisible characters)."""
    skeleton = nickname_skeleton(nickname)
    if not skeleton:
        raise ProtocolError("bad_request", f"nickname {nickname!r} shows no letter or digit",
                            nickname)
    return skeleton


RESERVED_SUFFIXES = ("bot", "бот")
"""Words a bot's name may carry ("Expert (bot)"): a nickname that is a bot's name with one
of them is reserved too."""


@functools.cache
def _reserved_skeletons() -> frozenset[str]:
    """The skeletons (small letters and capitals) of every bot's and ladder level's name in
    every language, alone and with "bot"."""
    from konkun.bots.ladder import LADDER
    from konkun.server.core.botseats import OFFERED

    names = {name for level in LADDER for name in level.names.values()}
    names |= {name for _spec, name, _text in OFFERED} | set(RESERVED_SUFFIXES)
    skeletons = set()
    for name in names:
        for suffix in ("", *RESERVED_SUFFIXES):
            skeletons |= {nickname_skeleton(name + suffix), "^" + caps_skeleton(name + suffix)}
    return frozenset(skeletons)


def reserved_nickname(nickname: str) -> bool:
    """Whether a nickname looks like a bot's or a ladder level's name (``Expert``,
    ``Мастер``, ``Expert (bot)``, ``ᴇxpert bot``, ...): nobody may take it."""
    bare = "".join(char for char in nickname if char not in "()[]{}")
    return bool({nickname_skeleton(bare), "^" + caps_skeleton(bare)} & _reserved_skeletons())


def check_password(password: object, nickname: str) -> str:
    """A new password, checked: a string of ``MIN_PASSWORD`` to ``MAX_PASSWORD``
    characters that is not the nickname; else ``weak_password``."""
    if not isinstance(password, str):
        raise ProtocolError("bad_request", "password must be a string")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ProtocolError("weak_password", f"a password needs {MIN_PASSWORD} to "
                            f"{MAX_PASSWORD} characters, not {len(password)}")
    if nickname_skeleton(password) == nickname_skeleton(nickname):
        raise ProtocolError("weak_password", "the password must not be the nickname")
    return password


class AccountStore:
    """Accounts and sessions in the database of the game record (synchronous; the server
    calls it in its storage thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, account: Account, session: str, now: str) -> None:
        """Store a new account and its first session; ``nickname_taken`` when the
        skeleton is another account's, ``already_claimed`` when the player has one."""
        with Session(self.engine) as db:
            try:
                with db.begin():
                    if db.get(AccountRow, account.player_id) is not None:
                        raise ProtocolError("already_claimed", "this player already has an "
                                            "account: log in instead")
                    db.add(AccountRow(player_id=account.player_id, nickname=account.nickname,
                                      skeleton=account.skeleton,
                                      caps_skeleton=account.caps_skeleton
                                      or caps_skeleton(account.nickname),
                                      password_hash=account.password_hash,
                                      created_at=now, password_changed_at=now))
                    db.flush()
                    db.add(SessionRow(session=session, player_id=account.player_id,
                                      created_at=now))
            except IntegrityError:
                raise ProtocolError("nickname_taken", f"the nickname {account.nickname!r} "
                                    "(or one that looks like it) belongs to an account",
                                    account.nickname) from None

    def by_skeleton(self, skeleton: str) -> Account | None:
        """The account whose nickname has this skeleton (in small letters)."""
        with Session(self.engine) as db:
            row = db.scalars(select(AccountRow).where(AccountRow.skeleton == skeleton)).first()
            return _account(row) if row is not None else None

    def look_alike(self, nickname: str) -> Account | None:
        """The account whose nickname looks like ``nickname`` (either skeleton equal),
        the one alike in small letters first."""
        found = self.by_skeleton(nickname_skeleton(nickname))
        if found is not None:
            return found
        with Session(self.engine) as db:
            row = db.scalars(select(AccountRow).where(
                AccountRow.caps_skeleton == caps_skeleton(nickname))).first()
            return _account(row) if row is not None else None

    def by_player(self, player_id: str) -> Account | None:
        """The account of a player id."""
        with Session(self.engine) as db:
            row = db.get(AccountRow, player_id)
            return _account(row) if row is not None else None

    def nicknames(self, player_ids: list[str]) -> dict[str, str]:
        """The nicknames of those player ids that are accounts."""
        if not player_ids:
            return {}
        with Session(self.engine) as db:
            return {str(pid): str(name) for pid, name in db.execute(
                select(AccountRow.player_id, AccountRow.nickname)
                .where(AccountRow.player_id.in_(player_ids))).all()}

    def set_password(self, player_id: str, password_hash: str, now: str) -> None:
        """Replace an account's password hash."""
        with Session(self.engine) as db, db.begin():
            db.execute(update(AccountRow).where(AccountRow.player_id == player_id)
                       .values(password_hash=password_hash, password_changed_at=now))

    def add_session(self, player_id: str, session: str, now: str) -> None:
        """Record a new session of an account."""
        with Session(self.engine) as db, db.begin():
            db.merge(SessionRow(session=session, player_id=player_id, created_at=now))

    def sessions(self, player_id: str) -> list[str]:
        """The live sessions of an account."""
        with Session(self.engine) as db:
            return [str(s) for s in db.scalars(
                select(SessionRow.session).where(SessionRow.player_id == player_id)
                .order_by(SessionRow.created_at, SessionRow.session)).all()]

    def end_sessions_named(self, player_id: str, sessions: list[str]) -> None:
        """Forget some sessions of a player (those logged out)."""
        with Session(self.engine) as db, db.begin():
            db.execute(delete(SessionRow).where(SessionRow.player_id == player_id,
                                                SessionRow.session.in_(sessions)))

    def end_sessions(self, player_id: str, keep: str | None = None) -> list[str]:
        """Forget an account's sessions (all, or all but ``keep``); return those ended."""
        with Session(self.engine) as db, db.begin():
            query = select(SessionRow.session).where(SessionRow.player_id == player_id)
            if keep is not None:
                query = query.where(SessionRow.session != keep)
            ended = [str(s) for s in db.scalars(query).all()]
            if ended:
                db.execute(delete(SessionRow).where(SessionRow.session.in_(ended)))
            return ended


class Passwords:
    """argon2id hashes (argon2-cffi's defaults unless a hasher is given), computed in a
    worker thread so that the event loop never waits on one."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        """The hash of a new password."""
        return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` is the one hashed; with no hash (no such account), the
        same work is done on a dummy so that the answer's timing tells nothing."""
        if password_hash is None:
            if self._dummy is None:
                self._dummy = await self.hash(secrets.token_urlsafe(16))
            password_hash = self._dummy
            password = password + "\x00"  # never the dummy's
        try:
            return await asyncio.to_thread(self.hasher.verify, password_hash, password)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, password_hash: str) -> bool:
        """Whether a stored hash was made with weaker parameters than today's."""
        return self.hasher.check_needs_rehash(password_hash)


DbRunner = Callable[..., Awaitable[Any]]
"""How the server runs a storage function off the event loop (``Lobby.db``)."""


class AccountService:
    """Claiming, logging in, passwords and sessions, on one :class:`AccountStore`."""

    def __init__(self, store: AccountStore, run: DbRunner, passwords: Passwords | None = None,
                 limiter: LoginLimiter | None = None) -> None:
        self.store = store
        self._run = run
        self.passwords = passwords or Passwords()
        self.limiter = limiter or LoginLimiter()

    async def db(self, function: Callable[..., T], *args: Any) -> T:
        """Run one storage function in the storage thread."""
        result: T = await self._run(function, *args)
        return result

    async def account_of(self, player_id: str) -> Account | None:
        """The account of a player id (``None``: a guest)."""
        return await self.db(self.store.by_player, player_id)

    async def check_free(self, nickname: str, player_id: str | None = None) -> None:
        """``nickname_taken`` when the nickname (or a look-alike) is an account's other
        than ``player_id``'s."""
        skeleton_of(nickname)
        if reserved_nickname(nickname):
            raise ProtocolError("nickname_taken", f"the nickname {nickname!r} (or one that "
                                "looks like it) is a bot's: choose another", nickname)
        owner = await self.db(self.store.look_alike, nickname)
        if owner is not None and owner.player_id != player_id:
            raise ProtocolError("nickname_taken", f"the nickname {nickname!r} (or one that "
                                "looks like it) belongs to an account: log in, or choose "
                                "another", nickname)

    async def claim(self, player_id: str, session: str, nickname: object,
                    password: object, address: str, now: str) -> Account:
        """Make the guest ``player_id`` an account with this nickname and password, in the
        new ``session`` (the guest's own is ended by the caller); the hash is counted
        against ``address`` like a login."""
        name = clean_nickname(nickname)
        skeleton = skeleton_of(name)
        secret = check_password(password, name)
        if await self.account_of(player_id) is not None:
            raise ProtocolError("already_claimed", "this player already has an account")
        await self.check_free(name)
        async with self._verifying(None, address):
            await self._attempt(None, address)
            password_hash = await self.passwords.hash(secret)
        account = Account(player_id, name, skeleton, password_hash, now, caps_skeleton(name))
        await self.db(self.store.create, account, session, now)
        return account

    async def login(self, nickname: object, password: object, address: str) -> Account:
        """The account a nickname and password open; ``login_limited`` past the limits,
        ``wrong_password`` for an unknown nickname or a wrong password alike."""
        name = clean_nickname(nickname)
        if not isinstance(password, str):
            raise ProtocolError("bad_request", "password must be a string")
        if len(password) > MAX_PASSWORD:  # no password is that long: not worth a hash
            raise ProtocolError("wrong_password", "no account with this nickname and "
                                "password")
        skeleton = skeleton_of(name)
        async with self._verifying(skeleton, address):
            await self._attempt(skeleton, address)
            account = await self.db(self.store.look_alike, name)
            right = await self.passwords.verify(
                account.password_hash if account is not None else None, password)
        if account is None or not right:
            raise ProtocolError("wrong_password", "no account with this nickname and "
                                "password")
        await self._succeeded(skeleton, address)
        if self.passwords.needs_rehash(account.password_hash):
            await self.db(self.store.set_password, account.player_id,
                          await self.passwords.hash(password), now_text())
        return account

    async def change_password(self, account: Account, old: object, new: object,
                              address: str, now: str) -> None:
        """Replace the password once the old one is given (counted like a login)."""
        if not isinstance(old, str) or len(old) > MAX_PASSWORD:
            raise ProtocolError("bad_request", "password must be a string")
        secret = check_password(new, account.nickname)
        async with self._verifying(account.skeleton, address):
            await self._attempt(account.skeleton, address)
            right = await self.passwords.verify(account.password_hash, old)
            password_hash = await self.passwords.hash(secret) if right else ""
        if not right:
            raise ProtocolError("wrong_password", "the current password is wrong")
        await self._succeeded(account.skeleton, address)
        await self.db(self.store.set_password, account.player_id, password_hash, now)

    @asynccontextmanager
    async def _verifying(self, account: str | None, address: str) -> AsyncIterator[None]:
        """Hold one of the verifications allowed at once for the ``async with`` block:
        of ``account`` (``None``: a claim, no account yet) in every process on a shared
        database when ``address`` already tried it, and of this process in all
        (:meth:`LoginLimiter.running`); ``login_limited`` when none is free."""
        shared = self.limiter.shared
        with self.limiter.running(account, address):
            lease = None if shared is None or account is None else \
                await self.db(shared.hold, account, address)
            try:
                yield
            finally:
                if lease is not None and shared is not None:
                    await self.db(shared.release, lease)

    async def _attempt(self, account: str | None, address: str) -> None:
        """Count an attempt as it starts (:class:`LoginLimiter`): in memory first, then,
        with several server processes, in the database they share. ``account`` is
        ``None`` for a claim (counted against the address alone)."""
        limiter = self.limiter
        if account is None:
            limiter.count_address(address)
        else:
            limiter.begin(account, address)
        if limiter.shared is not None:
            await self.db(limiter.shared.begin, account, address)

    async def _succeeded(self, account: str, address: str) -> None:
        self.limiter.succeeded(account, address)
        if self.limiter.shared is not None:
            await self.db(self.limiter.shared.succeeded, account, address)
