"""The page in Japanese, in headless Chromium set to Japanese (navigator.languages and
Accept-Language ja-JP): the start page with each game's options, each game played to its
end (its move log and last move's line included), a replay and a refusal from the server
show no English word in any visible text, placeholder or label (game names, notation and
bot specs aside); the switch changes the language and is
remembered; nothing is loaded from outside the server. Screenshots, desktop 1280×800 and phone
390×844, go to artifacts/screenshots/ja-*.png."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.test_api import finished_record
from tests.server.test_browser import SHOTS, TIMEOUT_MS, Guard

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: words that stay as they are in Japanese: game and piece names, the brand, bot specs and
#: notation (a word is a run of two or more Latin letters)
KEPT = {
    "CUBED", "Unstackable", "STAKD", "CUBES", "UNI", "BOMBER", "cubegames", "cube", "games",
    "English", "mcts", "iterations", "random", "greedy", "alphabeta", "policy", "roll",
    "JavaScript",
    "BASE", "DUO", "TRIO", "QUAD", "BLUE",
}  # fmt: skip

#: every visible text node (and what a control shows or says: placeholders, labels, the
#: options of a select), outside the parts given by `skip` (CSS selectors) and the words the
#: page marks as English (`lang="en"`: a plug-in game's title and pitch, its author's own)
VISIBLE = """(skip) => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const shown = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden";
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest("script, style, noscript, option")) continue;
    if (skip && el.closest(skip)) continue;
    if (el.closest('[lang="en"]')) continue;  // marked as English: a plug-in game's own words
    const text = n.textContent.trim();
    if (text && shown(el)) out.push(text);
  }
  for (const el of document.querySelectorAll("[placeholder], [aria-label], select")) {
    if ((skip && el.closest(skip)) || !shown(el)) continue;
    for (const name of ["placeholder", "aria-label"]) {
      if (el.getAttribute(name)) out.push(el.getAttribute(name));
    }
    if (el.tagName === "SELECT") for (const o of el.options) if (!o.lang) out.push(o.textContent);
  }
  return out;
}"""


def english_words(page: Page, skip: str = "") -> list[str]:
    texts: list[str] = page.evaluate(VISIBLE, skip)
    assert texts, "the page shows some text"
    words = {w for text in texts for w in re.findall(r"[A-Za-z]{2,}", text) if w not in KEPT}
    # a CUBED piece in notation: its three colour letters (BGY, ACO)
    return sorted(w for w in words if not re.fullmatch(r"[A-Z]{3}", w))


def _japanese_page(browser: Browser, server: str, size: dict[str, int]) -> tuple[Page, Guard]:
    phone = size is PHONE
    context = browser.new_context(
        viewport=size,
        locale="ja-JP",
        has_touch=phone,
        is_mobile=phone,
        device_scale_factor=2 if phone else 1,
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    return page, Guard(page, server)


@pytest.fixture(params=[DESKTOP, PHONE], ids=["desktop", "phone"])
def ja(
    browser: Browser, server: str, request: pytest.FixtureRequest
) -> Iterator[tuple[Page, Guard]]:
    page, guard = _japanese_page(browser, server, request.param)
    yield page, guard
    page.context.close()


def picture(page: Page, name: str, screenshots: Path, **kwargs: bool) -> None:
    """A screenshot once every animation (a results card fading in) has finished, in
    artifacts/screenshots/ (or where CUBEGAMES_SCREENSHOTS says, as for test_browser.py)."""
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"ja-{name}-{_size(page)}.png"), **kwargs)


def _size(page: Page) -> str:
    return "phone" if page.viewport_size and page.viewport_size["width"] < 600 else "desktop"


def test_the_start_page_in_japanese(ja: tuple[Page, Guard], server: str, screenshots: Path) -> None:
    page, guard = ja
    page.goto(server)
    expect(page.locator("h1")).to_have_text("ゲームを選んで、席に着こう")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator(".game-list li").first).to_be_visible()
    picture(page, "start", screenshots, full_page=True)
    # the names players chose (other tests' tables and games, listed here) are theirs, not
    # the page's words: the page sets each apart as a <bdi class="name">
    names = "bdi.name"
    for game in ("cubed", "unstackable", "stakd", "cubes"):
        page.check(f"#game-{game}", force=True)
        expect(page.locator(".options legend")).to_contain_text("の設定")
        page.locator(".more summary").click()
        assert english_words(page, names) == [], game
        page.locator(".more summary").click()
    page.select_option("#seat-1", "custom")
    assert english_words(page, names) == []
    guard.check()


def test_the_switch_changes_the_language_and_is_remembered(
    ja: tuple[Page, Guard], server: str
) -> None:
    page, guard = ja
    page.goto(server)
    expect(page.locator("button[type=submit].primary")).to_have_text("ゲームを始める")
    page.select_option("header select.language", "en")
    expect(page.locator("button[type=submit].primary")).to_have_text("Start playing")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto(server)  # remembered, though the browser still asks for Japanese
    expect(page.locator("button[type=submit].primary")).to_have_text("Start playing")
    page.select_option("header select.language", "ja")
    expect(page.locator("button[type=submit].primary")).to_have_text("ゲームを始める")
    guard.check()


def test_a_replay_and_a_refusal_in_japanese(
    ja: tuple[Page, Guard], server: str, screenshots: Path
) -> None:
    page, guard = ja
    record = finished_record("cubed", {"players": 2, "rounds": 1})
    made = httpx.post(f"{server}/api/records", content=json.dumps(record)).json()
    total = len(record["moves"])
    page.goto(f"{server}/replay/{made['id']}")
    expect(page.locator(".counter")).to_have_text(f"0 / {total}")
    expect(page.locator("h1")).to_have_text("CUBED · リプレイ")
    page.click("button[aria-label='次の手']")
    expect(page.locator(".counter")).to_have_text(f"1 / {total}")
    page.click("button[aria-label='最後の手']")
    expect(page.locator(".counter")).to_have_text(f"{total} / {total}")
    picture(page, "replay", screenshots)
    # the table, its strip, the last move's line and the list of moves, all in Japanese
    expect(page.locator(".said")).to_have_text(JAPANESE)
    expect(page.locator(".replay-moves li").first).to_have_text(JAPANESE)
    assert english_words(page) == []
    guard.check()
    page.goto(f"{server}/replay/x1")
    expect(page.locator(".notice")).to_contain_text("ゲーム「x1」はありません")
    assert english_words(page) == []
    assert guard.outside == []
    assert all("404 (Not Found)" in error for error in guard.errors), guard.errors


def test_how_to_play_in_japanese(ja: tuple[Page, Guard], server: str) -> None:
    page, guard = ja
    page.goto(server)
    page.check("#game-cubes", force=True)
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r"/play/"))
    rules = page.locator("details.rules")
    expect(rules.locator("summary")).to_have_text("遊び方")
    # the lines arrive with the server's hello; open the box only after that
    expect(rules.locator("li")).not_to_have_count(0)
    if not rules.evaluate("el => el.open"):
        rules.locator("summary").click()
    expect(rules.locator("li").first).to_contain_text("サイコロ")
    shown = rules.locator("summary, li, button").all_inner_texts()
    assert [w for text in shown for w in re.findall(r"[A-Za-z]{2,}", text) if w not in KEPT] == []
    rules.locator("button", has_text="ルール全文").click()
    # the rule page reads as a page: headings, tables, no markdown marks left in sight
    full = rules.locator(".full-rules")
    expect(full.locator("h2").filter(has_text="箱の中身")).to_have_count(1)
    expect(full.locator("table").first).to_be_visible()
    assert not re.search(r"^#|`|\*\*|\|---", full.inner_text(), re.M), full.inner_text()[:300]
    guard.check()


#: the moves in notation (the "Moves in notation" box: notation is never translated)
NOTATION = ".notation"
#: options that make each game short enough to play to its end here
SHORT = {
    "cubed": {"rounds": "1"},
    "unstackable": {},
    "stakd": {"points_to_win": "1"},
    "cubes": {"sets": "1"},
}
#: deals picked where a game of SHORT length can end within two moves: CUBES' one set does
#: on about 6% of deals, too short for the check that it was played through (this deal
#: lasts 12 moves: seat 0 plays the first legal move, the random bot is seeded by the deal)
DEALS = {"cubes": "2"}
#: a Japanese character (kana or kanji)
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
#: wait until the page has this screen's move to make (or the game is over)
MY_TURN_OR_OVER = """() => { const p = window.cubegamesPage;
    return p && p.current && !p.sending && (p.current.over ||
      (p.current.to_move === p.active && p.current.legal.length > 0)); }"""
#: wait until the move log shows every move so far, its newest the position's last move
LOG_CAUGHT_UP = """() => { const p = window.cubegamesPage; const c = p && p.current;
    const rows = [...document.querySelectorAll("details.history .log li:not(.round-head)")];
    return c && (c.ply === 0 || (rows.length && Number(rows.at(-1).value) === c.ply)); }"""


def _to_the_end(page: Page, game: str, shots: Path | None) -> int:
    """Play this screen's seat (the first legal move each turn) against the bot until the
    game is over, checking after each move that the log has caught up and that nothing
    visible but notation is English: the log, the last move's line, the table. Returns the
    number of moves played."""
    for _ in range(400):
        page.wait_for_function(MY_TURN_OR_OVER)
        page.wait_for_function(LOG_CAUGHT_UP)
        ply = page.evaluate("() => window.cubegamesPage.current.ply")
        if ply > 0:
            expect(page.locator(".said")).to_have_text(JAPANESE)
        assert english_words(page, NOTATION) == [], (game, ply)
        if page.evaluate("() => window.cubegamesPage.current.over"):
            return ply
        if shots is not None and ply >= 6:
            page.locator("details.history").scroll_into_view_if_needed()
            picture(page, f"{game}-log", shots)
            shots = None
        page.evaluate("() => { const p = window.cubegamesPage; p.send(p.current.legal[0]); }")
        page.wait_for_function("ply => window.cubegamesPage.current.ply > ply", arg=ply)
    raise AssertionError(f"{game} did not end in 400 turns")


@pytest.mark.parametrize(
    ("size", "game"),
    [
        *((DESKTOP, game) for game in ("cubed", "unstackable", "stakd", "cubes")),
        (PHONE, "cubed"),  # one game to its end on a phone, with its log, is enough
    ],
    ids=["desktop-cubed", "desktop-unstackable", "desktop-stakd", "desktop-cubes", "phone-cubed"],
)
def test_each_game_to_its_end_in_japanese(
    browser: Browser, server: str, screenshots: Path, size: dict[str, int], game: str
) -> None:
    """Each game played to its end in Japanese, against a bot: every visible text node,
    the move log (opened) and the last move's line included, is free of English at every
    turn and on the results; only the moves in notation are passed over."""
    page, guard = _japanese_page(browser, server, size)
    # the words are what is checked here, not the motion: pieces land at once (faster)
    page.emulate_media(reduced_motion="reduce")
    try:
        _play_to_the_end(page, guard, server, screenshots, game)
    finally:
        page.context.close()


def _play_to_the_end(page: Page, guard: Guard, server: str, screenshots: Path, game: str) -> None:
    page.goto(server)
    page.check(f"#game-{game}", force=True)
    for name, value in SHORT[game].items():
        page.fill(f"#opt-{name}", value)
    if game in DEALS:
        page.locator("details.more summary").click()
        page.fill("#seed", DEALS[game])
    page.select_option("#seat-1", "random")  # quick to answer on a busy machine
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_function("() => window.cubegamesPage && window.cubegamesPage.current")
    history = page.locator("details.history")
    history.locator("summary").click()
    expect(history).to_have_attribute("open", "")
    played = _to_the_end(page, game, screenshots if game == "cubed" else None)
    assert played > 2
    results = page.locator(".overlay .results.final")
    expect(results).to_be_visible()
    expect(results.locator("h2")).to_have_text(re.compile("勝ち|引き分け|終"))
    page.wait_for_function(LOG_CAUGHT_UP)
    expect(page.locator("details.history .log li").last).to_have_text(JAPANESE)
    picture(page, f"{game}-results", screenshots)
    assert english_words(page, NOTATION) == []
    guard.check()


#: the game modules, each with its words in the catalogs
CONVERTED = ["cubed", "unstackable", "stakd", "cubes"]


@pytest.mark.parametrize("game", CONVERTED)
def test_a_game_table_in_japanese(
    ja: tuple[Page, Guard], server: str, screenshots: Path, game: str
) -> None:
    page, guard = ja
    page.goto(server)
    page.check(f"#game-{game}", force=True)
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_function(
        """() => { const p = window.cubegamesPage;
            return p && p.current && p.current.to_move === p.active && !p.sending; }"""
    )
    expect(page.locator(".turn-banner")).to_have_text("あなたの番です")
    picture(page, f"{game}-start", screenshots)
    assert english_words(page, NOTATION) == []
    guard.check()


def test_the_japanese_edition_with_eleven_seats(
    ja: tuple[Page, Guard], server: str, screenshots: Path
) -> None:
    """The Japanese box's table for 11 (one person and ten bots) is readable in Japanese:
    every seat listed with its hand, no English word but the move words."""
    page, guard = ja
    page.goto(server)
    page.check("#game-cubed", force=True)
    page.select_option("#opt-edition", "ja")
    page.fill("#opt-players", "11")
    page.fill("#opt-rounds", "1")
    for seat in range(1, 11):
        page.select_option(f"#seat-{seat}", "random")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_function(
        """() => { const p = window.cubegamesPage;
            return p && p.current && p.current.to_move === p.active && !p.sending; }""",
        timeout=60_000,
    )
    seats = page.locator(".seat-list li")
    expect(seats).to_have_count(11)
    expect(seats.first).to_contain_text("手持ち7個")
    for i in range(11):
        assert seats.nth(i).bounding_box() is not None
    page.locator(".hand button").first.click()
    picture(page, "cubed-11-seats", screenshots, full_page=True)
    page.wait_for_function(LOG_CAUGHT_UP)
    assert english_words(page, NOTATION) == []
    guard.check()


def test_refused_files_and_a_spent_invitation_in_japanese(
    browser: Browser, server: str, tmp_path: Path
) -> None:
    """The page tells the server's refusals apart by code, not by their English: a file
    that is no record, a record whose move the rules refuse (the rules' reason inside, in
    Japanese), a record whose result does not match its moves, and an invitation already
    used, each in Japanese with no English word but the move's notation."""
    page, guard = _japanese_page(browser, server, DESKTOP)
    try:
        error = page.locator("form.load .error")

        def load(name: str, text: str) -> None:
            path = tmp_path / name
            path.write_text(text)
            page.goto(server)
            page.set_input_files("#record-file", path)
            page.click("form.load button")

        load("notes.json", '{"moves": []}')
        expect(error).to_have_text(
            "これは cubegames で保存したゲームの記録ではありません。"
            "「記録を保存」で保存したファイルを選んでください。"
        )
        record = finished_record("cubed", {"players": 2, "rounds": 1})
        refused = {**record, "moves": ["pass", *record["moves"][1:]]}
        load("refused.json", json.dumps(refused))
        expect(error).to_contain_text("1手目（pass）はルール上指せない手です: 先にピースを引いて")
        # the file's own name (the reader's) and players' names are passed over
        assert english_words(page, "form.load .error, .file-name, bdi.name") == []
        assert [w for w in re.findall(r"[A-Za-z]{2,}", error.inner_text()) if w != "pass"] == []
        winners = record["result"]["winners"]
        wrong = {**record, "result": {**record["result"], "winners": [1 - winners[0]]}}
        load("wrong.json", json.dumps(wrong))
        expect(error).to_contain_text("記録された結果が手順と合いません")
        assert english_words(page, ".file-name, bdi.name") == []
        seats = [{"kind": "human"}, {"kind": "human", "invite": True}]
        made = httpx.post(f"{server}/api/games", json={"game": "unstackable", "seats": seats})
        invite = made.json()["seats"][1]["invite"]
        game = made.json()["id"]
        claim = f"{server}/api/games/{game}/claim"
        assert httpx.post(claim, json={"invite": invite}).is_success
        page.goto(f"{server}/play/{game}#invite={invite}")
        notice = page.locator(".card.notice")
        expect(notice.locator("h1")).to_have_text("この招待はすでに使われています")
        assert "再発行" in notice.inner_text()
        assert english_words(page) == []
        # the refusals asked for (three files, the spent invitation) are logged by the browser
        guard.errors = [e for e in guard.errors if "status of 400" not in e and "409" not in e]
        guard.check()
    finally:
        page.context.close()


