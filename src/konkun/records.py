"""The format version of a game record's JSON (both games).

A record is rules, seats, seed and action texts; replaying it deals from the seed with
:mod:`konkun.cards`' stable draws. Version 1 is that format with those draws (records
written before the version field existed are version 1: their deals are the same). A
later change to what a seed deals, or to the record's fields, gets a new number, so an
old konkun refuses a record it would replay wrongly instead of dealing other cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from konkun.errors import InvalidNotationError

RECORD_VERSION = 1
"""The version of the records this konkun writes."""

READABLE_VERSIONS = frozenset({1})
"""The record versions this konkun reads."""


def record_version(data: Mapping[str, Any]) -> int:
    """The format version of record JSON ``data`` (1 when it has none); raise
    :class:`~konkun.errors.InvalidNotationError` for a version this konkun cannot read."""
    version = data.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int):
        raise InvalidNotationError(f"invalid record version {version!r}: expected a number")
    if version not in READABLE_VERSIONS:
        readable = ", ".join(map(str, sorted(READABLE_VERSIONS)))
        raise InvalidNotationError(
            f"unsupported record version {version}: this konkun reads version {readable} "
            "records (a newer konkun wrote it?)")
    return version
