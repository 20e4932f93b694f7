"""The size of a Kunken seat's view on the wire, without and with the served action parts
(``steps``, ``konkun.kunken.parts``), over mid-game positions of seeded 4-seat matches.

Each match is played by a seeded policy that takes, melds, lays off and swaps often (so
the table holds melds and the seat has many steps), and the view of the seat to move is
measured as the server sends it (compact JSON) once the match has run ``--from`` actions,
at every position up to ``--to``. "before" is the view without ``steps`` (the page's
view before this field), "after" the view as served.

    python benchmarks/bench_view_size.py [--matches 20] [--from 40] [--to 120]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import zlib

from konkun.kunken import KunkenMatch, KunkenRules

PREFERENCE = {"take": 4.0, "meld": 6.0, "layoff": 6.0, "swap": 6.0, "discard": 1.0,
              "draw": 1.0}


def size(data: object) -> int:
    """Bytes of ``data`` as compact JSON (the server's WebSocket text, before compression)."""
    return len(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode())


def deflated(data: object) -> int:
    """Bytes of ``data`` as compact JSON compressed alone with deflate (what a WebSocket's
    permessage-deflate sends at most, without the context it keeps between messages)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    return len(zlib.compress(text, 6))


def measure(matches: int, start: int, stop: int) -> list[tuple[int, int, int, int, int]]:
    """(legal actions, bytes before, bytes after, deflated before, deflated after) of
    every measured position."""
    rows = []
    for seed in range(matches):
        match = KunkenMatch(KunkenRules(), 4, seed)
        rng = random.Random(seed)
        for turn in range(stop):
            if match.is_over():
                break
            seat = match.deal.to_move
            if turn >= start and seat is not None:
                view = match.to_json(seat)
                before = {k: v for k, v in view.items() if k != "steps"}
                rows.append((len(view["legal"]), size(before), size(view), deflated(before),
                             deflated(view)))
            actions = match.legal_actions()
            match.play(rng.choices(actions, [PREFERENCE[str(a.kind)] for a in actions])[0])
    return rows


def main() -> None:
    """Print the sizes."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--from", dest="start", type=int, default=40)
    parser.add_argument("--to", dest="stop", type=int, default=120)
    args = parser.parse_args()
    rows = measure(args.matches, args.start, args.stop)
    before = [r[1] for r in rows]
    after = [r[2] for r in rows]
    many = max(rows, key=lambda r: r[0])
    print(f"positions: {len(rows)} (4 seats, actions {args.start}..{args.stop}, "
          f"{args.matches} matches)")
    mean_before, mean_after = statistics.mean(before), statistics.mean(after)
    print(f"mean bytes: before {mean_before:.0f}, after {mean_after:.0f}, "
          f"ratio {mean_after / mean_before:.2f}")
    print(f"median bytes: before {statistics.median(before):.0f}, after "
          f"{statistics.median(after):.0f}")
    print(f"most legal actions ({many[0]}): before {many[1]}, after {many[2]}, "
          f"ratio {many[2] / many[1]:.2f}")
    packed_before = statistics.mean(r[3] for r in rows)
    packed_after = statistics.mean(r[4] for r in rows)
    print(f"mean deflated bytes: before {packed_before:.0f}, after {packed_after:.0f}, "
          f"ratio {packed_after / packed_before:.2f}; most legal actions: before {many[3]}, "
          f"after {many[4]}, ratio {many[4] / many[3]:.2f}")


if __name__ == "__main__":
    main()
