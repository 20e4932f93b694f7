"""Kunken against its peers (issue 36): the same measures on konkun's Kunken engine and on
OpenSpiel's ``gin_rummy`` (C++ core, driven from Python) and RLCard's ``gin-rummy``, in one
run, rounds interleaved (every measure once per round, the order reversed every other
round), each rate per second of this process's CPU time (``time.process_time``).

    .venv/bin/python benchmarks/bench_peers.py --rounds 3 --seconds 3
    .venv/bin/python benchmarks/bench_peers.py --only ismcts     # one group (or one measure)

Measures (``--only`` takes a name or a group, repeatable):

- ``playouts``: random play-outs, decisions per CPU second. Kunken with 2 and 4 seats
  (``bench_kunken.playouts``: ``legal_actions``, push a random one); OpenSpiel gin_rummy
  (``state.legal_actions()``, ``state.apply_action``, chance outcomes sampled from
  ``state.chance_outcomes()``; chance nodes are not counted as decisions); RLCard
  gin-rummy (``env.step`` with a random legal action id). gin_rummy is for 2 players only:
  the 4-seat Kunken figure is set against the same 2-player figure.
- ``legal``: legal-move generation per position (µs): ``legal_actions()`` timed over a
  sample of positions reached by random play (2 seats), one call per position in turn.
- ``ismcts``: search iterations per CPU second at ``--iters`` (200) iterations a move;
  konkun's Kunken ISMCTS with random roll-outs to the end of the deal
  (``ismcts:iters=200:rollout=random``) against OpenSpiel's C++ ``ISMCTSBot`` with a
  one-roll-out random evaluator (also to the end), every seat played by the bot; and, for
  information, konkun's bot as it plays (``ismcts:iters=200``: the greedy rules decide
  outside the discard, roll-outs of two turns a seat, then an evaluation). A move with
  one legal action is not searched (konkun's bot returns it at once; OpenSpiel's is not
  asked), so only searched moves count. A game in progress carries
  over to the next round.

A peer that is not installed (``pyspiel``: the ``openspiel`` extra; ``rlcard``: the
``peers`` extra) is skipped with a note. The ratio column is konkun's speed over the
peer's: above 1, konkun is faster (for µs, the peer's time over konkun's)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from konkun.bots.base import Agent
from konkun.bots.specs import BotSpec
from konkun.kunken import KunkenDeal, KunkenRules, new_deal

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_kunken import engine, playouts  # a sibling script, not a package

GIN = "gin_rummy"
HAS_PYSPIEL = importlib.util.find_spec("pyspiel") is not None
HAS_RLCARD = importlib.util.find_spec("rlcard") is not None


@dataclass
class Measure:
    """One figure measured once a round: ``run(seconds, round)`` returns its rate."""

    name: str
    group: str
    label: str
    unit: str
    run: Callable[[float, int], float]
    rates: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        """The median over the rounds."""
        return statistics.median(self.rates)


# --- Kunken ------------------------------------------------------------------------------

def kunken_playouts(seats: int) -> Callable[[float, int], float]:
    """Kunken random play-outs with ``seats`` seats (decisions/s), a seed a round."""
    def run(seconds: float, round_: int) -> float:
        return playouts(seats, seconds, seed=1000 * round_ + seats)[0]
    return run


def kunken_positions(count: int, seed: int) -> list[KunkenDeal]:
    """``count`` positions (a copy at each decision) of random 2-seat Kunken play."""
    rng = random.Random(seed)
    rules = KunkenRules()
    out: list[KunkenDeal] = []
    while len(out) < count:
        deal = new_deal(rules, 2, len(out) % 2, rng)
        while not deal.is_over() and len(out) < count:
            out.append(deal.copy())
            deal.push(rng.choice(deal.legal_actions()))
    return out


def timed_legal(positions: list[Any], seconds: float) -> float:
    """µs per ``legal_actions()`` call, cycling over ``positions`` for ``seconds``."""
    calls = 0
    start = time.process_time()
    while True:
        for position in positions:
            position.legal_actions()
        calls += len(positions)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return 1e6 * elapsed / calls


def kunken_legal(seconds: float, round_: int) -> float:
    """µs per Kunken ``legal_actions()`` over 2,000 positions of random play."""
    return timed_legal(kunken_positions(2000, 7000 + round_), seconds)


class KunkenIsmcts:
    """konkun's Kunken ISMCTS (the bot ``spec``) at every seat of 2-seat deals; iterations
    per CPU second."""

    def __init__(self, spec: str) -> None:
        self.spec = BotSpec.parse(spec)
        self.bot: Any = self.spec.create("kunken")
        self.rng = random.Random(36)
        self.agent = Agent(self.bot, self.spec.budget(), self.rng, "ismcts")
        self.deal = new_deal(KunkenRules(), 2, 0, self.rng)

    def __call__(self, seconds: float, round_: int) -> float:
        before = self.bot.total_iterations
        start = time.process_time()
        while time.process_time() - start < seconds:
            if self.deal.is_over():
                self.deal = new_deal(KunkenRules(), 2, round_ % 2, self.rng)
            self.deal.push(self.agent.act(self.deal))
        return float(self.bot.total_iterations - before) / (time.process_time() - start)


# --- OpenSpiel ---------------------------------------------------------------------------

def settle_chance(state: Any, rng: random.Random) -> None:
    """Apply sampled chance outcomes until a player is to act or the game is over."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        state.apply_action(rng.choices(actions, weights=[p for _, p in outcomes])[0])


