"""Nickname skeletons: look-alike nicknames collide case-insensitively by Unicode's table of
confusables (UTS #39), different ones do not (docs/ratings.md, Nicknames)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from konkun.nicknames import caps_skeleton, nickname_skeleton, same_nickname

CYRILLIC_MASHA = "\u041c\u0430\u0448\u0430"  # Маша, every letter Cyrillic


@pytest.mark.parametrize("look_alike", [
    "MAША", "MAШA", "\u043c\u0430\u0448\u0430", "Ma\u0448a", "\u041cAШA", "МА\u200bША",
    "М а ш а",
])
def test_masha_in_cyrillic_collides_with_its_case_and_mixed_script_look_alikes(
        look_alike: str) -> None:
    assert all(ord(c) > 0x400 for c in CYRILLIC_MASHA)
    assert same_nickname(CYRILLIC_MASHA, look_alike)


# Look-alikes of "Boris" from Unicode's table of confusables (UTS #39): small capitals,
# Lisu, Cherokee, Greek, Cyrillic, Coptic, Canadian syllabics, full-width and mathematical
# letters, digits, spaces, separators and accents
BORIS_LOOK_ALIKES = [
    "ʙᴏʀɪs", "ʙoris", "ꓐꓳꓣꓲꓢ", "ꓐoris", "ᏴOᏒIᏚ", "Ᏼoris", "ΒΟRΙS", "Βoris", "ВОRIЅ",
    "Вoris", "Ｂｏｒｉｓ", "𝐁𝐨𝐫𝐢𝐬", "B o r i s", "B-o.r_i s", "B\u043e\u0301ris", "BOR1S",
    "B0RIS", "borιs", "ᗷoris", "Bⲟris", "Boriꜱ", "ɓoris", "BORIS", "boris",
]


@pytest.mark.parametrize("look_alike", BORIS_LOOK_ALIKES)
def test_look_alikes_by_unicodes_table_collide(look_alike: str) -> None:
    assert same_nickname("Boris", look_alike)


@pytest.mark.parametrize(("first", "second"), [
    ("Masha", "\u041c\u0430sh\u0430"),  # Cyrillic М and а inside a Latin name
    ("ANNA", "\u0391\u039d\u039d\u0391"),  # Greek capitals
    ("Nikos", "\u039d\u0399\u039a\u039f\u0405"),  # Greek and Cyrillic capitals
    ("Ivan", "1van"), ("olga", "0lga"), ("SOS", "\u054f\u0555\u054f"),  # Armenian
    ("\u0401\u043b\u043a\u0430", "\u0415\u043b\u043a\u0430"),  # Ёлка and Елка
    ("Renée", "Renee"), ("modern", "rnodern"), ("Expert", "\ua4f0xpert"),  # Lisu E
    ("Mr_Smith", "mr-smith"), ("𝐁𝐨𝐛", "Bob"),  # mathematical bold, NFKC
    ("Pe\u0301tya", "Petya"), ("x\u00adx", "xx"),  # a combining accent, a soft hyphen
])
def test_look_alikes_collide(first: str, second: str) -> None:
    assert same_nickname(first, second)


@pytest.mark.parametrize(("first", "second"), [
    ("Masha", "Sasha"), ("Masha", "Mawa"), ("\u041f\u0435\u0442\u044f", "\u0412\u0430\u0441\u044f"),
    ("Anna", "Anya"), ("bot1", "bot2"), ("Kolya", "Tolya"), ("Lena", "Iena"),
])
def test_different_names_stay_different(first: str, second: str) -> None:
    assert not same_nickname(first, second)


def test_a_name_of_invisible_characters_has_an_empty_skeleton() -> None:
    assert nickname_skeleton("\u200b\u200d \u00ad_") == ""


LETTERS = st.text(st.sampled_from(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
    "абвгдежзийклмнопрстуфхцчшщъыьэюяёАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯЁ"
    "αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"), max_size=12)


@given(LETTERS)
def test_the_skeletons_ignore_case(name: str) -> None:
    skeleton = nickname_skeleton(name)
    assert nickname_skeleton(name.upper()) == skeleton
    assert nickname_skeleton(name.lower()) == skeleton
    assert caps_skeleton(name.lower()) == caps_skeleton(name.upper()) == caps_skeleton(name)


@given(LETTERS)
def test_the_skeleton_of_a_skeleton_is_itself(name: str) -> None:
    skeleton = nickname_skeleton(name)
    assert nickname_skeleton(skeleton) == skeleton


def test_docstring_examples() -> None:
    import doctest

    import konkun.nicknames
    assert doctest.testmod(konkun.nicknames).failed == 0
