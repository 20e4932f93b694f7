"""A throwaway PostgreSQL server for the storage tests: ``initdb`` into a temporary folder,
listening on 127.0.0.1 and a Unix socket in that folder, stopped at the end of the session.

PostgreSQL refuses to run as root, so as root (CI) the server runs as the ``postgres`` user.
Without PostgreSQL's binaries the tests that need it are skipped, unless
``KONKUN_REQUIRE_POSTGRES=1`` (set by ``.ci/run``), where they fail.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from konkun.server.testing import free_port


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


class PostgresServer:
    """A running PostgreSQL cluster; :meth:`new_database_url` makes a fresh database."""

    def __init__(self, bin_dir: Path, root: Path, port: int) -> None:
        self.bin_dir, self.root, self.port = bin_dir, root, port

    def restart(self, down_seconds: float) -> None:
        """Stop the server (every connection is cut), stay down ``down_seconds``, start it
        again on the same port: a database outage as the clients see it."""
        data = self.root / "data"
        subprocess.run(_as_server_user([str(self.bin_dir / "pg_ctl"), "-D", str(data), "-m",
                                        "immediate", "-w", "stop"]),
                       check=True, capture_output=True, timeout=120)
        time.sleep(down_seconds)
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(_as_server_user([str(self.bin_dir / "pg_ctl"), "-D", str(data), "-o",
                                        options, "-l", str(self.root / "log"), "-w", "start"]),
                       check=True, capture_output=True, timeout=120)

    def execute(self, url: str, query: str) -> list[tuple[object, ...]]:
        """Run ``query`` on the database of ``url`` (as the superuser); its rows."""
        import psycopg

        from konkun.server.cluster.bus import libpq_url

        with psycopg.connect(libpq_url(url), autocommit=True) as conn:
            cursor = conn.execute(query)
            return list(cursor.fetchall()) if cursor.description else []

    def new_database_url(self) -> str:
        """The SQLAlchemy URL of a new, empty database on this server."""
        name = f"konkun_{uuid.uuid4().hex[:12]}"
        subprocess.run(_as_server_user([str(self.bin_dir / "createdb"), "-h", str(self.root),
                                        "-p", str(self.port), "-U", "postgres", name]),
                       check=True, capture_output=True, timeout=60)
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"


def _start(bin_dir: Path, root: Path, data: Path, tries: int = 3) -> int:
    """Start the cluster on a free port; return the port. Another process may take the
    port between :func:`free_port` and the server's bind (a shared machine), so a refused
    start is tried again on a new port."""
    for attempt in range(tries):
        port = free_port()
        options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
        started = subprocess.run(_as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data),
                                                  "-o", options, "-l", str(root / "log"),
                                                  "-w", "start"]),
                                 check=attempt == tries - 1, capture_output=True, timeout=120)
        if started.returncode == 0:
            return port
    raise AssertionError("unreachable")  # the last try raised CalledProcessError


@contextlib.contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """Start a cluster for the duration of the ``with`` block (or skip, see above)."""
    bin_dir = _binaries()
    if bin_dir is None or (os.geteuid() == 0 and shutil.which("runuser") is None):
        if os.environ.get("KONKUN_REQUIRE_POSTGRES") == "1":
            pytest.fail("KONKUN_REQUIRE_POSTGRES=1 but PostgreSQL's binaries are missing")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    root = Path(tempfile.mkdtemp(prefix="konkun-pg-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    data = root / "data"
    subprocess.run(_as_server_user([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres",
                                    "--auth=trust", "-E", "UTF8"]),
                   check=True, capture_output=True, timeout=120)
    port = _start(bin_dir, root, data)
    try:
        yield PostgresServer(bin_dir, root, port)
    finally:
        subprocess.run(_as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast",
                                        "-w", "stop"]), capture_output=True, timeout=120)
        shutil.rmtree(root, ignore_errors=True)
