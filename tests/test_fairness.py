"""The fair-deal scheme (docs/fairness.md): the commitment, the contributions and the match
seed, each checked against the scheme's text rebuilt here with hashlib alone."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from konkun.cards import rng_for_seed
from konkun.fairness import (
    SCHEME,
    Contribution,
    Fairness,
    FairnessError,
    FairSeed,
    action_digest,
    commitment,
    match_seed,
    new_contribution,
    new_server_seed,
    seed_message,
    table_digest,
)

SERVER = "3f" * 32
ALICE = "a1" * 32
BOB = "b2" * 32

hex64 = st.binary(min_size=32, max_size=32).map(bytes.hex)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def test_the_commitment_is_the_sha256_of_the_seeds_hex_text() -> None:
    assert commitment(SERVER) == _sha(SERVER)


def test_the_match_seed_hashes_the_scheme_the_server_seed_and_each_seat_in_order() -> None:
    expected = _sha(f"konkun-fair-v1\n{SERVER}\n0:{ALICE}\n2:{BOB}\n")
    given_out_of_order = [Contribution(2, BOB), Contribution(0, ALICE)]
    assert match_seed(SERVER, given_out_of_order) == expected
    assert seed_message(SERVER, given_out_of_order).endswith(f"2:{BOB}\n".encode())


def test_a_table_without_humans_hashes_the_server_seed_alone() -> None:
    assert match_seed(SERVER, []) == _sha(f"{SCHEME}\n{SERVER}\n")


def test_the_first_digest_binds_commitment_game_seats_and_sorted_rules() -> None:
    rules = {"target": 15, "variant": "classic", "capture_compulsory": False}
    expected = _sha(f"{commitment(SERVER)}\nkonchinka\n2\n"
                    '{"capture_compulsory":false,"target":15,"variant":"classic"}\n')
    assert table_digest(commitment(SERVER), "konchinka", 2, rules) == expected
    assert table_digest(commitment(SERVER), "konchinka", 3, rules) != expected
    assert table_digest(commitment(SERVER), "konchinka", 2, rules | {"target": 16}) \
        != expected
    assert action_digest(expected, 1, 0, "As") == _sha(f"{expected}\n1:0:As\n")


def test_fresh_seeds_and_contributions_are_64_hex_digits_and_differ() -> None:
    seeds = {new_server_seed() for _ in range(20)} | {new_contribution() for _ in range(20)}
    assert len(seeds) == 40
    assert all(len(s) == 64 and int(s, 16) >= 0 and s == s.lower() for s in seeds)


@pytest.mark.parametrize("value", ["3F" * 32, "3f" * 31, "3f" * 33, "zz" * 32, 7, None])
def test_a_malformed_seed_or_contribution_is_refused(value: object) -> None:
    with pytest.raises(FairnessError, match="64 lowercase hex digits"):
        commitment(value)  # type: ignore[arg-type]
    with pytest.raises(FairnessError, match="seat 1"):
        Contribution(1, value)  # type: ignore[arg-type]


def test_a_seat_contributes_once() -> None:
    with pytest.raises(FairnessError, match="seat 0 contributed twice"):
        match_seed(SERVER, [Contribution(0, ALICE), Contribution(0, BOB)])
    table = FairSeed(SERVER)
    table.add(0, ALICE)
    with pytest.raises(FairnessError, match="seat 0 contributed twice"):
        table.add(0, BOB)


@pytest.mark.parametrize("seat", [-1, True, "0"])
def test_a_contribution_names_a_real_seat(seat: object) -> None:
    with pytest.raises(FairnessError, match="invalid contribution seat"):
        Contribution(seat, ALICE)  # type: ignore[arg-type]


def test_the_server_side_commits_collects_and_reveals() -> None:
    table = FairSeed(SERVER)
    assert table.commitment == _sha(SERVER)
    table.add(2, BOB)
    assert table.missing([0, 2]) == [0]
    table.add(0, ALICE)
    assert table.missing([0, 2]) == []
    revealed = table.reveal()
    assert revealed.commitment == table.commitment
    assert revealed.contributions == (Contribution(0, ALICE), Contribution(2, BOB))
    assert revealed.check(table.match_seed()) is None
    assert table.match_seed() == _sha(f"{SCHEME}\n{SERVER}\n0:{ALICE}\n2:{BOB}\n")


def test_every_alteration_breaks_the_proof() -> None:
    honest = FairSeed(SERVER, {0: ALICE, 1: BOB}).reveal()
    seed = honest.match_seed()
    assert honest.check(seed) is None
    other = "00" * 32
    assert "commitment" in str(Fairness(commitment(other), SERVER, honest.contributions)
                               .check(seed))
    assert "commitment" in str(Fairness(honest.commitment, other, honest.contributions)
                               .check(seed))
    changed = (Contribution(0, ALICE), Contribution(1, other))
    assert "match seed" in str(Fairness(honest.commitment, SERVER, changed).check(seed))
    assert "match seed" in str(honest.check(other))
    assert "not revealed" in str(Fairness(honest.commitment, None).check(seed))
    assert "unknown fairness scheme" in str(
        Fairness(honest.commitment, SERVER, honest.contributions, "v0").check(seed))


@given(hex64, st.dictionaries(st.integers(0, 5), hex64, max_size=5))
def test_fairness_data_round_trips_through_json(server: str, values: dict[int, str]) -> None:
    fairness = FairSeed(server, values).reveal()
    assert Fairness.from_json(fairness.to_json()) == fairness
    assert [c["seat"] for c in fairness.to_json()["contributions"]] == sorted(values)


@pytest.mark.parametrize("data", [
    [], {"scheme": SCHEME}, {"scheme": 1, "commitment": SERVER, "server_seed": None,
                             "contributions": []},
    {"scheme": SCHEME, "commitment": SERVER, "server_seed": None, "contributions": {}},
    {"scheme": SCHEME, "commitment": SERVER, "server_seed": None,
     "contributions": [{"seat": 0}]},
])
def test_malformed_fairness_json_is_a_fairness_error(data: object) -> None:
    with pytest.raises(FairnessError):
        Fairness.from_json(data)


def test_the_match_seed_is_a_text_seed_so_deals_use_the_keyed_sha256_stream() -> None:
    seed = match_seed(SERVER, [Contribution(0, ALICE)])
    rng = rng_for_seed(seed)
    first_block = hashlib.sha256(seed.encode("ascii") + bytes(8)).digest()
    assert rng.getrandbits(32) == int.from_bytes(first_block[:4], "big")
