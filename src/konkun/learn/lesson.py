"""Lessons: the scripted first deal of a game, replayed from the player's moves.

A lesson file (``konchinka.json``, ``kunken.json`` in this package) holds the seed and the
dealer of a two-seat deal with default rules, the player's seat, an introduction, the taught
moves (each with what to do and why, in English and Russian) and the text of the free
play that follows. :func:`replay` deals the seed, lets the ``greedy`` bot (its own random
source, seeded from the lesson) play the other seat, and applies the player's moves in
order: while steps remain, only the taught move is accepted; then any legal move is.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from konkun.bots.base import Budget
from konkun.bots.specs import create_bot
from konkun.errors import KonkunError
from konkun.game import Deal
from konkun.konchinka.dealing import deal_from_seed
from konkun.konchinka.rules import KonchinkaRules
from konkun.kunken.melds import card_text
from konkun.kunken.parts import text_parts
from konkun.kunken.rules import KunkenRules
from konkun.kunken.state import KunkenDeal, new_deal

GAMES: Final = ("konchinka", "kunken")
"""The games that have a lesson."""

LANGUAGES: Final = ("en", "ru")
"""Every lesson text is given in each of these."""

MAX_MOVES: Final = 600
"""The most moves a lesson replay takes (a whole Kunken deal needs far fewer)."""


class LessonError(KonkunError, ValueError):
    """An unknown lesson, a lesson file that does not hold, or a move that cannot be
    played (its message names the move)."""


class NotTaughtError(LessonError):
    """A legal move that is not the one the step teaches."""


Texts = dict[str, str]


@dataclass(frozen=True)
class Step:
    """One taught move: its text in the game's notation and what the page says."""

    move: str
    say: Texts


@dataclass(frozen=True)
class Lesson:
    """A game's lesson (see the module documentation)."""

    game: str
    seed: int
    dealer: int
    seat: int
    intro: Texts
    steps: tuple[Step, ...]
    free: Texts
    done: Texts


def _texts(data: Any, what: str) -> Texts:
    if not isinstance(data, dict) or any(not isinstance(data.get(k), str) or not data[k]
                                         for k in LANGUAGES):
        raise LessonError(f"lesson text {what}: expected a text for each of {LANGUAGES}")
    return {k: data[k] for k in LANGUAGES}


@cache
def load_lesson(game: str) -> Lesson:
    """The lesson of ``game`` (read once); :class:`LessonError` for an unknown game."""
    if game not in GAMES:
        raise LessonError(f"no lesson for {game!r}: expected {' or '.join(GAMES)}")
    text = resources.files("konkun.learn").joinpath(f"{game}.json").read_text("utf-8")
    data = json.loads(text)
    try:
        return Lesson(game=game, seed=int(data["seed"]), dealer=int(data["dealer"]),
                      seat=int(data["seat"]), intro=_texts(data["intro"], "intro"),
                      steps=tuple(Step(str(s["move"]), _texts(s["say"], f"step {i}"))
                                  for i, s in enumerate(data["steps"])),
                      free=_texts(data["free"], "free"), done=_texts(data["done"], "done"))
    except (KeyError, TypeError, ValueError) as error:
        raise LessonError(f"lesson file {game}.json: {error}") from None


def new_lesson_deal(lesson: Lesson) -> Deal[Any]:
    """The lesson's deal, before any move."""
    if lesson.game == "konchinka":
        return deal_from_seed(KonchinkaRules(), 2, lesson.dealer, lesson.seed)
    return new_deal(KunkenRules(), 2, lesson.dealer, random.Random(lesson.seed))


