"""The Kunken turn panel at both sizes (issue 12): with a long meld list on the table,
every control the current step needs (the hand, the lists of melds, lay-offs, joker swaps
and discards) is in view without scrolling; and the discard gesture, a double tap on a
card already selected, is not set off by a quick select and unselect."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect
from websockets.sync.client import ClientConnection, connect

from konkun.server.core.config import Settings
from konkun.server.testing import ServerThread, request_json, run_server_in_thread

from .conftest import BOT_DELAY, PAGE_LIMITS, deal_from_seed, verify_finished_games
from .pages import (
    CROSSED,
    PAIRS,
    SIZES,
    assert_no_page_errors,
    choose_name,
    create_table,
    shot,
)
from .test_kunken_turns import (
    RULES,
    TURN_MOVED,
    create_kunken_table,
    double_tap,
    person,
    scripted_choice,
    select,
)

pytestmark = pytest.mark.e2e

MELDS_FIRST = ("meld", "layoff", "swap", "discard")
"""A meld-hungry player: every meld before the lay-offs and swaps."""
LONG_MELD_LIST = 12


def long_meld_list() -> tuple[str, list[tuple[int, str]]]:
    """A seed and the moves from its deal's start to the start of a turn of seat 0 whose
    first step (a take or a draw) leaves at least ``LONG_MELD_LIST`` melds on the table
    and a joker swap and a discard among the legal steps (found with the engine)."""
    from konkun.kunken import KunkenMatch, KunkenRules

    for i in range(300):
        seed = f"layout-{i}"
        match = KunkenMatch(KunkenRules.from_options(RULES), 2, seed)
        deal = match.deal
        moves: list[tuple[int, str]] = []
        turn_start = 0
        while not deal.is_over():
            legal = [deal.format_action(a) for a in deal.legal_actions()]
            kinds = {a.split()[0] for a in legal}
            if deal.to_move == 0 and "draw" in kinds:
                turn_start = len(moves)
            elif deal.to_move == 0 and {"swap", "discard"} <= kinds \
                    and len(match.to_json(0)["melds"]) >= LONG_MELD_LIST \
                    and len(moves) == turn_start + 1:
                return seed, moves[:turn_start + 1]
            action = scripted_choice(legal, MELDS_FIRST)
            moves.append((deal.to_move, action))
            deal.play(deal.parse_action(action))
    raise AssertionError(f"no seed with {LONG_MELD_LIST} melds and a swap in 300 tries")


def actions_sent(page: Page) -> list[str]:
    """The action texts the page has sent over its WebSockets, in order."""
    sent: list[str | bytes] = page.sent  # type: ignore[attr-defined]
    messages = [json.loads(frame) for frame in sent]
    return [m["action"] for m in messages if m.get("type") == "action"]


def _state(ws: ClientConnection, after: int) -> dict[str, Any]:
    """The next state message of ``ws`` whose turn is past ``after`` (an error fails)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=20))
        assert message["type"] != "error", message
        if message["type"] == "state" and message["turn"] > after:
            return message


