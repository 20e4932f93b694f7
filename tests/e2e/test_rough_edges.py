"""Rough edges players found, each at both sizes and in both languages: the chat's field
takes no more than the server and keeps a line the server refuses; a nameless spectator
at a running table gets a name form and can then chat."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.server.accounts.ratings_service import RatingStore
from konkun.server.store.storage import Storage, StoredTable
from konkun.server.testing import ServerThread, request_json

from .conftest import finished_bot_games
from .pages import (
    CROSSED,
    MY_TURN,
    PAIRS,
    SIZES,
    assert_no_page_errors,
    choose_name,
    create_table,
    play_konchinka_move,
    screen,
)

pytestmark = pytest.mark.e2e

CHAT_NEEDS_NAME = {"en": "Choose a name to chat.", "ru": "Чтобы писать в чат, выберите имя."}


@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_chat_takes_what_the_server_takes_and_keeps_a_refused_line(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """Anna's field stops at the server's 200 characters; a line the server refuses (a
    control character pasted in) stays in her field to be mended, a good one is sent and
    the field cleared. Vera opens the running table without a name: she is told to
    choose one, gets the field, and then chats."""
    anna = screen(browser, live_server.url, size, lang)
    choose_name(anna, "Anna")
    create_table(anna, game="konchinka", seats=2, bots={1: "greedy"})
    expect(anna.locator(".conn.open")).to_be_visible()
    anna.fill("#chat-input", "x" * 250)
    assert len(anna.locator("#chat-input").input_value()) == 200

    refused = "ring the \u0007 bell"
    anna.fill("#chat-input", refused)
    anna.keyboard.press("Enter")
    expect(anna.locator(".toast.error")).not_to_have_count(0)
    anna.wait_for_timeout(500)  # the server's answer has come: the line is still there
    expect(anna.locator("#chat-input")).to_have_value(refused)
    expect(anna.locator("#chat-log li")).to_have_count(0)
    anna.fill("#chat-input", "ring the bell")
    anna.keyboard.press("Enter")
    expect(anna.locator("#chat-log li").last).to_have_text("Anna: ring the bell")
    expect(anna.locator("#chat-input")).to_have_value("")

    vera = screen(browser, anna.url, size, lang)
    expect(vera.locator("#nickname")).to_be_visible()
    expect(vera.locator(".chat .need-name")).to_have_text(CHAT_NEEDS_NAME[lang])
    vera.locator(".chat .need-name a").click()
    expect(vera.locator("#nickname")).to_be_focused()
    choose_name(vera, "Vera")
    expect(vera.locator(".conn.open")).to_be_visible()
    vera.fill("#chat-input", "may I watch?")
    vera.keyboard.press("Enter")
    expect(anna.locator("#chat-log li").last).to_contain_text("may I watch?")
    expect(vera.locator("#nickname")).to_have_count(0)
    assert_no_page_errors(anna)
    assert_no_page_errors(vera)


WIDE = "W" * 24
"""The widest name the lobby takes."""
NOT_FOUND = {"en": "Page not found", "ru": "Страница не найдена"}
NO_POOL = {"en": "There is no leaderboard “bogus”", "ru": "Таблицы рейтинга «bogus» нет"}


def _rated_wide_player(server: ServerThread, days: tuple[int, ...] = (10,),
                       bots: tuple[str, ...] = ("strong",)) -> str:
    """An account named with 24 W's, with a rated game against each of the ladder
    ``bots`` on each of ``days`` of November 2026 (recorded straight into the server's
    database; she wins and loses by turns); its id."""
    guest = request_json(f"{server.url}/api/guest", "POST", {"nickname": WIDE})
    claimed = request_json(f"{server.url}/api/account/claim", "POST",
                           {"password": "a long password"}, token=guest["token"])
    player = str(claimed["player_id"])
    storage = Storage(server.settings.database_url())
    try:
        number = 0
        for day in days:
            for minute, bot in enumerate(bots):
                seats = [{"kind": "human", "player_id": player, "name": WIDE, "bot": None},
                         {"kind": "bot", "player_id": None, "name": bot, "bot": bot}]
                at = f"2026-11-{day:02d}T12:{minute:02d}:00+00:00"
                won = number % 2 == 0
                number += 1
                RatingStore(storage.engine).record_finished(StoredTable(
                    id=f"game{day}-{bot}", game="konchinka", variant="classic", rules={},
                    seats=seats, seed="s", status="finished", created_at=at,
                    finished_at=at, winner=0 if won else 1,
                    totals=[15, 3] if won else [3, 15]), True, {player})
    finally:
        storage.close()
    return player


@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_unknown_addresses_and_pools_are_pages_and_long_names_fit_the_leaderboard(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """An address the site does not have answers 404 with a page in the page's words (not
    the API's JSON); /leaderboard/bogus says there is no such leaderboard and offers
    those there are; a 24-character name on the leaderboard is cut with an ellipsis, the
    whole name in its title, and the page is no wider than the window. The leaderboard
    lists established ratings only (docs/ratings.md), so she plays the four ladder bots
    on five days: a deviation below the threshold against more than three opponents."""
    _rated_wide_player(live_server, days=(10, 11, 12, 13, 14),
                       bots=("beginner", "casual", "strong", "expert"))
    page = screen(browser, live_server.url, size, lang)
    response = page.goto(f"{live_server.url}/no/such/page")
    assert response is not None and response.status == 404
    expect(page.locator("#not-found h1")).to_have_text(NOT_FOUND[lang])
    assert "not_found" not in page.locator("body").inner_text()
    page.locator("#not-found a").click()
    expect(page.locator("#nickname")).to_be_visible()

    page.goto(f"{live_server.url}/leaderboard/bogus")
    expect(page.locator("#no-pool [role=alert]")).to_contain_text(NO_POOL[lang])
    expect(page.locator("#board")).to_have_count(0)
    page.locator(".pool-tab[data-pool=konchinka-2]").click()
    expect(page).to_have_url(f"{live_server.url}/leaderboard/konchinka-2")
    name = page.locator("#board .name", has_text="WWW").first
    expect(name).to_have_attribute("title", WIDE)
    width = SIZES[size][0]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    box = name.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width
    if size == "phone":
        assert name.evaluate("n => n.scrollWidth > n.clientWidth")  # cut, with an ellipsis
    assert_no_page_errors(page)


EMPTY_NAME = {"en": "Type a name: it cannot be empty", "ru": "Введите имя: оно не может быть"}
RATED_ON = {"en": "hints are off and every move has a clock", "ru": "подсказок нет"}
SIXTY = {"en": "60 s a move", "ru": "60 с на ход"}


@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_the_lobby_form_explains_itself(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """An empty name is refused with the reason in the page's words; the stake is only
    asked for when the winner takes the pool; ticking Rated says and shows what it turns
    off (hints) and on (a move clock of 60 s unless another is chosen)."""
    page = screen(browser, live_server.url, size, lang)
    page.wait_for_load_state("networkidle")
    page.click("#save-name")
    expect(page.locator("#name-error")).to_be_visible()
    expect(page.locator("#name-error")).to_contain_text(EMPTY_NAME[lang])
    choose_name(page, "Anna")

    page.locator(".game-choice input[value=konchinka]").check()
    page.click("details.rules summary")
    expect(page.locator("#rule-settlement")).to_have_value("difference")
    expect(page.locator("#rule-stake")).to_be_hidden()
    page.select_option("#rule-settlement", "pool")
    expect(page.locator("#rule-stake")).to_be_visible()
    page.select_option("#rule-settlement", "difference")
    expect(page.locator("#rule-stake")).to_be_hidden()

    expect(page.locator("#rated-help")).to_be_visible()
    page.locator("#rated").check()
    expect(page.locator("#rated-help")).to_contain_text(RATED_ON[lang])
    expect(page.locator("#hints")).to_be_disabled()
    expect(page.locator("#hints")).not_to_be_checked()
    expect(page.locator("#move-seconds option[value='0']")).to_have_text(SIXTY[lang])
    assert_no_page_errors(page)


TERMS = {"en": "to 21 points · 30 s a move · Capture is compulsory",
         "ru": "до 21 очка · 30 с на ход · Брать обязательно"}


@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_a_tables_clock_target_and_house_rules_show_on_the_invite_the_lobby_and_the_table(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """Anna creates a table to 21 with a 30 s clock where capture is compulsory: her
    table, the invited player's page and the lobby's row all say so, in their words."""
    anna = screen(browser, live_server.url, size, lang)
    choose_name(anna, "Anna")
    anna.locator(".game-choice input[value=konchinka]").check()
    anna.select_option("#seats", "2")
    anna.select_option("#who-1", "human")
    anna.select_option("#move-seconds", "30")
    anna.click("details.rules summary")
    anna.fill("#rule-target", "21")
    anna.check("#rule-capture_compulsory")
    anna.click("#create")
    anna.wait_for_url("**/t/*")
    table_id = anna.url.rstrip("/").rsplit("/", 1)[1]
    expect(anna.locator(".table-terms")).to_have_text(TERMS[lang])
    other = "ru" if lang == "en" else "en"
    boris = screen(browser, f"{live_server.url}/t/{table_id}", size, other)
    expect(boris.locator(".table-terms")).to_have_text(TERMS[other])
    boris.goto(live_server.url)
    expect(boris.locator(f".table-row[data-table='{table_id}'] .table-terms")).to_have_text(
        TERMS[other])
    assert boris.evaluate("() => document.documentElement.scrollWidth") <= SIZES[size][0]
    assert_no_page_errors(anna)
    assert_no_page_errors(boris)


def _analysis(best_differs: str) -> dict[str, Any]:
    """A finished analysis of seat 0's two moves: the first lost a little (no mark) to a
    better capture, the second was the best found."""
    seat = {"lost": 0.2, "moves": 2, "inaccuracy": 0, "mistake": 0, "blunder": 0}
    return {"status": "done", "thresholds": {"inaccuracy": 0.5, "mistake": 1.0,
                                             "blunder": 2.0},
            "deals": [{"deal": 0, "seats": [seat, seat]}],
            "moves": [{"deal": 0, "seat": 0, "ply": 0, "turn": 1, "played": "5c",
                       "best": best_differs, "loss": 0.2, "mark": None},
                      {"deal": 0, "seat": 0, "ply": 1, "turn": 3, "played": "9h",
                       "best": "9h", "loss": 0.0, "mark": None}]}


@pytest.fixture(scope="module")
def bots_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerThread, str]]:
    """A server with one finished bots' game with the small deck (28 cards), and its table
    id: its replay is read at both sizes and languages (with the analysis routed in, the
    server analyses nothing), so it is played once."""
    body = {"game": "konchinka", "seats": 2, "rules": {"target": "1", "deck_ranks": "7"},
            "bots": {"0": "greedy", "1": "random"}}
    with finished_bot_games(tmp_path_factory.mktemp("rough") / "data", {"game": body},
                            timeout=240) as (server, tables):
        yield server, tables["game"]


@pytest.mark.parametrize(("size", "lang"), [("desktop", "ru"), ("phone", "en")])
def test_the_analysis_names_the_best_move_whenever_it_differs(
        browser: Any, bots_game: tuple[ServerThread, str], size: str, lang: str) -> None:
    """A move that lost too little for a mark still shows the better move found; a move
    that was the best shows none. The finished game is of bots with the small deck
    (28 cards): the analysis shown is the one routed in."""
    server, table_id = bots_game
    page = screen(browser, "about:blank", size, lang)
    page.route("**/api/games/*/analysis", lambda route: route.fulfill(
        json=_analysis("Kc:Kd")))
    page.goto(f"{server.url}/replay/{table_id}")
    rows = page.locator(".analysis-deal[data-deal='0'] tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("td").nth(2)).to_have_text(re.compile("^[KК]♣ × [KК]♦$"))
    expect(rows.nth(1).locator("td").nth(2)).to_have_text("—")
    assert_no_page_errors(page)


MONTH = {"en": "Nov", "ru": "нояб"}


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ru")])
def test_the_rating_chart_has_dates(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """Rated games on 10 and 24 November: the chart's time axis is dated with the first
    and the last, and each point's title says its date."""
    player = _rated_wide_player(live_server, days=(10, 17, 24))
    page = screen(browser, f"{live_server.url}/profile/{player}", size, lang)
    dates = page.locator(".rating-chart text.date")
    expect(dates).to_have_count(2)
    first, last = dates.all_text_contents()
    assert "10" in first and "24" in last
    assert all(MONTH[lang] in d and "2026" in d for d in (first, last))
    titles = page.locator(".rating-chart circle title").all_text_contents()
    assert len(titles) == 3 and "17" in titles[1] and MONTH[lang] in titles[1]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= SIZES[size][0]
    assert_no_page_errors(page)