@dataclass
class LessonRun:
    """A lesson replayed up to now: the deal, the moves the bot made since the player's
    last move, the number of the player's moves played and, in Kunken, the bank before
    the bot's moves."""

    lesson: Lesson
    deal: Deal[Any]
    bot_moves: list[str]
    played: int
    bank_before_bot: tuple[str, ...] = ()

    @property
    def step(self) -> Step | None:
        """The step the player is on, or ``None`` in free play."""
        steps = self.lesson.steps
        return steps[self.played] if self.played < len(steps) else None

    def view(self) -> dict[str, Any]:
        """What the page shows: the player's seat's observation (the engine's own, no
        hidden card), the step, its texts and the bot's last moves."""
        step = self.step
        over = self.deal.is_over()
        if over:
            say = self.lesson.done
        elif step is not None:
            say = step.say
        else:
            say = self.lesson.free
        return {"game": self.lesson.game, "seat": self.lesson.seat,
                "observation": self.deal.observe(self.lesson.seat).to_json(),
                "step": self.played if step is not None else None,
                "steps": len(self.lesson.steps), "expect": step.move if step else None,
                "intro": self.lesson.intro, "say": say, "bot_moves": self.bot_moves,
                "played": self.played, "over": over} | self.kunken_parts()

    def kunken_parts(self) -> dict[str, Any]:
        """In Kunken, the parts of the taught action and of the bot's moves (docs/kunken.md,
        "Action parts"), so that the page tells them and marks what to click without
        reading action texts: ``expect_parts`` (``None`` in free play), ``bot_parts`` and
        ``bot_bank`` (the bank the bot's moves started from: a ``take``'s card is
        ``bot_bank[bank]``); nothing in Konchinka."""
        if self.lesson.game != "kunken":
            return {}
        step = self.step
        return {"expect_parts": text_parts(step.move) if step else None,
                "bot_parts": [text_parts(m) for m in self.bot_moves],
                "bot_bank": list(self.bank_before_bot)}


def _bot_turns(deal: Deal[Any], seat: int, rng: random.Random) -> list[str]:
    """Let the bot move until it is ``seat``'s turn or the deal is over."""
    bot = create_bot("greedy", deal.observe(seat).to_json()["game"])
    moves: list[str] = []
    while not deal.is_over() and deal.to_move != seat:
        mover = deal.to_move
        assert mover is not None
        action = bot.choose(deal.observe(mover), deal.legal_actions(), rng, Budget())
        moves.append(deal.format_action(action))
        deal.play(action)
    return moves


def _bank(deal: Deal[Any]) -> tuple[str, ...]:
    """The bank's cards of a Kunken deal, oldest first (``()`` for Konchinka)."""
    return tuple(card_text(k) for k in deal.bank) if isinstance(deal, KunkenDeal) else ()


def _same(deal: Deal[Any], action: Any, taught: str) -> bool:
    """Whether ``action`` is the taught move (a meld's cards in any order)."""
    return bool(action == deal.parse_action(taught)) or \
        sorted(deal.format_action(action).split()) == sorted(taught.split())


def replay(lesson: Lesson, moves: list[str]) -> LessonRun:
    """The lesson after the player's ``moves`` (with the bot's replies); raise
    :class:`NotTaughtError` for a move other than a step's, :class:`LessonError` for a move
    that cannot be read or played."""
    if len(moves) > MAX_MOVES:
        raise LessonError(f"{len(moves)} moves: a lesson takes at most {MAX_MOVES}")
    deal = new_lesson_deal(lesson)
    rng = random.Random(lesson.seed + 1000)
    bank = _bank(deal)
    bot_moves = _bot_turns(deal, lesson.seat, rng)
    for i, text in enumerate(moves):
        if deal.is_over():
            raise LessonError(f"move {i + 1} {text!r}: the deal is over")
        try:
            action = deal.parse_action(text)
        except KonkunError as error:
            raise LessonError(f"move {i + 1} {text!r}: {error}") from None
        if i < len(lesson.steps) and not _same(deal, action, lesson.steps[i].move):
            raise NotTaughtError(f"move {i + 1} {text!r}: this step teaches "
                                 f"{lesson.steps[i].move!r}")
        problem = deal.why_illegal(action)
        if problem is not None:
            raise LessonError(f"move {i + 1} {text!r} is not legal: {problem}")
        deal.play(action)
        bank = _bank(deal)
        bot_moves = _bot_turns(deal, lesson.seat, rng)
    return LessonRun(lesson, deal, bot_moves, len(moves), bank)


__all__ = ["GAMES", "LANGUAGES", "MAX_MOVES", "Lesson", "LessonError", "LessonRun",
           "NotTaughtError", "Step", "load_lesson", "new_lesson_deal", "replay"]
