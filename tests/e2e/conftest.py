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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from konkun.server.testing import ServerProcess, ServerThread, run_server_in_thread

CHROMIUM = Path(os.environ.get("KONKUN_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
BOT_DELAY = 0.05


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[ServerThread]:
    """A running konkun server (in a thread of this process) on a fresh SQLite database."""
    with run_server_in_thread(data_dir=tmp_path / "data", bot_delay=BOT_DELAY) as server:
        yield server


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[ServerProcess]:
    """``konkun serve`` in a child process (so a test can crash it) on a fresh database."""
    with ServerProcess(data_dir=tmp_path / "data", bot_delay=BOT_DELAY).start() as server:
        yield server


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The browser for one test; every page the test opened is closed after it (so no
    page keeps polling or reconnecting while later tests run)."""
    yield chromium
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
