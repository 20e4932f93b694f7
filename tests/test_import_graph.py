"""konkun's imports follow declared layers, checked by import-linter (the contracts are in
``pyproject.toml`` under ``[tool.importlinter]``, and ``lint-imports`` runs after mypy in
``run.py test``): the rules below the bots, the bots below the arena, server, terminal and
RL; inside the server core < store < accounts < features < tables < cluster < lobby < web <
app. A cycle inside one layer is allowed; an arrow pointing down a layer is not."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def _modules() -> dict[str, Path]:
    found = {}
    for path in (SRC / "konkun").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _contract(container: str) -> dict[str, object]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c.get("containers") == [container])


def _layer_names(contract: dict[str, object]) -> set[str]:
    layers = contract["layers"]
    assert isinstance(layers, list)
    return {name.strip() for layer in layers for name in layer.replace(":", "|").split("|")}


def test_the_layer_contracts_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert lint_imports(no_cache=True, no_logo=True) == 0


def test_every_part_of_the_server_is_in_a_layer() -> None:
    """A new server module or subpackage must be given its layer in ``pyproject.toml``."""
    server = SRC / "konkun" / "server"
    parts = {path.stem for path in server.glob("*.py") if path.stem != "__init__"}
    parts |= {path.name for path in server.iterdir()
              if path.is_dir() and (path / "__init__.py").exists()}
    assert parts == _layer_names(_contract("konkun.server"))


def test_the_engines_sit_below_the_bots_and_the_layers_above() -> None:
    layers = _contract("konkun")["layers"]
    assert isinstance(layers, list)
    order = [set(layer.replace(" ", "").split("|")) for layer in layers]
    below = next(i for i, names in enumerate(order) if "kunken" in names)
    above = {name for names in order[:below] for name in names}
    assert {"bots", "arena", "server", "tui", "rl"} <= above
    assert {"konchinka", "kunken"} <= order[below]


def private_imports() -> list[str]:
    """Every ``from M import _name`` in konkun's modules where ``M`` is another module
    (a dunder such as ``__version__`` is public)."""
    found = []
    for module, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            for alias in node.names:
                name = alias.name
                if name.startswith("_") and not name.startswith("__"):
                    found.append(f"{module}: from {'.' * node.level}{node.module or ''}"
                                 f" import {name}")
    return found


def test_no_module_imports_another_modules_private_name() -> None:
    """A name with a leading underscore stays in its module: what another module needs
    is public and documented (ruff's PLC2701 does not look inside the project)."""
    assert private_imports() == []
