"""The shape every game engine gives to the layers above it (bots, arena, server, TUI, RL).

Both engines (:mod:`konkun.konchinka`, :mod:`konkun.kunken`) implement these protocols, so
the layers above can be written once for both games. The protocols only describe; they do
not import either engine.

- A :class:`Deal` is one deal: the position, its legal actions, validating :meth:`~Deal.play`
  (with :meth:`~Deal.why_illegal` for the reason) and unchecked :meth:`~Deal.push`, and the
  per-seat :meth:`~Deal.observe`.
- An :class:`Observation` is what one seat may know, and nothing more: it never holds another
  seat's hidden cards or the order of the stock. It can :meth:`~Observation.sample_deal` a
  full deal consistent with itself (a determinization, for information-set search).
- A :class:`Match` is a whole game or match: deals in rotation with running totals, until the
  target or the number of deals, with a :class:`Record` (seed and actions) that replays exactly.

Actions are small immutable, hashable values with a text form (``Deal.format_action`` and
``Deal.parse_action``); equal actions are the same action in every determinization.

Beside the protocols, this module holds what every layer knows of a game without importing
its engine, in the spirit of OpenSpiel's ``GameType``:

- a :class:`Game` descriptor: name, titles in Russian and English, seat range, variants,
  the rules schema (:class:`RuleOption`), and the four entry points
  :meth:`~Game.rules_from_options`, :meth:`~Game.new_match`, :meth:`~Game.new_deal` and
  :meth:`~Game.load_record`; plus each layer's add-on under a key (:meth:`Game.addon`);
- one registry of games (:func:`get_game`, :func:`game_names`, :func:`register_game`),
  filled from the entry points group ``konkun.games``, so a game may live in another
  package (see ``docs/architecture.md``).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Literal, Protocol, Self, TypeVar, runtime_checkable

from konkun.errors import InvalidNotationError, InvalidRuleError

A = TypeVar("A", bound=Hashable)
AddonT = TypeVar("AddonT")
JSON = dict[str, Any]


@runtime_checkable
class Observation(Protocol[A]):
    """What one seat knows of a deal at one moment."""

    @property
    def seat(self) -> int:
        """The seat this observation belongs to."""
        ...

    @property
    def num_seats(self) -> int:
        """How many seats play the deal."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` when the deal is over."""
        ...

    def legal_actions(self) -> list[A]:
        """The legal actions when this seat is to act, else the empty list."""
        ...

    def sample_deal(self, rng: random.Random) -> Deal[A]:
        """A full deal, uniformly random among those consistent with this observation:
        the unseen cards are dealt at random into the other hands and the stock."""
        ...

    def to_json(self) -> JSON:
        """This observation as JSON data (cards as text, ``legal`` as action texts)."""
        ...


@runtime_checkable
class Deal(Protocol[A]):
    """One deal of a game, from the deal to its final score."""

    @property
    def num_seats(self) -> int:
        """How many seats play the deal."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` when the deal is over."""
        ...

    def is_over(self) -> bool:
        """True once the deal has ended."""
        ...

    def legal_actions(self) -> list[A]:
        """Every legal action of the seat to act, each once (empty when over)."""
        ...

    def is_legal(self, action: A) -> bool:
        """Whether ``action`` is legal now."""
        ...

    def why_illegal(self, action: A) -> str | None:
        """Why ``action`` is illegal now, in words, or ``None`` when it is legal. The words
        name only the input and what the seat to act may see (its own cards, public ones):
        interfaces show them to that seat as they are."""
        ...

    def play(self, action: A) -> None:
        """Apply a legal action; raise :class:`konkun.errors.IllegalMoveError` otherwise,
        leaving the deal unchanged. Its ``reason`` is :meth:`why_illegal`'s; its ``str()``
        may add the position, which shows every hidden card."""
        ...

    def push(self, action: A) -> None:
        """Apply an action known to be legal, without checking (the fast path)."""
        ...

    def copy(self) -> Self:
        """An independent copy."""
        ...

    def observe(self, seat: int) -> Observation[A]:
        """What ``seat`` knows now."""
        ...

    def points(self) -> list[int]:
        """Each seat's score for the deal; only meaningful once the deal is over."""
        ...

    def format_action(self, action: A) -> str:
        """The text of an action."""
        ...

    def parse_action(self, text: str) -> A:
        """Read an action's text; raise :class:`konkun.errors.InvalidNotationError`."""
        ...


