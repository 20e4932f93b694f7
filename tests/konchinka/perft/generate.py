"""Write the Konchinka perft golden files from the brute-force oracle alone.

    .venv/bin/python tests/konchinka/perft/generate.py

The counts come only from ``tests/konchinka/bruteforce.py`` (written from RULES.md, no
engine code). Positions are hand-made (special cases of the rules) or reached from seeded
random deals dealt by the rules (4 rounds of one card to each seat from the seat left of
the dealer, then one to the table; no Jack and no pair on the initial table) followed by
seeded random moves. Every position is checked to be *regular*: the seat to move always
has cards, and every redeal within the depth follows the dealer's own move, so the
"seat left of the dealer moves after a redeal" rule and "play simply continues in
rotation" agree on it.

File format (python-chess style), one block per position, blocks separated by a blank line::

    id NAME
    kpn KPN
    rule NAME=VALUE        (zero or more)
    perft DEPTH COUNT      (one or more, depth 1 upwards)
"""

from __future__ import annotations

import importlib.util
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load_bruteforce():  # type: ignore[no-untyped-def]
    name = "konkun_tests_konchinka_bruteforce"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, HERE.parent / "bruteforce.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


bf = _load_bruteforce()

LEAF_CAP = 20_000
"""Stop going deeper once a depth's count passes this (depth 3 is always written)."""
MIN_DEPTH = 3
MAX_DEPTH = 6


@dataclass
class Case:
    """One golden position."""

    name: str
    kpn: str
    rules: dict[str, str] = field(default_factory=dict)
    max_depth: int = MAX_DEPTH


# --- positions reached from seeded deals -------------------------------------------------


def fresh_deal(variant: str, seats: int, dealer: int, rng: random.Random) -> object:
    """A new deal by the rules, as an oracle Position."""
    deck = list(bf.DECK)
    rng.shuffle(deck)
    hands: list[set[str]] = [set() for _ in range(seats)]
    table: list[str] = []
    for _round in range(4):
        for k in range(seats):
            hands[(dealer + 1 + k) % seats].add(deck.pop(0))
        table.append(deck.pop(0))
    stock = deck
    # Initial table: no Jack and no two of a rank; the offending card goes back into the
    # middle half of the stock and the top stock card takes its place.
    while True:
        bad = None
        for i, card in enumerate(table):
            if card[0] == "J" or any(c[0] == card[0] for c in table[:i]):
                bad = i
                break
        if bad is None:
            break
        card = table.pop(bad)
        table.insert(bad, stock.pop(0))
        quarter = len(stock) // 4
        stock.insert(rng.randint(quarter, len(stock) - quarter), card)
    return bf.Position(variant, frozenset(table), tuple(frozenset(h) for h in hands),
                       tuple(stock), tuple(frozenset() for _ in range(seats)),
                       (dealer + 1) % seats, dealer, None)


def played(variant: str, seats: int, seed: int, moves: int, trail_bias: float = 0.0,
           until_hand_cards: int | None = None, until_stock: int | None = None) -> str:
    """KPN after a seeded deal and seeded random moves.

    ``trail_bias`` is the chance to pick a trail when one is legal (to grow the table);
    ``until_stock`` / ``until_hand_cards`` keep playing until the stock has that many cards
    and the hands hold that many cards in all (instead of a fixed number of moves).
    """
    rng = random.Random(seed)
    position = fresh_deal(variant, seats, rng.randrange(seats), rng)
    count = 0
    while True:
        if until_hand_cards is not None:
            in_hands = sum(len(h) for h in position.hands)
            if len(position.stock) == until_stock and in_hands == until_hand_cards:
                break
        elif count >= moves:
            break
        legal = bf.legal_moves(position)
        trails = [m for m in legal if m.taken is None]
        use_trail = bool(trails) and rng.random() < trail_bias
        move = rng.choice(trails) if use_trail else rng.choice(legal)
        position = bf.apply_move(position, move)
        count += 1
    return position.kpn()


CC = {"capture_compulsory": "true"}


