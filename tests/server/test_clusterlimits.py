"""The admission counts processes announce to each other (:mod:`konkun.server.store.clusterlimits`):
the others' connection counts add up, their tables and seats count once each by identity
however many processes announce them, a silent process stops counting, only what changed
is sent, a whole statement replaces the last one, and every announcement fits ``NOTIFY``."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from konkun.server.store.clusterlimits import (
    MAX_PAYLOAD,
    ClusterCounts,
    Held,
    Statement,
    local_counts,
)

counts_maps = st.dictionaries(st.sampled_from([f"conn:address:10.0.0.{n}" for n in range(6)]),
                              st.integers(1, 9), max_size=6)
held_sets = st.sets(st.tuples(st.sampled_from(["seats:address:a", "tables:address:a"]),
                              st.sampled_from(["t1", "t2", "t1:0", "t1:1", "t2:0"])),
                    max_size=6)


def _send(sender: ClusterCounts, receiver: ClusterCounts, origin: str,
          mine: Statement, everything: bool = False) -> None:
    for payload in sender.changes(mine, everything):
        receiver.received(origin, payload)


@given(st.lists(counts_maps, min_size=1, max_size=5), st.lists(counts_maps, min_size=1,
                                                               max_size=5))
def test_the_others_counts_are_the_sum_of_each_process_latest(
        first: list[dict[str, int]], second: list[dict[str, int]]) -> None:
    here, one, two = ClusterCounts(), ClusterCounts(), ClusterCounts()
    for mine in first:
        _send(one, here, "one", Statement(mine))
    for mine in second:
        _send(two, here, "two", Statement(mine))
    keys = set(first[-1]) | set(second[-1]) | {"conn:address:10.0.0.9"}
    for key in keys:
        assert here.others(key) == first[-1].get(key, 0) + second[-1].get(key, 0)
    here.forget("one")  # gone silent
    for key in keys:
        assert here.others(key) == second[-1].get(key, 0)


def _named(entries: set[Held], key: str) -> set[str]:
    return {identity for k, identity in entries if k == key}


@given(st.lists(held_sets, min_size=1, max_size=5), st.lists(held_sets, min_size=1,
                                                             max_size=5))
def test_a_table_or_seat_announced_by_several_processes_counts_once(
        first: list[set[Held]], second: list[set[Held]]) -> None:
    here, one, two = ClusterCounts(), ClusterCounts(), ClusterCounts()
    for held in first:
        _send(one, here, "one", Statement(held=held))
    for held in second:
        _send(two, here, "two", Statement(held=held))
    for key in ("seats:address:a", "tables:address:a", "seats:address:b"):
        assert here.held(key) == _named(first[-1], key) | _named(second[-1], key)
    here.forget("two")  # gone silent: what only it announced no longer counts
    for key in ("seats:address:a", "tables:address:a"):
        assert here.held(key) == _named(first[-1], key)


def test_only_changes_are_announced_and_a_newcomer_hears_everything() -> None:
    one = ClusterCounts()
    seat = ("seats:address:a", "t1:0")
    assert [json.loads(p) for p in one.changes(Statement({"a": 1, "b": 2}, {seat}))] \
        == [{"c": {"a": 1, "b": 2}, "+": [list(seat)]}]
    assert [json.loads(p) for p in one.changes(Statement({"a": 1, "b": 3}, {seat}))] \
        == [{"c": {"b": 3}}]
    assert [json.loads(p) for p in one.changes(Statement({"b": 3}))] \
        == [{"c": {"a": 0}, "-": [list(seat)]}]
    assert list(one.changes(Statement({"b": 3}))) == []
    assert [json.loads(p) for p in one.changes(Statement({"b": 3}), everything=True)] \
        == [{"c": {"b": 3}, "all": 1, "end": 1}]


def test_a_seat_moved_between_keys_is_added_before_it_is_removed() -> None:
    """Changes split over several announcements name the new entries first: a check
    between two of them counts one too many, never one too few."""
    one = ClusterCounts()
    old = [("seats:address:a", f"table{n:04}:0") for n in range(400)]
    new = [("seats:address:b", identity) for _, identity in old]
    list(one.changes(Statement(held=old)))
    payloads = [json.loads(p) for p in one.changes(Statement(held=new))]
    assert len(payloads) > 1
    fields = [field for payload in payloads for field in ("+", "-") if field in payload]
    assert fields == sorted(fields, key=["+", "-"].index)  # every "+" before any "-"


def test_a_whole_statement_replaces_the_last_one_once_all_of_it_has_come() -> None:
    """An announcement missed (a listener that reconnected) leaves nothing stale: the
    next whole statement replaces what was heard, and a check between its parts still
    sees the previous statement."""
    here, one = ClusterCounts(), ClusterCounts()
    _send(one, here, "one", Statement({"conn:address:a": 2}, {("tables:address:a", "old")}))
    held = {("seats:address:a", f"table{n:04}:0") for n in range(400)}
    list(one.changes(Statement(held=held)))  # heard by nobody
    parts = list(one.changes(Statement(held=held), everything=True))
    assert len(parts) > 1
    for part in parts[:-1]:
        here.received("one", part)
        assert here.held("tables:address:a") == {"old"}
        assert here.held("seats:address:a") == set()
    here.received("one", parts[-1])
    assert here.held("tables:address:a") == set()
    assert here.others("conn:address:a") == 0
    assert here.held("seats:address:a") == {identity for _, identity in held}


def test_an_empty_whole_statement_clears_what_was_heard() -> None:
    here, one = ClusterCounts(), ClusterCounts()
    _send(one, here, "one", Statement({"conn:address:a": 1}, {("tables:address:a", "t1")}))
    _send(ClusterCounts(), here, "one", Statement(), everything=True)  # restarted, same name
    assert here.others("conn:address:a") == 0
    assert here.held("tables:address:a") == set()


def test_many_counts_and_identities_are_split_into_announcements_that_fit_notify() -> None:
    counts = {f"conn:address:2001:db8::{n:x}": n + 1 for n in range(2000)}
    held = {(f"seats:address:2001:db8::{n:x}", f"abcdefghij:{n % 5}") for n in range(2000)}
    for everything in (False, True):
        payloads = list(ClusterCounts().changes(Statement(counts, held), everything))
        assert len(payloads) > 1 and all(len(p.encode()) <= MAX_PAYLOAD for p in payloads)
        here = ClusterCounts()
        for payload in payloads:
            here.received("one", payload)
        assert all(here.others(key) == count for key, count in counts.items())
        assert all(here.held(key) == {identity} for key, identity in held)


def test_a_malformed_announcement_is_ignored() -> None:
    here = ClusterCounts()
    for payload in ["", "[1, 2]", '{"c": {"a": "x"}}', "{", '{"+": [["k"]]}',
                    '{"+": "kx"}', '{"c": [1]}']:
        here.received("one", payload)
    assert here.others("a") == 0
    assert here.held("k") == set()


def test_local_counts_count_connections_by_address_and_player() -> None:
    counts = local_counts([("1.2.3.4", "p1"), ("1.2.3.4", None), ("5.6.7.8", "p1")])
    assert counts == {"conn:address:1.2.3.4": 2, "conn:address:5.6.7.8": 1,
                      "conn:player:p1": 2}
