"""Ending a game from the page (issue 33, item 1): a person aborts a table before anyone
moved, and resigns a match after moving, each after confirming; at both sizes and in both
languages, and every game ended so verifies (the ``live_server`` fixture checks)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from konkun.server.testing import ServerThread

from .pages import (
    CROSSED,
    MY_TURN,
    PAIRS,
    assert_no_page_errors,
    choose_name,
    create_table,
    play_konchinka_move,
    screen,
)

pytestmark = pytest.mark.e2e

TEXTS = {
    "en": {"abort": "Abort the game", "resign": "Resign", "aborted": "aborted",
           "resigned": "Resigned: Ann"},
    "ru": {"abort": "Прервать игру", "resign": "Сдаться", "aborted": "прервана",
           "resigned": "Сдались: Ann"},
}


@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_a_person_aborts_then_resigns_from_the_page(
        browser: Browser, live_server: ServerThread, size: str, lang: str) -> None:
    page = screen(browser, live_server.url, size, lang)
    texts = TEXTS[lang]
    choose_name(page, "Ann")
    create_table(page, game="konchinka", seats=2, bots={1: "greedy"})
    abort = page.locator("#abort")
    expect(abort).to_have_text(texts["abort"])
    abort.click()
    page.locator("#abort-no").click()  # thought better of it: nothing happened
    expect(page.locator(".table-page")).to_have_attribute("data-status", "playing")
    page.locator("#abort").click()
    page.locator("#abort-yes").click()
    expect(page.locator(".table-page")).to_have_attribute("data-status", "finished")
    expect(page.locator("#ended")).to_contain_text(texts["aborted"])

    page.goto(live_server.url)
    create_table(page, game="konchinka", seats=2, bots={1: "greedy"})
    page.locator(MY_TURN).first.wait_for()
    play_konchinka_move(page)
    expect(page.locator("#abort")).to_have_count(0)  # a person moved: resign only
    resign = page.locator("#resign")
    expect(resign).to_have_text(texts["resign"])
    resign.click()
    page.locator("#resign-yes").click()
    expect(page.locator(".table-page")).to_have_attribute("data-status", "finished")
    expect(page.locator("#ended")).to_have_text(texts["resigned"])
    expect(page.locator("#resign")).to_have_count(0)
    assert_no_page_errors(page)


MINE = {"en": ("My games", "Rated games are for accounts"),
        "ru": ("Мои игры", "Рейтинговые игры — только для аккаунтов")}


@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_a_guest_finds_her_unfinished_games_and_is_told_why_she_cannot_play_rated(
        browser: Browser, live_server: ServerThread, size: str, lang: str) -> None:
    page = screen(browser, live_server.url, size, lang)
    title, why = MINE[lang]
    choose_name(page, "Ann")
    expect(page.locator("#rated-why")).to_contain_text(why)
    table_id = create_table(page, game="konchinka", seats=2, bots={1: "greedy"})
    page.goto(live_server.url)
    mine = page.locator("#my-games")
    expect(mine.locator("h2")).to_have_text(title)
    expect(mine.locator(f"a[href='/t/{table_id}']").first).to_be_visible()
    assert_no_page_errors(page)