def cases() -> list[Case]:
    """Every golden position, classic then novo."""
    out: list[Case] = [
        # CONTRACT.md's example; the deal ends after 7 plies, so perft(8) = 0.
        Case("contract-example", "classic As7h2cQd Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -",
             max_depth=8),
        Case("contract-example-compulsory",
             "classic As7h2cQd Kc3d/Qh9c5s/8d4h - -/-/- 1 0 -", CC, max_depth=8),
        # Jack trailed earlier lies on the table: a Jack takes everything, others skip it.
        Case("classic-jack-on-table",
             "classic JdAs9h5c3c Jc2hTs7d/Kd8s4c6h - QhQc/- 0 1 0"),
        Case("classic-jack-on-table-compulsory",
             "classic JdAs9h5c3c Jc2hTs7d/Kd8s4c6h - QhQc/- 0 1 0", CC),
        # Two of a rank on the table (after a trail): the same value, two different moves.
        Case("classic-pairs-on-table", "classic 5c5dTcKh4s6h Qs5hAc9d/8c2d3hKs - -/- 1 0 -"),
        # Many ways to make ten: T, Q, K are worth 10 alike.
        Case("classic-many-tens",
             "classic AcAd2c3d4h6s7c8d9sTh Qc/Kd/Ks/Tc - KhQh/2h8h/-/- 3 2 1", max_depth=4),
        # Empty table: trails only.
        Case("classic-empty-table", "classic - 2c3c4c5c/6d7d8d9d/TsJsQsKs - -/AdAh/- 0 2 1"),
        # Last round of the deal, one card each: the sweep goes to the last capturer.
        Case("classic-last-trick-4p", "classic 3h9c2d Ad/7s/Kc/Jh - 4s4d/5h5c/-/6c6d 0 3 1",
             max_depth=5),
        Case("classic-last-trick-nobody-captured", "classic 3h9c2d Ad/7s - -/- 0 1 -",
             max_depth=3),
        # One card each left and a stock: a redeal happens inside the second move.
        Case("classic-redeal-2p",
             "classic 4h8c Ts/3d 6c7c8h9dKdQd2s5s 8d8s/KcKs 0 1 0", max_depth=5),
    ]
    out += [
        Case("classic-fresh-2p", played("classic", 2, 101, 0), max_depth=4),
        Case("classic-fresh-3p", played("classic", 3, 102, 0)),
        Case("classic-fresh-4p", played("classic", 4, 103, 0)),
        Case("classic-fresh-4p-compulsory", played("classic", 4, 103, 0), CC),
        Case("classic-big-table-2p", played("classic", 2, 104, 8, trail_bias=0.97),
             max_depth=3),
        Case("classic-big-table-3p", played("classic", 3, 105, 8, trail_bias=0.97),
             max_depth=3),
        Case("classic-big-table-4p-compulsory",
             played("classic", 4, 106, 6, trail_bias=0.97), CC,
             max_depth=3),
        Case("classic-middle-3p", played("classic", 3, 107, 17, trail_bias=0.5)),
        Case("classic-before-redeal-3p",
             played("classic", 3, 108, 0, until_stock=12, until_hand_cards=2), max_depth=5),
        Case("classic-before-redeal-4p-compulsory",
             played("classic", 4, 109, 0, until_stock=16, until_hand_cards=3), CC,
             max_depth=5),
        Case("classic-end-of-deal-2p",
             played("classic", 2, 110, 0, until_stock=0, until_hand_cards=3), max_depth=4),
        Case("classic-end-of-deal-3p-compulsory",
             played("classic", 3, 111, 0, until_stock=0, until_hand_cards=4), CC,
             max_depth=5),
        # Novo: values A=1..K=13; a King takes 13 or 14; the Jack is an 11 like any card.
        Case("novo-king-13-or-14",
             "novo KcAdQs2h4c9d5s8h Kd3c/6s7h - TsTh/JhJs 0 1 1"),
        Case("novo-king-13-or-14-compulsory",
             "novo KcAdQs2h4c9d5s8h Kd3c/6s7h - TsTh/JhJs 0 1 1", CC),
        Case("novo-jack-is-eleven", "novo JcTdAh6s5d4c3h 9sJdQcKh/2c7c8d5h - -/- 1 0 -",
             max_depth=4),
        Case("novo-empty-table", "novo - Jd/Kd/2c - AcAs/Qs3d9h/- 1 0 1", max_depth=4),
        Case("novo-last-trick-3p", "novo 6d7dAc Kh/Qc/Jd - 2s2h/3s3h/4s4h 2 1 0", max_depth=4),
        Case("novo-redeal-4p-compulsory",
             "novo 9c3d5h -/-/7s/Qd 2c6c8cTcJcKcAh2h4h6h7hTs2d4d8dQh JsJh/-/3c3s/- 2 3 2",
             CC, max_depth=5),
    ]
    out += [
        Case("novo-fresh-2p", played("novo", 2, 201, 0), max_depth=4),
        Case("novo-fresh-2p-compulsory", played("novo", 2, 201, 0), CC, max_depth=4),
        Case("novo-fresh-3p", played("novo", 3, 202, 0)),
        Case("novo-fresh-4p", played("novo", 4, 203, 0)),
        Case("novo-big-table-2p", played("novo", 2, 204, 8, trail_bias=0.97), max_depth=3),
        Case("novo-big-table-3p-compulsory", played("novo", 3, 205, 10, trail_bias=0.97),
             CC, max_depth=3),
        Case("novo-big-table-4p", played("novo", 4, 206, 8, trail_bias=0.97), max_depth=3),
        Case("novo-middle-4p", played("novo", 4, 207, 21, trail_bias=0.5)),
        Case("novo-before-redeal-2p",
             played("novo", 2, 208, 0, until_stock=24, until_hand_cards=2), max_depth=5),
        Case("novo-before-redeal-3p",
             played("novo", 3, 209, 0, until_stock=24, until_hand_cards=3), max_depth=5),
        Case("novo-end-of-deal-4p",
             played("novo", 4, 210, 0, until_stock=0, until_hand_cards=5), max_depth=6),
        Case("novo-end-of-deal-2p-compulsory",
             played("novo", 2, 211, 0, until_stock=0, until_hand_cards=3), CC,
             max_depth=4),
    ]
    return out


