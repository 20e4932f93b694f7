"""The move log marks the moves the stand-in bot played for a person (issue 35, item 4): on
the table page as they are played and after a reload, and in the replay's log, with a
title that says why, in the page's language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.server.testing import ServerThread, request_json, run_server_in_thread

from .pages import (
    CROSSED,
    MY_TURN,
    assert_no_page_errors,
    choose_name,
    play_konchinka_move,
    screen,
    shot,
    wait_for_status,
)

TAG = {"en": "bot", "ru": "бот"}
TITLE = {"en": "The stand-in bot played this", "ru": "За игрока сходил бот-заместитель"}
ENTRIES = "#match-log li"


@pytest.fixture
def quick_stand_in(tmp_path: Path) -> Iterator[ServerThread]:
    """A server whose stand-in plays an away seat's move after 0.1 s."""
    with run_server_in_thread(data_dir=tmp_path / "data", bot_delay=0.05,
                              away_grace=0.1) as server:
        yield server


def _sit(server: ServerThread, table_id: str, seat: int, name: str) -> None:
    """A person takes ``seat`` through the API and never opens the table (absent)."""
    token = request_json(f"{server.url}/api/guest", "POST", {"nickname": name})["token"]
    request_json(f"{server.url}/api/tables/{table_id}/sit", "POST", {"seat": seat}, token)


def _check_marks(page: Any, lang: str, stand_in: str) -> int:
    """Every log entry of ``stand_in`` carries the tag with its title, no other entry
    does; how many are marked."""
    entries = page.locator(ENTRIES)
    marked = 0
    for number in range(entries.count()):
        entry = entries.nth(number)
        tag = entry.locator(".tag.stand-in")
        if entry.get_attribute("data-actor") == "1":
            expect(tag).to_have_text(TAG[lang])
            assert TITLE[lang] in (tag.get_attribute("title") or "")
            assert stand_in in entry.inner_text()
            marked += 1
        else:
            expect(tag).to_have_count(0)
    return marked


def _entries(page: Any) -> list[tuple[str, str, bool]]:
    """The log's entries oldest first: (actor seat, text, whether tagged)."""
    newest_first: list[list[Any]] = page.locator(ENTRIES).evaluate_all(
        "nodes => nodes.map(n => [n.dataset.actor, n.textContent,"
        " Boolean(n.querySelector('.tag.stand-in'))])")
    return [(actor, text, tagged) for actor, text, tagged in reversed(newest_first)]


@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_the_table_log_marks_the_moves_the_stand_in_played(
        browser: Any, quick_stand_in: ServerThread, artifacts: Path, size: str,
        lang: str) -> None:
    """Anna plays; Boris took his seat and never came, so on this clocked table the
    stand-in plays his moves: each of them is tagged in Anna's log as it comes and after
    she reloads; hers are not."""
    anna = screen(browser, quick_stand_in.url, size, lang)
    choose_name(anna, "Anna")
    anna.locator(".game-choice input[value=konchinka]").check()
    anna.select_option("#seats", "2")
    anna.select_option("#who-1", "human")
    anna.select_option("#move-seconds", "15")
    anna.click("#create")
    anna.wait_for_url("**/t/*")
    table_id = anna.url.rstrip("/").rsplit("/", 1)[1]
    _sit(quick_stand_in, table_id, 1, "Boris")
    while anna.locator(f"{ENTRIES}[data-actor='1']").count() < 3:
        if anna.locator(MY_TURN).count():
            play_konchinka_move(anna)
        anna.wait_for_timeout(100)
    expect(anna.locator(f"{ENTRIES}[data-actor='0']").first).to_be_visible()
    assert _check_marks(anna, lang, "Boris") >= 3
    shot(anna, artifacts, f"stand-in-log-{size}-{lang}")
    before = _entries(anna)
    anna.reload()  # (away meanwhile, Anna may get a stand-in move too: it is marked)
    expect(anna.locator(f"{ENTRIES}[data-actor='1']").first).to_be_visible()
    assert _entries(anna)[:len(before)] == before
    assert_no_page_errors(anna)


@pytest.mark.parametrize(("size", "lang"), [("phone", "ru"), ("desktop", "en")])
def test_the_replay_log_marks_the_moves_the_stand_in_played(
        browser: Any, quick_stand_in: ServerThread, artifacts: Path, size: str,
        lang: str) -> None:
    """Anna and Boris took seats and never came: the stand-in played the whole match for
    both. The replay's log and its caption mark every move; an opponent's own move in a
    game without stand-ins (a bot seat) is not marked."""
    short = {"target": "1", "deck_ranks": "7"}  # short deals: the claim is the marks'
    request = {"game": "konchinka", "seats": 2, "move_seconds": 15, "rules": short}
    table_id = request_json(f"{quick_stand_in.url}/api/tables", "POST", request)["id"]
    _sit(quick_stand_in, table_id, 0, "Anna")
    _sit(quick_stand_in, table_id, 1, "Boris")
    bots = {"game": "konchinka", "seats": 2, "rules": short,
            "bots": {"0": "greedy", "1": "greedy"}}
    # the bots' game, checked after, is played meanwhile
    played = request_json(f"{quick_stand_in.url}/api/tables", "POST", bots)["id"]
    wait_for_status(quick_stand_in.url, table_id, "finished", timeout=120)
    page = screen(browser, f"{quick_stand_in.url}/replay/{table_id}", size, lang)
    page.click("#rp-last")
    entries = page.locator(ENTRIES)
    expect(entries.first).to_be_visible()
    expect(page.locator("#match-log .tag.stand-in")).to_have_count(entries.count())
    assert TITLE[lang] in (page.locator("#match-log .tag.stand-in").first
                           .get_attribute("title") or "")
    expect(page.locator("#rp-caption .tag.stand-in")).to_have_text(TAG[lang])
    shot(page, artifacts, f"stand-in-replay-{size}-{lang}")
    page.click("#rp-first")
    expect(page.locator("#rp-caption .tag.stand-in")).to_have_count(0)
    wait_for_status(quick_stand_in.url, played, "finished", timeout=120)
    page.goto(f"{quick_stand_in.url}/replay/{played}")
    page.click("#rp-last")
    expect(page.locator(ENTRIES).first).to_be_visible()
    expect(page.locator("#match-log .tag.stand-in")).to_have_count(0)
    assert_no_page_errors(page)
