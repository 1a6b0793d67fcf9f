"""The move log's words as phrases of the catalogs: every move of random games of the four
games, told to every seat and a spectator, gives a phrase (`web.described`, CUBES' rolls
`web.told`) whose key is in both catalogs, whose English from the catalog says what the
server's English (`web.words`, `web.tell`) says, and whose Japanese is Japanese."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import cubegames
from cubegames.core.game import Game, State
from cubegames.core.phrase import Phrase, Seat
from cubegames.render import web
from cubegames.server.i18n import phrase, say
from tests.server.test_page_modules import STATIC, _in_node, needs_node

#: the games and options whose moves between them meet every kind of move the describers
#: word (CUBED's draw3, keep, gifts and passes; Unstackable's two stages; CUBES' rolls)
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("cubed", {"players": 2, "rounds": 1}),
    ("cubed", {"players": 3, "variants": ("bridging", "void", "draw3"), "rounds": 1}),
    ("cubed", {"players": 2, "edition": "ja", "variants": ("void",), "rounds": 1}),
    ("unstackable", {}),
    ("stakd", {"players": 2}),
    ("cubes", {"players": 3, "sets": 1}),
    ("cubes", {"players": 2, "referee": True, "sets": 1}),
]

#: the Latin words a Japanese phrase may hold: names, notation and a CUBES faces' letter
KEPT = {"CUBES", "UNI", "DUO", "TRIO", "QUAD", "BASE", "BLUE", "BOMBER"}


def _english(viewer: int | None) -> Any:
    return lambda n: "You" if n == viewer else f"Seat {n}"


def _same(catalog: str, server: str) -> None:
    """The catalog's English and the server's, alike but for a seat's capital (the page
    names seats as it names them everywhere) and the list's comma before "and"."""

    def plain(text: str) -> str:
        return text.replace(", and ", " and ").lower()

    assert plain(catalog) == plain(server)


def _japanese(text: str) -> None:
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text), text
    latin = set(re.findall(r"[A-Za-z]{2,}", text)) - KEPT
    assert not latin, text


def _random_game(gid: str, options: dict[str, Any], seed: int) -> tuple[Game[Any], list[Any]]:
    game = cubegames.make(gid, **options)
    state: State[Any] = game.new_state(seed=seed)
    rng = random.Random(seed)
    steps = []
    for _ in range(400):
        if state.is_over:
            break
        seat = state.to_move
        move = rng.choice(state.legal_moves())
        state.play(move)
        steps.append((str(move), seat, state.clone()))
    return game, steps


@pytest.mark.parametrize(
    ("gid", "options"), GAMES, ids=[f"{g}-{i}" for i, (g, _) in enumerate(GAMES)]
)
def test_every_move_is_a_phrase_worded_alike(gid: str, options: dict[str, Any]) -> None:
    keys: set[str] = set()
    for seed in (1, 2):
        game, steps = _random_game(gid, options, seed)
        moves = [m for m, _, _ in steps]
        for i, (move, mover, after) in enumerate(steps):
            earlier = moves[:i]
            for viewer in (None, *range(game.players)):
                told = web.described(game, move, mover, viewer, earlier)
                assert isinstance(told, Phrase)
                keys.add(told.key)
                english = web.words(game, move, mover, viewer, earlier)
                assert str(told) == english
                said = told.said()
                _same(phrase("en", said, _english(viewer)), english)
                _japanese(phrase("ja", said))
            if web.tells(game):
                for viewer in (None, *range(game.players)):
                    view = after.public_view() if viewer is None else after.view(viewer)
                    text, said = web.telling(game, view)
                    assert text == web.tell(game, view)
                    if said is None:
                        continue
                    keys.add(said[0])
                    _same(phrase("en", said, _english(viewer)), text or "")
                    _japanese(phrase("ja", said))
    assert keys, "the games were told"


def test_the_kinds_of_move_are_all_met() -> None:
    """The random games above meet each of CUBED's kinds of move (so the test words them)."""
    met: set[str] = set()
    for gid, options in GAMES:
        if gid != "cubed":
            continue
        for seed in (1, 2):
            game, steps = _random_game(gid, options, seed)
            moves = [m for m, _, _ in steps]
            for i, (move, mover, _) in enumerate(steps):
                for viewer in (None, mover):
                    told = web.described(game, move, mover, viewer, moves[:i])
                    assert told is not None
                    met.add(told.key)
    assert {
        "words-cubed-laid",
        "words-cubed-drew",
        "words-cubed-passed",
        "words-cubed-drew-many",
        "words-cubed-kept",
        "words-cubed-kept-secret",
    } <= met, met


def test_a_phrase_names_seats_and_says_you() -> None:
    said = Phrase("words-cubed-gave-secret", {"who": Seat(0), "to": Seat(1)}, "").said()
    names = {0: "Ana", 1: "You"}.__getitem__
    assert phrase("en", said, names) == "Ana gave a piece to you."
    names_ja = {0: "Ana", 1: say("ja", "seat-you")}.__getitem__
    assert phrase("ja", said, names_ja) == "Anaがピースを1個あなたに渡しました。"


