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
from konkun.server.web.throttle import SOCKET, declared_rate_limit, rate_limit, request_class


def _routes(settings: Settings) -> list[APIRoute | APIWebSocketRoute]:
    app = create_app(settings)
    assert isinstance(app, FastAPI)
    return [r for r in app.routes if isinstance(r, APIRoute | APIWebSocketRoute)]


def _sample(path: str) -> str:
    """A request path of the route: each parameter filled in."""
    return re.sub(r"\{[^}]+\}", "abc", path)


def test_every_route_declares_its_rate_limit_class(settings: Settings) -> None:
    routes = _routes(settings)
    assert len(routes) > 30
    missing = [route.path for route in routes if not declared_rate_limit(route.endpoint)[0]]
    assert missing == []


def test_the_throttle_applies_each_routes_declared_class(settings: Settings) -> None:
    wrong = []
    for route in _routes(settings):
        declared = declared_rate_limit(route.endpoint)[1]
        if isinstance(route, APIWebSocketRoute):
            if declared != SOCKET:  # the throttle limits every WebSocket open
                wrong.append((route.path, "WEBSOCKET", declared, SOCKET))
            continue
        for method in sorted(route.methods - {"HEAD"}):
            applied = request_class(method, _sample(route.path))
            if applied != declared:
                wrong.append((route.path, method, declared, applied))
    assert wrong == []


def test_a_route_without_a_declaration_is_found(settings: Settings) -> None:
    app = create_app(settings)

    @app.get("/api/tables/{table_id}/new-thing")
    async def new_thing(table_id: str) -> dict[str, str]:
        return {"table": table_id}

    assert not declared_rate_limit(new_thing)[0]


def test_an_unknown_rate_limit_class_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'fast'"):
        rate_limit("fast")
