"""The baseline table reproduces: the check row of ``benchmarks/baselines.json`` rerun in
the arena gives exactly its figures, and the table in ``docs/rl.md`` is the file's."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from scripts import load_script

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "baselines.py"


def _script() -> ModuleType:
    return load_script("baselines", SCRIPT)


def test_the_check_row_of_the_baseline_table_reproduces() -> None:
    script = _script()
    rows = script.load()
    check = [r for r in rows if r["check"]]
    assert len(check) == 1, "benchmarks/baselines.json needs its check row"
    row = next(r for r in script.ROWS if r.check)
    assert check[0]["key"] == row.key
    measured = script.measure(row)
    for figure in ("games", "seed", "points", "wins", "margin"):
        assert measured[figure] == check[0][figure], (
            f"{figure}: {measured[figure]} now, {check[0][figure]} in the table measured at "
            f"{check[0]['commit']}: regenerate it (benchmarks/baselines.py)")


def test_the_table_in_the_docs_is_the_files() -> None:
    script = _script()
    rows = script.load()
    if not rows:
        pytest.fail("benchmarks/baselines.json has no rows: run benchmarks/baselines.py")
    text = script.DOC.read_text()
    table = text[text.index(script.BEGIN) + len(script.BEGIN):text.index(script.END)]
    assert table.strip() == script.render(rows)
    assert [r["key"] for r in rows] == [r.key for r in script.ROWS if
                                        r.key in {x["key"] for x in rows}]
