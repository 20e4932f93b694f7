"""Rough edges players found, each at both sizes and in both languages: the chat's field
takes no more than the server and keeps a line the server refuses; a nameless spectator
at a running table gets a name form and can then chat."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.server.testing import ServerThread

from .pages import SCREENS, assert_no_page_errors, choose_name, create_table, screen

pytestmark = pytest.mark.e2e

CHAT_NEEDS_NAME = {"en": "Choose a name to chat.", "ru": "Чтобы писать в чат, выберите имя."}


@pytest.mark.parametrize(("size", "lang"), SCREENS)
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
