"""Accounts, profiles and leaderboards in a real browser: a guest claims their name, logs
in on a second browser context with a look-alike spelling, logs out everywhere (the first
context loses its session); the profile (with its rating chart) and the leaderboard at a
desktop and a phone size, in Russian and in English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.server.accounts.ratings_service import RatingStore
from konkun.server.store.storage import Storage, StoredTable
from konkun.server.testing import ServerThread, request_json

from .pages import (
    CROSSED,
    PAIRS,
    SIZES,
    assert_no_page_errors,
    choose_name,
    open_page,
    screen,
    shot,
)
from .test_site_returns import claim_account

pytestmark = pytest.mark.e2e

PASSWORD = "a long password"
CLAIMED = {"en": "You are logged in as", "ru": "Вы вошли как"}
STRONG = {"en": "Strong", "ru": "Сильный"}
POOL = {"en": "Konchinka, 2 players", "ru": "Кончинка, 2 игрока"}


def test_a_guest_claims_their_name_and_logs_in_on_a_second_browser(
        browser: Any, live_server: ServerThread, artifacts: Path) -> None:
    first = open_page(browser, live_server.url)
    choose_name(first, "Маша")
    first.goto(f"{live_server.url}/account")
    expect(first.locator("#claim-nickname")).to_have_value("Маша")
    first.fill("#claim-password", PASSWORD)
    first.click("#claim-form-submit")
    expect(first.locator("#account-status")).to_have_text(f"{CLAIMED['en']} Маша.")
    player = first.evaluate("() => JSON.parse(localStorage.getItem('konkun.identity'))")
    shot(first, artifacts, "accounts-01-claimed")

    second = open_page(browser, f"{live_server.url}/account")  # its own localStorage
    second.fill("#login-nickname", "Maшa")  # Latin look-alikes of the Cyrillic capitals
    second.fill("#login-password", "wrong password")
    second.click("#login-form-submit")
    expect(second.locator("#login-form-error")).to_contain_text("do not match")
    second.fill("#login-password", PASSWORD)
    second.click("#login-form-submit")
    expect(second.locator("#account-status")).to_contain_text(CLAIMED["en"])
    expect(second.locator(".whoami")).to_have_text("Маша")
    again = second.evaluate("() => JSON.parse(localStorage.getItem('konkun.identity'))")
    assert again["player_id"] == player["player_id"]
    assert again["token"] != player["token"]

    second.click("#logout-all")
    expect(second.locator("#login-form")).to_be_visible()
    first.goto(f"{live_server.url}/account")  # the first browser's session is revoked
    expect(first.locator("#login-form")).to_be_visible()
    expect(first.locator("#account-status")).to_have_count(0)
    status = first.evaluate("""async (token) => (await fetch('/api/account',
        {headers: {Authorization: 'Bearer ' + token}})).status""", player["token"])
    assert status == 401
    assert_no_page_errors(first)
    assert_no_page_errors(second)


def _rated_history(server: ServerThread) -> str:
    """An account with three rated games against the Strong bot (recorded straight into
    the server's database) and a casual one; its player id."""
    guest = request_json(f"{server.url}/api/guest", "POST", {"nickname": "Ann"})
    claimed = request_json(f"{server.url}/api/account/claim", "POST",
                           {"password": PASSWORD}, token=guest["token"])
    player = str(claimed["player_id"])
    storage = Storage(server.settings.database_url())
    try:
        store = RatingStore(storage.engine)
        seats = [{"kind": "human", "player_id": player, "name": "Ann", "bot": None},
                 {"kind": "bot", "player_id": None, "name": "strong", "bot": "strong"}]
        for day, totals in enumerate(([11, 7], [5, 11], [12, 3], [9, 11])):
            at = f"2026-11-{day + 10:02d}T12:00:00+00:00"
            store.record_finished(StoredTable(
                id=f"game{day}", game="konchinka", variant="classic", rules={},
                seats=seats, seed="s", status="finished", created_at=at, finished_at=at,
                winner=0 if totals[0] > totals[1] else 1, totals=totals),
                day < 3, {player})
    finally:
        storage.close()
    return player


@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_the_profile_and_the_leaderboard_in_both_languages_and_sizes(
        browser: Any, live_server: ServerThread, artifacts: Path, size: str,
        lang: str) -> None:
    player = _rated_history(live_server)
    page = screen(browser, f"{live_server.url}/profile/{player}", size, lang)
    expect(page.locator("#profile-name")).to_have_text("Ann")
    expect(page.locator(".rating-pool h3")).to_have_text(POOL[lang])
    expect(page.locator(".rating-chart circle")).to_have_count(3)
    expect(page.locator("#played tbody tr")).to_have_count(1)
    expect(page.locator("#played tbody td").nth(1)).to_have_text("4")
    expect(page.locator("#played tbody td").nth(2)).to_have_text("2")
    expect(page.locator("#recent li")).to_have_count(4)
    expect(page.locator("#recent li a").first).to_have_attribute("href", "/replay/game3")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= SIZES[size][0]
    shot(page, artifacts, f"accounts-02-profile-{size}-{lang}")

    page.goto(f"{live_server.url}/leaderboard/konchinka-2")
    rows = page.locator("#board tbody tr")
    expect(rows).to_have_count(4)  # the ladder: Ann's rating is not established yet
    expect(page.locator("#board")).not_to_contain_text("Ann")  # (one opponent, issue 33)
    expect(page.locator("#board")).to_contain_text(STRONG[lang])
    expect(page.locator(".pool-tab[aria-pressed=true]")).to_have_text(POOL[lang])
    ratings = [int(text.rstrip("?")) for text in
               page.locator("#board tbody td:nth-child(3)").all_inner_texts()]
    assert ratings == sorted(ratings, reverse=True)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= SIZES[size][0]
    shot(page, artifacts, f"accounts-03-leaderboard-{size}-{lang}")
    page.click(".pool-tab[data-pool=kunken]")
    expect(page).to_have_url(f"{live_server.url}/leaderboard/kunken")
    expect(page.locator("#board tbody tr")).to_have_count(4)  # only the ladder yet
    assert_no_page_errors(page)


RATED = {"en": "Rated", "ru": "Рейтинговая"}


@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_a_rated_table_wears_a_rated_badge_on_its_page_and_in_the_lobby(
        browser: Any, live_server: ServerThread, artifacts: Path, size: str,
        lang: str) -> None:
    """Issue 17: a rated table says so on the table page and in the lobby's row, in the
    page's language; a casual table says nothing of the kind. (That a rated table has no
    hints and a move clock is the server's: tests/server/test_rated_games.py,
    test_a_rated_table_has_hints_off_and_a_move_clock.)"""
    page = screen(browser, live_server.url, size, lang)
    claim_account(page, live_server.url, "Rita")  # rated tables are for accounts
    page.goto(live_server.url)
    page.check("#rated")
    page.click("#create")
    page.wait_for_url("**/t/*")
    rated_id = page.url.rsplit("/", 1)[1]
    badge = page.locator(".table-head .badge.rated")
    expect(badge).to_have_text(RATED[lang])
    expect(badge).to_be_in_viewport()
    shot(page, artifacts, f"rated-badge-table-{size}-{lang}")
    page.goto(live_server.url)
    page.uncheck("#rated")
    page.click("#create")
    page.wait_for_url("**/t/*")
    casual_id = page.url.rsplit("/", 1)[1]
    expect(page.locator(".table-head h1")).to_be_visible()
    expect(page.locator(".badge.rated")).to_have_count(0)
    page.goto(live_server.url)
    open_tables = page.locator(".panel.tables")  # the open tables ("My games" lists them too)
    expect(open_tables.locator(f".table-row[data-table='{rated_id}'] .badge.rated")
           ).to_have_text(RATED[lang])
    expect(open_tables.locator(f".table-row[data-table='{casual_id}']")).to_be_visible()
    expect(open_tables.locator(f".table-row[data-table='{casual_id}'] .badge.rated")
           ).to_have_count(0)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= SIZES[size][0]
    shot(page, artifacts, f"rated-badge-lobby-{size}-{lang}")
    assert_no_page_errors(page)


@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_changing_the_password_rotates_the_session_and_keeps_this_browser_logged_in(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """Issue 33: a password change ends every session, this one's token too; the page keeps
    the new token it is given, so this browser stays logged in."""
    page = screen(browser, live_server.url, size, lang)
    choose_name(page, "Lena")
    page.goto(f"{live_server.url}/account")
    page.fill("#claim-password", PASSWORD)
    page.click("#claim-form-submit")
    expect(page.locator("#account-status")).to_have_text(f"{CLAIMED[lang]} Lena.")
    before = page.evaluate("() => JSON.parse(localStorage.getItem('konkun.identity'))")
    page.fill("#old-password", PASSWORD)
    page.fill("#new-password", "another long password")
    page.click("#change-form-submit")
    page.wait_for_function("(old) => JSON.parse(localStorage.getItem('konkun.identity'))"
                           ".token !== old", arg=before["token"])
    page.goto(f"{live_server.url}/account")
    expect(page.locator("#account-status")).to_have_text(f"{CLAIMED[lang]} Lena.")
    status = page.evaluate("""async (token) => (await fetch('/api/account',
        {headers: {Authorization: 'Bearer ' + token}})).status""", before["token"])
    assert status == 401  # the old token of this very browser is gone
    assert_no_page_errors(page)
