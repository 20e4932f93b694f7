"""``konkun kunken ...`` commands (CONTRACT.md, Kunken).

- ``konkun kunken meld CARD...``: is it a meld? JSON ``{"valid", "kind", "points", "reason"}``.
- ``konkun kunken score JSON``: a finished deal's points, JSON ``{"points": [...]}``.
- ``konkun kunken takes JSON``: the bank positions the player to move may take from.
- ``konkun kunken solve CARD...``: the most valuable arrangement of a hand (a hint).
- ``konkun kunken deal``: a new deal's state JSON (``--seats``, ``--seed``, ``--dealer``);
- ``konkun kunken moves KKN [--rule ...]``: every legal action, one per line;
- ``konkun kunken perft KKN DEPTH [--rule ...] [--divide]``: the number of action
  sequences, alone on the last line (``--divide``: first each action's count, ``ACTION: N``);
- ``konkun kunken apply KKN ACTION... [--rule ...]``: the KKN after the actions, in order.

A KKN (docs/kunken.md) holds its rules; ``--rule`` options are applied over them.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import TYPE_CHECKING, Any

from konkun.cli import (
    add_rule_argument,
    parse_rule_options,
    perft_depth,
    play_texts,
    print_moves,
    print_perft,
)
from konkun.errors import InvalidNotationError

if TYPE_CHECKING:
    from konkun.kunken.state import KunkenDeal


def register(subparsers: Any) -> None:
    """Add ``kunken`` and its sub-commands."""
    parser = subparsers.add_parser(
        "kunken", help="Кункен (Kunken): meld checks, scoring, hints, positions")
    sub = parser.add_subparsers(dest="kunken_command", metavar="COMMAND",
                                parser_class=type(parser))
    meld = sub.add_parser("meld", help="is this a meld? JSON valid/kind/points/reason")
    meld.add_argument("cards", nargs="*", metavar="CARD")
    meld.set_defaults(handler=_meld)
    score = sub.add_parser("score", help="score a finished deal given as JSON")
    score.add_argument("json", metavar="JSON")
    score.set_defaults(handler=_score)
    takes = sub.add_parser("takes", help="the bank positions the player may take from")
    takes.add_argument("json", metavar="JSON")
    add_rule_argument(takes)
    takes.set_defaults(handler=_takes)
    solve = sub.add_parser("solve", help="the most valuable arrangement of a hand into melds")
    solve.add_argument("cards", nargs="*", metavar="CARD")
    solve.add_argument("--keep-one", action="store_true",
                       help="keep a card for the discard")
    solve.add_argument("--bank", default="", metavar="CARDS",
                       help="the bank, oldest first: also say how it can be taken")
    solve.add_argument("--layout", action="store_true",
                       help="the player has a layout (no opening minimum)")
    add_rule_argument(solve)
    solve.set_defaults(handler=_solve)
    deal = sub.add_parser("deal", help="a new deal's full state as JSON")
    deal.add_argument("--seats", type=int, default=2)
    deal.add_argument("--seed", default="0")
    deal.add_argument("--dealer", type=int, default=0)
    add_rule_argument(deal)
    deal.set_defaults(handler=_deal)
    moves = sub.add_parser("moves", help="every legal action of a KKN position")
    moves.add_argument("kkn", metavar="KKN")
    add_rule_argument(moves)
    moves.set_defaults(handler=_moves)
    perft = sub.add_parser("perft", help="count action sequences of a given length")
    perft.add_argument("kkn", metavar="KKN")
    perft.add_argument("depth", metavar="DEPTH")
    perft.add_argument("--divide", action="store_true", help="print each action's count first")
    add_rule_argument(perft)
    perft.set_defaults(handler=_perft)
    apply = sub.add_parser("apply", help="the KKN after playing actions")
    apply.add_argument("kkn", metavar="KKN")
    apply.add_argument("actions", metavar="ACTION", nargs="*",
                       help="an action's text, one argument each ('take 3', 'meld 5h 6h 7h')")
    add_rule_argument(apply)
    apply.set_defaults(handler=_apply)
    parser.set_defaults(handler=lambda _ns: parser.print_help() or 2)


def _meld(namespace: argparse.Namespace) -> int:
    from konkun.kunken.melds import check_meld, parse_slots

    slots = parse_slots(namespace.cards)
    print(json.dumps(check_meld(slots).to_json()))
    return 0


def _score(namespace: argparse.Namespace) -> int:
    from konkun.kunken.scoring import score_deal

    try:
        data = json.loads(namespace.json)
    except json.JSONDecodeError as error:
        raise InvalidNotationError(f"invalid score JSON {namespace.json!r}: {error}") from None
    print(json.dumps(score_deal(data)))
    return 0


def _takes(namespace: argparse.Namespace) -> int:
    from konkun.kunken.rules import KunkenRules
    from konkun.kunken.takes import takes

    rules = KunkenRules.from_options(parse_rule_options(namespace.rule))
    try:
        data = json.loads(namespace.json)
    except json.JSONDecodeError as error:
        raise InvalidNotationError(f"invalid takes JSON {namespace.json!r}: {error}") from None
    for position in takes(data, rules):
        print(position)
    return 0


def _solve(namespace: argparse.Namespace) -> int:
    from konkun.cards import parse_cards
    from konkun.kunken.hints import hand_advice
    from konkun.kunken.melds import parse_slots
    from konkun.kunken.rules import KunkenRules

    slots = parse_slots(namespace.cards)
    counts = [0] * 53
    for s in slots:
        if 52 < s:
            raise InvalidNotationError("a hand holds plain cards and X, not declared jokers")
        counts[s] += 1
    bank = [c.index for c in parse_cards(namespace.bank)] if namespace.bank else None
    rules = KunkenRules.from_options(parse_rule_options(namespace.rule))
    need = 0 if namespace.layout else rules.opening_minimum
    print(json.dumps(hand_advice(counts, bank, need, namespace.keep_one, rules=rules,
                                 layout=namespace.layout)))
    return 0


def _deal(namespace: argparse.Namespace) -> int:
    from konkun.cards import rng_for_seed
    from konkun.kunken.rules import KunkenRules
    from konkun.kunken.state import new_deal

    rules = KunkenRules.from_options(parse_rule_options(namespace.rule))
    seed: int | str = int(namespace.seed) if namespace.seed.lstrip("-").isdigit() \
        else namespace.seed
    deal = new_deal(rules, namespace.seats, namespace.dealer, rng_for_seed(seed))
    print(json.dumps(deal.to_json()))
    return 0


def load(kkn: str, rule_pairs: list[str] | None) -> KunkenDeal:
    """The deal of a KKN, with the ``--rule`` options applied over the KKN's rules (the
    position is checked again under them: ``jokers`` must match its cards)."""
    from konkun.kunken.kkn import check_position, parse_kkn

    position = parse_kkn(kkn)
    options = parse_rule_options(rule_pairs)
    if options:
        position = dataclasses.replace(position, rules=position.rules.with_options(options))
        check_position(position, f"invalid KKN {kkn!r} with {', '.join(rule_pairs or ())}")
    from konkun.kunken.state import KunkenDeal

    return KunkenDeal.from_position(position)


def _moves(namespace: argparse.Namespace) -> int:
    return print_moves(load(namespace.kkn, namespace.rule))


def _perft(namespace: argparse.Namespace) -> int:
    depth = perft_depth(namespace.depth)
    return print_perft(load(namespace.kkn, namespace.rule), depth, namespace.divide)


def _apply(namespace: argparse.Namespace) -> int:
    deal = load(namespace.kkn, namespace.rule)
    play_texts(deal, namespace.actions)
    print(deal.kkn())
    return 0
