"""The lobby and the chat in headless Chromium, each in two browser contexts: a public table
opened in one browser is joined from the lobby in another; quick play matches two
browsers; the host's board names the player who took the free seat at once; the players
chat both ways (only the host is offered to close the spectators' chat), a line holding
markup shows as text, and a mute hides a player's lines on one screen only; a game whose
deal was picked says so on every page before the first move; a name field stops at the
length the server takes. Pictures of the lobby and
of a table with its chat, on a desktop and a phone, and of the longest names with no
space on a phone, go to artifacts/screenshots/
(CUBEGAMES_SCREENSHOTS=docs/screenshots refreshes the documentation's)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from cubegames.server.names import MAX_NAME
from tests.server.test_browser import DESKTOP, PHONE, TIMEOUT_MS, Guard, shot, start

# a real server and Chromium
pytestmark = pytest.mark.slow

LOBBY_DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(autouse=True)
def _short_timeouts() -> None:
    expect.set_options(timeout=TIMEOUT_MS)


def context(browser: Browser, phone: bool = False) -> BrowserContext:
    made = (
        browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
        if phone
        else browser.new_context(viewport=LOBBY_DESKTOP)
    )
    made.set_default_timeout(TIMEOUT_MS)
    return made


@pytest.fixture
def two(browser: Browser, server: str) -> Iterator[tuple[Page, Guard, Page, Guard]]:
    """Two browsers (a desktop and a phone), each with its guard."""
    first, second = context(browser), context(browser, phone=True)
    try:
        a, b = first.new_page(), second.new_page()
        yield a, Guard(a, server), b, Guard(b, server)
    finally:
        first.close()
        second.close()


def open_public_table(
    page: Page, server: str, name: str, game: str = "cubed", clock: str | None = "rt:10+5"
) -> str:
    """Make a public table of `game` on the start page (with the time control `clock`, or
    none), seat 2 left free; its id."""
    page.goto(f"{server}/")
    page.fill("#lobby-name", name)
    page.click(f"label[for=game-{game}]")
    page.select_option("#seat-1", "online")
    if clock is not None:
        page.select_option("#time-control", clock)
    page.check("#public-table")
    page.click("button:has-text('Start playing')")
    expect(page.locator(".invite")).to_be_visible()
    page.click("a:has-text('Go to the game')")
    page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.hello")
    game_id: str = page.evaluate("() => window.cubegamesPage.gameId")
    return game_id


def join_from_lobby(
    page: Page, server: str, game_id: str, name: str, clock: str | None = "10+5"
) -> None:
    """Join table `game_id` from the lobby as `name`; its row shows the time control
    `clock` (None: not checked)."""
    page.goto(f"{server}/")
    page.fill("#lobby-name", name)
    row = page.locator(f".lobby-table[data-id='{game_id}']")
    expect(row).to_contain_text("1 of 2 seats free")
    if clock is not None:
        expect(row).to_contain_text(clock)
    expect(row).to_contain_text("Not rated")
    row.locator("button.join").click()
    page.wait_for_url(f"**/play/{game_id}")
    page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.hello")


def say(page: Page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def test_a_public_table_is_joined_from_the_lobby_in_another_browser(
    two: tuple[Page, Guard, Page, Guard], server: str
) -> None:
    host, host_guard, friend, friend_guard = two
    friend.goto(f"{server}/")
    expect(friend.locator(".lobby-list")).to_be_visible()  # watching before the table opens
    game_id = open_public_table(host, server, "Ana")
    row = friend.locator(f".lobby-table[data-id='{game_id}']")
    expect(row).to_contain_text("Host: Ana")  # came live, without a reload
    expect(row.locator("bdi.name")).to_have_text("Ana")  # the player's own name, set apart
    friend.locator(".lobby").scroll_into_view_if_needed()  # below the games, for a guest
    shot(friend, "lobby-phone")
    join_from_lobby(friend, server, game_id, "Bo")
    assert friend.evaluate("() => window.cubegamesPage.hello.seat") == 1
    # the host's page names the newcomer, and the chat says they sat down
    expect(host.locator(".seat-list li").nth(1)).to_contain_text("Bo")
    expect(host.locator(".chat-lines .system", has_text="Bo took a seat.")).to_be_visible()
    expect(friend.locator(".turn-banner")).to_contain_text("Ana")
    # the table has left the lobby: both seats are taken
    host.goto(f"{server}/")
    expect(host.locator(".lobby-list")).to_be_visible()
    expect(host.locator(f".lobby-table[data-id='{game_id}']")).to_have_count(0)
    host_guard.check()
    friend_guard.check()


def test_the_host_board_names_a_player_who_sat_down_from_the_lobby(
    two: tuple[Page, Guard, Page, Guard], server: str
) -> None:
    """CUBES names every seat on its board (the chips under the pot): when a friend takes
    the free seat, the host's board says their name, not "Player 2" (it kept the name it
    was first drawn with until the next move)."""
    host, host_guard, friend, friend_guard = two
    game_id = open_public_table(host, server, "Ana", game="cubes", clock=None)
    chips = host.locator(".chip-line li").nth(1)
    expect(chips).to_contain_text("Player 2")
    join_from_lobby(friend, server, game_id, "Bo", clock=None)
    expect(host.locator(".seat-list li").nth(1)).to_contain_text("Bo")
    expect(chips).to_contain_text("Bo")
    expect(host.locator(".chip-line")).not_to_contain_text("Player 2")
    assert host.evaluate("() => window.cubegamesPage.current.ply") == 0  # no move was needed
    host_guard.check()
    friend_guard.check()


def test_the_name_fields_take_no_longer_name_than_the_server_accepts(
    browser: Browser, server: str
) -> None:
    """The lobby's name and each seat's name stop at names.MAX_NAME characters: a longer
    name (the fields took 40) was refused by the server with "a name has at most 24
    characters" only when the table was opened."""
    made = context(browser)
    try:
        page = made.new_page()
        guard = Guard(page, server)
        page.goto(f"{server}/")
        page.click("label[for=game-cubes]")
        page.select_option("#seat-1", "online")
        page.check("#public-table")
        for field in ("#lobby-name", "[aria-label='Name of Player 1']"):
            page.locator(field).press_sequentially("W" * (MAX_NAME + 6))
            assert page.locator(field).input_value() == "W" * MAX_NAME
        page.click("button:has-text('Start playing')")
        expect(page.locator(".invite")).to_be_visible()
        guard.check()
    finally:
        made.close()


