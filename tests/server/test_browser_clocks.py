"""Clocks in headless Chromium, desktop (1280×800) and phone (390×844): a real-time clock
ticks on the page, turns to the warning colour when low, and the game ends on time with
the words of it; the resign button ends a game; a take-back refused in CUBES leaves the
Roll button off on the other seat's turn. The server runs on a clock the test moves (an
offset in a file it reads), so no test waits for a clock to run down. Screenshots go to
artifacts/screenshots/ (git-ignored)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import _free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / os.environ.get("CUBEGAMES_SCREENSHOTS", "artifacts/screenshots")
VIEWS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "has_touch": True,
        "is_mobile": True,
        "device_scale_factor": 2,
    },
}

#: a server whose clock is the real one plus the seconds written in a file (the test's)
SERVE = """
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from cubegames.server.app import create_app
from cubegames.server.cli import run
from cubegames.server.limits import Limits

offset = Path(sys.argv[3])

def now():
    try:
        extra = float(offset.read_text() or 0)
    except (OSError, ValueError):
        extra = 0.0
    return datetime.now(UTC) + timedelta(seconds=extra)

limits = Limits(clock_check_seconds=0.2)
run(create_app(sys.argv[1], bot_delay=0.1, limits=limits, now=now), "127.0.0.1", int(sys.argv[2]))
"""


class Moved:
    """The clock of the server under test: `advance(seconds)` moves it on."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seconds = 0.0
        path.write_text("0")

    def advance(self, seconds: float) -> None:
        self.seconds += seconds
        self.path.write_text(str(self.seconds))


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Moved]]:
    """A real server on a free loopback port, on a clock the tests move: one for the module
    (starting one a test cost some 3 s each); the clock only ever moves on, and each test
    plays its own new game, so what one test moved no other test sees."""
    tmp_path = tmp_path_factory.mktemp("clock-server")
    clock = Moved(tmp_path / "offset")
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, f"sqlite:///{tmp_path / 'g.sqlite3'}", str(port), clock.path],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONWARNINGS": "ignore::DeprecationWarning"},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if httpx.get(f"{url}/api/catalog", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            output = process.stdout.read().decode() if process.stdout else ""
            raise RuntimeError(f"the server did not start:\n{output}")
        yield url, clock
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()


def _page(browser: Browser, view: str) -> tuple[Any, Page, list[str]]:
    context = browser.new_context(**VIEWS[view])
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)  # let the last animation settle
    page.screenshot(path=SHOTS / f"{name}.png")


