"""Bot specs: named bots usable everywhere (issue 4: random, greedy, ismcts:iters=2000,
ismcts:time=1.0), with clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from konkun.bots import (
    BotSpec,
    Budget,
    InvalidBotSpecError,
    available_bots,
    create_bot,
    parse_spec,
    parse_spec_list,
)
from konkun.bots.ismcts import IsmctsBot
from konkun.bots.random_bot import RandomBot
from konkun.errors import InvalidRuleError, KonkunError


@pytest.mark.parametrize(("text", "kind", "budget"), [
    ("random", "random", Budget()),
    ("greedy", "greedy", Budget()),
    ("ismcts:iters=2000", "ismcts", Budget(iterations=2000)),
    ("ismcts:time=1.0", "ismcts", Budget(seconds=1.0)),
    ("ismcts:iters=50:time=0.5", "ismcts", Budget(50, 0.5)),
    ("ismcts:time=0.1:clock=cpu", "ismcts", Budget(seconds=0.1, cpu=True)),
    ("ismcts:time=0.1:clock=wall", "ismcts", Budget(seconds=0.1)),
])
def test_the_issue_spec_examples_parse(text: str, kind: str, budget: Budget) -> None:
    spec = parse_spec(text)
    assert spec.kind == kind
    assert spec.budget() == budget
    assert str(spec) == text


def test_spec_text_is_read_loosely_and_written_canonically() -> None:
    assert str(parse_spec("  ISMCTS : iters = 20 ")) == "ismcts:iters=20"


@pytest.mark.parametrize(("text", "words"), [
    ("", "empty"),
    ("nosuch", "unknown bot 'nosuch'"),
    ("ismcts:iters", "'iters' is not KEY=VALUE"),
    ("ismcts:iters=", "is not KEY=VALUE"),
    ("ismcts:iters=0", "iters must be at least 1"),
    ("ismcts:iters=many", "iters must be an integer, got 'many'"),
    ("ismcts:time=-1", "time must be positive"),
    ("ismcts:time=soon", "time must be a number"),
    ("ismcts:iters=1:iters=2", "'iters' given twice"),
    ("9lives", "bad bot name"),
    ("ismcts:time=1:clock=gpu", "clock must be 'wall' or 'cpu', got 'gpu'"),
])
def test_a_bad_spec_raises_an_error_that_quotes_it(text: str, words: str) -> None:
    with pytest.raises(InvalidBotSpecError, match=words) as caught:
        parse_spec(text)
    assert isinstance(caught.value, InvalidRuleError)
    assert isinstance(caught.value, KonkunError)
    if text:
        assert repr(text.strip()) in str(caught.value) or text.split(":")[0] in str(caught.value)


@pytest.mark.parametrize(("text", "words"), [
    ("random:c=1", "unknown parameter 'c'"),
    ("ismcts:depth=3", "unknown parameter 'depth'"),
    ("ismcts:c=-1", "c must be at least 0"),
    ("ismcts:rollout=smart", "rollout must be 'policy' or 'random'"),
    ("ismcts:root=deep", "root must be 'tree' or 'flat', got 'deep'"),
    ("ismcts:guard=1", "guard belongs to root=flat"),
    ("ismcts:root=flat:guard=-1", "guard must be at least 0"),
    ("ismcts:early=2", "early must be 0 or 1, got '2'"),
    ("ismcts:root=flat:early=1", "early belongs to root=tree"),
])
def test_options_a_bot_does_not_take_are_refused(text: str, words: str) -> None:
    with pytest.raises(InvalidBotSpecError, match=words):
        create_bot(text, "toy")


def test_greedy_is_written_per_game() -> None:
    with pytest.raises(InvalidBotSpecError, match="no greedy bot for game 'chess'"):
        create_bot("greedy", "chess")


def test_specs_make_the_bots_they_name() -> None:
    assert isinstance(create_bot("random", "toy"), RandomBot)
    bot = create_bot(parse_spec("ismcts:iters=10:c=1.5"), "toy")
    assert isinstance(bot, IsmctsBot)
    assert bot.exploration == 1.5


def test_a_spec_list_is_comma_separated() -> None:
    specs = parse_spec_list("greedy, ismcts:iters=500:c=0.5,random")
    assert [str(s) for s in specs] == ["greedy", "ismcts:iters=500:c=0.5", "random"]
    with pytest.raises(InvalidBotSpecError, match="SPEC,SPEC"):
        parse_spec_list("greedy,,random")


def test_every_bot_of_the_issue_is_registered() -> None:
    assert {"random", "greedy", "ismcts"} <= set(available_bots())


@given(st.sampled_from(["random", "greedy", "ismcts"]),
       st.one_of(st.none(), st.integers(1, 10 ** 6)),
       st.one_of(st.none(), st.floats(0.001, 100, allow_nan=False)))
def test_spec_text_round_trips(kind: str, iters: int | None, seconds: float | None) -> None:
    parts = [kind]
    if iters is not None:
        parts.append(f"iters={iters}")
    if seconds is not None:
        parts.append(f"time={seconds!r}")
    spec = BotSpec.parse(":".join(parts))
    assert BotSpec.parse(str(spec)) == spec
    assert spec.budget() == Budget(iters, seconds)
