"""The research API's errors for a bad move text or slot name only the input and what the
agent to move may know (its own cards, the public ones): never another seat's hand or the
stock (``docs/rl.md``). Every ``slot_of`` and ``action_text`` path, both games, the
PettingZoo and the Gymnasium environments."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konkun.errors import KonkunError
from konkun.kunken.melds import card_text
from konkun.rl.envs import konchinka_env, konchinka_gym_env, kunken_env, kunken_gym_env

CARD = re.compile(r"(?<![0-9A-Za-z=])(?:10|[2-9TJQKA])[cdhs](?![a-z])")
BAD_TEXTS = ["Qd:", "Qd:Qd", "Qd:As:", "X", "zz", "", ":", "Qd:Zz", "10c:", "Kd:Kd7h",
             "draw", "take 99", "take 0 Qd", "meld", "meld Qd", "discard", "discard Zz",
             "swap", "swap 0", "layoff Qd 9", "layoff", "Ah Ah Ah", "take", "2c:2c2c"]
MAKERS = {"konchinka-aec": konchinka_env, "kunken-aec": kunken_env,
          "konchinka-gym": konchinka_gym_env, "kunken-gym": kunken_gym_env}


def _mover(env: Any) -> int:
    """The seat of the agent to act (PettingZoo's selection, or the Gymnasium agent's)."""
    deal = env.deal
    return int(deal.to_move)


def _hidden_cards(env: Any) -> set[str]:
    """Card texts the agent to move may not know: other seats' hands and the stock (less
    any copy it holds or that lies open)."""
    deal = env.deal
    seat = _mover(env)
    hidden = {text for other in range(deal.num_seats) if other != seat
              for text in _hand(deal, other)} | {_text(c) for c in deal.stock}
    shown = set(_hand(deal, seat))
    observation = deal.observe(seat)
    shown |= set(CARD.findall(str(observation)))
    return hidden - shown


def _text(card: Any) -> str:
    """A card's text (Konchinka's cards are objects, Kunken's numbers)."""
    return str(card.text) if hasattr(card, "text") else card_text(int(card))


def _hand(deal: Any, seat: int) -> list[str]:
    """A seat's card texts (Konchinka's ``hand(seat)``; Kunken's ``hands[seat]``, a count
    of each card number)."""
    if hasattr(deal, "hand"):
        return [_text(card) for card in deal.hand(seat)]
    return [card_text(number) for number, count in enumerate(deal.hands[seat]) if count]


def _errors_of(env: Any, text: str) -> list[str]:
    messages = []
    for call in (lambda: env.slot_of(text), lambda: env.action_text(text)):
        try:
            call()
        except (KonkunError, ValueError, TypeError) as error:
            messages.append(str(error))
    return messages


@settings(max_examples=25, deadline=None)
@given(maker=st.sampled_from(sorted(MAKERS)), seed=st.integers(0, 2**16),
       players=st.integers(2, 3), steps=st.integers(0, 30),
       garbage=st.text(st.sampled_from("23456789TJQKAcdhsX: 0meldrawtkiscp"), max_size=12))
def test_a_bad_move_text_or_slot_names_no_hidden_card(maker: str, seed: int, players: int,
                                                      steps: int, garbage: str) -> None:
    env = MAKERS[maker](players)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        slots = env.legal_slots()
        if not slots or env.deal is None or env.deal.to_move is None:
            break
        env.step(rng.choice(sorted(slots)))
    if env.deal is None or env.deal.to_move is None or not env.legal_slots():
        return
    hidden = _hidden_cards(env)
    legal = [env.action_text(slot) for slot in env.legal_slots()]
    texts = [*BAD_TEXTS, garbage, *(t + ":" for t in legal[:3]), *(t + "x" for t in legal[:3])]
    for text in texts:
        allowed = set(CARD.findall(text))
        for message in _errors_of(env, text):
            leaked = (set(CARD.findall(message)) & hidden) - allowed
            assert not leaked, (text, message)


@pytest.mark.parametrize("maker", sorted(MAKERS))
def test_konchinkas_slot_of_qd_colon_names_only_the_input(maker: str) -> None:
    env = MAKERS[maker](2)
    env.reset(seed=1)
    try:
        env.slot_of("Qd:")
    except KonkunError as error:
        message = str(error)
    else:
        pytest.skip("a legal move")
    assert "Qd:" in message
    assert not (set(CARD.findall(message)) & _hidden_cards(env)) - {"Qd"}, message
