"""The examples in the Konchinka modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["rules", "moves", "notation", "game", "scoring", "deck", "captures", "move_memo",
           "playout", "deal", "dealing", "observation"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"konkun.konchinka.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0
