"""The ``konkun`` command line as a whole: sub-commands, errors, and the engines' commands
working without the optional extras (the core engine is free of heavy dependencies)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from konkun.cli import main

HEAVY = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "textual", "rich", "ray",
         "pettingzoo", "gymnasium", "numpy")


def test_every_part_registers_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    listed = capsys.readouterr().out
    for command in ("konchinka", "kunken", "bots", "arena", "serve", "play"):
        assert f"\n    {command}" in listed


def test_unknown_command_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nonsense"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert "'nonsense'" in captured.err


def test_engine_commands_run_without_any_optional_extra() -> None:
    """Block every heavy package, then parse the command line and run engine commands."""
    script = textwrap.dedent(f"""
        import importlib.abc, sys
        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {HEAVY!r}:
                    raise ImportError("blocked: " + name)
                return None
        sys.meta_path.insert(0, Block())
        from konkun.cli import main
        assert main(["konchinka", "moves", "classic As7h2cQd Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -"]) == 0
        assert main(["kunken", "meld", "Kc", "Kd", "X"]) == 0
        assert not any(m.split(".")[0] in {HEAVY!r} for m in sys.modules)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Qh:As7h2c" in result.stdout
    assert '"kind": "set"' in result.stdout