# --- checks and output ---------------------------------------------------------------------


def check_regular(position: object, depth: int, compulsory: bool, name: str) -> None:
    """Fail when a position within ``depth`` is irregular (see the module docstring)."""
    if depth == 0 or position.is_over():
        return
    assert position.hands[position.to_move], f"{name}: seat to move has no cards"
    for move in bf.legal_moves(position, compulsory):
        after = bf.apply_move(position, move)
        if len(after.stock) < len(position.stock):
            assert position.to_move == position.dealer, f"{name}: redeal not after dealer"
        check_regular(after, depth - 1, compulsory, name)


def counts(case: Case) -> list[int]:
    """perft(1), perft(2), ... until MAX_DEPTH or the leaf cap (depth 3 at least)."""
    position = bf.parse_kpn(case.kpn)
    compulsory = case.rules.get("capture_compulsory") == "true"
    result: list[int] = []
    for depth in range(1, case.max_depth + 1):
        result.append(bf.perft(position, depth, compulsory))
        if depth >= MIN_DEPTH and result[-1] > LEAF_CAP:
            break
        if len(result) >= 2 and result[-2] and depth >= MIN_DEPTH and \
                result[-1] * result[-1] / max(result[-2], 1) > 4 * LEAF_CAP:
            break
    check_regular(position, len(result) - 1, compulsory, case.name)
    return result


HEADER = """\
# Konchinka perft golden counts, {variant} variant (RULES.md defaults unless a rule line).
# Written by tests/konchinka/perft/generate.py from tests/konchinka/bruteforce.py only
# (an independent brute-force enumerator); never edit the counts by hand.
# Blocks: "id NAME", "kpn KPN", zero or more "rule NAME=VALUE", "perft DEPTH COUNT".
"""


def main() -> None:
    """Compute every count and write classic.perft and novo.perft."""
    blocks: dict[str, list[str]] = {"classic": [], "novo": []}
    names: set[str] = set()
    total = 0
    for case in cases():
        assert case.name not in names, case.name
        names.add(case.name)
        start = time.perf_counter()
        result = counts(case)
        total += sum(result)
        lines = [f"id {case.name}", f"kpn {case.kpn}"]
        lines += [f"rule {k}={v}" for k, v in sorted(case.rules.items())]
        lines += [f"perft {d} {c}" for d, c in enumerate(result, start=1)]
        blocks[case.kpn.split(" ")[0]].append("\n".join(lines))
        print(f"{case.name:40} {result} {time.perf_counter() - start:.1f}s", flush=True)
    for variant, texts in blocks.items():
        path = HERE / f"{variant}.perft"
        path.write_text(HEADER.format(variant=variant) + "\n" + "\n\n".join(texts) + "\n")
    print(f"{len(names)} positions, {total} nodes counted in all")


if __name__ == "__main__":
    main()
