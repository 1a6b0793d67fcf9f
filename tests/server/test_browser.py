"""End to end, in headless Chromium: a person makes a game on the start page and plays it
by clicking and dragging; bots answer; a reload restores the game; two browsers play one
game online; a refused move shows the engine's reason; finished games replay; records go
out and come back. Each game's board is saved to artifacts/screenshots/."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

import cubegames
from tests.server.test_api import finished_record

TIMEOUT_MS = 15_000


@pytest.fixture(autouse=True)
def _short_timeouts(page: Page) -> None:
    page.set_default_timeout(TIMEOUT_MS)
    expect.set_options(timeout=TIMEOUT_MS)


def start(
    page: Page,
    server: str,
    game: str,
    seats: list[str],
    options: dict[str, Any] | None = None,
    seed: int = 7,
) -> None:
    """Make a game on the start page: `seats` are select values (`here`, `online` or a
    bot preset such as `greedy`)."""
    page.goto(f"{server}/")
    page.click(f"label[for=game-{game}]")
    for name, value in (options or {}).items():
        page.fill(f"#opt-{name}", str(value))
    for seat, who in enumerate(seats):
        page.select_option(f"#seat-{seat}", who)
    if "online" not in seats:  # a game with an invited player gets a secret deal
        page.click("details.more summary")
        page.fill("#seed", str(seed))
    page.click("button:has-text('Start the game')")


def ply(page: Page) -> int:
    """The number of moves the page shows."""
    shown: int = page.evaluate("() => window.cubegamesPage.current.ply")
    return shown


def wait_for_turn(page: Page, after: int) -> None:
    """Wait until the page shows a position past move `after` where it is this seat's turn."""
    page.wait_for_function(
        "after => { const p = window.cubegamesPage; return p && p.current && "
        "p.current.ply > after && p.current.to_move === p.active; }",
        arg=after,
    )


def game_state(server: str, page: Page) -> Any:
    """The game the page is playing, rebuilt through the engine from the moves anyone may
    read (for a game without hidden parts, such as Unstackable: a game in play hands out
    no seed and no record)."""
    game_id = urlparse(page.url).path.rsplit("/", 1)[1]
    detail = httpx.get(f"{server}/api/games/{game_id}").json()
    state = cubegames.make(detail["game"], **detail["options"]).new_state(seed=0)
    for move in detail["moves"]:
        state.play(move["move"])
    return state


def lay_a_cubed_piece(page: Page) -> None:
    """Pick the first hand piece that fits somewhere, turn it until it fits, click a cell."""
    page.click(".hand-piece.playable >> nth=0")
    for _ in range(3):
        if page.locator(".cell.fits").count():
            break
        page.keyboard.press("r")
    page.click(".cell.fits >> nth=0")


def test_cubed_against_a_bot_by_clicking_then_after_a_reload(
    page: Page, server: str, screenshots: Path
) -> None:
    start(page, server, "cubed", ["here", "greedy"], {"rounds": 1})
    expect(page.locator(".status")).to_have_text("Your turn.")
    expect(page.locator(".rules li").first).to_be_visible()  # a first game shows the rules
    page.click(".rules button:has-text('Full rules')")  # the whole page, from /api/rules
    expect(page.locator(".rules .full-rules")).to_contain_text("## Readings we assumed")
    lay_a_cubed_piece(page)
    wait_for_turn(page, 1)
    expect(page.locator(".log li")).to_have_count(2)
    expect(page.locator(".log li").nth(1)).to_contain_text("Seat 1 ")
    table = page.locator("svg .table .piece").count()
    assert table >= 1
    page.reload()
    expect(page.locator(".status")).to_have_text("Your turn.")
    assert page.locator("svg .table .piece").count() == table
    assert ply(page) == 2
    lay_a_cubed_piece(page)
    wait_for_turn(page, 3)
    page.locator("#board").screenshot(path=screenshots / "cubed.png")


