"""Fixtures of the end-to-end tests: a real ``konkun`` server and a real headless browser.

The server is the real app (uvicorn, SQLite in a temporary directory) running in a thread
of the test process, so a test can stop it and start it again on the same database and
port (a server restart), and can fix the secret seed of the next game it deals. The
browser is Debian's chromium driven by Playwright; screenshots go to ``test-artifacts/``.

Without ``/usr/bin/chromium`` the tests are skipped, unless ``KONKUN_REQUIRE_BROWSER=1``
(set by CI), when they fail.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("KONKUN_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
BOT_DELAY = 0.05


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiveServer:
    """``konkun serve`` in a thread: start, stop and start again on the same database."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the app and wait until it answers ``/healthz``."""
        import uvicorn

        from konkun.server.app import create_app
        from konkun.server.cli import WS_MAX_FRAME
        from konkun.server.config import Settings

        settings = Settings(data_dir=self.data_dir, secret="e2e-secret", bot_delay=BOT_DELAY)
        config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=self.port,
                                ws_max_size=WS_MAX_FRAME, log_level="warning", lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="konkun-e2e-server",
                                        daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self._server.started:
                try:
                    with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as answer:
                        if answer.status == 200:
                            return
                except OSError:
                    pass
            if not self._thread.is_alive():
                break
            time.sleep(0.05)
        raise RuntimeError(f"the konkun server did not start on {self.url}")

    def stop(self) -> None:
        """Stop the server (closing every WebSocket) and wait for its thread."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=20)
            assert not self._thread.is_alive(), "the konkun server did not stop"
        self._server = None
        self._thread = None

    def restart(self) -> None:
        """Stop, then start again on the same port and database."""
        self.stop()
        self.start()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A running konkun server on a fresh SQLite database."""
    server = LiveServer(tmp_path / "data")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless chromium (Debian's), or a skip when it is not installed."""
    if not CHROMIUM.exists():
        if os.environ.get("KONKUN_REQUIRE_BROWSER") == "1":
            pytest.fail(f"KONKUN_REQUIRE_BROWSER=1 but {CHROMIUM} is missing")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

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
