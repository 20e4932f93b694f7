"""A newcomer learns the games from the site (issue 34, items 1 and 3): the rules pages with
their card-value legend and the book's examples drawn as cards, every house rule explained
in words (never only a tooltip), a capture choice that shows its sum, the deal-end
breakdown of the points, and a Kunken prompt that says why the bank cannot be taken. At a
desktop and a phone size, in English and in Russian; a Russian page shows no English."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from konkun.server.testing import ServerThread

from .conftest import deal_from_seed
from .pages import (
    CROSSED,
    MY_TURN,
    PAIRS,
    assert_no_page_errors,
    choose_name,
    create_table,
    play_choice,
    screen,
    shot,
)
from .test_site_returns import claim_account

pytestmark = pytest.mark.e2e

GAMES = ("konchinka", "kunken")
TITLES = {("konchinka", "en"): "Konchinka: the rules", ("konchinka", "ru"): "Кончинка: правила",
          ("kunken", "en"): "Kunken: the rules", ("kunken", "ru"): "Кункен: правила"}
OPTIONS = {"konchinka": ("variant", "table_excludes_jacks", "capture_compulsory", "tie_points",
                         "target", "settlement", "stake", "deck_ranks"),
           "kunken": ("jokers", "opening_minimum", "empty_stock", "max_stock_renewals", "deals",
                      "target", "hand_size", "tie", "joker_for_held", "swap_before_take")}
"""Every field of each game's rules dataclass (written out here, not read from the code)."""

ALLOWED_LATIN = {"konkun", "RU", "EN", "Esc"}
"""Latin words a Russian page may show: the brand, the language switch's codes and the
name of the keyboard's Esc key."""

NAMES = {"en": "Anna", "ru": "Анна"}
"""The person's name in each language's test (a player's name is theirs, not the page's)."""


def english_words(page: Page, selector: str) -> list[str]:
    """The Latin words of the visible text under ``selector`` (for a Russian page)."""
    text = " ".join(page.locator(selector).all_inner_texts())
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in ALLOWED_LATIN]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_rules_page_shows_the_legend_examples_and_every_house_rule(
        browser: Any, live_server: ServerThread, artifacts: Path, game: str, size: str,
        lang: str) -> None:
    """/rules/GAME is a page of its own in the page's language: the card values as
    pictures, the book's examples as card pictures with their captions, and every house rule
    with its explanation as text; reached from the top bar too."""
    page = screen(browser, f"{live_server.url}/rules/{game}", size, lang)
    expect(page.locator("#rules-page h1")).to_have_text(TITLES[(game, lang)])
    legend = page.locator("#legend tbody tr")
    expect(legend).to_have_count(13 if game == "konchinka" else 3)
    assert page.locator("#legend .card").count() >= (13 if game == "konchinka" else 9)
    examples = page.locator(".rules-example")
    assert examples.count() >= 2
    for i in range(examples.count()):
        assert examples.nth(i).locator(".card").count() >= 2
        assert examples.nth(i).locator("figcaption").inner_text().strip()
    if game == "konchinka":  # the book's two figures: A+7+2 = Q, and the two Kings redealt
        expect(page.locator(".rules-example").first).to_contain_text("1+7+2 = 10")
        assert page.locator(".rules-example [data-card='Ks'] ~ [data-card='Kh'], "
                            ".rules-example [data-card='Kh']").count() >= 1
    for name in OPTIONS[game]:
        explain = page.locator(f"#house-rules-list dd[data-rule='{name}']")
        expect(explain).to_have_count(1)
        assert len(explain.inner_text().strip()) > 20, name
    if lang == "ru":
        assert english_words(page, "#main") == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # type: ignore[index]
    if size == "phone":
        shot(page, artifacts, f"rules-{game}-{lang}-phone")
    other = "kunken" if game == "konchinka" else "konchinka"
    page.locator(f".rules-nav a[href='/rules/{other}']").click()
    expect(page.locator("#rules-page h1")).to_have_text(TITLES[(other, lang)])
    assert_no_page_errors(page)


@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_a_rules_section_can_be_linked(browser: Any, live_server: ServerThread, size: str,
                                       lang: str) -> None:
    """/rules/kunken#opening opens the page at the 50-point opening, in either language
    (the guided game and the coach link sections so)."""
    page = screen(browser, f"{live_server.url}/rules/kunken#opening", size, lang)
    heading = page.locator("h2#opening")
    expect(heading).to_contain_text("50")
    expect(heading).to_be_in_viewport()
    assert_no_page_errors(page)


def test_unknown_rules_page_is_not_found(live_server: ServerThread) -> None:
    """Only the two games have a rules page."""
    import urllib.error
    import urllib.request

    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(f"{live_server.url}/rules/poker")
    error.value.close()
    assert error.value.code == 404


