"""Every bot the lobby offers (GET /api/bots) is named with a capital in both of the
page's languages: by the server's own names (the strength ladder's levels), else by the
page's word for its kind (``bot.<kind>`` in i18n.js, which tests/js/log_words.test.js
shows the page uses). This was the lobby half of the browser test
test_the_kunken_log_tells_moves_in_the_past_and_bots_are_named_alike."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.testclient import TestClient

import konkun.server

PAGE_TEXTS = Path(konkun.server.__file__).parent / "static" / "i18n.js"


def _capitalized(name: str) -> bool:
    """Whether ``name`` begins with a capital letter."""
    return name[:1].isupper()


def test_every_offered_bot_is_named_with_a_capital_in_both_languages(
        client: TestClient) -> None:
    texts = PAGE_TEXTS.read_text(encoding="utf-8")
    bots = client.get("/api/bots").json()["bots"]
    assert len(bots) > 1
    for bot in bots:
        if "names" in bot:
            names = [bot["names"]["en"], bot["names"]["ru"]]
        else:  # the page's word for the kind, once in English and once in Russian
            names = re.findall(rf'"bot\.{re.escape(bot["spec"])}": "([^"]*)"', texts)
            assert len(names) == 2, (bot["spec"], names)
        assert all(_capitalized(name) for name in names), (bot["spec"], names)
