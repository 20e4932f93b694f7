"""``konkun analyze RECORD.json [--seat N] [--time S]``: each move of a seat against the
best move found, from that seat's information only (:mod:`konkun.bots.analysis`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from konkun.errors import InvalidPositionError


def register(subparsers: Any) -> None:
    """Add ``konkun analyze`` to the command line."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "analyze", help="analyse every move of a seat in a game record",
        description="Value every move of a seat in a game record (JSON, as Match.record() "
        "writes it) from that seat's information only, against the best move found; mark "
        "inaccuracies, mistakes and blunders.")
    parser.add_argument("record", metavar="RECORD.json", help="the game record")
    parser.add_argument("--seat", type=int, default=0, help="the seat to analyse (0)")
    parser.add_argument("--time", type=float, default=None, metavar="S",
                        help="at most S seconds per move (default: only --samples)")
    parser.add_argument("--samples", type=int, default=64,
                        help="determinizations per move (64)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run)


def _load(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise InvalidPositionError(f"cannot read record {path!r}: {error.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise InvalidPositionError(f"record {path!r} is not JSON: {error}") from None


def run(namespace: argparse.Namespace) -> int:
    """Print one line per analysed move (or JSON), then the per-deal summary."""
    from konkun.bots.analysis import analyze_record, summary

    if namespace.samples < 1:
        raise InvalidPositionError(f"--samples must be at least 1, got {namespace.samples}")
    if namespace.time is not None and not namespace.time > 0:
        raise InvalidPositionError(f"--time must be positive, got {namespace.time}")
    data = _load(namespace.record)
    reports = analyze_record(data, namespace.seat, namespace.samples, namespace.time)
    if namespace.json:
        print(json.dumps({"seat": namespace.seat, "moves": [r.to_json() for r in reports],
                          **summary(reports)}, ensure_ascii=False))
        return 0
    for r in reports:
        better = f"  better: {r.best} ({r.best_value:+.2f})" if r.mark else ""
        label = r.mark or "ok"
        print(f"deal {r.deal + 1} move {r.ply + 1}: {r.played} ({r.played_value:+.2f}) "
              f"{label}, lost {r.loss:.2f}{better}")
    for entry in summary(reports)["deals"]:
        print(f"deal {entry['deal'] + 1}: {entry['moves']} moves, {entry['lost']:.2f} "
              f"expected points lost; {entry['inaccuracy']} inaccuracies, "
              f"{entry['mistake']} mistakes, {entry['blunder']} blunders")
    return 0
