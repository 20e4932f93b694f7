"""Konchinka rule options: one frozen, validated value with named presets.

Every decision of ``RULES.md`` marked **option** is a field here. Build rules with
:meth:`KonchinkaRules.preset` (``"classic"`` or ``"novo"``), then adjust them with
:meth:`KonchinkaRules.with_options` from ``--rule NAME=VALUE`` texts:

>>> rules = KonchinkaRules.preset("novo").with_options({"capture_compulsory": "true"})
>>> rules.variant, rules.capture_compulsory, rules.target
('novo', True, 15)
>>> KonchinkaRules.from_options({"target": "11"}).target
11
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from konkun.errors import InvalidRuleError
from konkun.game import Choice, RuleOption, Titles, check_values, parse_options

Variant = Literal["classic", "novo"]
TiePoints = Literal["none", "all", "split"]
Settlement = Literal["difference", "pool"]

VARIANTS: tuple[Variant, ...] = ("classic", "novo")
TIE_POINTS: tuple[TiePoints, ...] = ("none", "all", "split")
SETTLEMENTS: tuple[Settlement, ...] = ("difference", "pool")

MIN_SEATS = 2
MAX_SEATS = 4
"""Konchinka is played by 2 to 4 players (RULES.md)."""
WHOLE_DECK_RANKS = 13
"""``deck_ranks`` of the standard game: every rank, Ace to King."""

VARIANT_CHOICES = (
    Choice("classic", Titles("classic", "классическая")),
    Choice("novo", Titles("Novorossiysk", "новороссийская")),
)
"""The variants with their titles, the default first."""

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption.boolean(
        "table_excludes_jacks", True,
        Titles("No jack or pair on the first table", "Без валета и пар на первом столе"),
        "the initial table may hold no Jack; pairs of one rank are always sent back"),
    RuleOption.boolean(
        "capture_compulsory", False, Titles("Capture is compulsory", "Брать обязательно"),
        "a card that can capture may not be trailed"),
    RuleOption.choice(
        "tie_points", "none",
        (Choice("none", Titles("none", "никому")),
         Choice("all", Titles("all tied players score", "всем равным")),
         Choice("split", Titles("split", "делятся"))),
        Titles("Points on a tie", "Очки при равенстве"),
        "who scores a tie for most cards or most clubs"),
    RuleOption.integer(
        "target", 15, Titles("Game to (points)", "Игра до (очков)"),
        "the game ends after a deal in which a total reaches it", minimum=1, maximum=100),
    RuleOption.choice(
        "settlement", "difference",
        (Choice("difference", Titles("loser pays the difference",
                                     "проигравший платит разницу")),
         Choice("pool", Titles("winner takes the pool", "победитель забирает кон"))),
        Titles("Settlement", "Расчёт"), "how the losers pay at the end of the game"),
    RuleOption.integer(
        "stake", 5, Titles("Stake (pool)", "Ставка (кон)"),
        "the chips each player puts into the pool (settlement pool only)", minimum=1,
        maximum=1000),
    RuleOption.integer(
        "deck_ranks", WHOLE_DECK_RANKS,
        Titles("Ranks in the deck (research)", "Рангов в колоде (для исследований)"),
        "research setting: the deck keeps its lowest ranks only, the Ace first (13: the "
        "whole deck)", minimum=7, maximum=13),
)
"""The rule options other than ``variant``: the schema every layer reads (types,
defaults, ranges, choices, titles); :meth:`KonchinkaRules.with_options` parses by it."""


RANGES: dict[str, tuple[int, int]] = {
    option.name: (option.minimum, option.maximum) for option in OPTIONS
    if option.kind == "int" and option.minimum is not None and option.maximum is not None}
"""The values each numeric option takes (inclusive, from :data:`OPTIONS`): a game always
ends."""


@dataclass(frozen=True, slots=True)
class KonchinkaRules:
    """The rules a Konchinka table plays (immutable, validated on construction).

    - ``variant``: ``classic`` (A=1, 2..9 pips, T Q K = 10, the Jack sweeps the table) or
      ``novo`` (Novorossiysk: A=1, 2..10 pips, J=11, Q=12, K=13 taking 13 or 14).
    - ``table_excludes_jacks``: the initial table may hold no Jack (default true); pairs of
      the same rank are always sent back.
    - ``capture_compulsory``: a card that can capture may not be trailed (default false).
    - ``tie_points``: who scores a tie for most cards or most clubs: ``none`` (nobody, the
      default), ``all`` (every tied player scores the full points) or ``split`` (the
      points are shared equally among the tied players, rounded down: two players tied
      for most cards score 1 each; a tie for most clubs scores nothing).
    - ``target``: the game ends after a deal in which a total reaches it (default 15;
      1..100).
    - ``settlement``: ``difference`` (each loser pays ``max(0, target - total)``, default)
      or ``pool`` (each player stakes ``stake`` chips, the winner takes the pool).
    - ``stake``: the chips each player puts into the pool (default 5, 1..1000; only for
      ``pool``).
    - ``deck_ranks``: a research setting, a smaller game for algorithms that enumerate
      information states (MCCFR): the deck keeps only its ``deck_ranks`` lowest ranks,
      the Ace first (7: A 2 3 4 5 6 7 in four suits, 28 cards; 7 to 13). Default 13, the
      whole deck: the standard game. The deck must deal out evenly with a stock and
      leave the first table four ranks (:meth:`check_deck`): 7 ranks for 2 or 3
      players, 9 for 2 or 4, 13 for any.
    """

    variant: Variant = "classic"
    table_excludes_jacks: bool = True
    capture_compulsory: bool = False
    tie_points: TiePoints = "none"
    target: int = 15
    settlement: Settlement = "difference"
    stake: int = 5
    deck_ranks: int = WHOLE_DECK_RANKS

    def __post_init__(self) -> None:
        _check_choice("variant", self.variant, VARIANTS)
        check_values(OPTIONS, self, "Konchinka")

    @staticmethod
    def preset(name: str) -> KonchinkaRules:
        """The named preset: ``classic`` or ``novo`` (every other option at its default)."""
        if name not in VARIANTS:
            raise InvalidRuleError(
                f"unknown Konchinka variant {name!r}: expected one of {', '.join(VARIANTS)}")
        return KonchinkaRules(variant=name)

    @staticmethod
    def option_names() -> tuple[str, ...]:
        """The names accepted by :meth:`with_options` (``variant`` included)."""
        return tuple(field.name for field in dataclasses.fields(KonchinkaRules))

    @staticmethod
    def from_options(options: Mapping[str, str], preset: str = "classic") -> KonchinkaRules:
        """Rules from ``NAME=VALUE`` texts over a preset (``variant`` may pick the preset)."""
        base = KonchinkaRules.preset(options.get("variant", preset))
        return base.with_options(options)

    def with_options(self, options: Mapping[str, str]) -> KonchinkaRules:
        """These rules with some options changed, each given as text (``"true"``,
        ``"15"``, ``"pool"``); an unknown name or a bad value raises
        :class:`~konkun.errors.InvalidRuleError`."""
        texts = dict(options)
        changes: dict[str, Any] = {}
        if "variant" in texts:
            variant = texts.pop("variant")
            changes["variant"] = variant.strip().lower() if isinstance(variant, str) \
                else variant
        changes.update(parse_options(OPTIONS, texts, "Konchinka", also=("variant",)))
        return dataclasses.replace(self, **changes)

    def check_deck(self, num_seats: int) -> None:
        """Raise :class:`~konkun.errors.InvalidRuleError` unless the deck of
        ``deck_ranks`` ranks deals out evenly to ``num_seats`` players: four cards to
        each player and four to the table, then at least one more round of four to each
        player from the stock (which the first table's fix draws from), and four ranks
        left for the first table however the hands fall: ``deck_ranks - 1`` a multiple
        of ``num_seats``, ``deck_ranks`` at least ``2 * num_seats + 1`` and
        ``num_seats + 4``."""
        if not _deals_out(self.deck_ranks, num_seats):
            fits = [n for n in range(MIN_SEATS, MAX_SEATS + 1)
                    if _deals_out(self.deck_ranks, n)]
            raise InvalidRuleError(
                f"invalid deck_ranks={self.deck_ranks} for {num_seats} players: a deck of "
                f"{4 * self.deck_ranks} cards deals out evenly to "
                f"{' or '.join(map(str, fits))} players only", option="deck_ranks")

    @property
    def is_novo(self) -> bool:
        """True for the Novorossiysk variant."""
        return self.variant == "novo"

    def to_json(self) -> dict[str, Any]:
        """The options as JSON data (every field, by name, but ``deck_ranks`` only when it
        is not the whole deck: the standard game's records, and the fairness digests that
        hash them, stay as they were before the research setting existed)."""
        data = dataclasses.asdict(self)
        if self.deck_ranks == WHOLE_DECK_RANKS:
            del data["deck_ranks"]
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> KonchinkaRules:
        """Rules from :meth:`to_json` data (missing fields take their defaults)."""
        names = KonchinkaRules.option_names()
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise InvalidRuleError(f"unknown Konchinka rule option {unknown[0]!r}")
        return KonchinkaRules(**dict(data))

    def describe(self) -> str:
        """The options that differ from the variant's preset, as ``NAME=VALUE`` texts."""
        base = KonchinkaRules.preset(self.variant)
        parts: list[str] = [self.variant]
        for name in self.option_names():
            value = getattr(self, name)
            if value != getattr(base, name):
                parts.append(f"{name}={str(value).lower() if isinstance(value, bool) else value}")
        return " ".join(parts)


def _deals_out(ranks: int, num_seats: int) -> bool:
    """Whether a deck of ``ranks`` ranks deals out evenly to ``num_seats`` players, with
    a stock of at least one round (:meth:`KonchinkaRules.check_deck`)."""
    return (ranks - 1) % num_seats == 0 and ranks >= max(2 * num_seats + 1, num_seats + 4)


def may_trail(capture_compulsory: bool, can_capture: bool) -> bool:
    """The rule ``capture_compulsory``, in its one place: whether a card may be trailed,
    given whether it can capture (with ``capture_compulsory`` a card that can capture may
    not be trailed; without it every card may be)."""
    return not (capture_compulsory and can_capture)


TRAILS: dict[bool, tuple[int, int]] = {
    compulsory: (int(may_trail(compulsory, False)), int(may_trail(compulsory, True)))
    for compulsory in (False, True)
}
""":func:`may_trail` as a table the move loops index, ``TRAILS[capture_compulsory][can
capture]``: how many trails a card has (0 or 1). The random play-outs count each card's
moves as its captures plus this, with no call in their inner loop."""
TRAIL_FLAGS: dict[bool, tuple[bool, bool]] = {
    compulsory: (may_trail(compulsory, False), may_trail(compulsory, True))
    for compulsory in (False, True)
}
""":data:`TRAILS` as booleans: ``TRAIL_FLAGS[capture_compulsory][can capture]``."""


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise InvalidRuleError(
            f"invalid value {value!r} for rule option {name!r}: expected one of "
            f"{', '.join(choices)}")


CLASSIC = KonchinkaRules.preset("classic")
"""The classic rules (every option at its default)."""
NOVO = KonchinkaRules.preset("novo")
"""The Novorossiysk rules (every other option at its default)."""
