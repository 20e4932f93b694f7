"""The login limiter: what bounds password guessing, and never locks an owner out for long.

Every request that checks or hashes a password (a login, a password change, a claim) is
**counted when it starts**, before the argon2 work, so requests sent at one instant are
counted one after another and only the allowed number is ever checked. Three bounds:

- **per account and address** (the pair): ``per_pair`` attempts in ``window`` seconds are
  free; each further attempt of that account from that address waits a delay that doubles
  (``first_delay``, ``2 * first_delay``, ... at most ``max_delay``) after the last one. A
  right password clears the pair. Guesses from other addresses never delay the owner's
  own address: there is no lock of the whole account.
- **per address**: ``per_address`` attempts in ``window`` seconds, whatever the names
  (spraying many names from one address).
- **at once**: at most ``per_account_at_once`` verifications of one account run at the
  same time, in all the processes on a database, from the addresses that already tried
  it in the window; an address that has not (the owner, whose right password cleared
  her pair) is never refused for that account's checks at once, so guesses from
  elsewhere never keep her waiting. At most ``at_once`` password hashes in all run in
  one process (each costs that process's memory and CPU). A request past either is
  refused at once (``login_limited``) rather than queued.

One process counts in memory (:class:`LoginLimiter`). With several processes on one
PostgreSQL database the same windows are rows every process shares
(:class:`konkun.server.clusterlimits.LoginLog`), counted under a lock per key. In memory,
only windows that ended are ever dropped (swept when ``MAX_KEYS`` windows are held, then
again each time the count doubles): a window that delays someone is never forgotten,
however many other names are tried; the memory grows only with attempts the address
limit already bounds. Across processes, each verification running holds a lease row
(``SharedWindows.hold``) that the check gives back when it ends; a process that dies
holding one blocks nothing after ``lease`` seconds. See ``docs/server.md``, "Accounts and
sessions".
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from konkun.server.core.protocol import ProtocolError


class SharedWindows(Protocol):
    """The windows every process on a shared database counts in
    (:class:`konkun.server.clusterlimits.LoginLog`)."""

    def begin(self, account: str | None, address: str) -> None:
        """Count one attempt as it starts; ``login_limited`` past a bound."""

    def succeeded(self, account: str, address: str) -> None:
        """A right password: the pair's attempts are forgotten."""

    def hold(self, account: str, address: str) -> int | None:
        """Take one of the verifications of ``account`` allowed at once in every process
        for a check from ``address``: a lease id for :meth:`release` (``None``: the
        address has not tried the account in the window, so it is not bounded);
        ``login_limited`` when none is free."""

    def release(self, lease: int) -> None:
        """Give back a verification taken by :meth:`hold`."""


@dataclass(frozen=True)
class LoginRules:
    """The numbers of the login limiter (see the module's text)."""

    per_pair: int = 5
    per_address: int = 20
    window: float = 900.0
    first_delay: float = 2.0
    max_delay: float = 900.0
    per_account_at_once: int = 2
    at_once: int = 8
    lease: float = 30.0
    """Seconds after which a verification a process never gave back (it died) stops
    counting against the account's bound at once."""

    def pair_wait(self, times: Sequence[float], now: float) -> float:
        """Seconds before one more attempt of an account from an address, given the
        pair's attempts in the window (oldest first)."""
        extra = len(times) - self.per_pair
        if extra < 0:
            return 0.0
        delay = min(self.max_delay, self.first_delay * 2.0 ** min(extra, 40))
        return max(0.0, times[-1] + delay - now)

    def address_wait(self, times: Sequence[float], now: float) -> float:
        """Seconds before one more attempt from an address, given its attempts in the
        window (oldest first)."""
        if len(times) < self.per_address:
            return 0.0
        return max(0.0, times[-self.per_address] + self.window - now)


def pair_key(account: str, address: str) -> str:
    """The key of one account's attempts from one address."""
    return f"pair:{address}|{account}"


def address_key(address: str) -> str:
    """The key of an address's attempts."""
    return "address:" + address


def running_key(account: str) -> str:
    """The key of an account's verifications running now (across processes)."""
    return "running:" + account