def play_moves(server: ServerThread, table_id: str, tokens: dict[int, str],
               moves: list[tuple[int, str]]) -> None:
    """Play ``moves`` (seat, action text) at the table over each seat's WebSocket, each
    once the state before it has come."""
    url = f"{server.url.replace('http', 'ws', 1)}/ws/tables/{table_id}"
    with ExitStack() as stack:
        sockets = {seat: stack.enter_context(connect(url)) for seat in tokens}
        turn = -1
        for seat, ws in sockets.items():
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            turn = _state(ws, -1)["turn"]
        for seat, action in moves:
            sockets[seat].send(json.dumps({"type": "action", "turn": turn, "action": action}))
            turn = _state(sockets[seat], turn)["turn"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """The e2e server (:func:`.conftest.live_server`) with the per-connection message
    limit lifted too, since the test plays a hundred moves over two sockets at once."""
    with run_server_in_thread(data_dir=tmp_path / "data", bot_delay=BOT_DELAY,
                              rate_burst=10_000, rate_per_second=10_000.0,
                              **PAGE_LIMITS) as running:
        yield running
    verify_finished_games(Settings(data_dir=tmp_path / "data").database_url())


@pytest.fixture
def long_deal(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """The next game the in-thread server deals is the one of :func:`long_meld_list`;
    the moves that lead to its long meld list."""
    seed, moves = long_meld_list()
    deal_from_seed(monkeypatch, seed)
    return moves


def dasha_at_a_long_meld_list(browser: Any, server: ServerThread, size: str, lang: str,
                              moves: list[tuple[int, str]]) -> Page:
    """Dasha's page at seat 0 of a two-player Kunken table, at the start of her turn with
    a long meld list on the table (every move before it played over the WebSocket)."""
    dasha = person(browser, server.url, size, lang)
    create_kunken_table(dasha, "Dasha")
    table_id = dasha.url.rstrip("/").rsplit("/", 1)[1]
    expect(dasha.locator(".seat.me")).to_contain_text("Dasha")
    boris = request_json(f"{server.url}/api/guest", "POST", {"nickname": "Boris"})["token"]
    request_json(f"{server.url}/api/tables/{table_id}/sit", "POST", {"seat": 1}, boris)
    mine = dasha.evaluate("() => JSON.parse(localStorage.getItem('konkun.identity')).token")
    table_url = dasha.url
    dasha.goto("about:blank")  # a page drawing a hundred states in a row is slow on CI
    play_moves(server, table_id, {0: mine, 1: boris}, moves[:-1])
    dasha.goto(table_url)
    expect(dasha.locator("#hand.active")).to_be_visible()
    return dasha


HIDDEN = """selectors => selectors.flatMap((selector) =>
    [...document.querySelectorAll(selector)].filter((node) => {
        const r = node.getBoundingClientRect();
        const x = r.left + Math.min(r.width / 2, 12), y = r.top + r.height / 2;
        if (!r.width || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return true;
        const top = document.elementFromPoint(x, y);
        return !(top && (node === top || node.contains(top)));
    }).map((node) => `${selector} ${node.dataset.action || node.dataset.card || node.id}`))"""
"""The nodes of ``selectors`` that a person cannot see where the page stands: outside the
window, or under something else (the point near their left edge, where a stacked hand
card shows, is not theirs)."""


def hidden(page: Page, *selectors: str) -> list[str]:
    """Which of the nodes of ``selectors`` are out of sight (none, when all are in view)."""
    found: list[str] = page.evaluate(HIDDEN, list(selectors))
    return found


@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_every_control_of_the_turn_is_in_view_with_a_long_meld_list(
        browser: Any, server: ServerThread, long_deal: list[tuple[int, str]],
        artifacts: Path, size: str, lang: str) -> None:
    """Issue 12: with a dozen melds on the table, the start of Dasha's turn shows the
    stock's draw button, the bank and her hand without any scrolling; after her draw (or
    take), her hand, every step offered (the joker swap and the discards among them) and
    the bank to drag a card onto are all in view too, at 1366×800 and at 390×844."""
    dasha = dasha_at_a_long_meld_list(browser, server, size, lang, long_deal)
    assert dasha.locator("#layouts .meld").count() >= LONG_MELD_LIST - 1
    assert dasha.evaluate("() => scrollY") == 0
    first = long_deal[-1][1]
    start = "#draw" if first == "draw" else "#bank .card.takeable"
    assert hidden(dasha, start, "#hand .hand .card", "#bank") == []
    shot(dasha, artifacts, f"kunken-layout-start-{size}-{lang}")
    turn = dasha.locator(".table-page").get_attribute("data-turn")
    dasha.locator(start).first.click()
    dasha.wait_for_function("turn => document.querySelector('.table-page').dataset.turn"
                            " !== turn", arg=turn)
    expect(dasha.locator("#moves .move-group[data-kind=swap] .choice")).not_to_have_count(0)
    assert dasha.locator("#layouts .meld").count() >= LONG_MELD_LIST
    assert dasha.evaluate("() => scrollY") == 0
    assert hidden(dasha, "#hand .hand .card", "#moves .choice", "#bank") == []
    dasha.screenshot(path=str(artifacts / f"kunken-layout-steps-{size}-{lang}.png"))
    assert dasha.evaluate("() => document.documentElement.scrollWidth") <= SIZES[size][0]
    assert_no_page_errors(dasha)


def first_step(page: Page, moves: list[tuple[int, str]]) -> None:
    """Make the first step of the turn (the draw, or the take) through the page."""
    turn = page.locator(".table-page").get_attribute("data-turn")
    page.locator("#draw" if moves[-1][1] == "draw" else "#bank .card.takeable").first.click()
    page.wait_for_function(TURN_MOVED, arg=turn)
    expect(page.locator("#moves .move-group[data-kind=discard]")).to_be_visible()


def centre(node: Locator) -> tuple[float, float]:
    """The point of hand card ``node`` a person touches, once it shows (the page redraws
    the hand on every state, so a node may go between finding it and measuring it): half
    way down its left edge, the part of an overlapped card in sight."""
    for _ in range(20):
        expect(node).to_be_visible()
        box = node.bounding_box()
        if box is not None:
            return box["x"] + min(box["width"] / 2, 10), box["y"] + box["height"] / 2
    raise AssertionError(f"{node} never stayed in place to be measured")


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ru")])
def test_a_quick_select_and_unselect_keeps_the_card_and_a_double_tap_discards_a_selected_one(
        browser: Any, server: ServerThread, long_deal: list[tuple[int, str]], size: str,
        lang: str) -> None:
    """Issue 12: two quick taps on a card that was not selected select it and unselect it,
    and send nothing, although its discard is legal; the gesture the page describes, a
    double tap on a card once selected, discards it (a double click with a mouse)."""
    dasha = dasha_at_a_long_meld_list(browser, server, size, lang, long_deal)
    first_step(dasha, long_deal)
    expect(dasha.locator("#discard-help")).to_be_visible()
    node = dasha.locator("#hand .hand .card.can-discard:not([data-card^=X])").first
    card = node.get_attribute("data-card")
    assert card
    x, y = centre(node)
    turn = dasha.locator(".table-page").get_attribute("data-turn")
    double_tap(dasha, node, size, x, y)
    expect(node).to_have_attribute("aria-pressed", "false")
    for _ in range(3):
        select(dasha, node, size, x, y)
        double_tap(dasha, node, size, x, y)
        # two taps far apart on a loaded machine are two single taps: the card is
        # selected again, and nothing was sent
        if not dasha.locator(f"#hand .hand .card.selected[data-card='{card}']").count():
            break
    dasha.wait_for_function(TURN_MOVED, arg=turn)
    expect(dasha.locator("#bank .card").last).to_have_attribute("data-card", card)
    assert actions_sent(dasha) == [long_deal[-1][1], f"discard {card}"]
    assert_no_page_errors(dasha)


def first_turn_seed(seats: int) -> str:
    """The first seed of ``bank-0``, ``bank-1``, ... whose match of ``seats`` seats under
    the default rules lets seat 0 move first and either draw or take the bank (found
    with the engine, not assumed)."""
    from konkun.kunken import KunkenMatch, KunkenRules

    for i in range(2000):
        seed = f"bank-{i}"
        deal = KunkenMatch(KunkenRules(), seats, seed).deal
        legal = [deal.format_action(a) for a in deal.legal_actions()]
        if deal.to_move == 0 and "draw" in legal and any(a.startswith("take ") for a in legal):
            return seed
    raise AssertionError(f"no {seats}-seat seed with a take at seat 0's first turn")


BANK_COVERED = """() => [...document.querySelectorAll('#bank .card')].filter((node) => {
        const r = node.getBoundingClientRect();
        if (!r.width || r.top < 0 || r.left < 0 || r.bottom > innerHeight
            || r.right > innerWidth) return true;
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !(top && (node === top || node.contains(top)));
    }).map((node) => node.dataset.card)"""
"""The bank's cards not wholly in the window, or whose centre is under something else."""


@pytest.mark.parametrize("first", ["draw", "take"])
@pytest.mark.parametrize("seats", [2, 3])
@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_the_bank_stays_in_view_after_a_draw_or_a_take_with_thirteen_cards(
        browser: Any, live_server: ServerThread, monkeypatch: pytest.MonkeyPatch,
        artifacts: Path, size: str, lang: str, seats: int, first: str) -> None:
    """Against greedy bots under the default rules (hands of 13), once Dasha has drawn
    (her hand of 14 and a discard for each card) or taken the bank (with the step lists
    of the take), the hand panel at the bottom leaves the bank uncovered: every bank card
    and her hand and every step list (its heading and first step) are in view without
    scrolling, at both sizes."""
    deal_from_seed(monkeypatch, first_turn_seed(seats))
    dasha = person(browser, live_server.url, size, lang)
    choose_name(dasha, "Dasha")
    create_table(dasha, game="kunken", seats=seats,
                 bots=dict.fromkeys(range(1, seats), "greedy"))
    expect(dasha.locator("#hand.active")).to_be_visible()
    expect(dasha.locator("#draw")).to_be_visible()
    assert dasha.evaluate(BANK_COVERED) == []
    turn = dasha.locator(".table-page").get_attribute("data-turn")
    dasha.locator("#draw" if first == "draw" else "#bank .card.takeable").first.click()
    dasha.wait_for_function(TURN_MOVED, arg=turn)
    expect(dasha.locator("#moves .move-group .choice").first).to_be_visible()
    if first == "draw":
        expect(dasha.locator("#hand .hand .card")).to_have_count(14)
        expect(dasha.locator("#moves .move-group[data-kind=discard]")).to_be_visible()
    dasha.wait_for_timeout(300)  # the page has settled after drawing the new state
    dasha.screenshot(path=str(artifacts / f"kunken-bank-{first}-{seats}-{size}-{lang}.png"))
    assert dasha.evaluate("() => scrollY") == 0
    assert dasha.evaluate(BANK_COVERED) == []
    # on a phone the hand is one row that scrolls sideways (docs/web.md): the row shows
    cards = "#hand .hand .card" if size == "desktop" else "#hand .hand"
    assert hidden(dasha, cards, "#moves .move-group h3",
                  "#moves .move-group .choice:first-child", "#bank-drop") == []
    assert dasha.evaluate("() => document.documentElement.scrollWidth") <= SIZES[size][0]
    assert_no_page_errors(dasha)