def test_a_colour_the_catalogs_lack_keeps_its_english() -> None:
    """A home-made edition's colour has no key: its English name is said instead."""
    piece = Phrase(
        "words-cubed-a-piece",
        {
            "count": 1,
            "first": "mauve",
            "c1": Phrase("cubed-colour-mauve", {}, "mauve"),
            "c2": "",
            "c3": "",
        },
        "an all-mauve piece",
    )
    said = Phrase("words-cubed-kept", {"who": Seat(0), "piece": piece}, "").said()
    assert phrase("en", said) == "Seat 0 kept an all-mauve piece."
    assert phrase("ja", said) == "席0はmauve一色のピースを残しました。"
    # as the server sends it: a phrase inside carries its English only where its key is
    # missing from the catalogs (the page words the others itself)
    sent = web.said(Phrase("words-cubed-kept", {"who": Seat(0), "piece": piece}, ""))
    assert sent is not None
    inside = sent[1]["piece"]
    assert "text" not in inside and inside["say"][0] == "words-cubed-a-piece"
    assert inside["say"][1]["c1"] == {"say": ["cubed-colour-mauve", {}], "text": "mauve"}
    assert phrase("en", sent) == "Seat 0 kept an all-mauve piece."
    assert phrase("ja", sent) == "席0はmauve一色のピースを残しました。"


def test_a_phrase_inside_is_sent_alike_however_often_it_is_said() -> None:
    """The same phrase inside (a place, a piece) is made into JSON once and shared by the
    messages that hold it; a different one is not confused with it."""

    def where(rows: int) -> Phrase:
        return Phrase("cubed-rows-only", {"rows": rows, "dir": "up"}, f"{rows} rows above")

    first = web.said(Phrase("words-cubed-laid", {"who": Seat(0), "where": where(2)}, "A"))
    again = web.said(Phrase("words-cubed-laid", {"who": Seat(1), "where": where(2)}, "B"))
    other = web.said(Phrase("words-cubed-laid", {"who": Seat(1), "where": where(3)}, "C"))
    assert first is not None and again is not None and other is not None
    assert first[1]["where"] is again[1]["where"]
    assert other[1]["where"] == {"say": ["cubed-rows-only", {"rows": 3, "dir": "up"}]}
    assert first[1]["who"] == {"seat": 0} and again[1]["who"] == {"seat": 1}


# -- the page words the same phrases alike, numbers and dates as its language writes them --


def _page_in(lang: str) -> str:
    """Node's preamble: the page's i18n.js loaded for a reader whose browser asks `lang`."""
    url = (STATIC / "i18n.js").as_uri()
    return (
        f"globalThis.navigator = {{ languages: [{lang!r}] }};\nconst i18n = await import({url!r});"
    )


@needs_node
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_page_words_a_phrase_as_the_server_does(lang: str) -> None:
    """i18n.js `phrase` and server/i18n.py `phrase` give the same words for the phrases of
    random games (seats named "Seat N" on both sides, so they compare)."""
    saids = []
    for gid, options in GAMES:
        game, steps = _random_game(gid, options, 3)
        moves = [m for m, _, _ in steps]
        for i, (move, mover, after) in enumerate(steps[:60]):
            told = web.described(game, move, mover, 0, moves[:i])
            assert told is not None
            saids.append(told.said())
            if web.tells(game):
                said = web.telling(game, after.view(0))[1]
                if said is not None:
                    saids.append(said)
    expected = [phrase(lang, s, lambda n: say(lang, "seat-label", seat=n)) for s in saids]
    got = _in_node(
        _page_in(lang),
        "input.map((s) => i18n.phrase(s, (n) => i18n.t('seat-label', { seat: n })))",
        saids,
    )
    assert got == expected


@needs_node
def test_numbers_dates_and_lists_follow_the_page_language() -> None:
    answer = (
        "[i18n.lang(), i18n.t('games-moves', { moves: 1200 }), i18n.number(1234567),"
        " i18n.dateTime(new Date(Date.UTC(2026, 10, 27, 7, 5))), i18n.list(['A', 'B', 'C'])]"
    )
    en = _in_node(_page_in("en-GB"), answer, None)
    ja = _in_node(_page_in("ja-JP"), answer, None)
    assert en[:3] == ["en", "1,200 moves", "1,234,567"]
    assert "2026" in en[3] and "Nov" in en[3]
    assert en[4] == "A, B, and C"
    assert ja[:3] == ["ja", "1,200手", "1,234,567"]
    assert "2026/11/27" in ja[3] or "2026年11月27日" in ja[3]
    assert ja[4] == "A、B、C"


@pytest.mark.parametrize(
    ("gid", "options", "move", "key"),
    [
        ("cubed", {"players": 3, "variants": ("void",)}, "give:GPY>2", "words-cubed-gave"),
        ("cubed", {"players": 3, "variants": ("void",)}, "skip", "words-cubed-skipped"),
        ("unstackable", {"exact_counts": False}, "end", "words-unst-ended"),
        ("cubes", {"players": 2, "referee": True}, "roll 1 C . 6 . 3", "words-cubes-rolled-faces"),
    ],
)
def test_the_rarer_moves_are_worded_alike(
    gid: str, options: dict[str, Any], move: str, key: str
) -> None:
    """Moves the random games above seldom meet (a gift, giving nothing, ending a turn
    early, a refereed roll), told to each seat and a spectator: the gift's piece only to
    the giver and the receiver."""
    game = cubegames.make(gid, **options)
    for viewer in (None, *range(game.players)):
        told = web.described(game, move, 0, viewer, ["R@0,0,0"] if gid == "unstackable" else [])
        assert told is not None
        expected = key if viewer in (0, 2) or key != "words-cubed-gave" else f"{key}-secret"
        assert told.key == expected
        _same(phrase("en", told.said(), _english(viewer)), str(told))
        _japanese(phrase("ja", told.said()))
