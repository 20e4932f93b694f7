"""Provably fair deals: the server commits to a secret seed, every seated human adds a
random value, and the match seed is derived from all of them (``docs/fairness.md``).

The scheme ``konkun-fair-v1``, byte for byte (all texts ASCII, hex digits lowercase):

1. The server draws a secret seed ``S``: 32 random bytes written as 64 hex digits.
2. Before anyone contributes, it publishes the commitment ``C = hex(SHA-256(S))``, the
   SHA-256 of the 64 ASCII characters of ``S``.
3. Each seated human's browser sends a contribution: 32 random bytes as 64 hex digits.
4. The match seed is ``M = hex(SHA-256(message))`` with ``message`` the lines, each ended
   by one line feed (``0x0a``): ``konkun-fair-v1``, then ``S``, then one line
   ``SEAT:VALUE`` per contribution in increasing seat order (``SEAT`` in decimal without
   leading zeros). ``M`` is the record's ``seed``: every shuffle, cut and dealer draw of
   the match comes from :func:`konkun.cards.rng_for_seed` of it.
5. Every action is chained into a public digest. ``D0`` binds the game, the number of
   seats and the rules to the commitment: ``D0 = hex(SHA-256(C + "\n" + GAME + "\n" +
   SEATS + "\n" + RULES + "\n"))`` with ``RULES`` the record's rules as canonical JSON
   (keys sorted, no spaces, ASCII). For the action numbered ``T`` (from 1) played by
   ``SEAT`` with the text ``TEXT``,
   ``DT = hex(SHA-256(D(T-1) + "\n" + T + ":" + SEAT + ":" + TEXT + "\n"))`` (UTF-8). The
   server shows the running digest while the game is played, so a record whose rules or
   actions were altered afterwards no longer ends on the digest everybody saw.
6. When the game is over the server reveals ``S``; anyone can check ``C``, ``M`` and the
   digests.

Nobody can choose the cards: the server is bound to ``S`` before it sees any
contribution, and no player knows ``S`` when choosing theirs.

>>> secret = "00" * 32
>>> commitment(secret) == hashlib.sha256(secret.encode()).hexdigest()
True
>>> fairness = Fairness(commitment(secret), secret, (Contribution(0, "11" * 32),))
>>> fairness.check() is None
True
"""

from __future__ import annotations

import hashlib
import itertools
import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from konkun.errors import KonkunError

SCHEME = "konkun-fair-v1"
"""The name of the scheme, the first line of every match seed's message."""

HEX_DIGITS = 64
"""Length of a server seed, a contribution, a commitment and a match seed: 32 bytes in hex."""

_HEX = frozenset("0123456789abcdef")


class FairnessError(KonkunError):
    """Fairness data that is malformed (a seed that is not 64 hex digits, a seat twice)."""


def _check_hex(value: object, what: str) -> str:
    if not isinstance(value, str) or len(value) != HEX_DIGITS or not set(value) <= _HEX:
        raise FairnessError(f"invalid {what} {value!r}: expected {HEX_DIGITS} lowercase "
                            "hex digits")
    return value


