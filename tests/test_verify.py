"""``konkun verify``: a finished record passes untouched and fails once its seed, its
commitment, any contribution, any action or any result is altered."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konkun.cli import main
from konkun.fairness import FairSeed, commitment
from konkun.game import Match
from konkun.konchinka import KonchinkaMatch, KonchinkaRules
from konkun.kunken import KunkenMatch, KunkenRules
from konkun.verify import RecordInputError, fair_record, verify_document

OTHER = "00" * 32
HEAVY = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "textual", "rich", "ray",
         "pettingzoo", "gymnasium", "numpy")


def _flip(hex_text: str) -> str:
    """The hex text with its last digit changed."""
    return hex_text[:-1] + ("0" if hex_text[-1] != "0" else "1")


def _new_match(game: str, seats: int, seed: str) -> Match[Any]:
    match: Match[Any]
    if game == "konchinka":
        match = KonchinkaMatch(KonchinkaRules.from_options({"target": "5"}), seats, seed)
    else:
        match = KunkenMatch(KunkenRules(), seats, seed)
    return match


def _finished(game: str, seats: int, chooser_seed: int = 0) -> tuple[Match[Any], FairSeed]:
    fair = FairSeed(f"{seats:02x}" * 32)
    for seat in range(seats):
        fair.add(seat, f"{seat + 10:02x}" * 32)
    match = _new_match(game, seats, fair.match_seed())
    chooser = random.Random(chooser_seed)
    while not match.is_over():
        match.play(chooser.choice(match.deal.legal_actions()))
    return match, fair


GAMES = [("konchinka", 2), ("konchinka", 3), ("konchinka", 4),
         ("kunken", 2), ("kunken", 3), ("kunken", 5)]
_RECORDS: dict[tuple[str, int], dict[str, Any]] = {}


def _record(game: str, seats: int) -> dict[str, Any]:
    if (game, seats) not in _RECORDS:
        match, fair = _finished(game, seats)
        _RECORDS[game, seats] = fair_record(match, fair.reveal())
    return copy.deepcopy(_RECORDS[game, seats])


def _fails(record: dict[str, Any], *words: str) -> None:
    verdict = verify_document(record)
    assert not verdict.ok, verdict.message
    assert verdict.message.startswith("not verified: ")
    for word in words:
        assert word in verdict.message


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_an_untouched_record_is_verified(game: str, seats: int) -> None:
    record = _record(game, seats)
    verdict = verify_document(json.loads(json.dumps(record)))
    assert verdict.ok, verdict.message
    assert verdict.message.startswith(f"verified: {game}, {seats} seats, ")
    assert f"{len(record['actions'])} actions" in verdict.message


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_an_altered_seed_fails(game: str, seats: int) -> None:
    record = _record(game, seats)
    record["seed"] = _flip(record["seed"])
    _fails(record, "match seed")


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_an_altered_server_seed_or_commitment_fails(game: str, seats: int) -> None:
    record = _record(game, seats)
    record["fairness"]["commitment"] = _flip(record["fairness"]["commitment"])
    _fails(record, "commitment")
    record = _record(game, seats)
    record["fairness"]["server_seed"] = OTHER
    _fails(record, "commitment")


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_any_altered_contribution_fails(game: str, seats: int) -> None:
    for seat in range(seats):
        record = _record(game, seats)
        entry = record["fairness"]["contributions"][seat]
        entry["value"] = _flip(entry["value"])
        _fails(record, "match seed")
    record = _record(game, seats)
    del record["fairness"]["contributions"][0]
    _fails(record, "match seed")


def test_a_server_that_changes_its_seed_and_commitment_together_is_still_caught() -> None:
    """A new server seed with its own commitment derives another match seed."""
    record = _record("konchinka", 2)
    record["fairness"]["server_seed"] = OTHER
    record["fairness"]["commitment"] = commitment(OTHER)
    _fails(record, "match seed")


def _alternatives(record: dict[str, Any], turn: int) -> list[str]:
    """The other legal action texts at ``turn`` (0-based) of the record's game."""
    match = _new_match(record["game"], record["num_seats"], record["seed"])
    for text in record["actions"][:turn]:
        match.play(match.deal.parse_action(text))
    deal = match.deal
    texts = {deal.format_action(action) for action in deal.legal_actions()}
    return sorted(texts - {record["actions"][turn]})


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_any_altered_action_fails(game: str, seats: int) -> None:
    actions = _record(game, seats)["actions"]
    for turn in sorted({0, 1, len(actions) // 3, len(actions) // 2, len(actions) - 1}):
        record = _record(game, seats)
        others = _alternatives(record, turn)
        if not others:  # a forced action: swap in another seat's action text instead
            others = [actions[turn - 1] if turn else actions[1]]
        record["actions"][turn] = others[0]
        _fails(record, "does not match")


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_a_dropped_or_added_action_fails(game: str, seats: int) -> None:
    record = _record(game, seats)
    record["actions"].pop()
    _fails(record, "not over")
    record = _record(game, seats)
    record["actions"].append(record["actions"][-1])
    _fails(record, f"action {len(record['actions'])}")


@pytest.mark.parametrize(("game", "seats"), [("konchinka", 3), ("kunken", 2)])
def test_altered_results_fail(game: str, seats: int) -> None:
    record = _record(game, seats)
    record["result"]["deal_points"][0][0] += 1
    _fails(record, "deal 1 does not match")
    record = _record(game, seats)
    record["result"]["totals"][1] += 1
    _fails(record, "totals")
    record = _record(game, seats)
    record["result"]["winner"] = (record["result"]["winner"] or 0) + 1
    _fails(record, "winner")


@pytest.mark.parametrize(("game", "seats", "rule", "value"), [
    ("konchinka", 2, "stake", 50), ("konchinka", 3, "settlement", "pool"),
    ("kunken", 2, "swap_before_take", True),
])
def test_altered_rules_that_change_no_score_fail_on_the_digest(
        game: str, seats: int, rule: str, value: object) -> None:
    record = _record(game, seats)
    assert record["rules"][rule] != value
    record["rules"][rule] = value
    _fails(record, "deal 1 does not match", "actions digest")


def test_a_record_without_fairness_data_is_not_verified() -> None:
    record = _record("kunken", 2)
    del record["fairness"]
    _fails(record, "no fairness data")


def test_a_malformed_contribution_is_not_verified() -> None:
    record = _record("kunken", 2)
    record["fairness"]["contributions"][0]["value"] = "nope"
    _fails(record, "contribution of seat 0")


def test_a_contribution_from_a_seat_that_is_not_at_the_table_fails() -> None:
    match, fair = _finished("konchinka", 2)
    fair.add(5, "55" * 32)
    record = fair_record(match, fair.reveal())
    record["seed"] = fair.match_seed()  # consistent with the contributions, yet seat 5
    _fails(record, "seat out of range 0..1")


def _d0(commitment_hex: str, record: dict[str, Any],
        seats: list[dict[str, Any]] | None = None) -> str:
    """The documented first digest: commitment, game, seats and canonical rules JSON, and
    at a table the seats' kinds and names as canonical JSON."""
    rules = json.dumps(record["rules"], sort_keys=True, separators=(",", ":"))
    line = f"{commitment_hex}\n{record['game']}\n{record['num_seats']}\n{rules}\n"
    if seats is not None:
        line += json.dumps([{"kind": s["kind"], "name": s["name"]} for s in seats],
                           sort_keys=True, separators=(",", ":")) + "\n"
    return hashlib.sha256(line.encode()).hexdigest()


NAMES = ["Anna", "Борис", "Vera \U0001F600"]


def _replay_document(game: str, seats: int) -> dict[str, Any]:
    """A finished game as the server's replay endpoint serves it, with the commitment in
    the summary and the fairness data in the record."""
    match, fair = _finished(game, seats)
    record = fair_record(match, fair.reveal())
    del record["result"]
    frames: list[dict[str, Any]] = [{"turn": 0, "action": None, "actor": None}]
    again = _new_match(game, seats, record["seed"])
    shown = [{"seat": n, "kind": "human", "name": NAMES[n]} for n in range(seats)]
    digest = _d0(fair.commitment, record, shown)
    for turn, text in enumerate(record["actions"], start=1):
        actor = again.deal.to_move
        again.play(again.deal.parse_action(text))
        digest = hashlib.sha256(f"{digest}\n{turn}:{actor}:{text}\n".encode()).hexdigest()
        frames.append({"turn": turn, "action": text, "actor": actor, "digest": digest})
    table = {"id": "t1", "game": game, "status": "finished", "commitment": fair.commitment,
             "seats": shown, "totals": match.totals, "winner": match.winner(),
             "actions_digest": digest, "first_digest": _d0(fair.commitment, record, shown)}
    return {"table": table, "record": record, "seat": "all", "frames": frames}


@pytest.mark.parametrize(("game", "seats"), [("konchinka", 2), ("kunken", 3)])
def test_the_servers_replay_document_is_verified(game: str, seats: int) -> None:
    verdict = verify_document(_replay_document(game, seats))
    assert verdict.ok, verdict.message


def test_a_replay_document_is_checked_against_its_summary_and_frames() -> None:
    document = _replay_document("konchinka", 2)
    document["table"]["commitment"] = OTHER
    _fails(document, "published the commitment")
    document = _replay_document("konchinka", 2)
    document["table"]["seats"].append({"seat": 2, "kind": "human", "name": "Vera"})
    _fails(document, "seat 2 (a human) made no contribution")
    document = _replay_document("konchinka", 2)
    seats = document["table"]["seats"]
    seats[0]["name"], seats[1]["name"] = seats[1]["name"], seats[0]["name"]
    _fails(document, "published the first digest")  # the names are bound
    document = _replay_document("konchinka", 2)
    del document["table"]["first_digest"]
    seats = document["table"]["seats"]
    seats[0]["name"], seats[1]["name"] = seats[1]["name"], seats[0]["name"]
    _fails(document, "action 1")  # ... by the chain too
    document = _replay_document("konchinka", 2)
    document["table"]["totals"][0] += 1
    _fails(document, "totals")
    document = _replay_document("konchinka", 2)
    document["frames"][3]["actor"] = 1 - document["frames"][3]["actor"]
    _fails(document, "frame 3 does not show")
    document = _replay_document("konchinka", 2)
    document["frames"][5]["digest"] = OTHER
    _fails(document, "action 5", "frame 5 shows the digest")
    document = _replay_document("konchinka", 2)
    document["table"]["actions_digest"] = OTHER
    _fails(document, "actions_digest")
    document = _replay_document("konchinka", 2)
    document["table"]["first_digest"] = OTHER
    _fails(document, "published the first digest")
    document = _replay_document("konchinka", 2)
    del document["table"]["actions_digest"]
    _fails(document, "no actions digest")


def test_a_legal_action_swapped_in_without_changing_the_score_is_caught_by_the_digest(
        ) -> None:
    """Konchinka's last move can often be replaced by another capture of the same cards:
    the points stay, the digest of the deal changes."""
    record = _record("konchinka", 2)
    last = len(record["actions"]) - 1
    record["actions"][last] = _alternatives(record, last)[0]
    record["result"]["deal_points"] = None  # only the digests speak
    verdict = verify_document(record)
    assert not verdict.ok
    assert "actions digest" in verdict.message


def test_an_imposed_first_dealer_is_not_drawn_from_the_seed() -> None:
    record = _record("kunken", 2)
    record["first_dealer"] = 0
    _fails(record, "first dealer was imposed")


# -- the command line ---------------------------------------------------------------


def _write(tmp_path: Path, data: object, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data,
                    encoding="utf-8")
    return str(path)


def test_verify_prints_verified_and_exits_0(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", _write(tmp_path, _record("kunken", 2))]) == 0
    out = capsys.readouterr().out
    assert out.startswith("verified: kunken, 2 seats")
    assert out.count("\n") == 1


def test_verify_prints_the_first_mismatch_and_exits_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _record("konchinka", 2)
    record["actions"][0] = _alternatives(record, 0)[0]
    assert main(["verify", _write(tmp_path, record)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("not verified: deal 1, action ")
    assert out.count("\n") == 1


@pytest.mark.parametrize(("content", "words"), [
    ("{not json", "is not JSON"),
    ([1, 2], "not a JSON object"),
    ({"game": "chess", "seed": "x", "actions": []}, "unknown game 'chess'"),
    ({"game": "konchinka", "num_seats": 2, "actions": []}, "invalid konchinka record"),
    ({"game": "kunken", "num_seats": "two", "seed": "x", "actions": []},
     "invalid kunken record"),
    ({"game": "konchinka", "num_seats": "two", "seed": "x", "actions": []},
     "invalid konchinka record"),
    ({"game": "konchinka", "num_seats": 9, "seed": "x", "actions": []},
     "invalid konchinka record"),
    ({"game": "konchinka", "num_seats": 5, "seed": "x", "actions": []},
     "invalid konchinka record"),
    ({"game": "kunken", "num_seats": 4294967295, "seed": "x", "actions": []},
     "num_seats 4294967295 is not a number of players from 2 to 5"),
    ({"game": "konchinka", "num_seats": 2.0, "seed": "x", "actions": []},
     "num_seats 2.0"),
    ({"game": "kunken", "num_seats": 2, "seed": "x", "actions": [], "first_dealer": 1e300},
     "invalid kunken record"),
    ({"game": "kunken", "num_seats": 2, "seed": "x", "actions": [],
      "rules": {"jokers": "lots"}}, "invalid kunken record"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: object,
        words: str) -> None:
    assert main(["verify", _write(tmp_path, content)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert words in captured.err


def test_a_missing_file_is_bad_input(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(tmp_path / "absent.json")]) == 2
    assert "cannot read record" in capsys.readouterr().err


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.integers() | st.floats()
    | st.text(max_size=70),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3),
    max_leaves=6)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GAMES), st.data())
def test_any_mangled_record_gives_a_verdict_or_a_bad_input_error(
        game_seats: tuple[str, int], data: st.DataObject) -> None:
    """Replace one value anywhere in a record by any JSON value: never a crash."""
    record = _record(*game_seats)
    path: list[Any] = []
    node: Any = record
    while isinstance(node, dict | list) and node and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(node) if isinstance(node, dict)
                                        else list(range(len(node)))))
        path.append(key)
        node = node[key]
    if not path:
        path = [data.draw(st.sampled_from(sorted(record)))]
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(JSON_VALUES)
    try:
        verdict = verify_document(record)
    except RecordInputError:
        return  # bad input: exit 2 with the error's one line
    assert verdict.message.startswith(("verified: ", "not verified: "))


def test_verify_is_listed_and_runs_without_any_optional_extra(tmp_path: Path) -> None:
    """``konkun --help`` lists it; with every heavy package blocked it still verifies."""
    path = _write(tmp_path, _record("konchinka", 3))
    script = textwrap.dedent(f"""
        import importlib.abc, sys
        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {HEAVY!r}:
                    raise ImportError("blocked: " + name)
                return None
        sys.meta_path.insert(0, Block())
        from konkun.cli import main
        assert main(["verify", {path!r}]) == 0
        assert not any(m.split(".")[0] in {HEAVY!r} for m in sys.modules)
        try:
            main(["--help"])
        except SystemExit:
            pass
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("verified: konchinka, 3 seats")
    assert "\n    verify" in result.stdout
