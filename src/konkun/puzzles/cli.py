"""``konkun puzzles``: ``generate`` writes the puzzle file offline (the server only serves
it); ``check`` proves each puzzle's answer is the unique best by the engine's exact search;
``daily`` prints a game's puzzle of the day."""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path
from typing import Any

from konkun.puzzles import konchinka, kunken
from konkun.puzzles.collection import (
    GAMES,
    Puzzle,
    PuzzleError,
    daily_puzzle,
    read_puzzles,
    shipped_path,
    write_puzzles,
)

GENERATORS = {"konchinka": konchinka.generate, "kunken": kunken.generate_both}
CHECKS = {"konchinka": konchinka.check_puzzle, "kunken": kunken.check_puzzle}


def check(puzzle: Puzzle) -> str | None:
    """Why ``puzzle`` is unsound (its game's check), or ``None``."""
    return CHECKS[puzzle.game](puzzle)


def _generate(args: argparse.Namespace) -> int:
    games = GAMES if args.game == "all" else (args.game,)
    if args.count < 1:
        raise PuzzleError(f"invalid --count {args.count}: expected a whole number >= 1")
    puzzles: list[Puzzle] = []
    for game in games:
        started = time.process_time()
        found = GENERATORS[game](args.count, args.seed)
        seconds = time.process_time() - started
        rate = len(found) / seconds * 60 if seconds > 0 else float("inf")
        print(f"{game}: {len(found)} puzzles in {seconds:.1f} CPU seconds "
              f"({rate:.0f} per CPU minute)", file=sys.stderr)
        puzzles.extend(found)
    out = Path(args.out) if args.out else shipped_path()
    write_puzzles(out, puzzles)
    print(f"wrote {len(puzzles)} puzzles to {out}")
    return 0


def _check(args: argparse.Namespace) -> int:
    path = Path(args.file) if args.file else shipped_path()
    bad = 0
    for puzzle in read_puzzles(path):
        problem = check(puzzle)
        if problem is not None:
            bad += 1
            print(f"{puzzle.id}: {problem}")
    print(f"{bad} unsound puzzles" if bad else "every puzzle sound")
    return 1 if bad else 0


def _daily(args: argparse.Namespace) -> int:
    day = None
    if args.date:
        try:
            day = datetime.date.fromisoformat(args.date)
        except ValueError:
            raise PuzzleError(f"invalid --date {args.date!r}: expected YYYY-MM-DD") from None
    print(json.dumps(daily_puzzle(args.game, day).to_json(), ensure_ascii=False))
    return 0


def register(subparsers: Any) -> None:
    """Add ``konkun puzzles generate|check|daily``."""
    parser = subparsers.add_parser("puzzles", help="generate, check and show puzzles",
                                   description="Puzzles found by the engines' exact tools.")
    sub = parser.add_subparsers(dest="puzzles_command", metavar="COMMAND",
                                parser_class=type(parser))
    gen = sub.add_parser("generate", help="find puzzles and write the puzzle file")
    gen.add_argument("--game", choices=[*GAMES, "all"], default="all")
    gen.add_argument("--count", type=int, default=60, help="puzzles per game (60)")
    gen.add_argument("--seed", type=int, default=1, help="the first deal's seed (1)")
    gen.add_argument("--out", help="the file to write (default: the shipped file)")
    gen.set_defaults(handler=_generate)
    chk = sub.add_parser("check", help="check every puzzle's answer by exact search")
    chk.add_argument("file", nargs="?", help="a puzzle file (default: the shipped one)")
    chk.set_defaults(handler=_check)
    day = sub.add_parser("daily", help="print a game's puzzle of the day as JSON")
    day.add_argument("--game", choices=GAMES, required=True)
    day.add_argument("--date", help="YYYY-MM-DD (default: today, UTC)")
    day.set_defaults(handler=_daily)


__all__ = ["check", "register"]
