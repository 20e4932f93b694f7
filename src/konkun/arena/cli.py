"""``konkun arena``: bots play each other and the table says who is stronger.

    konkun arena GAME --players N --bots SPEC,SPEC,... --games K [--seed S] [--rule ...]
                 [--matches] [--no-duplicate] [--backend local|serial|ray] [--workers W]
                 [--json] [--progress]

``--games K`` counts deals, or whole matches with ``--matches``; with duplicate play (the
default) it is rounded up to whole sets of one game per seat rotation.
"""

from __future__ import annotations

import argparse
import json
import math
import secrets
import sys
from typing import Any

from konkun.errors import InvalidRuleError

DESCRIPTION = __doc__.splitlines()[0].removeprefix("``konkun arena``: ")


def register(subparsers: Any) -> None:
    """Add ``konkun arena`` to the command line."""
    from konkun.arena.backends import BACKENDS
    from konkun.arena.games import game_names
    from konkun.cli import add_rule_argument

    parser: argparse.ArgumentParser = subparsers.add_parser(
        "arena", help="play bots against each other and rate them", description=DESCRIPTION)
    parser.add_argument("game", metavar="GAME", help=f"the game: {', '.join(game_names())}")
    parser.add_argument("--players", type=int, default=None, metavar="N",
                        help="number of players (default: the number of bots)")
    parser.add_argument("--bots", required=True, metavar="SPEC,SPEC,...",
                        help="one bot spec per player, e.g. greedy,ismcts:iters=2000")
    parser.add_argument("--games", type=int, default=100, metavar="K",
                        help="games to play: deals, or matches with --matches (default 100)")
    parser.add_argument("--matches", action="store_true",
                        help="count whole matches (to the target) instead of deals")
    parser.add_argument("--no-duplicate", dest="duplicate", action="store_false",
                        help="a fresh shuffle for every game instead of duplicate sets")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="the run's seed (default: a fresh one, printed)")
    add_rule_argument(parser)
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="where to play: local cores (default), serial, or a Ray cluster")
    parser.add_argument("--workers", type=int, default=None, metavar="W",
                        help="worker processes (default: one per core)")
    parser.add_argument("--ray-address", default=None, metavar="ADDR",
                        help="the Ray cluster to use (default: RAY_ADDRESS, else a local one)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--progress", action="store_true", default=None,
                        help="show the progress bar even when stderr is not a terminal")
    parser.add_argument("--no-progress", dest="progress", action="store_false",
                        help="never show the progress bar")
    parser.set_defaults(handler=run)


def run(namespace: argparse.Namespace) -> int:
    """Handle ``konkun arena``."""
    from konkun.arena.progress import ProgressBar
    from konkun.arena.tournament import ArenaConfig, run_arena
    from konkun.bots.specs import parse_spec_list
    from konkun.cli import parse_rule_options

    specs = parse_spec_list(namespace.bots)
    players = namespace.players if namespace.players is not None else len(specs)
    if namespace.workers is not None and namespace.workers < 1:
        raise InvalidRuleError(f"invalid --workers {namespace.workers}: expected >= 1")
    seed = namespace.seed if namespace.seed is not None else secrets.randbelow(10 ** 9)
    config = ArenaConfig(namespace.game, tuple(str(s) for s in specs), players,
                         namespace.games, "match" if namespace.matches else "deal",
                         namespace.duplicate, seed,
                         tuple(sorted(parse_rule_options(namespace.rule).items())))
    config.validate()
    show = namespace.progress if namespace.progress is not None else sys.stderr.isatty()
    bar = ProgressBar(config.sets * config.per_set, config.unit_plural, enabled=show)
    try:
        report = run_arena(config, namespace.backend, namespace.workers,
                           namespace.ray_address,
                           on_result=lambda result: bar.advance(len(result.games)))
    finally:
        bar.close()
    if namespace.json:
        print(json.dumps(_finite(report.to_json()), indent=2))
    else:
        print(report.format_table())
    return 0


def _finite(data: Any) -> Any:
    """JSON has no infinities or NaN: write them as ``null``."""
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if isinstance(data, dict):
        return {key: _finite(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_finite(value) for value in data]
    return data
