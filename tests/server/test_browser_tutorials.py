"""Every tutorial walked to its end in headless Chromium, as a newcomer would: from the start
page's "Learn by playing", each guided step's move is lit and explained in one sentence, the
learner plays it through the table, the other seat's steps are played for it, a wrong move
gets a kind hint and is not played, and the free game against the random bot is played out
to its results. One tutorial in Japanese shows no English word. Every wait is Playwright's
auto-waiting `expect` or a `wait_for_function` on what is checked (never a read-once branch).
Screenshots of a step, desktop 1280×800 and phone 390×844, in English and Japanese, go to
artifacts/screenshots/ (or CUBEGAMES_SCREENSHOTS) as tutorial-*.png."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.test_browser import (
    SHOTS,
    TIMEOUT_MS,
    Guard,
    current,
    play_out,
    stakd_move,
    unstackable_move,
)
from tests.server.test_browser_ja import NOTATION, english_words

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LIT = re.compile(r"\btutorial-lit\b")


def roll(page: Page, state: Any) -> None:
    page.click("button.roll")


def turned(letters: str, k: int) -> str:
    return letters[k:] + letters[:k]


def cubed_step(page: Page, state: Any) -> None:
    """CUBED's move `state["legal"][0]` exactly as written, turned as it says: the table
    first shows a chosen piece at its first turn that fits anywhere (cubed.js `choose`)."""
    move = state["legal"][0]
    if "@" not in move:
        page.click(".actions button.primary")
        return
    slots, cell = move.split("@")
    hand = state["view"]["hands"][state["seat"]]
    index = next(i for i, p in enumerate(hand) if slots in {turned(p, k) for k in range(3)})
    piece = hand[index]
    legal = current(page)["legal"]
    first = next(k for k in range(3) if any(m.startswith(f"{turned(piece, k)}@") for m in legal))
    wanted = next(k for k in range(3) if turned(piece, k) == slots)
    page.click(f".hand-piece[data-hand='{index}']")
    for _ in range((wanted - first) % 3):
        page.click("button.turn-piece")
    page.click(f".cubed-table .cell[data-cell='{cell}']")


def cubed_free(page: Page, state: Any) -> None:
    """Any legal CUBED move, in either language: a placement, else draw, else pass."""
    places = [m for m in state["legal"] if "@" in m]
    if places:
        cubed_step(page, {**state, "legal": places[:1]})
    elif "draw" in state["legal"]:
        page.click(".actions button.primary")
    else:
        page.click(".actions button >> nth=0")


#: how the test makes a step's move through the table
STEPS: dict[str, Callable[[Page, Any], None]] = {
    "cubed": cubed_step,
    "unstackable": unstackable_move(False),
    "stakd": stakd_move(False),
    "cubes": roll,
}

#: how the test plays the free game (any legal move)
MOVES: dict[str, Callable[[Page, Any], None]] = {
    "cubed": cubed_free,
    "unstackable": unstackable_move(False),
    "stakd": stakd_move(False),
    "cubes": roll,
}


def lit_target(game: str, move: str) -> str:
    """The element of the table a step's move is made on, which the guide must light."""
    if game == "cubed":
        return (
            f".cubed-table .cell[data-cell='{move.split('@')[1]}']"
            if "@" in move
            else ".actions button.primary"
        )
    if game == "unstackable":
        return (
            f".plan .target[data-cell='{move.split('@')[1]}']"
            if "@" in move
            else f".plan .cube[data-cell='{move}']"
        )
    if game == "stakd":
        z, nodes = move.split("@")[1].split(":")
        return f".stakd-plan [data-node='{nodes.split('+')[0]}'][data-z='{z}']"
    return "button.roll"


#: the step each tutorial's picture shows
PICTURED = {"cubed": 2, "unstackable": 7, "stakd": 4, "cubes": 2}


def context(browser: Browser, size: dict[str, int], lang: str = "en-US") -> Page:
    phone = size["width"] < 600
    made = browser.new_context(
        viewport=size,
        locale=lang,
        has_touch=phone,
        is_mobile=phone,
        device_scale_factor=2 if phone else 1,
        # the walk clicks the next lit place at once: a piece still flying from the move
        # before holds the old board for a moment, and the click could land on it
        # (test_browser.py checks the motion itself)
        reduced_motion="reduce",
    )
    made.set_default_timeout(TIMEOUT_MS)
    return made.new_page()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(700)  # the last move's animation lands (the lit glow runs on)
    page.screenshot(path=SHOTS / f"{name}.png")