def busy() -> ProtocolError:
    """The refusal of a verification past the bound at once."""
    return ProtocolError("login_limited", "too many password checks at once: try again "
                         "in 1 s")


def limited(wait: float) -> ProtocolError:
    """The refusal of an attempt that must wait ``wait`` seconds."""
    return ProtocolError("login_limited", f"too many login attempts: try again in "
                         f"{int(wait) + 1} s")


class LoginLimiter:
    """The login limiter of one process (see the module's text); ``shared`` adds the
    windows of every process on a shared database."""

    MAX_KEYS = 10_000
    """Windows remembered before the ended ones are swept out (a live window is never
    dropped: the next sweep waits until the memory has doubled)."""

    def __init__(self, per_pair: int = 5, per_address: int = 20, window: float = 900.0,
                 clock: Callable[[], float] = time.monotonic, *,
                 first_delay: float = 2.0, per_account_at_once: int = 2,
                 at_once: int = 8) -> None:
        self.rules = LoginRules(per_pair, per_address, window, first_delay, window,
                                per_account_at_once, at_once)
        self._clock = clock
        self._events: OrderedDict[str, list[float]] = OrderedDict()
        self._running: dict[str, int] = {}
        self._running_total = 0
        self._sweep_at = self.MAX_KEYS
        self.shared: SharedWindows | None = None
        """The windows of every server process on the database, when it is shared
        (:mod:`.clusterlimits`); this process's memory is checked first."""

    def begin(self, account: str, address: str) -> None:
        """Count one attempt on ``account`` from ``address``, now; ``login_limited``
        (nothing counted) when the pair or the address must wait."""
        now = self._clock()
        pair, source = pair_key(account, address), address_key(address)
        wait = max(self.rules.pair_wait(self._recent(pair, now), now),
                   self.rules.address_wait(self._recent(source, now), now))
        if wait > 0:
            raise limited(wait)
        self._add(pair, now)
        self._add(source, now)

    def count_address(self, address: str) -> None:
        """Count one attempt from ``address`` that names no account (a claim's new
        password); ``login_limited`` when the address must wait."""
        now = self._clock()
        source = address_key(address)
        wait = self.rules.address_wait(self._recent(source, now), now)
        if wait > 0:
            raise limited(wait)
        self._add(source, now)

    def succeeded(self, account: str, address: str) -> None:
        """A right password: the pair's attempts are forgotten."""
        self._events.pop(pair_key(account, address), None)

    @contextmanager
    def running(self, account: str | None, address: str | None = None) -> Iterator[None]:
        """Hold one of the verifications allowed at once (in all, and of ``account``
        unless ``address`` has not tried it in the window) for the ``with`` block;
        ``login_limited`` when none is free."""
        key = account if account is not None and self.bounded(account, address) else None
        if self._running_total >= self.rules.at_once or (
                key is not None
                and self._running.get(key, 0) >= self.rules.per_account_at_once):
            raise busy()
        self._running_total += 1
        if key is not None:
            self._running[key] = self._running.get(key, 0) + 1
        try:
            yield
        finally:
            self._running_total -= 1
            if key is not None:
                self._running[key] -= 1
                if not self._running[key]:
                    del self._running[key]

    def bounded(self, account: str, address: str | None) -> bool:
        """Whether a check of ``account`` from ``address`` counts against the account's
        bound at once: the address tried it in the window (``None``: always)."""
        return address is None or bool(self._recent(pair_key(account, address),
                                                    self._clock()))

    def attempts(self, key: str) -> int:
        """The attempts counted under ``key`` in the window (tests and figures)."""
        return len(self._recent(key, self._clock()))

    def _recent(self, key: str, now: float) -> list[float]:
        events = [t for t in self._events.get(key, ()) if now - t < self.rules.window]
        if events:
            self._events[key] = events
        else:
            self._events.pop(key, None)
        return events

    def _add(self, key: str, now: float) -> None:
        if key not in self._events and len(self._events) >= self._sweep_at:
            for old in list(self._events):
                self._recent(old, now)
            self._sweep_at = max(self.MAX_KEYS, 2 * len(self._events))
        self._events.setdefault(key, []).append(now)
        self._events.move_to_end(key)
