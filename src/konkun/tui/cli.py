"""``konkun play``: a full game against bots in the terminal."""

from __future__ import annotations

import argparse
from typing import Any

from konkun.cli import add_rule_argument, parse_rule_options
from konkun.errors import InvalidRuleError


def register(subparsers: Any) -> None:
    """Add the ``play`` sub-command."""
    parser = subparsers.add_parser(
        "play", help="play a game against bots in the terminal",
        description="Play a game against bots in the terminal (keyboard only; press ? in "
                    "the game for help).")
    from konkun.game import game_names

    parser.add_argument("game", nargs="?", choices=game_names(), help="the game to play")
    parser.add_argument("--players", type=int, default=None,
                        help="number of players, you included (default 2)")
    parser.add_argument("--bots", default=None, metavar="SPEC,...",
                        help="bot specs for the other seats: one for all or one each "
                             "(random, greedy, ismcts:iters=N; default greedy)")
    add_rule_argument(parser)
    parser.add_argument("--seed", default=None,
                        help="the seed of the shuffles (an integer or a text; default: "
                             "a fresh secret seed)")
    parser.add_argument("--resume", default=None, metavar="FILE",
                        help="resume a game saved with Ctrl+S (its game and rules)")
    parser.add_argument("--save", default=None, metavar="FILE",
                        help="where Ctrl+S saves (default konkun-GAME.json)")
    parser.add_argument("--bot-delay", type=_seconds, default=0.4, metavar="SECONDS",
                        help="pause between bot moves (default 0.4)")
    parser.set_defaults(handler=run)


def _seconds(text: str) -> float:
    """A pause in seconds: a finite number, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"invalid pause {text!r}: expected seconds, 0 or more")
    return value


def _seed(text: str | None) -> int | str | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def session_from_args(namespace: argparse.Namespace) -> Any:
    """The :class:`~konkun.tui.session.PlaySession` the arguments ask for."""
    from konkun.tui.session import PlaySession

    bots = [s.strip() for s in namespace.bots.split(",")] if namespace.bots else []
    if namespace.resume:
        return PlaySession.resume(namespace.resume, bots)
    if namespace.game is None:
        from konkun.game import game_names

        raise InvalidRuleError(f"konkun play: name a game ({' or '.join(game_names())}) "
                               "or --resume FILE")
    players = 2 if namespace.players is None else namespace.players
    return PlaySession.new(namespace.game, players, bots, parse_rule_options(namespace.rule),
                           _seed(namespace.seed))


def run(namespace: argparse.Namespace) -> int:
    """Run the game."""
    session = session_from_args(namespace)
    from konkun.tui.app import PlayApp

    PlayApp(session, namespace.save, namespace.bot_delay).run()
    return 0
