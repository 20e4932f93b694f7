"""Fixtures of the server tests: the fake game, apps on a temporary database, clients."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi import FastAPI

from konkun.server.app import create_app
from konkun.server.core.config import Settings
from konkun.server.core.games import register_game, unregister_game

from .fakegame import FAKE
from .postgres import PostgresServer, postgres_server

with warnings.catch_warnings():  # starlette asks for httpx2; httpx is what we pin
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession


@pytest.fixture(autouse=True)
def fake_game() -> Iterator[None]:
    """The fake game ``fake`` is playable during each test."""
    register_game(FAKE)
    yield
    unregister_game("fake")


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One PostgreSQL cluster per test process, started when a test first asks for it
    (each test makes a database of its own on it: :meth:`PostgresServer.new_database_url`)."""
    with postgres_server() as server:
        yield server


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings for a server on a fresh SQLite file; bots play without a pause, rate-limit
    refusals are answered at once, and the tests' one address may open many sockets."""
    return Settings(data_dir=tmp_path / "data", secret="test-secret", bot_delay=0.0,
                    refusal_seconds=0.0, socket_burst=10_000)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """A started app on the fresh database, with its in-process test client."""
    with running(settings) as test_client:
        yield test_client


@contextmanager
def running(settings: Settings) -> Iterator[TestClient]:
    """Start an app on ``settings`` (use twice on one database to restart a server)."""
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def app_of(client: TestClient) -> FastAPI:
    """The app under a test client."""
    app = client.app
    assert isinstance(app, FastAPI)
    return app


def guest(client: TestClient, nickname: str) -> tuple[str, dict[str, str]]:
    """A new guest's token and its Authorization header."""
    response = client.post("/api/guest", json={"nickname": nickname})
    assert response.status_code == 200, response.text
    token = response.json()["token"]
    return token, {"Authorization": f"Bearer {token}"}


def sit(client: TestClient, table_id: str, seat: int, name: str) -> str:
    """Seat a new guest called ``name`` at ``seat`` of the table; return its token."""
    token, headers = guest(client, name)
    response = client.post(f"/api/tables/{table_id}/sit", json={"seat": seat}, headers=headers)
    assert response.status_code == 200, response.text
    return token


def new_table(client: TestClient, **fields: Any) -> dict[str, Any]:
    """Create a table (fake game, 2 seats unless told) and return its summary."""
    body = {"game": "fake", "seats": 2} | fields
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    summary: dict[str, Any] = response.json()
    return summary


def legal(state: dict[str, Any]) -> list[str]:
    """The legal action texts of a ``state`` message (Kunken's view is flat; Konchinka's
    and the fake game's hold them in ``deal``)."""
    view = state["view"]
    actions = view["legal"] if "legal" in view else view["deal"]["legal"]
    assert isinstance(actions, list)
    return [str(a) for a in actions]


def receive(ws: WebSocketTestSession, timeout: float = 10.0) -> dict[str, Any]:
    """The next message on a test WebSocket, failing the test after ``timeout`` seconds."""

    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(next_message)
    assert message["type"] == "websocket.send", message
    data: dict[str, Any] = json.loads(message["text"])
    return data


def receive_until(ws: WebSocketTestSession, accept: Callable[[dict[str, Any]], bool],
                  timeout: float = 10.0, seen: list[dict[str, Any]] | None = None) \
        -> dict[str, Any]:
    """Read messages until one satisfies ``accept``; earlier ones go to ``seen``."""
    while True:
        message = receive(ws, timeout)
        if accept(message):
            return message
        if seen is not None:
            seen.append(message)


def no_message(ws: WebSocketTestSession, wait: float = 0.2) -> bool:
    """True when no message arrives within ``wait`` seconds."""
    try:
        receive(ws, wait)
    except TimeoutError:
        return True
    return False
