"""Seed → deal golden files: replays survive a Python upgrade (issue 10, item 3).

The files were written once by ``generate_deals.py`` with the engines of c7051c8, which
drew with CPython 3.11's own ``Random.shuffle``, ``randint`` and ``sample``; today's
engines draw with :mod:`konkun.cards`' stable functions and must give the same deals,
for both games, every seat count, integer seeds and text (``HashRandom``) keys.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scripts import load_script

HERE = Path(__file__).parent


GENERATE = load_script("generate_deals", HERE / "generate_deals.py")


def golden(game: str) -> list[dict[str, Any]]:
    """The stored lines of one game's file."""
    return [json.loads(line) for line in (HERE / f"{game}.deals").read_text().splitlines()]


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_every_seed_deals_the_stored_deals(game: str) -> None:
    stored = golden(game)
    fresh = json.loads(json.dumps(GENERATE.entries(game)))  # int keys and tuples as stored
    assert len(fresh) == len(stored)
    for now, then in zip(fresh, stored, strict=True):
        assert now == then, (then["seats"], then["seed"])


@pytest.mark.parametrize(("game", "seats"),
                         [("konchinka", (2, 3, 4)), ("kunken", (2, 3, 4, 5))])
def test_the_golden_files_cover_every_seat_count_and_both_kinds_of_seed(
        game: str, seats: tuple[int, ...]) -> None:
    stored = golden(game)
    assert {entry["seats"] for entry in stored} == set(seats)
    kinds = {(entry["seats"], type(entry["seed"]).__name__) for entry in stored}
    assert kinds == {(n, kind) for n in seats for kind in ("int", "str")}


def test_the_golden_konchinka_deals_include_initial_table_fixes_and_redrawn_ties() -> None:
    """The stock insertions of the initial-table fix and a tied first-dealer draw are
    pinned too (a line whose first deal sent a card back names it in the KPN's stock)."""
    from konkun.konchinka import KonchinkaMatch, KonchinkaRules

    stored = golden("konchinka")
    fixed = [e for e in stored if KonchinkaMatch(KonchinkaRules.preset(e["variant"]),
                                                 e["seats"], e["seed"]).deal.returned_to_stock]
    assert len(fixed) >= 5
    assert any(len(e["dealer_draws"]) > 1 for e in stored)
