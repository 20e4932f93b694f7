"""Language-model agents: a prompt template and a client loop over the text observation,
for any OpenAI-compatible chat endpoint.

The agent is shown one seat's JSON observation (``observe_json``: its hand, the public
cards, the history and its legal moves as text) through :data:`SYSTEM_PROMPT` and
:data:`TURN_PROMPT`, and answers with one legal move as text. An answer that is no legal
move is sent back with :func:`illegal_feedback` (which names the seat's own cards and its
legal moves, nothing hidden) and asked again, up to ``retries`` times; then a uniformly
random legal move is played and counted (:attr:`LLMAgent.stats`).

- :class:`ChatEndpoint` posts to ``{url}/chat/completions`` (the OpenAI chat API, which
  vLLM, llama.cpp's server, Ollama and others serve) with the standard library only;
- :class:`LLMAgent` is the loop; it is also an engine policy ``(observation, legal) ->
  action``, so it plays as an environment's opponent;
- :func:`play_episode` plays one episode of a Gymnasium environment through the text API
  (``observe_json``, ``slot_of``);
- the bot spec ``llm:model=NAME`` (options ``retries``, ``temperature``, ``max_tokens``)
  plays in the arena and the lobby: the endpoint is the process's ``KONKUN_LLM_URL`` (and
  ``KONKUN_LLM_API_KEY``, if the endpoint wants one), never a spec's text, so a server
  talks only to the endpoint its operator set::

      KONKUN_LLM_URL=http://localhost:8000/v1 konkun arena konchinka \\
          --bots llm:model=qwen2.5-7b-instruct,casual --games 20
"""

from __future__ import annotations

import json
import os
import random
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from konkun.errors import KonkunError

URL_VARIABLE = "KONKUN_LLM_URL"
"""The environment variable naming the chat endpoint the ``llm`` bot talks to."""
KEY_VARIABLE = "KONKUN_LLM_API_KEY"
"""The environment variable holding the endpoint's API key (optional)."""

SYSTEM_PROMPT = """You are playing the card game {game} at seat {seat} of {players}.
{rules}
Cards are written rank then suit: ranks A K Q J T 9 8 7 6 5 4 3 2, suits c d h s
(clubs, diamonds, hearts, spades); X is a joker. Each turn you get your view of the
deal as JSON (your hand, the public cards, what happened so far, and "legal": your legal
moves as text). Reply with exactly one of the legal moves, copied as written, on one
line, and nothing else."""
"""The system message (``{game}``, ``{seat}``, ``{players}``, ``{rules}`` filled in)."""

TURN_PROMPT = """Your view of the deal:
{view}
Your legal moves: {legal}
Your move:"""
"""The user message of each decision (``{view}`` the JSON, ``{legal}`` the moves)."""

GAME_RULES = {
    "konchinka": "A fishing game: play one card from your hand to capture table cards "
                 "whose values add up to its value (a Jack takes the whole table), or "
                 "lay it on the table. `Kh:Tc` plays Kh and takes Tc; `Kh` alone lays it. "
                 "Points: most cards, most clubs, 2c and Td.",
    "kunken": "A two-deck rummy: each turn `draw` a card or `take I` cards from the bank, "
              "lay down melds (`meld ...`), lay off (`layoff C M`), swap jokers "
              "(`swap M C`), then `discard C`. Lay down all your cards to go out.",
}
"""One paragraph of rules per game, for the system message."""


class LLMError(KonkunError):
    """The chat endpoint failed or answered something that is not a chat completion."""


def illegal_feedback(answer: str, hand: Sequence[str], legal: Sequence[str]) -> str:
    """The message sent back after an answer that is no legal move: it quotes the answer
    and names only the seat's own cards and its legal moves (nothing another seat holds)."""
    return (f"{answer!r} is not one of your legal moves. Your cards: {' '.join(hand)}. "
            f"Reply with exactly one of: {', '.join(legal)}")


