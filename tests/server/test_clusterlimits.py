"""The admission counts processes announce to each other (:mod:`konkun.server.store.clusterlimits`):
the others' counts add up, a silent process stops counting, and only what changed is sent,
in announcements that fit ``NOTIFY``."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from konkun.server.store.clusterlimits import MAX_PAYLOAD, ClusterCounts, local_counts

counts_maps = st.dictionaries(st.sampled_from([f"conn:address:10.0.0.{n}" for n in range(6)]),
                              st.integers(1, 9), max_size=6)


def _send(sender: ClusterCounts, receiver: ClusterCounts, origin: str,
          mine: dict[str, int], everything: bool = False) -> None:
    for payload in sender.changes(mine, everything):
        receiver.received(origin, payload)


@given(st.lists(counts_maps, min_size=1, max_size=5), st.lists(counts_maps, min_size=1,
                                                               max_size=5))
def test_the_others_counts_are_the_sum_of_each_process_latest(
        first: list[dict[str, int]], second: list[dict[str, int]]) -> None:
    here, one, two = ClusterCounts(), ClusterCounts(), ClusterCounts()
    for mine in first:
        _send(one, here, "one", mine)
    for mine in second:
        _send(two, here, "two", mine)
    keys = set(first[-1]) | set(second[-1]) | {"conn:address:10.0.0.9"}
    for key in keys:
        assert here.others(key) == first[-1].get(key, 0) + second[-1].get(key, 0)
    here.forget("one")  # gone silent
    for key in keys:
        assert here.others(key) == second[-1].get(key, 0)


def test_only_changes_are_announced_and_a_newcomer_hears_everything() -> None:
    one = ClusterCounts()
    assert [json.loads(p) for p in one.changes({"a": 1, "b": 2})] == [{"a": 1, "b": 2}]
    assert [json.loads(p) for p in one.changes({"a": 1, "b": 3})] == [{"b": 3}]
    assert [json.loads(p) for p in one.changes({"b": 3})] == [{"a": 0}]
    assert list(one.changes({"b": 3})) == []
    assert [json.loads(p) for p in one.changes({"b": 3}, everything=True)] == [{"b": 3}]


def test_many_counts_are_split_into_announcements_that_fit_notify() -> None:
    mine = {f"conn:address:2001:db8::{n:x}": n + 1 for n in range(2000)}
    payloads = list(ClusterCounts().changes(mine))
    assert len(payloads) > 1 and all(len(p.encode()) <= MAX_PAYLOAD for p in payloads)
    merged: dict[str, int] = {}
    for payload in payloads:
        merged.update(json.loads(payload))
    assert merged == mine


def test_a_malformed_announcement_is_ignored() -> None:
    here = ClusterCounts()
    for payload in ["", "[1, 2]", '{"a": "x"}', "{"]:
        here.received("one", payload)
    assert here.others("a") == 0


def test_local_counts_count_connections_tables_and_seats_by_key() -> None:
    counts = local_counts([("1.2.3.4", "p1"), ("1.2.3.4", None), ("5.6.7.8", "p1")],
                          ["1.2.3.4", None], ["5.6.7.8", "5.6.7.8"])
    assert counts == {"conn:address:1.2.3.4": 2, "conn:address:5.6.7.8": 1,
                      "conn:player:p1": 2, "tables:address:1.2.3.4": 1,
                      "seats:address:5.6.7.8": 2}
