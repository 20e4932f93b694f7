#!/usr/bin/env python3
"""Bootstrap and run konkun with only python3 on the machine.

    python3 run.py serve [ARGS...]   start the web app (creates .venv on first use)
    python3 run.py test [PYTEST ARGS...]   ruff, mypy --strict, the import layers
                                           (lint-imports), the page's checks (tsc and
                                           node --test) and the whole test suite
                                           (on every core; ``-n 0`` for one process)
    python3 run.py konkun ARGS...    any konkun command inside the project's environment

The virtual environment lives in .venv beside this file. It is (re)installed whenever
pyproject.toml changes, from the pinned versions written there. ``test`` also installs
the ``train`` extra (PyTorch and Stable-Baselines3) that the reinforcement-learning example's
tests need; ``serve`` does without it. The Kunken engine, bots and environment loops are
then compiled with mypyc (``python -m konkun.native``) whenever their sources changed (for
``test``, while the linters and the page's checks run); ``KONKUN_PURE=1`` keeps them pure
Python.

The web page has no build step; its checks need node and npm: ``npm ci`` installs the pinned
TypeScript (package-lock.json) when node_modules is missing, then ``tsc --noEmit -p
jsconfig.json`` checks the page's JSDoc types and ``node --test`` runs tests/js. Without node
they are skipped with a message, except under CI (``CI=true``, or ``KONKUN_REQUIRE_NODE=1`` as
.ci/run sets), where that is a failure.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"
STAMP = VENV / ".konkun-installed"
EXTRAS = ("server", "postgres", "tui", "rl", "ray", "native", "dev")
TEST_EXTRAS = (*EXTRAS, "train", "openspiel")


def _requirements_digest(extras: tuple[str, ...]) -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()
                          + ",".join(extras).encode()).hexdigest()


def ensure_environment(extras: tuple[str, ...] = EXTRAS) -> None:
    """Create .venv and install the project with its pinned ``extras`` when needed (a
    larger set installed earlier covers a smaller one)."""
    if not (BIN / "python").exists():
        print("konkun: creating .venv ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    installed = STAMP.read_text() if STAMP.exists() else ""
    covering = (extras, TEST_EXTRAS) if extras == EXTRAS else (extras,)
    if installed in {_requirements_digest(choice) for choice in covering}:
        return
    print("konkun: installing dependencies into .venv ...", file=sys.stderr)
    pip = [str(BIN / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "--no-compile", "-e", f"{ROOT}[{','.join(extras)}]"], check=True)
    STAMP.write_text(_requirements_digest(extras))
    start_compiling_bytecode()


def start_compiling_bytecode() -> subprocess.Popen[bytes]:
    """Compile the installed packages' and the project's bytecode in the background, at
    the lowest priority, while the next steps run (pip compiled it itself in about half of
    the install's time, with a core of the two idle). Nothing waits for it: a module it has
    not reached yet is compiled by whatever imports it, as before."""
    return subprocess.Popen(
        [str(BIN / "python"), "-m", "compileall", "-qq", "-j", "0",
         *map(str, VENV.glob("lib/python*/site-packages")), str(ROOT / "src")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        preexec_fn=lambda: os.nice(19))


def start_native_build() -> subprocess.Popen[bytes] | None:
    """Start compiling the Kunken engine, bots and environment loops (``python -m
    konkun.native``) when their build is missing or out of date; without a C compiler they
    stay pure Python, which is slower but the same. ``None`` with ``KONKUN_PURE=1``, which
    skips this."""
    if os.environ.get("KONKUN_PURE"):
        return None
    return subprocess.Popen([str(BIN / "python"), "-m", "konkun.native", "--build",
                             "--if-stale", "--quiet"], stdout=subprocess.DEVNULL)


def ensure_native_engine() -> None:
    """:func:`start_native_build` and wait for it."""
    build = start_native_build()
    if build is not None:
        build.wait()


def workers(cores: int | None = None) -> int:
    """pytest-xdist's workers: half again as many as the cores (3 on 2). The browser and
    multi-process tests spend much of their time waiting on a page or a server, which left
    a core idle with one worker per core: on 2 cores the suite took 671 s with 3 workers
    against 742 s with 2 (fresh clones, one after the other)."""
    cores = cores or os.cpu_count() or 1
    return cores + cores // 2


def pytest_args(args: list[str]) -> list[str]:
    """``args`` for pytest: :func:`workers`, each test file in one worker (so a file's
    module fixtures, its browser among them, start once), unless they choose the workers
    (``-n N``, ``-n 0`` for one process) or the distribution themselves."""
    chosen = any(a == "-n" or (a.startswith("-n") and a[2:].isalnum())
                 or a.startswith(("--numprocesses", "--dist")) for a in args)
    return args if chosen else ["-n", str(workers()), "--dist", "loadfile", *args]


NODE_TESTS = "tests/js"
"""The page's node unit tests (``*.test.js``)."""


def _typescript_installed() -> bool:
    """Whether node_modules holds the TypeScript that package-lock.json locks."""
    try:
        locked = json.loads((ROOT / "package-lock.json").read_text())
        installed = json.loads(
            (ROOT / "node_modules" / "typescript" / "package.json").read_text())
    except (OSError, ValueError):
        return False
    wanted = locked["packages"]["node_modules/typescript"]["version"]
    return bool(installed.get("version") == wanted)


def page_steps(env: dict[str, str] | None = None) -> list[list[str]] | None:
    """The page's checks: ``npm ci`` when node_modules is missing, ``tsc --noEmit`` over the
    page's JSDoc types and ``node --test`` on tests/js. ``[]`` (skipped, with a message) when
    node or npm is missing on a developer's machine; ``None`` when they are missing under CI
    (``CI`` set to true, or ``KONKUN_REQUIRE_NODE``), where the checks must run."""
    env = dict(os.environ) if env is None else env
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        missing = " and ".join(name for name, path in (("node", node), ("npm", npm))
                               if path is None)
        if (env.get("CI", "").lower() in {"1", "true", "yes"}
                or env.get("KONKUN_REQUIRE_NODE")):
            print(f"konkun: {missing} missing under CI: the page's checks (tsc, node --test) "
                  "cannot run; install nodejs and npm", file=sys.stderr)
            return None
        print(f"konkun: {missing} not found: skipping the page's checks (tsc, node --test); "
              "install nodejs and npm to run them", file=sys.stderr)
        return []
    steps = [] if _typescript_installed() else [[npm, "ci", "--no-audit", "--no-fund"]]
    tests = sorted(str(path.relative_to(ROOT)) for path in (ROOT / NODE_TESTS).glob("*.test.js"))
    return [*steps, [node, str(ROOT / "node_modules" / "typescript" / "bin" / "tsc"),
                     "--noEmit", "-p", "jsconfig.json"],
            [node, "--test", "--test-reporter=dot", *tests]]


def _run_steps(steps: list[list[str]]) -> int:
    """Run ``steps`` one after the other, each shown first; the first failing status."""
    for step in steps:
        print("+", " ".join(Path(step[0]).name if i == 0 else a for i, a in enumerate(step)),
              flush=True)
        status = subprocess.run(step, cwd=ROOT).returncode
        if status != 0:
            return status
    return 0


def run_tests(args: list[str]) -> int:
    """Lint, type-check, check the import layers and check the page while the native
    engine compiles (each takes a core for most of a minute), then run the whole test
    suite on the compiled engine; return the first failing status."""
    build = start_native_build()
    try:
        page = page_steps()
        status = 1 if page is None else _run_steps([
            [str(BIN / "ruff"), "check", "src", "tests", "benchmarks"],
            [str(BIN / "mypy")],
            [str(BIN / "lint-imports")],
            *page,
        ])
    finally:
        if build is not None:
            build.wait()
    if status != 0:
        return status
    return _run_steps([[str(BIN / "python"), "-m", "pytest", *pytest_args(args)]])


def main(argv: list[str]) -> int:
    """Dispatch ``serve``, ``test`` or ``konkun`` after bootstrapping the environment."""
    if not argv or argv[0] not in {"serve", "test", "konkun"}:
        print(__doc__, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    ensure_environment(TEST_EXTRAS if command == "test" else EXTRAS)
    if command == "test":
        return run_tests(rest)
    ensure_native_engine()
    konkun_args = ["serve", *rest] if command == "serve" else rest
    os.execv(str(BIN / "konkun"), [str(BIN / "konkun"), *konkun_args])
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