class Record(Protocol):
    """Everything needed to replay a match: game, rules, seats, seed and actions."""

    def to_json(self) -> JSON:
        """The record as JSON data."""
        ...


class Match(Protocol[A]):
    """A whole game (Konchinka, to the target) or match (Kunken, over deals)."""

    @property
    def num_seats(self) -> int:
        """How many seats play."""
        ...

    @property
    def deal(self) -> Deal[A]:
        """The current (or, once the match is over, the last) deal."""
        ...

    @property
    def totals(self) -> list[int]:
        """Each seat's running total."""
        ...

    @property
    def deal_points(self) -> Sequence[Sequence[int]]:
        """Each finished deal's points per seat, in order (the score sheet's history)."""
        ...

    def is_over(self) -> bool:
        """True when the match has ended."""
        ...

    def play(self, action: A) -> None:
        """Validate and apply an action in the current deal; when that ends the deal and
        the match goes on, the next deal is dealt at once."""
        ...

    def winner(self) -> int | None:
        """The winning seat once the match is over, else ``None``."""
        ...

    def record(self) -> Record:
        """The replayable record of everything played so far."""
        ...

    def to_json(self, seat: int | None) -> JSON:
        """The match as ``seat`` sees it (``None``: a spectator, who sees no hand)."""
        ...


# ---------------------------------------------------------------------- the rules schema

TRUE_WORDS = ("true", "yes", "on", "1")
"""The texts a boolean rule option reads as true (any case)."""
FALSE_WORDS = ("false", "no", "off", "0")
"""The texts a boolean rule option reads as false (any case)."""

OptionKind = Literal["bool", "int", "choice"]
RuleValue = bool | int | str


@dataclass(frozen=True, slots=True)
class Titles:
    """A name shown to people, in English and in Russian."""

    en: str
    ru: str

    def to_json(self) -> dict[str, str]:
        """``{"en": ..., "ru": ...}``."""
        return {"en": self.en, "ru": self.ru}


@dataclass(frozen=True, slots=True)
class Choice:
    """One value of a ``choice`` option, or one variant of a game, with its titles."""

    value: str
    title: Titles

    def to_json(self) -> JSON:
        """``{"value": ..., "title": {...}}``."""
        return {"value": self.value, "title": self.title.to_json()}


