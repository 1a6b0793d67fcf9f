"""A plug-in game with no page code of its own (Nim, from tests/plugin_game) is played to its
end in headless Chromium on the generic table: its view as a tree, its legal moves as
buttons and a text box, a typed move refused in words, a bot in the other seat, the
results screen, the replay and the record, all through the same protocol as the four."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import serving
from tests.server.test_browser import (
    DESKTOP,
    TIMEOUT_MS,
    Guard,
    _short_timeouts,
    current,
    desk,
    play_out,
    ready,
    shot,
    start,
)

#: the browser tests' fixtures, used here by name
FIXTURES = (desk, _short_timeouts)


def take_first(page: Page, state: Any) -> None:
    """Click the first move button of the generic table."""
    page.click(".generic-moves button.move >> nth=0")


def test_a_plug_in_game_is_played_to_its_end_on_the_generic_table(
    desk: tuple[Page, Guard], server: str
) -> None:
    page, guard = desk
    start(page, server, "nim", ["here", "random"], {"stones": 9})
    expect(page.locator("h1, .title").first).to_contain_text("Nim")
    ready(page)
    # the seat's view as a tree: the pile, the stones each seat took
    expect(page.locator(".generic-tree dt", has_text="pile")).to_be_visible()
    state = current(page)
    assert state["view"]["pile"] == 9 and state["legal"] == ["take 1", "take 2", "take 3"]
    buttons = page.locator(".generic-moves button.move").all_inner_texts()
    assert buttons == state["legal"]
    # a typed move the rules refuse is told, and changes nothing
    page.fill(".generic-typed input", "take 7")
    page.press(".generic-typed input", "Enter")
    page.wait_for_function("() => !window.cubegamesPage.sending")
    assert current(page)["ply"] == 0
    # a typed legal move is played
    page.fill(".generic-typed input", "take 2")
    page.press(".generic-typed input", "Enter")
    page.wait_for_function("() => window.cubegamesPage.current.ply >= 1")
    shot(page, "nim-desktop-play")
    last = play_out(page, take_first)
    assert last["over"] and last["view"]["pile"] == 0
    expect(page.locator(".overlay .results.final")).to_be_visible()
    assert "The game is over." in page.locator(".generic-strip").inner_text()
    log = page.evaluate("() => [...document.querySelectorAll('.log li')].map((l) => l.textContent)")
    assert log and log[0].startswith("You played take 2"), log
    guard.check()

    game_id = page.url.rstrip("/").split("/")[-1]
    # the record: the moves as played, the typed one first
    record = httpx.get(f"{server}/api/games/{game_id}/record").json()
    assert record["game"] == "nim" and record["moves"][0] == "take 2"
    # the record comes back as a game of its own
    loaded = httpx.post(f"{server}/api/records", content=json.dumps(record))
    assert loaded.status_code == 201, loaded.text
    # the replay draws every step on the generic table
    page.goto(f"{server}/replay/{game_id}")
    total = len(record["moves"])
    expect(page.locator(".counter")).to_have_text(f"0 / {total}")
    page.click("button[aria-label='Next move']")
    expect(page.locator(".counter")).to_have_text(f"1 / {total}")
    expect(page.locator(".generic-tree dd").first).to_be_visible()
    page.click("button[aria-label='Last move']")
    expect(page.locator(".counter")).to_have_text(f"{total} / {total}")
    guard.check()


def test_the_start_page_offers_a_plug_in_game_with_its_own_options(
    desk: tuple[Page, Guard], server: str
) -> None:
    page, guard = desk
    page.goto(f"{server}/")
    expect(page.locator("label[for=game-nim]")).to_contain_text("Nim")
    page.click("label[for=game-nim]")
    # the form is built from the options model's JSON Schema
    expect(page.locator("#opt-stones")).to_have_attribute("max", "40")
    expect(page.locator("#opt-max_take")).to_have_attribute("min", "1")
    guard.check()


def test_a_game_without_a_players_option_shows_its_seats_from_its_facts(
    desk: tuple[Page, Guard], server: str
) -> None:
    """A plug-in that seats a fixed number has no players option: its card tells the seats
    of its facts (min_players, max_players), as a game with one tells the option's range,
    and quick play asks for no players option (which the server would refuse)."""
    page, guard = desk
    menu = httpx.get(f"{server}/api/catalog").json()
    for game in menu["games"]:
        if game["id"] == "nim":
            game["options"] = [o for o in game["options"] if o["name"] != "players"]
            game["min_players"] = game["max_players"] = 2

    page.route("**/api/catalog", lambda route: route.fulfill(json=menu))
    page.goto(f"{server}/")
    expect(page.locator("label[for=game-nim]")).to_contain_text("2 players")
    expect(page.locator("label[for=game-cubes]")).to_contain_text("2–10 players")
    page.select_option("#quick-game", "nim")
    expect(page.locator("#quick-players")).to_be_disabled()
    expect(page.locator("#quick-players")).to_have_value("2")
    page.click("button:has-text('Find a game')")
    page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.hello")
    assert page.evaluate("() => window.cubegamesPage.hello.game") == "nim"
    guard.check()


@pytest.fixture(scope="module")
def cards_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own with High card (tests/hidden_plugin.py, a plug-in with secret
    hands) registered beside the installed games."""
    prelude = "from tests.hidden_plugin import register\nregister()"
    with serving(tmp_path_factory.mktemp("cards") / "games.sqlite3", prelude) as url:
        yield url


def test_a_hot_seat_table_of_a_plug_in_hides_each_secret_hand_behind_the_pass_screen(
    browser: Browser, cards_server: str
) -> None:
    """The generic table at one screen for two seats: the pass screen comes before each
    seat's turn and the table behind it is hidden, so the next person never sees the hand
    of the one before (the page did not know the game hides anything: it drew the next
    seat's hand at once)."""
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    guard = Guard(page, cards_server)
    try:
        start(page, cards_server, "highcard", ["here", "here"], {"cards": 3})
        overlay = page.locator(".overlay")
        expect(overlay).to_contain_text("Pass the device to Player 1")
        expect(page.locator("#board")).to_have_class(re.compile("hidden-hand"))
        page.click(".overlay button")
        assert current(page)["view"]["seat"] == 0
        page.click("details.notation summary")  # the legal moves in notation: the hand
        hand = current(page)["view"]["hand"]
        expect(page.locator(".legal-moves")).to_contain_text(f"play {hand[-1]}")
        page.click(".generic-moves button.move >> nth=0")
        expect(overlay).to_contain_text("Pass the device to Player 2")
        expect(page.locator("#board")).to_have_class(re.compile("hidden-hand"))
        # nothing beside the table tells Player 1's cards either (the notation panel did)
        for part in (".legal-moves", ".log", ".said", ".message"):
            expect(page.locator(part)).to_be_hidden()
        expect(page.locator(".turn-banner")).to_have_text("Pass the device to Player 2")
        page.click(".overlay button")
        expect(page.locator(".turn-banner")).to_have_text("Player 2: your turn")
        assert current(page)["view"]["seat"] == 1
        guard.check()
    finally:
        context.close()
