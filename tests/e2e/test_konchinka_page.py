"""A person plays Konchinka through the page in a real browser, against server-side bots."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.server.testing import ServerProcess, ServerThread, request_json

from .pages import (
    DEAL_MOVES,
    MY_TURN,
    assert_no_page_errors,
    choose_name,
    create_table,
    first_to_move,
    hand,
    move_count,
    open_page,
    play_choice,
    play_konchinka_move,
    shot,
    wait_for_status,
)

pytestmark = pytest.mark.e2e

DEAL_DONE = "#deal-score, #settlement"
"""Shown once a deal has been scored (the deal score) or the game has ended."""


def test_person_plays_a_whole_konchinka_deal_against_bots(
        browser: Any, live_server: ServerThread, artifacts: Path) -> None:
    """RULES.md: a deal is played card by card until hands and stock are empty, then
    scored; with the game played to 1 point the first decided deal ends the game and the
    page shows the score sheet and who pays whom."""
    page = open_page(browser, live_server.url)
    choose_name(page, "Anna")
    shot(page, artifacts, "konchinka-01-lobby")
    create_table(page, game="konchinka", seats=2, bots={1: "greedy"}, rules={"target": "1"})
    page.wait_for_selector(".hand .card")
    expect(page.locator(".seat.me")).to_contain_text("Anna")
    shot(page, artifacts, "konchinka-02-start")

    moves = 0
    chose_shot = stock_seen_empty = False
    while True:
        page.wait_for_selector(f"{MY_TURN}, {DEAL_DONE}")
        if page.locator(DEAL_DONE).count():
            break
        if page.locator("#stock").inner_text().strip().endswith(": 0"):
            # the stock drawn out: an empty place, no card back
            expect(page.locator("#stock .empty-pile")).to_have_count(1)
            expect(page.locator("#stock [data-card='back']")).to_have_count(0)
            stock_seen_empty = True
        if not chose_shot and page.locator("#table-cards .card").count() >= 3:
            page.locator(MY_TURN).first.click()
            shot(page, artifacts, "konchinka-03-choose")
            page.keyboard.press("Escape")
            page.click("#hint")  # the engine's greedy bot suggests a move
            expect(page.locator("#choices .hinted")).to_have_count(1)
            shot(page, artifacts, "konchinka-03b-hint")
            chose_shot = True
            play_choice(page, "#choices .hinted")
            moves += 1
            continue
        play_konchinka_move(page)
        moves += 1
    # Two players share 48 dealt cards: the person played every one of their 24.
    assert moves == 24 and stock_seen_empty
    sheet = page.locator("#score-sheet tbody td")
    expect(sheet.first).to_have_text(re.compile(r"\d+"))
    scores = page.locator("#deal-score tbody tr")
    expect(scores).to_have_count(2)
    points = [int(x) for x in page.locator("#deal-score tbody td strong").all_inner_texts()]
    assert sum(points) <= 5  # a deal is worth at most 5 points
    if page.locator("#settlement").count():
        # difference settlement: the loser pays max(0, target - own total), target 1
        expect(page.locator(".turn.over")).to_be_visible()
        totals = [int(x) for x in page.locator("#score-sheet .current").all_inner_texts()]
        loser_pays = max(0, 1 - min(totals))
        if loser_pays:
            expect(page.locator("#settlement .amount")).to_have_text(str(loser_pays))
        else:
            expect(page.locator("#settlement")).to_contain_text("Nobody pays anything.")
    shot(page, artifacts, "konchinka-04-deal-scored")
    assert_no_page_errors(page)


def test_reload_mid_game_resumes_the_seat(browser: Any, live_server: ServerThread,
                                          artifacts: Path) -> None:
    """The token kept in localStorage brings a reloaded tab back to its seat and hand
    (on a phone-sized screen)."""
    page = open_page(browser, live_server.url, width=390, height=844)
    choose_name(page, "Boris")
    create_table(page, game="konchinka", seats=3, bots={1: "random", 2: "greedy"})
    for _ in range(2):
        page.wait_for_selector(MY_TURN)
        play_konchinka_move(page)
    page.wait_for_selector(MY_TURN)
    cards, moves = hand(page), move_count(page)
    url = page.url
    page.reload()
    page.wait_for_selector(MY_TURN)
    assert page.url == url
    assert hand(page) == cards
    expect(page.locator(DEAL_MOVES)).to_have_count(moves)  # the log loads after the state
    expect(page.locator(".seat.me")).to_contain_text("Boris")
    expect(page.locator("#turn")).to_have_class(re.compile("mine"))
    shot(page, artifacts, "konchinka-05-after-reload")
    play_konchinka_move(page)
    expect(page.locator(DEAL_MOVES)).not_to_have_count(moves)
    assert_no_page_errors(page)


def test_server_restart_mid_game_resumes_the_table(browser: Any, server_process: ServerProcess,
                                                   artifacts: Path) -> None:
    """A crashed and restarted server replays the stored actions; the page reconnects by
    itself with backoff and the person goes on playing the same seat and hand."""
    page = open_page(browser, server_process.url)
    choose_name(page, "Vera")
    create_table(page, game="konchinka", seats=2, bots={1: "greedy"})
    page.wait_for_selector(MY_TURN)
    play_konchinka_move(page)
    page.wait_for_selector(MY_TURN)
    cards, moves = hand(page), move_count(page)
    server_process.kill()  # a crash: no shutdown code runs
    expect(page.locator(".conn")).to_have_class(re.compile("retry"))
    shot(page, artifacts, "konchinka-06-server-down")
    server_process.start()
    expect(page.locator(".conn")).to_have_class(re.compile("open"), timeout=30_000)
    page.wait_for_selector(MY_TURN)
    assert hand(page) == cards
    expect(page.locator(DEAL_MOVES)).to_have_count(moves)  # the log loads after the state
    play_konchinka_move(page)
    expect(page.locator(DEAL_MOVES)).not_to_have_count(moves)
    shot(page, artifacts, "konchinka-07-after-restart")
    assert_no_page_errors(page)


def test_language_comes_from_the_browser_and_the_switch_is_kept(
        browser: Any, live_server: ServerThread, artifacts: Path) -> None:
    """A Russian browser gets the Russian page; the switch to English survives a reload."""
    page = open_page(browser, live_server.url, locale="ru-RU", width=390, height=844)
    expect(page.locator("#create")).to_have_text("Создать стол и сесть")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    shot(page, artifacts, "lobby-ru-mobile")
    page.click("button.lang-btn[data-lang=en]")
    expect(page.locator("#create")).to_have_text("Create the table and sit down")
    page.reload()
    expect(page.locator("#create")).to_have_text("Create the table and sit down")
    assert_no_page_errors(page)


def test_replay_steps_through_a_finished_game(browser: Any, live_server: ServerThread,
                                              artifacts: Path) -> None:
    """A finished game is kept; its replay steps move by move, from one seat's view or
    with every hand open. (The bots' game is of the small deck, A to 7: the replay's
    steps do not depend on the ranks.)"""
    table = request_json(f"{live_server.url}/api/tables", "POST",
                         {"game": "konchinka", "seats": 2,
                          "rules": {"target": "1", "deck_ranks": "7"},
                          "bots": {"0": "greedy", "1": "random"}})
    wait_for_status(live_server.url, table["id"], "finished")
    page = open_page(browser, live_server.url, locale="ru-RU")
    expect(page.locator(f".finished [data-table='{table['id']}']")).to_be_visible()
    page.click(f".finished [data-table='{table['id']}'] a")
    page.wait_for_url(f"**/replay/{table['id']}")
    expect(page.locator("#rp-caption")).to_contain_text("Начало")
    # all hands open: both seats show their 4 cards face up at the start
    expect(page.locator(".opponent").nth(0).locator(".card")).to_have_count(4)
    expect(page.locator(".opponent .card[data-card=back]")).to_have_count(0)
    page.click("#rp-next")
    expect(page.locator("#rp-caption")).to_contain_text("Ход 1 из")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#rp-caption")).to_contain_text("Ход 2 из")
    shot(page, artifacts, "replay-01-all-hands")
    page.select_option("#replay-seat", "0")
    expect(page.locator(".opponent .card[data-card=back]").first).to_be_visible()
    expect(page.locator(".hand .card").first).to_be_visible()
    page.click("#rp-last")
    expect(page.locator("#settlement")).to_be_visible()
    shot(page, artifacts, "replay-02-seat-0-end")
    assert_no_page_errors(page)


def test_two_people_meet_by_the_invite_link(browser: Any, live_server: ServerThread,
                                            artifacts: Path) -> None:
    """A table waits until every seat is taken; the second person comes by the invite
    link, picks a name, sits, and both see their own four cards and each other's moves;
    a third visitor only watches and sees no card in any hand."""
    anna = open_page(browser, live_server.url)
    choose_name(anna, "Anna")
    create_table(anna, game="konchinka", seats=2, bots={})
    expect(anna.locator(".turn.waiting")).to_be_visible()
    link = anna.locator("#invite").input_value()
    shot(anna, artifacts, "konchinka-08-waiting")
    boris = open_page(browser, link, locale="ru-RU")
    choose_name(boris, "Борис")  # the name is taken: then sit
    boris.click("button[data-sit='1']")
    for page in (anna, boris):
        expect(page.locator(".hand .card")).to_have_count(4)
    assert set(hand(anna)).isdisjoint(hand(boris))
    first = first_to_move([anna, boris])
    second = boris if first is anna else anna
    play_konchinka_move(first)
    expect(second.locator(DEAL_MOVES)).to_have_count(1)
    second.wait_for_selector(MY_TURN)
    shot(boris, artifacts, "konchinka-09-second-person")
    # anyone else who opens the link watches: no hand, every hand face down
    guest = open_page(browser, link)
    expect(guest.locator(".spectating")).to_be_visible()
    expect(guest.locator(".opponent .card[data-card=back]")).to_have_count(
        len(hand(anna)) + len(hand(boris)))
    expect(guest.locator(".hand")).to_have_count(0)
    assert_no_page_errors(anna)
    assert_no_page_errors(boris)
    assert_no_page_errors(guest)
