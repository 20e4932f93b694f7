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

EMPTY_STOCK_CHOICES = ("turn_bank", "end")
TIE_CHOICES = ("play_on", "shared")


@dataclass(frozen=True)
class KunkenRules:
    """The rules of one Kunken table; the defaults are RULES.md's.

    - ``jokers``: jokers in the pack (RULES.md: 4; some tables play 2; 0..4 accepted).
    - ``opening_minimum``: points the melds of an opening turn must reach (50).
    - ``empty_stock``: ``turn_bank`` (the bank becomes the stock) or ``end``.
    - ``max_stock_renewals``: how many times the stock may be renewed from the bank (2).
    - ``deals``: deals in a match; 0 means one deal per player (the default).
    - ``target``: end the match after the deal in which a total reaches this; 0: no target.
    - ``hand_size``: cards dealt to each player (13).
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
        if not 0 <= self.jokers <= 4:
            raise InvalidRuleError(f"invalid rule option jokers={self.jokers!r}: expected 0..4")
        for name in ("opening_minimum", "max_stock_renewals", "deals", "target"):
            value = getattr(self, name)
            if value < 0:
                raise InvalidRuleError(f"invalid rule option {name}={value!r}: expected >= 0")
        if not 1 <= self.hand_size <= 20:
            raise InvalidRuleError(
                f"invalid rule option hand_size={self.hand_size!r}: expected 1..20")
        if self.empty_stock not in EMPTY_STOCK_CHOICES:
            raise InvalidRuleError(f"invalid rule option empty_stock={self.empty_stock!r}: "
                                   f"expected one of {', '.join(EMPTY_STOCK_CHOICES)}")
        if self.tie not in TIE_CHOICES:
            raise InvalidRuleError(f"invalid rule option tie={self.tie!r}: "
                                   f"expected one of {', '.join(TIE_CHOICES)}")

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> KunkenRules:
        """Rules from ``NAME=VALUE`` texts (``--rule``); unknown names are errors."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, text in options.items():
            if name not in known:
                raise InvalidRuleError(f"unknown rule option {name!r} for kunken: expected one "
                                       f"of {', '.join(known)}")
            if known[name].type in ("bool", bool):
                if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise InvalidRuleError(
                        f"invalid rule option {name}={text!r}: expected true or false")
                values[name] = text.lower() in ("true", "1", "yes")
            elif known[name].type in ("int", int):
                try:
                    values[name] = int(text)
                except ValueError:
                    raise InvalidRuleError(
                        f"invalid rule option {name}={text!r}: expected an integer") from None
            else:
                values[name] = text
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
