"""A game in the terminal without the terminal: the match, the human's seat, the bots, the
log of what happened, saving and resuming. The Textual app (:mod:`konkun.tui.app`) only
draws a :class:`PlaySession` and forwards keys to it, so all of this is testable alone."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from konkun.errors import IllegalMoveError, InvalidNotationError, InvalidRuleError, KonkunError
from konkun.game import Match
from konkun.tui.games import DEFAULT_BOT, load_match, make_agent, new_match

SAVE_FORMAT = "konkun-save/1"
"""The ``format`` field of a save file: ``{"format", "game", "human", "bots", "record"}``."""


@dataclass
class PlaySession:
    """One match in progress: ``human`` plays one seat, ``bots`` (spec texts) the others."""

    game: str
    match: Match[Any]
    human: int
    bots: list[str]
    seed: int | str
    log: list[str] = field(default_factory=list)
    result: str | None = None
    """The last deal's result (and the game's, once over) until the human's next move."""
    _agents: dict[int, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        human, seats = self.human, self.match.num_seats
        if isinstance(human, bool) or not isinstance(human, int) or not 0 <= human < seats:
            raise InvalidRuleError(f"invalid human seat {human!r}: expected a seat 0..{seats - 1} "
                                   f"for {seats} players")
        others = [s for s in range(seats) if s != human]
        if len(self.bots) != len(others):
            raise InvalidRuleError(
                f"invalid bots {','.join(self.bots)!r}: expected {len(others)} specs "
                f"(or one for all) for {self.match.num_seats} players")
        rng = random.Random(f"{self.seed}/bots")
        for seat, spec in zip(others, self.bots, strict=True):
            self._agents[seat] = make_agent(spec, self.game, rng.getrandbits(63))

    @classmethod
    def new(cls, game: str, players: int = 2, bots: Sequence[str] = (),
            rules: dict[str, str] | None = None, seed: int | str | None = None,
            human: int = 0) -> PlaySession:
        """Start a new match; ``bots`` is one spec per bot seat, or one for all."""
        match, used_seed = new_match(game, players, rules or {}, seed)
        return cls(game, match, human, _expand(list(bots) or [DEFAULT_BOT], players), used_seed)

    @classmethod
    def resume(cls, path: str | Path, bots: Sequence[str] = ()) -> PlaySession:
        """Resume a match from a save file (or from a bare match record)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise InvalidNotationError(f"cannot read save file {str(path)!r}: {error}") from None
        if not isinstance(data, dict):
            raise InvalidNotationError(f"invalid save file {str(path)!r}: not a JSON object")
        record = data.get("record", data)
        actions = record.get("actions") if isinstance(record, dict) else None
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise InvalidNotationError(f"invalid save file {str(path)!r}: its record has no "
                                       "list of action texts")
        match, game, seed = load_match({**record, "actions": []})
        human = data.get("human", 0)
        specs = list(bots) or list(data.get("bots", [])) or [DEFAULT_BOT]
        session = cls(game, match, human, _expand(specs, match.num_seats), seed)
        session._replay(actions, path)
        session.log.append(f"resumed from {path}")
        return session

    def _replay(self, actions: list[str], path: str | Path) -> None:
        """Play a saved record's actions again, so the log holds every move as if it had
        been played here (whose move it was, each deal's result)."""
        for number, text in enumerate(actions):
            deal = self.match.deal
            try:
                if self.match.is_over() or deal.to_move is None:
                    raise IllegalMoveError("the match is already over")
                self._apply(deal.to_move, deal.parse_action(text))
            except KonkunError as error:
                raise InvalidNotationError(f"invalid save file {str(path)!r}: action "
                                           f"{number} {text!r}: {error.reason}") from None

    def save(self, path: str | Path) -> None:
        """Write the save file: the match record plus who plays which seat."""
        data = {"format": SAVE_FORMAT, "game": self.game, "human": self.human,
                "bots": self.bots, "record": self.match.record().to_json()}
        Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        self.log.append(f"saved to {path}")

    @property
    def num_seats(self) -> int:
        """How many seats play."""
        return self.match.num_seats

    def seat_name(self, seat: int) -> str:
        """``You`` for the human, else the bot's spec with its seat."""
        if seat == self.human:
            return "You"
        return f"{self.bots[sorted(self._agents).index(seat)]} ({seat})"

    def is_over(self) -> bool:
        """True once the match has ended."""
        return self.match.is_over()

    def human_to_move(self) -> bool:
        """True when the match waits for the human."""
        return not self.match.is_over() and self.match.deal.to_move == self.human

    def legal(self) -> list[Any]:
        """The human's legal actions (empty when it is not the human's turn)."""
        if not self.human_to_move():
            return []
        return self.match.deal.observe(self.human).legal_actions()

    def format(self, action: Any) -> str:
        """The text of an action."""
        return self.match.deal.format_action(action)

    def play(self, action: Any) -> None:
        """Play the human's action (validated)."""
        if not self.human_to_move():
            raise IllegalMoveError(f"not your turn: cannot play {self.format(action)!r}")
        self.result = None
        self._apply(self.human, action)

    def play_text(self, text: str) -> Any:
        """Parse and play the human's typed move (validated); return the action. Show the
        human an error's ``reason``: its ``str()`` may add the position, hidden cards and
        all."""
        action = self.match.deal.parse_action(text)
        self.play(action)
        return action

    def bot_choice(self) -> tuple[int, Any] | None:
        """The seat of the bot to move and the action it chooses, without playing it
        (``None`` when no bot is to move); safe to call from a worker thread."""
        if self.match.is_over():
            return None
        seat = self.match.deal.to_move
        if seat is None or seat == self.human:
            return None
        return seat, self._agents[seat].act(self.match.deal)

    def play_bot(self, seat: int, action: Any) -> None:
        """Play the action a bot chose (see :meth:`bot_choice`)."""
        if self.match.is_over() or self.match.deal.to_move != seat:
            raise IllegalMoveError(f"seat {seat} is not to move: cannot play "
                                   f"{self.format(action)!r}")
        self._apply(seat, action)

    def bot_move(self) -> bool:
        """Play one bot move if a bot is to move; return whether one was played."""
        choice = self.bot_choice()
        if choice is None:
            return False
        self.play_bot(*choice)
        return True

    def run_bots(self) -> None:
        """Let the bots play until the human is to move or the match ends."""
        while self.bot_move():
            pass

    def _apply(self, seat: int, action: Any) -> None:
        deals_before = len(self.match.deal_points)
        text = self.format(action)
        self.match.play(action)
        self.log.append(f"{self.seat_name(seat)}: {text}")
        results: list[str] = []
        finished = self.match.deal_points[deals_before:]
        for number, points in enumerate(finished, start=deals_before + 1):
            shown = ", ".join(f"{self.seat_name(s)} {p:+d}" for s, p in enumerate(points))
            results.append(f"deal {number} over: {shown}")
        if self.match.is_over():
            winner = self.match.winner()
            results.append("game over: " + (
                "no winner" if winner is None else f"{self.seat_name(winner)} won"))
        self.log.extend(results)
        if results:
            self.result = "; ".join(results)

    def score_sheet(self) -> list[list[int]]:
        """Each seat's column of running totals, one entry per finished deal."""
        columns: list[list[int]] = [[] for _ in range(self.num_seats)]
        totals = [0] * self.num_seats
        for points in self.match.deal_points:
            for seat, p in enumerate(points):
                totals[seat] += p
                columns[seat].append(totals[seat])
        return columns


def _expand(specs: list[str], seats: int) -> list[str]:
    """One spec per bot seat: a single spec stands for all of them."""
    return specs * (seats - 1) if len(specs) == 1 else specs
