"""Server speed: stored-and-broadcast actions per second, and a human move's round trip.

    .venv/bin/python benchmarks/bench_server.py [--tables N] [--moves M] [--db URL]

A real server (uvicorn in a thread, 127.0.0.1, SQLite in a temporary directory unless
``--db``) is started. Throughput: N Konchinka tables of two random bots (no bot delay),
each watched by one spectator WebSocket, played to the end at once; every action is
committed to the database and broadcast before the next. Round trip: one human against a
random bot sends M moves; the time from sending a move to receiving the state that shows
it (stored first) is reported as median and 90th percentile. Wall-clock figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path

from websockets.sync.client import connect

from konkun.server.testing import request_json, run_server_in_thread


def _watch(ws_url: str, done: list[int]) -> None:
    with connect(ws_url) as ws:
        while True:
            message = json.loads(ws.recv(timeout=300))
            if message["type"] == "state" and message["table"]["status"] == "finished":
                done.append(int(message["turn"]))
                return


def throughput(base: str, port: int, tables: int) -> tuple[int, float]:
    """Actions played and seconds taken by ``tables`` bot tables at once."""
    done: list[int] = []
    watchers = []
    start = time.perf_counter()
    for _ in range(tables):
        table = request_json(f"{base}/api/tables", "POST",
                             {"game": "konchinka", "seats": 2,
                              "bots": {"0": "random", "1": "random"}}, timeout=30)
        watcher = threading.Thread(target=_watch, args=(
            f"ws://127.0.0.1:{port}/ws/tables/{table['id']}", done))
        watcher.start()
        watchers.append(watcher)
    for watcher in watchers:
        watcher.join()
    return sum(done), time.perf_counter() - start


def round_trips(base: str, port: int, moves: int) -> list[float]:
    """Seconds from a human's move to the state that shows it, ``moves`` times."""
    me = request_json(f"{base}/api/guest", "POST", {"nickname": "bench"}, timeout=30)
    times: list[float] = []
    while len(times) < moves:
        table = request_json(f"{base}/api/tables", "POST",
                             {"game": "konchinka", "seats": 2, "bots": {"1": "random"}},
                             timeout=30)
        request_json(f"{base}/api/tables/{table['id']}/sit", "POST", {"seat": 0}, me["token"],
                     timeout=30)
        url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}?token={me['token']}"
        with connect(url) as ws:
            state = json.loads(ws.recv(timeout=60))
            while len(times) < moves:
                if state["type"] == "state" and state["table"]["status"] == "finished":
                    break
                if state["type"] != "state" or state["table"]["to_move"] != 0:
                    state = json.loads(ws.recv(timeout=60))
                    continue
                sent = time.perf_counter()
                ws.send(json.dumps({"type": "action", "turn": state["turn"],
                                    "action": state["view"]["deal"]["legal"][0]}))
                while True:
                    reply = json.loads(ws.recv(timeout=60))
                    if reply["type"] == "state" and reply["turn"] == state["turn"] + 1:
                        times.append(time.perf_counter() - sent)
                        state = reply
                        break
    return times


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="konkun-bench-"))
    server = run_server_in_thread(args.db, data_dir=data, bot_delay=0.0,
                                  http_burst=1e6, http_per_second=1e6,
                                  rate_burst=1e6, rate_per_second=1e6)
    try:
        actions, seconds = throughput(server.url, server.port, args.tables)
        print(f"throughput: {args.tables} bot tables, {actions} actions in {seconds:.1f} s "
              f"= {actions / seconds:.0f} actions/s (each stored, then broadcast)")
        times = sorted(round_trips(server.url, server.port, args.moves))
        p90 = times[int(0.9 * (len(times) - 1))]
        print(f"round trip of a human move: median {statistics.median(times) * 1000:.1f} ms, "
              f"90th percentile {p90 * 1000:.1f} ms over {len(times)} moves")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
