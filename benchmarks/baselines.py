"""The research API's baseline table: arena runs of the bots (the ladder's levels among
them) against each other, written to ``benchmarks/baselines.json`` and as the table between
the ``baselines`` markers of ``docs/rl.md``, each row stamped with the commit it was
measured at.

    .venv/bin/python benchmarks/baselines.py                   # every row
    .venv/bin/python benchmarks/baselines.py --rows kunken     # rows whose id has "kunken"
    .venv/bin/python benchmarks/baselines.py --render          # only rewrite the table

Every row is two players in duplicate deals (each set of cards played once from each
seat), the serial backend and a fixed seed, so a run is deterministic: the same commit
gives the same figures on any machine. Only bots that count iterations (never a time
budget) appear, for that reason: the Kunken expert's ``time=0.09`` is left out of its spec.
``tests/rl/test_rl_baselines.py`` reruns the row marked ``check`` (a few seconds) and
compares it with the file, and checks the table in ``docs/rl.md`` is the file's.
Rows measured at an older commit keep their stamp; rerun them when the bots or the rules
change (the check row fails then).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "baselines.json"
DOC = ROOT / "docs" / "rl.md"
BEGIN = "<!-- baselines:begin (benchmarks/baselines.py writes this table) -->"
END = "<!-- baselines:end -->"
SEED = 15


@dataclass(frozen=True)
class Row:
    """One arena run: ``first`` against ``second`` in ``games`` duplicate deals."""

    game: str
    first: str
    second: str
    games: int
    label: str = ""
    check: bool = False
    """The small row the CI test reruns."""
    rules: tuple[tuple[str, str], ...] = ()
    """Rule options other than the defaults (``NAME``, ``VALUE`` texts)."""

    @property
    def key(self) -> str:
        """The row's id: game (and its rule options), bots and deals."""
        options = "".join(f"[{name}={value}]" for name, value in self.rules)
        return f"{self.game}{options}:{self.first}/{self.second}:{self.games}"


KONCHINKA_ISMCTS = "ismcts:iters=200"
RESEARCH_DECK = (("deck_ranks", "7"),)
"""Konchinka's research setting for MCCFR: a deck of Ace to 7 (28 cards)."""
MCCFR_RESEARCH = "openspiel:algo=mccfr:train=2000:seed=1"
ROWS = (
    Row("konchinka", "greedy", "random", 40, "check row", check=True),
    Row("konchinka", "random", "random", 1000, "beginner / beginner"),
    Row("konchinka", "greedy", "random", 1000, "casual / beginner"),
    Row("konchinka", "greedy", "greedy", 1000, "casual / casual"),
    Row("konchinka", "ismcts:iters=20:width=3", "greedy", 400, "strong / casual"),
    Row("konchinka", "ismcts:iters=2000:width=3", "greedy", 40, "expert / casual"),
    Row("konchinka", KONCHINKA_ISMCTS, "random", 200),
    Row("konchinka", KONCHINKA_ISMCTS, "greedy", 200),
    Row("kunken", "random", "random", 200, "beginner / beginner"),
    Row("kunken", "greedy:v=1", "random", 200, "casual / beginner"),
    Row("kunken", "greedy", "random", 200, "strong / beginner"),
    Row("kunken", "greedy", "greedy:v=1", 200, "strong / casual"),
    Row("kunken", "greedy", "greedy", 200, "strong / strong"),
    Row("kunken", "ismcts:iters=130:width=3:root=flat", "greedy", 20,
        "expert (iterations only) / strong"),
    Row("kunken", "ismcts:iters=50", "random", 20),
    Row("kunken", "ismcts:iters=50", "greedy", 20),
    Row("konchinka", "openspiel:algo=ismcts:sims=20", "random", 20, "OpenSpiel ISMCTS"),
    Row("konchinka", "openspiel:algo=ismcts:sims=20", "greedy", 20, "OpenSpiel ISMCTS"),
    Row("konchinka", "openspiel:algo=mccfr:train=100:seed=1", "random", 20,
        "OpenSpiel MCCFR (outcome sampling)"),
    Row("kunken", "openspiel:algo=ismcts:sims=4", "random", 2, "OpenSpiel ISMCTS"),
    Row("konchinka", "random", "random", 200, "beginner / beginner", rules=RESEARCH_DECK),
    Row("konchinka", "greedy", "random", 200, "casual / beginner", rules=RESEARCH_DECK),
    Row("konchinka", MCCFR_RESEARCH, "random", 100, "OpenSpiel MCCFR (outcome sampling)",
        rules=RESEARCH_DECK),
    Row("konchinka", MCCFR_RESEARCH, "greedy", 100, "OpenSpiel MCCFR (outcome sampling)",
        rules=RESEARCH_DECK),
)


