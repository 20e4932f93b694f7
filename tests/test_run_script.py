"""The README's test command (``python3 run.py test``): pytest on every core unless the
arguments choose the workers or their distribution."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytest_args = runpy.run_path(str(ROOT / "run.py"))["pytest_args"]  # run.py is a script


@pytest.mark.parametrize("args", [[], ["-x"], ["tests/rl", "-k", "vector"], ["--no-header"]])
def test_the_test_command_runs_each_file_in_one_worker_on_every_core(args: list[str]) -> None:
    assert pytest_args(args) == ["-n", "auto", "--dist", "loadfile", *args]


@pytest.mark.parametrize("args", [["-n", "0"], ["-n0"], ["-n4", "-x"], ["-nauto"],
                                  ["--numprocesses=2"], ["--dist", "load", "-n", "2"]])
def test_workers_or_a_distribution_given_are_kept_as_given(args: list[str]) -> None:
    assert pytest_args(args) == args