def _made(url: str, clock: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(
        f"{url}/api/games",
        json={
            "game": "unstackable",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "seed": 7,
            "clock": clock,
        },
    )
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def _cubed_of_three(url: str, clock: dict[str, Any]) -> dict[str, Any]:
    """A one-round CUBED table of three people, made on the server at `url`."""
    response = httpx.post(
        f"{url}/api/games",
        json={
            "game": "cubed",
            "options": {"players": 3, "rounds": 1},
            "seats": [{"kind": "human"}] * 3,
            "clock": clock,
        },
    )
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def _open(page: Page, url: str, made: dict[str, Any]) -> None:
    tokens = ",".join(seat["token"] for seat in made["seats"])
    page.goto(f"{url}/play/{made['id']}#t={tokens}")
    page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.current")


def _play_until_a_clock_runs(page: Page) -> None:
    """Each seat's first move (real-time clocks run from a seat's second), played through
    the page's own sending, one at a time."""
    for _ in range(20):
        current = page.evaluate("() => window.cubegamesPage.current")
        if current["clock"]["running"] is not None:
            return
        ply = current["ply"]
        page.evaluate("(m) => window.cubegamesPage.send(m)", current["legal"][0])
        page.wait_for_function(
            f"() => window.cubegamesPage.current.ply > {ply} && !window.cubegamesPage.sending"
        )
    raise AssertionError("no clock runs after 20 moves")


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_a_clock_ticks_warns_when_low_and_the_game_ends_on_time(
    browser: Browser, clock_server: tuple[str, Moved], view: str
) -> None:
    url, clock = clock_server
    made = _made(url, {"kind": "realtime", "preset": "3+2"})
    context, page, errors = _page(browser, view)
    try:
        _open(page, url, made)
        faces = page.locator(".clock-face")
        expect(faces).to_have_count(2)
        expect(faces.first).to_contain_text("3:00")
        _play_until_a_clock_runs(page)
        running = page.locator(".clock-face.running .time")
        expect(running).to_have_count(1)
        first = running.inner_text()
        expect(running).not_to_have_text(first, timeout=5_000)  # it ticks
        shot(page, f"clocks-{view}-ticking")
        clock.advance(170)  # ten seconds left: a new connection is told so
        page.reload()
        page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.current")
        expect(page.locator(".clock-face.running.low")).to_have_count(1)
        expect(page.locator(".clock-face.running .time")).to_have_text(re.compile(r"^0:(0\d|10)$"))
        # the low clock asks for its sound (played if sounds are on), once this turn
        page.wait_for_function("() => window.cubegamesSound.asked.includes('low')")
        left = page.locator(".clock-face.running .time").inner_text()
        expect(page.locator(".clock-face.running .time")).not_to_have_text(left)  # ticked on
        lows = page.evaluate("() => window.cubegamesSound.asked.filter((s) => s === 'low')")
        assert lows == ["low"], lows
        shot(page, f"clocks-{view}-low")
        clock.advance(15)  # out of time: the referee ends the game within a moment
        banner = page.locator(".turn-banner")
        expect(banner).to_contain_text("ran out of time")
        expect(banner).to_contain_text("won")
        expect(page.locator(".clock-buttons button")).to_have_count(0)
        shot(page, f"clocks-{view}-out-of-time")
        assert errors == [], errors
    finally:
        context.close()


def test_the_resign_button_ends_the_game(browser: Browser, clock_server: tuple[str, Moved]) -> None:
    url, _clock = clock_server
    made = _made(url, {"kind": "turn", "days": 3})
    context, page, errors = _page(browser, "phone")
    try:
        _open(page, url, made)
        expect(page.locator(".clock-face").first).to_contain_text(re.compile(r"(2 d 23|3 d 0) h"))
        page.on("dialog", lambda dialog: dialog.accept())
        page.locator(".clock-buttons button.resign").tap()
        expect(page.locator(".turn-banner")).to_contain_text("resigned")
        shot(page, "clocks-phone-resigned")
        # the replay says how it ended too (it said "… won · 0 – 0" alone)
        page.goto(f"{url}/replay/{made['id']}")
        expect(page.locator(".turn-banner")).to_contain_text(re.compile(r" won · .* resigned$"))
        assert errors == [], errors
    finally:
        context.close()


@pytest.mark.parametrize("view", ["desktop", "phone"])
def test_a_move_and_the_bots_reply_are_taken_back(
    browser: Browser, clock_server: tuple[str, Moved], view: str
) -> None:
    url, _clock = clock_server
    response = httpx.post(
        f"{url}/api/games",
        json={
            "game": "stakd",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
            "seed": 7,
        },
    )
    made = response.json()
    context, page, errors = _page(browser, view)
    try:
        page.goto(f"{url}/play/{made['id']}#t={made['seats'][0]['token']}")
        page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.current")
        expect(page.locator(".clock-buttons button.undo")).to_have_count(0)  # nothing yet
        before = page.evaluate("() => window.cubegamesPage.current")
        page.evaluate("(m) => window.cubegamesPage.send(m)", before["legal"][0])
        # the bot answers; it is this seat's turn again
        page.wait_for_function(
            "() => { const c = window.cubegamesPage.current;"
            " return c.ply >= 2 && c.to_move === 0 && !window.cubegamesPage.sending; }"
        )
        undo = page.locator(".clock-buttons button.undo")
        expect(undo).to_be_visible()
        shot(page, f"undo-{view}-before")
        (undo.tap if view == "phone" else undo.click)()
        page.wait_for_function("() => window.cubegamesPage.current.ply === 0")
        expect(page.locator(".clock-notice")).to_contain_text("took back 2 moves (from move 1)")
        after = page.evaluate("() => window.cubegamesPage.current")
        assert after["view"] == before["view"] and after["legal"] == before["legal"]
        shot(page, f"undo-{view}-after")
        assert errors == [], errors
    finally:
        context.close()


def test_a_take_back_across_turns_is_asked_and_agreed(
    browser: Browser, clock_server: tuple[str, Moved]
) -> None:
    url, _clock = clock_server
    made = _made(url, {"kind": "none"})
    one, asker, errors_one = _page(browser, "desktop")
    two, other, errors_two = _page(browser, "phone")
    try:
        asker.goto(f"{url}/play/{made['id']}#t={made['seats'][0]['token']}")
        other.goto(f"{url}/play/{made['id']}#t={made['seats'][1]['token']}")
        for page in (asker, other):
            page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.current")
        for _ in range(5):  # seat 0 plays its turn through
            current = asker.evaluate("() => window.cubegamesPage.current")
            if current["to_move"] != 0:
                break
            asker.evaluate("(m) => window.cubegamesPage.send(m)", current["legal"][0])
            asker.wait_for_function(
                f"() => window.cubegamesPage.current.ply > {current['ply']}"
                " && !window.cubegamesPage.sending"
            )
        ply = asker.evaluate("() => window.cubegamesPage.current.ply")
        asker.locator(".clock-buttons button.undo-ask").click()
        expect(other.locator(".clock-notice")).to_contain_text("asks to take back")
        shot(other, "undo-phone-asked")
        other.locator(".clock-buttons button.undo-accept").tap()
        asker.wait_for_function(f"() => window.cubegamesPage.current.ply < {ply}")
        expect(asker.locator(".turn-banner")).to_have_text("Your turn")
        expect(other.locator(".clock-notice")).to_contain_text("took back")
        shot(asker, "undo-desktop-agreed")
        assert errors_one == [] and errors_two == [], (errors_one, errors_two)
    finally:
        one.close()
        two.close()


def test_a_game_of_rolls_offers_no_take_back_and_a_refusal_leaves_the_dice_alone(
    browser: Browser, clock_server: tuple[str, Moved]
) -> None:
    """In CUBES every move is a roll, which is never taken back: the page offers no
    take-back (`hello.takebacks`), and a take-back asked anyway (an older page's button) is
    refused in words while the Roll button stays off on the other seat's turn (it came back
    on, as after a refused roll, and rolling out of turn was then offered)."""
    url, _clock = clock_server
    made = httpx.post(
        f"{url}/api/games",
        json={"game": "cubes", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 7},
    ).json()
    context, page, errors = _page(browser, "desktop")
    try:
        page.goto(f"{url}/play/{made['id']}#t={made['seats'][0]['token']}")
        page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.current")
        assert page.evaluate("() => window.cubegamesPage.hello.takebacks") is False
        roll = page.locator("button.roll")
        roll.click()
        page.wait_for_function(
            "() => window.cubegamesPage.current.ply === 1 && !window.cubegamesPage.sending"
        )
        expect(roll).to_be_disabled()  # the other seat rolls next
        expect(page.locator(".clock-buttons button.resign")).to_be_visible()
        expect(page.locator(".clock-buttons button.undo-ask")).to_have_count(0)
        expect(page.locator(".clock-buttons button.undo")).to_have_count(0)
        page.evaluate("() => window.cubegamesPage.clocks.send({type: 'undo-ask'})")
        expect(page.locator(".message.error")).to_contain_text("can no longer be taken back")
        expect(roll).to_be_disabled()
        expect(roll).to_have_text("Roll the dice")
        assert errors == [], errors
    finally:
        context.close()


def test_the_start_page_lists_the_games_where_it_is_your_turn_first(
    browser: Browser, clock_server: tuple[str, Moved]
) -> None:
    url, _clock = clock_server
    yours = _made(url, {"kind": "turn", "days": 1})  # seat 0 to move: this browser's
    theirs = httpx.post(
        f"{url}/api/games",
        json={
            "game": "stakd",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "seed": 7,
            "clock": {"kind": "turn", "days": 3},
        },
    ).json()
    context, page, errors = _page(browser, "desktop")
    try:
        # this browser holds seat 1 of the newer game (seat 0 is to move there) and
        # seat 0 of the older one, whose turn it is
        page.goto(f"{url}/play/{yours['id']}#t={yours['seats'][0]['token']}")
        page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.hello")
        expect(page).to_have_title(re.compile("^● "))  # the tab says it is your turn
        page.goto(f"{url}/play/{theirs['id']}#t={theirs['seats'][1]['token']}")
        page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.current")
        expect(page).not_to_have_title(re.compile("^● "))
        page.goto(f"{url}/")
        first = page.locator(".game-list li").first
        expect(first).to_contain_text("Your turn")
        expect(first).to_contain_text("Unstackable")
        expect(page.locator(".game-list li.your-turn")).to_have_count(1)
        page.locator(".game-list").scroll_into_view_if_needed()
        shot(page, "start-page-your-turn-first")
        assert errors == [], errors
    finally:
        context.close()


def test_a_table_is_made_with_the_time_control_picked_on_the_start_page(
    browser: Browser, clock_server: tuple[str, Moved]
) -> None:
    url, _clock = clock_server
    context, page, errors = _page(browser, "phone")
    try:
        page.goto(f"{url}/")
        page.tap("label[for=game-stakd]")
        page.select_option("#time-control", "rt:custom")
        page.fill("#clock-minutes", "7")
        page.fill("#clock-increment", "4")
        page.tap("button:has-text('Start playing')")
        page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.current")
        clock = page.evaluate("() => window.cubegamesPage.current.clock")
        assert clock["control"] == {"kind": "realtime", "bank": 420.0, "increment": 4.0}
        expect(page.locator(".clock-face").first).to_contain_text("7:00")
        assert errors == [], errors
    finally:
        context.close()


def test_a_hidden_tab_is_notified_of_its_turn_only_once_its_player_asked(
    browser: Browser, clock_server: tuple[str, Moved]
) -> None:
    """Issue #24's turn-based comfort: a browser notification when it becomes your turn
    while the tab is hidden, only after the player pressed the bar's button (the page
    never asks for leave on load); a tab in sight is not notified."""
    url, _clock = clock_server
    response = httpx.post(
        f"{url}/api/games",
        json={
            "game": "unstackable",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            "seed": 7,
            "clock": {"kind": "turn", "days": 1},
        },
    )
    assert response.status_code == 201, response.text
    made = response.json()
    context = browser.new_context(**VIEWS["desktop"], permissions=["notifications"])
    context.set_default_timeout(15_000)
    # count the page's requests for leave to notify
    context.add_init_script(
        """window.askedLeave = 0;
        const ask = Notification.requestPermission.bind(Notification);
        Notification.requestPermission = (...a) => { window.askedLeave += 1; return ask(...a); };"""
    )
    try:
        page = context.new_page()
        page.goto(f"{url}/play/{made['id']}#t={made['seats'][0]['token']}")
        button = page.locator("button.notify-toggle")
        expect(button).to_have_text("Alert me on my turn")
        expect(button).to_have_attribute("aria-pressed", "false")
        assert page.evaluate("() => window.askedLeave") == 0  # never asked on load

        def hidden_turn() -> int:
            """Hide the tab, play a move, and wait until the bot's reply makes it this
            tab's turn again; the move number then."""
            page.evaluate(
                "() => Object.defineProperty(document, 'hidden', "
                "{ configurable: true, get: () => true })"
            )
            ply = page.evaluate("() => window.cubegamesPage.current.ply")
            page.evaluate("() => window.cubegamesPage.send(window.cubegamesPage.current.legal[0])")
            page.wait_for_function(
                """ply => { const p = window.cubegamesPage, c = p.current;
                    return c.ply > ply + 1 && c.to_move === p.active && c.legal.length > 0; }""",
                arg=ply,
            )
            return int(page.evaluate("() => window.cubegamesPage.current.ply"))

        page.wait_for_function("() => window.cubegamesPage.current.legal.length > 0")
        hidden_turn()
        assert page.evaluate("() => window.cubegamesNotices || []") == []  # not asked for
        page.evaluate("() => delete document.hidden")
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
        expect(button).to_have_text("Turn alerts on")
        assert page.evaluate("() => window.askedLeave") == 0  # leave granted already
        ply = hidden_turn()
        notices = page.evaluate("() => window.cubegamesNotices")
        assert notices == [
            {"title": "Unstackable: your turn", "body": f"Move {ply + 1} is yours to play."}
        ]
        # a tab in sight is not notified
        page.evaluate("() => delete document.hidden")
        page.evaluate("() => window.cubegamesPage.send(window.cubegamesPage.current.legal[0])")
        page.wait_for_function(
            """ply => { const p = window.cubegamesPage, c = p.current;
                return c.ply > ply + 1 && c.to_move === p.active; }""",
            arg=ply,
        )
        assert len(page.evaluate("() => window.cubegamesNotices")) == 1
    finally:
        context.close()


def test_a_player_who_resigned_a_game_of_three_watches_the_bot_play_on(
    browser: Browser, clock_server: tuple[str, Moved]
) -> None:
    """After resigning a game of three, the page is shown the table as a spectator's is:
    no hand (the bot's now), no turn of its own (the bot's turns are not "Your turn")."""
    url, _clock = clock_server
    made = _cubed_of_three(url, {"kind": "turn", "days": 3})
    context, page, errors = _page(browser, "desktop")
    try:
        page.goto(f"{url}/play/{made['id']}#t={made['seats'][0]['token']}")
        page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.current")
        expect(page.locator(".hand-piece").first).to_be_visible()
        expect(page.locator(".turn-banner")).to_contain_text("Your turn")
        page.on("dialog", lambda dialog: dialog.accept())
        page.locator(".clock-buttons button.resign").click()
        # the bot plays seat 0's turn, then seat 1 (nobody's page) is waited for
        page.wait_for_function("() => window.cubegamesPage.current.ply >= 1")
        expect(page.locator(".hand-piece")).to_have_count(0)
        expect(page.get_by_text("You are watching: hands are hidden.")).to_be_visible()
        expect(page.locator(".turn-banner")).not_to_contain_text("Your turn")
        # nor buttons the server would refuse: the seat is the bot's now
        expect(page.locator(".clock-buttons button")).to_have_count(0)
        assert page.evaluate("() => window.cubegamesPage.current.seat") is None
        assert errors == [], errors
    finally:
        context.close()


def test_a_take_back_request_is_withdrawn_in_words_when_its_asker_resigns(
    browser: Browser, clock_server: tuple[str, Moved]
) -> None:
    """Seat 0 of three lays a piece and asks to take it back; seat 1's page shows the
    request with its answer buttons, then seat 0 resigns (the bot plays on): seat 1 is told
    in words that the request is withdrawn, and the buttons go."""
    url, _clock = clock_server
    made = _cubed_of_three(url, {"kind": "none"})
    one, asker, errors_one = _page(browser, "desktop")
    two, other, errors_two = _page(browser, "phone")
    try:
        asker.goto(f"{url}/play/{made['id']}#t={made['seats'][0]['token']}")
        other.goto(f"{url}/play/{made['id']}#t={made['seats'][1]['token']}")
        for page in (asker, other):
            page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.current")
        current = asker.evaluate("() => window.cubegamesPage.current")
        placement = next(m for m in current["legal"] if m != "draw")  # no chance drawn
        asker.evaluate("(m) => window.cubegamesPage.send(m)", placement)
        other.wait_for_function("() => window.cubegamesPage.current.ply >= 1")
        asker.locator(".clock-buttons button.undo-ask").click()
        expect(other.locator(".clock-buttons button.undo-accept")).to_be_visible()
        asker.on("dialog", lambda dialog: dialog.accept())
        asker.locator(".clock-buttons button.resign").click()
        expect(other.locator(".clock-notice")).to_contain_text(
            "has left the game, so their take-back request is withdrawn"
        )
        expect(other.locator(".clock-buttons button.undo-accept")).to_have_count(0)
        assert errors_one == [] and errors_two == [], (errors_one, errors_two)
    finally:
        one.close()
        two.close()
