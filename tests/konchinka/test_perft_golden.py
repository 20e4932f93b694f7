"""The engine's move generation against perft counts from an independent brute-force oracle.

The golden files ``perft/classic.perft`` and ``perft/novo.perft`` were computed by
``perft/generate.py`` with ``bruteforce.py`` alone (written from RULES.md, sharing no code
with the engine). Here the engine must reproduce them:

- through its Python API (``konkun.konchinka.parse_kpn`` and ``perft``), every depth;
- through the CONTRACT.md command line (``konkun konchinka perft``/``moves``/``apply``),
  run in-process by ``konkun.cli.main`` for every position and as a real subprocess for a
  few, so the console path is proven too;
- move by move: the engine's move set and the position after each move equal the
  oracle's, over the first plies of every golden position and over random whole deals.

On a wrong count the failure prints the perft divided per move, engine beside oracle.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scripts import load_script

HERE = Path(__file__).resolve().parent
GOLDEN_DIR = HERE / "perft"


def _load_oracle() -> ModuleType:
    return load_script("konkun_tests_konchinka_bruteforce", HERE / "bruteforce.py")


bf = _load_oracle()
konchinka = pytest.importorskip("konkun.konchinka")


@dataclass
class Golden:
    """One block of a golden file."""

    name: str
    kpn: str
    rules: dict[str, str] = field(default_factory=dict)
    counts: dict[int, int] = field(default_factory=dict)

    @property
    def compulsory(self) -> bool:
        """True when the block plays with ``capture_compulsory=true``."""
        return self.rules.get("capture_compulsory") == "true"

    @property
    def rule_args(self) -> list[str]:
        """The block's rules as ``--rule NAME=VALUE`` arguments."""
        return [arg for k, v in sorted(self.rules.items()) for arg in ("--rule", f"{k}={v}")]


def load_golden(path: Path) -> list[Golden]:
    """Read a golden file (format in ``perft/generate.py``)."""
    blocks: list[Golden] = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "id":
            blocks.append(Golden(rest, ""))
        elif word == "kpn":
            blocks[-1].kpn = rest
        elif word == "rule":
            name, _, value = rest.partition("=")
            blocks[-1].rules[name] = value
        elif word == "perft":
            depth, count = rest.split()
            blocks[-1].counts[int(depth)] = int(count)
        else:
            raise AssertionError(f"{path.name}: unknown line {line!r}")
    return blocks


GOLDEN = [g for f in ("classic.perft", "novo.perft") for g in load_golden(GOLDEN_DIR / f)]
IDS = [g.name for g in GOLDEN]

def engine_deal(golden: Golden) -> Any:
    """The engine's deal for a golden position, with its rule options."""
    variant = golden.kpn.split(" ")[0]
    rules = konchinka.KonchinkaRules.preset(variant)
    if golden.rules:
        rules = rules.with_options(golden.rules)
    return konchinka.parse_kpn(golden.kpn, rules)


def run_cli(*args: str) -> tuple[int, str, str]:
    """Run ``konkun ARGS`` in this process; return (status, stdout, stderr)."""
    from konkun.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def oracle_moves(position: Any, compulsory: bool) -> set[Any]:
    """The oracle's legal moves as a set."""
    return set(bf.legal_moves(position, compulsory))


def engine_moves(deal: Any) -> set[Any]:
    """The engine's legal moves, read back through their CONTRACT.md text."""
    moves = [bf.Move.parse(str(m)) for m in deal.legal_actions()]
    assert len(moves) == len(set(moves)), f"a move listed twice in {deal.kpn()}"
    return set(moves)


def same_position(engine_kpn: str, expected: Any) -> list[str]:
    """The differences between the engine's KPN and the oracle's position (empty if none).

    For a finished deal the seat to move is not compared (it has no meaning), nor the
    table when nobody captured (RULES.md: those cards count for nobody).
    """
    got = bf.parse_kpn(engine_kpn)
    diffs: list[str] = []
    fields = ["variant", "hands", "stock", "piles", "dealer", "last_capturer"]
    if not (expected.is_over() and expected.last_capturer is None):
        fields.append("table")
    if not expected.is_over():
        fields.append("to_move")
    for name in fields:
        mine, theirs = getattr(expected, name), getattr(got, name)
        if theirs != mine:
            diffs.append(f"{name}: engine {theirs!r}, oracle {mine!r}")
    return diffs


