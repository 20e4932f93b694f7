"""What a person does on the konkun page, as Playwright steps shared by the e2e tests."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from konkun.server.testing import request_json

MY_TURN = ".hand button.card"
DEAL_MOVES = "#match-log .log-deal[open] li"
"""The moves of the current deal in the table's one move log (the match log)."""
"""A hand card the person may play now (a hand card is a button only when it may be played)."""


def open_page(browser: Browser, url: str, *, locale: str = "en-US",
              width: int = 1280, height: int = 900, init_script: str | None = None) -> Page:
    """A fresh browser context (its own localStorage) showing ``url``; page errors fail.
    ``init_script`` runs in the page before its own scripts (to hold a request, say)."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    if init_script is not None:
        context.add_init_script(init_script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(20_000)
    page.goto(url)
    page.evaluate("() => 1")
    page.js_errors = errors  # type: ignore[attr-defined]
    return page

SIZES = {"desktop": (1366, 800), "phone": (390, 844)}
"""The two screens every page is tested at: a desktop and a phone (width, height)."""
LOCALES = {"en": "en-US", "ru": "ru-RU"}
"""The page's two languages and the browser locale of each."""
SCREENS = [(size, lang) for size in SIZES for lang in LOCALES]
"""Every (size, language) pair."""
PAIRS = [("desktop", "en"), ("phone", "ru")]
"""Each size and each language once, in two runs: for a flow whose claim does not depend
on which language goes with which size (a flow is seen at a desktop and on a phone, in
English and in Russian)."""
CROSSED = [("desktop", "ru"), ("phone", "en")]
"""The other two pairings, given to half of the flows run in two pairings, so that every
pairing is still run by some flow."""
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
"""A family emoji: one character as a person counts it, five code points."""


def screen(browser: Browser, url: str, size: str, lang: str,
           init_script: str | None = None) -> Page:
    """A page of ``url`` at one of the two sizes, in one of the two languages."""
    width, height = SIZES[size]
    return open_page(browser, url, locale=LOCALES[lang], width=width, height=height,
                     init_script=init_script)



def assert_no_page_errors(page: Page) -> None:
    """The page's scripts threw nothing."""
    errors: list[str] = page.js_errors  # type: ignore[attr-defined]
    assert not errors, errors


def choose_name(page: Page, name: str) -> None:
    """Type a nickname in the lobby (or a table's name form) and take it, once the page has
    settled (its first requests answered and drawn), as a person waits for a page to
    load before typing."""
    page.wait_for_load_state("networkidle")
    page.fill("#nickname", name)
    page.click("#save-name")
    expect(page.locator(".whoami")).to_have_text(name)


def create_table(page: Page, *, game: str, seats: int, bots: dict[int, str],
                 rules: dict[str, str] | None = None) -> str:
    """Fill the lobby's form, create the table, sit at seat 0; return the table id."""
    page.locator(f".game-choice input[value={game}]").check()
    page.select_option("#seats", str(seats))
    for seat in range(1, seats):
        page.select_option(f"#who-{seat}", bots.get(seat, "human"))
    if rules:
        page.click("details.rules summary")
        for name, value in rules.items():
            page.fill(f"#rule-{name}", value)
    page.click("#create")
    page.wait_for_url("**/t/*")
    return page.url.rstrip("/").rsplit("/", 1)[1]


def first_to_move(pages: list[Page], timeout: float = 20) -> Page:
    """The one of ``pages`` whose turn it is once the deal has reached them all (asked
    before a page has drawn the dealt table, nobody's turn shows yet)."""
    deadline = time.monotonic() + timeout
    while True:
        moving = [page for page in pages if page.locator(MY_TURN).count()]
        if len(moving) == 1:
            return moving[0]
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(moving)} of {len(pages)} pages show their turn")
        pages[0].wait_for_timeout(100)


def hand(page: Page) -> list[str]:
    """The card texts in the person's hand, as drawn."""
    cards: list[str] = page.locator(".hand .card").evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)")
    return cards


def move_count(page: Page) -> int:
    """How many moves the current deal's log shows."""
    return page.locator(DEAL_MOVES).count()


def play_konchinka_move(page: Page) -> str:
    """Play one move through the page: the first playable hand card, then its first
    offered capture, else lay it on the table. Return the action text clicked."""
    page.locator(MY_TURN).first.click()
    captures = page.locator("#choices .capture")
    return play_choice(page, "#choices .capture" if captures.count() else "#trail")


def play_choice(page: Page, selector: str) -> str:
    """Click the offered move ``selector`` and wait until the hand shows it was played."""
    button = page.locator(selector).first
    action: str = button.get_attribute("data-action") or ""
    before = len(hand(page))
    button.click()
    page.wait_for_function(
        "n => document.querySelectorAll('.hand .card').length !== n"
        " || document.querySelector('#deal-score, #settlement, #deal-end')", arg=before)
    return action


def wait_for_status(server_url: str, table_id: str, status: str, timeout: float = 60) -> None:
    """Poll the table summary until it has ``status``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if request_json(f"{server_url}/api/tables/{table_id}")["status"] == status:
            return
        time.sleep(0.1)
    raise AssertionError(f"table {table_id} did not become {status!r} in {timeout} s")


def shot(page: Page, artifacts: Path, name: str) -> Path:
    """Save a full-page screenshot under test-artifacts/e2e/."""
    path = artifacts / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def copy_seat_link(page: Page) -> str:
    """Press "Copy this seat's link" and return the link, once it is on the clipboard (the
    server signs it first)."""
    page.evaluate("() => navigator.clipboard.writeText('')")
    page.click("#personal-link")
    for _ in range(200):
        link = str(page.evaluate("() => navigator.clipboard.readText()"))
        if link:
            return link
        page.wait_for_timeout(25)
    raise AssertionError("the seat link never reached the clipboard")