def test_a_cubed_piece_is_dragged_onto_a_cell(page: Page, server: str) -> None:
    start(page, server, "cubed", ["here", "random"], {"rounds": 1})
    expect(page.locator(".status")).to_have_text("Your turn.")
    piece = page.locator(".hand-piece.playable").first
    piece.click()
    for _ in range(3):
        if page.locator(".cell.fits").count():
            break
        page.click("button:has-text('Turn (R)')")
    target = page.locator(".cell.fits").first.bounding_box()
    source = piece.bounding_box()
    assert target is not None and source is not None
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + 5, target["y"] + 5, steps=4)
    expect(page.locator(".drag-ghost")).to_have_count(1)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=4)
    page.mouse.up()
    wait_for_turn(page, 1)
    expect(page.locator(".log li").first).to_contain_text("You laid")


def test_a_refused_move_shows_the_engines_reason(page: Page, server: str) -> None:
    start(page, server, "unstackable", ["here", "greedy"])
    page.click("button.swatch:has-text('black')")
    for _ in range(3):
        page.click(".plan .target.fits >> nth=0")
    wait_for_turn(page, 3)
    state = game_state(server, page)
    cube = page.locator(".plan rect[data-cell]:not(.target)").first
    cell = cube.get_attribute("data-cell")
    page.click("button.swatch >> nth=0")
    colour = page.locator("button.swatch.chosen b").inner_text()
    with pytest.raises(cubegames.IllegalMove) as engine:
        state.clone().play(f"{colour}@{cell}")
    before = ply(page)
    cube.click()
    expect(page.locator(".message")).to_have_text(str(engine.value))
    assert ply(page) == before


def test_two_browsers_play_one_game_online(page: Page, browser: Browser, server: str) -> None:
    start(page, server, "unstackable", ["here", "online"])
    link = page.locator(".invite input.link").input_value()
    watch = page.locator(".invite a").first.get_attribute("href")
    page.click("a:has-text('Go to the game')")
    expect(page.locator(".status")).to_have_text("Your turn.")
    friend_context = browser.new_context()
    watcher_context = browser.new_context()
    try:
        friend = friend_context.new_page()
        friend.goto(link)
        expect(friend.locator(".status")).to_contain_text("Waiting for Seat 0")
        watcher = watcher_context.new_page()
        watcher.goto(f"{server}{watch}" if watch and watch.startswith("/") else str(watch))
        page.click("button.swatch:has-text('yellow')")
        page.click(".iso .target.fits >> nth=0")
        expect(friend.locator(".status")).to_have_text("Your turn.")
        expect(friend.locator(".said")).to_have_text("Seat 0 stacked a yellow cube on 0,0,0.")
        friend.click("button.swatch:has-text('red')")
        friend.click(".plan .target.fits >> nth=0")
        friend.wait_for_function("() => window.cubegamesPage.current.ply === 2")
        friend.click(".plan .target.fits >> nth=0")
        expect(page.locator(".status")).to_have_text("Your turn.")
        expect(page.locator(".log li")).to_have_count(3)
        expect(watcher.locator(".log li")).to_have_count(3)
        expect(watcher.locator(".status")).to_contain_text("Waiting for Seat 0")
        assert watcher.locator(".colour-choice").count() == 0
    finally:
        friend_context.close()
        watcher_context.close()


def test_a_quick_second_click_waits_for_the_first_moves_answer(page: Page, server: str) -> None:
    """Two clicks before the server has answered the first: the second is not sent against
    the old position (where it would be refused as stale); the board takes clicks again
    once the answer is drawn."""
    start(page, server, "unstackable", ["here", "here"])
    page.click("button.swatch:has-text('red')")
    busy = page.evaluate(
        """() => {
            const cell = document.querySelector('.iso .target.fits');
            cell.dispatchEvent(new MouseEvent('click', { bubbles: true }));
            const busy = document.querySelector('#board').classList.contains('busy');
            document.querySelector('.iso .target.fits')
                .dispatchEvent(new MouseEvent('click', { bubbles: true }));
            return busy;
        }"""
    )
    assert busy
    page.wait_for_function("() => window.cubegamesPage.current.ply === 1")
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bbusy\b"))
    page.wait_for_timeout(500)
    expect(page.locator(".message")).to_have_text("")
    assert ply(page) == 1
    page.click(".iso .target.fits >> nth=0")
    page.wait_for_function("() => window.cubegamesPage.current.ply === 2")


