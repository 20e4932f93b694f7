"""A script of the project (``run.py``, a benchmark, an example, an oracle or a generator
beside its tests) loaded as a module, so that a test can call its functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_script(name: str, path: Path) -> ModuleType:
    """The script at ``path`` as the module ``name``, loaded once: it is registered in
    ``sys.modules`` before it runs (a dataclass looks its module up there), and a second
    call gives the same module (its globals are the ones its functions read)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path} as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