#: the parts of a table naming its players that stick out of their box or the screen
STICKING_OUT = """() => [...document.querySelectorAll(
    '.turn-banner, .chip-line li, .seat-list li, .stage-note, .clock')]
  .filter((e) => e.getClientRects().length
    && (e.scrollWidth > e.clientWidth + 1
        || e.getBoundingClientRect().right > window.innerWidth + 1))
  .map((e) => e.className + ': ' + e.textContent.slice(0, 30))"""


def test_a_longest_name_with_no_space_fits_a_phone(
    two: tuple[Page, Guard, Page, Guard], server: str
) -> None:
    """A name of MAX_NAME letters with no space (the banner, CUBES' chips, the seats) wraps on
    a 390-pixel phone instead of running off the screen, on the host's page and the
    joiner's."""
    host, host_guard, friend, friend_guard = two
    long = "W" * MAX_NAME
    game_id = open_public_table(host, server, long, game="cubes", clock=None)
    join_from_lobby(friend, server, game_id, "M" * MAX_NAME, clock=None)
    expect(friend.locator(".turn-banner")).to_contain_text(long)
    expect(friend.locator(".chip-line")).to_contain_text(long)
    assert friend.evaluate(STICKING_OUT) == []
    shot(friend, "long-names-phone")
    host_guard.check()
    friend_guard.check()


def test_quick_play_seats_two_browsers_at_one_table(
    two: tuple[Page, Guard, Page, Guard], server: str
) -> None:
    first, first_guard, second, second_guard = two
    for page, name in ((first, "Cy"), (second, "Di")):
        page.goto(f"{server}/")
        page.fill("#lobby-name", name)
        page.select_option("#quick-game", "stakd")
        page.fill("#quick-players", "2")
        page.select_option("#quick-clock", "3+2")
        page.click("button:has-text('Find a game')")
        page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.hello")
    ids = [p.evaluate("() => window.cubegamesPage.gameId") for p in (first, second)]
    assert ids[0] == ids[1]
    assert [p.evaluate("() => window.cubegamesPage.hello.seat") for p in (first, second)] == [0, 1]
    expect(first.locator(".seat-list li").nth(1)).to_contain_text("Di")
    first_guard.check()
    second_guard.check()


