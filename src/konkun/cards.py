"""Cards shared by both games: ranks, suits, cards, decks, card text and shuffles.

Card text (``RULES.md``): rank ``A K Q J T 9 8 7 6 5 4 3 2`` (``10`` accepted for ``T``)
and suit ``c d h s`` (``♣ ♦ ♥ ♠`` accepted), so ``Td`` is the ten of diamonds; a joker
is ``X``. Output always uses the two-character ASCII form.

Cards are interned: there is exactly one :class:`Card` object per card face, so two
copies of the same card from two decks are equal (and identical). Compare, hash and use
them as dictionary keys freely; ``card.index`` is a dense integer (0..52) for tables.

>>> Card.parse("10♦")
Card.parse('Td')
>>> [str(c) for c in parse_cards("As7h2cQd")]
['As', '7h', '2c', 'Qd']

Stable draws: every random choice that a game record replays (the shuffle, the cut, the
initial-table fix, the first-dealer draw) is made here by :func:`below`, :func:`between`,
:func:`shuffle`, :func:`sample` and :func:`choice`, from nothing but the source's
``getrandbits``. Python promises that ``getrandbits`` (and ``random``) of a seeded
Mersenne Twister give the same bits in every version, and :class:`HashRandom`'s bits are
SHA-256; ``Random.shuffle``, ``randint``, ``choice`` and ``sample`` carry no such promise.
The algorithms are CPython 3.11's own, draw for draw, so records made before them replay
unchanged (``tests/golden/deals`` pins seed → deal for both games).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterable, MutableSequence, Sequence
from enum import Enum, IntEnum
from typing import Any, TypeVar

from konkun.errors import InvalidCardError

T = TypeVar("T")


class Rank(IntEnum):
    """A card rank; the integer value orders them with the Ace high (2 low, Ace 14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """The one-character rank text: ``A K Q J T 9 .. 2``."""
        return _RANK_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank from its text (``A``, ``T`` or ``10``, ``9``, ...; any case)."""
        try:
            return _RANK_BY_TEXT[text.upper()]
        except KeyError:
            raise InvalidCardError(f"invalid rank: {text!r}") from None


class Suit(Enum):
    """A card suit, in the order clubs, diamonds, hearts, spades."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def symbol(self) -> str:
        """The one-letter ASCII suit text: ``c d h s``."""
        return self.value

    @property
    def glyph(self) -> str:
        """The suit symbol for display: ``♣ ♦ ♥ ♠``."""
        return _SUIT_GLYPHS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from a letter (``c d h s``, any case) or a symbol (``♣ ♦ ♥ ♠``)."""
        try:
            return _SUIT_BY_TEXT[text.lower()]
        except KeyError:
            raise InvalidCardError(f"invalid suit: {text!r}") from None


_RANK_SYMBOLS = {r: ("T" if r == Rank.TEN else "JQKA"[r - 11] if r > 10 else str(int(r)))
                 for r in Rank}
_RANK_BY_TEXT = {s: r for r, s in _RANK_SYMBOLS.items()} | {"10": Rank.TEN}
_SUIT_GLYPHS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {g: s for s, g in _SUIT_GLYPHS.items()} | {
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}
SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)


class Card:
    """One card face: a rank and a suit, or the joker (rank and suit ``None``).

    Instances are interned; build them with :meth:`of`, :meth:`parse` or :data:`JOKER`.
    """

    __slots__ = ("index", "rank", "suit", "text")

    rank: Rank | None
    suit: Suit | None
    index: int
    text: str

    def __init__(self, rank: Rank | None, suit: Suit | None, index: int) -> None:
        self.rank = rank
        self.suit = suit
        self.index = index
        self.text = "X" if rank is None or suit is None else rank.symbol + suit.symbol

    @staticmethod
    def of(rank: Rank, suit: Suit) -> Card:
        """The card of this rank and suit."""
        return _BY_RANK_SUIT[rank, suit]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with this dense index (0..51 for the deck, 52 for the joker)."""
        return _ALL[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Read one card text: ``As``, ``10d``, ``T♦``, ``X`` (joker); any case."""
        stripped = text.strip()
        if stripped.upper() == "X":
            return JOKER
        if len(stripped) < 2:
            raise InvalidCardError(f"invalid card: {text!r}")
        try:
            return Card.of(Rank.parse(stripped[:-1]), Suit.parse(stripped[-1]))
        except InvalidCardError:
            raise InvalidCardError(f"invalid card: {text!r}") from None

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self.rank is None

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


_ALL: list[Card] = []  # every card by index, the joker last


def _build_cards() -> dict[tuple[Rank, Suit], Card]:
    table: dict[tuple[Rank, Suit], Card] = {}
    for suit in SUITS:
        for rank in RANKS:
            card = Card(rank, suit, len(_ALL))
            _ALL.append(card)
            table[rank, suit] = card
    _ALL.append(Card(None, None, len(_ALL)))
    return table


_BY_RANK_SUIT = _build_cards()
JOKER: Card = _ALL[52]
"""The joker, written ``X``."""


def parse_cards(text: str) -> list[Card]:
    """Read a card list: cards written together (``As7h2cQd``) or separated by spaces
    or commas (``As 7h, 10d``); ``-`` or an empty text is the empty list."""
    stripped = text.strip()
    if stripped in {"", "-"}:
        return []
    cards: list[Card] = []
    position = 0
    compact = "".join(stripped.replace(",", " ").split())
    while position < len(compact):
        if compact[position] in "Xx":
            cards.append(JOKER)
            position += 1
            continue
        width = 3 if compact.startswith("10", position) else 2
        piece = compact[position:position + width]
        try:
            cards.append(Card.parse(piece))
        except InvalidCardError:
            raise InvalidCardError(
                f"invalid card {piece!r} at character {position + 1} of {text!r}") from None
        position += width
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Write a card list in compact form (``As7h2c``), ``-`` when empty."""
    return "".join(card.text for card in cards) or "-"


def standard_deck() -> list[Card]:
    """The 52 cards of one deck, clubs first, each suit from 2 to Ace."""
    return _ALL[:52]


def double_deck(jokers: int = 4) -> list[Card]:
    """Two 52-card decks plus ``jokers`` jokers (Kunken: 108 cards with 4 jokers)."""
    if jokers < 0:
        raise InvalidCardError(f"invalid number of jokers: {jokers!r}")
    return standard_deck() * 2 + [JOKER] * jokers


# ---------------------------------------------------------------------- stable draws


def below(n: int, rng: random.Random) -> int:
    """A uniform integer in ``[0, n)`` drawn from ``rng.getrandbits`` alone: ``k`` bits,
    ``k`` the bit length of ``n``, drawn again until the value is below ``n`` (CPython
    3.11's ``_randbelow_with_getrandbits``, so the same as its ``randrange(n)``)."""
    if n <= 0:
        raise ValueError(f"below({n!r}): the bound must be at least 1")
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def between(low: int, high: int, rng: random.Random) -> int:
    """A uniform integer in ``[low, high]``, both ends included (as ``randint``)."""
    return low + below(high - low + 1, rng)


def choice(items: Sequence[T], rng: random.Random) -> T:
    """One of ``items``, uniformly (as ``Random.choice``)."""
    if not items:
        raise IndexError("choice from an empty sequence")
    return items[below(len(items), rng)]


def shuffle(items: MutableSequence[T], rng: random.Random) -> None:
    """Shuffle ``items`` in place (Fisher–Yates from the end: the last place swaps with
    a place drawn among all, and so on down; the order of draws of ``Random.shuffle``)."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)  # below(n, rng), inlined: the shuffle is on the hot path
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def shuffled(cards: Sequence[T], rng: random.Random) -> list[T]:
    """A new list with ``cards`` in a random order drawn from ``rng`` (seeded play)."""
    result = list(cards)
    shuffle(result, rng)
    return result


def sample(population: Sequence[T], k: int, rng: random.Random) -> list[T]:
    """``k`` distinct places of ``population`` in random order (as ``Random.sample``).

    As CPython 3.11 does, a small sample of a large population redraws places already
    taken, and a large one picks from a shrinking pool; which one is used changes the
    draws, so the choice is the same as CPython's."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError(f"sample of {k!r} from {n} items: expected 0 to {n}")
    if n <= _pool_limit(k):
        pool = list(population)
        result: list[T] = []
        for i in range(k):
            j = below(n - i, rng)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
        return result
    taken: set[int] = set()
    chosen: list[T] = []
    for _ in range(k):
        j = below(n, rng)
        while j in taken:
            j = below(n, rng)
        taken.add(j)
        chosen.append(population[j])
    return chosen


def _pool_limit(k: int) -> int:
    """The population size up to which CPython's ``sample`` picks ``k`` from a pool:
    21, plus for ``k > 5`` the smallest power of 4 at least ``3 k`` (its set's size)."""
    if k <= 5:
        return 21
    size = 1
    while size < 3 * k:
        size *= 4
    return 21 + size


_SECURE = secrets.SystemRandom()


def secure_shuffle(cards: MutableSequence[T]) -> None:
    """Shuffle in place with the operating system's cryptographic randomness (live play)."""
    shuffle(cards, _SECURE)


def draw_for_dealer(num_players: int, rng: random.Random,
                    deck: Sequence[Card] | None = None) -> tuple[int, list[dict[int, Card]]]:
    """Choose the first dealer as both games do: each player draws a card and the highest
    rank deals (Ace high); players tied for the highest draw again among themselves.

    Returns the dealer's seat and every round of draws (one mapping per round from each
    seat still in the draw to the card it drew), so that the draw can be shown. Jokers are
    put aside for the draw.
    """
    if num_players < 1:
        raise InvalidCardError(f"invalid number of players: {num_players!r}")
    pack = [c for c in (deck if deck is not None else standard_deck()) if not c.is_joker]
    contenders = list(range(num_players))
    rounds: list[dict[int, Card]] = []
    while True:
        draws = dict(zip(contenders, sample(pack, len(contenders), rng), strict=True))
        rounds.append(draws)
        best = max(int(c.rank or 0) for c in draws.values())
        contenders = [seat for seat, c in draws.items() if int(c.rank or 0) == best]
        if len(contenders) == 1:
            return contenders[0], rounds


class HashRandom(random.Random):
    """A deterministic, cryptographically strong random source keyed by a secret seed.

    Outputs are SHA-256 of the key and a counter, so nobody can predict the next shuffle
    without the key, yet the same key replays the same shuffles exactly. Live tables draw
    the key from :func:`new_secret_seed` and keep it secret until the game is over; the game
    record then holds the key, and a replay is exact. Deal from it with this module's
    stable draws (:func:`shuffle`, :func:`below`, ...): the ``shuffle``, ``randint`` and
    ``sample`` it inherits from :class:`random.Random` may change with Python.
    """

    def __init__(self, key: str) -> None:
        self._key = key.encode()
        super().__init__(0)  # calls seed(), which starts the stream

    def seed(self, a: object = None, version: int = 2) -> None:
        """Restart the stream (the key stays; ``a`` is ignored)."""
        self._counter = 0
        self._pool = 0
        self._pool_bits = 0

    def getrandbits(self, k: int) -> int:
        """``k`` random bits from the keyed stream."""
        while self._pool_bits < k:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._pool = (self._pool << 256) | int.from_bytes(block, "big")
            self._pool_bits += 256
        self._pool_bits -= k
        value = self._pool >> self._pool_bits
        self._pool &= (1 << self._pool_bits) - 1
        return value

    def random(self) -> float:
        """A float in [0, 1) from 53 bits of the keyed stream."""
        return self.getrandbits(53) / (1 << 53)

    def __reduce__(self) -> tuple[Any, ...]:
        return (HashRandom, (self._key.decode(),), self.getstate())

    def getstate(self) -> tuple[int, ...]:
        """The position in the stream (the key is not part of the state)."""
        return (self._counter, self._pool, self._pool_bits)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Return to a position taken by :meth:`getstate`."""
        self._counter, self._pool, self._pool_bits = (int(part) for part in state)


def new_secret_seed() -> str:
    """A fresh secret seed for live play (256 bits from the operating system)."""
    return secrets.token_hex(32)


def rng_for_seed(seed: int | str) -> random.Random:
    """The random source a game record's seed stands for.

    An integer seed gives Python's fast Mersenne Twister (simulation, tests); a text seed
    gives :class:`HashRandom` (live play, unpredictable without the seed).
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise InvalidCardError(f"invalid seed: {seed!r}")
    return random.Random(seed) if isinstance(seed, int) else HashRandom(seed)
