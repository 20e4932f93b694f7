"""The :class:`Puzzle` value, the shipped puzzle file and the daily choice."""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from konkun.errors import KonkunError

GAMES: Final = ("konchinka", "kunken")
"""The games that have puzzles."""

SHIPPED: Final = "puzzles.json"
"""The shipped file's name inside this package."""


class PuzzleError(KonkunError, ValueError):
    """An unknown game or puzzle, or a puzzle file that cannot be read."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a position where one answer is the unique best.

    ``position`` is in the game's notation (KPN or KKN) with ``seat`` to move;
    ``solution`` the answer's move text (``Ad``, ``Qd:Kc``; ``take 3``); ``line`` the
    engine's line from the position, the answer first; ``values`` every other answer's
    exact worth where the game has one (Konchinka: each legal move's value, the deal's
    points for the mover minus the other's; Kunken: empty, every other take is illegal).
    """

    id: str
    game: str
    kind: str
    position: str
    seat: int
    solution: str
    line: tuple[str, ...]
    values: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The puzzle as JSON (the shipped file's entries and the API's answer)."""
        return {"id": self.id, "game": self.game, "kind": self.kind,
                "position": self.position, "seat": self.seat, "solution": self.solution,
                "line": list(self.line), "values": dict(self.values)}

    @classmethod
    def from_json(cls, data: Any) -> Puzzle:
        """Read :meth:`to_json`'s form; raise :class:`PuzzleError` naming what is off."""
        try:
            return cls(id=str(data["id"]), game=str(data["game"]), kind=str(data["kind"]),
                       position=str(data["position"]), seat=int(data["seat"]),
                       solution=str(data["solution"]),
                       line=tuple(str(m) for m in data["line"]),
                       values={str(k): int(v) for k, v in dict(data["values"]).items()})
        except (KeyError, TypeError, ValueError) as error:
            raise PuzzleError(f"invalid puzzle entry {data!r}: {error}") from None


def read_puzzles(path: Path) -> list[Puzzle]:
    """The puzzles of a file :func:`write_puzzles` wrote."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PuzzleError(f"cannot read puzzle file {str(path)!r}: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("puzzles"), list):
        raise PuzzleError(f"puzzle file {str(path)!r}: expected {{\"puzzles\": [...]}}")
    return [Puzzle.from_json(entry) for entry in data["puzzles"]]


def write_puzzles(path: Path, puzzles: list[Puzzle]) -> None:
    """Write ``puzzles`` as JSON, one entry a line (a readable diff when regenerated)."""
    lines = ",\n".join("  " + json.dumps(p.to_json(), ensure_ascii=False) for p in puzzles)
    path.write_text('{"puzzles": [\n' + lines + "\n]}\n", encoding="utf-8")


def shipped_path() -> Path:
    """The path of the shipped puzzle file."""
    return Path(str(resources.files("konkun.puzzles").joinpath(SHIPPED)))


@cache
def load_puzzles() -> tuple[Puzzle, ...]:
    """The shipped puzzles (read once)."""
    return tuple(read_puzzles(shipped_path()))


def check_game(game: str) -> str:
    """``game`` when it has puzzles; else :class:`PuzzleError`."""
    if game not in GAMES:
        raise PuzzleError(f"unknown game {game!r} for puzzles: expected "
                          f"{' or '.join(GAMES)}")
    return game


def puzzles_of(game: str, puzzles: tuple[Puzzle, ...] | None = None) -> list[Puzzle]:
    """The puzzles of ``game``, in the file's order."""
    check_game(game)
    return [p for p in (load_puzzles() if puzzles is None else puzzles) if p.game == game]


def daily_puzzle(game: str, day: datetime.date | None = None,
                 puzzles: tuple[Puzzle, ...] | None = None) -> Puzzle:
    """The puzzle of ``day`` (default: today, UTC) for ``game``: the same all day, the
    next one of the file the next day, round and round."""
    day = day or datetime.datetime.now(datetime.UTC).date()
    mine = puzzles_of(game, puzzles)
    if not mine:
        raise PuzzleError(f"no puzzles for {game!r}")
    return mine[day.toordinal() % len(mine)]


def puzzle_by_id(puzzle_id: str, puzzles: tuple[Puzzle, ...] | None = None) -> Puzzle:
    """The puzzle named ``puzzle_id``; :class:`PuzzleError` when there is none."""
    for p in load_puzzles() if puzzles is None else puzzles:
        if p.id == puzzle_id:
            return p
    raise PuzzleError(f"unknown puzzle {puzzle_id!r}")


def puzzle_board(puzzle: Puzzle) -> dict[str, Any]:
    """What a page draws of ``puzzle``: the engine's observation of the seat to move and,
    for a Konchinka endgame (perfect information), the other hand as well."""
    if puzzle.game == "konchinka":
        from konkun.konchinka.notation import parse_kpn

        deal = parse_kpn(puzzle.position)
        return {"observation": deal.observe(puzzle.seat).to_json(),
                "other_hand": [str(c) for c in deal.hand(1 - puzzle.seat)]}
    from konkun.kunken.kkn import parse_kkn
    from konkun.kunken.state import KunkenDeal

    kunken = KunkenDeal.from_position(parse_kkn(puzzle.position))
    return {"observation": kunken.observe(puzzle.seat).to_json()}


def puzzle_parts(puzzle: Puzzle) -> dict[str, Any]:
    """In Kunken, the parts of the answer and of each move of the line (docs/kunken.md,
    "Action parts"), so that a page tells them without reading action texts:
    ``solution_parts`` and ``line_parts`` (a ``take``'s card is the board's ``bank[bank]``);
    nothing in Konchinka."""
    if puzzle.game != "kunken":
        return {}
    from konkun.kunken.parts import text_parts

    return {"solution_parts": text_parts(puzzle.solution),
            "line_parts": [text_parts(m) for m in puzzle.line]}


__all__ = ["GAMES", "SHIPPED", "Puzzle", "PuzzleError", "check_game", "daily_puzzle",
           "load_puzzles", "puzzle_board", "puzzle_by_id", "puzzle_parts", "puzzles_of",
           "read_puzzles", "shipped_path", "write_puzzles"]
