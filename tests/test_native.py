"""The compiled Kunken engine (konkun.native): used only while it matches the sources, and
the same engine as the pure Python one."""

from __future__ import annotations

import ast
import os
import pickle
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from konkun import native
from konkun.kunken import KunkenRules, new_deal
from native_checks import require_native

KONKUN = Path(native.__file__).resolve().parent

TRACE = """
import hashlib, random, sys
import konkun.kunken
from konkun.kunken import KunkenRules, new_deal
digest = hashlib.sha256()
variants = (({}, 2), ({"joker_for_held": "false"}, 3), ({"swap_before_take": "true"}, 4))
for options, seats in variants:
    rules = KunkenRules.from_options(options)
    rng = random.Random(seats)
    for number in range(8):
        deal = new_deal(rules, seats, number % seats, rng)
        while not deal.is_over():
            legal = deal.legal_actions()
            digest.update(" | ".join(a.text() for a in legal).encode())
            deal.push(rng.choice(legal))
        digest.update(repr(deal.points()).encode())
print(konkun.kunken.NATIVE, digest.hexdigest())
"""

BOT_MOVES = """
import hashlib, random
import konkun.bots
from konkun.bots.base import Agent, Budget
from konkun.bots.specs import create_bot
from konkun.kunken import KunkenRules, new_deal
digest = hashlib.sha256()
# ISMCTS plays fewer moves: pure Python, each of its moves costs seconds.
for spec, moves in (("greedy", 60), ("greedy:v=1", 60), ("ismcts:iters=40:width=3:root=flat", 24)):
    agent = Agent(create_bot(spec, "kunken"), Budget(), random.Random(5))
    rng = random.Random(7)
    deal = new_deal(KunkenRules(), 2, 0, rng)
    for _ in range(moves):
        if deal.is_over():
            break
        action = agent.act(deal)
        digest.update(action.text().encode())
        deal.push(action)
print(konkun.bots.NATIVE, digest.hexdigest())
"""


def copy_of_the_sources(tmp_path: Path) -> Path:
    """The package's sources the digest reads, copied under ``tmp_path``; its kunken dir."""
    compiled = [f"{package}/{m}" for package, names in native.COMPILED.items() for m in names]
    sources = [source for _, source in native.C_EXTENSIONS]
    for name in (*[f"{name}.py" for name in (*compiled, *native.IMPORTED)], *sources):
        target = tmp_path / "konkun" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(KONKUN / name, target)
    return tmp_path / "konkun" / "kunken"


def stamp(package_dir: Path) -> None:
    """Stamp every compiled package beside ``package_dir`` as built from today's sources."""
    for package in native.COMPILED:
        folder = package_dir.parent / package / native.NATIVE_DIR
        folder.mkdir(exist_ok=True)
        (folder / native.STAMP).write_text(native.sources_digest(package_dir.parent))


def test_a_current_build_goes_first_on_the_package_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_VARIABLE, raising=False)
    package_dir = copy_of_the_sources(tmp_path)
    stamp(package_dir)
    path = [str(package_dir)]
    assert native.activate(path, package_dir)
    assert path == [str(package_dir / native.NATIVE_DIR), str(package_dir)]


def test_a_partial_build_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_VARIABLE, raising=False)
    package_dir = copy_of_the_sources(tmp_path)
    stamp(package_dir)
    shutil.rmtree(package_dir / native.NATIVE_DIR)  # the engine's build gone, the bots' kept
    bots = tmp_path / "konkun" / "bots"
    path = [str(bots)]
    assert not native.activate(path, bots)
    assert path == [str(bots)]


@pytest.mark.parametrize("edited", ["kunken/legal_steps.py", "kunken/rules.py", "cards.py",
                                    "bots/kunken_planner.py", "kunken/hand_search.c"])
def test_a_build_of_other_sources_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edited: str) -> None:
    """An edited source, the C core's among them, makes the build stale."""
    monkeypatch.delenv(native.PURE_VARIABLE, raising=False)
    package_dir = copy_of_the_sources(tmp_path)
    stamp(package_dir)
    with (tmp_path / "konkun" / edited).open("a") as source:
        source.write("/* edited after the build */\n" if edited.endswith(".c")
                     else "# edited after the build\n")
    path = [str(package_dir)]
    assert not native.activate(path, package_dir)
    assert path == [str(package_dir)]


