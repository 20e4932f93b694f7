"""The teaching pages (docs/web.md, "Teaching"): the guided first game is played to its end
by following only what the page says and shows (the glowing card or button of each step,
then the free-play instruction), and the puzzle page accepts the right answer and refuses a
wrong one with the solver's line; at desktop and phone sizes, in both languages."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from konkun.puzzles.collection import puzzles_of
from konkun.server.testing import ServerThread, request_json

from .pages import (
    CROSSED,
    PAIRS,
    assert_no_page_errors,
    screen,
    shot,
)

pytestmark = pytest.mark.e2e

GAMES = ["konchinka", "kunken"]
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
LATIN_WORD = re.compile(r"\b[a-z]{3,}\b")


def _played(page: Page) -> int:
    return int(page.locator("#learn").get_attribute("data-played") or "0")


def _assert_language(page: Page, lang: str) -> None:
    text = page.locator("#instruction").inner_text()
    if lang == "ru":
        assert CYRILLIC.search(text) and not LATIN_WORD.search(text), text
    else:
        assert not CYRILLIC.search(text), text


def _follow_the_steps(page: Page, lang: str) -> set[int]:
    """Click what glows until the page says the free play has begun; the steps seen."""
    seen: set[int] = set()
    for _ in range(80):
        page.locator("#learn[aria-busy=false]").wait_for()
        step = page.locator("#instruction").get_attribute("data-step")
        if step == "free":
            return seen
        assert step is not None and step.isdigit(), step
        seen.add(int(step))
        _assert_language(page, lang)
        page.locator(".teach .hint").first.click()
        assert page.locator("#learn-error").count() == 0
    raise AssertionError("the steps never ended")


def _wait_played(page: Page, played: int) -> None:
    expect(page.locator("#learn")).to_have_attribute("data-played", str(played + 1))


def _play_freely(page: Page, game: str) -> None:
    """The free play as the page says: a card of yours (and Play), for Kunken a draw from
    the stock, then a card and Discard, to the end of the deal."""
    for _ in range(400):
        if page.locator("#learn").get_attribute("data-over") == "yes":
            return
        page.locator("#learn[aria-busy=false]").wait_for()
        played = _played(page)
        if game == "konchinka":
            page.locator("#teach-hand button.card").first.click()
            page.locator("#play").click()
        elif page.locator("#stock").is_enabled():
            page.locator("#stock").click()
        else:
            page.locator("#teach-hand button.card").last.click()
            page.locator("#discard").click()
        _wait_played(page, played)
    raise AssertionError("the deal never ended")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_the_guided_game_is_played_to_its_end_following_the_page(
        browser: Any, live_server: ServerThread, artifacts: Path, game: str, size: str,
        lang: str) -> None:
    page = screen(browser, f"{live_server.url}/learn/{game}", size, lang)
    expect(page.locator("#instruction")).to_have_attribute("data-step", "0")
    if size == "phone":
        shot(page, artifacts, f"learn-{game}-{size}-{lang}")
    steps = request_json(f"{live_server.url}/api/learn/{game}", "POST", {"moves": []})
    assert _follow_the_steps(page, lang) == set(range(steps["steps"]))
    assert _played(page) == steps["steps"]
    _assert_language(page, lang)
    _play_freely(page, game)
    expect(page.locator("#instruction")).to_have_attribute("data-step", "over")
    expect(page.locator("#deal-result")).to_be_visible()
    _assert_language(page, lang)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # type: ignore[index]
    assert_no_page_errors(page)


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ru")])
def test_the_guided_game_refuses_a_move_it_does_not_teach(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    page = screen(browser, f"{live_server.url}/learn/konchinka", size, lang)
    expect(page.locator("#instruction")).to_have_attribute("data-step", "0")
    page.locator("#teach-hand button.card:not(.hint)").first.click()
    page.locator("#play").click()
    expect(page.locator("#learn-error")).to_be_visible()
    _assert_language(page, lang) if lang == "en" else None
    expect(page.locator("#instruction")).to_have_attribute("data-step", "0")
    assert _played(page) == 0
    assert_no_page_errors(page)


# The bot's answer to the lesson's discard of 7c, in words (the texts of teachtexts.js):
# it takes the bank from the K♦ and lays its melds, a joker standing for the 6♠ (★6♠).
BOT_WORDS = {
    "en": ["took the bank from K♦", "laid K♣ K♦ K♠", "laid 5♠ ★6♠ 7♠ 8♠", "discarded A♠"],
    "ru": ["взял банк с карты К♦", "выложил К♣ К♦ К♠", "выложил 5♠ ★6♠ 7♠ 8♠", "сбросил Т♠"],
}


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ru")])
def test_a_reload_resumes_the_lesson_and_start_again_restarts_it(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    page = screen(browser, f"{live_server.url}/learn/kunken", size, lang)
    for step in ("0", "1", "1", "2"):  # draw; the card and Discard; the take
        page.locator("#learn[aria-busy=false]").wait_for()
        expect(page.locator("#instruction")).to_have_attribute("data-step", step)
        if step == "2":  # the bot's moves told from their served parts
            for words in BOT_WORDS[lang]:
                expect(page.locator("#bot-moves")).to_contain_text(words)
        page.locator(".teach .hint").first.click()
    expect(page.locator("#instruction")).to_have_attribute("data-step", "3")
    page.reload()
    expect(page.locator("#instruction")).to_have_attribute("data-step", "3")
    assert _played(page) == 3
    page.locator("#restart").click()
    expect(page.locator("#instruction")).to_have_attribute("data-step", "0")
    page.reload()
    expect(page.locator("#instruction")).to_have_attribute("data-step", "0")
    assert_no_page_errors(page)


@pytest.mark.parametrize(("size", "lang"), [("phone", "ru"), ("desktop", "en")])
def test_the_lobby_leads_to_the_lessons_and_the_puzzles(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    page = screen(browser, live_server.url, size, lang)
    links = page.locator("#teach-entry a")
    expect(links).to_have_count(3)
    links.nth(1).click()
    expect(page).to_have_url(re.compile("/learn/kunken$"))
    expect(page.locator("#instruction")).to_have_attribute("data-step", "0")
    _assert_language(page, lang)
    page.go_back()
    page.locator("#teach-entry a").nth(2).click()
    expect(page).to_have_url(re.compile("/puzzles$"))
    expect(page.locator("#instruction")).to_be_visible()
    _assert_language(page, lang)
    assert_no_page_errors(page)


def _answer(page: Page, game: str, move: str) -> None:
    if game == "kunken":
        page.locator(f"#teach-bank [data-position='{move.split()[1]}']").click()
        return
    card, _, taken = move.partition(":")
    page.locator(f"#teach-hand [data-card='{card}']").click()
    for i in range(0, len(taken), 2):
        page.locator(f"#teach-table [data-card='{taken[i:i + 2]}']").click()
    page.locator("#play").click()


def _wrong_answer(puzzle: dict[str, Any]) -> str:
    if puzzle["game"] == "konchinka":
        return next(m for m in puzzle["values"] if m != puzzle["solution"])
    bank = puzzle["board"]["observation"]["bank"]
    return next(f"take {i}" for i in range(len(bank)) if f"take {i}" != puzzle["solution"])


GO_OUT = next(p.id for p in puzzles_of("kunken") if p.kind == "go_out")
RANKS = {"en": {"T": "10"}, "ru": {"A": "Т", "K": "К", "Q": "Д", "J": "В", "T": "10"}}
SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
TOOK_THE_BANK = {"en": "took the bank from", "ru": "взял банк с карты"}


def _short(card: str, lang: str) -> str:
    """A card as the page writes it in a move's words (Q♥; Д♥ in Russian)."""
    return RANKS[lang].get(card[0], card[0]) + SUITS[card[1]]