def divided_report(golden: Golden, depth: int) -> str:
    """perft(depth) divided per move, engine beside oracle, marking the differences."""
    position = bf.parse_kpn(golden.kpn)
    oracle = bf.divide(position, depth, golden.compulsory)
    engine = {bf.Move.parse(str(move)).text(): count
              for move, count in engine_deal(golden).perft_divide(depth)}
    lines = [f"perft {depth} divided for {golden.name}: {golden.kpn} {golden.rules}",
             f"{'move':24} {'engine':>10} {'oracle':>10}"]
    for text in sorted(set(oracle) | set(engine)):
        mark = "" if engine.get(text) == oracle.get(text) else "   <-- differs"
        lines.append(f"{text:24} {engine.get(text, '-')!s:>10} {oracle.get(text, '-')!s:>10}{mark}")
    return "\n".join(lines)


# --- the golden files themselves ---------------------------------------------------------------


def test_golden_files_hold_at_least_30_positions_of_every_kind() -> None:
    kinds = {(g.kpn.split(" ")[0], g.kpn.split(" ")[2].count("/") + 1) for g in GOLDEN}
    assert len(GOLDEN) >= 30
    assert len(set(IDS)) == len(IDS)
    assert kinds == {(v, n) for v in ("classic", "novo") for n in (2, 3, 4)}
    assert any(g.compulsory for g in GOLDEN) and any(not g.compulsory for g in GOLDEN)
    assert all(set(g.counts) >= {1, 2, 3} for g in GOLDEN)


@pytest.mark.parametrize("golden", GOLDEN, ids=IDS)
def test_golden_counts_are_the_oracles(golden: Golden) -> None:
    """The files were not edited by hand: the oracle still gives depths 1 and 2."""
    position = bf.parse_kpn(golden.kpn)
    for depth in (1, 2):
        assert bf.perft(position, depth, golden.compulsory) == golden.counts[depth]


# --- the engine against the golden counts -----------------------------------------------------


def _check_engine_perft(golden: Golden, depths: list[int]) -> None:
    deal = engine_deal(golden)
    for depth in depths:
        got = konchinka.perft(deal, depth)
        if got != golden.counts[depth]:
            pytest.fail(f"perft {depth} of {golden.name}: engine {got}, oracle "
                        f"{golden.counts[depth]}\n{divided_report(golden, depth)}")
    assert deal.kpn() == engine_deal(golden).kpn(), "perft changed the position"


@pytest.mark.parametrize("golden", GOLDEN, ids=IDS)
def test_perft_matches_brute_force_oracle(golden: Golden) -> None:
    _check_engine_perft(golden, sorted(golden.counts))


@pytest.mark.parametrize("golden", GOLDEN, ids=IDS)
def test_cli_perft_prints_the_count_alone_on_the_last_line(golden: Golden) -> None:
    depth = min(3, max(golden.counts))
    status, out, err = run_cli("konchinka", "perft", golden.kpn, str(depth), *golden.rule_args)
    assert (status, err) == (0, "")
    assert out.splitlines()[-1] == str(golden.counts[depth])


@pytest.mark.parametrize("golden", [GOLDEN[3]], ids=lambda g: g.name)
def test_console_command_perft_in_a_subprocess(golden: Golden) -> None:
    depth = 2
    result = subprocess.run(
        [sys.executable, "-m", "konkun", "konchinka", "perft", golden.kpn, str(depth),
         *golden.rule_args], capture_output=True, text=True, timeout=60, check=False)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines()[-1] == str(golden.counts[depth])


# --- move by move -------------------------------------------------------------------------------


