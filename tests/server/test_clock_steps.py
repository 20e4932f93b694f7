"""A stored move clock is the time spent on monotonic time (issue 33): a wall-clock step
between its save and its restore never plays the stand-in for a player with time left."""

from __future__ import annotations

import time

import pytest

from konkun.server.cluster import clockstore
from konkun.server.cluster.clockstore import clock_snapshot, restore_clock
from konkun.server.features.clock import SeatClock


def _clock_with_spent(seconds: float) -> SeatClock:
    return SeatClock(turn=4, turn_started=time.monotonic() - seconds)


def _spent(clock: SeatClock) -> float:
    return time.monotonic() - clock.turn_started


def _restored_after_wall_step(monkeypatch: pytest.MonkeyPatch, step: float) -> SeatClock:
    stored = clock_snapshot(_clock_with_spent(2.0))
    wall = time.time() + step
    monkeypatch.setattr(clockstore.time, "time", lambda: wall)
    clock = SeatClock()
    assert restore_clock(clock, stored, 4)
    return clock


@pytest.mark.parametrize("step", [3600.0, -3600.0, 600.0])
def test_a_wall_clock_step_does_not_spend_the_players_time(
        monkeypatch: pytest.MonkeyPatch, step: float) -> None:
    clock = _restored_after_wall_step(monkeypatch, step)
    assert 1.99 <= _spent(clock) < 3.0  # 598 s of a 600 s turn are still left


def test_a_restart_a_few_seconds_long_is_charged_to_the_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _restored_after_wall_step(monkeypatch, 5.0)
    assert 6.99 <= _spent(clock) < 8.0


def test_a_clock_of_another_turn_is_not_restored() -> None:
    stored = clock_snapshot(_clock_with_spent(2.0))
    assert not restore_clock(SeatClock(), stored, 5)