def read_move(answer: str) -> str:
    """The move text in a model's answer: ``{"move": ...}`` JSON, or its first non-empty
    line without quotes, backticks or a ``move:`` prefix."""
    text = answer.strip()
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("move"), str):
        return str(data["move"]).strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    line = lines[0] if lines else ""
    if line.lower().startswith("move:"):
        line = line[5:]
    return line.strip().strip("`'\"").strip().rstrip(".")


@dataclass
class ChatEndpoint:
    """An OpenAI-compatible chat endpoint: ``url`` is its base (``http://host:8000/v1``)
    or its full ``.../chat/completions`` address."""

    url: str
    model: str
    api_key: str | None = None
    temperature: float = 0.0
    max_tokens: int = 64
    timeout: float = 60.0

    def address(self) -> str:
        """The ``chat/completions`` address."""
        base = self.url.rstrip("/")
        return base if base.endswith("/chat/completions") else base + "/chat/completions"

    def complete(self, messages: Sequence[Mapping[str, str]]) -> str:
        """The model's reply to ``messages``; raise :class:`LLMError` naming the endpoint
        when the request fails or the reply is no chat completion."""
        body = json.dumps({"model": self.model, "messages": list(messages),
                           "temperature": self.temperature,
                           "max_tokens": self.max_tokens}).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.address(), body, headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                reply = json.loads(response.read().decode())
        except urllib.error.HTTPError as error:
            raise LLMError(f"chat endpoint {self.address()!r} answered HTTP "
                           f"{error.code}") from None
        except (urllib.error.URLError, TimeoutError, ValueError) as error:
            raise LLMError(f"chat endpoint {self.address()!r} failed: {error}") from None
        try:
            return str(reply["choices"][0]["message"]["content"] or "")
        except (KeyError, IndexError, TypeError):
            raise LLMError(f"chat endpoint {self.address()!r} sent no chat completion: "
                           f"{str(reply)[:200]!r}") from None


@dataclass
class Decision:
    """One decision of the agent: the move played, how many answers it took, and whether
    it fell back to a random move after the retries."""

    move: str
    answers: int
    fallback: bool


@dataclass
class AgentStats:
    """What an agent did: decisions, answers asked for, illegal answers, fallbacks."""

    decisions: int = 0
    answers: int = 0
    illegal: int = 0
    fallbacks: int = 0


@dataclass
class LLMAgent:
    """A language model playing one seat (see the module): ``complete`` is the chat call
    (a :class:`ChatEndpoint`'s ``complete``, or any function of the messages)."""

    complete: Callable[[Sequence[Mapping[str, str]]], str]
    game: str
    retries: int = 3
    rng: random.Random = field(default_factory=random.Random)
    stats: AgentStats = field(default_factory=AgentStats)

    def messages(self, view: Mapping[str, Any]) -> list[dict[str, str]]:
        """The prompt of one decision: the system message and the seat's view."""
        from konkun.game import get_game

        system = SYSTEM_PROMPT.format(game=get_game(self.game).title.en, seat=view["seat"],
                                      players=view["num_seats"],
                                      rules=GAME_RULES.get(self.game, ""))
        turn = TURN_PROMPT.format(view=json.dumps(view, sort_keys=True),
                                  legal=", ".join(view["legal"]))
        return [{"role": "system", "content": system}, {"role": "user", "content": turn}]

    def decide(self, view: Mapping[str, Any], is_legal: Callable[[str], str | None]
               ) -> Decision:
        """Ask for a move until ``is_legal`` accepts one (it returns the move's canonical
        text, or ``None``), at most ``1 + retries`` answers; then a random legal move."""
        legal = list(view["legal"])
        messages = self.messages(view)
        self.stats.decisions += 1
        for answers in range(1, self.retries + 2):
            answer = self.complete(messages)
            self.stats.answers += 1
            move = is_legal(read_move(answer))
            if move is not None:
                return Decision(move, answers, False)
            self.stats.illegal += 1
            messages += [{"role": "assistant", "content": answer},
                         {"role": "user", "content": illegal_feedback(
                             read_move(answer), view.get("hand", []), legal)}]
        self.stats.fallbacks += 1
        return Decision(self.rng.choice(legal), self.retries + 1, True)

    def __call__(self, observation: Any, legal: Sequence[Any]) -> Any:
        """As an engine policy: the legal action the model names for ``observation``."""
        deal = observation.sample_deal(random.Random(0))  # for its notation only
        texts = [deal.format_action(action) for action in legal]
        view = {**observation.to_json(), "legal": texts}
        by_text = dict(zip(texts, legal, strict=True))
        parse = deal.parse_action
        by_action = {action: text for text, action in by_text.items()}

        def is_legal(text: str) -> str | None:
            if text in by_text:
                return text
            try:
                return by_action.get(parse(text))
            except (KonkunError, ValueError):
                return None

        return by_text[self.decide(view, is_legal).move]


