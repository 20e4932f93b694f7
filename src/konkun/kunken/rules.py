"""Kunken rule options (RULES.md, Кункен): one frozen, validated dataclass.

Every option of RULES.md is here under its RULES.md name, plus the decisions the rules
leave open (documented in ``docs/kunken.md``). Build from command-line texts with
:meth:`KunkenRules.from_options`; :meth:`KunkenRules.to_json` / :meth:`from_json` round-trip.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from konkun.errors import InvalidRuleError
from konkun.game import Choice, RuleOption, Titles, check_values, parse_options

EMPTY_STOCK_CHOICES = ("turn_bank", "end")
TIE_CHOICES = ("play_on", "shared")

MIN_SEATS = 2
MAX_SEATS = 5
"""Kunken is played by 2 to 5 players (RULES.md)."""

OPTIONS: tuple[RuleOption, ...] = (
    RuleOption.integer("jokers", 4, Titles("Jokers", "Джокеров"),
                       "jokers in the pack", minimum=0, maximum=4),
    RuleOption.integer("opening_minimum", 50, Titles("Opening minimum",
                                                     "Минимум первой выкладки"),
                       "points the melds of an opening turn must reach", minimum=0,
                       maximum=150),
    RuleOption.choice("empty_stock", "turn_bank",
                      (Choice("turn_bank", Titles("turn the bank over",
                                                  "банк переворачивается")),
                       Choice("end", Titles("the deal ends", "кон окончен"))),
                      Titles("Empty stock", "Кончилась колода"),
                      "what happens when the stock runs out"),
    RuleOption.integer("max_stock_renewals", 2, Titles("Stock renewals",
                                                       "Переворотов банка"),
                       "how many times the stock may be renewed from the bank", minimum=0,
                       maximum=10),
    RuleOption.integer("deals", 0, Titles("Deals in the match", "Конов в матче"),
                       "deals in a match; 0: one deal per player", minimum=0,
                       maximum=20, zero=Titles("one per player", "по одному на игрока")),
    RuleOption.integer("target", 0, Titles("Game to (points)", "Игра до (очков)"),
                       "end the match after the deal in which a total reaches it; 0: none",
                       minimum=0, maximum=1000, zero=Titles("no limit", "без предела")),
    RuleOption.integer("hand_size", 13, Titles("Cards in a hand", "Карт на руке"),
                       "cards dealt to each player", minimum=1, maximum=20),
    RuleOption.choice("tie", "play_on",
                      (Choice("play_on", Titles("play on", "играть дальше")),
                       Choice("shared", Titles("no winner", "без победителя"))),
                      Titles("Tied match", "Ничья в матче"),
                      "a match whose highest total is shared at its end"),
    RuleOption.boolean("joker_for_held", True,
                       Titles("A joker may stand for a card you hold",
                              "Джокер может заменять карту с руки"),
                       "whether a joker being laid may stand for a card held in hand"),
    RuleOption.boolean("swap_before_take", False,
                       Titles("Joker swaps before taking the bank",
                              "Замена джокера до взятия банка"),
                       "whether a player with a layout may swap jokers before taking the bank "
                       "(the joker then counts as held before the take)"),
)
"""The rule options: the schema every layer reads (types, defaults, ranges, choices,
titles); :meth:`KunkenRules.from_options` parses by it."""


RANGES: dict[str, tuple[int, int]] = {
    option.name: (option.minimum, option.maximum) for option in OPTIONS
    if option.kind == "int" and option.minimum is not None and option.maximum is not None}
"""The values each numeric option takes (inclusive, from :data:`OPTIONS`): a match always
ends."""


@dataclass(frozen=True)
class KunkenRules:
    """The rules of one Kunken table; the defaults are RULES.md's.

    - ``jokers``: jokers in the pack (RULES.md: 4; some tables play 2; 0..4 accepted).
    - ``opening_minimum``: points the melds of an opening turn must reach (50; 0..150).
    - ``empty_stock``: ``turn_bank`` (the bank becomes the stock) or ``end``.
    - ``max_stock_renewals``: how many times the stock may be renewed from the bank (2;
      0..10).
    - ``deals``: deals in a match; 0 means one deal per player (the default; 0..20).
    - ``target``: end the match after the deal in which a total reaches this; 0: no target
      (0..1000).
    - ``hand_size``: cards dealt to each player (13; 1..20).
    - ``tie``: a match whose highest total is shared at its end: ``play_on`` (further deals
      until it is not, as in Konchinka; default) or ``shared`` (no winner).
    - ``joker_for_held``: whether a joker being laid (in a meld or as a lay-off) may stand
      for a card the player holds in hand (RULES.md: "any missing card" means missing from
      the meld; default true; false: lay the card itself).
    - ``swap_before_take``: whether a player with a layout may also swap jokers at the start
      of the turn, before taking the bank (or drawing); such a joker counts as held before
      the take (default false: swaps come after the draw or the take).
    """

    jokers: int = 4
    opening_minimum: int = 50
    empty_stock: str = "turn_bank"
    max_stock_renewals: int = 2
    deals: int = 0
    target: int = 0
    hand_size: int = 13
    tie: str = "play_on"
    joker_for_held: bool = True
    swap_before_take: bool = False

    def __post_init__(self) -> None:
        check_values(OPTIONS, self, "Kunken")

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> KunkenRules:
        """Rules from ``NAME=VALUE`` texts (``--rule``); unknown names are errors."""
        values: dict[str, Any] = parse_options(OPTIONS, options, "Kunken")
        return cls(**values)

    def with_options(self, options: Mapping[str, str]) -> KunkenRules:
        """These rules with some options changed from ``NAME=VALUE`` texts."""
        merged = {name: _text(value) for name, value in self.to_json().items()}
        merged.update(options)
        return KunkenRules.from_options(merged)

    @staticmethod
    def option_names() -> tuple[str, ...]:
        """The names of every option, in declaration order."""
        return tuple(f.name for f in fields(KunkenRules))

    def describe(self) -> str:
        """The options that differ from RULES.md's defaults, as ``name=value`` words."""
        base = DEFAULT_RULES.to_json()
        changed = [f"{k}={_text(v)}" for k, v in self.to_json().items() if base[k] != v]
        return " ".join(changed) or "default rules"

    def to_json(self) -> dict[str, Any]:
        """The options as JSON data."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> KunkenRules:
        """Rules from :meth:`to_json` data."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise InvalidRuleError(f"unknown rule option {sorted(unknown)[0]!r} for kunken")
        return cls(**dict(data))

    def num_deals(self, num_seats: int) -> int:
        """Deals in a match of ``num_seats`` (0 when only the target ends it)."""
        if self.deals:
            return self.deals
        return 0 if self.target else num_seats


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


DEFAULT_RULES = KunkenRules()
"""RULES.md's defaults."""
