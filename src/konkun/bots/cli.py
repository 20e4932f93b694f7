"""``konkun bots``: the bots there are and how to name them."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    """Add ``konkun bots`` to the command line."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "bots", help="list the bots and the spec grammar",
        description="List the bots usable in any bot spec (KIND[:KEY=VALUE]...).")
    parser.set_defaults(handler=run)


def run(namespace: argparse.Namespace) -> int:
    """Print each bot kind, its summary and the spec grammar."""
    from konkun.bots.specs import available_bots

    bots = available_bots()
    width = max(len(kind) for kind in bots)
    for kind, summary in bots.items():
        print(f"{kind.ljust(width)}  {summary}")
    print("spec: KIND[:KEY=VALUE]... e.g. random, greedy, ismcts:iters=2000, ismcts:time=1.0;"
          " every bot takes iters=N and time=SECONDS")
    return 0
