"""The page's game-neutral parts read the game's page module (docs/web.md, "Game pages"):
the end-of-deal screen is a hook of each game's module, and a game without a module (here
"third", no such page module) gets a neutral one. The move log's turns, the other hook,
are unit-tested without a browser (tests/js/movelog.test.js)."""

from __future__ import annotations

from typing import Any

import pytest

from konkun.server.testing import ServerThread

from .pages import assert_no_page_errors, open_page

pytestmark = pytest.mark.e2e


def test_a_game_without_a_deal_end_body_shows_the_points(
        browser: Any, live_server: ServerThread) -> None:
    """The end-of-deal screen of a game whose page module gives no body lists each seat
    with its points for the deal, and closes on its button."""
    page = open_page(browser, live_server.url)
    rows = page.evaluate("""async () => {
      const { showDealEnd } = await import("/static/dealend.js");
      showDealEnd({ deal: 2, turn: 9, points: [3, -1], views: [{}, {}] }, "third",
        ["Ann", "Bob"], "en", { over: true });
      return [...document.querySelectorAll("#deal-end-points tbody tr")].map((r) =>
        [r.querySelector("th").textContent, r.querySelector("td").textContent]);
    }""")
    assert rows == [["Ann", "3"], ["Bob", "-1"]]
    assert "Deal 2" in page.locator("#deal-end-title").inner_text()
    page.click("#deal-end-close")
    assert page.locator("#deal-end").count() == 0
    assert_no_page_errors(page)
