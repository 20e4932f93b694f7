"""The Game descriptor and the one registry (:mod:`konkun.game`): the rules schema and its
one options parser, the seat range checked once with one error type at every layer,
seeded deals, records, the catalog, and games found by entry point or registered."""

from __future__ import annotations

import random
from dataclasses import replace
from importlib.metadata import entry_points
from typing import Any

import pytest

from konkun.errors import InvalidRuleError
from konkun.game import (
    ENTRY_POINT_GROUP,
    FALSE_WORDS,
    TRUE_WORDS,
    Game,
    game_names,
    get_game,
    register_game,
    unregister_game,
)

REAL = ["konchinka", "kunken"]
ALL = ["konchinka", "kunken", "toy"]


def _play_out(match: Any, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if match.is_over():
            return
        match.play(rng.choice(match.deal.legal_actions()))


def test_konkun_installs_its_games_as_entry_points() -> None:
    points = {p.name: p.value for p in entry_points(group=ENTRY_POINT_GROUP)}
    assert points == {"konchinka": "konkun.konchinka.descriptor:GAME",
                      "kunken": "konkun.kunken.descriptor:GAME"}
    for name in points:
        assert get_game(name).name == name


def test_the_seat_ranges_are_those_of_the_rules() -> None:
    # RULES.md: Konchinka is played by 2 to 4, Kunken by 2 to 5
    assert list(get_game("konchinka").seat_counts()) == [2, 3, 4]
    assert list(get_game("kunken").seat_counts()) == [2, 3, 4, 5]


@pytest.mark.parametrize(("game", "option"), [("konchinka", "capture_compulsory"),
                                              ("kunken", "joker_for_held")])
def test_every_game_reads_the_same_boolean_words(game: str, option: str) -> None:
    descriptor = get_game(game)
    for word in TRUE_WORDS + tuple(w.upper() for w in TRUE_WORDS):
        assert getattr(descriptor.rules_from_options(None, {option: word}), option) is True
    for word in FALSE_WORDS + tuple(w.title() for w in FALSE_WORDS):
        assert getattr(descriptor.rules_from_options(None, {option: word}), option) is False
    with pytest.raises(InvalidRuleError, match=f"'{option}'.*true or false") as error:
        descriptor.rules_from_options(None, {option: "maybe"})
    assert error.value.option == option


@pytest.mark.parametrize(("game", "texts", "option", "words"), [
    ("konchinka", {"nosuch": "1"}, "nosuch", "unknown Konchinka rule option 'nosuch'"),
    ("kunken", {"jokers": "5"}, "jokers", "from 0 to 4"),
    ("kunken", {"hand_size": "x"}, "hand_size", "from 1 to 20"),
    ("konchinka", {"target": "0"}, "target", "from 1 to 100"),
    ("konchinka", {"settlement": "cash"}, "settlement", "one of difference, pool"),
    ("kunken", {"variant": "novo"}, "variant", "unknown Kunken rule option"),
])
def test_a_bad_option_raises_one_error_naming_it(game: str, texts: dict[str, str],
                                                 option: str, words: str) -> None:
    with pytest.raises(InvalidRuleError, match=words) as error:
        get_game(game).rules_from_options(None, texts, 2)
    assert error.value.option == option


def test_the_engines_parse_options_with_the_descriptors_parser() -> None:
    from konkun.konchinka import KonchinkaRules
    from konkun.kunken import KunkenRules

    texts = {"variant": "novo", "tie_points": "SPLIT", "capture_compulsory": "on"}
    assert KonchinkaRules.from_options(texts) == \
        get_game("konchinka").rules_from_options(None, texts)
    texts = {"empty_stock": "end", "joker_for_held": "yes", "deals": "3"}
    assert KunkenRules.from_options(texts) == get_game("kunken").rules_from_options(None, texts)


def test_variants_are_checked_and_agree_with_a_variant_option() -> None:
    konchinka = get_game("konchinka")
    assert konchinka.rules_from_options(None, {}).variant == "classic"  # the first is default
    assert konchinka.rules_from_options("novo", {"variant": "novo"}).variant == "novo"
    with pytest.raises(InvalidRuleError, match="contradicts"):
        konchinka.rules_from_options("novo", {"variant": "classic"})
    with pytest.raises(InvalidRuleError, match="unknown Konchinka variant 'modern'"):
        konchinka.rules_from_options("modern", {})
    with pytest.raises(InvalidRuleError, match="Kunken has no variants"):
        get_game("kunken").rules_from_options("novo", {})


def _wrong_seat_counts(game: Game) -> list[int]:
    return [game.min_seats - 1, game.max_seats + 1]


@pytest.mark.parametrize("name", ALL)
def test_a_wrong_seat_count_raises_the_same_error_at_every_layer(name: str) -> None:
    from konkun.arena.games import load_game
    from konkun.rl import make_env
    from konkun.server.core.games import get_game as server_game
    from konkun.tui.games import new_match

    game = get_game(name)
    for seats in _wrong_seat_counts(game):
        words = "invalid number of seats"
        with pytest.raises(InvalidRuleError, match=words):
            game.new_match(None, seats, 1)
        with pytest.raises(InvalidRuleError, match=words):
            game.deal_from_seed(game.rules_from_options(), seats, 1, 0)  # the engine itself
        with pytest.raises(InvalidRuleError, match=words):
            load_game(name).new_deal(seats, {}, 1, 0)
        with pytest.raises(InvalidRuleError, match=words):
            server_game(name).check(None, {}, seats)
        with pytest.raises(InvalidRuleError, match=words):
            new_match(name, seats, {}, 1)
        with pytest.raises(InvalidRuleError, match=words):
            make_env(name, num_players=seats)


@pytest.mark.parametrize("name", REAL)
def test_the_engines_matches_refuse_a_wrong_seat_count(name: str) -> None:
    from konkun.konchinka import CLASSIC, KonchinkaMatch
    from konkun.kunken import KunkenMatch

    start = (lambda n: KonchinkaMatch(CLASSIC, n, 1)) if name == "konchinka" \
        else (lambda n: KunkenMatch(None, n, 1))
    for seats in _wrong_seat_counts(get_game(name)):
        with pytest.raises(InvalidRuleError, match="invalid number of seats"):
            start(seats)


@pytest.mark.parametrize("name", ALL)
def test_a_seeded_deal_is_the_same_deal_every_time(name: str) -> None:
    game = get_game(name)
    rules = game.rules_from_options()
    for seats in game.seat_counts():
        one = game.new_deal(rules, seats, 42, seats - 1)
        two = game.new_deal(rules, seats, 42, seats - 1)
        other = game.new_deal(rules, seats, 43, seats - 1)
        views = [[d.observe(s).to_json() for s in range(seats)] for d in (one, two, other)]
        assert views[0] == views[1]
        assert views[0] != views[2]
        assert one.to_move == (seats - 1 + 1) % seats  # the seat left of the dealer starts
    with pytest.raises(InvalidRuleError, match="invalid dealer seat 2"):
        game.new_deal(rules, 2, 1, 2)


@pytest.mark.parametrize("name", ALL)
def test_a_record_loads_back_to_the_same_match(name: str) -> None:
    game = get_game(name)
    match = game.new_match(None, game.min_seats, 7)
    _play_out(match, random.Random(7), 60)
    loaded = game.load_record(match.record().to_json())
    assert loaded.totals == match.totals
    assert [list(p) for p in loaded.deal_points] == [list(p) for p in match.deal_points]
    assert loaded.deal.observe(0).to_json() == match.deal.observe(0).to_json()


@pytest.mark.parametrize("name", ALL)
def test_the_catalog_schema_is_consistent(name: str) -> None:
    game = get_game(name)
    data = game.catalog()
    assert data["game"] == name and set(data["title"]) == {"en", "ru"}
    assert (data["min_seats"], data["max_seats"]) == (game.min_seats, game.max_seats)
    for option, schema in zip(game.options, data["options"], strict=True):
        assert set(schema["title"]) == {"en", "ru"} and schema["title"]["ru"]
        assert schema["type"] in ("bool", "int", "choice")
        # the default is a value the option takes, and its text reads back to it
        option.check(option.default)
        assert option.parse(data["rules"][option.name]) == option.default
        if schema["type"] == "choice":
            assert option.default in [c["value"] for c in schema["choices"]]
    # the defaults build the engine's default rules
    assert game.rules_from_options(None, data["rules"]) == game.rules_from_options()


def test_a_game_registered_as_an_object_is_found_and_forgotten() -> None:
    toy = get_game("toy")
    twin = replace(toy, name="twin")
    register_game(twin)
    try:
        assert "twin" in game_names()
        assert get_game("twin") is twin
        assert get_game("twin").addon("greedy") is not None  # add-ons load by their text
    finally:
        unregister_game("twin")
    assert "twin" not in game_names()
    with pytest.raises(InvalidRuleError, match="unknown game 'twin': expected one of"):
        get_game("twin")


def test_register_game_refuses_a_text_that_names_no_game() -> None:
    with pytest.raises(InvalidRuleError, match="not a konkun Game descriptor"):
        register_game("konkun.game:JSON")


def test_an_installed_game_replaced_for_a_test_comes_back() -> None:
    installed = get_game("kunken")
    register_game(replace(installed, max_seats=3))
    try:
        assert get_game("kunken").max_seats == 3
    finally:
        unregister_game("kunken")
    assert get_game("kunken") == installed


def test_a_game_that_cannot_be_imported_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    import konkun.game

    monkeypatch.setitem(konkun.game._TARGETS, "broken", "konkun.no_such_module:GAME")
    assert "broken" not in game_names()
    with pytest.raises(InvalidRuleError, match="game 'broken' cannot be loaded"):
        get_game("broken")
    assert "konchinka" in game_names()
