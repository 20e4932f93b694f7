"""A tiny progress bar on standard error (no dependency)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds < 3600 else (
        f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}")


class ProgressBar:
    """``[#######.......]  7/14 games  0:12 elapsed  0:12 left`` redrawn in place."""

    def __init__(self, total: int, label: str = "games", stream: TextIO | None = None,
                 enabled: bool = True, width: int = 30) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.width = width
        self.started = time.monotonic()
        self._last_draw = 0.0
        if enabled:
            self._draw()

    def advance(self, count: int = 1) -> None:
        """Count ``count`` more finished units and redraw (at most ten times a second)."""
        self.done = min(self.total, self.done + count)
        now = time.monotonic()
        if self.enabled and (now - self._last_draw >= 0.1 or self.done == self.total):
            self._draw()

    def line(self) -> str:
        """The bar's current text."""
        filled = self.width * self.done // self.total
        elapsed = time.monotonic() - self.started
        left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        return (f"[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} "
                f"{self.label}  {_clock(elapsed)} elapsed  {_clock(left)} left")

    def _draw(self) -> None:
        self._last_draw = time.monotonic()
        self.stream.write("\r" + self.line())
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line."""
        if self.enabled:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
