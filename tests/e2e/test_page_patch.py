"""``patch`` (static/dom.js), with which the table page redraws on every state: the result
is what ``mount`` would show, an unchanged button is the same node (a press on it before a
redraw still clicks on release), and a node the page keeps across redraws (the game's
container) stays itself, its content whole."""

from __future__ import annotations

from typing import Any

import pytest

from konkun.server.testing import ServerThread

from .pages import assert_no_page_errors, open_page

pytestmark = pytest.mark.e2e

REDRAW = """async () => {
  const { h, mount, patch } = await import("/static/dom.js");
  const clicks = [];
  const game = h("div", { class: "game" }, h("p", {}, "the game's own content"));
  const draw = (seated, label) => h("div", { class: "page" },
    seated ? h("p", { class: "panel" }, "seated") : null,
    game,
    h("div", { class: "plain" }, "a panel without listeners"),
    h("ul", {}, [0, 1].map((seat) => h("li", { class: seat === 0 && seated ? "me" : "" },
      h("button", { onclick: () => clicks.push(`${label} ${seat}`) }, `sit ${seat}`)))));
  const root = document.createElement("section");
  mount(root, draw(false, "first"));
  const before = [...root.querySelectorAll("button")];
  patch(root, draw(true, "second"));
  const patched = root.innerHTML;
  const gameKept = root.querySelector(".game") === game && game.textContent;
  const after = [...root.querySelectorAll("button")];
  after[1].click();
  return {
    patched,
    // drawn last: a drawing takes the game's container into itself
    mounted: mount(document.createElement("section"), draw(true, "third")).innerHTML,
    keptButton: before[1] === after[1],
    gameKept,
    clicks,
  };
}"""


def test_a_patched_page_shows_the_new_drawing_and_keeps_what_did_not_change(
        browser: Any, live_server: ServerThread) -> None:
    """A panel appears above the rest: the page then shows what a fresh drawing shows; the
    button that did not change is the one that was there (its click still works); the
    game's container, drawn where a plain panel without listeners stood (the panel above
    the game pushed it down), is not emptied into that panel."""
    page = open_page(browser, live_server.url)
    result = page.evaluate(REDRAW)
    assert result["patched"] == result["mounted"]
    assert result["keptButton"] is True
    assert result["gameKept"] == "the game's own content"
    assert result["clicks"] == ["first 1"]  # the kept button, with its listener
    assert_no_page_errors(page)