@pytest.mark.parametrize("game", [*GAMES, "kunken-go-out"])
@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_the_puzzle_page_accepts_the_right_answer_and_refuses_a_wrong_one(
        browser: Any, live_server: ServerThread, artifacts: Path, game: str, size: str,
        lang: str) -> None:
    if game == "kunken-go-out":  # the day's Kunken puzzle may be of the other kind
        puzzle = request_json(f"{live_server.url}/api/puzzles/{GO_OUT}")
        page = screen(browser, f"{live_server.url}/puzzles/kunken?id={GO_OUT}", size, lang)
        expect(page.locator("#instruction")).to_have_attribute("data-kind", "go_out")
        game = "kunken"
    else:
        puzzle = request_json(f"{live_server.url}/api/puzzles/daily?game={game}")
        page = screen(browser, f"{live_server.url}/puzzles/{game}", size, lang)
    expect(page.locator("#instruction")).to_be_visible()
    _assert_language(page, lang)
    _answer(page, game, _wrong_answer(puzzle))
    expect(page.locator("#verdict")).to_have_attribute("data-right", "no")
    expect(page.locator("#solver-line li")).to_have_count(len(puzzle["line"]))
    if size == "phone":
        shot(page, artifacts, f"puzzle-{puzzle['id'].rsplit('-', 1)[0]}-{size}-{lang}")
    page.locator("#again").click()
    expect(page.locator("#verdict")).to_have_count(0)
    _answer(page, game, puzzle["solution"])
    expect(page.locator("#verdict")).to_have_attribute("data-right", "yes")
    expect(page.locator("#solver-line li")).to_have_count(len(puzzle["line"]))
    if game == "kunken":  # the take told from its served parts names the bank's card
        taken = puzzle["board"]["observation"]["bank"][int(puzzle["solution"].split()[1])]
        expect(page.locator("#solver-line li").first).to_contain_text(
            f"{TOOK_THE_BANK[lang]} {_short(taken, lang)}")
    verdict = page.locator("#verdict").inner_text()
    assert bool(CYRILLIC.search(verdict)) == (lang == "ru")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # type: ignore[index]
    assert_no_page_errors(page)
