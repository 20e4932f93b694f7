"""The replay page's fair-deal check refuses a record whose card-changing rule lies outside
a range it writes in JS (``ruleInteger`` in ``static/konchinkamoves.js`` and
``static/kunkenmoves.js``): each range and default must be the engine's own, or wider where
the engine's range depends on the seats (Konchinka's ``deck_ranks``), so that no game the
server deals is refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from konkun.game import RuleOption
from konkun.konchinka.rules import OPTIONS as KONCHINKA_OPTIONS
from konkun.kunken.rules import OPTIONS as KUNKEN_OPTIONS

STATIC = Path(__file__).resolve().parents[1] / "src" / "konkun" / "server" / "static"
CALL = re.compile(r'ruleInteger\(rules, "(\w+)", (\w+), (\d+), (\w+)\)')


def _page_ranges(module: str) -> dict[str, tuple[int, int, int]]:
    """Each rule the module checks: (default, lowest, highest), its named constants read."""
    source = (STATIC / module).read_text()
    constants = {name: int(value) for name, value in
                 re.findall(r"const (\w+) = (\d+);", source)}

    def number(text: str) -> int:
        return int(text) if text.isdigit() else constants[text]

    return {name: (number(default), int(low), number(high))
            for name, default, low, high in CALL.findall(source)}


def _option(options: tuple[RuleOption, ...], name: str) -> RuleOption:
    return next(option for option in options if option.name == name)


@pytest.mark.parametrize("name", ["jokers", "hand_size"])
def test_the_kunken_page_checks_a_card_rule_in_the_engines_range(name: str) -> None:
    option = _option(KUNKEN_OPTIONS, name)
    assert _page_ranges("kunkenmoves.js")[name] == (option.default, option.minimum,
                                                    option.maximum)


def test_the_konchinka_page_takes_every_deck_the_engine_deals() -> None:
    option = _option(KONCHINKA_OPTIONS, "deck_ranks")
    default, low, high = _page_ranges("konchinkamoves.js")["deck_ranks"]
    assert default == option.default
    assert option.minimum is not None and option.maximum is not None
    assert low <= option.minimum and high == option.maximum
