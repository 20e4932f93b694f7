"""The compiled Kunken engine: the same modules built to C extensions with mypyc, and the C
core of the hand search, of the melds-alone check, of the completion judge, of the take scan,
of the swap-third melds, of the swap-third list, of the opening melds and lay-offs (with
a layout too), of the candidate melds, of the joker-identity verdicts and of the third-card
list.

The engine is pure Python and needs nothing else. Built, it runs about twice as fast (the
numbers are in docs/kunken.md, "Speed"), and so do the Kunken bots' play-outs.
``python -m konkun.native --build`` compiles the modules of :data:`COMPILED` into a
``_native/`` folder beside each package's sources, and with them :data:`C_CORE` (the
arrangement search, the listing of the melds it searches, the check whether a take turn can
be completed by melds alone, the exact completion judge of a take turn, the take scan, the
verdicts on the melds of a legal list while only the taken card's meld is due with a
layout, and that whole list with its lay-offs and swaps, and those on the melds and
lay-offs while opening points are due (without a layout and with one), the candidate
melds of a hand, the verdicts of a take turn's steps with its joker marks, and the whole
list while the taken card's meld is due and no points are (outside the swap-third case),
written in C,
``kunken/hand_search.c``, whose Python references are
``konkun.kunken.arrangement.ReferenceSearch``, ``group_options``,
``konkun.kunken.solver.reference_can_complete``,
``konkun.kunken.completion.reference_completable``,
``konkun.kunken.solver.reference_take_positions``,
``konkun.kunken.completion.reference_take_positions``,
``konkun.kunken.legal_steps.LegalSteps.reference_swap_third_melds``,
``reference_swap_third_actions``, ``reference_opening_melds``,
``reference_opening_layoffs``, ``reference_layout_layoffs``,
``reference_candidate_melds``, ``reference_identity_completes`` and
``reference_third_card_actions``); ``python3 run.py``
does it for you whenever they changed. It needs mypy (the ``native`` extra) and a C
compiler; without them everything stays pure Python.

The build is used only while it matches the sources: its stamp holds a digest of the
files it was built from, and :func:`activate` (called by ``konkun.kunken``, ``konkun.bots``
and ``konkun.rl`` before they import anything) puts ``_native/`` first on the package's
path only when that digest is still the sources' own. An edited module therefore never
runs a stale build. ``KONKUN_PURE=1`` in the environment keeps everything pure Python.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shlex
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

BOT_MODULES = ("kunken_bots", "kunken_greedy", "kunken_planner")
"""The ``konkun.bots`` modules the build compiles: the Kunken bots, whose evaluations are
most of a Kunken search's play-outs."""

RL_MODULES = ("kunken_loops",)
"""The ``konkun.rl`` modules the build compiles: the Kunken environments' loops over deals
and actions (no numpy in them)."""

COMPILED = {"kunken": KUNKEN_MODULES, "bots": BOT_MODULES, "rl": RL_MODULES}
"""Each package (a folder of ``konkun``) and its modules the build compiles."""

IMPORTED = ("bots/base", "bots/policy", "bots/specs", "cards", "errors", "game",
            "kunken/kkn", "kunken/position", "kunken/rules")
"""The other ``konkun`` modules (paths under the package) that the compiled ones import:
their sources are part of the build's digest too, since the build was checked against
them."""

C_CORE = ("konkun.kunken.hand_search", "kunken/hand_search.c")
"""The C core's module and its source (under the ``konkun`` package): built into
``konkun/kunken/_native/`` with the compiled modules, so it loads exactly when they do."""

C_EXTENSIONS = (C_CORE, ("konkun.rl.tensor_rows", "rl/tensor_rows.c"))
"""Every C module the build compiles with its source: the engine's C core and the Kunken
vector env's tensor rows (``konkun/rl/_native/``)."""

PURE_VARIABLE = "KONKUN_PURE"
NATIVE_DIR = "_native"
STAMP = "STAMP"
_GROUP = "konkun.kunken.native"  # the shared library: konkun/kunken/native__mypyc*.so


def konkun_dir() -> Path:
    """The ``konkun`` package's source folder."""
    return Path(__file__).resolve().parent


def compiled_files(root: Path) -> list[str]:
    """The compiled modules' paths under ``root`` (the folder holding ``konkun``)."""
    return [f"konkun/{package}/{name}.py" for package, names in COMPILED.items()
            for name in names]


def sources_digest(konkun: Path) -> str:
    """A digest of the compiled modules' sources under ``konkun`` (the package folder), of
    the modules they import (:data:`IMPORTED`), of the C sources (:data:`C_EXTENSIONS`) and
    of this Python's extension tag: a build made from other sources, or for another Python,
    has another digest."""
    digest = hashlib.sha256(str(sysconfig.get_config_var("EXT_SUFFIX")).encode())
    names = [file.removeprefix("konkun/") for file in compiled_files(konkun.parent)]
    names += [f"{name}.py" for name in IMPORTED]
    names += [source for _, source in C_EXTENSIONS]
    for name in names:
        digest.update(name.encode() + b"\0" + (konkun / name).read_bytes())
    return digest.hexdigest()


def is_current(package_dir: Path) -> bool:
    """Whether ``package_dir/_native`` holds a build of exactly the present sources."""
    stamp = package_dir / NATIVE_DIR / STAMP
    try:
        return stamp.read_text().strip() == sources_digest(package_dir.parent)
    except OSError:
        return False


