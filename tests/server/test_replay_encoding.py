"""A finished game's replay is encoded frame by frame (so the JSON encoder never holds the
interpreter lock for a whole replay) into exactly the bytes one ``json.dumps`` gives."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from konkun.server.replays import encode_json_frames, encode_replay

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=10)


@given(st.dictionaries(st.sampled_from(["table", "record", "seat", "chat", "fair"]), JSON),
       st.lists(st.dictionaries(st.text(max_size=5), JSON, max_size=4), max_size=5),
       st.integers(0, 5))
def test_a_replay_encoded_frame_by_frame_is_the_same_json(
        fields: dict[str, Any], frames: list[dict[str, Any]], where: int) -> None:
    """Wherever ``frames`` sits among the keys, whatever text the other fields hold (a
    chat line may hold anything)."""
    items = list(fields.items())
    payload = dict([*items[:where], ("frames", frames), *items[where:]])
    expected = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    assert encode_json_frames(payload) == expected
    assert encode_replay(payload).body == expected.encode()


def test_a_payload_without_frames_is_encoded_whole() -> None:
    payload = {"table": {"id": "t"}, "frames": "not a list"}
    assert encode_json_frames(payload) == '{"table":{"id":"t"},"frames":"not a list"}'
