"""Write the replay documents the page's fair-deal check is unit-tested on
(``tests/js/replays/*.json.gz``, gzipped JSON, read by ``tests/js/fairness.test.js``).

    .venv/bin/python tests/js/make_replays.py

Each is what ``GET /api/games/{id}/replay?seat=all`` answers for a short game of bots
played on a fresh server: a Konchinka deal to 1 point and a Kunken match of one deal.
``tests/server/test_page_replays.py`` checks that ``konkun verify`` accepts them, so they
stay documents the server could have served.
"""

from __future__ import annotations

import gzip
import json
import tempfile
import time
from pathlib import Path

from konkun.server.testing import request_json, run_server_in_thread

HERE = Path(__file__).parent / "replays"
GAMES = {
    "konchinka": {"game": "konchinka", "seats": 2, "rules": {"target": "1"},
                  "bots": {"0": "greedy", "1": "random"}},
    "kunken": {"game": "kunken", "seats": 2, "rules": {"deals": "1"},
               "bots": {"0": "greedy", "1": "random"}},
}


def finished_replay(url: str, body: dict[str, object]) -> object:
    """The replay of a game of bots ``body`` describes, once it is finished."""
    table = request_json(f"{url}/api/tables", "POST", body)
    while request_json(f"{url}/api/tables/{table['id']}")["status"] != "finished":
        time.sleep(0.1)
    return request_json(f"{url}/api/games/{table['id']}/replay?seat=all")


def main() -> None:
    """Play each game and write its replay."""
    HERE.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as data, \
            run_server_in_thread(data_dir=data, bot_delay=0.0) as server:
        for name, body in GAMES.items():
            document = finished_replay(server.url, body)
            text = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
            (HERE / f"{name}.json.gz").write_bytes(gzip.compress(text.encode(), mtime=0))


if __name__ == "__main__":
    main()