def test_no_build_and_konkun_pure_keep_the_sources(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package_dir = copy_of_the_sources(tmp_path)
    path = [str(package_dir)]
    assert not native.activate(path, package_dir)
    stamp(package_dir)
    monkeypatch.setenv(native.PURE_VARIABLE, "1")
    assert not native.activate(path, package_dir)
    assert path == [str(package_dir)]


def test_the_digest_covers_every_konkun_module_the_compiled_ones_import() -> None:
    compiled = {f"konkun.{package}.{m}" for package, names in native.COMPILED.items()
                for m in names}
    imported: set[str] = set()
    for module in compiled:
        tree = ast.parse((KONKUN.parent / f"{module.replace('.', '/')}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
    # "from konkun.<package> import <C module>": the C sources are digested (C_EXTENSIONS).
    packages = {f"konkun.{package}" for package in native.COMPILED}
    outside = {m for m in imported if m.startswith("konkun.")} - compiled - packages
    assert outside == {"konkun." + name.replace("/", ".") for name in native.IMPORTED}


def run(script: str, pure: bool) -> tuple[str, str]:
    """(whether the script's package loaded compiled, the digest the script printed)."""
    env = {k: v for k, v in os.environ.items() if k != native.PURE_VARIABLE}
    if pure:
        env[native.PURE_VARIABLE] = "1"
    out = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return out[0], out[1]


def require_build() -> None:
    require_native(all(native.is_current(KONKUN / package) for package in native.COMPILED),
                   "the compiled modules")


def test_the_compiled_engine_lists_the_same_actions_and_points_as_the_pure_one() -> None:
    require_build()
    compiled, pure = run(TRACE, pure=False), run(TRACE, pure=True)
    assert (compiled[0], pure[0]) == ("True", "False")
    assert compiled[1] == pure[1]


def test_the_status_names_the_c_core_of_the_hand_search_and_konkun_pure_turns_it_off() -> None:
    """The status names the C parts (the hand search, the melds-alone check, the completion
    judge, the take scan, the swap-third melds, the swap-third list, the opening melds and
    lay-offs, the candidate melds, the joker-identity verdicts and the third-card list), which
    run when built;
    KONKUN_PURE=1 keeps the Python references."""
    require_build()
    env = {k: v for k, v in os.environ.items() if k != native.PURE_VARIABLE}
    script = ("import konkun.native; "
              "from konkun.kunken import arrangement, completion, legal_steps, solver; "
              "print(konkun.native.status()); "
              "print(arrangement.C_SEARCH is not None, solver.C_CAN_COMPLETE is not None, "
              "completion.C_JUDGE is not None, solver.C_TAKE_SCAN is not None, "
              "completion.C_SWAP_THIRD_MELDS is not None, "
              "legal_steps.C_SWAP_THIRD_LIST is not None, "
              "completion.C_OPENING_MELDS is not None, "
              "completion.C_OPENING_LAYOFFS is not None, "
              "completion.C_LAYOUT_LAYOFFS is not None, "
              "legal_steps.C_CANDIDATE_MELDS is not None, "
              "legal_steps.C_IDENTITY_VERDICTS is not None, "
              "legal_steps.C_THIRD_CARD_LIST is not None)")
    built = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                           capture_output=True, text=True).stdout.splitlines()
    pure = subprocess.run([sys.executable, "-c", script],
                          env={**env, native.PURE_VARIABLE: "1"}, check=True,
                          capture_output=True, text=True).stdout.splitlines()
    assert built[0].startswith("compiled (mypyc, with the C core of the hand search, of the "
                               "melds-alone check, of the completion judge, of the take scan, "
                               "of the swap-third melds, of the swap-third list, of the "
                               "opening melds and lay-offs (with a layout too), of the "
                               "candidate melds, of the joker-identity verdicts and of the "
                               "third-card list)")
    assert built[1] == " ".join(["True"] * 12)
    assert pure == [f"pure Python ({native.PURE_VARIABLE} is set)",
                    " ".join(["False"] * 12)]


def test_the_compiled_bots_choose_the_same_moves_as_the_pure_ones() -> None:
    require_build()
    compiled, pure = run(BOT_MOVES, pure=False), run(BOT_MOVES, pure=True)
    assert (compiled[0], pure[0]) == ("True", "False")
    assert compiled[1] == pure[1]


GARBAGE = """
import gc, random
import konkun.kunken
from konkun.kunken import KunkenRules, new_deal
rng = random.Random(4)
gc.collect()
gc.disable()
found = 0
for number in range(40):
    deal = new_deal(KunkenRules(), 2 + number % 3, 0, rng)
    while not deal.is_over():
        deal.push(rng.choice(deal.legal_actions()))
    found += gc.collect()
print(konkun.kunken.NATIVE, found)
"""


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_playing_leaves_no_reference_cycles_for_the_collector(pure: bool) -> None:
    """Listing and playing free everything they make by reference counting: the compiled
    engine left a cycle (the step judges' shared closure environment) in every list of
    the steps after a take where only the taken card's meld was due."""
    if not pure:
        require_build()
    loaded, cycles = run(GARBAGE, pure=pure)
    assert loaded == str(not pure)
    assert cycles == "0"


def test_a_deal_in_play_pickles_and_plays_on_the_same() -> None:
    rng = random.Random(11)
    for number in range(12):
        deal = new_deal(KunkenRules(), 2 + number % 3, 0, rng)
        while not deal.is_over() and rng.random() > 0.01:
            deal.push(rng.choice(deal.legal_actions()))
        again = pickle.loads(pickle.dumps(deal))
        assert again.kkn() == deal.kkn()
        assert again.history == deal.history
        assert again.legal_actions() == deal.legal_actions()


def test_without_a_c_compiler_the_build_says_so_at_once_and_everything_stays_pure(
        tmp_path: Path) -> None:
    """No C compiler (``CC=/bin/false``): the build says so before mypyc's minutes of
    work, and nothing compiled is used, not even an earlier build, whose stamp it removed
    first."""
    shutil.copytree(KONKUN, tmp_path / "konkun",
                    ignore=shutil.ignore_patterns("__pycache__", native.NATIVE_DIR))
    stamp(tmp_path / "konkun" / "kunken")
    env = {**os.environ, "CC": "/bin/false", "PYTHONPATH": str(tmp_path)}
    env.pop(native.PURE_VARIABLE, None)
    done = subprocess.run([sys.executable, "-m", "konkun.native", "--build", "--quiet"],
                          env=env, capture_output=True, text=True)
    assert done.returncode == 1
    assert "no working C compiler (/bin/false could not compile" in done.stderr
    assert "everything stays pure Python" in done.stderr
    for package in native.COMPILED:
        assert not native.is_current(tmp_path / "konkun" / package)


def test_a_compiler_that_is_not_there_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", "/no/such/cc -pthread")
    with pytest.raises(native.NoCompilerError, match=r"^/no/such/cc -pthread: "):
        native.check_compiler()


def test_a_compiler_that_cannot_build_an_extension_is_named_with_its_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a machine without the Python headers: the compiler's own error is quoted."""
    if shutil.which("cc") is None:
        pytest.skip("no C compiler on this machine")
    monkeypatch.setenv("CC", "cc -include /no/such/header.h")
    with pytest.raises(native.NoCompilerError,
                       match=r"^cc -include /no/such/header\.h could not compile an "
                             r"extension: .*error.*/no/such/header\.h"):
        native.check_compiler()


def test_this_machines_compiler_passes_the_check() -> None:
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler on this machine")
    native.check_compiler()


def test_a_build_that_fails_in_mypyc_leaves_everything_pure_python(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The compiler passes its check, then mypyc or the compiler fails: the earlier build's
    stamps are gone, and the command says what failed."""
    kunken = copy_of_the_sources(tmp_path)
    konkun = kunken.parent
    stamp(kunken)
    assert native.all_current(konkun)

    def failing(command: list[str], **_: object) -> None:
        raise subprocess.CalledProcessError(1, command)

    monkeypatch.setattr(native, "konkun_dir", lambda: konkun)
    monkeypatch.setattr(native, "check_compiler", lambda: None)
    monkeypatch.setattr(native.subprocess, "run", failing)
    assert native.main(["--build", "--quiet"]) == 1
    assert "mypyc or the C compiler failed (exit status 1" in capsys.readouterr().err
    for package in native.COMPILED:
        assert not native.is_current(konkun / package)


def test_no_build_output_is_in_the_repository() -> None:
    """The compiled modules are built on each machine (``.gitignore``), never committed."""
    root = KONKUN.parent.parent
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(["git", "ls-files", "src/konkun"], cwd=root, check=True,
                            capture_output=True, text=True).stdout.split()
    assert [path for path in listed if f"/{native.NATIVE_DIR}/" in path] == []
