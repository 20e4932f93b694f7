"""The database's tables are made by the migrations only (``konkun.server.migrations``,
run when :class:`~konkun.server.store.storage.Storage` opens): no store creates its own
table, so the schema has one history."""

from __future__ import annotations

from pathlib import Path

import konkun.server

SERVER = Path(konkun.server.__file__).parent


def test_no_store_creates_its_own_tables() -> None:
    makers = [str(path.relative_to(SERVER)) for path in SERVER.rglob("*.py")
              if "migrations" not in path.parts
              and "create_all(" in path.read_text(encoding="utf-8")]
    assert makers == []