def all_current(konkun: Path) -> bool:
    """Whether every package of :data:`COMPILED` under ``konkun`` has a current build."""
    return all(is_current(konkun / package) for package in COMPILED)


def activate(package_path: list[str], package_dir: Path) -> bool:
    """Put the package's current build first on its ``__path__`` (``package_path``), so
    its compiled modules load instead of the sources; return whether it did. Nothing
    changes with ``KONKUN_PURE`` set or unless every package's build is current (the
    compiled bots load the engine's shared library)."""
    if os.environ.get(PURE_VARIABLE) or not all_current(package_dir.parent):
        return False
    package_path.insert(0, str(package_dir / NATIVE_DIR))
    return True


def build(konkun: Path | None = None, quiet: bool = False) -> None:
    """Compile :data:`COMPILED` with mypyc into each package's ``_native`` folder under
    ``konkun`` (by default this package) and stamp them. Raises
    :class:`subprocess.CalledProcessError` when mypyc or the C compiler fails (an old
    build, if any, is left unused: its stamps are removed first)."""
    konkun = konkun or konkun_dir()
    for package in COMPILED:
        (konkun / package / NATIVE_DIR / STAMP).unlink(missing_ok=True)
    check_compiler()
    with tempfile.TemporaryDirectory(prefix="konkun-native-") as work:
        extensions = [(name, f"konkun/{source}") for name, source in C_EXTENSIONS]
        script = _SETUP.format(files=compiled_files(konkun.parent), group=_GROUP, work=work,
                               extensions=extensions)
        subprocess.run([sys.executable, "-c", script], cwd=konkun.parent, check=True,
                       stdout=subprocess.DEVNULL if quiet else None)
        for package in COMPILED:
            out = konkun / package / NATIVE_DIR
            shutil.rmtree(out, ignore_errors=True)
            shutil.copytree(Path(work, "lib", "konkun", package), out)
    digest = sources_digest(konkun)
    for package in COMPILED:
        (konkun / package / NATIVE_DIR / STAMP).write_text(digest + "\n")


class NoCompilerError(Exception):
    """No C compiler that builds a Python extension on this machine (the message says
    which command was tried and why it failed)."""


_PROBE = "#include <Python.h>\nint konkun_probe(void) { return Py_IsNone(Py_None); }\n"


def check_compiler() -> None:
    """Compile a one-line extension source with the compiler and the Python headers the
    build will use (``CC`` from the environment, else the one Python was built with, as
    setuptools chooses), so a machine without them learns it in a moment rather than after
    mypyc's minutes of work. Raises :class:`NoCompilerError`; does nothing on Windows,
    where setuptools finds its compiler another way."""
    if os.name == "nt":
        return
    command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    with tempfile.TemporaryDirectory(prefix="konkun-probe-") as work:
        source = Path(work, "probe.c")
        source.write_text(_PROBE)
        try:
            done = subprocess.run(
                [*command, "-c", str(source), "-o", str(Path(work, "probe.o")),
                 "-I", sysconfig.get_paths()["include"]],
                capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise NoCompilerError(f"{shlex.join(command)}: {error}") from error
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        said = next((line for line in lines if "error" in line), lines[-1])
        raise NoCompilerError(f"{shlex.join(command)} could not compile an extension: {said}")


_SETUP = """
from setuptools import Extension, setup
from mypyc.build import mypycify
cores = [Extension(name, [source], extra_compile_args=["-O2"])
         for name, source in {extensions!r}]
setup(name="konkun-native", ext_modules=mypycify({files!r}, opt_level="3",
      group_name={group!r}, target_dir={work!r} + "/c") + cores,
      script_args=["build_ext", "--build-lib", {work!r} + "/lib",
                   "--build-temp", {work!r} + "/temp"])
"""


def status() -> str:
    """One line: whether a process started now runs the compiled modules, and why not."""
    folders = [konkun_dir() / package / NATIVE_DIR for package in COMPILED]
    if os.environ.get(PURE_VARIABLE):
        return f"pure Python ({PURE_VARIABLE} is set)"
    if all_current(konkun_dir()):
        return ("compiled (mypyc, with the C core of the hand search, of the melds-alone check, "
                "of the completion judge, of the take scan, of the swap-third melds, of the "
                "swap-third list, of the opening melds and lay-offs (with a layout too), of "
                "the candidate melds, of the joker-identity verdicts and of the third-card "
                "list), from "
                + ", ".join(str(folder) for folder in folders))
    if any(folder.exists() for folder in folders):
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
        for package in COMPILED:
            shutil.rmtree(konkun_dir() / package / NATIVE_DIR, ignore_errors=True)
    if args.build and not (args.if_stale and all_current(konkun_dir())):
        print("konkun.native: compiling the Kunken engine, bots and environment loops "
              "(mypyc, a minute or two)", file=sys.stderr)
        try:
            build(quiet=args.quiet)
        except NoCompilerError as error:
            print(f"konkun.native: no working C compiler ({error}); everything stays pure "
                  "Python", file=sys.stderr)
            return 1
        except subprocess.CalledProcessError as error:
            print(f"konkun.native: mypyc or the C compiler failed (exit status "
                  f"{error.returncode}, its output above); everything stays pure Python",
                  file=sys.stderr)
            return 1
        except OSError as error:
            print(f"konkun.native: the build failed ({error}); everything stays pure Python",
                  file=sys.stderr)
            return 1
    print(status())
    return 0


if __name__ == "__main__":
    sys.exit(main())
