"""The replay page's "Analyse" button (issue 14): a person opens the replay of a finished
game, starts the analysis, watches it finish, and reads per deal a chart of the expected
points each move lost and the moves (played, best found, loss, mark), in both languages,
on a desktop and a phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.server.testing import ServerThread, request_json

from .conftest import finished_bot_games
from .pages import SIZES, assert_no_page_errors, screen, shot

pytestmark = pytest.mark.e2e

BUTTON = {"en": "Analyse", "ru": "Анализ"}
DEAL = {"en": "Deal 1", "ru": "Сдача 1"}
SYMBOLS = {None: "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
MARKS = {"en": {"good", "inaccuracy", "mistake", "blunder"},
         "ru": {"хорошо", "неточность", "ошибка", "грубая ошибка"}}


SCREENS = [("desktop", "en"), ("phone", "ru"), ("desktop", "ru"), ("phone", "en")]
"""Every size with every language: the analysis is read at each."""
SHORT_GAME = {"game": "konchinka", "seats": 2, "rules": {"target": "1", "deck_ranks": "7"},
              "bots": {"0": "greedy", "1": "random"}}
"""A bot-only Konchinka game of short deals (to 1 point with the smallest deck, A to 7:
half the moves to play and to analyse; the claim is the page's, not the cards')."""


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[tuple[ServerThread, dict[str, str]]]:
    """A server on which one game of :data:`SHORT_GAME` per size and language was played,
    all at once, to its end, and their table ids by ``size-lang``: each test analyses a
    game of its own (an analysed game shows its analysis at once, with no button)."""
    with finished_bot_games(tmp_path_factory.mktemp("analysis") / "data",
                            {f"{size}-{lang}": SHORT_GAME for size, lang in SCREENS},
                            timeout=240) as games:
        yield games


@pytest.mark.parametrize(("size", "lang"), SCREENS)
def test_a_finished_game_is_analysed_from_its_replay(
        browser: Any, finished: tuple[ServerThread, dict[str, str]], artifacts: Path,
        size: str, lang: str) -> None:
    server, tables = finished
    table_id = tables[f"{size}-{lang}"]
    page = screen(browser, f"{server.url}/replay/{table_id}", size, lang)
    button = page.locator("#analyse")
    expect(button).to_have_text(BUTTON[lang])
    pressed = button.element_handle()
    page.locator("#rp-next").click()  # the replay is drawn again: the button stays
    expect(page.locator("#rp-slider")).to_have_value("1")
    assert pressed.evaluate("(b) => b.isConnected")
    button.scroll_into_view_if_needed()
    shot(page, artifacts, f"analysis-01-button-{size}-{lang}")
    button.click()
    result = page.locator("#analysis-result")
    expect(result).to_be_visible(timeout=300_000)  # a loaded machine is slow

    answer: dict[str, Any] = request_json(f"{server.url}/api/games/{table_id}/analysis")
    assert answer["status"] == "done"
    mine = [m for m in answer["moves"] if m["seat"] == 0 and m["deal"] == 0]
    assert mine, answer
    deal = result.locator(".analysis-deal[data-deal='0']")
    expect(deal.locator("summary")).to_contain_text(DEAL[lang])
    rows = deal.locator("tbody tr")
    expect(rows).to_have_count(len(mine))
    expect(deal.locator("svg.analysis-chart rect.bar")).to_have_count(len(mine))
    marks = rows.locator("td:last-child .mark")
    shown = {marks.nth(k).get_attribute("title") for k in range(len(mine))}
    assert shown <= MARKS[lang]
    for k, move in enumerate(mine):  # the chess sites' symbols: ?! ? ??
        expect(marks.nth(k)).to_contain_text(SYMBOLS[move["mark"]])
    worst = max(mine, key=lambda m: m["loss"])
    row = deal.locator(f"tbody tr[data-turn='{worst['turn']}']")
    expect(row.locator("td.num")).not_to_be_empty()
    if worst["mark"]:  # the better move is named where the move lost something
        expect(row.locator("td").nth(2)).not_to_have_text("—")
    row.locator("button").click()  # the replay jumps to the position before the move
    expect(page.locator("#rp-slider")).to_have_value(str(worst["turn"]))
    shot(page, artifacts, f"analysis-02-result-{size}-{lang}")

    page.locator(".analysis-seats button[data-seat='1']").click()
    theirs = [m for m in answer["moves"] if m["seat"] == 1 and m["deal"] == 0]
    expect(result.locator(".analysis-deal[data-deal='0'] tbody tr")).to_have_count(len(theirs))
    if size == "phone":  # the panel fits the phone's width: no sideways scrolling
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0] + 1
        table = result.locator(".analysis-deal[data-deal='0'] .analysis-moves")
        assert table.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1")
    page.reload()  # the analysis is kept: shown at once, no button
    expect(page.locator("#analysis-result")).to_be_visible()
    expect(page.locator("#analyse")).to_have_count(0)
    assert_no_page_errors(page)
