"""The README's test command (``python3 run.py test``): pytest on every core unless the
arguments choose the workers or their distribution."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("konkun_run_script", ROOT / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("args", [[], ["-x"], ["tests/rl", "-k", "vector"], ["--no-header"]])
def test_the_test_command_runs_each_file_in_one_worker_on_every_core(args: list[str]) -> None:
    assert _run_script().pytest_args(args) == ["-n", "auto", "--dist", "loadfile", *args]


@pytest.mark.parametrize("args", [["-n", "0"], ["-n0"], ["-n4", "-x"], ["-nauto"],
                                  ["--numprocesses=2"], ["--dist", "load", "-n", "2"]])
def test_workers_or_a_distribution_given_are_kept_as_given(args: list[str]) -> None:
    assert _run_script().pytest_args(args) == args