@dataclass(frozen=True, slots=True)
class RatedPool:
    """One rating pool a game declares (its ``ratings`` add-on: a tuple of them): the
    pool's name, its titles and the table sizes it rates. A game without the add-on is
    never rated; a table size no pool covers is not rated either."""

    name: str
    title: Titles
    min_seats: int
    max_seats: int

    def rates(self, num_seats: int) -> bool:
        """A table of ``num_seats`` counts in this pool."""
        return self.min_seats <= num_seats <= self.max_seats


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One rule option of a game: its name, type, default and the values it takes.

    Build one with :meth:`boolean`, :meth:`integer` or :meth:`choice`; read a value's text
    with :meth:`parse`, which raises :class:`~konkun.errors.InvalidRuleError` naming the
    option.
    """

    name: str
    kind: OptionKind
    default: RuleValue
    title: Titles
    description: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Choice, ...] = ()
    zero: Titles | None = None
    """What 0 means for an ``int`` option where 0 is a word, not a number ("no limit")."""

    @classmethod
    def boolean(cls, name: str, default: bool, title: Titles,
                description: str = "") -> RuleOption:
        """A yes/no option (texts: :data:`TRUE_WORDS`, :data:`FALSE_WORDS`)."""
        return cls(name, "bool", default, title, description)

    @classmethod
    def integer(cls, name: str, default: int, title: Titles, description: str = "",
                minimum: int | None = None, maximum: int | None = None,
                zero: Titles | None = None) -> RuleOption:
        """A whole-number option, from ``minimum`` to ``maximum`` (``None``: no bound);
        ``zero`` says in words what 0 means, when it is not a count (the lobby shows it)."""
        return cls(name, "int", default, title, description, minimum, maximum, zero=zero)

    @classmethod
    def choice(cls, name: str, default: str, choices: Sequence[Choice], title: Titles,
               description: str = "") -> RuleOption:
        """An option that takes one of ``choices`` (``default`` among them)."""
        return cls(name, "choice", default, title, description, choices=tuple(choices))

    def values(self) -> tuple[str, ...]:
        """The values of a ``choice`` option, in order."""
        return tuple(c.value for c in self.choices)

    def expected(self) -> str:
        """What the option takes, in words (for error messages)."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.values())
        if self.minimum is not None and self.maximum is not None:
            return f"a whole number from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"a whole number of at least {self.minimum}"
        if self.maximum is not None:
            return f"a whole number of at most {self.maximum}"
        return "a whole number"

    def _invalid(self, value: object, game: str) -> InvalidRuleError:
        return InvalidRuleError(
            f"invalid value {value!r} for {game} rule option {self.name!r}: "
            f"expected {self.expected()}", option=self.name)

    def parse(self, text: str, game: str = "the") -> RuleValue:
        """The value ``text`` gives this option; raise
        :class:`~konkun.errors.InvalidRuleError` (naming the option and ``game``)."""
        if not isinstance(text, str):
            raise self._invalid(text, game)
        cleaned = text.strip().lower()
        if self.kind == "bool":
            if cleaned in TRUE_WORDS:
                return True
            if cleaned in FALSE_WORDS:
                return False
            raise self._invalid(text, game)
        if self.kind == "choice":
            if cleaned not in self.values():
                raise self._invalid(text, game)
            return cleaned
        try:
            number = int(cleaned)
        except ValueError:
            raise self._invalid(text, game) from None
        self.check(number, game)
        return number

    def check(self, value: object, game: str = "the") -> None:
        """Raise :class:`~konkun.errors.InvalidRuleError` unless ``value`` (already typed)
        is one this option takes."""
        if self.kind == "bool":
            ok = isinstance(value, bool)
        elif self.kind == "choice":
            ok = isinstance(value, str) and value in self.values()
        else:
            ok = isinstance(value, int) and not isinstance(value, bool) \
                and (self.minimum is None or value >= self.minimum) \
                and (self.maximum is None or value <= self.maximum)
        if not ok:
            raise self._invalid(value, game)

    def text(self, value: RuleValue) -> str:
        """The text of a value (``true``/``false`` for a boolean)."""
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def to_json(self) -> JSON:
        """The option's schema as JSON data (what the lobby builds its form from)."""
        data: JSON = {"name": self.name, "type": self.kind, "default": self.default,
                      "title": self.title.to_json(), "description": self.description}
        if self.kind == "int":
            data["min"] = self.minimum
            data["max"] = self.maximum
            if self.zero is not None:
                data["zero"] = self.zero.to_json()
        if self.kind == "choice":
            data["choices"] = [c.to_json() for c in self.choices]
        return data


def parse_options(options: Sequence[RuleOption], texts: Mapping[str, str],
                  game: str = "the", also: Sequence[str] = ()) -> dict[str, RuleValue]:
    """The values of the options named in ``texts`` (``{name: text}``), typed; an unknown
    name or a bad value raises :class:`~konkun.errors.InvalidRuleError` naming it (and
    every name the caller takes: ``also``, read by the caller, then ``options``). The one
    options parser of every game."""
    known = {option.name: option for option in options}
    values: dict[str, RuleValue] = {}
    for name, text in texts.items():
        option = known.get(name)
        if option is None:
            raise InvalidRuleError(
                f"unknown {game} rule option {name!r}: expected one of "
                f"{', '.join([*also, *known]) or '(none)'}", option=name)
        values[name] = option.parse(text, game)
    return values


def check_values(options: Sequence[RuleOption], values: object, game: str = "the") -> None:
    """Raise :class:`~konkun.errors.InvalidRuleError` unless every option's attribute of
    ``values`` (a rules dataclass) is a value the option takes."""
    for option in options:
        option.check(getattr(values, option.name), game)


