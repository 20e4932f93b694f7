"""Every route declares its rate-limit class next to it (``@rate_limit(...)`` under the
route's decorator), and the throttle applies that class to the route's requests: a new
route without a declaration, or one the throttle would classify otherwise, fails here."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute, APIWebSocketRoute

from konkun.server.app import create_app
from konkun.server.core.config import Settings
from konkun.server.web.throttle import (
    MATCH,
    READ,
    KonkunApp,
    declared_rate_limit,
    flat_routes,
    rate_limit,
)

from .conftest import app_of, running


def _routes(settings: Settings) -> list[APIRoute | APIWebSocketRoute]:
    app = create_app(settings)
    assert isinstance(app, FastAPI)
    return [r for r in flat_routes(app.routes) if isinstance(r, APIRoute | APIWebSocketRoute)]


def _sample(path: str) -> str:
    """A request path of the route: each parameter filled in."""
    return re.sub(r"\{[^}]+\}", "abc", path)


def test_every_route_declares_its_rate_limit_class(settings: Settings) -> None:
    routes = _routes(settings)
    assert len(routes) > 30
    missing = [route.path for route in routes if not declared_rate_limit(route.endpoint)[0]]
    assert missing == []


def test_the_throttle_applies_each_routes_declared_class(settings: Settings) -> None:
    app = create_app(settings)
    assert isinstance(app, KonkunApp)
    classes = app.route_classes()
    wrong = []
    for route in _routes(settings):
        declared = declared_rate_limit(route.endpoint)[1]
        if isinstance(route, APIWebSocketRoute):
            scope = {"type": "websocket", "path": _sample(route.path)}
            if classes.socket_class(scope) != declared:
                wrong.append((route.path, "WEBSOCKET", declared))
            continue
        for method in sorted(route.methods - {"HEAD"}):
            scope = {"type": "http", "method": method, "path": _sample(route.path)}
            applied = classes.request_class(scope)
            if applied != declared:
                wrong.append((route.path, method, declared, applied))
    assert wrong == []


def test_a_new_route_is_throttled_by_the_class_it_declares(settings: Settings) -> None:
    """A route added after the app was built, with a path the throttle has never seen,
    spends the bucket of the class it declares (here ``match``, whose burst is 1) and
    no other: nothing in the throttle names it."""
    settings.replay_burst = 1
    settings.replay_per_second = 0.001
    with running(settings) as client:

        @app_of(client).get("/api/heavy/{thing}")
        @rate_limit(MATCH)
        async def heavy(thing: str) -> dict[str, str]:
            return {"thing": thing}

        @app_of(client).get("/api/light/{thing}")
        @rate_limit(READ)
        async def light(thing: str) -> dict[str, str]:
            return {"thing": thing}

        assert client.get("/api/heavy/a").json() == {"thing": "a"}
        refused = client.get("/api/heavy/b")
        assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
        assert client.get("/api/light/c").status_code == 200  # its own (read) bucket


def test_a_route_without_a_declaration_is_found(settings: Settings) -> None:
    app = create_app(settings)

    @app.get("/api/tables/{table_id}/new-thing")
    async def new_thing(table_id: str) -> dict[str, str]:
        return {"table": table_id}

    assert not declared_rate_limit(new_thing)[0]


def test_an_unknown_rate_limit_class_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'fast'"):
        rate_limit("fast")
