"""Seat links in a real browser, at a desktop and a phone size, in English and Russian: the
link a player copies opens that seat and nothing else, and a visitor with a name of her own
is asked before the link is used; her own identity stays hers either way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.server.testing import ServerThread

from .pages import (
    PAIRS,
    assert_no_page_errors,
    choose_name,
    copy_seat_link,
    create_table,
    screen,
    shot,
)

pytestmark = pytest.mark.e2e

QUESTION = {"en": "This link is Anna's seat at this table", "ru": "Эта ссылка ведёт на место"}
STAY = {"en": "Stay Boris", "ru": "Остаться Boris"}
USE = {"en": "Play as Anna here", "ru": "Играть здесь за Anna"}
LATIN = "abcdefghijklmnopqrstuvwxyz"


@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_a_seat_link_asks_before_it_is_used_and_never_replaces_the_visitors_identity(
        browser: Any, live_server: ServerThread, artifacts: Path, size: str, lang: str) -> None:
    anna = screen(browser, live_server.url, size, lang)
    anna.context.grant_permissions(["clipboard-read", "clipboard-write"])
    choose_name(anna, "Anna")
    table_id = create_table(anna, game="konchinka", seats=2, bots={})
    link = copy_seat_link(anna)
    assert link.startswith(f"{live_server.url}/t/{table_id}#seat=")
    token = link.split("#seat=", 1)[1]
    status = anna.evaluate("""async (token) => (await fetch('/api/account',
        {headers: {Authorization: 'Bearer ' + token}})).status""", token)
    assert status == 401  # the link never opens the account

    boris = screen(browser, live_server.url, size, lang)
    choose_name(boris, "Boris")
    own = boris.evaluate("() => localStorage.getItem('konkun.identity')")
    boris.goto(link)
    dialog = boris.locator("#seat-link-dialog")
    expect(dialog).to_contain_text(QUESTION[lang])
    expect(boris.locator("#seat-link-keep")).to_have_text(STAY[lang])
    expect(boris.locator("#seat-link-use")).to_have_text(USE[lang])
    if lang == "ru":  # no English words beside the names
        text = dialog.inner_text().lower().replace("anna", "").replace("boris", "")
        assert not any(ch in LATIN for ch in text), text
    shot(boris, artifacts, f"seat-link-01-asked-{size}-{lang}")
    boris.click("#seat-link-keep")
    expect(dialog).to_have_count(0)
    expect(boris.locator(".seat[data-seat='0']")).to_contain_text("Anna")
    expect(boris.locator(".seat.me")).to_have_count(0)
    assert boris.evaluate("() => localStorage.getItem('konkun.identity')") == own
    assert "#seat=" not in boris.url

    boris.goto(link)
    boris.click("#seat-link-use")
    expect(boris.locator(".seat.me")).to_contain_text("Anna")
    assert boris.evaluate("() => localStorage.getItem('konkun.identity')") == own
    expect(boris.locator(".whoami")).to_have_text("Boris")  # her own name stays hers
    shot(boris, artifacts, f"seat-link-02-used-{size}-{lang}")
    assert_no_page_errors(anna)
    assert_no_page_errors(boris)
