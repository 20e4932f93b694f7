"""The move log is whole after a reload even when its request was answered before the
last move (the socket opened as a bot moved): the page asks again instead of waiting for
the next move to notice the gap (found checking issue 35's move-log items)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Route, expect

from konkun.server.testing import ServerThread, request_json

from .pages import (
    CROSSED,
    MY_TURN,
    assert_no_page_errors,
    choose_name,
    create_table,
    play_konchinka_move,
    screen,
)

ENTRIES = "#match-log li"


@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_a_log_answered_before_the_last_move_is_asked_again(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """Anna and a bot play a few moves; she reloads on her turn, and the first answer
    to the page's log request lacks the bot's last move (as when it was asked just before
    that move): the log still shows every move of the match."""
    page = screen(browser, live_server.url, size, lang)
    choose_name(page, "Anna")
    table_id = create_table(page, game="konchinka", seats=2, bots={1: "greedy"})
    for _ in range(2):
        page.wait_for_selector(MY_TURN)
        play_konchinka_move(page)
    page.wait_for_selector(MY_TURN)
    entries = request_json(f"{live_server.url}/api/tables/{table_id}/log")["entries"]
    assert entries[-1]["actor"] == 1  # the bot moved last
    answered: list[int] = []

    def before_the_last_move(route: Route) -> None:
        response = route.fetch()
        body = response.json()
        if not answered:
            body["entries"] = body["entries"][:-1]
        answered.append(len(body["entries"]))
        route.fulfill(response=response, json=body)

    page.route("**/api/tables/*/log", before_the_last_move)
    page.reload()
    page.wait_for_selector(MY_TURN)
    expect(page.locator(ENTRIES)).to_have_count(len(entries))
    assert answered[0] == len(entries) - 1
    assert_no_page_errors(page)
