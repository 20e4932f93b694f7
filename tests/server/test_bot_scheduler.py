"""Issue 13, the fair bot scheduler: a strong bot's search never delays another table's
move by more than its own budget, one client's tables share one search at a time, and a
human table's bots stay responsive whatever the all-bot tables do."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Hashable
from itertools import pairwise
from typing import Any

import pytest

from konkun.game import Observation
from konkun.server.core.botseats import BotSeat
from konkun.server.core.config import Settings
from konkun.server.core.scheduler import BotScheduler

from .conftest import legal, receive_until, running, sit


def _search(seconds: float, log: list[tuple[str, float, float]], name: str,
            origin: float) -> str:
    """A stand-in for a search that uses its whole budget."""
    started = time.monotonic()
    time.sleep(seconds)
    log.append((name, started - origin, time.monotonic() - origin))
    return name


def _search_holding(until: threading.Event, log: list[tuple[str, float, float]],
                    name: str, origin: float) -> bool:
    """A stand-in for a long search: it holds its worker until ``until`` is set (or ten
    seconds pass) and says whether it was set. The tests ask "did the other search start
    while this one ran?" by these events, not by wall-clock bounds, which a stalled shared
    machine broke (a thread started 0.3 s late)."""
    started = time.monotonic()
    was_set = until.wait(10)
    log.append((name, started - origin, time.monotonic() - origin))
    return was_set


def _search_signalling(started: threading.Event, log: list[tuple[str, float, float]],
                       name: str, origin: float) -> str:
    """A stand-in for a short search that sets ``started`` as it begins."""
    started.set()
    return _search(0.05, log, name, origin)


def test_a_human_tables_search_does_not_wait_behind_all_bot_tables() -> None:
    """Four all-bot searches on two threads: one runs, and the human table's search starts
    while it still holds its thread (the other thread is left to human tables)."""
    human_started = threading.Event()

    async def scenario() -> tuple[bool, list[tuple[str, float, float]]]:
        scheduler = BotScheduler(search_threads=2)
        log: list[tuple[str, float, float]] = []
        origin = time.monotonic()
        try:
            first = asyncio.ensure_future(scheduler.run(
                _search_holding, human_started, log, "attack0", origin,
                client="attacker0", human=False, quick=False))
            attacks = [asyncio.ensure_future(scheduler.run(
                _search, 0.05, log, f"attack{n}", origin, client=f"attacker{n}",
                human=False, quick=False)) for n in range(1, 4)]
            await asyncio.sleep(0.05)
            human = await scheduler.run(_search_signalling, human_started, log, "human",
                                        origin, client="ann", human=True, quick=False)
            assert human == "human"
            held_until_the_human_started = await first
            await asyncio.gather(*attacks)
        finally:
            scheduler.shutdown()
        return held_until_the_human_started, log

    human_ran_beside_the_attack, log = asyncio.run(scenario())
    assert human_ran_beside_the_attack
    attacks = sorted((start, end) for name, start, end in log if name != "human")
    assert all(later[0] >= earlier[1] - 0.02 for earlier, later in pairwise(attacks))


def test_one_clients_tables_run_one_search_at_a_time_in_turn_with_others() -> None:
    """One client's three searches run one after another, and another client's search
    starts while the first of them still runs."""
    other_started = threading.Event()

    async def scenario() -> tuple[bool, list[tuple[str, float, float]]]:
        scheduler = BotScheduler(search_threads=3)
        log: list[tuple[str, float, float]] = []
        origin = time.monotonic()
        try:
            first = scheduler.run(_search_holding, other_started, log, "greedy-client0",
                                  origin, client="hog", human=True, quick=False)
            rest = [scheduler.run(_search, 0.05, log, f"greedy-client{n}", origin,
                                  client="hog", human=True, quick=False) for n in (1, 2)]
            other = scheduler.run(_search_signalling, other_started, log, "other", origin,
                                  client="other", human=True, quick=False)
            held, *_ = await asyncio.gather(first, *rest, other)
        finally:
            scheduler.shutdown()
        return bool(held), log

    other_ran_beside_the_hog, log = asyncio.run(scenario())
    assert other_ran_beside_the_hog
    hog = sorted((start, end) for name, start, end in log if name.startswith("greedy"))
    assert len(hog) == 3
    assert all(later[0] >= earlier[1] - 0.02 for earlier, later in pairwise(hog))


def test_quick_bots_never_wait_behind_searches() -> None:
    """A quick bot answers while the only search thread is held."""
    quick_answered = threading.Event()

    def quick_bot() -> str:
        quick_answered.set()
        return "greedy"

    async def scenario() -> bool:
        scheduler = BotScheduler(search_threads=1)
        log: list[tuple[str, float, float]] = []
        try:
            search = asyncio.ensure_future(scheduler.run(
                _search_holding, quick_answered, log, "search", time.monotonic(),
                client="a", human=True, quick=False))
            await asyncio.sleep(0.05)
            assert await scheduler.run(quick_bot, client="b", human=True,
                                       quick=True) == "greedy"
            return bool(await search)
        finally:
            scheduler.shutdown()

    assert asyncio.run(scenario())


def test_strong_all_bot_tables_do_not_delay_a_human_tables_quick_bot(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three all-bot tables of searching bots (each using its whole budget) run while a
    human plays a quick bot (the fake game has no greedy one; random is as quick): it
    answers at once."""
    original = BotSeat.choose

    def budgeted(self: BotSeat, observation: Observation[Any]) -> Hashable:
        if self.spec.startswith("ismcts") and self.budget.seconds:
            time.sleep(self.budget.seconds)
            return next(iter(observation.legal_actions()))
        return original(self, observation)

    monkeypatch.setattr(BotSeat, "choose", budgeted)
    settings.bot_processes = False  # the stand-in search lives in this process
    with running(settings) as client:
        for _ in range(3):
            made = client.post("/api/tables", json={"game": "fake", "seats": 2, "bots": {
                "0": "ismcts:time=3", "1": "ismcts:time=3"}})
            assert made.status_code == 201, made.text
        time.sleep(0.1)
        table = client.post("/api/tables", json={"game": "fake", "seats": 2,
                                                  "bots": {"1": "random"}}).json()
        assert "id" in table, table
        token = sit(client, table["id"], 0, "ann")
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
            state = receive_until(ws, lambda m: m["type"] == "state"
                                  and m["table"]["to_move"] == 0)
            started = time.monotonic()
            ws.send_json({"type": "action", "turn": state["turn"],
                          "action": legal(state)[0]})
            receive_until(ws, lambda m: m["type"] == "state"
                          and (m["table"]["to_move"] == 0
                               or m["table"]["status"] == "finished")
                          and m["turn"] >= state["turn"] + 2)
            assert time.monotonic() - started < 1.0


def _scheduler_then_die(pids: Any) -> None:
    """In a child process: start a scheduler's search worker, report its pid, then die at
    once as a killed server does (no shutdown)."""
    import os

    async def one_search() -> int:
        scheduler = BotScheduler(search_threads=1, processes=True)
        return int(await scheduler.run(os.getpid, client="c", human=True, quick=False))

    pids.send(asyncio.run(one_search()))
    os._exit(9)


def test_search_workers_end_when_the_server_is_killed() -> None:
    import multiprocessing

    spawn = multiprocessing.get_context("spawn")
    pids, child_end = spawn.Pipe(duplex=False)
    server = spawn.Process(target=_scheduler_then_die, args=(child_end,))
    server.start()
    assert pids.poll(60), "the scheduler's search never ran"
    worker = pids.recv()
    server.join(30)
    deadline = time.monotonic() + 10
    while _alive(worker):
        assert time.monotonic() < deadline, f"search worker {worker} outlived its server"
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone, only not yet reaped
        return stat.read().rpartition(")")[2].split()[0] != "Z"