def measure(row: Row) -> dict[str, Any]:
    """Play ``row`` in the arena and return its figures."""
    from konkun.arena import ArenaConfig, run_arena

    config = ArenaConfig(row.game, (row.first, row.second), 2, row.games, seed=SEED,
                         rules=row.rules)
    started = time.perf_counter()
    report = run_arena(config, backend="serial")
    first = report.bots()[0]
    pair = report.pairs()[0]
    return {
        "key": row.key, "game": row.game, "rules": dict(row.rules), "first": row.first,
        "second": row.second,
        "games": report.games, "seed": SEED, "label": row.label, "check": row.check,
        "points": [round(first.points.mean, 3), round(first.points.low, 3),
                   round(first.points.high, 3)],
        "wins": [first.wins, first.games, round(first.win_low, 3), round(first.win_high, 3)],
        "margin": [round(pair.margin.mean, 3), round(pair.margin.low, 3),
                   round(pair.margin.high, 3)],
        "commit": commit(), "seconds": round(time.perf_counter() - started, 1),
    }


def commit() -> str:
    """The short hash of HEAD, with ``+dirty`` when the sources differ from it."""
    head = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "src"], cwd=ROOT,
                           check=True, capture_output=True, text=True).stdout.strip()
    return head + ("+dirty" if dirty else "")


def render(rows: list[dict[str, Any]]) -> str:
    """The markdown table of ``rows``."""
    lines = ["| game | bot | against | deals | points [95% CI] | wins % [95% CI] "
             "| margin per set [95% CI] | level | commit |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        points, wins, margin = r["points"], r["wins"], r["margin"]
        share = 100 * wins[0] / wins[1] if wins[1] else 0.0
        game = " ".join([r["game"], *(f"`{name}={value}`"
                                      for name, value in r.get("rules", {}).items())])
        lines.append(
            f"| {game} | `{r['first']}` | `{r['second']}` | {r['games']} "
            f"| {points[0]:.3f} [{points[1]:.3f}, {points[2]:.3f}] "
            f"| {share:.1f} [{100 * wins[2]:.1f}, {100 * wins[3]:.1f}] "
            f"| {margin[0]:+.3f} [{margin[1]:.3f}, {margin[2]:.3f}] "
            f"| {r['label']} | `{r['commit']}` |")
    return "\n".join(lines)


def write_doc(rows: list[dict[str, Any]]) -> None:
    """Put the table between the markers of ``docs/rl.md``."""
    text = DOC.read_text()
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    DOC.write_text(text[:start] + "\n" + render(rows) + "\n" + text[end:])


def load() -> list[dict[str, Any]]:
    """The rows in ``benchmarks/baselines.json`` (none before the first run)."""
    return json.loads(DATA.read_text())["rows"] if DATA.is_file() else []


def main() -> None:
    """Measure the chosen rows, keep the others, write the file and the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="", help="measure only rows whose id holds this")
    parser.add_argument("--skip", default=None, help="and not those whose id holds this")
    parser.add_argument("--render", action="store_true", help="measure nothing")
    args = parser.parse_args()
    kept = {r["key"]: r for r in load()}
    chosen = [] if args.render else [
        row for row in ROWS
        if args.rows in row.key and (args.skip is None or args.skip not in row.key)]
    for row in chosen:
        kept[row.key] = measure(row)
        print(render([kept[row.key]]).splitlines()[-1], flush=True)
        save(kept)  # after every row: a long run keeps what it measured
    save(kept)
    print(f"wrote {DATA.relative_to(ROOT)} and the table in {DOC.relative_to(ROOT)}",
          file=sys.stderr)


def save(kept: dict[str, dict[str, Any]]) -> None:
    """Write the rows of ``kept`` (in the table's order) to the file and the docs."""
    rows = [kept[row.key] for row in ROWS if row.key in kept]
    DATA.write_text(json.dumps({"seed": SEED, "rows": rows}, indent=1) + "\n")
    write_doc(rows)


if __name__ == "__main__":
    main()
