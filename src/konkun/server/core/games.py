"""The games a table can play, as the server sees them: each game's
:class:`~konkun.game.Game` descriptor (found in the one registry, :mod:`konkun.game`) with
the server's own add-on for it (:class:`ServerAddon`, the descriptor's ``server`` add-on).

The server is written once against the protocols of :mod:`konkun.game`; a
:class:`GameAdapter` says, for one game, which variants and seat counts it has, how to
build its rules from ``{name: text}`` options and how to start a
:class:`~konkun.game.Match` from (rules, seats, seed), all read from the descriptor. A
match is replayed by starting it from the same seed and playing the stored actions again.
Tests add small fake games with :func:`register_game`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from konkun import game as registry
from konkun.errors import InvalidNotationError, InvalidRuleError, KonkunError, one_line
from konkun.game import Game, Match


@dataclass(frozen=True)
class ServerAddon:
    """The server's own piece for one game (all optional)."""

    advice: Callable[[Any], dict[str, Any]] | None = None
    """The engine solver's advice for one seat's observation (shown with a hint), built
    from nothing but that observation; ``None``: the game has no solver."""

    describe: Callable[[str], dict[str, Any]] | None = None
    """An action text's parts as the page shows them (the engine's own reading: kind,
    cards, the bank position or meld it names, ...); ``None``: the page reads the text."""


GAME_PAGES = "games"
"""The folder under ``/static/`` where each game's own page directory is served: the files
of a :class:`GamePage` with a ``directory`` are at ``/static/games/{game}/{file}``."""

_PAGE_FILE = re.compile(r"(?:[a-z0-9_-]+/)*[a-z0-9_-]+\.js")
"""A page module's file: ``/``-separated segments of lower-case letters, digits, ``_`` and
``-``, ending in ``.js`` (the page's registry imports nothing else, ``gamepage.js``)."""

_GAME_NAME = re.compile(r"[a-z0-9_-]+")


@dataclass(frozen=True)
class GamePage:
    """A game's page module (the ``page`` add-on; ``docs/web.md``, "Game pages"): the ES
    module that draws the game's table in the browser and keeps the page's game-page
    contract (``static/gamepage.js``). A game of konkun's own names a module among the
    page's files (``GamePage("konchinka.js")``, or just the text ``"konchinka.js"``); an
    external package ships its own directory of page files, which the server serves under
    ``/static/games/{game}/`` (``GamePage("page.js", Path(__file__).parent / "page")``)."""

    module: str
    """The module's file: in ``directory`` when there is one, else among the page's own
    files (``src/konkun/server/static``)."""
    directory: Path | None = None
    """The game package's directory of page files (the module, its stylesheets, anything
    it imports relatively); ``None``: the module is one of the page's own files."""

    def __post_init__(self) -> None:
        if not isinstance(self.module, str) or not _PAGE_FILE.fullmatch(self.module):
            raise InvalidRuleError(
                f"invalid page module {self.module!r}: expected a .js file name of "
                "lower-case letters, digits, '_' and '-' (in folders: 'page/table.js')",
                "page")

    def address(self, game: str) -> str:
        """The module's address under ``/static/`` (the catalog's ``page``): its file for a
        module of the page's own, ``games/{game}/{module}`` for a shipped one."""
        if self.directory is None:
            return self.module
        if not _GAME_NAME.fullmatch(game):
            raise InvalidRuleError(f"game {game!r} cannot ship a page module: its name is "
                                   "not lower-case letters, digits, '_' and '-'", "page")
        return f"{GAME_PAGES}/{game}/{self.module}"

    def file(self, path: str) -> Path | None:
        """The shipped file at ``path`` (relative to ``directory``), or ``None`` when there is
        no such regular file inside the directory (no directory, a hidden or escaping path,
        a folder)."""
        if self.directory is None or any(part.startswith(".") or not part
                                         for part in path.split("/")):
            return None
        root = self.directory.resolve()
        found = (root / path).resolve()
        return found if found.is_relative_to(root) and found.is_file() else None


def page_of(game: Game) -> GamePage | None:
    """The page module of ``game`` (its ``page`` add-on: a :class:`GamePage`, or the file
    name of one of the page's own modules), ``None`` when it has none; raise
    :class:`~konkun.errors.InvalidRuleError` naming the game when the add-on is something
    else."""
    found = game.addon("page")
    if found is None or isinstance(found, GamePage):
        return found
    if isinstance(found, str):
        return GamePage(found)
    raise InvalidRuleError(f"game {game.name!r}: its 'page' add-on is a "
                           f"{type(found).__name__}, expected a GamePage", "page")


