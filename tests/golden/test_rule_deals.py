"""The golden deals of the rule options that change the cards (``konchinka_short.deals``:
short decks; ``kunken_options.deals``: jokers and hand size) are the current engines'
deals: regenerated in memory they equal the files, so the page's check
(``tests/js/fairness.test.js``) is compared with what the engines deal today."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scripts import load_script

HERE = Path(__file__).parent


GENERATE = load_script("generate_rule_deals", HERE / "generate_rule_deals.py")


def stored(game: str) -> list[dict[str, Any]]:
    """The stored lines of one game's file."""
    text = (HERE / GENERATE.FILES[game]).read_text()
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_the_rule_option_golden_files_are_what_the_engines_deal_today(game: str) -> None:
    assert (HERE / GENERATE.FILES[game]).read_text() == GENERATE.text(game)


def test_the_short_deck_golden_file_covers_every_short_deck_of_every_seat_count() -> None:
    """2 seats: 7, 9 and 11 ranks; 3 seats: 7 and 10; 4 seats: 9 (RULES.md, the research
    option ``deck_ranks``); and first tables that had to be fixed."""
    lines = stored("konchinka")
    decks = {(e["seats"], e["rules"]["deck_ranks"]) for e in lines}
    assert decks == {(2, 7), (2, 9), (2, 11), (3, 7), (3, 10), (4, 9)}
    assert sum(1 for e in lines if e["returned_to_stock"]) >= 5
    assert any(not e["rules"]["table_excludes_jacks"] for e in lines)
    for entry in lines:
        table, hands, stock = entry["deal"].split(" ")[1:4]  # KPN, two characters a card
        assert len(table) == 2 * 4
        assert [len(hand) for hand in hands.split("/")] == [2 * 4] * entry["seats"]
        assert len(table + hands.replace("/", "") + stock) == 2 * 4 * entry["rules"]["deck_ranks"]


def test_the_kunken_options_golden_file_covers_jokers_and_hand_sizes_at_every_seat_count(
        ) -> None:
    lines = stored("kunken")
    assert {e["seats"] for e in lines} == {2, 3, 4, 5}
    assert {e["rules"]["jokers"] for e in lines} >= {0, 1, 2, 4}
    assert {e["rules"]["hand_size"] for e in lines} >= {1, 7, 13, 20}
    for entry in lines:
        hands = entry["deal"]["hands"]
        assert [len(h) for h in hands] == [entry["rules"]["hand_size"]] * entry["seats"]
        dealt = sum(len(h) for h in hands) + len(entry["deal"]["bank"])
        assert dealt + len(entry["deal"]["stock"]) == 104 + entry["rules"]["jokers"]