def new_server_seed() -> str:
    """A fresh secret server seed: 32 bytes from the operating system, in hex."""
    return secrets.token_hex(HEX_DIGITS // 2)


def new_contribution() -> str:
    """A fresh contribution, as a browser makes one with ``crypto.getRandomValues``."""
    return secrets.token_hex(HEX_DIGITS // 2)


def commitment(server_seed: str) -> str:
    """The commitment to a server seed: SHA-256 of its 64 ASCII hex digits, in hex."""
    return hashlib.sha256(_check_hex(server_seed, "server seed").encode("ascii")).hexdigest()


@dataclass(frozen=True, slots=True, order=True)
class Contribution:
    """The random value one seat's player added to the match seed."""

    seat: int
    value: str

    def __post_init__(self) -> None:
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or self.seat < 0:
            raise FairnessError(f"invalid contribution seat {self.seat!r}")
        _check_hex(self.value, f"contribution of seat {self.seat}")

    def to_json(self) -> dict[str, Any]:
        """``{"seat": N, "value": HEX}``."""
        return {"seat": self.seat, "value": self.value}

    @staticmethod
    def from_json(data: object) -> Contribution:
        """Read :meth:`to_json` data; raise :class:`FairnessError`."""
        if not isinstance(data, Mapping) or set(data) != {"seat", "value"}:
            raise FairnessError(f"invalid contribution {data!r}: expected "
                                '{"seat": N, "value": HEX}')
        return Contribution(data["seat"], data["value"])


def _ordered(contributions: Iterable[Contribution]) -> list[Contribution]:
    ordered = sorted(contributions)
    for first, second in itertools.pairwise(ordered):
        if first.seat == second.seat:
            raise FairnessError(f"seat {first.seat} contributed twice")
    return ordered


def seed_message(server_seed: str, contributions: Iterable[Contribution]) -> bytes:
    """The bytes whose SHA-256 is the match seed (see the module's step 4)."""
    lines = [SCHEME, _check_hex(server_seed, "server seed")]
    lines += [f"{c.seat}:{c.value}" for c in _ordered(contributions)]
    return "".join(line + "\n" for line in lines).encode("ascii")


def match_seed(server_seed: str, contributions: Iterable[Contribution]) -> str:
    """The match seed derived from the server seed and the players' contributions."""
    return hashlib.sha256(seed_message(server_seed, contributions)).hexdigest()


def canonical_json(value: object) -> str:
    """JSON with keys sorted, no spaces and only ASCII (``\\uXXXX`` beyond it)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def seat_roster(seats: Sequence[tuple[str, str]]) -> str:
    """The seats as the first digest binds them: canonical JSON of ``[{"kind", "name"},
    ...]`` in seat order (``kind`` ``human`` or ``bot``, ``name`` as the table shows it)."""
    return canonical_json([{"kind": kind, "name": name} for kind, name in seats])


def table_digest(commitment_hex: str, game: str, num_seats: int,
                 rules: Mapping[str, object],
                 seats: Sequence[tuple[str, str]] | None = None) -> str:
    """``D0``, the digest before the first action: the commitment, the game, the number
    of seats and the rules, and at a server's table the seats' kinds and names (the
    module's step 5; :func:`seat_roster`)."""
    text = (f"{_check_hex(commitment_hex, 'commitment')}\n{game}\n{num_seats}\n"
            f"{canonical_json(dict(rules))}\n")
    if seats is not None:
        text += seat_roster(seats) + "\n"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def action_digest(previous: str, turn: int, seat: int, text: str) -> str:
    """The digest after action number ``turn`` (from 1), chained on ``previous`` (the
    :func:`table_digest` before the first action): see the module's step 5."""
    line = f"{_check_hex(previous, 'previous digest')}\n{turn}:{seat}:{text}\n"
    return hashlib.sha256(line.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Fairness:
    """A match's fairness data: the commitment, the revealed server seed (``None`` while
    the game goes on) and every contribution, as a finished record carries them."""

    commitment: str
    server_seed: str | None
    contributions: tuple[Contribution, ...] = ()
    scheme: str = SCHEME

    def match_seed(self) -> str:
        """The match seed these values give; raise :class:`FairnessError` before the
        server seed is revealed."""
        if self.server_seed is None:
            raise FairnessError("the server seed is not revealed yet")
        return match_seed(self.server_seed, self.contributions)

    def check(self, seed: object = None) -> str | None:
        """Why these values do not prove the match fair, or ``None`` when they do: the
        scheme is known, the server seed is revealed and matches the commitment, and (when
        ``seed`` is given) the contributions derive ``seed``."""
        if self.scheme != SCHEME:
            return f"unknown fairness scheme {self.scheme!r} (this is {SCHEME})"
        if self.server_seed is None:
            return "the server seed is not revealed"
        expected = commitment(self.server_seed)
        if expected != self.commitment:
            return (f"the server seed does not match the commitment: SHA-256 of the seed "
                    f"is {expected}, the commitment {self.commitment}")
        if seed is not None:
            derived = self.match_seed()
            if derived != seed:
                return (f"the match seed {seed!r} is not the one the server seed and the "
                        f"contributions give ({derived})")
        return None

    def to_json(self) -> dict[str, Any]:
        """``{"scheme", "commitment", "server_seed", "contributions": [...]}``."""
        return {"scheme": self.scheme, "commitment": self.commitment,
                "server_seed": self.server_seed,
                "contributions": [c.to_json() for c in _ordered(self.contributions)]}

    @staticmethod
    def from_json(data: object) -> Fairness:
        """Read :meth:`to_json` data; raise :class:`FairnessError`."""
        if not isinstance(data, Mapping):
            raise FairnessError(f"invalid fairness data {data!r}: expected an object")
        try:
            scheme, commit = data["scheme"], data["commitment"]
            server_seed, contributions = data["server_seed"], data["contributions"]
        except KeyError as missing:
            raise FairnessError(f"fairness data without {missing}") from None
        if not isinstance(scheme, str):
            raise FairnessError(f"invalid fairness scheme {scheme!r}")
        if not isinstance(contributions, list):
            raise FairnessError(f"invalid contributions {contributions!r}: expected a list")
        return Fairness(_check_hex(commit, "commitment"),
                        None if server_seed is None else _check_hex(server_seed, "server seed"),
                        tuple(Contribution.from_json(c) for c in contributions), scheme)


@dataclass
class FairSeed:
    """The server's side of the scheme for one table: draw and commit at the start,
    collect contributions, derive the match seed, reveal at the end.

    >>> table = FairSeed()
    >>> table.add(0, "ab" * 32)
    >>> table.reveal().check(table.match_seed()) is None
    True
    """

    server_seed: str = field(default_factory=new_server_seed)
    contributions: dict[int, str] = field(default_factory=dict)

    @property
    def commitment(self) -> str:
        """What the table summary publishes from the start (``commitment``)."""
        return commitment(self.server_seed)

    def add(self, seat: int, value: str) -> None:
        """Record ``seat``'s contribution; a seat contributes once."""
        if seat in self.contributions:
            raise FairnessError(f"seat {seat} contributed twice")
        self.contributions[seat] = Contribution(seat, value).value

    def missing(self, human_seats: Sequence[int]) -> list[int]:
        """The seats among ``human_seats`` that have not contributed yet."""
        return [seat for seat in human_seats if seat not in self.contributions]

    def match_seed(self) -> str:
        """The match seed: give it to the match as its seed (kept secret until the end)."""
        return match_seed(self.server_seed, self._contributions())

    def reveal(self) -> Fairness:
        """The fairness data to publish once the game is over."""
        return Fairness(self.commitment, self.server_seed, tuple(self._contributions()))

    def _contributions(self) -> list[Contribution]:
        return [Contribution(seat, value) for seat, value in sorted(self.contributions.items())]
