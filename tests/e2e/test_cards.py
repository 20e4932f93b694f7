"""The project's own SVG cards: every face of the deck, the joker and the back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from konkun.cards import JOKER, standard_deck
from konkun.server.testing import ServerThread

from .pages import assert_no_page_errors, open_page, shot

pytestmark = pytest.mark.e2e

DRAW_ALL = """async ([cards, lang]) => {
  const { cardElement } = await import("/static/cards.js");
  const box = document.createElement("div");
  box.id = "gallery";
  box.className = "felt hand";
  for (const c of cards) box.appendChild(cardElement(c, { lang }));
  document.querySelector("main").replaceChildren(box);
  return [...box.querySelectorAll(".card")].map((n) => [n.dataset.card,
    n.getAttribute("aria-label"), n.querySelectorAll("svg path.suit").length]);
}"""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_card_of_the_deck_is_drawn_and_named(browser: Any, live_server: ServerThread,
                                                   artifacts: Path, lang: str) -> None:
    """RULES.md card text: 52 faces A..2 in c d h s, and the joker X; each face carries
    its suit drawn as SVG (pips: a 7 shows 7 centre pips plus the 2 corner suits)."""
    texts = [str(card) for card in standard_deck()] + [str(JOKER), "X=7d", "back"]
    page = open_page(browser, live_server.url)
    drawn = page.evaluate(DRAW_ALL, [texts, lang])
    assert [d[0] for d in drawn] == texts
    names = [d[1] for d in drawn]
    assert len(set(names[:52])) == 52
    suits = {d[0]: d[2] for d in drawn}
    assert suits["7h"] == 7 + 2
    assert suits["Tc"] == 10 + 2
    if lang == "ru":
        assert names[texts.index("Qd")] == "дама бубен"
    else:
        assert names[texts.index("Qd")] == "queen of diamonds"
    shot(page, artifacts, f"cards-{lang}")
    assert_no_page_errors(page)