def check_seat_count(game: str, num_seats: object, low: int, high: int) -> None:
    """Raise :class:`~konkun.errors.InvalidRuleError` unless ``num_seats`` is a whole
    number from ``low`` to ``high``: the one check (and message) of a wrong seat count."""
    if isinstance(num_seats, bool) or not isinstance(num_seats, int) \
            or not low <= num_seats <= high:
        between = f"{low} or {high}" if high == low + 1 else f"{low} to {high}"
        raise InvalidRuleError(
            f"invalid number of seats {num_seats!r}: {game} is played by {between} players")


def check_dealer(num_seats: int, dealer: object) -> None:
    """Raise :class:`~konkun.errors.InvalidRuleError` unless ``dealer`` is a seat."""
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < num_seats:
        raise InvalidRuleError(
            f"invalid dealer seat {dealer!r}: expected 0 to {num_seats - 1}")


# ---------------------------------------------------------------------- the descriptor

RulesMaker = Callable[[str | None, dict[str, RuleValue], int], Any]
"""Builds a game's rules value from (variant or ``None``, every option's typed value,
number of seats)."""
MatchMaker = Callable[[Any, int, "int | str"], Match[Any]]
"""Starts a match from (rules value, number of seats, seed)."""
DealMaker = Callable[[Any, int, int, int], Deal[Any]]
"""Deals one deal from (rules value, number of seats, seed, dealer)."""
RecordReader = Callable[[Mapping[str, Any]], Match[Any]]
"""Replays a match from its record's JSON data."""


