"""The storage thread (:class:`StorageThread`): one thread runs every database write in
turn, players' actions first.

Commits go through one thread (SQLite lets one writer at a time anyway), but not first
come, first served: a table created, a seat taken or a guest's name checked by a client
looping on them would otherwise queue every player's move behind them. Jobs given to
:attr:`StorageThread.urgent` (the actions played at a table with a human seat) run
before every job given to :attr:`StorageThread.normal` that has not started yet; within
each lane, in the order given. A move thus waits at most for the one job running.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

T = TypeVar("T")

URGENT, NORMAL = 0, 1


class _Lane(Executor):
    """An :class:`~concurrent.futures.Executor` face of one lane of a
    :class:`StorageThread` (what ``loop.run_in_executor`` takes)."""

    def __init__(self, thread: StorageThread, priority: int) -> None:
        self._thread = thread
        self._priority = priority

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Queue ``fn(*args, **kwargs)`` in this lane."""
        return self._thread.submit(self._priority, fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Shut down the whole storage thread."""
        self._thread.shutdown(wait, cancel_futures=cancel_futures)


class StorageThread:
    """One worker thread with an urgent and a normal lane (see the module)."""

    def __init__(self, name: str = "konkun-db") -> None:
        self._queue: list[tuple[int, int, Future[Any], Callable[[], Any]]] = []
        self._order = itertools.count()
        self._ready = threading.Condition()
        self._closed = False
        self.urgent: Executor = _Lane(self, URGENT)
        """Players' actions: run before every normal job not yet started."""
        self.normal: Executor = _Lane(self, NORMAL)
        """Everything else."""
        self._worker = threading.Thread(target=self._work, name=name, daemon=True)
        self._worker.start()

    def submit(self, priority: int, fn: Callable[..., T], /, *args: Any,
               **kwargs: Any) -> Future[T]:
        """Queue ``fn(*args, **kwargs)`` with ``priority`` (:data:`URGENT` or
        :data:`NORMAL`); its future."""
        future: Future[T] = Future()
        with self._ready:
            if self._closed:
                raise RuntimeError("cannot schedule new work after shutdown")
            heapq.heappush(self._queue, (priority, next(self._order), future,
                                         lambda: fn(*args, **kwargs)))
            self._ready.notify()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more work; drop the queued jobs when ``cancel_futures``, else run them;
        with ``wait``, return once the thread ended."""
        with self._ready:
            self._closed = True
            if cancel_futures:
                for _priority, _order, future, _call in self._queue:
                    future.cancel()
                self._queue.clear()
            self._ready.notify()
        if wait and threading.current_thread() is not self._worker:
            self._worker.join()

    def _work(self) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closed:
                    self._ready.wait()
                if not self._queue:
                    return
                _priority, _order, future, call = heapq.heappop(self._queue)
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = call()
            except BaseException as error:
                future.set_exception(error)
            else:
                future.set_result(result)
