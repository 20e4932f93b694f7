"""Bots against bots: duplicate deals, whole matches, statistics and Elo, on local cores
or a Ray cluster (``konkun arena``).

- :mod:`.tournament`: :class:`ArenaConfig`, :func:`run_arena`, :class:`ArenaReport`;
- :mod:`.runner`: a set of games as plain data (:class:`Job`) and how it is played;
- :mod:`.backends`: serial, local processes, Ray;
- :mod:`.stats`: Wilson and Student-t intervals, Bradley-Terry Elo;
- :mod:`.games`: the games by name (deal from a seed, match from a seed).
"""

from konkun.arena.tournament import ArenaConfig, ArenaReport, run_arena

__all__ = ["ArenaConfig", "ArenaReport", "run_arena"]