def play_episode(env: Any, agent: LLMAgent, seed: int | None = None
                 ) -> tuple[float, dict[str, Any]]:
    """Play one episode of a Gymnasium environment (``konchinka_gym_env`` ...) with the
    agent at its seat, through the text API; return the total reward and the last info."""
    from konkun.errors import IllegalMoveError, InvalidNotationError

    env.reset(seed=seed)
    total = 0.0
    while True:
        view = env.observe_json()

        def is_legal(text: str) -> str | None:
            try:
                return str(env.action_text(env.slot_of(text)))
            except (IllegalMoveError, InvalidNotationError, ValueError):
                return None

        decision = agent.decide(view, is_legal)
        _, reward, terminated, truncated, info = env.step(env.slot_of(decision.move))
        total += float(reward)
        if terminated or truncated:
            return total, info


class LLMBot:
    """The ``llm`` bot: a konkun bot that asks a language model (see the module)."""

    def __init__(self, game: str, endpoint: ChatEndpoint, retries: int) -> None:
        self.game = game
        self.endpoint = endpoint
        self.retries = retries

    def choose(self, observation: Any, legal: Sequence[Any], rng: random.Random,
               budget: Any) -> Any:
        """The model's move for ``observation`` (random after the retries, from ``rng``)."""
        agent = LLMAgent(self.endpoint.complete, self.game, self.retries, rng)
        return agent(observation, legal)


def make_llm_bot(game: str, spec: Any) -> LLMBot:
    """The bot of an ``llm:model=NAME`` spec (the spec registry's factory)."""
    from konkun.bots.specs import InvalidBotSpecError, check_options, float_param, int_param

    options = check_options(spec, {"model": "the model name", "retries": "answers re-asked",
                                   "temperature": "sampling temperature",
                                   "max_tokens": "reply length"})
    url = os.environ.get(URL_VARIABLE, "").strip()
    if not url:
        raise InvalidBotSpecError(
            f"invalid bot spec {str(spec)!r}: the llm bot talks to the chat endpoint in "
            f"{URL_VARIABLE} (an OpenAI-compatible base URL such as "
            "http://localhost:8000/v1), which is not set")
    if "model" not in options:
        raise InvalidBotSpecError(f"invalid bot spec {str(spec)!r}: expected llm:model=NAME")
    endpoint = ChatEndpoint(
        url, options["model"], os.environ.get(KEY_VARIABLE) or None,
        float_param(spec, "temperature", options.get("temperature", "0"), minimum=0.0),
        int_param(spec, "max_tokens", options.get("max_tokens", "64"), minimum=1))
    return LLMBot(game, endpoint, int_param(spec, "retries", options.get("retries", "3"),
                                            minimum=0))


__all__ = ["GAME_RULES", "SYSTEM_PROMPT", "TURN_PROMPT", "ChatEndpoint", "Decision",
           "LLMAgent", "LLMBot", "LLMError", "illegal_feedback", "make_llm_bot",
           "play_episode", "read_move"]
