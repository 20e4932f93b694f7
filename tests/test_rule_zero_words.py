"""RULES.md, Kunken: a match of 0 deals has one deal per player and a target of 0 means
no target. The rules schema says so in words, in both languages, for the lobby to show
beside the field (``zero`` in ``/api/catalog``); an option whose 0 is a count has none."""

from __future__ import annotations

from konkun.game import get_game
from konkun.kunken import KunkenRules


def test_kunken_deals_and_target_of_0_have_words() -> None:
    schema = {o["name"]: o for o in get_game("kunken").catalog()["options"]}
    assert schema["deals"]["zero"] == {"en": "one per player", "ru": "по одному на игрока"}
    assert schema["target"]["zero"] == {"en": "no limit", "ru": "без предела"}
    assert "zero" not in schema["jokers"]  # 0 jokers is a count
    rules = KunkenRules.from_options({"deals": "0", "target": "0"})
    assert rules.num_deals(3) == 3 and rules.target == 0
