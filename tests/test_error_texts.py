"""No error text holds a card the seat cannot see (issue 10, item 4): over random
positions of both games and random bad inputs (random text, wrong sums, cards not in the
hand, cards of other seats and of the stock), the engines' reasons, the terminal and the
RL environments show a seat nothing but its input, its own cards and public cards. The
server's messages are checked by ``server/test_error_reasons.py``.

``str()`` of an engine error may add the position (the command line, where the user typed
it); that is not shown to a seat and is not checked here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from error_checks import (
    KUNKEN_SHORT,
    assert_shows_no_hidden_card,
    bad_inputs,
    error_of,
    hidden_cards,
)
from konkun.cards import choice
from konkun.errors import IllegalMoveError, KonkunError
from konkun.rl.envs import konchinka_env, konchinka_gym_env, kunken_env
from konkun.tui.session import PlaySession

SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = st.sampled_from([("konchinka", 2), ("konchinka", 3), ("konchinka", 4),
                         ("kunken", 2), ("kunken", 3)])


@st.composite
def sessions(draw: st.DrawFn) -> PlaySession:
    """A terminal game at a random position where the human (seat 0) is to move."""
    game, seats = draw(GAMES)
    rules = KUNKEN_SHORT if game == "kunken" else {"variant": draw(
        st.sampled_from(["classic", "novo"]))}
    seed = draw(st.integers(0, 2**32) | st.text(max_size=6))
    session = PlaySession.new(game, seats, ["random"], rules, seed)
    chooser = random.Random(draw(st.integers(0, 2**16)))
    for _ in range(draw(st.integers(0, 40))):
        if session.is_over():
            break
        if session.human_to_move():
            session.play(choice(session.legal(), chooser))
        else:
            session.bot_move()
    session.run_bots()
    assume(session.human_to_move())
    return session


@SLOW
@given(session=sessions(), data=st.data())
def test_an_engine_reason_names_no_card_the_seat_cannot_see(
        session: PlaySession, data: st.DataObject) -> None:
    """The reason depends on nothing the seat cannot see: it names none of the hidden
    cards, and it is the same in any deal the seat cannot tell from this one."""
    deal, seat = session.match.deal, session.human
    hidden = hidden_cards(deal, seat)
    other = deal.observe(seat).sample_deal(random.Random(data.draw(st.integers(0, 99))))
    for text in data.draw(bad_inputs(deal, seat)):
        error = error_of(deal, text)
        assert error is not None
        assert_shows_no_hidden_card(error.reason, text, hidden)
        again = error_of(other, text)
        assert again is not None and again.reason == error.reason, text


@SLOW
@given(session=sessions(), data=st.data())
def test_a_terminal_error_names_no_card_the_seat_cannot_see(
        session: PlaySession, data: st.DataObject) -> None:
    """What ``konkun play`` shows for a typed bad move (``PlaySession.play_text``'s error,
    whose ``reason`` the app shows; tests/tui/test_tui_errors.py types them in the app)."""
    deal, seat = session.match.deal, session.human
    hidden = hidden_cards(deal, seat)
    before = session.match.record().to_json()
    for text in data.draw(bad_inputs(deal, seat)):
        with pytest.raises(KonkunError) as caught:
            session.play_text(text)
        assert_shows_no_hidden_card(caught.value.reason, text, hidden)
    assert session.match.record().to_json() == before  # nothing was played


RL_ENVS = st.sampled_from([("konchinka", 2), ("konchinka", 4), ("kunken", 2)])


def _rl_env(game: str, seats: int) -> Any:
    return konchinka_env(seats) if game == "konchinka" else kunken_env(seats, KUNKEN_SHORT)


@settings(max_examples=25, deadline=None)
@given(game=RL_ENVS, seed=st.integers(0, 2**16), steps=st.integers(0, 30),
       bad=st.lists(st.integers(-3, 5000) | st.none() | st.text(max_size=4)
                    | st.floats(allow_nan=False), min_size=1, max_size=6))
def test_an_rl_env_error_names_no_card_the_agent_cannot_see(
        game: tuple[str, int], seed: int, steps: int, bad: list[Any]) -> None:
    """The PettingZoo environment: an action outside the mask."""
    env = _rl_env(*game)
    env.reset(seed=seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        if not env.agents or env.deal.is_over():
            break
        env.step(chooser.choice(sorted(env.legal_slots())))
    assume(env.agents and not env.deal.is_over())
    seat = int(env.agent_selection.rsplit("_", 1)[1])
    hidden = hidden_cards(env.deal, seat)
    for action in bad:
        if isinstance(action, int | float | str) and _slot(action) in env.legal_slots():
            continue
        with pytest.raises(IllegalMoveError) as caught:
            env.step(action)
        typed = f"{action!s} {action!r}"  # the error may quote the input either way
        assert_shows_no_hidden_card(caught.value.reason, typed, hidden)
        assert_shows_no_hidden_card(str(caught.value), typed, hidden)


def _slot(action: int | float | str) -> int | None:
    try:
        return int(action)
    except (ValueError, OverflowError):  # the environment refuses it as well
        return None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**16), bad=st.integers(-3, 5000))
def test_a_gymnasium_env_error_names_no_card_the_agent_cannot_see(seed: int, bad: int) -> None:
    env = konchinka_gym_env(2, illegal_action="raise")
    env.reset(seed=seed)
    assume(bad not in env.legal_slots())
    hidden = hidden_cards(env.deal, env.seat)
    with pytest.raises(IllegalMoveError) as caught:
        env.step(bad)
    assert_shows_no_hidden_card(caught.value.reason, str(bad), hidden)
    assert_shows_no_hidden_card(str(caught.value), str(bad), hidden)