def openspiel_playouts(seconds: float, round_: int) -> float:
    """OpenSpiel gin_rummy random play-outs: decisions (not chance outcomes) per second."""
    import pyspiel

    game = pyspiel.load_game(GIN)
    rng = random.Random(2000 + round_)
    decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        settle_chance(state, rng)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
            settle_chance(state, rng)
    return decisions / (time.process_time() - start)


def openspiel_positions(count: int, seed: int) -> list[Any]:
    """``count`` gin_rummy positions (a clone at each decision) of random play."""
    import pyspiel

    game = pyspiel.load_game(GIN)
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = game.new_initial_state()
        settle_chance(state, rng)
        while not state.is_terminal() and len(out) < count:
            out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
            settle_chance(state, rng)
    return out


def openspiel_legal(seconds: float, round_: int) -> float:
    """µs per gin_rummy ``legal_actions()`` over 2,000 positions of random play."""
    return timed_legal(openspiel_positions(2000, 8000 + round_), seconds)


class OpenSpielIsmcts:
    """OpenSpiel's C++ ISMCTS (random-roll-out evaluator) at both seats of gin_rummy;
    iterations per CPU second."""

    def __init__(self, iterations: int) -> None:
        import pyspiel

        self.iterations = iterations
        self.game = pyspiel.load_game(GIN)
        evaluator = pyspiel.RandomRolloutEvaluator(1, 36)
        self.bot = pyspiel.ISMCTSBot(36, evaluator, 2.0, iterations)
        self.rng = random.Random(36)
        self.state = self.new_state()

    def new_state(self) -> Any:
        """A fresh game, its deal sampled."""
        state = self.game.new_initial_state()
        settle_chance(state, self.rng)
        return state

    def __call__(self, seconds: float, round_: int) -> float:
        searched = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            if self.state.is_terminal():
                self.state = self.new_state()
            legal = self.state.legal_actions()
            if len(legal) == 1:
                self.state.apply_action(legal[0])
            else:
                self.state.apply_action(self.bot.step(self.state))
                searched += 1
            settle_chance(self.state, self.rng)
        return searched * self.iterations / (time.process_time() - start)


# --- RLCard ------------------------------------------------------------------------------

def rlcard_playouts(seconds: float, round_: int) -> float:
    """RLCard gin-rummy random play-outs (``env.step``): decisions per second."""
    rlcard: Any = importlib.import_module("rlcard")  # untyped
    env = rlcard.make("gin-rummy", config={"seed": 3000 + round_})
    rng = random.Random(3000 + round_)
    decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            decisions += 1
    return decisions / (time.process_time() - start)


# --- the run -----------------------------------------------------------------------------

def measures(iterations: int) -> tuple[list[Measure], list[str]]:
    """Every measure whose library is installed, and a note per peer skipped."""
    out = [
        Measure("kunken-2", "playouts", "Kunken random play-outs, 2 seats", "decisions/s",
                kunken_playouts(2)),
        Measure("kunken-4", "playouts", "Kunken random play-outs, 4 seats", "decisions/s",
                kunken_playouts(4)),
        Measure("kunken-legal", "legal", "Kunken legal_actions per position", "µs",
                kunken_legal),
        Measure("kunken-ismcts", "ismcts",
                f"Kunken ISMCTS, random roll-outs to the end ({iterations} iterations a move)",
                "iterations/s", KunkenIsmcts(f"ismcts:iters={iterations}:rollout=random")),
        Measure("kunken-ismcts-bot", "ismcts",
                f"Kunken ISMCTS as the bot plays, 2-turn roll-outs ({iterations} a move)",
                "iterations/s", KunkenIsmcts(f"ismcts:iters={iterations}")),
    ]
    notes = []
    if HAS_PYSPIEL:
        out += [
            Measure("openspiel", "playouts", "OpenSpiel gin_rummy random play-outs, 2 players",
                    "decisions/s", openspiel_playouts),
            Measure("openspiel-legal", "legal", "OpenSpiel gin_rummy legal_actions per position",
                    "µs", openspiel_legal),
            Measure("openspiel-ismcts", "ismcts",
                    f"OpenSpiel C++ ISMCTS on gin_rummy ({iterations} iterations a move)",
                    "iterations/s", OpenSpielIsmcts(iterations)),
        ]
    else:
        notes.append("OpenSpiel skipped: pyspiel is not installed (the openspiel extra)")
    if HAS_RLCARD:
        out.append(Measure("rlcard", "playouts", "RLCard gin-rummy random play-outs, 2 players",
                           "decisions/s", rlcard_playouts))
    else:
        notes.append("RLCard skipped: rlcard is not installed (the peers extra)")
    return out, notes


