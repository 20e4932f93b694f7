"""The lobby builds its new-table form from ``GET /api/catalog``: every game with its
title, its seat range, its variants and one input per rule option of its schema."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.game import get_game
from konkun.server.testing import ServerThread

from .pages import assert_no_page_errors, open_page

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("name", ["konchinka", "kunken", "toy"])
def test_the_rule_form_is_the_games_schema(browser: Any, live_server: ServerThread,
                                           name: str) -> None:
    game = get_game(name)
    page = open_page(browser, live_server.url)
    page.locator(f".game-choice input[value={name}]").check()
    expect(page.locator(".game-choice.on .game-name")).to_have_text(game.title.en)
    seats = page.locator("#seats option")
    assert seats.all_inner_texts() == [str(n) for n in game.seat_counts()]
    variants = page.locator("#variant option")
    assert [variants.nth(i).get_attribute("value") for i in range(variants.count())] \
        == list(game.variant_names())
    page.click("details.rules summary")
    for option in game.options:
        field = page.locator(f"#rule-{option.name}")
        if option.kind == "bool":
            assert field.get_attribute("type") == "checkbox"
            assert field.is_checked() is option.default
        elif option.kind == "choice":
            values = field.locator("option")
            assert [values.nth(i).get_attribute("value") for i in range(values.count())] \
                == list(option.values())
            assert field.input_value() == option.default
        else:
            assert field.get_attribute("type") == "number"
            assert field.input_value() == str(option.default)
            assert field.get_attribute("min") == (None if option.minimum is None
                                                  else str(option.minimum))
            assert field.get_attribute("max") == (None if option.maximum is None
                                                  else str(option.maximum))
        label = page.locator(f"label:has(#rule-{option.name})")
        expect(label).to_contain_text(option.title.en)
    page.click(".lang-btn[data-lang=ru]")
    expect(page.locator(".game-choice.on .game-name")).to_have_text(game.title.ru)
    first = game.options[0]
    expect(page.locator(f"label:has(#rule-{first.name})")).to_contain_text(first.title.ru)
    assert_no_page_errors(page)
