"""The konkun web app: lobby, tables, storage and the WebSocket protocol (``konkun serve``).

Importing this package is cheap; the web stack (FastAPI, SQLAlchemy, uvicorn) is imported by
the modules that need it. Start with :func:`konkun.server.app.create_app`; the protocol is
described in ``docs/protocol.md`` and the server in ``docs/server.md``.
"""
