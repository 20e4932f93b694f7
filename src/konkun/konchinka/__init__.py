"""Konchinka (Кончинка, also палки): the exact rules engine of ``RULES.md``.

- :class:`KonchinkaRules` (presets ``classic`` and ``novo``), :class:`Move`;
- :class:`KonchinkaDeal`, one deal (:class:`konkun.game.Deal`): :func:`new_deal`,
  :func:`deal_from_seed`, :func:`deal_from_deck`, :func:`parse_kpn` / :func:`format_kpn`;
  its frozen :class:`KonchinkaPosition` (``deal.position()``,
  ``KonchinkaDeal.from_position``) and its fast integer interface for bots and RL;
- :class:`KonchinkaObservation`, one seat's view (:class:`konkun.game.Observation`);
- :class:`KonchinkaMatch`, a game to the target (:class:`konkun.game.Match`), with its
  :class:`KonchinkaRecord` and :func:`replay`;
- :func:`score_piles`, :func:`perft`.

See ``docs/konchinka.md``.
"""

from konkun.konchinka.deal import KonchinkaDeal, perft
from konkun.konchinka.dealing import deal_from_deck, deal_from_seed, new_deal
from konkun.konchinka.deck import CLASSIC_VALUES, NOVO_VALUES
from konkun.konchinka.game import (
    KonchinkaMatch,
    KonchinkaRecord,
    Payment,
    SettlementResult,
    game_winner,
    new_match,
    replay,
    running_totals,
    settle,
)
from konkun.konchinka.moves import Move, card_order, sort_cards
from konkun.konchinka.notation import format_kpn, parse_kpn
from konkun.konchinka.observation import KonchinkaObservation, spectator_view
from konkun.konchinka.position import HistoryEntry, KonchinkaPosition
from konkun.konchinka.rules import CLASSIC, NOVO, KonchinkaRules
from konkun.konchinka.scoring import DealScore, SeatScore, score_masks, score_piles

__all__ = [
    "CLASSIC",
    "CLASSIC_VALUES",
    "NOVO",
    "NOVO_VALUES",
    "DealScore",
    "HistoryEntry",
    "KonchinkaDeal",
    "KonchinkaMatch",
    "KonchinkaObservation",
    "KonchinkaPosition",
    "KonchinkaRecord",
    "KonchinkaRules",
    "Move",
    "Payment",
    "SeatScore",
    "SettlementResult",
    "card_order",
    "deal_from_deck",
    "deal_from_seed",
    "format_kpn",
    "game_winner",
    "new_deal",
    "new_match",
    "parse_kpn",
    "perft",
    "replay",
    "running_totals",
    "score_masks",
    "score_piles",
    "settle",
    "sort_cards",
    "spectator_view",
]
