"""The compiled Kunken engine: the same modules built to C extensions with mypyc.

The engine is pure Python and needs nothing else. Built, it runs about twice as fast (the
numbers are in docs/kunken.md, "Speed"). ``python -m konkun.native --build`` compiles the
modules in :data:`KUNKEN_MODULES` into ``konkun/kunken/_native/``; ``python3 run.py``
does it for you whenever they changed. It needs mypy (the ``native`` extra) and a C
compiler; without them the engine stays pure Python.

The build is used only while it matches the sources: its stamp holds a digest of the
files it was built from, and :func:`activate` (called by ``konkun.kunken`` before it
imports anything) puts ``_native/`` first on the package's path only when that digest is
still the sources' own. An edited module therefore never runs a stale build.
``KONKUN_PURE=1`` in the environment keeps the engine pure Python anyway.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

KUNKEN_MODULES = (
    "actions", "applying", "arrangement", "completion", "deal_fields", "hand_melds",
    "legal_steps", "legality", "melds", "scoring", "solver", "state", "takes", "third_card",
)
"""The ``konkun.kunken`` modules the build compiles: the deal and everything its legal
lists and play-outs run. The rules and positions (frozen values, which a compiled module
could not unpickle), the notations, the match and the command line stay Python."""

IMPORTED = ("cards", "errors", "game", "kunken/kkn", "kunken/position", "kunken/rules")
"""The other ``konkun`` modules (paths under the package) that the compiled ones import:
their sources are part of the build's digest too, since the build was checked against
them."""

PURE_VARIABLE = "KONKUN_PURE"
NATIVE_DIR = "_native"
STAMP = "STAMP"
_GROUP = "konkun.kunken.native"  # the shared library: konkun/kunken/native__mypyc*.so


def kunken_dir() -> Path:
    """The ``konkun.kunken`` package's source folder."""
    return Path(__file__).resolve().parent / "kunken"


def sources_digest(package_dir: Path) -> str:
    """A digest of the compiled modules' sources (:data:`KUNKEN_MODULES` in
    ``package_dir``), of the modules they import (:data:`IMPORTED`) and
    of this Python's extension tag: a build made from other sources, or for another Python,
    has another digest."""
    digest = hashlib.sha256(str(sysconfig.get_config_var("EXT_SUFFIX")).encode())
    files = [package_dir / f"{name}.py" for name in KUNKEN_MODULES]
    files += [package_dir.parent / f"{name}.py" for name in IMPORTED]
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def is_current(package_dir: Path) -> bool:
    """Whether ``package_dir/_native`` holds a build of exactly its sources."""
    stamp = package_dir / NATIVE_DIR / STAMP
    try:
        return stamp.read_text().strip() == sources_digest(package_dir)
    except OSError:
        return False


def activate(package_path: list[str], package_dir: Path) -> bool:
    """Put the package's current build first on its ``__path__`` (``package_path``), so
    its compiled modules load instead of the sources; return whether it did. Nothing
    changes without a current build or with ``KONKUN_PURE`` set."""
    if os.environ.get(PURE_VARIABLE) or not is_current(package_dir):
        return False
    package_path.insert(0, str(package_dir / NATIVE_DIR))
    return True


def build(package_dir: Path | None = None, quiet: bool = False) -> Path:
    """Compile :data:`KUNKEN_MODULES` with mypyc into ``package_dir/_native`` (by default
    the package's own) and stamp it; return the folder. Raises
    :class:`subprocess.CalledProcessError` when mypyc or the C compiler fails (the old
    build, if any, is left unused: its stamp is removed first)."""
    package_dir = package_dir or kunken_dir()
    out = package_dir / NATIVE_DIR
    (out / STAMP).unlink(missing_ok=True)
    src = package_dir.parent.parent  # the folder holding the ``konkun`` package
    with tempfile.TemporaryDirectory(prefix="konkun-native-") as work:
        script = _SETUP.format(files=[f"konkun/kunken/{m}.py" for m in KUNKEN_MODULES],
                               group=_GROUP, work=work)
        subprocess.run([sys.executable, "-c", script], cwd=src, check=True,
                       stdout=subprocess.DEVNULL if quiet else None)
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(Path(work, "lib", "konkun", "kunken"), out)
    (out / STAMP).write_text(sources_digest(package_dir) + "\n")
    return out


_SETUP = """
from setuptools import setup
from mypyc.build import mypycify
setup(name="konkun-native", ext_modules=mypycify({files!r}, opt_level="3",
      group_name={group!r}, target_dir={work!r} + "/c"),
      script_args=["build_ext", "--build-lib", {work!r} + "/lib",
                   "--build-temp", {work!r} + "/temp"])
"""


def status() -> str:
    """One line: whether a process started now runs the compiled engine, and why not."""
    package_dir = kunken_dir()
    if os.environ.get(PURE_VARIABLE):
        return f"pure Python ({PURE_VARIABLE} is set)"
    if is_current(package_dir):
        return f"compiled (mypyc), from {package_dir / NATIVE_DIR}"
    if (package_dir / NATIVE_DIR).exists():
        return "pure Python (the compiled build is out of date: python -m konkun.native --build)"
    return "pure Python (not built: python -m konkun.native --build)"


def main(argv: list[str] | None = None) -> int:
    """``python -m konkun.native [--build [--if-stale]] [--clean]``: build, remove or
    report the compiled Kunken engine."""
    parser = argparse.ArgumentParser(prog="python -m konkun.native", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="store_true", help="compile the engine now")
    parser.add_argument("--if-stale", action="store_true",
                        help="with --build: only when the build is missing or out of date")
    parser.add_argument("--clean", action="store_true", help="remove the compiled engine")
    parser.add_argument("--quiet", action="store_true", help="hide the compiler's output")
    args = parser.parse_args(argv)
    if args.clean:
        shutil.rmtree(kunken_dir() / NATIVE_DIR, ignore_errors=True)
    if args.build and not (args.if_stale and is_current(kunken_dir())):
        try:
            build(quiet=args.quiet)
        except (OSError, subprocess.CalledProcessError) as error:
            print(f"konkun.native: the build failed ({error}); the engine stays pure Python",
                  file=sys.stderr)
            return 1
    print(status())
    return 0


if __name__ == "__main__":
    sys.exit(main())
