"""The site as a player of a game site expects it (issue 12), in a real browser, at a
desktop (1366×800) and a phone (390×844) size, in Russian and in English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from konkun.server.protocol import HTTP_STATUS
from konkun.server.testing import ServerThread

from .pages import assert_no_page_errors, open_page, shot

pytestmark = pytest.mark.e2e

SIZES = {"desktop": (1366, 800), "phone": (390, 844)}
LOCALES = {"en": "en-US", "ru": "ru-RU"}
SCREENS = [(size, lang) for size in SIZES for lang in LOCALES]
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"

NAME_OF_SPACES = {"en": "cannot be empty or only spaces", "ru": "не может быть пустым"}
NO_SUCH_TABLE = {"en": "There is no such table.", "ru": "Такого стола нет."}


def screen(browser: Any, url: str, size: str, lang: str) -> Any:
    """A page of ``url`` at one of the two sizes, in one of the two languages."""
    width, height = SIZES[size]
    return open_page(browser, url, locale=LOCALES[lang], width=width, height=height)


def test_every_server_error_code_has_a_text_in_both_languages(
        browser: Any, live_server: ServerThread) -> None:
    """docs/protocol.md: the page shows a player's text for every error code the server
    sends, in Russian and in English, and never the server's own (developer) message."""
    page = open_page(browser, live_server.url)
    texts = page.evaluate("""async (codes) => {
        const i18n = await import("/static/i18n.js");
        const out = {};
        for (const lang of ["en", "ru"]) {
            i18n.setLang(lang);
            out[lang] = Object.fromEntries(codes.map((c) => [c, i18n.errorText(c)]));
        }
        return out;
    }""", sorted(HTTP_STATUS))
    for lang in ("en", "ru"):
        for code, text in texts[lang].items():
            assert code not in text, (lang, code, text)  # a real text, not the fallback
            assert len(text) > 8, (lang, code, text)
    assert texts["en"]["stale_turn"] != texts["ru"]["stale_turn"]
    assert_no_page_errors(page)


@pytest.mark.parametrize(("size", "lang"), SCREENS)
def test_names_of_spaces_are_explained_and_emoji_names_taken(
        browser: Any, live_server: ServerThread, artifacts: Path, size: str, lang: str) -> None:
    """A name of spaces gets a clear error in the page's language; a family emoji (one
    character of five code points) is a fine name; a server error reaches the player as
    a text of its code (an unknown table)."""
    page = screen(browser, live_server.url, size, lang)
    page.fill("#nickname", "    ")
    page.click("#save-name")
    expect(page.locator("#name-error")).to_contain_text(NAME_OF_SPACES[lang])
    shot(page, artifacts, f"site-01-name-of-spaces-{size}-{lang}")
    page.fill("#nickname", f"Маша {FAMILY}")
    page.click("#save-name")
    expect(page.locator(".whoami")).to_have_text(f"Маша {FAMILY}")
    page.goto(f"{live_server.url}/t/nosuchtable")
    expect(page.locator(".toast.error")).to_have_text(f"{NO_SUCH_TABLE[lang]}×")
    shot(page, artifacts, f"site-02-unknown-table-{size}-{lang}")
    assert_no_page_errors(page)
