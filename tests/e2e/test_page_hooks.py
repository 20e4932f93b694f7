"""The page's game-neutral parts read the game's page module (docs/web.md, "Page modules"):
the end-of-deal screen and the move log's turns are hooks of each game's module, and a
game without a module (here "third", no such page module) gets a neutral one."""

from __future__ import annotations

from typing import Any

import pytest

from konkun.server.testing import ServerThread

from .pages import assert_no_page_errors, open_page

pytestmark = pytest.mark.e2e

GROUP = """async ([game, log]) => {
  const { loadCatalog } = await import("/static/catalog.js");
  await loadCatalog();
  const { groupLog } = await import("/static/movelog.js");
  return groupLog(log, game).map(([deal, entries]) => [deal, entries.map((e) => e.actions)]);
}"""

# One seat acting twice in a row, then the other seat: Kunken's turn is a draw, a meld and
# its discard (one entry); any other game shows every action as an entry of its own.
LOG = [{"turn": 1, "actor": 0, "action": "draw", "deal": 1},
       {"turn": 2, "actor": 0, "action": "meld 7c8c9c", "deal": 1},
       {"turn": 3, "actor": 0, "action": "discard 2d", "deal": 1},
       {"turn": 4, "actor": 1, "action": "draw", "deal": 1},
       {"turn": 5, "actor": 1, "action": "discard 3d", "deal": 1}]


def test_a_kunken_turn_is_one_log_entry(browser: Any, live_server: ServerThread) -> None:
    """Kunken's page module ends a turn at its discard: a seat's draw, meld and discard
    make one entry of the log."""
    page = open_page(browser, live_server.url)
    groups = page.evaluate(GROUP, ["kunken", LOG])
    assert groups == [[1, [["draw", "meld 7c8c9c", "discard 2d"], ["draw", "discard 3d"]]]]
    assert_no_page_errors(page)


def test_a_kunken_turn_the_stand_in_played_is_one_marked_entry(
        browser: Any, live_server: ServerThread) -> None:
    """The stand-in's draw and discard for seat 1 make one entry, marked as the stand-in's;
    seat 0's own turn is not marked."""
    page = open_page(browser, live_server.url)
    log = [entry | ({"stand_in": True} if entry["actor"] == 1 else {}) for entry in LOG]
    marks = page.evaluate("""async ([game, log]) => {
      const { loadCatalog } = await import("/static/catalog.js");
      await loadCatalog();
      const { groupLog } = await import("/static/movelog.js");
      return groupLog(log, game)[0][1].map((e) => [e.actor, e.standIn]);
    }""", ["kunken", log])
    assert marks == [[0, False], [1, True]]
    assert_no_page_errors(page)


@pytest.mark.parametrize("game", ["konchinka", "third"])
def test_without_a_turn_hook_every_action_is_an_entry(browser: Any, live_server: ServerThread,
                                                      game: str) -> None:
    """Konchinka's module and a game with no page module have no turn hook: each action
    is its own entry, even two of the same seat in a row."""
    page = open_page(browser, live_server.url)
    groups = page.evaluate(GROUP, [game, LOG])
    assert groups == [[1, [[e["action"]] for e in LOG]]]
    assert_no_page_errors(page)


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
