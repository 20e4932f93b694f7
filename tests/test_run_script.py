"""The README's test command (``python3 run.py test``): pytest on every core unless the
arguments choose the workers or their distribution."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
# run.py's globals themselves: a name a test sets here is the one run.py calls
RUN = vars(load_script("run_script", ROOT / "run.py"))
pytest_args = RUN["pytest_args"]
workers = RUN["workers"]


@pytest.mark.parametrize("args", [[], ["-x"], ["tests/rl", "-k", "vector"], ["--no-header"]])
def test_the_test_command_runs_each_file_in_one_worker_on_every_core(args: list[str]) -> None:
    assert pytest_args(args) == ["-n", str(workers()), "--dist", "loadfile", *args]


@pytest.mark.parametrize(("cores", "expected"), [(1, 1), (2, 3), (4, 6), (8, 12)])
def test_the_workers_are_half_again_as_many_as_the_cores(cores: int, expected: int) -> None:
    assert workers(cores) == expected


@pytest.mark.parametrize("args", [["-n", "0"], ["-n0"], ["-n4", "-x"], ["-nauto"],
                                  ["--numprocesses=2"], ["--dist", "load", "-n", "2"]])
def test_workers_or_a_distribution_given_are_kept_as_given(args: list[str]) -> None:
    assert pytest_args(args) == args


page_steps = RUN["page_steps"]


def _without(program: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name: None if name == program else real(name))


@pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                    reason="node and npm are needed for the page's checks")
def test_the_test_command_type_checks_the_page_and_runs_its_node_tests() -> None:
    steps = page_steps({})
    assert steps is not None
    assert steps[-2][-3:] == ["--noEmit", "-p", "jsconfig.json"]
    node_tests = steps[-1]
    assert node_tests[1] == "--test"
    files = [part for part in node_tests[2:] if not part.startswith("--")]
    assert "tests/js/fairness.test.js" in files
    assert all(Path(ROOT / test).name.endswith(".test.js") for test in files)


@pytest.mark.parametrize("program", ["node", "npm"])
def test_without_node_a_developer_is_told_the_page_checks_are_skipped(
        program: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _without(program, monkeypatch)
    assert page_steps({}) == []
    assert f"{program} not found: skipping the page's checks" in capsys.readouterr().err


@pytest.mark.parametrize("env", [{"CI": "true"}, {"CI": "1"}, {"KONKUN_REQUIRE_NODE": "1"}])
def test_without_node_under_ci_the_test_command_fails(
        env: dict[str, str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _without("node", monkeypatch)
    assert page_steps(env) is None
    assert "node missing under CI" in capsys.readouterr().err


def test_the_page_checks_pin_their_typescript_exactly() -> None:
    """package.json names one TypeScript version (no range) and package-lock.json locks
    that one, so ``npm ci`` checks the page with the same compiler everywhere."""
    wanted = json.loads((ROOT / "package.json").read_text())["devDependencies"]["typescript"]
    locked = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    assert wanted[0].isdigit() and all(part.isdigit() for part in wanted.split("."))
    assert locked["node_modules/typescript"]["version"] == wanted


@pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                    reason="node and npm are needed for the page's checks")
def test_npm_ci_runs_first_when_the_locked_typescript_is_not_installed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("package.json", "package-lock.json"):
        (tmp_path / name).write_text((ROOT / name).read_text())
    monkeypatch.setitem(page_steps.__globals__, "ROOT", tmp_path)
    assert page_steps({})[0][1:] == ["ci", "--no-audit", "--no-fund"]
    installed = tmp_path / "node_modules" / "typescript"
    installed.mkdir(parents=True)
    (installed / "package.json").write_text('{"version": "0.0.1"}')
    assert page_steps({})[0][1:] == ["ci", "--no-audit", "--no-fund"], "another version"
    locked = json.loads((ROOT / "package-lock.json").read_text())
    version = locked["packages"]["node_modules/typescript"]["version"]
    (installed / "package.json").write_text(json.dumps({"version": version}))
    assert page_steps({})[0][1] != "ci", "the locked version is there"


class _Build:
    """A stand-in for the native build's process that notes when it is waited for."""

    def __init__(self, events: list[str]) -> None:
        self.events = events
        events.append("build started")

    def wait(self) -> int:
        self.events.append("build finished")
        return 0


def _record_steps(events: list[str], failing: str | None = None) -> Any:
    def run_steps(steps: list[list[str]]) -> int:
        for step in steps:
            name = Path(step[0]).name if Path(step[0]).name != "python" else step[2]
            events.append(name)
            if name == failing:
                return 1
        return 0
    return run_steps


def test_the_native_engine_compiles_while_the_checks_run_and_before_the_tests(
        monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    monkeypatch.setitem(RUN, "start_native_build", lambda: _Build(events))
    monkeypatch.setitem(RUN, "page_steps", list)
    monkeypatch.setitem(RUN, "_run_steps", _record_steps(events))
    assert RUN["run_tests"](["-x"]) == 0
    assert events == ["build started", "ruff", "mypy", "lint-imports", "build finished",
                      "pytest"]


def test_a_failing_check_waits_for_the_build_and_runs_no_test(
        monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    monkeypatch.setitem(RUN, "start_native_build", lambda: _Build(events))
    monkeypatch.setitem(RUN, "page_steps", list)
    monkeypatch.setitem(RUN, "_run_steps", _record_steps(events, failing="mypy"))
    assert RUN["run_tests"]([]) == 1
    assert events == ["build started", "ruff", "mypy", "build finished"]


def test_bytecode_is_compiled_in_the_background_after_an_install(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    site = tmp_path / "venv" / "lib" / "python3.11" / "site-packages" / "package"
    site.mkdir(parents=True)
    (site / "module.py").write_text("VALUE = 1\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "ours.py").write_text("VALUE = 2\n")
    monkeypatch.setitem(RUN, "VENV", tmp_path / "venv")
    monkeypatch.setitem(RUN, "ROOT", tmp_path)
    assert RUN["start_compiling_bytecode"]().wait() == 0
    assert list((site / "__pycache__").glob("module.*.pyc"))
    assert list((tmp_path / "src" / "__pycache__").glob("ours.*.pyc"))
