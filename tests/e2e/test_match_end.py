"""The end of a match at the table (issue 35, item 2): the result card (the winner, the
final score sheet, who pays whom, Rematch and Replay), the end-of-deal screen showing the
deal as it ended and waiting while paused, and the Konchinka score sheet writing a new
total only when it changes. Both people's moves go over their WebSockets (the page under
test watches), so that a whole match takes seconds."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import ClientConnection, connect

from konkun.server.core.config import Settings
from konkun.server.testing import ServerThread, request_json, run_server_in_thread

from .conftest import BOT_DELAY, PAGE_LIMITS, verify_finished_games
from .pages import SIZES, assert_no_page_errors, screen, shot

pytestmark = pytest.mark.e2e

NOTES = """
window.konkunNotes = [];
window.konkunHidden = false;
window.Notification = class {
    constructor(title, options) { window.konkunNotes.push({ title, tag: options?.tag }); }
    static get permission() { return window.konkunPermission || "default"; }
    static requestPermission() {
        window.konkunAsked = (window.konkunAsked || 0) + 1;
        window.konkunPermission = "granted";
        return Promise.resolve("granted");
    }
    close() {}
};
Object.defineProperty(document, "hidden", { configurable: true,
                                            get: () => window.konkunHidden });
"""
"""Run in the page first: the notifications it shows are recorded (``konkunNotes``) and the
tab counts as hidden while ``konkunHidden`` is set; the browser grants the permission when
asked (as the test context does), counting the questions (``konkunAsked``)."""


def two_people(url: str, game: str = "konchinka", rules: dict[str, str] | None = None,
               rated: bool = False) -> tuple[str, dict[int, str]]:
    """A table of ``game`` with Anna at seat 0 and Boris at seat 1, playing; its id and the
    two tokens by seat. A ``rated`` table's two people have claimed their names first."""
    tokens = {seat: request_json(f"{url}/api/guest", "POST", {"nickname": name})["token"]
              for seat, name in ((0, "Anna"), (1, "Boris"))}
    if rated:
        tokens = {seat: request_json(f"{url}/api/account/claim", "POST",
                                     {"password": "a long password"}, token)["token"]
                  for seat, token in tokens.items()}
    table = request_json(f"{url}/api/tables", "POST",
                         {"game": game, "seats": 2, "rules": rules or {}, "hints": False,
                          "rated": rated}, tokens[0])
    for seat, token in tokens.items():  # each adds to the seed, as the page does
        request_json(f"{url}/api/tables/{table['id']}/sit", "POST",
                     {"seat": seat, "contribution": secrets.token_hex(32)}, token)
    return str(table["id"]), tokens


def legal_of(view: dict[str, Any]) -> list[str]:
    """The legal action texts in a seat's view (a Konchinka view nests its deal)."""
    legal: list[str] = (view.get("deal") or view).get("legal") or []
    return legal


def greedy(legal: list[str]) -> str:
    """A Konchinka move that takes the most cards (a trail when nothing can be taken), so
    that deals score and a match ends."""
    return max(legal, key=lambda action: action.count(":") + len(action))


