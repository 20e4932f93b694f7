"""Issue 12 and 17 in a real browser, where a player comes back: a rated game between two
accounts ends in a rated rematch; the tab title and the chime announce the player's turn
and stop once it is over; a seat is taken back on another device by its personal link
mid-game; the replay jumps to a deal. Desktop in English and phone in Russian."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.server.testing import ServerThread, request_json

from .conftest import finished_bot_games
from .pages import (
    MY_TURN,
    assert_no_page_errors,
    choose_name,
    copy_seat_link,
    first_to_move,
    hand,
    play_konchinka_move,
    screen,
    shot,
)
from .test_site import OTHER, YOUR_TURN

pytestmark = pytest.mark.e2e

SCREENS = [("desktop", "en"), ("phone", "ru")]
PASSWORD = "a long password"
RATED = {"en": "Rated", "ru": "Рейтинговая"}


def claim_account(page: Any, base_url: str, name: str) -> None:
    """Take the guest name ``name`` and claim it with a password (an account)."""
    choose_name(page, name)
    page.goto(f"{base_url}/account")
    expect(page.locator("#claim-nickname")).to_have_value(name)
    page.fill("#claim-password", PASSWORD)
    page.click("#claim-form-submit")
    # the claimed account's page (a guest's page shows her name too): only now is the
    # account's token stored, so leaving the page earlier would keep the ended guest token
    expect(page.locator("#change-form")).to_be_visible()
    expect(page.locator("#account-status")).to_contain_text(name)


def sit_at(page: Any, url: str, seat: int, name: str) -> None:
    """Open the table ``url`` (the name is already taken) and sit at ``seat``."""
    page.goto(url)
    expect(page.locator(".whoami")).to_have_text(name)
    page.click(f"button[data-sit='{seat}']")
    expect(page.locator(".seat.me")).to_contain_text(name)


def create_two_seat_table(page: Any, base_url: str, name: str, *, rated: bool = False,
                          bot: str = "human", target: str = "1") -> str:
    """From the lobby (the name taken), create a two-seat Konchinka table to ``target``
    points with ``bot`` (or a person) at seat 1; return its id."""
    page.goto(base_url)
    expect(page.locator(".whoami")).to_have_text(name)
    page.locator(".game-choice input[value=konchinka]").check()
    page.select_option("#seats", "2")
    page.select_option("#who-1", bot)
    if rated:
        page.check("#rated")
    if not page.locator("#rule-target").is_visible():
        page.click("details.rules summary")
    page.fill("#rule-target", target)
    page.click("#create")
    page.wait_for_url("**/t/*")
    expect(page.locator(".seat.me")).to_contain_text(name)
    return str(page.url.rstrip("/").rsplit("/", 1)[1])


@pytest.mark.parametrize(("size", "lang"), SCREENS)
def test_a_rated_game_of_two_accounts_ends_in_a_rated_rematch(
        browser: Any, live_server: ServerThread, artifacts: Path, size: str, lang: str) -> None:
    """Issue 17: a rematch keeps the table's rules, rated included. Two accounts play a
    rated game (the standard rules: issue 33) through the page until Anna resigns, both
    press Rematch, and the new table wears the Rated badge on both screens."""
    anna = screen(browser, live_server.url, size, lang)
    other_size, other_lang = OTHER[(size, lang)]
    boris = screen(browser, live_server.url, other_size, other_lang)
    claim_account(anna, live_server.url, "Anna")
    claim_account(boris, live_server.url, "Борис")
    table_id = create_two_seat_table(anna, live_server.url, "Anna", rated=True)
    sit_at(boris, anna.url, 1, "Борис")
    expect(anna.locator(".table-head .badge.rated")).to_have_text(RATED[lang])
    anna.locator("#resign").click()
    anna.locator("#resign-yes").click()
    expect(boris.locator(".table-page")).to_have_attribute("data-status", "finished")
    anna.click("#rematch")
    expect(boris.locator("#rematch-status")).to_contain_text("Anna")
    boris.click("#rematch")
    for page, page_lang in ((anna, lang), (boris, other_lang)):
        page.wait_for_url(re.compile(r".*/t/(?!" + table_id + r")\w+$"))
        expect(page.locator(".table-head .badge.rated")).to_have_text(RATED[page_lang])
        expect(page.locator(".hand .card").first).to_be_visible()
    new_id = anna.url.rsplit("/", 1)[1]
    assert boris.url.endswith(new_id)
    new = request_json(f"{live_server.url}/api/tables/{new_id}")
    assert new["rated"] is True and new["rematch"]["of"] == table_id
    assert [s["name"] for s in new["seats"]] == ["Anna", "Борис"]
    shot(anna, artifacts, f"returns-01-rated-rematch-{size}-{lang}")
    shot(boris, artifacts, f"returns-01-rated-rematch-{other_size}-{other_lang}")
    assert_no_page_errors(anna)
    assert_no_page_errors(boris)


def title(page: Any) -> str:
    """The page's tab title."""
    return str(page.evaluate("() => document.title"))