def begin(page: Page, server: str, game: str) -> dict[str, Any]:
    """From the start page's "Learn by playing" to the tutorial's table; its script."""
    page.goto(f"{server}/")
    page.click(f".tutorials a[data-game='{game}']")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_function("() => window.cubegamesTutorial && window.cubegamesPage.current")
    script: dict[str, Any] = page.evaluate("() => window.cubegamesTutorial.script")
    return script


def at_step(page: Page, script: dict[str, Any], i: int) -> None:
    """Wait until the guide shows step `i` and the learner may play it."""
    panel = page.locator(".tutorial-panel")
    expect(panel).to_have_attribute("data-step", str(i))
    page.wait_for_function(
        "ply => { const p = window.cubegamesPage; const c = p.current;"
        " return c.ply === ply && c.to_move === p.active && !p.sending; }",
        arg=script["from"] + i,
    )


def walk(
    page: Page,
    script: dict[str, Any],
    stop_at: int | None = None,
    picture: Callable[[int], None] | None = None,
    begin_at: int = 0,
) -> None:
    """Play the guided steps (the learner's through the table), checking each is lit and
    told; `picture(i)` is called at each learner step."""
    game = script["game"]
    for i, step in enumerate(script["steps"]):
        if i < begin_at:
            continue
        if stop_at is not None and i >= stop_at:
            return
        ply = script["from"] + i
        if step["seat"] != script["learner"]:
            # played for the other seat by the guide (its sentence is shown meanwhile; the
            # test waits for the move itself, which may already have come)
            page.wait_for_function("p => window.cubegamesPage.current.ply > p", arg=ply)
            continue
        at_step(page, script, i)
        expect(page.locator(".tutorial-text")).not_to_be_empty()
        if i > 0 and script["steps"][i - 1]["seat"] != script["learner"]:
            # what the other seat just did stays in sight above the learner's step
            expect(page.locator(".tutorial-before")).not_to_be_empty()
        expect(page.locator(lit_target(game, step["move"])).first).to_have_class(LIT)
        if picture is not None:
            picture(i)
        STEPS[game](page, {**current(page), "legal": [step["move"]]})
        page.wait_for_function("p => window.cubegamesPage.current.ply > p", arg=ply)


def free_game(page: Page, script: dict[str, Any]) -> None:
    """The guide hands the other seat to the random bot; the game is played to its end."""
    game = script["game"]
    expect(page.locator(".tutorial-panel")).to_have_attribute("data-step", re.compile("free|done"))
    bot = re.compile("[Rr]andom|ランダム")
    expect(page.locator(".seat-list li[data-seat='1']")).to_contain_text(bot)
    page.emulate_media(reduced_motion="reduce")  # the free game without motion: faster
    play_out(page, MOVES[game])
    expect(page.locator(".tutorial-panel")).to_have_attribute("data-step", "done")
    expect(page.locator(".overlay .results.final")).to_be_visible()


@pytest.mark.parametrize("game", ["cubed", "unstackable", "stakd", "cubes"])
def test_each_tutorial_is_walked_to_its_end(browser: Browser, server: str, game: str) -> None:
    page = context(browser, DESKTOP)
    guard = Guard(page, server)
    script = begin(page, server, game)

    def picture(i: int) -> None:
        if i == PICTURED[game]:
            shot(page, f"tutorial-{game}-desktop")

    walk(page, script, picture=picture)
    free_game(page, script)
    guard.check()
    page.context.close()


