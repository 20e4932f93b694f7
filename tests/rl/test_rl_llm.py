"""The language-model harness against a local fake chat endpoint (a small HTTP server in
the test, never a real service): the prompt, the retries on illegal answers with feedback
naming only the seat's cards, the random fallback, whole episodes through the text API,
and the ``llm`` bot spec in the arena."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from konkun.arena import ArenaConfig, run_arena
from konkun.bots.specs import BotSpec, InvalidBotSpecError
from konkun.rl.envs import konchinka_gym_env, kunken_gym_env
from konkun.rl.llm import (
    ChatEndpoint,
    LLMAgent,
    LLMError,
    illegal_feedback,
    play_episode,
    read_move,
)

Respond = Callable[[list[dict[str, str]]], str]


class FakeChat:
    """A fake OpenAI-compatible endpoint: records each request, answers with
    ``respond(messages)``."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.respond: Respond = first_legal
        self.status = 200
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append({"path": self.path, **body})
                fake.headers.append(dict(self.headers))
                if fake.status != 200:
                    self.send_error(fake.status)
                    return
                reply = {"choices": [{"message": {"role": "assistant",
                                                  "content": fake.respond(body["messages"])}}]}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                """Quiet."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def legal_of(messages: list[dict[str, str]]) -> list[str]:
    """The legal moves the last turn prompt (or feedback) lists."""
    for message in reversed(messages):
        found = re.search(r"(?:Your legal moves|Reply with exactly one of): (.*)",
                          message["content"])
        if found:
            return found.group(1).split("\n")[0].split(", ")
    raise AssertionError("no legal moves in the prompt")


def first_legal(messages: list[dict[str, str]]) -> str:
    return legal_of(messages)[0]


@pytest.fixture
def chat() -> Iterator[FakeChat]:
    fake = FakeChat()
    yield fake
    fake.close()


def test_the_endpoint_posts_a_chat_completion_with_the_model_and_key(chat: FakeChat) -> None:
    endpoint = ChatEndpoint(chat.url, "tiny-model", api_key="secret", max_tokens=9)
    chat.respond = lambda messages: "pong"
    assert endpoint.complete([{"role": "user", "content": "ping"}]) == "pong"
    request = chat.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["model"] == "tiny-model" and request["max_tokens"] == 9
    assert request["messages"] == [{"role": "user", "content": "ping"}]
    assert chat.headers[0]["Authorization"] == "Bearer secret"


def test_an_endpoint_that_fails_is_an_error_naming_it(chat: FakeChat) -> None:
    chat.status = 500
    with pytest.raises(LLMError, match=re.escape(f"{chat.url}/chat/completions") + ".*500"):
        ChatEndpoint(chat.url, "m").complete([{"role": "user", "content": "x"}])


@pytest.mark.parametrize(("answer", "move"), [
    ("Kh:Tc", "Kh:Tc"), ("  `draw`  \nbecause", "draw"), ('{"move": "take 2"}', "take 2"),
    ("Move: discard 5h.", "discard 5h"), ("", "")])
def test_the_move_is_read_from_the_answer(answer: str, move: str) -> None:
    assert read_move(answer) == move


def test_an_illegal_answer_is_asked_again_with_feedback_naming_only_the_seats_cards(
        chat: FakeChat) -> None:
    answers = iter(["banana", "2c:Td"])
    chat.respond = lambda messages: next(answers, None) or first_legal(messages)
    env = konchinka_gym_env(2, observation="flat")
    env.reset(seed=3)
    view = env.observe_json()
    agent = LLMAgent(ChatEndpoint(chat.url, "m").complete, "konchinka", retries=3)
    total, _ = play_episode(env, agent, seed=3)
    first = chat.requests[0]["messages"]
    assert first[0]["role"] == "system" and "Konchinka" in first[0]["content"]
    assert json.dumps(view, sort_keys=True) in first[1]["content"]
    second = chat.requests[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": "banana"}
    feedback = second[-1]["content"]
    assert feedback == illegal_feedback("banana", view["hand"], view["legal"])
    deal = env.deal  # the feedback's cards: the seat's own hand and its legal moves
    hidden = {str(card) for seat in range(2) if seat != 0 for card in deal.hands[seat]}
    hidden |= {str(card) for card in deal.stock}
    shown = set(re.findall(r"\b[AKQJT2-9][cdhs]\b", feedback))
    assert shown and shown <= set(view["hand"]) | {c for m in view["legal"]
                                                    for c in m.split(":")}
    assert not shown & (hidden - set(view["hand"]) - set(view["table"]))
    assert agent.stats.illegal == 2 and agent.stats.fallbacks == 0
    assert agent.stats.decisions >= 1 and isinstance(total, float)


def test_after_the_retries_a_random_legal_move_is_played(chat: FakeChat) -> None:
    chat.respond = lambda messages: "I fold"
    env = kunken_gym_env(2, observation="flat")
    env.reset(seed=1)
    agent = LLMAgent(ChatEndpoint(chat.url, "m").complete, "kunken", retries=2)
    decision = agent.decide(env.observe_json(), lambda text: None)
    assert decision.fallback and decision.answers == 3
    assert decision.move in env.observe_json()["legal"]
    assert len(chat.requests) == 3 and agent.stats.fallbacks == 1


@pytest.mark.parametrize("make", [konchinka_gym_env, kunken_gym_env])
def test_an_llm_plays_whole_episodes_through_the_text_api(chat: FakeChat, make: Any) -> None:
    env = make(2, observation="flat")
    agent = LLMAgent(ChatEndpoint(chat.url, "m").complete, env.adapter.name)
    _, info = play_episode(env, agent, seed=2)
    assert "points" in info
    assert agent.stats.fallbacks == 0 and agent.stats.illegal == 0
    assert agent.stats.decisions == len(chat.requests) > 0


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_the_llm_bot_spec_plays_in_the_arena_against_the_ladder(
        chat: FakeChat, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONKUN_LLM_URL", chat.url)
    config = ArenaConfig(game, ("llm:model=fake:retries=1", "casual"), 2, 2, seed=4)
    report = run_arena(config, backend="serial")
    assert report.games == 2 and len(chat.requests) > 0
    assert {r["model"] for r in chat.requests} == {"fake"}


def test_the_llm_bot_needs_the_endpoint_variable_and_a_model(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KONKUN_LLM_URL", raising=False)
    with pytest.raises(InvalidBotSpecError, match="KONKUN_LLM_URL"):
        BotSpec.parse("llm:model=m").create("konchinka")
    monkeypatch.setenv("KONKUN_LLM_URL", "http://127.0.0.1:9/v1")
    with pytest.raises(InvalidBotSpecError, match="llm:model=NAME"):
        BotSpec.parse("llm").create("konchinka")
    with pytest.raises(InvalidBotSpecError, match="unknown parameter 'url'"):
        BotSpec.parse("llm:model=m:url=x").create("konchinka")
