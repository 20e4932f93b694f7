"""Where a player's move spends its time inside the server, stage by stage, and how late
the event loop runs: a benchmark's breakdown (``benchmarks/bench_soak.py``), off unless
``Settings.stage_times`` (``$KONKUN_STAGE_TIMES``) names a file.

Enabled, the server keeps the last durations of each stage (:data:`STAGES`) and, once a
second, writes their summary to that file as JSON. The stages of one move played through
a WebSocket (``move.*``) are recorded by the code that runs them while the move's task
carries a :class:`MoveTrace` (:func:`tracing_move`); ``loop.lag`` is how late a 5 ms
sleep of the event loop wakes (its being busy, or the machine's). Disabled, every call
here is one attribute test.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections import deque
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

KEPT = 20_000
"""Durations kept per stage (the newest)."""

LAG_PERIOD = 0.005
"""The event loop's probe sleep, in seconds."""


class StageTimes:
    """The last :data:`KEPT` durations (seconds) of each named stage."""

    def __init__(self) -> None:
        self.enabled = False
        self._samples: dict[str, deque[float]] = {}

    def add(self, stage: str, seconds: float) -> None:
        """Record one duration of ``stage`` (nothing when disabled)."""
        if self.enabled:
            self._samples.setdefault(stage, deque(maxlen=KEPT)).append(seconds)

    def clear(self) -> None:
        """Forget every duration."""
        self._samples.clear()

    def summary(self) -> dict[str, dict[str, float]]:
        """Per stage: ``n``, ``mean``, ``p50``, ``p99`` and ``max``, in milliseconds."""
        result = {}
        for stage, samples in sorted(self._samples.items()):
            ordered = sorted(samples)
            if not ordered:
                continue
            def at(fraction: float, ordered: list[float] = ordered) -> float:
                return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000
            result[stage] = {"n": len(ordered), "mean": sum(ordered) / len(ordered) * 1000,
                             "p50": at(0.5), "p99": at(0.99), "max": ordered[-1] * 1000}
        return result

    def write(self, path: Path) -> None:
        """Write :meth:`summary` to ``path`` as JSON (replaced whole, never half written)."""
        partial = path.with_name(path.name + ".part")
        partial.write_text(json.dumps(self.summary()))
        os.replace(partial, path)


STAGES = StageTimes()
"""The server's stage times (one server per process)."""


class MoveTrace:
    """The stages of one move, from the moment its message was read."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.connection: object = None
        """The mover's connection (its state's trip to the socket is timed too)."""
        self.over = False
        """The move was played (tasks and timers started during it still carry it in
        their context; they are not part of the move)."""

    def stage(self, name: str, seconds: float) -> None:
        """Record ``move.<name>``."""
        STAGES.add(f"move.{name}", seconds)

    def queued(self, text: str) -> QueuedState:
        """The state ``text`` was queued for the mover's connection."""
        return QueuedState(self, text, time.perf_counter())


@dataclass(frozen=True)
class QueuedState:
    """A traced move's new state, queued for the mover's socket."""

    trace: MoveTrace
    text: str
    at: float

    def sent(self, text: str) -> QueuedState | None:
        """The connection's writer sent ``text``: when it is this state, record
        ``move.send`` (queue to socket) and ``move.to_socket`` (message read to state
        written) and return ``None``, else go on waiting."""
        if text is not self.text:
            return self
        now = time.perf_counter()
        self.trace.stage("send", now - self.at)
        self.trace.stage("to_socket", now - self.trace.started)
        return None


_current: ContextVar[MoveTrace | None] = ContextVar("konkun_move_trace", default=None)


def current_move() -> MoveTrace | None:
    """The move the running task plays, when stage times are on and it is traced."""
    if not STAGES.enabled:
        return None
    trace = _current.get()
    return None if trace is None or trace.over else trace


@contextlib.contextmanager
def tracing_move() -> Iterator[MoveTrace | None]:
    """Trace the move played inside the block (``None`` when stage times are off); its
    whole time in the server is ``move.total``."""
    if not STAGES.enabled:
        yield None
        return
    trace = MoveTrace()
    token = _current.set(trace)
    try:
        yield trace
    finally:
        _current.reset(token)
        trace.over = True
        trace.stage("total", time.perf_counter() - trace.started)


@contextlib.contextmanager
def timed(name: str) -> Iterator[None]:
    """Time the block as stage ``move.<name>`` of the traced move, if any."""
    trace = current_move()
    if trace is None:
        yield
        return
    started = time.perf_counter()
    try:
        yield
    finally:
        trace.stage(name, time.perf_counter() - started)


def reset_file(path: Path) -> Path:
    """The file whose appearance next to ``path`` makes the server forget every duration
    so far (a benchmark starts measuring)."""
    return path.with_name(path.name + ".reset")


async def watch_loop(path: Path, every: float = 1.0) -> None:
    """Until cancelled: record ``loop.lag`` every :data:`LAG_PERIOD` and write the
    summary to ``path`` every ``every`` seconds (first forgetting everything when
    :func:`reset_file` exists, and removing it once the fresh summary is written)."""
    written = time.monotonic()
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(LAG_PERIOD)
        STAGES.add("loop.lag", max(0.0, time.perf_counter() - asked - LAG_PERIOD))
        if time.monotonic() - written >= every:
            written = time.monotonic()
            with contextlib.suppress(OSError):
                asked_to_reset = reset_file(path).exists()
                if asked_to_reset:
                    STAGES.clear()
                STAGES.write(path)
                # Removed only once the fresh summary is written: whoever waits for the
                # file to go reads a summary that starts afresh.
                if asked_to_reset:
                    reset_file(path).unlink()
