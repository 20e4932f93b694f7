"""Every house rule of both games has a one-sentence explanation in English and in Russian
(issue 34: no tooltip-only text, and no English in the Russian page), served with the
catalog and printed by the terminal's help."""

from __future__ import annotations

import dataclasses
import re

import pytest

from konkun.game import get_game
from konkun.konchinka.rules import KonchinkaRules
from konkun.kunken.rules import KunkenRules

RULES = {"konchinka": KonchinkaRules, "kunken": KunkenRules}


@pytest.mark.parametrize("game", sorted(RULES))
def test_every_rule_option_has_an_explanation_in_both_languages(game: str) -> None:
    explanations = get_game(game).explanations()
    fields = {f.name for f in dataclasses.fields(RULES[game])}
    assert set(explanations) == fields
    for name, text in explanations.items():
        assert len(text.en) > 30 and text.en.endswith("."), name
        assert len(text.ru) > 30 and text.ru.endswith("."), name
        assert not re.search("[А-Яа-яЁё]", text.en), name
        assert not re.search("[A-Za-z]", text.ru), name  # no English in the Russian text


@pytest.mark.parametrize("game", sorted(RULES))
def test_catalog_serves_the_explanations(game: str) -> None:
    catalog = get_game(game).catalog()
    assert set(catalog["explanations"]) == {f.name for f in dataclasses.fields(RULES[game])}
    assert all(set(text) == {"en", "ru"} for text in catalog["explanations"].values())