COMPARISONS = (
    ("Kunken play-outs, 2 seats / OpenSpiel gin_rummy (2 players)", "kunken-2", "openspiel"),
    ("Kunken play-outs, 4 seats / OpenSpiel gin_rummy (2 players: gin has no 4-player game)",
     "kunken-4", "openspiel"),
    ("Kunken play-outs, 2 seats / RLCard gin-rummy (2 players)", "kunken-2", "rlcard"),
    ("Kunken play-outs, 4 seats / RLCard gin-rummy (2 players)", "kunken-4", "rlcard"),
    ("legal moves per position: Kunken / OpenSpiel gin_rummy", "kunken-legal",
     "openspiel-legal"),
    ("ISMCTS iterations/s, random roll-outs to the end: Kunken / OpenSpiel C++ on gin_rummy",
     "kunken-ismcts", "openspiel-ismcts"),
    ("ISMCTS iterations/s, Kunken as the bot plays / OpenSpiel C++ on gin_rummy",
     "kunken-ismcts-bot", "openspiel-ismcts"),
)
"""Each ratio row: its label, konkun's measure and the peer's."""


def ratio(ours: Measure, peer: Measure) -> float:
    """konkun's speed over the peer's (µs are times: the peer's over ours)."""
    if ours.unit == "µs":
        return peer.median / ours.median
    return ours.median / peer.median


def run(chosen: list[Measure], rounds: int, seconds: float) -> None:
    """Measure every one of ``chosen`` once a round, the order reversed every other round."""
    for round_ in range(rounds):
        order = chosen if round_ % 2 == 0 else chosen[::-1]
        for measure in order:
            measure.rates.append(measure.run(seconds, round_))
            print(f"  round {round_ + 1}: {measure.name} {measure.rates[-1]:,.2f} {measure.unit}",
                  flush=True)


def table(chosen: list[Measure]) -> list[str]:
    """The figures and the ratios, as Markdown tables."""
    lines = ["| measure | name | unit | median | rounds |", "|---|---|---|---:|---|"]
    for m in chosen:
        digits = 2 if m.unit == "µs" else 0
        each = " / ".join(f"{r:,.{digits}f}" for r in m.rates)
        lines.append(f"| {m.label} | {m.name} | {m.unit} | {m.median:,.{digits}f} | {each} |")
    by_name = {m.name: m for m in chosen}
    ratios = [(label, by_name[a], by_name[b]) for label, a, b in COMPARISONS
              if a in by_name and b in by_name]
    if ratios:
        lines += ["", "| konkun's speed over the peer's (above 1: konkun faster) | ratio |",
                  "|---|---:|"]
        lines += [f"| {label} | {ratio(a, b):.3g} |" for label, a, b in ratios]
    return lines


def select(all_measures: list[Measure], only: list[str]) -> list[Measure]:
    """The measures named, or in a group named, by ``only`` (all of them when empty)."""
    if not only:
        return all_measures
    known = {m.name for m in all_measures} | {m.group for m in all_measures}
    unknown = [name for name in only if name not in known]
    if unknown:
        raise SystemExit(f"--only: unknown measure {', '.join(unknown)}; "
                         f"known: {', '.join(sorted(known))}")
    return [m for m in all_measures if m.name in only or m.group in only]


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run the rounds and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="per measure and round")
    parser.add_argument("--iters", type=int, default=200, help="ISMCTS iterations a move")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="a measure or group (playouts, legal, ismcts); repeatable")
    args = parser.parse_args(argv)
    print("engine:", engine())
    all_measures, notes = measures(args.iters)
    for note in notes:
        print(note)
    chosen = select(all_measures, args.only)
    run(chosen, args.rounds, args.seconds)
    print()
    print("\n".join(table(chosen)))


if __name__ == "__main__":
    main()