@pytest.mark.parametrize(("size", "lang"), [("desktop", "ru"), ("phone", "en")])
def test_the_kunken_drawn_card_stays_marked_after_a_reload(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """Dasha draws from the stock: the drawn card is marked in her hand; she reloads the
    page before discarding, and the same card is still marked."""
    page = screen(browser, live_server.url, size, lang)
    choose_name(page, "Dasha")
    create_table(page, game="kunken", seats=2, bots={1: "greedy"})
    page.locator("#draw").click()
    drawn = page.locator(".hand .card.drawn")
    expect(drawn).to_have_count(1)
    card = drawn.get_attribute("data-card")
    page.reload()
    expect(page.locator(".hand .card.drawn")).to_have_count(1)
    expect(page.locator(".hand .card.drawn")).to_have_attribute("data-card", card or "")
    expect(page.locator("#drawn-note")).to_be_visible()
    assert_no_page_errors(page)


def _check_names_alike(page: Any) -> None:
    """Every name cut on the page shows its distinct ending whole, and the opponents'
    endings all differ."""
    for name in page.locator(".opponent .name-split").all():
        expect(name).to_be_visible()
    shown = page.evaluate("""() => [...document.querySelectorAll('.name-split')]
        .filter((n) => n.checkVisibility())
        .map((n) => {
            const keep = n.querySelector('.name-keep').getBoundingClientRect();
            const box = n.getBoundingClientRect();
            return [n.title, n.querySelector('.name-keep').textContent,
                    keep.right <= box.right + 0.5 && keep.width > 0];
        })""")
    assert shown, "no split names drawn"
    for title, keep, whole in shown:
        assert whole, (title, keep)
        assert title.endswith(keep)
    endings = {title: keep for title, keep, _ in shown}
    assert len(set(endings.values())) == len(endings) >= 3, endings


@pytest.mark.parametrize(("size", "lang"), [("phone", "en"), ("phone", "ru"), ("desktop", "en")])
def test_names_alike_keep_their_distinct_ending_when_cut(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """Three greedy bots at a four-seat table: however short a name box, each shows its
    number and its bot mark whole ("… 2 (bot)"), so no two read the same. The names
    are checked where they are shown while the game plays: the opponents' rows on the
    felt everywhere (on a phone the seat chips then show only an absent seat), and the
    seat chips too where they stay."""
    page = screen(browser, live_server.url, size, lang)
    choose_name(page, "Anna")
    create_table(page, game="konchinka", seats=4, bots={1: "greedy", 2: "greedy",
                                                         3: "greedy"})
    expect(page.locator(".opponent .name-split")).to_have_count(3)
    _check_names_alike(page)
    # an opponent's row is fullest with the last-capture tag beside its pile: on a phone's
    # compact row the name had about 3 px too little there, its ending clipped
    for _ in range(12):
        if page.locator(".opponent .meta .tag").count():
            break
        page.wait_for_selector(MY_TURN)
        if not page.locator(".opponent .meta .tag").count():
            play_konchinka_move(page)
    expect(page.locator(".opponent .meta .tag").first).to_be_visible()
    _check_names_alike(page)
    assert_no_page_errors(page)
