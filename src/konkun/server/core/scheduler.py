"""The fair bot scheduler: which bot thinks next, on which thread.

Bots do not share one first-come queue any more (three all-bot tables of 10-second
searches would hold every thread, and every other table's bot would wait behind them):

- **quick bots** (``random``, ``greedy``: milliseconds a move) have their own thread and
  never wait behind a search;
- **searches** (ISMCTS and any other bot with a budget) share ``search_threads``
  workers, worker processes by default (a search in a thread would hold the server's
  interpreter lock and slow every request), and each search ends within its own budget,
  so it holds a worker at most that long;
- one **client** (the address that created the table) runs at most one search at a time,
  whatever its number of tables, so its tables together use at most one thread's time;
  clients take turns (round robin);
- tables with a human seat go first, and tables of bots only may use all threads but one,
  so a human table's bot never waits behind all-bot tables' searches.

A worker process finds the installed games by their entry points; the games registered
in the server process by text (``register_game("module:attribute")``) before the
scheduler was made are registered in each worker too.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from konkun.errors import KonkunError
from konkun.game import game_names, game_source, register_game

T = TypeVar("T")

QUICK_KINDS = frozenset({"random", "greedy"})
"""Bot kinds that answer at once (they get the quick thread)."""


def game_sources() -> list[str]:
    """The ``"module:attribute"`` text of every registered game another process can find
    by it."""
    return [source for source in map(game_source, game_names()) if source is not None]


def start_worker_process(sources: Sequence[str] = ()) -> None:
    """In a search (or replay) process: register the server's games (``sources``, from
    :func:`game_sources`), yield the CPU to the server (a search's budget is wall time,
    so on a busy machine it searches less rather than slowing every request), and end
    when the server does, even killed (nothing else would stop a worker waiting for work,
    and each one left behind holds memory and may go on searching).

    Yielding takes a session of its own besides ``nice``: where the kernel groups
    processes by session for scheduling (``sched_autogroup``, on by default in many
    distributions), ``nice`` only orders the processes of one session, and a worker
    searching all the time in the server's session made the whole session a CPU hog to
    the scheduler, so the server itself then woke late (a 5 ms sleep 11 ms late, at the
    median, on this shared machine). In a session of its own it is a neighbour of the
    server's session, at the default weight (lower, a replay took minutes to build on
    this busy machine)."""
    for source in sources:
        with contextlib.suppress(KonkunError, ImportError, AttributeError):
            register_game(source)
    leave_the_servers_session()
    with contextlib.suppress(OSError):
        os.nice(SEARCH_NICENESS)
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True,
                     name="konkun-parent-watch").start()


def leave_the_servers_session() -> None:
    """Start a session of its own (a new scheduling autogroup, where the kernel has
    them); skipped where the system refuses it."""
    with contextlib.suppress(OSError):
        os.setsid()


def _exit_with_parent(parent: int, every: float = 1.0) -> None:
    """End this process once ``parent`` is gone (it is then no longer our parent)."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


SEARCH_NICENESS = 10


@dataclass
class _Job:
    client: str
    human: bool
    function: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any] = field(repr=False)


class BotScheduler:
    """Runs bot moves in worker threads, fairly across clients and tables (see above)."""

    def __init__(self, search_threads: int = 2, quick_threads: int = 1,
                 processes: bool = False) -> None:
        self.search_threads = max(1, search_threads)
        self._searches: Executor = ProcessPoolExecutor(
            self.search_threads, mp_context=multiprocessing.get_context("spawn"),
            initializer=start_worker_process, initargs=(game_sources(),)) \
            if processes else ThreadPoolExecutor(self.search_threads,
                                                 thread_name_prefix="konkun-bot")
        self._quick = ThreadPoolExecutor(max(1, quick_threads),
                                         thread_name_prefix="konkun-bot-quick")
        self._waiting: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._running: dict[str, int] = {}
        self._running_bot_only = 0

    @property
    def busy(self) -> int:
        """Searches running now."""
        return sum(self._running.values())

    async def run(self, function: Callable[..., T], *args: Any, client: str,
                  human: bool, quick: bool) -> T:
        """``function(*args)`` on a bot worker, when its turn comes: ``client`` names who
        created the table, ``human`` whether a human sits there, ``quick`` a quick bot
        (run in a thread; a search, in a worker process, needs a picklable ``function``
        and ``args``)."""
        loop = asyncio.get_running_loop()
        if quick:
            return await loop.run_in_executor(self._quick, lambda: function(*args))
        future: asyncio.Future[T] = loop.create_future()
        self._waiting.setdefault(client, deque()).append(
            _Job(client, human, function, args, future))
        self._dispatch()
        try:
            return await future
        finally:
            if not future.done():  # cancelled while waiting: drop it from the queue
                future.cancel()

    def shutdown(self) -> None:
        """Stop the threads (queued work is dropped)."""
        for jobs in self._waiting.values():
            for job in jobs:
                job.future.cancel()
        self._waiting.clear()
        self._searches.shutdown(wait=False, cancel_futures=True)
        self._quick.shutdown(wait=False, cancel_futures=True)

    def _dispatch(self) -> None:
        """Start waiting searches while a thread is free."""
        while self.busy < self.search_threads:
            job = self._next_job()
            if job is None:
                return
            self._start(job)

    def _next_job(self) -> _Job | None:
        """The next search to run: a human table's first, clients in turn, one running
        search per client, all-bot tables leaving one thread free."""
        bot_only_room = self._running_bot_only < max(1, self.search_threads - 1)
        chosen: str | None = None
        for want_human in (True, False):
            for client, jobs in self._waiting.items():
                self._drop_cancelled(jobs)
                if not jobs or self._running.get(client, 0):
                    continue
                if jobs[0].human == want_human and (want_human or bot_only_room):
                    chosen = client
                    break
            if chosen is not None:
                break
        for client in [c for c, jobs in self._waiting.items() if not jobs]:
            del self._waiting[client]
        if chosen is None:
            return None
        jobs = self._waiting[chosen]
        job = jobs.popleft()
        self._waiting.move_to_end(chosen)  # round robin: this client waits for the others
        if not jobs:
            del self._waiting[chosen]
        return job

    @staticmethod
    def _drop_cancelled(jobs: deque[_Job]) -> None:
        while jobs and jobs[0].future.done():
            jobs.popleft()

    def _start(self, job: _Job) -> None:
        self._running[job.client] = self._running.get(job.client, 0) + 1
        if not job.human:
            self._running_bot_only += 1
        loop = asyncio.get_running_loop()
        done = loop.run_in_executor(self._searches, job.function, *job.args)

        def finished(result: asyncio.Future[Any]) -> None:
            self._running[job.client] -= 1
            if not self._running[job.client]:
                del self._running[job.client]
            if not job.human:
                self._running_bot_only -= 1
            if not job.future.done():
                if result.cancelled():
                    job.future.cancel()
                elif result.exception() is not None:
                    job.future.set_exception(result.exception())  # type: ignore[arg-type]
                else:
                    job.future.set_result(result.result())
            self._dispatch()

        done.add_done_callback(finished)
