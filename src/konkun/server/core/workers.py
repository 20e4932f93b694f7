"""``konkun serve --workers N``: N server processes forked from one supervisor.

The supervisor binds the port and reads the token secret once, then forks the processes,
which accept on the one socket (the kernel spreads the connections) and share everything
else through PostgreSQL (:mod:`.cluster`). A process that dies is started again; the
others carry its tables meanwhile. Ctrl-C or ``SIGTERM`` stops them all.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable
from types import FrameType

FAST_DEATHS = 3
"""Processes dying within :data:`FAST_DEATH_SECONDS` of their start, in a row, after which
the supervisor gives up (the server cannot start, restarting would only loop)."""
FAST_DEATH_SECONDS = 5.0


def supervise(workers: int, run_one: Callable[[], int], banner: str) -> int:
    """Fork ``workers`` processes each running ``run_one``; keep them running until a
    signal; return the exit status."""
    children: dict[int, float] = {}
    stopping = False

    def start() -> None:
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                signal.signal(signal.SIGINT, signal.default_int_handler)
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                code = run_one()
            finally:
                os._exit(code)
        children[pid] = time.monotonic()

    def stop(_signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    for _ in range(workers):
        start()
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    print(banner, flush=True)
    fast = 0
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        started = children.pop(pid, None)
        if stopping or started is None:
            continue
        fast = fast + 1 if time.monotonic() - started < FAST_DEATH_SECONDS else 0
        how = (f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
               else f"status {os.waitstatus_to_exitcode(status)}")
        if fast >= FAST_DEATHS:
            print(f"konkun: server processes keep stopping at once ({how}); giving up",
                  file=sys.stderr, flush=True)
            stop(signal.SIGTERM, None)
            continue
        print(f"konkun: server process {pid} stopped ({how}); starting another",
              file=sys.stderr, flush=True)
        start()
    return 1 if fast >= FAST_DEATHS else 0