@pytest.mark.parametrize("golden", GOLDEN, ids=IDS)
def test_cli_moves_and_apply_match_oracle(golden: Golden) -> None:
    """``moves`` lists the oracle's move set; ``apply`` of each gives the oracle's position."""
    position = bf.parse_kpn(golden.kpn)
    status, out, err = run_cli("konchinka", "moves", golden.kpn, *golden.rule_args)
    assert (status, err) == (0, "")
    listed = [bf.Move.parse(line) for line in out.splitlines()]
    assert len(listed) == len(set(listed)), "a move listed twice"
    assert set(listed) == oracle_moves(position, golden.compulsory)
    for move in listed:
        status, out, err = run_cli("konchinka", "apply", golden.kpn, move.text(),
                                   *golden.rule_args)
        assert (status, err) == (0, ""), move.text()
        lines = out.splitlines()
        diffs = same_position(lines[-1], bf.apply_move(position, move))
        assert not diffs, f"apply {move.text()} to {golden.kpn}: {diffs}"


def _compare_tree(deal: Any, position: Any, compulsory: bool, depth: int, path: str) -> None:
    """Compare move sets and resulting positions over ``depth`` plies."""
    expected = oracle_moves(position, compulsory)
    got = engine_moves(deal)
    assert got == expected, (
        f"moves after [{path}] in {position.kpn()}: engine only "
        f"{sorted(m.text() for m in got - expected)}, oracle only "
        f"{sorted(m.text() for m in expected - got)}")
    assert deal.is_over() == position.is_over(), f"is_over after [{path}]"
    if depth == 0:
        return
    for move in deal.legal_actions():
        child = deal.copy()
        child.push(move)
        oracle_move = bf.Move.parse(str(move))
        after = bf.apply_move(position, oracle_move)
        step = f"{path} {oracle_move.text()}".strip()
        diffs = same_position(child.kpn(), after)
        assert not diffs, f"after [{step}] from {position.kpn()}: {diffs}"
        _compare_tree(child, after, compulsory, depth - 1, step)


@pytest.mark.parametrize("golden", GOLDEN, ids=IDS)
def test_positions_after_every_move_match_oracle(golden: Golden) -> None:
    """Redeals, the end-of-deal sweep and the seat to move, over the first plies."""
    depth = max(d for d, c in golden.counts.items() if c <= 400 or d == 1)
    depth = min(depth, 4)
    _compare_tree(engine_deal(golden), bf.parse_kpn(golden.kpn), golden.compulsory,
                  depth, "")


# --- random whole deals ---------------------------------------------------------------------------


def _oracle_fresh_deal(variant: str, seats: int, dealer: int, order: list[int]) -> Any:
    """A deal dealt by the rules from a deck order, with a clean initial table."""
    deck = [bf.DECK[i] for i in order]
    hands: list[set[str]] = [set() for _ in range(seats)]
    table: list[str] = []
    for _round in range(4):
        for k in range(seats):
            hands[(dealer + 1 + k) % seats].add(deck.pop(0))
        table.append(deck.pop(0))
    while True:
        bad = next((i for i, c in enumerate(table)
                    if c[0] == "J" or any(o[0] == c[0] for o in table[:i])), None)
        if bad is None:
            break
        deck.insert(len(deck) // 2, table[bad])
        table[bad] = deck.pop(0)
    return bf.Position(variant, frozenset(table), tuple(frozenset(h) for h in hands),
                       tuple(deck), tuple(frozenset() for _ in range(seats)),
                       (dealer + 1) % seats, dealer, None)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(["classic", "novo"]), seats=st.integers(2, 4),
       dealer_seed=st.integers(0, 3), compulsory=st.booleans(),
       order=st.permutations(range(52)), choices=st.lists(st.integers(0, 10**6),
                                                          min_size=48, max_size=48))
