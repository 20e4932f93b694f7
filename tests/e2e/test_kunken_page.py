"""A person makes a Kunken opening through the page in a real browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from konkun.server.testing import ServerThread

from .conftest import deal_from_seed, finished_bot_games
from .pages import (
    PAIRS,
    assert_no_page_errors,
    choose_name,
    create_table,
    open_page,
    screen,
    shot,
)

pytestmark = pytest.mark.e2e


def opening_seed() -> str:
    """The first seed of ``e2e-0``, ``e2e-1``, ... whose two-player match lets seat 0 move
    first and take the bank at once (found with the engine, not assumed)."""
    from konkun.kunken import KunkenMatch, KunkenRules

    for i in range(2000):
        seed = f"e2e-{i}"
        deal = KunkenMatch(KunkenRules(), 2, seed).deal
        if deal.to_move == 0 and any(
                deal.format_action(a).startswith("take ") for a in deal.legal_actions()):
            return seed
    raise AssertionError("no seed with an opening in 2000 tries")


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> str:
    """The next game the in-thread server deals uses a known seed (normally secret)."""
    seed = opening_seed()
    deal_from_seed(monkeypatch, seed)
    return seed


def step(page: Page, selector: str) -> None:
    """Play the first offered move matching ``selector``; wait until the hand changes."""
    before = page.locator("#hand .hand .card").count()
    page.locator(selector).first.click()
    page.wait_for_function(
        "n => document.querySelectorAll('#hand .hand .card').length !== n", arg=before)


def test_person_takes_the_bank_and_lays_down_an_opening(
        browser: Any, live_server: ServerThread, seeded: str, artifacts: Path) -> None:
    """RULES.md, Kunken: taking the bank from card c obliges a meld holding c and two
    cards held before, and an opening worth at least 50; then one card is discarded."""
    page = open_page(browser, live_server.url)
    choose_name(page, "Dasha")
    create_table(page, game="kunken", seats=2, bots={1: "greedy"})
    takeable = page.locator("#bank .card.takeable")
    expect(takeable.first).to_be_visible()
    expect(page.locator("#draw")).to_be_visible()
    page.click("#hint")
    expect(page.locator("#bank .card.hinted, #draw.hinted")).to_have_count(1)
    expect(page.locator("#advice")).to_contain_text("Take the bank from")  # the solver's
    shot(page, artifacts, "kunken-01-start")

    step(page, "#bank .card.takeable")
    expect(page.locator("#obligations")).to_be_visible()
    shot(page, artifacts, "kunken-02-taken")
    while True:
        melds = page.locator("#moves .choice[data-kind=meld]")
        if melds.count():
            step(page, "#moves .choice[data-kind=meld]")
            continue
        discards = page.locator("#moves .choice[data-kind=discard]")
        if discards.count():
            shot(page, artifacts, "kunken-03-melded")
            step(page, "#moves .choice[data-kind=discard]")
            break
        step(page, "#moves .choice[data-kind=layoff]")

    mine = page.locator("#layouts .layout[data-seat='0']")
    expect(mine.locator(".meld").first).to_be_visible()
    points = [int(x) for x in mine.locator(".meld-pts").all_inner_texts()]
    assert sum(points) >= 50  # the opening minimum
    expect(mine).to_contain_text("opened")
    page.wait_for_selector("#draw")  # the bot played; our turn again
    expect(page.locator("#totals")).to_be_visible()
    shot(page, artifacts, "kunken-04-opened")
    # a plain turn: draw from the stock (one card more), then discard (one card less)
    cards = page.locator("#hand .hand .card")
    held = cards.count()
    page.click("#draw")
    expect(cards).to_have_count(held + 1)
    page.locator("#moves .choice[data-kind=discard]").first.click()
    expect(cards).to_have_count(held)
    assert_no_page_errors(page)


BOT_MATCHES = {
    "sevens": {"game": "kunken", "seats": 2, "rules": {"deals": "1", "hand_size": "7"},
               "bots": {"0": "greedy", "1": "greedy"}},
    # the stock runs out once (a shorter deal: the claim is about the dealt hands)
    "three-seats": {"game": "kunken", "seats": 3,
                    "rules": {"deals": "1", "max_stock_renewals": "0"},
                    "bots": {"0": "greedy", "1": "random", "2": "random"}},
}
"""The bots' Kunken matches whose replays the tests open, by name."""


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[tuple[ServerThread, dict[str, str]]]:
    """A server on which the matches of :data:`BOT_MATCHES` were played at once to their
    end, and their table ids by name (read at every size and language)."""
    with finished_bot_games(tmp_path_factory.mktemp("kunken") / "data",
                            BOT_MATCHES) as games:
        yield games


def test_kunken_replay_opens_every_hand_once_the_match_is_over(
        browser: Any, finished: tuple[ServerThread, dict[str, str]], artifacts: Path) -> None:
    """A finished Kunken match replays from the deal (the first bank card face up, every
    hand open) to its end (the match result), and from one seat's view."""
    server, tables = finished
    page = open_page(browser, f"{server.url}/replay/{tables['sevens']}")
    expect(page.locator("#bank .card")).to_have_count(1)
    for seat in (0, 1):
        expect(page.locator(f".opponent[data-seat='{seat}'] .card")).to_have_count(7)
    shot(page, artifacts, "kunken-05-replay-start")
    page.click("#rp-last")
    expect(page.locator("#match-result")).to_be_visible()
    page.select_option("#replay-seat", "1")
    expect(page.locator("#rp-caption")).not_to_contain_text("Start")
    expect(page.locator(".opponent")).to_have_count(0)
    shot(page, artifacts, "kunken-06-replay-end-seat-1")
    assert_no_page_errors(page)


@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_every_open_hand_of_a_kunken_replay_stays_on_the_screen(
        browser: Any, finished: tuple[ServerThread, dict[str, str]], artifacts: Path,
        size: str, lang: str) -> None:
    """13-card hands, every hand open: each card of each hand is inside the window, on a
    phone too (the row of cards wraps instead of running off both edges)."""
    server, tables = finished
    page = screen(browser, f"{server.url}/replay/{tables['three-seats']}", size, lang)
    expect(page.locator(".opponent[data-seat='1'] .card")).to_have_count(13)
    shot(page, artifacts, f"kunken-07-replay-open-hands-{size}-{lang}")
    width = page.evaluate("() => window.innerWidth")
    boxes = [page.locator(".opponent .card").nth(i).bounding_box()
             for i in range(page.locator(".opponent .card").count())]
    assert all(box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1
               for box in boxes), [box for box in boxes if box and box["x"] < 0]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert_no_page_errors(page)
