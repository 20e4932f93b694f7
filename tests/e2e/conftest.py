"""Fixtures of the end-to-end tests: a real ``konkun`` server and a real headless browser.

The server is the real app (uvicorn, SQLite in a temporary directory) from
:mod:`konkun.server.testing`: in a thread of the test process (so a test can fix the
secret seed of the next game it deals), or as ``konkun serve`` in a child process that a
test can crash and start again on the same database and port. The
browser is Debian's chromium driven by Playwright; screenshots go to ``test-artifacts/``.

Without ``/usr/bin/chromium`` the tests are skipped, unless ``KONKUN_REQUIRE_BROWSER=1``
(set by CI), when they fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from konkun.server.core.config import Settings
from konkun.server.features.fair import FairStore
from konkun.server.features.lifecycle import ExtrasStore
from konkun.server.store.storage import Storage
from konkun.server.tables.replayframes import replay_frames
from konkun.server.testing import (
    ServerProcess,
    ServerThread,
    request_json,
    run_server_in_thread,
)
from konkun.verify import verify_document

from .pages import wait_for_status

CHROMIUM = Path(os.environ.get("KONKUN_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
BOT_DELAY = 0.05
PAGE_LIMITS = {"http_burst": 10_000.0, "http_per_second": 10_000.0, "read_burst": 10_000.0,
               "read_per_second": 10_000.0, "replay_burst": 10_000.0,
               "replay_per_second": 10_000.0, "socket_burst": 10_000.0,
               "socket_per_second": 10_000.0, "refusal_seconds": 0.0}
"""Every browser of a test comes from 127.0.0.1: the per-address limits (tested in
tests/server) would throttle one test's several players as one abusive address."""


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[ServerThread]:
    """A running konkun server (in a thread of this process) on a fresh SQLite database;
    afterwards every game finished on it must pass ``konkun verify``."""
    with run_server_in_thread(data_dir=tmp_path / "data", bot_delay=BOT_DELAY,
                              **PAGE_LIMITS) as server:
        yield server
    verify_finished_games(Settings(data_dir=tmp_path / "data").database_url())


@contextmanager
def finished_bot_games(data_dir: Path, bodies: Mapping[str, dict[str, Any]],
                       timeout: float = 120) -> Iterator[tuple[ServerThread, dict[str, str]]]:
    """A server on a fresh database in ``data_dir`` on which the bot-only tables of
    ``bodies`` (table requests by name) were played at once to their end, and their ids by
    name: for a module whose tests read the same finished games at every size and
    language (a module fixture), so the games are played once. Afterwards every game
    finished on it must pass ``konkun verify``."""
    with run_server_in_thread(data_dir=data_dir, bot_delay=BOT_DELAY,
                              **PAGE_LIMITS) as server:
        tables = {name: str(request_json(f"{server.url}/api/tables", "POST", body)["id"])
                  for name, body in bodies.items()}
        for table_id in tables.values():
            wait_for_status(server.url, table_id, "finished", timeout)
        yield server, tables
    verify_finished_games(Settings(data_dir=data_dir).database_url())


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[ServerProcess]:
    """``konkun serve`` in a child process (so a test can crash it) on a fresh database;
    afterwards every game finished on it must pass ``konkun verify``."""
    with ServerProcess(data_dir=tmp_path / "data", bot_delay=BOT_DELAY).start() as server:
        yield server
    verify_finished_games(Settings(data_dir=tmp_path / "data").database_url())


FIXED_SEEDS: set[str] = set()
"""Match seeds a test imposed with :func:`deal_from_seed` (their games cannot verify)."""


def deal_from_seed(monkeypatch: pytest.MonkeyPatch, seed: str) -> None:
    """Deal the next tables' matches from ``seed`` in place of the fair seed, so that a test
    knows the cards; those games are left out of :func:`verify_finished_games`."""
    FIXED_SEEDS.add(seed)
    monkeypatch.setattr("konkun.server.tables.seats.match_seed_of", lambda fair: seed)


def verify_finished_games(db_url: str) -> None:
    """``konkun verify`` on the replay document of every finished Konchinka and Kunken
    game in the database (docs/fairness.md), built as the server serves it. A human seat
    a test took through the HTTP API sends no contribution (only the page does): such a
    seat is left out of the check that every human contributed, and nothing else is."""
    storage = Storage(db_url)
    fair_store = FairStore(storage.engine)
    extras_store = ExtrasStore(storage.engine)
    try:
        for row in storage.list_tables("finished", limit=10_000):
            if row.game not in ("konchinka", "kunken") or row.seed in FIXED_SEEDS:
                continue
            full = storage.load(row.id)
            assert full is not None
            document = replay_frames(full, "all", fair_store.load(row.id),
                                     extras_store.load(row.id).ended_summary())
            given = {c["seat"] for c in document["record"]["fairness"]["contributions"]}
            without_the_page = frozenset(
                number for number, seat in enumerate(document["table"]["seats"])
                if seat["kind"] == "human" and number not in given)
            verdict = verify_document(document, without_the_page)
            assert verdict.ok, f"game {row.id}: {verdict.message}"
    finally:
        storage.close()


def pytest_configure(config: pytest.Config) -> None:
    """Declare the ``motion`` marker."""
    config.addinivalue_line("markers", "motion: the test's pages move (cards fly, the turn "
                            "pulses), as without a reduced-motion preference")


class _Motion:
    """``chromium`` whose new contexts have a reduced-motion preference unless told."""

    def __init__(self, chromium: Any, motion: str) -> None:
        self._chromium = chromium
        self._motion = motion

    def new_context(self, **options: Any) -> Any:
        """A new context; ``reduced_motion`` is this browser's unless given."""
        return self._chromium.new_context(**{"reduced_motion": self._motion, **options})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._chromium, name)


@pytest.fixture
def browser(chromium: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """The browser for one test; every page the test opened is closed after it (so no
    page keeps polling or reconnecting while later tests run).

    Its pages prefer reduced motion (the page then draws each state at once: no card flies,
    the turn does not pulse), which spares the machine a repaint every frame of every open
    page. The tests marked ``motion`` (the whole-game flows of test_site.py and
    test_kunken_turns.py, and how the page follows a move) see the page move as most
    players do; test_table_fits.py gives each of its contexts its own preference."""
    marked = request.node.get_closest_marker("motion") is not None
    yield _Motion(chromium, "no-preference" if marked else "reduce")
    for context in list(chromium.contexts):
        context.close()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Headless chromium (Debian's), or a skip when it is not installed. One per module,
    so Playwright's event loop is gone before other modules' asyncio tests run."""
    if not CHROMIUM.exists():
        if os.environ.get("KONKUN_REQUIRE_BROWSER") == "1":
            pytest.fail(f"KONKUN_REQUIRE_BROWSER=1 but {CHROMIUM} is missing")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=20_000)  # busy CI machines: wait for the page, never race it

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                              args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def artifacts() -> Path:
    """The directory the screenshots go to."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
