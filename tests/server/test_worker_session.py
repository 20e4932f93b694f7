"""Search and replay workers leave the server's session (its scheduling group, where the
kernel has them) and run niced, so their searching never makes the server's own
processes wake late."""

from __future__ import annotations

import multiprocessing
import os

from konkun.server.core.scheduler import SEARCH_NICENESS, start_worker_process


def _session_and_niceness() -> tuple[int, int, int]:
    return os.getsid(0), os.getpid(), os.nice(0)


def test_a_worker_process_runs_in_a_session_of_its_own_and_niced() -> None:
    context = multiprocessing.get_context("spawn")
    with context.Pool(1, initializer=start_worker_process) as pool:
        session, pid, niceness = pool.apply(_session_and_niceness)
    assert session == pid != os.getsid(0)
    assert niceness >= min(19, os.nice(0) + SEARCH_NICENESS)