def test_players_chat_both_ways_and_one_mutes_the_other(
    two: tuple[Page, Guard, Page, Guard], server: str, browser: Browser
) -> None:
    host, host_guard, friend, friend_guard = two
    game_id = open_public_table(host, server, "Ana")
    join_from_lobby(friend, server, game_id, "Bo")
    expect(host.locator(".chat-lines .system", has_text="Bo took a seat.")).to_be_visible()
    # only the host may close the spectators' chat: nobody else is offered the button
    expect(host.locator(".chat-toggle")).to_be_visible()
    expect(friend.locator(".chat-toggle")).to_be_hidden()
    say(host, "good luck!")
    expect(friend.locator(".chat-lines li:has-text('good luck!') .who")).to_have_text("Ana")
    evil = "<script>window.pwned = 1</script><b>bold</b>"
    say(friend, evil)
    line = host.locator(".chat-lines li[data-seat='1'] .text")
    expect(line).to_have_text(evil)  # shown as the characters typed, never as markup
    assert host.evaluate(
        "() => window.pwned === undefined && !document.querySelector('.chat b:not(.who)')"
    )
    # a spectator sees neither line: the spectators have their own chat
    watching = context(browser)
    try:
        spectator = watching.new_page()
        spectator.goto(f"{server}/play/{game_id}")
        expect(spectator.locator(".chat h2")).to_have_text("Spectators' chat")
        expect(spectator.locator(".chat-toggle")).to_be_hidden()
        expect(spectator.locator(".chat-lines")).to_contain_text("Bo took a seat.")
        expect(spectator.locator(".chat-lines")).not_to_contain_text("good luck!")
        say(spectator, "enjoying this")
        expect(spectator.locator(".chat-lines")).to_contain_text("enjoying this")
    finally:
        watching.close()
    expect(host.locator(".chat-lines")).not_to_contain_text("enjoying this")
    # Bo waits for Ana: the hand's panel says so, and a piece picked meanwhile is not
    # said to fit nowhere (where it fits is known only on Bo's turn)
    note = friend.locator(".chosen-note")
    expect(note).to_have_text("Not your turn yet: meanwhile you can pick a piece and turn it.")
    shot(host, "table-chat-desktop")
    shot(friend, "table-chat-phone")
    friend.locator(".hand-piece").first.click()
    expect(note).to_have_text("Where it fits shows on your turn.")
    expect(host.locator(".chosen-note")).to_contain_text("a piece of your hand")
    # the host mutes Bo: Bo's lines vanish on the host's screen only
    host.click(".chat-lines li[data-seat='1'] button.mute >> nth=0")
    expect(host.locator(".chat-lines li[data-seat='1']")).to_have_count(0)
    say(friend, "can you hear me?")
    expect(friend.locator(".chat-lines")).to_contain_text("can you hear me?")
    say(host, "still talking")
    expect(friend.locator(".chat-lines")).to_contain_text("still talking")
    expect(host.locator(".chat-lines")).not_to_contain_text("can you hear me?")
    # kept in this browser: a reload stays muted; unmuting shows the lines again
    host.reload()
    expect(host.locator(".chat-lines")).to_contain_text("still talking")
    expect(host.locator(".chat-lines")).not_to_contain_text("can you hear me?")
    host.click("button.unmute")
    expect(host.locator(".chat-lines")).to_contain_text("can you hear me?")
    host_guard.check()
    friend_guard.check()


def test_a_picked_deal_is_told_on_every_page_before_the_first_move(
    browser: Browser, server: str
) -> None:
    maker_context = browser.new_context(viewport=DESKTOP)
    other_context = context(browser, phone=True)
    try:
        maker = maker_context.new_page()
        guard = Guard(maker, server)
        start(maker, server, "cubed", ["here", "here"], seed=42)
        notice = maker.locator(".deal-picked")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("The host picked this game's deal")
        # a hot-seat table: the screen waits to be passed to the first player
        maker.wait_for_function("() => window.cubegamesPage.newest() !== null")
        assert maker.evaluate("() => window.cubegamesPage.newest().ply") == 0  # before any move
        # the seat's credential opened in another browser (#t=...) says it too
        token = maker.evaluate(
            "() => Object.values(JSON.parse(localStorage['cubegames.games']))[0].tokens"
        )
        game_id = maker.evaluate("() => window.cubegamesPage.gameId")
        friend = other_context.new_page()
        friend.goto(f"{server}/play/{game_id}#t={token['1']}")
        expect(friend.locator(".deal-picked")).to_be_visible()
        expect(friend.locator(".deal-picked")).to_contain_text("never rated")
        friend.goto(f"{server}/replay/{game_id}")
        expect(friend.locator(".deal-picked")).to_be_visible()
        # a game dealt by the server says nothing of the kind
        start(maker, server, "cubed", ["here", "greedy"], seed=None)
        expect(maker.locator(".turn-banner")).not_to_be_empty()
        expect(maker.locator(".deal-picked")).to_be_hidden()
        guard.check()
    finally:
        maker_context.close()
        other_context.close()


