"""Write the Kunken perft golden file from the independent move generator alone.

    .venv/bin/python tests/kunken/perft/generate.py

The counts come only from ``tests/kunken/perft_oracle.py`` (and the take search of
``tests/kunken/bruteforce.py`` it uses), written from RULES.md and docs/kunken.md with no
engine code. Positions are fresh deals dealt by the rules from seeded shuffles (every seat
count, several rule options) and hand-made positions for the cases fresh deals rarely
reach: takes that open or need no opening, joker swaps, lay-offs, going out (express or
not) and the end of the stock. A hand-made position lists its hands, bank and melds; the
rest of the pack is its stock, in a seeded order.

File format (as Konchinka's), one block per position, blocks separated by a blank line::

    id NAME
    kkn KKN
    perft DEPTH COUNT      (one or more, depth 1 upwards)
"""

from __future__ import annotations

import importlib.util
import random
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load_oracle():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(HERE.parents[2]))
    return importlib.import_module("tests.kunken.perft_oracle")


oracle = _load_oracle()

LEAF_CAP = 3_000
"""Stop going deeper once a depth's count passes this."""
MAX_DEPTH = 5


def filled(name: str, head: str, hands: list[str], bank: str, melds: str, layout: str,
           tail: str = "0 - -", stock_size: int | None = None) -> str:
    """A hand-made KKN: ``head`` is ``kunken RULES DEALER TURN``; the cards no field holds
    make the stock (seeded by ``name``); ``stock_size`` keeps only that many of them (the
    rest go to a long bank's oldest end, where no take reaches them in a few steps)."""
    rules = dict(oracle.DEFAULTS)
    if head.split(" ")[1] != "-":
        rules.update(p.split("=") for p in head.split(" ")[1].split(","))
    left = Counter(oracle.PACK + ["X"] * int(rules["jokers"]))
    for word in [*hands, bank]:
        left.subtract(oracle.card_list(word))
    for meld in ([] if melds == "-" else melds.split(",")):
        left.subtract("X" if s.startswith("X") else s
                      for s in oracle.meld_slots(meld.partition(":")[2]))
    assert min(left.values()) >= 0, name
    stock = sorted(left.elements())
    random.Random(name).shuffle(stock)
    if stock_size is not None:
        bank = "".join(stock[stock_size:]) + ("" if bank == "-" else bank)
        stock = stock[:stock_size]
    taken = "/".join("-" for _ in hands)
    return " ".join([head, "/".join(hands), "".join(stock) or "-", bank or "-", melds, taken,
                     layout, tail])


def cases() -> list[tuple[str, str]]:
    """Every golden position: (name, KKN)."""
    out = []
    for seats in (2, 3, 4, 5):
        for seed, rules in ((1, {}), (2, {"hand_size": "7", "opening_minimum": "0"}),
                            (3, {"hand_size": "5", "jokers": "2", "opening_minimum": "30"})):
            rng = random.Random(seats * 100 + seed)
            name = f"deal-{seats}-seats-" + (",".join(f"{k}={v}" for k, v in rules.items())
                                             or "default")
            out.append((name, oracle.dealt_kkn(rules, seats, rng.randrange(seats), rng)))
    out += [
        # 7h 8h and the taken 9h: a sequence; no opening minimum. Taking from 5c too: the
        # third-card rule is about the first taken card, 5c, which makes no meld.
        ("take-no-minimum", filled("a", "kunken opening_minimum=0 1 0:start",
                                   ["7h8h2cKsQd", "AsAdAhQs5s"], "5c9h", "-", "00")),
        # the opening: Kc Kd + Ks taken (30) and Ah Ad Ac (30) reach 50
        ("take-opening-fifty", filled("b", "kunken - 1 0:start",
                                      ["KcKdAhAdAc2s3d", "QsQhJs9d8d7c6c"], "9cKs", "-", "00")),
        # a layout: 3c 3d + 3s taken; 8h, Qh and the joker lay off onto 9h Th Jh
        ("take-with-layout-layoffs", filled("c", "kunken - 1 0:start",
                                            ["3c3d8hQhX2c", "AsAdAhQs5s4d"], "3s",
                                            "0:9hThJh", "10")),
        # after a draw with a layout: 7c won back from seat 1's sequence, or a discard
        ("drawn-joker-swap", filled("d", "kunken - 0 0:drawn",
                                    ["7cKdQd2s9h", "AsAdAhQs5s4d"], "4h",
                                    "0:JsQsKs,1:5c6cX=7c8c", "11")),
        # an open set joker: either missing suit wins it
        ("drawn-open-set-joker", filled("e", "kunken - 0 0:drawn",
                                        ["KhKs5d9c", "AsAdAhQs5s4d"], "4h",
                                        "1:KcKdX,0:2h3h4h", "11")),
        # with swap_before_take the swap comes first and the joker counts as held
        ("swap-before-take", filled("f", "kunken swap_before_take=true 1 0:start",
                                    ["7c9d9h2s", "AsAdAhQs5s4d"], "9s",
                                    "0:JsQsKs,1:5c6cX=7c8c", "11")),
        # a layout and Ks Kd + Kh taken: meld, then discard 2c to go out (not express)
        ("going-out", filled("g", "kunken - 1 0:start", ["KsKd2c", "AsAdAhQs5s4d"], "Kh",
                             "0:9hThJh", "10")),
        # the same without a layout and no minimum: going out is an express win
        ("going-out-express", filled("h", "kunken opening_minimum=0 1 0:start",
                                     ["KsKd2c", "AsAdAhQs5s4d"], "Kh", "1:9hThJh", "01")),
        # A joker keeps its identity through the turn (RULES.md). The taken joker, laid
        # off as Ts and won back by Ts, is still the taken card: 4c X=5c 6c then completes.
        ("joker-identity-taken", filled("d1", "kunken - 1 0:start",
                                        ["Ts9h6c4c2d", "AsAdAhQs5s4d"], "X", "1:7s8s9s",
                                        "11")),
        # A held joker laid off as 7s and won back by 7s is still held before the take:
        # 5h X=6h 7h (7h taken) completes.
        ("joker-identity-held", filled("d2", "kunken - 1 0:start",
                                       ["7s5h4d2cX", "AsAdAhQs5s4d"], "7h", "1:8s9sTs",
                                       "11")),
        # The taken joker and a held one: laying a joker off lays the held one, and the
        # joker won from 5s X=6s 7s is new, never the taken card, so after the lay-off
        # 4c X X 7c (one card held before the take) does not complete the turn.
        ("joker-identity-no-stand-in", filled("d3b", "kunken - 1 0:start",
                                              ["4c6sKs2d3hX", "AsAdAcQs5s4d"], "X7c",
                                              "1:5sX=6s7s,1:QhKhAh", "11")),
    ]
    return out


def main() -> None:
    """Write ``kunken.perft``."""
    blocks = []
    for name, kkn in cases():
        state = oracle.parse(kkn)
        lines = [f"id {name}", f"kkn {kkn}"]
        started = time.process_time()
        for depth in range(1, MAX_DEPTH + 1):
            count = oracle.perft(state, depth)
            lines.append(f"perft {depth} {count}")
            if count > LEAF_CAP or (depth >= 3 and time.process_time() - started > 20):
                break
        print(name, lines[2:], f"{time.process_time() - started:.1f}s", flush=True)
        blocks.append("\n".join(lines))
    (HERE / "kunken.perft").write_text("\n\n".join(blocks) + "\n")


if __name__ == "__main__":
    main()