def test_random_whole_deals_match_oracle_move_by_move(
        variant: str, seats: int, dealer_seed: int, compulsory: bool, order: list[int],
        choices: list[int]) -> None:
    """From a fresh deal to the sweep: same moves, same position after each, same score."""
    position = _oracle_fresh_deal(variant, seats, dealer_seed % seats, order)
    rules = konchinka.KonchinkaRules.preset(variant)
    if compulsory:
        rules = rules.with_options({"capture_compulsory": "true"})
    deal = konchinka.parse_kpn(position.kpn(), rules)
    for ply, pick in enumerate(choices):
        expected = oracle_moves(position, compulsory)
        assert engine_moves(deal) == expected, f"ply {ply} in {position.kpn()}"
        # Captures are favoured, so the table stays small enough for the brute force.
        captures = sorted((m for m in expected if m.is_capture), key=lambda m: m.text())
        favour = pick % 4 != 0 or len(position.table) >= 8
        pool = captures if captures and favour else sorted(expected, key=lambda m: m.text())
        move = pool[pick // 4 % len(pool)]
        deal.play(deal.parse_action(move.text()))
        position = bf.apply_move(position, move)
        diffs = same_position(deal.kpn(), position)
        assert not diffs, f"after {move.text()} at ply {ply}: {diffs}"
    assert position.is_over() and deal.is_over()
    assert not deal.legal_actions()
    if position.table:
        return  # nobody captured: not a position ``score`` takes
    status, out, err = run_cli("konchinka", "score", deal.kpn())
    assert (status, err) == (0, "")
    assert json.loads(out)["seats"] == [dataclasses.asdict(s) for s in bf.score(position)]


# --- the oracle itself on the rules' own examples ---------------------------------------------

RULE_EXAMPLES = [
    # (rule, KPN, moves of the seat to move, as texts)
    ("source example: a Queen takes the Queen or A+7+2 (both worth 10)",
     "classic As7h2cQd Qh/4c - -/- 0 1 -", {"Qh", "Qh:Qd", "Qh:As7h2c"}),
    ("classic King takes a King, a Queen, a Ten or A+7+2",
     "classic KdQsTcAs7h2c Kh/4c - -/- 0 1 -",
     {"Kh", "Kh:Kd", "Kh:Qs", "Kh:Tc", "Kh:As7h2c"}),
    ("classic Jack takes the whole table, a Jack on it too",
     "classic Jd5c9h Jc/4c - -/- 0 1 -", {"Jc", "Jc:Jd5c9h"}),
    ("classic other cards never take a Jack", "classic Jd5c Ts/4c - -/- 0 1 -", {"Ts"}),
    ("novo King takes 13 or 14", "novo KdTc4h8s6d Kh/4c - -/- 0 1 -",
     {"Kh", "Kh:Kd", "Kh:Tc4h", "Kh:8s6d"}),
    ("novo Jack is an 11", "novo Jd9c2h5s6d Jc/4c - -/- 0 1 -",
     {"Jc", "Jc:Jd", "Jc:9c2h", "Jc:5s6d"}),
    ("empty table: only trails", "novo - Kh9c/4c - -/- 0 1 -", {"Kh", "9c"}),
]


@pytest.mark.parametrize(("rule", "kpn", "expected"), RULE_EXAMPLES,
                         ids=[r[0] for r in RULE_EXAMPLES])
def test_oracle_and_engine_give_the_rules_examples(rule: str, kpn: str,
                                                   expected: set[str]) -> None:
    want = {bf.Move.parse(t) for t in expected}
    assert oracle_moves(bf.parse_kpn(kpn), False) == want, rule
    assert engine_moves(konchinka.parse_kpn(kpn)) == want, rule


def test_redeal_deals_from_the_seat_left_of_the_dealer_stock_first_card_first() -> None:
    kpn = "classic 4h -/3d 6c7c8h9dKdQd2s5s 8d8s/KcKs 1 1 0"  # dealer 1 plays the last card
    position = bf.apply_move(bf.parse_kpn(kpn), bf.Move.parse("3d"))
    assert position.hands == (frozenset({"6c", "8h", "Kd", "2s"}),
                              frozenset({"7c", "9d", "Qd", "5s"}))
    assert position.to_move == 0 and position.stock == ()
    deal = konchinka.parse_kpn(kpn)
    deal.play(deal.parse_action("3d"))
    assert not same_position(deal.kpn(), position)
