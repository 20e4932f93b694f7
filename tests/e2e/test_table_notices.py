"""What the table tells a player who looks elsewhere (issue 35, item 3): "your turn" as a
browser notification while the tab is hidden (off until turned on, the permission asked
once), an unread mark and a sound for chat lines from others, and how many watch."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import connect

from konkun.server.core.config import Settings
from konkun.server.testing import ServerThread, request_json, run_server_in_thread

from .conftest import BOT_DELAY, PAGE_LIMITS, verify_finished_games
from .pages import assert_no_page_errors, screen, shot
from .test_match_end import person, play_until, two_people

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """The e2e server with the per-connection message limit lifted (both people's moves
    go over their sockets in quick succession)."""
    with run_server_in_thread(data_dir=tmp_path / "data", bot_delay=BOT_DELAY,
                              rate_burst=10_000, rate_per_second=10_000.0,
                              **PAGE_LIMITS) as running:
        yield running
    verify_finished_games(Settings(data_dir=tmp_path / "data").database_url())

NOTES = "() => window.konkunNotes.map((n) => n.tag)"


def two_moves_on(url: str, table_id: str, tokens: dict[int, str]) -> None:
    """Play moves for both seats until Anna is to move again, two moves on."""
    start = request_json(f"{url}/api/tables/{table_id}")["turn"]
    play_until(url, table_id, tokens, lambda state: state["turn"] >= start + 2
               and (state["view"] or {}).get("to_move") == 0)


@pytest.mark.parametrize(("size", "lang"), [("phone", "ru"), ("desktop", "en")])
def test_your_turn_is_notified_in_a_hidden_tab_once_turned_on(
        browser: Browser, server: ServerThread, artifacts: Path, size: str,
        lang: str) -> None:
    """With the tab hidden, Anna's turn brings no notification until she turns them on
    (the browser asked then, and only then); after, each turn of hers does, tagged with
    the table; off again, none."""
    url = server.url
    table_id, tokens = two_people(url)
    anna = person(browser, url, table_id, tokens[0], size, lang)
    expect(anna.locator("#notify")).to_have_attribute("aria-pressed", "false")
    anna.evaluate("() => { window.konkunHidden = true; }")
    two_moves_on(url, table_id, tokens)
    expect(anna.locator("#hand.active")).to_be_visible()
    assert anna.evaluate(NOTES) == []  # off by default
    assert anna.evaluate("() => window.konkunAsked || 0") == 0
    anna.click("#notify")
    expect(anna.locator("#notify")).to_have_attribute("aria-pressed", "true")
    shot(anna, artifacts, f"notices-on-{size}-{lang}")
    two_moves_on(url, table_id, tokens)
    anna.wait_for_function("() => window.konkunNotes.length > 0")
    assert anna.evaluate(NOTES) == [f"turn-{table_id}"]
    anna.click("#notify")
    expect(anna.locator("#notify")).to_have_attribute("aria-pressed", "false")
    two_moves_on(url, table_id, tokens)
    expect(anna.locator("#hand.active")).to_be_visible()
    assert anna.evaluate(NOTES) == [f"turn-{table_id}"]
    anna.click("#notify")
    expect(anna.locator("#notify")).to_have_attribute("aria-pressed", "true")
    assert anna.evaluate("() => window.konkunAsked") == 1  # granted: never asked again
    assert_no_page_errors(anna)


@pytest.mark.parametrize(("size", "lang"), [("desktop", "ru"), ("phone", "en")])
def test_chat_from_others_is_marked_unread_with_a_sound_and_watchers_are_counted(
        browser: Browser, server: ServerThread, artifacts: Path, size: str,
        lang: str) -> None:
    """A chat line from Boris while Anna looks elsewhere marks the chat unread (a count in
    the table's head and by the chat's title) with a sound; once she sees the chat the
    mark goes. A spectator opening the table shows as one watching."""
    url = server.url
    table_id, tokens = two_people(url)
    anna = person(browser, url, table_id, tokens[0], size, lang)
    expect(anna.locator(".table-page[data-status=playing]")).to_be_visible()
    expect(anna.locator("#spectators")).to_have_count(0)
    watcher = screen(browser, f"{url}/t/{table_id}", size, lang)
    expect(watcher.locator(".table-page[data-status=playing]")).to_be_visible()
    expect(anna.locator("#spectators")).to_contain_text("1")
    anna.evaluate("() => { window.konkunHidden = true; }")
    with connect(f"{url.replace('http', 'ws', 1)}/ws/tables/{table_id}") as boris:
        boris.send(json.dumps({"type": "hello", "token": tokens[1]}))
        boris.send(json.dumps({"type": "chat", "text": "hello there"}))
        expect(anna.locator("#chat-jump")).to_contain_text("1")
    expect(anna.locator("#chat-unread")).to_be_visible()
    assert anna.evaluate("() => window.konkunBlips") == 1
    shot(anna, artifacts, f"notices-unread-{size}-{lang}")
    anna.evaluate("() => { window.konkunHidden = false;"
                  " document.dispatchEvent(new Event('visibilitychange')); }")
    if anna.locator("#chat-jump").count():  # the chat is below the window: go to it
        anna.click("#chat-jump")
    expect(anna.locator("#chat-jump")).to_have_count(0)
    expect(anna.locator("#chat-unread")).to_have_count(0)
    send_own_line(anna)
    assert anna.evaluate("() => window.konkunBlips") == 1  # her own line makes no sound
    assert_no_page_errors(anna)
    assert_no_page_errors(watcher)


def send_own_line(page: Page) -> None:
    """Anna types a chat line and sends it, and it comes back into the chat."""
    page.fill("#chat-input", "my line")
    page.click("#chat-send")
    expect(page.locator("#chat-log")).to_contain_text("my line")
