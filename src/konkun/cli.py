"""The ``konkun`` command line.

Each part of the project adds its own sub-commands through a ``register(subparsers)``
function: each game its own (its descriptor's ``cli`` add-on, ``konkun konchinka ...``),
then each layer's ``cli`` module (listed in :data:`COMMAND_MODULES`); heavy dependencies
(FastAPI, Textual, Ray, ...) are imported only when their command runs, so the engines'
commands work without the optional extras. Bad input exits with status 2 and one line on
standard error that names the input, never a traceback (``CONTRACT.md``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, Protocol

from konkun import __version__
from konkun.errors import InvalidNotationError, InvalidRuleError, KonkunError, one_line
from konkun.game import game_names, get_game

COMMAND_MODULES = (
    "konkun.bots.cli",
    "konkun.bots.analyze_cli",
    "konkun.arena.cli",
    "konkun.server.cli",
    "konkun.tui.cli",
    "konkun.verify",
    "konkun.puzzles.cli",
)
"""The layers' modules that each define ``register(subparsers)``, in the order ``--help``
lists them (after the games' commands)."""

EXIT_BAD_INPUT = 2


class UsageError(KonkunError):
    """The command line's words are off (unknown command, missing argument, ...)."""


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on standard error with status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


Handler = Callable[[argparse.Namespace], int | None]


def parse_rule_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """Turn repeated ``--rule NAME=VALUE`` arguments into a mapping of names to texts."""
    options: dict[str, str] = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise InvalidRuleError(f"invalid rule option {pair!r}: expected NAME=VALUE")
        options[name.strip()] = value.strip()
    return options


def add_rule_argument(parser: argparse.ArgumentParser) -> None:
    """Add the repeatable ``--rule NAME=VALUE`` option to a sub-command."""
    parser.add_argument("--rule", action="append", metavar="NAME=VALUE", default=[],
                        help="a rule option (repeatable), names as in RULES.md")


class _Texted(Protocol):
    def text(self) -> str: ...


class PositionDeal(Protocol):
    """What ``moves``, ``perft`` and ``apply`` of a game's command line need of a deal."""

    def legal_actions(self) -> Sequence[_Texted]:
        """The legal actions."""

    def perft(self, depth: int) -> int:
        """The number of action sequences of ``depth``."""

    def perft_divide(self, depth: int) -> Sequence[tuple[_Texted, int]]:
        """The perft of ``depth`` per first action."""

    def parse_action(self, text: str) -> Any:
        """The action ``text`` names."""

    def play(self, action: Any) -> None:
        """Play ``action``."""


def print_moves(deal: PositionDeal) -> int:
    """``moves``: each legal action's text on a line of its own."""
    lines = [action.text() for action in deal.legal_actions()]
    if lines:
        print("\n".join(lines))
    return 0


def perft_depth(text: str) -> int:
    """The ``DEPTH`` argument of ``perft``: a whole number >= 0."""
    if not text.isdigit():
        raise InvalidNotationError(f"invalid perft depth {text!r}: expected a whole number >= 0")
    return int(text)


def print_perft(deal: PositionDeal, depth: int, divide: bool) -> int:
    """``perft``: the count, after the count of each first action with ``--divide``."""
    if divide and depth > 0:
        counts = deal.perft_divide(depth)
        for action, count in counts:
            print(f"{action.text()}: {count}")
        print(sum(count for _, count in counts))
        return 0
    print(deal.perft(depth))
    return 0


def play_texts(deal: PositionDeal, texts: Sequence[str]) -> None:
    """``apply``: play the actions ``texts`` names, in order."""
    for text in texts:
        deal.play(deal.parse_action(text))


def build_parser() -> ArgumentParser:
    """The full parser with every sub-command the installed parts provide."""
    parser = ArgumentParser(
        prog="konkun",
        description="Konchinka and Kunken: rules engines, bots, tournaments, the web app and "
        "terminal play.")
    parser.add_argument("--version", action="version", version=f"konkun {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND",
                                       parser_class=ArgumentParser)
    for register in game_commands():
        register(subparsers)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def game_commands() -> list[Callable[[Any], None]]:
    """Each registered game's ``register(subparsers)`` (its ``cli`` add-on), in the
    registry's order of names; a game without one adds no command."""
    found = (get_game(name).addon("cli") for name in game_names())
    return [register for register in found if register is not None]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        namespace = parser.parse_args(arguments)
        handler: Handler | None = getattr(namespace, "handler", None)
        if handler is None:
            parser.print_help()
            return EXIT_BAD_INPUT
        return handler(namespace) or 0
    except KonkunError as error:
        print(one_line(str(error)) or "konkun: bad input", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
