"""A smoke run of ``benchmarks/bench_peers.py``: every measure runs for a fraction of a
second and its row, and the ratio rows of the peers installed, appear in the table; a
peer not installed is skipped with a note. (Speed itself is never judged in a test.)"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from scripts import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_peers.py"
HAS_PYSPIEL = importlib.util.find_spec("pyspiel") is not None
HAS_RLCARD = importlib.util.find_spec("rlcard") is not None


def _script() -> ModuleType:
    return load_script("bench_peers", SCRIPT)


def _table_rows(output: str) -> dict[str, str]:
    """The tables' rows (not their headers) by their first cell."""
    lines = output.splitlines()
    return {line.split("|")[1].strip(): line
            for line, below in zip(lines, [*lines[1:], ""], strict=True)
            if line.startswith("| ") and not below.startswith("|---")}


def _measure_names(output: str) -> list[str]:
    """The second cell of the figures table's rows (its rows have five cells)."""
    return [line.split("|")[2].strip() for line in _table_rows(output).values()
            if line.count("|") == 6]


def test_a_short_run_prints_every_measure_and_the_ratios(
        capsys: pytest.CaptureFixture[str]) -> None:
    _script().main(["--rounds", "2", "--seconds", "0.02", "--iters", "3"])
    output = capsys.readouterr().out
    names = _measure_names(output)
    expected = ["kunken-2", "kunken-4", "kunken-legal", "kunken-ismcts", "kunken-ismcts-bot"]
    if HAS_PYSPIEL:
        expected += ["openspiel", "openspiel-legal", "openspiel-ismcts"]
    else:
        assert "OpenSpiel skipped" in output
    if HAS_RLCARD:
        expected.append("rlcard")
    else:
        assert "RLCard skipped" in output
    assert sorted(names) == sorted(expected)
    for row in _table_rows(output).values():
        if row.count("|") == 6:
            assert len(row.split("|")[5].split(" / ")) == 2, row  # one figure a round
    ratios = [label for label in _table_rows(output) if label.startswith(
        ("Kunken play-outs", "legal moves", "ISMCTS"))]
    assert len(ratios) == (5 if HAS_PYSPIEL else 0) + (2 if HAS_RLCARD else 0)
    if HAS_PYSPIEL:
        assert any("4 seats / OpenSpiel gin_rummy (2 players" in label for label in ratios)


def test_only_runs_the_measures_of_a_group(capsys: pytest.CaptureFixture[str]) -> None:
    _script().main(["--rounds", "1", "--seconds", "0.02", "--only", "legal"])
    names = set(_measure_names(capsys.readouterr().out))
    assert names == {"kunken-legal"} | ({"openspiel-legal"} if HAS_PYSPIEL else set())


def test_only_an_unknown_name_is_refused_naming_it() -> None:
    with pytest.raises(SystemExit, match="unknown measure gin"):
        _script().main(["--only", "gin"])


def test_peers_not_installed_are_skipped_with_a_note(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    script = _script()
    monkeypatch.setattr(script, "HAS_PYSPIEL", False)
    monkeypatch.setattr(script, "HAS_RLCARD", False)
    script.main(["--rounds", "1", "--seconds", "0.02", "--only", "playouts"])
    output = capsys.readouterr().out
    assert "OpenSpiel skipped: pyspiel is not installed" in output
    assert "RLCard skipped: rlcard is not installed" in output
    assert sorted(_measure_names(output)) == ["kunken-2", "kunken-4"]
    assert "ratio" not in output