def test_hot_seat_hides_each_hand_behind_a_pass_screen(
    page: Page, server: str, screenshots: Path
) -> None:
    start(page, server, "cubed", ["here", "here"], {"rounds": 1})
    overlay = page.locator(".overlay")
    expect(overlay).to_be_visible()
    expect(overlay).to_contain_text("Pass the device to Seat 0")
    assert page.locator(".hand-piece").count() == 0
    page.click(".overlay button")
    expect(page.locator(".hand-piece").first).to_be_visible()
    page.click("button:has-text('Draw a piece')")
    page.click("button.move:text-is('pass')")
    expect(overlay).to_contain_text("Pass the device to Seat 1")
    assert page.locator(".hand-piece").count() == 0
    page.screenshot(path=screenshots / "hot-seat-pass.png")
    page.click(".overlay button")
    expect(page.locator(".status")).to_have_text("Seat 1: your turn.")
    hand = page.evaluate("() => window.cubegamesPage.current.view.hands")
    assert hand[0] is None and len(hand[1]) == 25


def test_stakd_pieces_are_laid_on_the_layer_grid(
    page: Page, server: str, screenshots: Path
) -> None:
    start(page, server, "stakd", ["here", "greedy"])
    expect(page.locator(".status")).to_have_text("Your turn.")
    page.click(".node.fits >> nth=0")
    wait_for_turn(page, 1)
    page.click(".node.fits >> nth=0")
    wait_for_turn(page, 3)
    page.click("button.type:has-text('DUO')")
    page.keyboard.press("r")
    page.hover(".node.fits >> nth=0")
    expect(page.locator(".node.preview")).to_have_count(2)
    page.click(".node.fits >> nth=0")
    wait_for_turn(page, 5)
    expect(page.locator(".log li").nth(4)).to_contain_text("You laid a DUO on layer 1")
    page.locator("#board").screenshot(path=screenshots / "stakd.png")


def test_cubes_rolls_with_a_button_and_says_what_happened(
    page: Page, server: str, screenshots: Path
) -> None:
    start(page, server, "cubes", ["here", "random"])
    page.click("button.roll")
    wait_for_turn(page, 1)
    said = page.evaluate("() => window.cubegamesPage.current.said")
    assert said and "seat 1" in said.lower()
    expect(page.locator(".log li").first).to_contain_text("You rolled.")
    expect(page.locator(".said")).to_have_text(said)
    page.locator("#board").screenshot(path=screenshots / "cubes.png")


def test_unstackable_board(page: Page, server: str, screenshots: Path) -> None:
    start(page, server, "unstackable", ["here", "greedy"])
    page.click("button.swatch:has-text('red')")
    page.click(".iso .target.fits >> nth=0")
    page.click(".iso .target.fits >> nth=0")
    wait_for_turn(page, 2)
    page.uncheck("#layer-0")
    assert page.locator(".layer.hidden").count() == 1
    page.check("#layer-0")
    page.locator("#board").screenshot(path=screenshots / "unstackable.png")


def test_a_finished_game_replays_and_its_record_goes_out_and_back(
    page: Page, server: str, screenshots: Path, tmp_path: Path
) -> None:
    record = finished_record("cubed", {"players": 2, "rounds": 1})
    made = httpx.post(f"{server}/api/records", content=json.dumps(record)).json()
    total = len(record["moves"])
    page.goto(f"{server}/replay/{made['id']}")
    expect(page.locator(".counter")).to_have_text(f"move 0 of {total}")
    page.click("button[aria-label='next move']")
    expect(page.locator(".counter")).to_have_text(f"move 1 of {total}")
    expect(page.locator(".said")).to_contain_text("Seat 0 ")
    page.keyboard.press("End")
    expect(page.locator(".counter")).to_have_text(f"move {total} of {total}")
    page.select_option("select[aria-label='Seen by']", "0")
    expect(page.locator("svg .hand-piece").first).to_be_attached()
    page.locator("#board").screenshot(path=screenshots / "replay-cubed.png")
    with page.expect_download() as download:
        page.click("a:has-text('Save the record')")
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text())["moves"] == record["moves"]
    page.goto(f"{server}/")
    page.set_input_files("#record-file", saved)
    page.click("form.load button")
    page.wait_for_url(re.compile(r"/replay/(?!" + re.escape(made["id"]) + ")"))
    expect(page.locator(".counter")).to_have_text(f"move 0 of {total}")
