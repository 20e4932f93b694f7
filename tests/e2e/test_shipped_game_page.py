"""A game an external package ships is drawn by its own page module (docs/web.md, "Game
pages"): the shipped game (``shipped_game``, the toy game's engine with a ``GamePage``
naming its package's directory) is registered for the test; the lobby offers it, its table
is drawn by the module the server serves under ``/static/games/shipped/``, with the
module's own texts and its own stylesheet, under the page's Content-Security-Policy, and a
click on a card plays it (the move log words it with the module's ``formatAction``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.server.core.games import register_game, unregister_game
from konkun.server.testing import ServerThread

from .pages import assert_no_page_errors, choose_name, create_table, screen
from .shipped_game import GAME

pytestmark = pytest.mark.e2e


@pytest.fixture
def shipped_game() -> Iterator[None]:
    """The shipped game is playable during the test."""
    register_game(GAME)
    yield
    unregister_game("shipped")


def test_a_shipped_game_table_is_drawn_by_its_own_page_module(
        shipped_game: None, browser: Any, live_server: ServerThread) -> None:
    page = screen(browser, live_server.url, "desktop", "en")
    choose_name(page, "Ann")
    create_table(page, game="shipped", seats=2, bots={1: "random"})
    table = page.locator("#shipped-table")
    expect(table.locator("h2")).to_have_text("The shipped game's table")
    # its stylesheet came with it, from its own directory, and nothing refused it
    # (the link is added when the module loads, so the rule applies a moment after the table)
    expect(table).to_have_css("border-top-style", "dashed")
    assert page.locator("link[href$='/static/games/shipped/page.css']").count() == 1
    assert page.locator("link[href$='/static/kunken.css']").count() == 0  # not needed here
    playable = page.locator(".shipped-card:enabled").first
    expect(playable).to_be_visible()
    card = playable.get_attribute("data-card")
    playable.click()
    expect(page.locator(".log").first).to_contain_text(f"played {card}")
    assert_no_page_errors(page)
