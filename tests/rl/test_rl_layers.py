"""The arrows point one way: the engines never import the research API, the terminal app
or their heavy dependencies."""

from __future__ import annotations

import subprocess
import sys


def test_the_engines_import_neither_rl_nor_tui_nor_numpy() -> None:
    code = (
        "import sys, konkun.konchinka.game, konkun.kunken\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('numpy', 'gymnasium', 'pettingzoo', 'textual', 'rich') "
        "or m.startswith(('konkun.rl', 'konkun.tui')))\n"
        "print(','.join(bad))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == ""
