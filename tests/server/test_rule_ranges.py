"""Issue 13, rule ranges: every numeric rule has a documented range, checked by the
engines' rules objects, so the server, the arena, the terminal and the CLI refuse a game
that would never end (``target=10^59``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from konkun.errors import InvalidRuleError
from konkun.konchinka import rules as konchinka_rules
from konkun.konchinka.rules import KonchinkaRules
from konkun.kunken import rules as kunken_rules
from konkun.kunken.rules import KunkenRules

from .conftest import TestClient

HUGE = str(10**59)

NUMERIC_RULES = [("konchinka", name, bounds) for name, bounds in
                 konchinka_rules.RANGES.items()] + \
    [("kunken", name, bounds) for name, bounds in kunken_rules.RANGES.items()]


def _rules(game: str, name: str, text: str) -> object:
    if game == "konchinka":
        return KonchinkaRules.from_options({name: text})
    return KunkenRules.from_options({name: text})


def test_every_numeric_rule_has_a_range() -> None:
    numeric = {("konchinka", n) for n in KonchinkaRules.option_names()
               if isinstance(getattr(KonchinkaRules(), n), int)
               and not isinstance(getattr(KonchinkaRules(), n), bool)}
    numeric |= {("kunken", n) for n in KunkenRules.option_names()
                if type(getattr(KunkenRules(), n)) is int}
    assert numeric == {(game, name) for game, name, _ in NUMERIC_RULES}


@pytest.mark.parametrize(("game", "name", "bounds"), NUMERIC_RULES)
def test_a_numeric_rule_is_checked_against_its_range_by_the_engine(
        game: str, name: str, bounds: tuple[int, int]) -> None:
    low, high = bounds
    for accepted in (low, high):
        assert getattr(_rules(game, name, str(accepted)), name) == accepted
    for refused in (low - 1, high + 1, HUGE):
        with pytest.raises(InvalidRuleError, match=name):
            _rules(game, name, str(refused))


@pytest.mark.parametrize(("game", "rule"), [("konchinka", "target"), ("kunken", "deals"),
                                            ("kunken", "opening_minimum")])
def test_a_rule_that_never_ends_is_refused_by_the_server(client: TestClient, game: str,
                                                         rule: str) -> None:
    response = client.post("/api/tables", json={"game": game, "seats": 2,
                                                 "rules": {rule: HUGE}})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_rule"
    assert rule in response.json()["message"]


def test_a_rule_that_never_ends_is_refused_by_the_arena() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "konkun", "arena", "--bots", "random,random", "--games", "1",
         "--backend", "serial", "--rule", f"target={HUGE}", "konchinka"],
        capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "target" in done.stderr and "Traceback" not in done.stderr