def chimes(page: Any) -> int:
    """How many "your turn" chimes the page has sounded (a counter it keeps for tests)."""
    return int(page.evaluate("() => window.konkunChimes || 0"))


@pytest.mark.parametrize(("size", "lang"), SCREENS)
def test_the_tab_title_and_a_chime_announce_your_turn_and_stop_when_it_passes(
        browser: Any, live_server: ServerThread, artifacts: Path, size: str, lang: str) -> None:
    """Issue 12: "your turn is announced in the tab title, and by a short sound that a
    player can turn off". Between two people the title of the player to move says so and
    the other's does not; after the move it is the other way round; each new turn chimes
    once, and a player who turned the sound off hears nothing while the title still tells."""
    anna = screen(browser, live_server.url, size, lang)
    other_size, other_lang = OTHER[(size, lang)]
    boris = screen(browser, live_server.url, other_size, other_lang)
    choose_name(anna, "Anna")
    choose_name(boris, "Boris")
    create_two_seat_table(anna, live_server.url, "Anna", target="5")
    sit_at(boris, anna.url, 1, "Boris")
    langs = {id(anna): lang, id(boris): other_lang}
    first = first_to_move([anna, boris])
    second = boris if first is anna else anna
    expect(second.locator(".turn.theirs")).to_be_visible()
    assert title(first).startswith(f"▶ {YOUR_TURN[langs[id(first)]]}")
    assert not title(second).startswith("▶")
    assert chimes(first) == 1 and chimes(second) == 0
    shot(first, artifacts, f"returns-02-your-turn-title-{size}-{lang}")

    play_konchinka_move(first)
    second.wait_for_selector(MY_TURN)
    first.wait_for_selector(".turn.theirs")
    assert title(second).startswith(f"▶ {YOUR_TURN[langs[id(second)]]}")
    assert not title(first).startswith("▶")
    assert chimes(second) == 1 and chimes(first) == 1

    first.click("#sound")  # off: the title still tells, the sound does not
    expect(first.locator("#sound")).to_have_attribute("aria-pressed", "false")
    play_konchinka_move(second)
    first.wait_for_selector(MY_TURN)
    assert title(first).startswith(f"▶ {YOUR_TURN[langs[id(first)]]}")
    assert chimes(first) == 1
    assert_no_page_errors(anna)
    assert_no_page_errors(boris)


def icon_drawn(page: Any, selector: str) -> bool:
    """Whether ``selector`` holds an inline SVG icon of a visible size (drawn by the page,
    so no emoji font is needed)."""
    return bool(page.evaluate("""(sel) => {
        const svg = document.querySelector(`${sel} svg.icon`);
        if (!svg) return false;
        const r = svg.getBoundingClientRect();
        return r.width >= 8 && r.height >= 8 && svg.querySelector("path, circle") !== null;
    }""", selector))