def test_a_plug_in_game_on_the_generic_table_in_japanese(browser: Browser, server: str) -> None:
    """A plug-in game (Nim) on the generic table of a Japanese page: the table's own words
    (whose turn, the typed move's example, the end) and the move log are the catalogs'
    Japanese; only the game's field names, title and notation are its own."""
    from tests.server.test_browser import play_out, ready

    page, guard = _japanese_page(browser, server, DESKTOP)
    try:
        page.goto(server)
        page.check("#game-nim", force=True)
        page.click("button[type=submit].primary")
        page.wait_for_url(re.compile(r"/play/"))
        ready(page)
        note = page.locator(".generic-strip .stage-note")
        expect(note).to_have_text("あなたの番です。手を選ぶか、入力してください。")
        typed = page.locator(".generic-typed input")
        expect(typed).to_have_attribute("placeholder", re.compile(r"^手の例: take \d$"))
        expect(typed).to_have_attribute("aria-label", "記法で書いた手")
        expect(page.locator(".generic-typed button")).to_have_text("決定")
        play_out(page, lambda p, _state: p.click(".generic-moves button.move >> nth=0"))
        expect(note).to_have_text("ゲームは終了しました。")
        log = page.evaluate(
            "() => [...document.querySelectorAll('.log li')].map((l) => l.textContent)"
        )
        assert log and all(re.search(r"の手: take \d", line) for line in log), log
        guard.check()
    finally:
        page.context.close()