@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_lobby_form_explains_every_house_rule_in_words(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """Each house rule of the form has its explanation as text under it (not a tooltip) in
    the page's language, and the form links the chosen game's rules page."""
    page = screen(browser, live_server.url, size, lang)
    choose_name(page, "Anna")
    for game in GAMES:
        page.locator(f".game-choice input[value={game}]").check()
        expect(page.locator("#rules-link a")).to_have_attribute("href", f"/rules/{game}")
        page.click("details.rules summary")
        for name in OPTIONS[game]:
            if name == "stake":  # asked for only when the winner takes the pool
                page.select_option("#rule-settlement", "pool")
            where = "#variant-explain" if name == "variant" else f"#rule-{name}-explain"
            expect(page.locator(where)).to_be_visible()
            assert len(page.locator(where).inner_text().strip()) > 20, name
        assert page.locator(".rules-grid [title]").count() == 0
        if lang == "ru":
            assert english_words(page, "#create-form") == []
        page.click("details.rules summary")
    assert_no_page_errors(page)


VALUES = {"A": 1, "T": 10, "J": 0, "Q": 10, "K": 10}
"""Classic card values (RULES.md), for checking a shown sum independently of the page."""


def classic_value(card: str) -> int:
    """A card's classic value from its text (``Qd``: 10)."""
    rank = card[:-1]
    return VALUES[rank] if rank in VALUES else int(rank)


def take_first_capture(page: Page) -> tuple[str, str] | None:
    """Select hand cards until one offers a capture; return (action, its shown sum) or
    None when no card of the hand can take anything (each card is unselected again)."""
    for i in range(page.locator(MY_TURN).count()):
        page.locator(MY_TURN).nth(i).click()
        capture = page.locator("#choices .capture")
        if capture.count():
            text = capture.first.locator(".capture-sum").inner_text()
            return capture.first.get_attribute("data-action") or "", text
        page.keyboard.press("Escape")
    return None


@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_capture_choice_shows_its_sum_and_the_deal_end_adds_up(
        browser: Any, live_server: ServerThread, artifacts: Path, size: str,
        lang: str) -> None:
    """A person plays a whole Konchinka deal with the coach (on by default at an unrated
    table): a capture choice shows its sum ("7+2+A = 10 = Q"), which adds up to the played
    card's value; a card that can take nothing says why; the deal-end screen breaks each
    seat's points into their reasons (most cards +2, most clubs +1, 2♣ +1, 10♦ +1), which
    add up to the points, and gives the totals against the target. The deal is the
    research deck of seven ranks (three rounds of four cards, not four of six): the texts
    of every sum and every reason, 10♦ too, are tests/js/coach.test.js's."""
    page = screen(browser, live_server.url, size, lang)
    choose_name(page, NAMES[lang])
    create_table(page, game="konchinka", seats=2, bots={1: "greedy"},
                 rules={"deck_ranks": "7"})
    expect(page.locator("#coach")).to_be_checked()
    sums_seen = 0
    while True:
        page.wait_for_selector(f"{MY_TURN}, #deal-end")
        if page.locator("#deal-end").count():
            break
        found = take_first_capture(page) if sums_seen < 2 else None
        if found:
            action, text = found
            card, taken = action.split(":")
            parts = re.findall(r"..", taken)
            if classic_value(card[:2]):  # the Jack takes the whole table, no sum
                total = sum(classic_value(c) for c in parts)
                assert re.fullmatch(rf"[0-9AKQJТКДВ+]+ = {total} = \S+", text), text
                assert total == classic_value(card)
            if size == "phone" and sums_seen == 0:
                shot(page, artifacts, f"coach-capture-{lang}-phone")
            sums_seen += 1
            play_choice(page, f"#choices .capture[data-action='{action}']")
            continue
        page.locator(MY_TURN).first.click()
        if page.locator("#choices .capture").count() == 0 and page.locator(
                "#table-cards .card").count():
            expect(page.locator("#trail-why")).to_be_visible()
        if lang == "ru":
            assert english_words(page, "#choices") == []
        selector = "#choices .capture" if page.locator("#choices .capture").count() else "#trail"
        play_choice(page, selector)
    assert sums_seen >= 1
    expect(page.locator("#deal-end .end-table tr.seat-row")).to_have_count(2)
    for i in range(2):
        points = int(page.locator(f"#deal-end tr.seat-row[data-seat='{i}'] td.pts").inner_text())
        reasons = page.locator(f"#deal-end-why li.reasons[data-seat='{i}']")
        expect(reasons).to_be_visible()
        parts = [int(p) for p in (reasons.get_attribute("data-points") or "").split()]
        assert sum(parts) == points
        shown = [int(n) for n in re.findall(r"\+(\d+)", reasons.inner_text().split(":", 1)[1])]
        assert shown == parts
    expect(page.locator("#deal-end-totals")).to_contain_text("15")
    if lang == "ru":
        assert english_words(page, "#deal-end") == []
        assert english_words(page, "#coach-panel") == []
    if size == "phone":
        shot(page, artifacts, f"coach-deal-end-{lang}-phone")
    assert_no_page_errors(page)


def refusal_seed() -> str:
    """A seed whose two-player Kunken match lets seat 0 move first with the bank's one card
    not takeable, as no meld holds it with two cards of the hand (found with the engine)."""
    from konkun.kunken import KunkenMatch, KunkenRules

    for i in range(2000):
        seed = f"coach-{i}"
        deal = KunkenMatch(KunkenRules(), 2, seed).deal
        if deal.to_move == 0 and [r["reason"] for r in
                                  deal.observe(0).to_json()["take_refusals"]] == ["no_meld"]:
            return seed
    raise AssertionError("no seed in 2000 tries")


@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_kunken_prompt_says_why_the_bank_cannot_be_taken(
        browser: Any, live_server: ServerThread, monkeypatch: pytest.MonkeyPatch,
        artifacts: Path, size: str, lang: str) -> None:
    """When no bank card can be taken the prompt says so (not "a highlighted card"), and the
    coach names the rule that stops each bank card; after a draw it says why nothing can be
    laid down."""
    deal_from_seed(monkeypatch, refusal_seed())
    page = screen(browser, live_server.url, size, lang)
    choose_name(page, NAMES[lang])
    create_table(page, game="kunken", seats=2, bots={1: "greedy"})
    page.wait_for_selector("#draw")
    expect(page.locator("#prompt")).to_have_text(
        "Draw from the stock: no bank card can be taken now." if lang == "en"
        else "Возьмите карту из колоды: банк сейчас взять нельзя.")
    expect(page.locator("#take-refusals li")).to_have_count(1)
    rule = "third card rule" if lang == "en" else "правило третьей карты"
    expect(page.locator("#take-refusals li")).to_contain_text(rule)
    if lang == "ru":
        assert english_words(page, "#moves") == []
        assert english_words(page, "#coach-panel") == []
    if size == "phone":
        shot(page, artifacts, f"coach-kunken-{lang}-phone")
    page.click("#draw")
    expect(page.locator("#coach-why")).to_contain_text(
        "lay-offs need a take" if lang == "en" else "только после взятия банка")
    assert_no_page_errors(page)


def select_each_hand_card(page: Page) -> None:
    """Open each playable hand card's choices once (Esc closes them again)."""
    for i in range(page.locator(MY_TURN).count()):
        page.locator(MY_TURN).nth(i).click()
        expect(page.locator("#choices")).to_be_visible()
        assert page.locator("#choices .capture-sum").count() == 0
        assert page.locator("#trail-why").count() == 0
        page.keyboard.press("Escape")


@pytest.mark.parametrize(("size", "lang"), CROSSED)
def test_coach_is_off_at_a_rated_table_after_the_first_games(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """The coach is on for a player's first games and at unrated tables: a browser that has
    seen three games end gets no explanations at a rated table, unless switched on. Rated
    tables are for accounts (with the standard rules): the person claims her name first."""
    seen = "localStorage.setItem('konkun.finishedGames', JSON.stringify(['a', 'b', 'c']))"
    page = screen(browser, live_server.url, size, lang, init_script=seen)
    claim_account(page, live_server.url, NAMES[lang])
    page.goto(live_server.url)
    expect(page.locator(".whoami")).to_have_text(NAMES[lang])
    page.locator("#rated").check()
    create_table(page, game="konchinka", seats=2, bots={1: "greedy"})
    expect(page.locator("#coach")).not_to_be_checked()
    page.wait_for_selector(MY_TURN)
    select_each_hand_card(page)
    assert_no_page_errors(page)


@pytest.mark.parametrize(("size", "lang"), PAIRS)
def test_coach_switch_turns_the_explanations_off_and_is_kept(
        browser: Any, live_server: ServerThread, size: str, lang: str) -> None:
    """At an unrated table the coach starts on; switched off, the choices show no sums and
    no reasons, and the choice survives a reload."""
    page = screen(browser, live_server.url, size, lang)
    choose_name(page, NAMES[lang])
    create_table(page, game="konchinka", seats=2, bots={1: "greedy"})
    expect(page.locator("#coach")).to_be_checked()
    page.locator("#coach").uncheck()
    page.reload()
    expect(page.locator("#coach")).not_to_be_checked()
    page.wait_for_selector(MY_TURN)
    select_each_hand_card(page)
    assert_no_page_errors(page)
