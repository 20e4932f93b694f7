"""Real servers for end-to-end tests (Playwright): in a thread, or in a child process.

Both bind 127.0.0.1 on a free port (or the one given), serve the whole app (pages, API,
WebSockets) on a database of the caller's choice, and can be restarted on the same
database and port, so a test can check that a table resumes after a restart:

>>> from konkun.server.testing import run_server_in_thread
>>> server = run_server_in_thread("sqlite:////tmp/t.sqlite3")   # doctest: +SKIP
>>> server.url                                                   # doctest: +SKIP
'http://127.0.0.1:39145'
>>> server.restart()   # same database, same port                # doctest: +SKIP
>>> server.stop()                                                # doctest: +SKIP

:class:`ServerProcess` runs ``python -m konkun serve`` instead; its :meth:`~ServerProcess.kill`
is a crash (SIGKILL), so a restart after it proves that nothing acknowledged was lost.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from abc import ABC, abstractmethod
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from konkun.server.cli import uvicorn_config
from konkun.server.core.config import Settings

HOST = "127.0.0.1"
TEST_SECRET = "konkun-test-secret"
"""The token-signing secret of test servers (so a token survives a restart)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until_up(url: str, timeout: float = 30.0) -> None:
    """Wait until ``url``/healthz answers; raise :class:`TimeoutError` otherwise."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if json.loads(response.read()).get("ok"):
                    return
        except (OSError, urllib.error.URLError, ValueError):
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"no konkun server at {url} after {timeout:g} s")
        time.sleep(0.05)


def request_json(url: str, method: str = "GET", body: Any = None, token: str | None = None,
                 timeout: float = 10.0) -> Any:
    """Call the HTTP API at ``url``: ``body`` sent as JSON, the guest ``token`` as a bearer
    token; return the JSON answer (an error answer raises :class:`urllib.error.HTTPError`)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())


def _data_dir(data_dir: str | Path | None) -> Path:
    """``data_dir``, or a fresh temporary directory when not given."""
    if data_dir is None:
        return Path(tempfile.mkdtemp(prefix="konkun-test-"))
    return Path(data_dir)


def _settings(db_url: str | None, data_dir: str | Path | None,
              options: dict[str, Any]) -> Settings:
    options.setdefault("secret", TEST_SECRET)
    options.setdefault("bot_delay", 0.05)
    return Settings(db_url=db_url, data_dir=_data_dir(data_dir), **options)


class _Server(ABC):
    """What both test servers share: the port, the base URL, ``with`` stopping it."""

    port: int

    @property
    def url(self) -> str:
        """The base URL (``http://127.0.0.1:PORT``)."""
        return f"http://{HOST}:{self.port}"

    @abstractmethod
    def stop(self, timeout: float = 30.0) -> None:
        """Stop serving."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()


class ServerThread(_Server):
    """uvicorn serving the konkun app in a daemon thread of this process."""

    def __init__(self, settings: Settings, port: int = 0) -> None:
        self.settings = settings
        self.port = port or free_port()
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def start(self, timeout: float = 30.0) -> Self:
        """Start serving; return when the server answers."""
        import uvicorn

        from konkun.server.app import create_app

        config = uvicorn_config(create_app(self.settings), self.settings, HOST, self.port,
                                "warning")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="konkun-test-server",
                                        daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the test server did not start on {self.url}")
            time.sleep(0.02)
        return self

    def stop(self, timeout: float = 30.0) -> None:
        """Shut down gracefully (every stored action stays stored)."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
        self._server = self._thread = None

    def restart(self) -> None:
        """Stop, then start again on the same database and port."""
        self.stop()
        self.start()


def run_server_in_thread(db_url: str | None = None, port: int = 0,
                         data_dir: str | Path | None = None,
                         **options: Any) -> ServerThread:
    """A started :class:`ServerThread`. ``db_url`` defaults to SQLite in ``data_dir``
    (a fresh temporary directory when not given); ``options`` are
    :class:`~konkun.server.core.config.Settings` fields (``bot_delay`` defaults to 0.05 s)."""
    return ServerThread(_settings(db_url, data_dir, options), port).start()


class ServerProcess(_Server):
    """``python -m konkun serve`` in a child process (the real command line)."""

    def __init__(self, db_url: str | None = None, port: int = 0,
                 data_dir: str | Path | None = None, bot_delay: float = 0.05,
                 secret: str = TEST_SECRET, args: tuple[str, ...] = (),
                 file_limit: int | None = None) -> None:
        self.data_dir = _data_dir(data_dir)
        self.db_url = db_url
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.secret = secret
        self.args = args
        """More ``konkun serve`` arguments."""
        self.file_limit = file_limit
        """The child's soft open-file limit (``RLIMIT_NOFILE``), when given."""
        self.process: subprocess.Popen[bytes] | None = None
        self.log = self.data_dir / "server.log"

    def start(self, timeout: float = 60.0) -> Self:
        """Start the process; return when it answers."""
        return self.launch().wait_up(timeout)

    def launch(self) -> Self:
        """Start the process without waiting for it (:meth:`wait_up` waits)."""
        command = [sys.executable, "-m", "konkun", "serve", "--host", HOST,
                   "--port", str(self.port), "--data-dir", str(self.data_dir),
                   "--bot-delay", str(self.bot_delay)]
        if self.db_url:
            command += ["--db", self.db_url]
        command += list(self.args)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                            env=os.environ | {"KONKUN_SECRET": self.secret},
                                            preexec_fn=self._limits)
        return self

    def wait_up(self, timeout: float = 60.0) -> Self:
        """Return when the launched process answers; kill it when it does not in time."""
        try:
            wait_until_up(self.url, timeout)
        except TimeoutError:
            self.kill()
            raise
        return self

    def _limits(self) -> None:
        """In the child, before it runs: the open-file limit."""
        if self.file_limit is not None:
            import resource

            _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.file_limit, hard))

    def stop(self, timeout: float = 30.0) -> None:
        """Stop gracefully (SIGTERM), killing after ``timeout``."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def kill(self) -> None:
        """Crash the server (SIGKILL): no shutdown code runs."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        self.process.wait()
        self.process = None

    def restart(self, crash: bool = False) -> None:
        """Stop (or, with ``crash``, kill) and start again on the same database and port."""
        if crash:
            self.kill()
        else:
            self.stop()
        self.start()


def start_together(servers: Iterable[ServerProcess], timeout: float = 60.0) -> list[ServerProcess]:
    """Launch every server at once, then wait for each to answer (their start-ups overlap;
    several on one PostgreSQL database take turns at its migrations, as in production)."""
    launched = [server.launch() for server in servers]
    for server in launched:
        server.wait_up(timeout)
    return launched