def play_until(url: str, table_id: str, tokens: dict[int, str],
               done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Play a :func:`greedy` move for every seat of ``tokens`` over its WebSocket until a
    state is ``done`` (or the game is over); that state."""
    ws_url = f"{url.replace('http', 'ws', 1)}/ws/tables/{table_id}"
    with ExitStack() as stack:
        sockets: dict[int, ClientConnection] = {
            seat: stack.enter_context(connect(ws_url)) for seat in tokens}
        for seat, ws in sockets.items():
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
        latest: dict[int, dict[str, Any]] = {}
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            for seat, ws in sockets.items():
                try:
                    message = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                assert message["type"] != "error", message
                if message["type"] != "state":
                    continue
                if done(message) or message["table"]["status"] == "finished":
                    return dict(message)
                if message["you"] != seat or latest.get(seat, {}).get("turn") == message["turn"]:
                    continue  # the spectator's state before the hello, or a turn answered
                latest[seat] = message
                view = message["view"] or {}
                if view.get("to_move") == seat and legal_of(view):
                    ws.send(json.dumps({"type": "action", "turn": message["turn"],
                                        "action": greedy(legal_of(view))}))
        raise AssertionError(f"table {table_id}: not done in 120 s")


def person(browser: Browser, url: str, table_id: str, token: str, size: str,
           lang: str) -> Page:
    """The browser of the person of ``token`` (stored; notifications recorded) at the
    table, at ``size`` in ``lang``."""
    me = request_json(f"{url}/api/me", token=token)
    identity = json.dumps({"token": token, **me})
    script = NOTES + f"localStorage.setItem('konkun.identity', {json.dumps(identity)});"
    return screen(browser, f"{url}/t/{table_id}", size, lang, init_script=script)


def deals_done(state: dict[str, Any]) -> int:
    """How many deals of the match are over in ``state``."""
    return len((state["view"] or {}).get("deal_points") or [])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """The e2e server (:func:`.conftest.live_server`) with the per-connection message
    limit lifted too, since a test plays a whole match over two sockets in seconds."""
    with run_server_in_thread(data_dir=tmp_path / "data", bot_delay=BOT_DELAY,
                              rate_burst=10_000, rate_per_second=10_000.0,
                              **PAGE_LIMITS) as running:
        yield running
    verify_finished_games(Settings(data_dir=tmp_path / "data").database_url())


@pytest.mark.parametrize(("size", "lang"), [("phone", "ru"), ("desktop", "en")])
def test_the_result_card_shows_the_winner_the_sheet_and_the_payments_with_rematch_and_replay(
        browser: Browser, server: ServerThread, artifacts: Path, size: str, lang: str) -> None:
    """At the end of a Konchinka match to 1 point, Anna's page opens on a result card in
    view at the top: the winner, each player's points deal by deal and the totals the
    server reports, who pays whom (a loser with 0 points pays the target, 1), a Replay link
    and a Rematch button; Boris's offer of a rematch reaches her as a notification while
    her tab is hidden (she turned them on), and her Rematch starts the new table."""
    url = server.url
    table_id, tokens = two_people(url, rules={"target": "1"})
    anna = person(browser, url, table_id, tokens[0], size, lang)
    expect(anna.locator(".table-page[data-status=playing]")).to_be_visible()
    anna.click("#notify")
    expect(anna.locator("#notify")).to_have_attribute("aria-pressed", "true")
    final = play_until(url, table_id, tokens, lambda state: False)
    summary = request_json(f"{url}/api/tables/{table_id}")
    assert summary["status"] == "finished"
    expect(anna.locator("#deal-end")).to_be_visible()  # the last deal's end screen, then
    anna.click("#deal-end-close")
    card = anna.locator("#result-card")
    expect(card).to_be_visible()
    box = card.bounding_box()
    assert box is not None and box["y"] < SIZES[size][1] / 2  # at the top, not far down
    names = ["Anna", "Boris"]
    winner = summary["winner"]
    expect(anna.locator("#result-winner")).to_contain_text(names[winner])
    totals = [int(x) for x in anna.locator("#result-sheet tfoot td").all_inner_texts()]
    assert totals == summary["totals"]
    deals = anna.locator("#result-sheet tbody tr")
    expect(deals).to_have_count(deals_done(final))
    loser = 1 - winner
    payment = max(0, 1 - summary["totals"][loser])
    if payment:
        expect(anna.locator("#result-pays li")).to_have_count(1)
        expect(anna.locator(f"#result-pays li[data-from='{loser}'][data-to='{winner}']")
               ).to_contain_text(names[loser])
    else:
        expect(anna.locator("#result-pays li")).to_have_count(0)
    expect(anna.locator("#result-replay")).to_have_attribute("href", f"/replay/{table_id}")
    shot(anna, artifacts, f"match-end-result-{size}-{lang}")

    anna.evaluate("() => { window.konkunHidden = true; }")
    with connect(f"{url.replace('http', 'ws', 1)}/ws/tables/{table_id}") as boris:
        boris.send(json.dumps({"type": "hello", "token": tokens[1]}))
        boris.send(json.dumps({"type": "rematch"}))
        anna.wait_for_function(
            "() => window.konkunNotes.some((n) => n.tag.startsWith('rematch'))")
        notes = anna.evaluate("() => window.konkunNotes.map((n) => n.title)")
        assert any("Boris" in title for title in notes), notes
        anna.evaluate("() => { window.konkunHidden = false; }")
        anna.click("#result-card #rematch")
        anna.wait_for_url(lambda now: table_id not in now)
        expect(anna.locator(".table-page[data-status=playing]")).to_be_visible()
    assert_no_page_errors(anna)


def test_a_rated_match_shows_the_rating_change_on_the_result_card(
        browser: Browser, server: ServerThread) -> None:
    """At the end of a rated match between two accounts, Anna's result card tells her
    rating before and after, the after being her rating in her profile. A rated table has
    the standard rules (a match to 15), so Anna ends it early by resigning."""
    url = server.url
    table_id, tokens = two_people(url, rated=True)
    anna = person(browser, url, table_id, tokens[0], "phone", "en")
    expect(anna.locator(".table-page[data-status=playing]")).to_be_visible()
    anna.locator("#resign").click()
    anna.locator("#resign-yes").click()
    expect(anna.locator(".table-page[data-status=finished]")).to_be_visible()
    expect(anna.locator("#result-rating")).to_be_visible()
    me = request_json(f"{url}/api/me", token=tokens[0])
    rating = request_json(f"{url}/api/players/{me['player_id']}")["ratings"][0]["rating"]
    expect(anna.locator("#result-rating")).to_contain_text(f"→ {round(rating)} (")
    assert_no_page_errors(anna)


@pytest.mark.parametrize(("size", "lang"), [("desktop", "ru"), ("phone", "en")])
def test_the_deal_end_screen_shows_the_deal_as_it_ended_and_waits_while_paused(
        browser: Browser, server: ServerThread, artifacts: Path, size: str, lang: str) -> None:
    """When the first deal of a Konchinka match ends, the table behind its end screen is
    the deal as it ended (the move that ended it, the deal's score and the score sheet
    with it written in), not the table a move before beside no score; paused, the screen
    stays past the seconds it would close in, and the next deal shows once Anna goes on."""
    url = server.url
    table_id, tokens = two_people(url)
    anna = person(browser, url, table_id, tokens[0], size, lang)
    expect(anna.locator(".table-page[data-status=playing]")).to_be_visible()
    anna.clock.install()  # the page's timers run on, and can be moved on at once
    play_until(url, table_id, tokens, lambda state: deals_done(state) >= 1)
    expect(anna.locator("#deal-end")).to_be_visible()
    end = request_json(f"{url}/api/tables/{table_id}/deals/1")
    # well before the screen would close by itself (12 s) and show the next deal
    expect(anna.locator(".table-page")).to_have_attribute("data-turn", str(end["turn"]),
                                                          timeout=6000)
    expect(anna.locator("#deal-score tbody tr")).to_have_count(2, timeout=1000)
    expect(anna.locator("#deal-end")).to_be_visible(timeout=1000)
    points = [int(x) for x in anna.locator("#deal-score tbody td strong").all_inner_texts()]
    assert points == end["points"]
    written = [int(x) for x in anna.locator("#score-sheet .current").all_inner_texts()]
    assert written == end["points"]  # after one deal, each total is that deal's points
    anna.click("#deal-end-pause")
    expect(anna.locator("#deal-end-pause")).to_have_count(0)
    shot(anna, artifacts, f"match-end-paused-{size}-{lang}")
    anna.clock.run_for(13_000)  # past the 12 s the screen closes in when not paused
    expect(anna.locator("#deal-end")).to_be_visible()
    expect(anna.locator(".table-page")).to_have_attribute("data-turn", str(end["turn"]))
    anna.click("#deal-end-close")
    expect(anna.locator("#deal-end")).to_have_count(0)
    expect(anna.locator("#hand .hand .card")).to_have_count(4)
    assert_no_page_errors(anna)
