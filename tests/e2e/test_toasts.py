"""Toasts never cover the page (issue 35, item 4): a message that pops up lies over no
panel, no hand, no prompt and no button, on a phone and a desktop, whether the page is
at its top (a turn starting) or scrolled down to the chat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.server.testing import ServerThread

from .pages import (
    CROSSED,
    MY_TURN,
    assert_no_page_errors,
    choose_name,
    create_table,
    screen,
    shot,
)

WATCHED = ("#main .panel, #main .felt, #main .hand, #main .prompt, #main .opponent, "
           "button, a, input, select, textarea, summary")
"""What a toast must never lie over: the panels, the felt, the hand, the prompt and
every control."""

BOXES = """selector => [...document.querySelectorAll(selector)]
  .filter((n) => !n.closest('#toasts'))
  .map((n) => { const r = n.getBoundingClientRect();
    return { what: (n.id ? '#' + n.id : '') + '.' + [...n.classList].join('.') + ' ' + n.tagName
      + ' ' + (n.textContent || '').trim().slice(0, 30),
      left: r.left, top: r.top, right: r.right, bottom: r.bottom }; })
  .filter((b) => b.right - b.left > 0 && b.bottom - b.top > 0)"""

TOAST = """text => import('/static/dom.js').then((m) => { m.toast(text, 'error', 60000); })"""


def _boxes(page: Any) -> list[dict[str, Any]]:
    boxes: list[dict[str, Any]] = page.evaluate(BOXES, WATCHED)
    return boxes


def _in_view(box: dict[str, Any], top: float, height: int) -> bool:
    """Whether a box is wholly in the window below ``top``."""
    return box["top"] >= top and box["bottom"] <= height


def _overlaps(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two boxes share area (more than half a pixel each way)."""
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5 \
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5


def _covered(page: Any, before: list[dict[str, Any]]) -> list[str]:
    """Shown a toast, the elements it lies over among those fully in view ``before`` (below
    the top bar: a desktop's stays on screen, over what scrolls under it)."""
    height = page.viewport_size["height"]
    top = max(0.0, page.evaluate("() => document.getElementById('topbar')"
                                 ".getBoundingClientRect().bottom"))
    watched = {box["what"] for box in before if _in_view(box, top, height)}
    page.evaluate(TOAST, "A message that must not cover anything on the page")
    toasts = page.locator("#toasts .toast")
    expect(toasts).to_have_count(1)
    page.wait_for_timeout(200)
    box = page.evaluate("""() => { const r = document.querySelector('#toasts .toast')
      .getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right,
      bottom: r.bottom }; }""")
    assert _in_view(box, 0, height)  # it is seen
    return [after["what"] for after in _boxes(page)
            if after["what"] in watched and _overlaps(after, box)]


@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_a_toast_covers_nothing_when_a_turn_starts_or_down_the_page(
        browser: Any, live_server: ServerThread, artifacts: Path, size: str,
        lang: str) -> None:
    """Anna's turn starts (the page at its top): a toast lies over nothing of the table;
    scrolled down to the chat, a toast lies over nothing that was in view."""
    page = screen(browser, live_server.url, size, lang)
    choose_name(page, "Anna")
    create_table(page, game="konchinka", seats=2, bots={1: "greedy"})
    page.wait_for_selector(MY_TURN)
    page.wait_for_timeout(300)  # the cards' motion settles
    assert _covered(page, _boxes(page)) == []
    shot(page, artifacts, f"toast-turn-{size}-{lang}")
    page.locator("#toasts .toast-close").click()
    expect(page.locator("#toasts .toast")).to_have_count(0)
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.scrollY") > 0
    assert _covered(page, _boxes(page)) == []
    assert_no_page_errors(page)
