"""The guided first games: each taught move is legal when its step comes, only it is
accepted, and after the steps the deal is played freely to its end."""

from __future__ import annotations

import random
import re

import pytest

from konkun.learn import LessonError, NotTaughtError, load_lesson, replay
from konkun.learn.lesson import GAMES, LANGUAGES


@pytest.mark.parametrize("game", GAMES)
def test_every_taught_move_is_legal_when_its_step_comes(game: str) -> None:
    lesson = load_lesson(game)
    for i, step in enumerate(lesson.steps):
        run = replay(lesson, [s.move for s in lesson.steps[:i]])
        assert run.step == step
        assert run.deal.to_move == lesson.seat
        assert run.deal.is_legal(run.deal.parse_action(step.move))
        view = run.view()
        assert view["expect"] == step.move and view["say"] == step.say


@pytest.mark.parametrize("game", GAMES)
def test_every_lesson_text_is_given_in_both_languages(game: str) -> None:
    lesson = load_lesson(game)
    texts = [lesson.intro, lesson.free, lesson.done, *(s.say for s in lesson.steps)]
    for text in texts:
        assert sorted(text) == sorted(LANGUAGES)
        assert re.search("[A-Za-z]", text["ru"]) is None, text["ru"]  # Russian only
        assert re.search("[А-Яа-яЁё]", text["en"]) is None, text["en"]


@pytest.mark.parametrize("game", GAMES)
def test_only_the_taught_move_is_accepted(game: str) -> None:
    lesson = load_lesson(game)
    refused = 0
    for i, step in enumerate(lesson.steps):
        before = [s.move for s in lesson.steps[:i]]
        run = replay(lesson, before)
        for other in run.deal.legal_actions():
            if other != run.deal.parse_action(step.move):
                with pytest.raises(NotTaughtError, match="teaches"):
                    replay(lesson, [*before, run.deal.format_action(other)])
                refused += 1
    assert refused > len(lesson.steps)


def test_an_unreadable_or_illegal_move_is_a_lesson_error_naming_it() -> None:
    lesson = load_lesson("konchinka")
    with pytest.raises(LessonError, match="'zz'"):
        replay(lesson, ["zz"])
    steps = [s.move for s in lesson.steps]
    with pytest.raises(LessonError, match="'As'"):
        replay(lesson, [*steps, "As"])


@pytest.mark.parametrize("game", GAMES)
def test_after_the_steps_the_deal_is_played_freely_to_its_end(game: str) -> None:
    lesson = load_lesson(game)
    moves = [s.move for s in lesson.steps]
    rng = random.Random(7)
    run = replay(lesson, moves)
    assert run.step is None and run.view()["say"] == lesson.free
    while not run.deal.is_over():
        legal = run.deal.legal_actions()
        # a plain player: lays down what it can, else plays at random
        choice = next((a for a in legal if run.deal.format_action(a).startswith("meld")),
                      rng.choice(legal))
        moves.append(run.deal.format_action(choice))
        run = replay(lesson, moves)
    assert run.view()["over"] is True and run.view()["say"] == lesson.done
