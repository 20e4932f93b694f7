"""Ratings: Glicko-2 (:mod:`konkun.ratings.glicko2`), a pool of players rated in rating
periods with multi-player games as pairwise results (:mod:`konkun.ratings.pool`), and the
bots' ladder calibrated from arena games (:mod:`konkun.ratings.calibration`). Plain Python,
no dependencies; see ``docs/ratings.md``."""

from konkun.ratings.calibration import arena_periods, calibrate_ladder
from konkun.ratings.glicko2 import Rating, expected_score, rate
from konkun.ratings.pool import RatingPool, pairwise_results

__all__ = ["Rating", "RatingPool", "arena_periods", "calibrate_ladder", "expected_score",
           "pairwise_results", "rate"]
