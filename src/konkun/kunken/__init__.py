"""Кункен (Kunken): the exact rules engine (RULES.md), see docs/kunken.md.

>>> from konkun.kunken import KunkenMatch
>>> match = KunkenMatch(num_seats=2, seed=1)
>>> match.deal.legal_actions()[0].text()
'draw'
"""

from pathlib import Path

from konkun import native

NATIVE = native.activate(__path__, Path(__file__).resolve().parent)
"""Whether the engine's modules load from its compiled build (:mod:`konkun.native`); this
runs before any of them is imported."""

from konkun.kunken.actions import Action, parse_action
from konkun.kunken.kkn import format_kkn, parse_kkn
from konkun.kunken.match import KunkenMatch, KunkenRecord, replay
from konkun.kunken.melds import MeldCheck, TableMeld, check_meld
from konkun.kunken.notation import deal_from_json
from konkun.kunken.observation import KunkenObservation
from konkun.kunken.position import KunkenPosition, MeldPosition, Phase, TakeTurn
from konkun.kunken.rules import DEFAULT_RULES, KunkenRules
from konkun.kunken.state import KunkenDeal, new_deal

__all__ = [
    "DEFAULT_RULES",
    "NATIVE",
    "Action",
    "KunkenDeal",
    "KunkenMatch",
    "KunkenObservation",
    "KunkenPosition",
    "KunkenRecord",
    "KunkenRules",
    "MeldCheck",
    "MeldPosition",
    "Phase",
    "TableMeld",
    "TakeTurn",
    "check_meld",
    "deal_from_json",
    "format_kkn",
    "new_deal",
    "parse_action",
    "parse_kkn",
    "replay",
]
