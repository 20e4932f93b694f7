"""Nicknames are counted in user-perceived characters; emoji are welcome, controls not."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from konkun.server.core.names import MAX_NICKNAME, NicknameError, check_nickname, graphemes

FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"  # man ZWJ woman ZWJ girl
FLAG_RU = "\U0001F1F7\U0001F1FA"
THUMB_MEDIUM = "\U0001F44D\U0001F3FD"
SCOTLAND = "\U0001F3F4" + "".join(chr(0xE0000 + ord(c)) for c in "gbsct") + "\U000E007F"


@pytest.mark.parametrize("text", [FAMILY, FLAG_RU, THUMB_MEDIUM, SCOTLAND, "e\u0301", "Ё"])
def test_an_emoji_or_accented_letter_is_one_character(text: str) -> None:
    assert graphemes(text) == [text]


def test_two_flags_are_two_characters() -> None:
    assert graphemes(FLAG_RU * 2) == [FLAG_RU, FLAG_RU]


@given(st.text(st.characters(categories=["L", "N"]), max_size=40))
def test_letters_and_digits_are_one_character_each(text: str) -> None:
    assert graphemes(text) == list(text)


def test_a_family_emoji_name_is_accepted() -> None:
    assert check_nickname(f" Маша {FAMILY} ") == f"Маша {FAMILY}"


def test_twenty_four_emoji_fit_and_twenty_five_do_not() -> None:
    assert check_nickname(FAMILY * MAX_NICKNAME) == FAMILY * MAX_NICKNAME
    with pytest.raises(NicknameError) as error:
        check_nickname(THUMB_MEDIUM * (MAX_NICKNAME + 1))
    assert error.value.reason == "too_long"


@pytest.mark.parametrize("text", ["", "   ", "\t\n", "\u3000"])
def test_a_name_of_spaces_is_empty(text: str) -> None:
    with pytest.raises(NicknameError) as error:
        check_nickname(text)
    assert error.value.reason == "empty"


@pytest.mark.parametrize("text", ["a\u0000b", "ann\u202egro", "x\u2066y", "z\u200bz"])
def test_control_and_direction_characters_are_refused(text: str) -> None:
    with pytest.raises(NicknameError) as error:
        check_nickname(text)
    assert error.value.reason == "characters"
    assert "U+" in str(error.value)


def test_the_api_takes_an_emoji_nickname_and_explains_a_blank_one(client: TestClient) -> None:
    answer = client.post("/api/guest", json={"nickname": FAMILY + " ann"})
    assert answer.status_code == 200
    assert answer.json()["nickname"] == FAMILY + " ann"
    blank = client.post("/api/guest", json={"nickname": "    "})
    assert blank.status_code == 400
    assert blank.json()["code"] == "bad_request"
    assert "spaces" in blank.json()["message"]


def test_the_longest_nickname_still_makes_a_token_that_verifies() -> None:
    from konkun.server.core.auth import TokenSigner
    from konkun.server.core.names import MAX_NICKNAME_CODE_POINTS

    signer = TokenSigner("secret")
    widest = "".join(chr(0x1F300 + (7 * k) % 700) + "\U0001F3FD" for k in range(MAX_NICKNAME))
    widest += "\u0301" * (MAX_NICKNAME_CODE_POINTS - len(widest))
    token, guest = signer.issue(check_nickname(widest))
    verified = signer.verify(token)
    assert (verified.player_id, verified.nickname) == (guest.player_id, guest.nickname)
