"""``konkun serve`` and the real servers of :mod:`konkun.server.testing` (127.0.0.1 only)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from konkun.cli import main
from konkun.server.testing import ServerProcess, request_json, run_server_in_thread


def test_serve_is_a_command_with_host_port_and_db(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = capsys.readouterr().out
    for option in ["--host", "--port", "--db"]:
        assert option in text


def test_serve_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "70000" in capsys.readouterr().err


def test_server_thread_restarts_on_the_same_database(tmp_path: Path) -> None:
    server = run_server_in_thread(data_dir=tmp_path)
    try:
        me = request_json(f"{server.url}/api/guest", "POST", {"nickname": "ann"})
        table = request_json(f"{server.url}/api/tables", "POST",
                      {"game": "konchinka", "seats": 2, "bots": {"1": "random"}})
        request_json(f"{server.url}/api/tables/{table['id']}/sit", "POST", {"seat": 0}, me["token"])
        server.restart()
        again = request_json(f"{server.url}/api/tables/{table['id']}")
        assert again["status"] == "playing"
        assert again["seats"][0]["name"] == "ann"
        assert (tmp_path / "konkun.sqlite3").exists()
    finally:
        server.stop()


def _next_state(ws: Any, accept: Any) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=20))
        if message["type"] == "state" and accept(message):
            return message


@pytest.mark.slow
def test_a_crashed_server_process_resumes_the_table_exactly(tmp_path: Path) -> None:
    server = ServerProcess(data_dir=tmp_path / "data", bot_delay=0.0).start()
    try:
        me = request_json(f"{server.url}/api/guest", "POST", {"nickname": "ann"})
        table = request_json(f"{server.url}/api/tables", "POST",
                      {"game": "konchinka", "seats": 2, "bots": {"1": "greedy"}})
        request_json(f"{server.url}/api/tables/{table['id']}/sit", "POST", {"seat": 0}, me["token"])
        ws_url = f"ws://127.0.0.1:{server.port}/ws/tables/{table['id']}?token={me['token']}"
        with connect(ws_url) as ws:
            for _ in range(3):
                state = _next_state(ws, lambda m: m["table"]["to_move"] == 0)
                ws.send(json.dumps({"type": "action", "turn": state["turn"],
                                    "action": state["view"]["deal"]["legal"][0]}))
            before = _next_state(ws, lambda m: m["table"]["to_move"] == 0)
        server.restart(crash=True)
        with connect(ws_url) as ws:
            after = _next_state(ws, lambda m: True)
        assert after["turn"] == before["turn"]
        assert after["view"] == before["view"]
        assert after["you"] == 0
    finally:
        server.stop()


def test_serve_refuses_a_bad_database_url_in_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for url in ["not a url", "nosuchdialect://x/y"]:
        assert main(["serve", "--db", url, "--data-dir", str(tmp_path)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert len(captured.err.strip().splitlines()) == 1
        assert "database" in captured.err or "--db" in captured.err


def test_serve_refuses_a_port_in_use_in_one_line(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--data-dir", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert str(port) in captured.err
    assert len(captured.err.strip().splitlines()) == 1


def test_a_table_socket_negotiates_no_compression(tmp_path: Path) -> None:
    """A client offering permessage-deflate gets an uncompressed table socket: chat the
    opponent controls never shares a deflate context with the player's hand."""
    import base64
    import os
    import socket

    server = run_server_in_thread(data_dir=tmp_path)
    try:
        table = request_json(f"{server.url}/api/tables", "POST",
                             {"game": "konchinka", "seats": 2, "bots": {"1": "random"}})
        key = base64.b64encode(os.urandom(16)).decode()
        handshake = (f"GET /ws/tables/{table['id']} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}"
                     "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                     "Sec-WebSocket-Extensions: permessage-deflate; "
                     "client_max_window_bits\r\n\r\n")
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            raw.sendall(handshake.encode())
            answer = b""
            while b"\r\n\r\n" not in answer:
                chunk = raw.recv(4096)
                if not chunk:
                    break
                answer += chunk
        head = answer.split(b"\r\n\r\n")[0].decode().lower()
        assert head.startswith("http/1.1 101")
        assert "sec-websocket-extensions" not in head
    finally:
        server.stop()