def test_a_wrong_move_gets_a_kind_hint_and_is_not_played(browser: Browser, server: str) -> None:
    page = context(browser, DESKTOP)
    guard = Guard(page, server)
    script = begin(page, server, "cubed")
    # the right piece on the right cell, turned otherwise: how many turns it needs
    at_step(page, script, 0)
    slots, cell = script["steps"][0]["move"].split("@")
    hand = current(page)["view"]["hands"][0]
    index = next(i for i, p in enumerate(hand) if slots in {turned(p, k) for k in range(3)})
    wanted = next(k for k in range(3) if turned(hand[index], k) == slots)
    page.click(f".hand-piece[data-hand='{index}']")  # shown unturned: any turn fits 0,0
    for _ in range((wanted + 1) % 3):
        page.click("button.turn-piece")
    page.click(f".cubed-table .cell[data-cell='{cell}']")
    expect(page.locator(".tip.tutorial-hint")).to_have_text(
        "Right place! Press Turn twice and lay the piece here."
    )
    assert current(page)["ply"] == script["from"]
    page.click("button.turn-piece")
    page.click("button.turn-piece")
    page.click(f".cubed-table .cell[data-cell='{cell}']")
    walk(page, script, stop_at=2, begin_at=1)
    at_step(page, script, 2)
    state = current(page)
    step = script["steps"][2]["move"]
    other = next(m for m in state["legal"] if "@" in m and m.split("@")[1] != step.split("@")[1])
    cubed_step(page, {**state, "legal": [other]})
    expect(page.locator(".tip.tutorial-hint")).to_be_visible()
    expect(page.locator(".tip.tutorial-hint")).to_contain_text("Not that one this time.")
    assert current(page)["ply"] == state["ply"]
    # the right move is still lit, and is played
    expect(page.locator(lit_target("cubed", step))).to_have_class(LIT)
    cubed_step(page, {**current(page), "legal": [step]})
    page.wait_for_function("p => window.cubegamesPage.current.ply > p", arg=state["ply"])
    guard.check()
    page.context.close()


def test_a_tutorial_step_on_a_phone(browser: Browser, server: str) -> None:
    page = context(browser, PHONE)
    script = begin(page, server, "cubed")
    walk(page, script, stop_at=2)
    at_step(page, script, 2)
    page.evaluate("window.scrollTo(0, 0)")
    expect(page.locator(".tutorial-panel")).to_be_in_viewport()
    expect(page.locator(lit_target("cubed", script["steps"][2]["move"]))).to_have_class(LIT)
    shot(page, "tutorial-cubed-phone")
    page.context.close()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_tutorial_in_japanese_has_no_english_word(
    browser: Browser, server: str, size: dict[str, int]
) -> None:
    page = context(browser, size, "ja-JP")
    guard = Guard(page, server)
    script = begin(page, server, "cubed")
    expect(page.locator(".tutorial-panel h2")).to_contain_text("チュートリアル")

    def picture(i: int) -> None:
        assert english_words(page, NOTATION) == [], i
        if i == 2:
            shot(page, f"ja-tutorial-cubed-{'phone' if size is PHONE else 'desktop'}")

    if size is PHONE:
        walk(page, script, stop_at=3, picture=picture)
        page.context.close()
        return
    walk(page, script, picture=picture)
    expect(page.locator(".tutorial-panel")).to_have_attribute("data-step", re.compile("free|done"))
    expect(page.locator(".tutorial-text")).to_contain_text("ランダムボット")
    assert english_words(page, NOTATION) == []
    free_game(page, script)
    assert english_words(page, NOTATION) == []
    guard.check()
    page.context.close()


def test_a_plug_in_games_tutorial_on_the_generic_table(browser: Browser, server: str) -> None:
    """Nim (tests/plugin_game) ships its own tutorial in its own English: the guide lights the
    move's button on the generic table, marks the words as English, and the free game ends."""
    page = context(browser, DESKTOP)
    guard = Guard(page, server)
    script = begin(page, server, "nim")
    for i, step in enumerate(script["steps"]):
        if step["seat"] != script["learner"]:
            page.wait_for_function("p => window.cubegamesPage.current.ply > p", arg=i)
            continue
        at_step(page, script, i)
        expect(page.locator(".tutorial-text")).to_have_text(step["text"])
        expect(page.locator(".tutorial-text")).to_have_attribute("lang", "en")
        lit = page.locator(f"button.move[data-move='{step['move']}']")
        expect(lit).to_have_class(LIT)
        lit.click()
        page.wait_for_function("p => window.cubegamesPage.current.ply > p", arg=i)
    expect(page.locator(".tutorial-text")).to_have_text(script["free_text"])

    def take(page: Page, state: Any) -> None:
        page.click("button.move >> nth=0")

    play_out(page, take)
    expect(page.locator(".tutorial-panel")).to_have_attribute("data-step", "done")
    guard.check()
    page.context.close()