@dataclass(frozen=True)
class GameAdapter:
    """How the server plays one game: its descriptor and the server's add-on."""

    game: Game
    addon: ServerAddon = ServerAddon()

    @property
    def name(self) -> str:
        """The game's name."""
        return self.game.name

    @property
    def min_seats(self) -> int:
        """The fewest seats."""
        return self.game.min_seats

    @property
    def max_seats(self) -> int:
        """The most seats."""
        return self.game.max_seats

    @property
    def variants(self) -> tuple[str, ...]:
        """The named variants (the first is the default); empty when the game has none."""
        return self.game.variant_names()

    @property
    def advice(self) -> Callable[[Any], dict[str, Any]] | None:
        """The add-on's solver advice (see :class:`ServerAddon`)."""
        return self.addon.advice

    def describe(self, text: str) -> dict[str, Any] | None:
        """The parts of action ``text`` (the add-on's ``describe``), or ``None`` when the
        game does not describe its actions or ``text`` is none of them."""
        describe = self.addon.describe
        if describe is None:
            return None
        try:
            return describe(text)
        except KonkunError:
            return None

    def read_action(self, deal: Any, text: str) -> Any:
        """The action ``text`` names in ``deal``; raise
        :class:`~konkun.errors.InvalidNotationError` with a message safe to show anyone:
        the engine error's ``reason`` (its ``str()`` may add the position, hidden cards
        and all)."""
        try:
            return deal.parse_action(text)
        except KonkunError as error:
            reason = one_line(error.reason)[:300]
        raise InvalidNotationError(reason or f"invalid action {text!r}: not a {self.name} action")

    def explain_illegal(self, deal: Any, action: Any, text: str) -> str:
        """Why ``action`` is illegal now (``Deal.why_illegal``), in words safe to show the
        seat that sent it."""
        reason = deal.why_illegal(action)
        if reason:
            return f"illegal move {text!r}: {one_line(reason)[:300]}"
        return f"illegal move {text!r}: not among the legal actions now"

    def check(self, variant: str | None, rules: Mapping[str, str], num_seats: int) -> Any:
        """The rules value for a new table, after checking variant and seat count."""
        return self.game.rules_from_options(variant, rules, num_seats)

    def variant_of(self, variant: str | None) -> str | None:
        """The variant a table plays when asked for ``variant``: the default (the first)
        when none is asked for; ``None`` for a game without variants."""
        return self.game.variant_of(variant)

    def new_match(self, rules: Any, num_seats: int, seed: int | str) -> Match[Any]:
        """A new match from (rules value, number of seats, seed)."""
        return self.game.new_match(rules, num_seats, seed)

    def replay(self, rules: Any, num_seats: int, seed: int | str,
               actions: list[str]) -> Match[Any]:
        """The match after playing ``actions`` (texts) from the start; each is validated."""
        match = self.new_match(rules, num_seats, seed)
        for text in actions:
            match.play(match.deal.parse_action(text))
        return match

    def catalog(self) -> dict[str, Any]:
        """What the lobby shows of this game (``GET /api/catalog``): the descriptor's
        schema, the address under ``/static/`` of the page module that draws its table
        (:class:`GamePage`; ``null``: none, the table cannot be drawn) and the
        rating pools it declares (``ratings``: none, an unrated game)."""
        pools = self.game.addon("ratings") or ()
        page = page_of(self.game)
        return {**self.game.catalog(), "page": page.address(self.name) if page else None,
                "ratings": [{"pool": p.name, "title": p.title.to_json(),
                             "min_seats": p.min_seats, "max_seats": p.max_seats}
                            for p in pools]}


def register_game(adapter: GameAdapter | Game) -> None:
    """Make a game playable at new tables (a thin wrapper of
    :func:`konkun.game.register_game`; an adapter's add-on becomes the game's ``server``
    add-on)."""
    if isinstance(adapter, GameAdapter):
        registry.register_game(replace(adapter.game,
                                       addons={**adapter.game.addons, "server": adapter.addon}))
    else:
        if not isinstance(adapter.addons.get("server"), str):  # a text loads on first use
            adapter.addon_of("server", ServerAddon)  # a wrong add-on fails here
        page = adapter.addons.get("page")
        if not (isinstance(page, str) and ":" in page):
            page_of(adapter)  # so does a wrong page module
        registry.register_game(adapter)


def unregister_game(name: str) -> None:
    """Forget a registered game (tests; :func:`konkun.game.unregister_game`)."""
    registry.unregister_game(name)


def get_game(name: str) -> GameAdapter:
    """The adapter of game ``name``; raise :class:`KeyError` when there is none, and
    :class:`~konkun.errors.InvalidRuleError` when its ``server`` add-on is not a
    :class:`ServerAddon` (a game without one gets the generic add-on)."""
    try:
        game = registry.get_game(name)
    except InvalidRuleError:
        raise KeyError(name) from None
    return GameAdapter(game, game.addon_of("server", ServerAddon) or ServerAddon())


def game_names() -> list[str]:
    """Every game a table can play now."""
    return registry.game_names()