@dataclass(frozen=True, eq=False)
class Game:
    """Everything the layers above an engine know of one game (its static facts).

    The callables do the engine's part; the methods check their arguments first, so every
    layer refuses a wrong seat count or rule option with the same
    :class:`~konkun.errors.InvalidRuleError`. ``addons`` holds each layer's own piece for
    this game (a ``"module:attribute"`` text, loaded on first use, or the object itself)
    under the layer's key: ``server``, ``terminal``, ``rl``, ``greedy``, ``policy``,
    ``ladder``, ``page`` (see ``docs/architecture.md``).
    """

    name: str
    title: Titles
    min_seats: int
    max_seats: int
    options: tuple[RuleOption, ...]
    make_rules: RulesMaker
    start_match: MatchMaker
    deal_from_seed: DealMaker
    read_record: RecordReader
    variants: tuple[Choice, ...] = ()
    """The named variants (the first is the default); empty when the game has none."""
    addons: Mapping[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ checks

    def check_seats(self, num_seats: object) -> None:
        """Raise :class:`~konkun.errors.InvalidRuleError` unless the game seats
        ``num_seats``."""
        check_seat_count(self.title.en, num_seats, self.min_seats, self.max_seats)

    def seat_counts(self) -> range:
        """Every number of seats the game is played by."""
        return range(self.min_seats, self.max_seats + 1)

    def variant_names(self) -> tuple[str, ...]:
        """The variants' names, the default first."""
        return tuple(v.value for v in self.variants)

    def variant_of(self, variant: str | None) -> str | None:
        """The variant a table plays when asked for ``variant`` (``None`` or ``""``: the
        default); ``None`` for a game without variants. Raise
        :class:`~konkun.errors.InvalidRuleError` for one the game does not have."""
        names = self.variant_names()
        if not names:
            if variant not in (None, ""):
                raise InvalidRuleError(f"{self.title.en} has no variants, got {variant!r}",
                                       option="variant")
            return None
        if variant in (None, ""):
            return names[0]
        if variant not in names:
            raise InvalidRuleError(
                f"unknown {self.title.en} variant {variant!r}: expected "
                + " or ".join(repr(v) for v in names), option="variant")
        return variant

    def option(self, name: str) -> RuleOption:
        """The rule option called ``name``."""
        for option in self.options:
            if option.name == name:
                return option
        raise InvalidRuleError(f"unknown {self.title.en} rule option {name!r}", option=name)

    def defaults(self) -> dict[str, str]:
        """Every rule option's default value as text."""
        return {o.name: o.text(o.default) for o in self.options}

    # ------------------------------------------------------------------ entry points

    def rules_from_options(self, variant: str | None = None,
                           options: Mapping[str, str] | None = None,
                           num_seats: int | None = None) -> Any:
        """The game's rules value from a variant and ``{name: text}`` rule options (every
        other option at its default), after checking the seat count when one is given.
        A ``variant`` entry among the options picks the variant too; it must agree with
        ``variant`` when both are given."""
        if num_seats is not None:
            self.check_seats(num_seats)
        texts = dict(options or {})
        if self.variants and "variant" in texts:
            given = texts.pop("variant")
            if variant not in (None, "") and given != variant:
                raise InvalidRuleError(
                    f"rule variant={given!r} contradicts the table's variant {variant!r}",
                    option="variant")
            variant = given
        chosen = self.variant_of(variant)
        values = {o.name: o.default for o in self.options}
        values.update(parse_options(self.options, texts, self.title.en,
                                    also=("variant",) if self.variants else ()))
        return self.make_rules(chosen, values, num_seats or self.min_seats)

    def new_match(self, rules: Any, num_seats: int, seed: int | str) -> Match[Any]:
        """A whole match (a game to its target, or deals in rotation) from ``seed``;
        ``rules`` is a value of :meth:`rules_from_options` (``None``: the defaults)."""
        self.check_seats(num_seats)
        if rules is None:
            rules = self.rules_from_options(None, {}, num_seats)
        return self.start_match(rules, num_seats, seed)

    def new_deal(self, rules: Any, num_seats: int, seed: int, dealer: int = 0) -> Deal[Any]:
        """The deal ``seed`` shuffles, dealt by ``dealer``: the same arguments give the
        same cards in the same places (duplicate deals rely on it)."""
        self.check_seats(num_seats)
        check_dealer(num_seats, dealer)
        if rules is None:
            rules = self.rules_from_options(None, {}, num_seats)
        return self.deal_from_seed(rules, num_seats, seed, dealer)

    def load_record(self, data: Mapping[str, Any]) -> Match[Any]:
        """The match a record (its JSON data) describes, replayed to its last action;
        raise :class:`~konkun.errors.InvalidNotationError` for a malformed record."""
        if not isinstance(data, Mapping):
            raise InvalidNotationError(f"invalid match record {data!r}: not a JSON object")
        game = data.get("game", self.name)
        if game != self.name:
            raise InvalidNotationError(
                f"invalid match record: game {game!r}, expected {self.name!r}")
        return self.read_record(data)

    # ------------------------------------------------------------------ add-ons, schema

    def addon(self, key: str) -> Any:
        """The add-on of the layer ``key`` for this game, or ``None`` when it has none; a
        ``"module:attribute"`` text (one with a colon) is imported on first use, any
        other value is the add-on itself."""
        found = self.addons.get(key)
        if isinstance(found, str) and ":" in found:
            cache = _ADDONS.setdefault(self.name, {})
            if key not in cache:
                cache[key] = load_target(found)
            return cache[key]
        return found

    def addon_of(self, key: str, kind: type[AddonT]) -> AddonT | None:
        """The add-on of the layer ``key`` as the type that layer registers, ``kind``:
        ``None`` when the game has none; :class:`~konkun.errors.InvalidRuleError` naming
        the game, the layer and the type found when it is something else (a wrong add-on
        never silently becomes the layer's default)."""
        found = self.addon(key)
        if found is None or isinstance(found, kind):
            return found
        raise InvalidRuleError(f"game {self.name!r}: its {key!r} add-on is a "
                               f"{type(found).__name__}, expected a {kind.__name__}", key)

    def catalog(self) -> JSON:
        """The descriptor as JSON data (``GET /api/catalog``): name, titles, seat range,
        variants, every rule option's schema and (``rules``) their defaults as text."""
        return {"game": self.name, "title": self.title.to_json(),
                "min_seats": self.min_seats, "max_seats": self.max_seats,
                "variants": [v.to_json() for v in self.variants],
                "options": [o.to_json() for o in self.options],
                "explanations": {name: text.to_json()
                                 for name, text in self.explanations().items()},
                "rules": self.defaults()}

    def explanations(self) -> Mapping[str, Titles]:
        """One sentence per rule option (and variant), in both languages: the game's
        ``explanations`` add-on, empty when it has none."""
        found = self.addon("explanations")
        return found if isinstance(found, Mapping) else {}


_ADDONS: dict[str, dict[str, Any]] = {}


def load_target(target: str) -> Any:
    """The object a ``"module:attribute"`` text names (imported on demand)."""
    module, _, attribute = target.partition(":")
    found: Any = importlib.import_module(module)
    for part in attribute.split(".") if attribute else ():
        found = getattr(found, part)
    return found


# ---------------------------------------------------------------------- the registry

ENTRY_POINT_GROUP = "konkun.games"
"""The entry points group where an installed package names its games: ``NAME =
"module:attribute"`` of a :class:`Game` (``pyproject.toml``:
``[project.entry-points."konkun.games"]``)."""

_BUILT_IN = {
    "konchinka": "konkun.konchinka.descriptor:GAME",
    "kunken": "konkun.kunken.descriptor:GAME",
}
# konkun's own games, for a source tree used without installing it (``PYTHONPATH=src``),
# where its entry points are not there; an installed konkun names the same targets.

_GAMES: dict[str, Game] = {}
_TARGETS: dict[str, str] = {}
_FOUND: dict[str, str] = {}  # konkun's own games and the entry points' (found once)
_discovered = False


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    _FOUND.update(_BUILT_IN)
    for point in entry_points(group=ENTRY_POINT_GROUP):
        _FOUND[point.name] = point.value
    for name, target in _FOUND.items():
        _TARGETS.setdefault(name, target)


def register_game(game: Game | str) -> Game:
    """Add a game to the registry (replacing one of the same name) and return it: a
    :class:`Game`, or the ``"module:attribute"`` text of one. A game registered by text
    is found again in worker processes (the arena sends the text along)."""
    _discover()
    if isinstance(game, str):
        target = game
        game = load_target(target)
        if not isinstance(game, Game):
            raise InvalidRuleError(f"{target!r} is not a konkun Game descriptor")
        _TARGETS[game.name] = target
    else:
        _TARGETS.pop(game.name, None)
    _GAMES[game.name] = game
    _ADDONS.pop(game.name, None)
    return game


def unregister_game(name: str) -> None:
    """Forget a registered game (tests); a built-in or installed one comes back as its
    entry point names it."""
    _discover()
    _GAMES.pop(name, None)
    _ADDONS.pop(name, None)
    target = _FOUND.get(name)
    if target is None:
        _TARGETS.pop(name, None)
    else:
        _TARGETS[name] = target


def game_names() -> list[str]:
    """Every game the registry can give, sorted (a game whose descriptor fails to import,
    say an installed package's broken entry point, is left out)."""
    _discover()
    names = []
    for name in sorted({*_GAMES, *_TARGETS}):
        try:
            get_game(name)
        except InvalidRuleError:
            continue
        names.append(name)
    return names


def get_game(name: str) -> Game:
    """The game called ``name``; raise :class:`~konkun.errors.InvalidRuleError` for one
    the registry does not know."""
    game = _GAMES.get(name)
    if game is not None:
        return game
    _discover()
    target = _TARGETS.get(name)
    if target is None:
        raise InvalidRuleError(
            f"unknown game {name!r}: expected one of {', '.join(game_names())}")
    try:
        found = load_target(target)
    except (ImportError, AttributeError) as error:
        raise InvalidRuleError(f"game {name!r} cannot be loaded from {target!r}: "
                               f"{error}") from error
    if not isinstance(found, Game):
        raise InvalidRuleError(f"game {name!r}: {target!r} is not a konkun Game descriptor")
    _GAMES[name] = found
    return found


def game_source(name: str) -> str | None:
    """The ``"module:attribute"`` text a game was found by (``None``: registered as an
    object), so that another process can find it too."""
    get_game(name)
    return _TARGETS.get(name)
