"""Helpers of the error-text property tests (issue 10, item 4; imported by
``test_error_texts.py`` and ``server/test_error_reasons.py``): the cards a seat may not
see, random bad inputs for a position, and the check that an error shows none of them.

An error may quote the input the seat typed (it names the cards the seat named); beyond
that it may name only the seat's own cards and public ones.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import strategies as st

from konkun.cards import standard_deck
from konkun.errors import KonkunError

CARD = re.compile(r"(?:10|[2-9TJQKA])[cdhs]")
JOKER_AS = re.compile(r"X=(?:10|[2-9TJQKA])[cdhs]")
"""A declared joker (Kunken ``X=6d``) names what the joker stands for, not where a real
card is: it is left out of the scan."""
ALL_CARDS = [c.text for c in standard_deck()]
KUNKEN_SHORT = {"hand_size": "6", "jokers": "2", "empty_stock": "end", "deals": "1"}
"""A short Kunken match: one deal of 6-card hands that ends when the stock runs out."""


def card_texts(text: str) -> set[str]:
    """Every card text in ``text`` (compact lists like ``As7h`` too), ``10`` read as ``T``."""
    return {c.replace("10", "T") for c in CARD.findall(JOKER_AS.sub("X", text))}


def hidden_cards(deal: Any, seat: int) -> set[str]:
    """The card texts ``seat`` may not see in ``deal`` (either game)."""
    if hasattr(deal, "kpn"):
        secret = {c.text for s, hand in enumerate(deal.hands) if s != seat for c in hand}
        secret |= {c.text for c in deal.stock}
        return secret - {c.text for c, _low in deal.returned_to_stock}
    full: dict[str, Any] = deal.to_json()  # Kunken: two decks, so a text may be seen
    hands = full["hands"]
    secret = {c for s, hand in enumerate(hands) if s != seat for c in card_texts(str(hand))}
    secret |= card_texts(str(full["stock"]))
    seen = card_texts(str(hands[seat]))
    for key in ("bank", "melds", "taken_held", "history"):
        seen |= card_texts(str(full[key]))
    return secret - seen


def leaked(message: str, typed: str, hidden: set[str]) -> set[str]:
    """The hidden cards ``message`` names beyond those of the input ``typed``."""
    return (card_texts(message) - card_texts(typed)) & hidden


def assert_shows_no_hidden_card(message: str, typed: str, hidden: set[str]) -> None:
    """Fail when an error ``message`` for input ``typed`` names a hidden card."""
    assert message, f"an empty error for {typed!r}"
    shown = leaked(message, typed, hidden)
    assert not shown, f"the error for {typed!r} shows hidden cards {sorted(shown)}: {message}"


def error_of(deal: Any, text: str) -> KonkunError | None:
    """The error ``deal`` raises for the input ``text`` (parsed, then played on a copy),
    or ``None`` when the text is a legal action."""
    trial = deal.copy()
    try:
        trial.play(trial.parse_action(text))
    except KonkunError as error:
        return error
    return None


TEXT = st.text(alphabet="AKQJT1098765432cdhsX=: ,-xyz", max_size=14)
WORDS = ["draw", "take", "discard", "meld", "layoff", "swap", "X", "X=7d", "0", "1", "2", "9"]


@st.composite
def bad_inputs(draw: st.DrawFn, deal: Any, seat: int) -> list[str]:
    """Bad inputs of every kind for the seat to move: random text, wrong sums, cards not
    in the hand, cards of other seats and of the stock (those that happen to be legal are
    dropped)."""
    hidden = sorted(hidden_cards(deal, seat))
    if hasattr(deal, "kpn"):
        texts = _konchinka_inputs(draw, deal, seat, hidden)
    else:
        texts = _kunken_inputs(draw, deal, seat, hidden)
    return [t for t in texts if error_of(deal, t) is not None]


def _konchinka_inputs(draw: st.DrawFn, deal: Any, seat: int, hidden: list[str]) -> list[str]:
    observation = deal.observe(seat)
    mine = [c.text for c in observation.hand]
    table = [c.text for c in observation.table]
    off_table = [c for c in ALL_CARDS if c not in table]
    own = draw(st.sampled_from(mine))
    texts = [draw(TEXT), draw(TEXT) + ":" + draw(TEXT), f"{own}:{draw(st.sampled_from(off_table))}"]
    if table:
        taken = draw(st.lists(st.sampled_from(table), min_size=1, max_size=4, unique=True))
        texts.append(f"{own}:{''.join(taken)}")  # often a wrong sum
    if hidden:
        other = draw(st.sampled_from(hidden))
        texts += [other, f"{other}:{''.join(table)}", f"{own}:{other}{''.join(table[:2])}"]
    return texts


def _kunken_inputs(draw: st.DrawFn, deal: Any, seat: int, hidden: list[str]) -> list[str]:
    mine = sorted(card_texts(str(deal.to_json()["hands"][seat]))) or ["2c"]
    cards = st.sampled_from(mine + hidden + ALL_CARDS[:4])
    numbers = st.integers(0, 12).map(str)
    words = st.lists(st.sampled_from(WORDS) | cards | numbers, max_size=5).map(" ".join)
    texts = [draw(TEXT), draw(words), f"take {draw(numbers)}",
             f"discard {draw(cards)}", "meld " + " ".join(draw(st.lists(cards, min_size=1,
                                                                          max_size=4))),
             f"layoff {draw(numbers)} {draw(cards)}", f"swap {draw(numbers)} {draw(cards)}"]
    if hidden:
        other = draw(st.sampled_from(hidden))
        texts += [f"discard {other}", f"meld {other} {mine[0]} {mine[-1]}",
                  f"layoff 0 {other}", f"swap 0 {other}"]
    return texts
