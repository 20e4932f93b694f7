"""Issue 13, soak: a rate-limited request is refused before any work (no routing, no body
read, no database), and its refusal is held so that a looping client is slowed."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from konkun.server.app import create_app
from konkun.server.core.config import Settings
from konkun.server.lobby import Lobby
from konkun.server.testing import ServerThread
from konkun.server.web.throttle import MATCH, READ, WRITE, KonkunApp

from .conftest import TestClient, running


@pytest.mark.parametrize(("method", "path", "kind"), [
    ("POST", "/api/guest", WRITE),
    ("POST", "/api/tables", WRITE),
    ("POST", "/api/tables/abc/sit", WRITE),
    ("POST", "/api/revoke", WRITE),
    ("GET", "/api/tables/abc/hint", WRITE),
    ("GET", "/api/tables", READ),
    ("GET", "/api/games", READ),
    ("GET", "/api/tables/abc", READ),
    ("GET", "/api/tables/abc/chat", READ),
    ("GET", "/api/games/abc/replay", MATCH),
    ("GET", "/api/tables/abc/replay", MATCH),
    ("GET", "/api/tables/abc/log", MATCH),
    ("GET", "/api/tables/abc/deals/2", MATCH),
    ("GET", "/healthz", None),
    ("GET", "/api/catalog", None),
    ("GET", "/static/app.js", None),
    ("GET", "/t/abc", None),
    ("POST", "/api/nowhere", WRITE),  # no route: limited like a write
    ("DELETE", "/api/tables", WRITE),  # no route takes the method
    ("GET", "/nowhere", None),  # a missing page: a cheap 404
    ("OPTIONS", "/api/tables", None),  # a CORS preflight
])
def test_every_limited_route_has_its_rate_limit_class(
        settings: Settings, method: str, path: str, kind: str | None) -> None:
    app = create_app(settings)
    assert isinstance(app, KonkunApp)
    scope = {"type": "http", "method": method, "path": path}
    assert app.route_classes().request_class(scope) == kind


def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[Any]:
    calls: list[Any] = []
    original = getattr(Lobby, name)

    async def counted(self: Lobby, *args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(Lobby, name, counted)
    return calls


def test_a_rate_limited_request_is_refused_before_any_work(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.http_burst = 1
    settings.http_per_second = 0.001
    settings.replay_burst = 1
    settings.replay_per_second = 0.001
    replays = _counting(monkeypatch, "encoded_replay")
    with running(settings) as client:
        assert client.post("/api/guest", json={"nickname": "ann"}).status_code == 200
        bad_body = client.post("/api/guest", content=b"NaN",
                               headers={"Content-Type": "application/json"})
        assert (bad_body.status_code, bad_body.json()["code"]) == (429, "rate_limited")
        assert client.post("/api/nowhere", json={}).status_code == 429  # before routing
        assert client.get("/api/games/nosuchgame/replay").status_code == 404
        refused = client.get("/api/games/nosuchgame/replay")
        assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
        assert len(replays) == 1  # the refused one never reached the lobby
        assert int(refused.headers["retry-after"]) >= 1
        assert refused.headers["x-frame-options"] == "DENY"


def test_the_buckets_of_each_class_are_separate(settings: Settings) -> None:
    settings.replay_burst = 1
    settings.replay_per_second = 0.001
    with running(settings) as client:
        client.get("/api/games/x/replay")
        assert client.get("/api/games/x/replay").status_code == 429
        assert client.get("/api/tables").status_code == 200
        assert client.post("/api/guest", json={"nickname": "ann"}).status_code == 200


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_a_refusal_is_held_so_a_looping_client_is_slowed(settings: Settings) -> None:
    settings.replay_burst = 1
    settings.replay_per_second = 0.001
    settings.refusal_seconds = 0.5
    with ServerThread(settings).start() as server:
        url = f"{server.url}/api/games/nosuchgame/replay"
        assert _status(url) == 404
        started = time.monotonic()
        assert _status(url) == 429
        assert time.monotonic() - started >= 0.45


def test_past_the_held_refusals_an_address_is_refused_at_once(settings: Settings) -> None:
    settings.replay_burst = 1
    settings.replay_per_second = 0.001
    settings.refusal_seconds = 3.0
    settings.max_held_refusals = 2
    with ServerThread(settings).start() as server:
        url = f"{server.url}/api/games/nosuchgame/replay"
        _status(url)
        held = [threading.Thread(target=_status, args=(url,)) for _ in range(2)]
        for thread in held:
            thread.start()
        time.sleep(0.5)  # both refusals are now held
        started = time.monotonic()
        assert _status(url) == 429
        assert time.monotonic() - started < 1.5
        for thread in held:
            thread.join(10)


def test_refusals_wait_only_for_the_refused_address(client: TestClient) -> None:
    """Another address's requests pass while one address is refused."""
    from konkun.server.web.throttle import KonkunApp

    app = client.app
    assert isinstance(app, KonkunApp) and app.throttle is not None
    limiter = app.throttle.limiters[READ]
    for _ in range(1000):
        limiter.take("203.0.113.9")
    assert not limiter.take("203.0.113.9")
    assert client.get("/api/tables").status_code == 200  # testclient's own address


def test_websocket_opens_are_rate_limited_before_the_handshake(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.socket_burst = 2
    settings.socket_per_second = 0.001
    lookups = _counting(monkeypatch, "get_table")
    with running(settings) as client:
        for _ in range(2):
            with client.websocket_connect("/ws/tables/nosuchtable") as ws:
                assert ws.receive_json()["code"] == "unknown_table"  # it was looked up
        with pytest.raises(WebSocketDisconnect) as refused, \
                client.websocket_connect("/ws/tables/nosuchtable"):
            pass
        assert (refused.value.code, refused.value.reason) == (1013, "rate_limited")
        assert len(lookups) == 2
