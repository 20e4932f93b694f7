"""konkun's modules import one another without a cycle: every import counts, at the top of
a module, inside a function or under ``TYPE_CHECKING``, so the arrows point one way
(engines below bots, arena, server, terminal and RL; a layer's modules in layers too)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _modules() -> dict[str, Path]:
    found = {}
    for path in (SRC / "konkun").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imported(node: ast.AST, package: str) -> Iterator[str]:
    """The dotted names an import statement brings in: for ``from P import x`` the
    module ``P.x`` when ``x`` is one, else ``P`` itself."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parent = package.split(".")[:len(package.split(".")) - node.level + 1]
            base = ".".join([*parent, base] if base else parent)
        for alias in node.names:
            yield f"{base}.{alias.name}"


def import_graph() -> dict[str, set[str]]:
    """Each konkun module and the konkun modules it imports."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _imported(node, package):
                while target and target not in modules:
                    target = target.rpartition(".")[0]  # P.x where x is a name of P
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_konkun_has_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_the_table_features_name_only_their_ports() -> None:
    # chat, the clock and the life cycle are built by the lobby and held by the table:
    # they name the Protocols of konkun.server.features.ports and their own, not the two classes
    graph = import_graph()
    for feature in ("chat", "clock", "lifecycle"):
        imported = graph[f"konkun.server.features.{feature}"]
        assert not imported & {"konkun.server.lobby", "konkun.server.tables.table"}, feature


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_graph_sees_lazy_and_type_checking_imports() -> None:
    graph = import_graph()
    assert "konkun.errors" in graph["konkun.game"]
    # konkun.game imports the descriptors only by text: the registry sits below the engines
    assert not any(name.startswith("konkun.konchinka") for name in graph["konkun.game"])
    assert "konkun.konchinka.rules" in graph["konkun.konchinka.descriptor"]


def test_the_engines_import_no_layer_above_them() -> None:
    graph = import_graph()
    layers = ("konkun.bots", "konkun.arena", "konkun.server", "konkun.tui", "konkun.rl",
              "konkun.cli")
    for name, imported in graph.items():
        if name.startswith(("konkun.konchinka", "konkun.kunken")) and not name.endswith(".cli"):
            assert not [m for m in imported if m.startswith(layers)], name


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
