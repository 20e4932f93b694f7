"""The table on a phone (issue 35, item 1): when a turn starts, the player's whole hand,
the table (Konchinka) or the bank (Kunken), the last move and the turn prompt are all in
the window without scrolling, at every supported size from 360×640 to a desktop, for
every seat count, in both languages; a Kunken hand of 20 cards fits the width.

One server and one browser serve the whole matrix: the tables are made through the HTTP
API (the person at seat 0, bots at the others) and wait at the person's turn (no move
clock), and one browser context per (size, language) visits each of them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Page, expect

from konkun.server.testing import ServerThread, request_json, run_server_in_thread

from .conftest import BOT_DELAY, PAGE_LIMITS
from .pages import LOCALES, assert_no_page_errors, play_konchinka_move

pytestmark = pytest.mark.e2e

WINDOWS = {"small": (360, 640), "phone": (390, 844), "desktop": (1366, 800)}
"""Every size the page supports, from a small phone to a desktop (width, height)."""
SETUPS = {
    "konchinka-2": ("konchinka", 2, {}),
    "konchinka-3": ("konchinka", 3, {}),
    "konchinka-4": ("konchinka", 4, {}),
    "kunken-2": ("kunken", 2, {}),
    "kunken-3": ("kunken", 3, {}),
    "kunken-5": ("kunken", 5, {}),
    "kunken-2-of-20": ("kunken", 2, {"hand_size": "20"}),
}
"""The tables measured: game, seats and rules (the last one deals hands of 20 cards)."""

MEASURE = """() => {
    const out = [];
    const inside = (r) => r.width > 0 && r.left >= -0.5 && r.top >= -0.5
        && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
    // a point of the node a person sees: near its left edge (where an overlapped card
    // shows its index), half way down
    const shows = (node, r) => {
        const top = document.elementFromPoint(r.left + Math.min(r.width / 2, 10),
                                              r.top + r.height / 2);
        return !!top && (node === top || node.contains(top));
    };
    const check = (selector, label) => {
        const nodes = [...document.querySelectorAll(selector)];
        if (!nodes.length) out.push(`${label}: missing`);
        for (const node of nodes) {
            const r = node.getBoundingClientRect();
            const name = `${label} ${node.dataset.card || node.id || ""}`;
            if (!inside(r)) out.push(`${name} outside the window at `
                + `${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},`
                + `${Math.round(r.bottom)}`);
            else if (!shows(node, r)) out.push(`${name} covered`);
        }
    };
    const game = document.querySelector(".table-page").dataset.game;
    check("#hand .hand .card", "hand card");
    if (game === "konchinka") {
        check(document.querySelector("#table-cards .card") ? "#table-cards .card"
              : "#table-cards", "table");
    } else {
        check(document.querySelector("#bank .card") ? "#bank .card" : "#bank", "bank");
    }
    check("#turn", "turn banner");
    check("#prompt", "turn prompt");
    if (document.querySelector("#last-move")) check("#last-move", "last move");
    if (scrollY !== 0) out.push(`scrolled to ${scrollY}`);
    if (document.documentElement.scrollWidth > innerWidth) out.push("wider than the window");
    const row = document.querySelector("#hand .hand");
    if (row && row.scrollWidth > row.clientWidth + 1) out.push("the hand scrolls sideways");
    return out;
}"""
"""What is not in view at the start of the turn (an empty list when everything is)."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """The e2e server, letting one person sit at every table of the matrix at once (no
    game of it finishes, so there is nothing to verify after)."""
    with run_server_in_thread(data_dir=tmp_path / "data", bot_delay=BOT_DELAY,
                              max_tables_per_player=len(SETUPS), **PAGE_LIMITS) as running:
        yield running


SETTLED = """() => Promise.all(document.getAnimations()
    .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
    .map((a) => { a.finish(); return a.finished.catch(() => null); }))
    .then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))"""
"""Bring the last move's motion to its end (the turn banner's pulse never ends): the page
is measured as it stands once the motion is over, without waiting out its 1.5 s (each
animation's end events fire as they would, so the page removes a capture's leaving cards
itself)."""


def seated_table(url: str, token: str, game: str, seats: int, rules: dict[str, str]) -> str:
    """A table of ``game`` with the person (``token``) at seat 0 and greedy bots at the
    others, already playing; its id."""
    bots = {str(seat): "greedy" for seat in range(1, seats)}
    table = request_json(f"{url}/api/tables", "POST",
                         {"game": game, "seats": seats, "rules": rules, "bots": bots}, token)
    request_json(f"{url}/api/tables/{table['id']}/sit", "POST", {"seat": 0}, token)
    return str(table["id"])


Motion = Literal["no-preference", "reduce"]
"""The ``prefers-reduced-motion`` a browser context asks for."""

ANIMATIONS = """window.konkunAnimations = [];
document.addEventListener("animationstart",
    (event) => window.konkunAnimations.push(event.animationName));"""
"""Run in the page first: the names of the CSS animations that start are recorded."""


def person_at(browser: Browser, url: str, guest: dict[str, Any], window: str,
              lang: str, reduced_motion: Motion = "no-preference") -> Page:
    """The person's browser (their identity stored) at ``window`` size, in ``lang``; a
    phone's has a touch screen. The animations that start are recorded."""
    width, height = WINDOWS[window]
    context = browser.new_context(viewport={"width": width, "height": height},
                                  locale=LOCALES[lang], has_touch=window != "desktop",
                                  reduced_motion=reduced_motion)
    context.add_init_script(  # once: a test may change who is there after
        "if (!localStorage.getItem('konkun.identity')) localStorage.setItem("
        f"'konkun.identity', {json.dumps(json.dumps(guest))})")
    context.add_init_script(ANIMATIONS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(30_000)
    page.js_errors = errors  # type: ignore[attr-defined]
    page.clock.install()  # the page's timers run on, and can be moved on at once
    page.goto(url)
    return page


LEAVING_MS = 1500
"""How long a capture's cards stay beside the table before the page redraws without them
(konchinka.js)."""


def test_the_hand_the_table_and_the_prompt_are_in_view_when_a_turn_starts(
        browser: Browser, server: ServerThread, artifacts: Path) -> None:
    """At 360×640, 390×844 and 1366×800, for Konchinka with 2, 3 and 4 seats and Kunken
    with 2, 3 and 5 (and a Kunken hand of 20), in English and Russian: when the person's
    turn starts, every hand card, every card on the table or in the bank, the turn banner,
    the prompt and the last move lie inside the window, none under another part of the
    page, with the page not scrolled and the hand not scrolling sideways."""
    url = server.url
    guest = request_json(f"{url}/api/guest", "POST", {"nickname": "Dasha"})
    tables = {name: seated_table(url, guest["token"], game, seats, rules)
              for name, (game, seats, rules) in SETUPS.items()}
    failures: list[str] = []
    for window in WINDOWS:
        for lang in LOCALES:
            page = person_at(browser, f"{url}/t/{tables['konchinka-2']}", guest, window, lang)
            for name, table_id in tables.items():
                page.goto(f"{url}/t/{table_id}")
                expect(page.locator("#hand.active")).to_be_visible()
                page.evaluate(SETTLED)
                page.clock.run_for(LEAVING_MS)  # the leaving cards' time is up
                page.evaluate(SETTLED)
                problems = page.evaluate(MEASURE)
                failures += [f"{name} {window} {lang}: {problem}" for problem in problems]
                if problems:  # the screen that does not fit, for the person who reads it
                    page.screenshot(path=str(artifacts / f"fits-{name}-{window}-{lang}.png"))
            assert_no_page_errors(page)
            page.context.close()
    assert failures == [], "\n".join(failures)


@pytest.mark.parametrize(("window", "lang", "motion"), [("phone", "ru", "no-preference"),
                                                         ("desktop", "en", "no-preference"),
                                                         ("desktop", "ru", "reduce")])
def test_a_played_card_moves_to_the_table_and_captured_cards_to_the_pile(
        browser: Browser, server: ServerThread, window: str, lang: str,
        motion: Motion) -> None:
    """At a Konchinka table against a bot, the card a move plays flies to the table (or,
    taking cards, to where they are shown) and the cards a capture takes fly to the
    capturer's pile, as CSS animations; with ``prefers-reduced-motion: reduce`` nothing
    flies."""
    url = server.url
    guest = request_json(f"{url}/api/guest", "POST", {"nickname": "Dasha"})
    table_id = seated_table(url, guest["token"], "konchinka", 2, {})
    page = person_at(browser, f"{url}/t/{table_id}", guest, window, lang, motion)
    captured = False
    for _ in range(6):
        expect(page.locator("#hand.active")).to_be_visible()
        captured = captured or page.locator("#leaving-cards").count() > 0
        play_konchinka_move(page)
    expect(page.locator("#hand.active")).to_be_visible()
    started = set(page.evaluate("() => window.konkunAnimations"))
    flights = {"konkun-fly-in", "konkun-fly-out"} & started
    if motion == "reduce":
        assert flights == set()
    else:
        assert "konkun-fly-in" in flights
        log = " ".join(page.locator("#match-log li").all_inner_texts())
        if "×" in log:  # a capture was made: its cards flew to a pile
            assert "konkun-fly-out" in flights
    assert_no_page_errors(page)


RANK_ORDER = "23456789TJQKA"
SUIT_ORDER = "cdhs"


def by_rank(cards: list[str]) -> list[str]:
    """``cards`` by rank, then suit (2 low, the ace high), the jokers last."""
    return sorted(cards, key=lambda c: (1, 0, 0) if c.startswith("X")
                  else (0, RANK_ORDER.index(c[0]), SUIT_ORDER.index(c[1])))


def by_suit(cards: list[str]) -> list[str]:
    """``cards`` by suit (clubs, diamonds, hearts, spades), then rank, the jokers last."""
    return sorted(cards, key=lambda c: (1, 0, 0) if c.startswith("X")
                  else (0, SUIT_ORDER.index(c[1]), RANK_ORDER.index(c[0])))


def test_a_kunken_hand_is_sorted_by_suit_or_rank_and_the_choice_kept_per_player(
        browser: Browser, server: ServerThread) -> None:
    """Dasha's Kunken hand shows by suit; "by rank" reorders it by rank, and a reload keeps
    her choice; Vera, in the same browser after her, gets her own (by suit)."""
    url = server.url
    dasha = request_json(f"{url}/api/guest", "POST", {"nickname": "Dasha"})
    page = person_at(browser, f"{url}/t/{seated_table(url, dasha['token'], 'kunken', 2, {})}",
                     dasha, "phone", "en")
    expect(page.locator("#hand.active")).to_be_visible()
    shown = page.locator("#hand .hand .card")
    expect(page.locator("#sort-suit")).to_have_attribute("aria-pressed", "true")
    cards = shown.evaluate_all("nodes => nodes.map((n) => n.dataset.card)")
    assert cards == by_suit(cards)
    page.click("#sort-rank")
    expect(page.locator("#sort-rank")).to_have_attribute("aria-pressed", "true")
    assert shown.evaluate_all("nodes => nodes.map((n) => n.dataset.card)") == by_rank(cards)
    page.reload()
    expect(page.locator("#hand.active")).to_be_visible()
    expect(page.locator("#sort-rank")).to_have_attribute("aria-pressed", "true")
    assert shown.evaluate_all("nodes => nodes.map((n) => n.dataset.card)") == by_rank(cards)
    vera = request_json(f"{url}/api/guest", "POST", {"nickname": "Vera"})
    table = seated_table(url, vera["token"], "kunken", 2, {})
    page.evaluate("identity => localStorage.setItem('konkun.identity', identity)",
                  json.dumps(vera))
    page.goto(f"{url}/t/{table}")
    expect(page.locator("#hand")).to_be_visible()
    expect(page.locator("#sort-suit")).to_have_attribute("aria-pressed", "true")
    assert_no_page_errors(page)
