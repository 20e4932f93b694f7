"""Provably fair deals in the page (docs/fairness.md): the browser contributes a random
value when it takes a seat, and the replay page checks the finished game with Web Crypto
(commitment, match seed, digests, every deal recomputed), in both languages and sizes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Route, expect

from konkun.server.testing import ServerThread, request_json

from .conftest import finished_bot_games
from .pages import (
    CROSSED,
    assert_no_page_errors,
    choose_name,
    create_table,
    open_page,
    play_konchinka_move,
    screen,
    shot,
)

pytestmark = pytest.mark.e2e

VERIFIED = {"en": "Verified", "ru": "Проверено"}
NOT_VERIFIED = {"en": "Not verified", "ru": "Не проверено"}


BOT_GAMES = {
    "konchinka-3": {"game": "konchinka", "seats": 3, "rules": {"target": "1"},
                    "bots": {"0": "greedy", "1": "random", "2": "greedy"}},
    # two Kunken deals whose stock runs out once (shorter deals; the claim is the check of
    # every deal, not their length)
    "kunken-2": {"game": "kunken", "seats": 2,
                 "rules": {"deals": "2", "max_stock_renewals": "0"},
                 "bots": {"0": "greedy", "1": "random"}},
    # dealt from a short deck (the research option deck_ranks): the page deals the
    # deck the rules name, not always the whole one
    "konchinka-2": {"game": "konchinka", "seats": 2,
                    "rules": {"target": "1", "deck_ranks": "7"},
                    "bots": {"0": "greedy", "1": "random"}},
}
"""The bot-only games whose replays the pages check, by name."""


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[tuple[ServerThread, dict[str, str]]]:
    """A server on which the games of :data:`BOT_GAMES` were played at once to their end,
    and their table ids by name: every size and language reads the same finished games."""
    with finished_bot_games(tmp_path_factory.mktemp("fairness") / "data", BOT_GAMES) as games:
        yield games


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ru")])
def test_the_replay_page_verifies_a_finished_game_of_each_game(
        browser: Any, finished: tuple[ServerThread, dict[str, str]], size: str,
        lang: str) -> None:
    server, tables = finished
    for table_id in (tables["konchinka-3"], tables["kunken-2"]):
        page = screen(browser, f"{server.url}/replay/{table_id}", size, lang)
        verdict = page.locator("#fair-verdict[data-verdict=ok]")
        expect(verdict).to_contain_text(VERIFIED[lang], timeout=30_000)
        expect(page.locator("#replay-fair")).to_be_visible()
        assert_no_page_errors(page)


def test_a_player_who_sat_in_the_page_finds_their_value_in_the_proof(
        browser: Any, live_server: ServerThread) -> None:
    page = open_page(browser, live_server.url)
    choose_name(page, "ann")
    table_id = create_table(page, game="konchinka", seats=2, bots={1: "greedy"},
                            rules={"target": "1"})
    summary = request_json(f"{live_server.url}/api/tables/{table_id}")
    assert summary["contributed"] == [0] and len(summary["commitment"]) == 64
    kept = json.loads(page.evaluate(f"localStorage.getItem('konkun.fair.{table_id}')"))
    assert kept["seat"] == 0 and len(kept["value"]) == 64
    while request_json(f"{live_server.url}/api/tables/{table_id}")["status"] != "finished":
        page.wait_for_function(
            "() => document.querySelector('.hand button.card')"
            " || document.querySelector('#deal-score, #settlement')")
        if page.locator(".hand button.card").count():
            play_konchinka_move(page)
        else:
            page.wait_for_timeout(200)
    replay = request_json(f"{live_server.url}/api/games/{table_id}/replay?seat=all")
    assert {"seat": 0, "value": kept["value"]} in replay["record"]["fairness"]["contributions"]
    page.goto(f"{live_server.url}/replay/{table_id}")
    verdict = page.locator("#fair-verdict[data-verdict=ok]")
    expect(verdict).to_contain_text("yours among them", timeout=30_000)
    assert_no_page_errors(page)


UNCHECKED = {"en": "Not checked here: the positions between the moves",
             "ru": "Здесь не проверены: позиции между ходами"}


@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_a_short_deck_replay_is_verified_names_the_unchecked_and_refuses_swapped_names(
        browser: Any, finished: tuple[ServerThread, dict[str, str]], artifacts: Path,
        size: str, lang: str) -> None:
    server, tables = finished
    table_id = tables["konchinka-2"]
    replay = request_json(f"{server.url}/api/games/{table_id}/replay?seat=all")
    assert replay["record"]["rules"]["deck_ranks"] == 7  # a short deck is verified too
    page = screen(browser, f"{server.url}/replay/{table_id}", size, lang)
    expect(page.locator("#fair-verdict[data-verdict=ok]")).to_contain_text(
        VERIFIED[lang], timeout=30_000)
    expect(page.locator("#fair-unchecked")).to_contain_text(UNCHECKED[lang])
    if lang == "ru":
        text = page.locator("#replay-fair").inner_text().split("SHA-256")[0]
        assert not any("a" <= ch.lower() <= "z" for ch in text), text
    shot(page, artifacts, f"fair-01-unchecked-{size}-{lang}")
    assert_no_page_errors(page)

    # a forged replay, the loser shown as the winner by swapping the seats' names, is
    # refused in the page's words (the check itself, with a move, the winner, the server
    # seed and a dealt card altered, is unit-tested without a browser in
    # tests/js/fairness.test.js)
    def swapped(route: Route) -> None:
        document = route.fetch().json()
        seats = document["table"]["seats"]
        seats[0]["name"], seats[1]["name"] = seats[1]["name"], seats[0]["name"]
        route.fulfill(json=document)

    forged = screen(browser, "about:blank", size, lang)
    forged.route("**/api/games/*/replay*", swapped)
    forged.goto(f"{server.url}/replay/{table_id}")
    expect(forged.locator("#fair-verdict[data-verdict=bad]")).to_contain_text(
        NOT_VERIFIED[lang], timeout=30_000)
    assert_no_page_errors(forged)
