"""Following the game on the page (issue 12), in a real browser at a desktop (1366×800)
and a phone (390×844) size, in Russian and in English: the rule form says in words what a
0 means, Konchinka's capture choices hang under the card they are for, a capture's cards
stay on the table for a moment before they leave, and the next deal waits for the
end-of-deal screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.game import get_game
from konkun.server.testing import ServerThread

from .pages import (
    CROSSED,
    DEAL_MOVES,
    MY_TURN,
    PAIRS,
    assert_no_page_errors,
    choose_name,
    play_konchinka_move,
    screen,
    shot,
)

pytestmark = [pytest.mark.e2e, pytest.mark.motion]



def take_name_and_create(page: Any, game: str, rules: dict[str, str] | None = None) -> None:
    """Take a name, create a two-seat table against the greedy bot, sit at seat 1."""
    choose_name(page, "Anna")
    page.locator(f".game-choice input[value={game}]").check()
    page.select_option("#who-1", "greedy")
    if rules:
        page.click("details.rules summary")
        for name, value in rules.items():
            page.fill(f"#rule-{name}", value)
    page.click("#create")
    page.wait_for_url("**/t/*")


@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_kunken_deals_and_target_of_0_are_said_in_words(
        browser: Any, live_server: ServerThread, artifacts: Path, size: str, lang: str) -> None:
    """RULES.md, Kunken: 0 deals means one deal per player and a target of 0 means no
    target; the form says so beside the field while it holds 0, in the page's language."""
    kunken = get_game("kunken")
    words = {o.name: o.zero for o in kunken.options if o.zero is not None}
    assert set(words) == {"deals", "target"}
    page = screen(browser, live_server.url, size, lang)
    page.locator(".game-choice input[value=kunken]").check()
    page.click("details.rules summary")
    for name, title in words.items():
        note = page.locator(f"#rule-{name}-zero")
        expect(page.locator(f"#rule-{name}")).to_have_value("0")
        expect(note).to_be_visible()
        expect(note).to_have_text(title.ru if lang == "ru" else title.en)
        page.fill(f"#rule-{name}", "3")
        expect(note).to_be_hidden()
        page.fill(f"#rule-{name}", "0")
        expect(note).to_be_visible()
    shot(page, artifacts, f"follow-01-rules-in-words-{size}-{lang}")
    assert_no_page_errors(page)


WATCH_LEAVING = """() => {
    window.leavingSeen = [];
    new MutationObserver(() => {
        const box = document.querySelector("#leaving-cards");
        if (!box || box.dataset.seen) return;
        box.dataset.seen = "1";
        const cards = (sel) => [...document.querySelectorAll(sel)].map((n) => n.dataset.card);
        window.leavingSeen.push({ leaving: cards("#leaving-cards .card"),
            said: cards("#last-move .last-cards .card"),
            onTable: cards("#table-cards .card") });
    }).observe(document.querySelector("#main"), { childList: true, subtree: true });
}"""

CHOICE_UNDER_CARD = """() => {
    const card = document.querySelector(".hand .card.selected").getBoundingClientRect();
    const box = document.querySelector("#choices").getBoundingClientRect();
    const center = card.left + card.width / 2;
    return { under: box.top - card.bottom, left: box.left - 1, right: box.right + 1, center,
             inView: box.top >= 0 && box.bottom <= window.innerHeight + 1 };
}"""


@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_konchinka_choices_hang_under_the_card_and_captured_cards_linger(
        browser: Any, live_server: ServerThread, artifacts: Path, size: str, lang: str) -> None:
    """The capture choices of a chosen card sit right under that card (its centre above
    the box, the box just below it) and in view; a capture's cards stay on the table,
    marked, for a moment before they leave: exactly the cards the move took, and the card
    that took them, none of them still on the table."""
    page = screen(browser, live_server.url, size, lang)
    take_name_and_create(page, "konchinka")
    page.evaluate(WATCH_LEAVING)
    for turn in range(24):
        page.wait_for_selector(f"{MY_TURN}, #deal-end")
        if page.locator("#deal-end").count():
            break
        cards = page.locator(MY_TURN)
        cards.nth(turn % cards.count()).click()
        expect(page.locator("#choices")).to_be_visible()
        place = page.evaluate(CHOICE_UNDER_CARD)
        assert 0 <= place["under"] <= 40, place
        assert place["left"] <= place["center"] <= place["right"], place
        page.wait_for_function("""() => {
            const r = document.querySelector("#choices").getBoundingClientRect();
            return r.top >= 0 && r.bottom <= window.innerHeight + 1;
        }""")
        if turn == 0:
            shot(page, artifacts, f"follow-02-choices-under-card-{size}-{lang}")
        page.keyboard.press("Escape")
        play_konchinka_move(page)
        seen = page.evaluate("() => window.leavingSeen")
        if seen and turn >= 3:
            break
    seen = page.evaluate("() => window.leavingSeen")
    assert seen, "no capture in the deal's first moves"
    for moment in seen:
        played, *taken = moment["leaving"]
        assert [played, *sorted(taken)] == [moment["said"][0], *sorted(moment["said"][1:])]
        assert not set(taken) & set(moment["onTable"])
    page.wait_for_selector("#leaving-cards", state="detached")  # then they leave
    assert_no_page_errors(page)


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ru")])
def test_the_next_deal_waits_for_the_end_of_deal_screen(
        browser: Any, live_server: ServerThread, artifacts: Path, size: str, lang: str) -> None:
    """RULES.md: when a Konchinka deal ends the next deal is dealt at once; the page keeps
    the old deal behind the end-of-deal screen until the player closes it (desktop) or its
    countdown runs out (phone), then shows the new deal (a fresh hand, an empty log of the
    deal). The deal is the research deck of seven ranks: three rounds of four cards, 12 moves
    each (the whole deck's 24 each, tests/konchinka/test_deck_ranks_rule.py, take four
    rounds of six to the same screens)."""
    page = screen(browser, live_server.url, size, lang)
    take_name_and_create(page, "konchinka", {"deck_ranks": "7"})
    page.clock.install()  # the page's timers run on, and can be moved on at once
    while True:
        page.wait_for_selector(f"{MY_TURN}, #deal-end")
        if page.locator("#deal-end").count():
            break
        play_konchinka_move(page)
    expect(page.locator("#deal-end-countdown")).to_be_visible()
    first = page.locator("#deal-end-countdown").inner_text()
    page.clock.run_for(1500)
    assert page.locator("#deal-end-countdown").inner_text() != first  # it counts down
    # behind the screen: still the old deal, whose moves fill the deal's log
    assert page.locator(".hand .card").count() <= 1
    assert page.locator(DEAL_MOVES).count() >= 20  # of the deal's 24 moves
    shot(page, artifacts, f"follow-03-deal-end-waits-{size}-{lang}")
    if size == "desktop":
        page.click("#deal-end-close")
    else:
        page.clock.run_for(12_000)  # the countdown runs out
    expect(page.locator("#deal-end")).to_have_count(0)
    expect(page.locator(".hand .card").first).to_be_visible()
    assert page.locator(".hand .card").count() > 1
    assert page.locator(DEAL_MOVES).count() <= 1
    assert_no_page_errors(page)
