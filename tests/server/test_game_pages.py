"""A game package ships its own page module (docs/web.md, "Game pages"): its ``page``
add-on, a :class:`~konkun.server.core.games.GamePage`, names its directory of page files,
which the server serves under ``/static/games/{game}/`` with the types a browser takes for
a module and a stylesheet, under the same Content-Security-Policy as the page's own files;
the catalog names the module's address. Nothing outside the directory is served, and a
wrong page add-on fails when the game is registered. The page drawing the shipped game's
table: tests/e2e/test_shipped_game_page.py."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from e2e.shipped_game import GAME, PAGE
from konkun.errors import InvalidRuleError
from konkun.server.app import CONTENT_SECURITY_POLICY
from konkun.server.core.games import GamePage, get_game, register_game, unregister_game

from .conftest import TestClient


@pytest.fixture(autouse=True)
def shipped_game() -> Iterator[None]:
    """The shipped game is registered during each test."""
    register_game(GAME)
    yield
    unregister_game("shipped")


def catalog_pages(client: TestClient) -> dict[str, str | None]:
    """Each game's page address in ``GET /api/catalog``."""
    return {g["game"]: g["page"] for g in client.get("/api/catalog").json()["games"]}


def test_the_catalog_names_a_shipped_module_under_the_games_folder(client: TestClient) -> None:
    pages = catalog_pages(client)
    assert pages["shipped"] == "games/shipped/page.js"
    assert pages["konchinka"] == "konchinka.js"
    assert pages["kunken"] == "kunken.js"
    assert pages["toy"] is None


def test_a_shipped_module_and_its_files_are_served_as_a_browser_takes_them(
        client: TestClient) -> None:
    module = client.get("/static/games/shipped/page.js")
    assert module.status_code == 200
    assert module.headers["content-type"].startswith("text/javascript")
    assert module.text == (PAGE.directory / "page.js").read_text(encoding="utf-8")
    assert module.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert module.headers["x-content-type-options"] == "nosniff"
    style = client.get("/static/games/shipped/page.css")
    assert style.status_code == 200
    assert style.headers["content-type"].startswith("text/css")
    assert client.get("/static/games/shipped/texts.js").status_code == 200


@pytest.mark.parametrize("path", [
    "/static/games/shipped/nothing.js",
    "/static/games/shipped/",
    "/static/games/shipped/%2e%2e/__init__.py",
    "/static/games/shipped/..%2f__init__.py",
    "/static/games/shipped/.hidden.js",
    "/static/games/nosuchgame/page.js",
    "/static/games/konchinka/konchinka.js",  # a game of the page's own ships no directory
    "/static/games/toy/page.js",  # a game without a page module
])
def test_nothing_outside_a_shipped_directory_is_served(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404, path
    assert answer.json()["code"] == "not_found"


def test_the_page_own_files_are_still_served(client: TestClient) -> None:
    for name in ("gamepage.js", "konchinka.js", "konchinka.css", "kunken.css", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200, name


def test_a_page_module_is_a_js_file_name() -> None:
    for bad in ("page.mjs", "../page.js", "/page.js", "Page.js", "a b.js", "", "page.css",
                "https://example.org/page.js"):
        with pytest.raises(InvalidRuleError, match="invalid page module"):
            GamePage(bad)
    assert GamePage("page/table.js", Path(".")).address("third") == "games/third/page/table.js"


def test_a_wrong_page_add_on_fails_when_the_game_is_registered() -> None:
    wrong = replace(GAME, name="wrongpage", addons={**GAME.addons, "page": 42})
    with pytest.raises(InvalidRuleError, match="'wrongpage': its 'page' add-on is a int"):
        register_game(wrong)
    with pytest.raises(KeyError):
        get_game("wrongpage")