def test_the_lobby_on_a_desktop(browser: Browser, server: str) -> None:
    """A picture of the start page's lobby with a table waiting (desktop)."""
    first = context(browser)
    try:
        host = first.new_page()
        game_id = open_public_table(host, server, "Ana")
        viewer = first.new_page()
        viewer.goto(f"{server}/")
        expect(viewer.locator(f".lobby-table[data-id='{game_id}']")).to_be_visible()
        viewer.locator(".lobby").scroll_into_view_if_needed()
        shot(viewer, "lobby-desktop")
    finally:
        first.close()


def watching_one_table(
    contexts: tuple[BrowserContext, BrowserContext],
    server: str,
    hellos: tuple[str, str],
    accounts: tuple[str, str] | None = None,
) -> tuple[Page, Page]:
    """Two people watch one new CUBES table (both seats free) from two browser contexts,
    each signed up first when `accounts` names them; each says its hello and both screens
    show both lines. The two pages, in the contexts' order."""
    import httpx

    from tests.server.test_browser_accounts import _account, _name

    made = httpx.post(
        f"{server}/api/games",
        json={"game": "cubes", "seats": [{"kind": "human"}, {"kind": "human"}]},
        timeout=10,
    ).json()
    pages = []
    for at, made_context in enumerate(contexts):
        page = made_context.new_page()
        if accounts is not None:
            _account(page, server, _name(accounts[at]), "Create account")
        page.goto(f"{server}/play/{made['id']}")
        expect(page.locator(".chat h2")).to_have_text("Spectators' chat")
        pages.append(page)
    for page, hello in zip(pages, hellos, strict=True):
        say(page, hello)
    for page in pages:
        for hello in hellos:
            expect(page.locator(".chat-lines")).to_contain_text(hello)
    return pages[0], pages[1]


def test_a_spectator_mutes_another_spectator(browser: Browser, server: str) -> None:
    """Two people watch one table from two browsers, each signed in (on one machine they
    share an address: their accounts tell them apart): one mutes the other, whose lines
    vanish on that screen only; a spectator's own lines offer no mute."""
    first, second = context(browser), context(browser, phone=True)
    try:
        eve, max_ = watching_one_table(
            (first, second), server, ("hello from Eve", "hello from Max"), ("Eve", "Max")
        )
        # one's own line offers no mute; the other's does
        expect(
            eve.locator(".chat-lines li.own:has-text('hello from Eve') button.mute")
        ).to_have_count(0)
        expect(eve.locator(".chat-lines li:has-text('hello from Max') .who")).to_contain_text(
            "Spectator"
        )
        eve.click(".chat-lines li:has-text('hello from Max') button.mute")
        expect(eve.locator(".chat-lines")).not_to_contain_text("hello from Max")
        say(max_, "still here")
        expect(max_.locator(".chat-lines")).to_contain_text("still here")
        say(eve, "quiet now")
        expect(max_.locator(".chat-lines")).to_contain_text("quiet now")
        expect(eve.locator(".chat-lines")).not_to_contain_text("still here")
        expect(max_.locator(".chat-lines")).to_contain_text("hello from Max")  # on one screen
        eve.click("button.unmute")
        expect(eve.locator(".chat-lines")).to_contain_text("still here")
    finally:
        first.close()
        second.close()


def test_a_guest_mutes_another_guest_watching_from_the_same_address(
    browser: Browser, server: str
) -> None:
    """Two guests (no account) watch one table from two browsers on one machine, so from
    one address: each browser has its own guest id (its cookie), so each has a tag of its
    own, and a mute of one hides that one's lines only, on that screen only."""
    first, second = context(browser), context(browser)
    try:
        ann, ben = watching_one_table((first, second), server, ("hello from Ann", "hello from Ben"))
        # each has a tag of their own: their own line offers no mute, the other's does
        expect(ann.locator(".chat-lines li.own:has-text('hello from Ann')")).to_have_count(1)
        expect(ann.locator(".chat-lines li.own:has-text('hello from Ben')")).to_have_count(0)
        ann.click(".chat-lines li:has-text('hello from Ben') button.mute")
        expect(ann.locator(".chat-lines")).not_to_contain_text("hello from Ben")
        expect(ann.locator(".chat-lines")).to_contain_text("hello from Ann")
        say(ann, "still talking")
        expect(ann.locator(".chat-lines")).to_contain_text("still talking")
        say(ben, "can you hear me")
        expect(ben.locator(".chat-lines")).to_contain_text("still talking")
        expect(ben.locator(".chat-lines")).to_contain_text("can you hear me")
        expect(ann.locator(".chat-lines")).not_to_contain_text("can you hear me")
    finally:
        first.close()
        second.close()
