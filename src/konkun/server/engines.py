"""The adapters of the two real games (loaded lazily by :mod:`konkun.server.games`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from konkun.errors import InvalidRuleError
from konkun.server.games import GameAdapter


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _without_variant(variant: str | None, options: Mapping[str, str]) -> dict[str, str]:
    """The options without ``variant``, which the table gives on its own."""
    rest = dict(options)
    given = rest.pop("variant", None)
    if given is not None and variant is not None and given != variant:
        raise InvalidRuleError(
            f"rule variant={given!r} contradicts the table's variant {variant!r}")
    return rest


def konchinka_adapter() -> GameAdapter:
    """Konchinka: 2 to 4 seats, variants ``classic`` and ``novo``."""
    from konkun.konchinka import KonchinkaMatch, KonchinkaRules

    def make_rules(variant: str | None, options: Mapping[str, str], _seats: int) -> Any:
        return KonchinkaRules.preset(variant or "classic").with_options(
            _without_variant(variant, options))

    def defaults() -> dict[str, str]:
        data = KonchinkaRules.preset("classic").to_json()
        return {name: _text(value) for name, value in data.items() if name != "variant"}

    return GameAdapter(
        name="konchinka", min_seats=2, max_seats=4, variants=("classic", "novo"),
        make_rules=make_rules,
        new_match=lambda rules, seats, seed: KonchinkaMatch(rules, seats, seed),
        defaults=defaults)


def kunken_adapter() -> GameAdapter:
    """Kunken: 2 to 5 seats, no variants."""
    from konkun.kunken import KunkenMatch, KunkenRules
    from konkun.kunken.hints import observation_advice

    def make_rules(_variant: str | None, options: Mapping[str, str], _seats: int) -> Any:
        return KunkenRules.from_options(dict(options))

    def defaults() -> dict[str, str]:
        return {name: _text(value) for name, value in KunkenRules().to_json().items()}

    return GameAdapter(
        name="kunken", min_seats=2, max_seats=5, make_rules=make_rules,
        new_match=lambda rules, seats, seed: KunkenMatch(rules, seats, seed),
        defaults=defaults, advice=observation_advice)