@pytest.mark.parametrize(("size", "lang"), SCREENS)
def test_the_clock_and_sound_icons_need_no_emoji_font(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """The move clock and the sound switch draw their icons as inline SVG, legible in a
    browser without an emoji font; the switch shows a crossed bell once turned off."""
    page = screen(browser, live_server.url, size, lang)
    choose_name(page, "Anna")
    page.locator(".game-choice input[value=konchinka]").check()
    page.select_option("#who-1", "greedy")
    page.select_option("#move-seconds", "60")
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.wait_for_selector(MY_TURN)
    expect(page.locator("#clock .clock-time")).to_have_text(re.compile(r"^[01]:\d\d$"))
    assert icon_drawn(page, "#clock")
    assert icon_drawn(page, "#sound")
    expect(page.locator("#sound svg.icon-bell")).to_have_count(1)
    page.click("#sound")
    expect(page.locator("#sound svg.icon-bellOff")).to_have_count(1)
    assert_no_page_errors(page)


@pytest.mark.parametrize(("size", "lang"), SCREENS)
def test_a_seat_is_taken_back_mid_game_on_another_device_by_its_personal_link(
        browser: Any, live_server: ServerThread, artifacts: Path, size: str, lang: str) -> None:
    """Issue 12: "a player's seat link lets them return from another browser or device".
    Mid-game, Anna copies her personal link; on another device (a browser context of its
    own, the other size and language) it puts her in her seat with her hand, she plays on
    there, and the link's secret is not left in the address bar. The deal she folded in the
    move log on the first device stays folded while the game goes on."""
    anna = screen(browser, live_server.url, size, lang)
    anna.context.grant_permissions(["clipboard-read", "clipboard-write"])
    choose_name(anna, "Anna")
    table_id = create_two_seat_table(anna, live_server.url, "Anna", bot="greedy", target="5")
    anna.wait_for_selector(MY_TURN)
    play_konchinka_move(anna)
    anna.wait_for_selector(MY_TURN)
    cards = sorted(hand(anna))
    link = copy_seat_link(anna)
    assert link.startswith(f"{live_server.url}/t/{table_id}#seat=")

    other_size, other_lang = OTHER[(size, lang)]
    phone = screen(browser, link, other_size, other_lang)
    expect(phone.locator(".seat.me")).to_contain_text("Anna")
    phone.wait_for_selector(MY_TURN)
    assert sorted(hand(phone)) == cards
    assert "#seat=" not in phone.url
    shot(phone, artifacts, f"returns-03-seat-taken-back-{other_size}-{other_lang}")
    turn = phone.locator(".table-page").get_attribute("data-turn")
    deal = anna.locator("#match-log .log-deal[data-deal='1']")
    deal.locator("summary").click()  # Anna folds the deal's moves on the first device
    expect(deal).not_to_have_attribute("open", "")
    play_konchinka_move(phone)
    expect(anna.locator(".table-page")).not_to_have_attribute("data-turn", turn or "")
    expect(deal).not_to_have_attribute("open", "")  # the redraw keeps it folded
    expect(deal.locator("li")).not_to_have_count(0)
    assert_no_page_errors(anna)
    assert_no_page_errors(phone)


@pytest.fixture(scope="module")
def bots_match(tmp_path_factory: pytest.TempPathFactory
               ) -> Iterator[tuple[ServerThread, str]]:
    """A server with one finished bots' match of several deals, and its table id: the
    replay of the same match is read at both sizes and languages, so it is played once.
    The bots play with the smallest deck (A to 7, 28 cards): deals half as long."""
    body = {"game": "konchinka", "seats": 2, "rules": {"target": "6", "deck_ranks": "7"},
            "bots": {"0": "greedy", "1": "greedy"}}
    with finished_bot_games(tmp_path_factory.mktemp("returns") / "data",
                            {"match": body}) as (server, tables):
        yield server, tables["match"]


@pytest.mark.parametrize(("size", "lang"), SCREENS)
def test_the_replay_jumps_to_the_start_of_a_deal(
        browser: Any, bots_match: tuple[ServerThread, str], artifacts: Path, size: str,
        lang: str) -> None:
    """Issue 12: "the replay jumps to a deal". Choosing deal 2 shows the first position of
    deal 2 (a full hand, nothing played in it yet); choosing deal 1 goes back to the start."""
    server, table_id = bots_match
    replay = request_json(f"{server.url}/api/games/{table_id}/replay")
    deals = [f["view"]["deal_number"] for f in replay["frames"]]
    assert max(deals) >= 2  # a deal is worth at most 5 points
    page = screen(browser, f"{server.url}/replay/{table_id}", size, lang)
    page.select_option("#rp-deal", "2")
    start = deals.index(2)
    expect(page.locator("#rp-slider")).to_have_value(str(start))
    expect(page.locator("#rp-caption")).to_contain_text(f"{start}")
    expect(page.locator("#rp-deal")).to_have_value("2")
    deal_2 = page.locator("#match-log .log-deal[data-deal='2']")
    expect(deal_2).to_have_attribute("open", "")
    expect(deal_2.locator("li")).to_have_count(0)  # nothing played in deal 2 yet
    shot(page, artifacts, f"returns-04-replay-deal-2-{size}-{lang}")
    page.select_option("#rp-deal", "1")
    expect(page.locator("#rp-slider")).to_have_value("0")
    assert_no_page_errors(page)
