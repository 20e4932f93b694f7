"""The server source files a move and a chat line run through, counted.

    .venv/bin/python benchmarks/count_paths.py

A server on a temporary SQLite file (in-process test client), two people at a Konchinka
table. Every Python function called in any thread between sending a message and receiving
its answer is recorded (``threading.setprofile``), and the ``konkun/server`` files they
are in are printed: a move (``action`` to the ``state`` that shows it: socket, pipeline,
database, broadcast) and a chat line (``chat`` to the ``chat`` line back).
"""

import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from types import FrameType
from typing import Any

import konkun

ACTIVE = False
SEEN: set[str] = set()
ROOT = str(Path(konkun.__file__).resolve().parents[1])

def prof(frame: FrameType, event: str, arg: Any) -> None:
    """Record the file of each function called while :data:`ACTIVE`."""
    if ACTIVE and event == "call":
        name = frame.f_code.co_filename
        if "/konkun/" in name and name.startswith(ROOT):
            SEEN.add(name[len(ROOT):])
    return

threading.setprofile(prof)
sys.setprofile(prof)
warnings.simplefilter("ignore")
from starlette.testclient import TestClient  # noqa: E402

from konkun.server.app import create_app  # noqa: E402
from konkun.server.core.config import Settings  # noqa: E402

tmp = Path(tempfile.mkdtemp())
settings = Settings(data_dir=tmp / "data", secret="s", bot_delay=0.0, refusal_seconds=0.0,
                    socket_burst=10_000)

def recv_until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind``."""
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == kind:
            return m

with TestClient(create_app(settings)) as client:
    tokens = [client.post("/api/guest", json={"nickname": n}).json()["token"]
              for n in ("ann", "bob")]
    table = client.post("/api/tables", json={"game": "konchinka", "seats": 2}).json()["id"]
    for seat, token in enumerate(tokens):
        r = client.post(f"/api/tables/{table}/sit", json={"seat": seat},
                        headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
    wss = [client.websocket_connect(f"/ws/tables/{table}") for _ in tokens]
    states: list[dict[str, Any]] = []
    for ws, token in zip(wss, tokens, strict=True):
        ws.__enter__()
        ws.send_json({"type": "hello", "token": token})
    for ws in wss:
        m = recv_until(ws, "state")
        while m["table"]["status"] != "playing" or m["you"] is None:
            m = recv_until(ws, "state")
        states.append(m)
    time.sleep(0.5)
    mover = states[0]["table"]["to_move"]
    st = states[mover]
    view = st["view"]
    legal = view["legal"] if "legal" in view else view["deal"]["legal"]
    ACTIVE = True
    wss[mover].send_json({"type": "action", "action": legal[0], "turn": st["turn"]})
    m = recv_until(wss[mover], "state")
    while m["turn"] == st["turn"]:
        m = recv_until(wss[mover], "state")
    time.sleep(0.3)
    ACTIVE = False
    move = sorted(f for f in SEEN if "/server/" in f)
    SEEN.clear()
    ACTIVE = True
    wss[0].send_json({"type": "chat", "text": "hi"})
    recv_until(wss[0], "chat")
    time.sleep(0.3)
    ACTIVE = False
    chat = sorted(f for f in SEEN if "/server/" in f)
    for ws in wss:
        ws.__exit__(None, None, None)
print(f"a move runs through {len(move)} server files:", *move, sep="\n  ")
print(f"a chat line runs through {len(chat)} server files:", *chat, sep="\n  ")
