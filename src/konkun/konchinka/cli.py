"""``konkun konchinka moves|perft|apply|score`` (``CONTRACT.md``), plus ``play``.

- ``moves KPN [--rule ...]``: every legal move, one per line;
- ``perft KPN DEPTH [--rule ...] [--divide]``: the number of move sequences, alone on
  the last line (``--divide``: first each move's count, ``MOVE: N``);
- ``apply KPN MOVE... [--rule ...]``: the KPN after the moves;
- ``score KPN [--rule ...]``: the score of a finished deal as JSON;
- ``play [--seats N] [--seed S] [--rule ...]``: a random game, its record as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from konkun.cards import choice
from konkun.cli import (
    UsageError,
    add_rule_argument,
    parse_rule_options,
    perft_depth,
    play_texts,
    print_moves,
    print_perft,
)
from konkun.errors import InvalidNotationError, InvalidPositionError
from konkun.konchinka.deal import KonchinkaDeal
from konkun.konchinka.game import KonchinkaMatch
from konkun.konchinka.notation import parse_kpn
from konkun.konchinka.rules import VARIANTS, KonchinkaRules


def register(subparsers: Any) -> None:
    """Add ``konchinka`` and its sub-commands to the ``konkun`` command line."""
    parser = subparsers.add_parser("konchinka", help="Konchinka positions, moves and scores",
                                   description=__doc__.splitlines()[0])
    parser.set_defaults(handler=_no_command)
    commands = parser.add_subparsers(dest="konchinka_command", metavar="COMMAND",
                                     parser_class=type(parser))
    moves = commands.add_parser("moves", help="every legal move of a KPN position")
    moves.add_argument("kpn", metavar="KPN")
    add_rule_argument(moves)
    moves.set_defaults(handler=_moves)
    perft = commands.add_parser("perft", help="count move sequences of a given length")
    perft.add_argument("kpn", metavar="KPN")
    perft.add_argument("depth", metavar="DEPTH")
    perft.add_argument("--divide", action="store_true", help="print each move's count first")
    add_rule_argument(perft)
    perft.set_defaults(handler=_perft)
    apply = commands.add_parser("apply", help="the KPN after playing moves")
    apply.add_argument("kpn", metavar="KPN")
    apply.add_argument("moves", metavar="MOVE", nargs="*")
    add_rule_argument(apply)
    apply.set_defaults(handler=_apply)
    score = commands.add_parser("score", help="the score of a finished deal, as JSON")
    score.add_argument("kpn", metavar="KPN")
    add_rule_argument(score)
    score.set_defaults(handler=_score)
    play = commands.add_parser("play", help="play a random game and print its record")
    play.add_argument("--seats", default="2")
    play.add_argument("--seed", default="0")
    add_rule_argument(play)
    play.set_defaults(handler=_play)


def _no_command(namespace: argparse.Namespace) -> int:
    raise UsageError("konkun konchinka: expected a command: moves, perft, apply, score or play")


def load(kpn: str, rule_pairs: list[str] | None) -> KonchinkaDeal:
    """A KPN read with the ``--rule`` options over the preset of its variant."""
    options = parse_rule_options(rule_pairs)
    variant = kpn.strip().split(" ", 1)[0]
    preset = variant if variant in VARIANTS else "classic"
    rules = KonchinkaRules.from_options(options, preset=preset)
    return parse_kpn(kpn, rules)


def _moves(namespace: argparse.Namespace) -> int:
    return print_moves(load(namespace.kpn, namespace.rule))


def _perft(namespace: argparse.Namespace) -> int:
    depth = perft_depth(namespace.depth)
    return print_perft(load(namespace.kpn, namespace.rule), depth, namespace.divide)


def _apply(namespace: argparse.Namespace) -> int:
    deal = load(namespace.kpn, namespace.rule)
    play_texts(deal, namespace.moves)
    print(deal.kpn())
    return 0


def _score(namespace: argparse.Namespace) -> int:
    deal = load(namespace.kpn, namespace.rule)
    if not deal.is_over():
        raise InvalidPositionError(
            f"not a finished deal: {namespace.kpn!r} (hands and stock must be empty, and "
            "the table too unless nobody captured)")
    print(json.dumps(deal.score().to_json()))
    return 0


def _play(namespace: argparse.Namespace) -> int:
    if not namespace.seats.isdigit():
        raise InvalidNotationError(f"invalid number of seats {namespace.seats!r}")
    seed: int | str = int(namespace.seed) if namespace.seed.lstrip("-").isdigit() \
        else namespace.seed
    rules = KonchinkaRules.from_options(parse_rule_options(namespace.rule))
    match = KonchinkaMatch(rules, int(namespace.seats), seed)
    chooser = random.Random(str(seed))
    while not match.is_over():
        match.play(choice(match.legal_actions(), chooser))
    print(json.dumps({"record": match.record().to_json(), "totals": match.totals,
                      "winner": match.winner()}))
    return 0
