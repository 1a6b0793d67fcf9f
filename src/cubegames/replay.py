"""A game record told in words, in the reader's language (`cubegames replay RECORD.json`).

A record holds data only (`server/records.py`): the moves' notation, the seats, the result
as numbers and codes. This replays it through the engine and words each move as the move
log does (the games' describers, `kit.words`), then the result, in the language the
terminal speaks (`kit.terminal.speaking`), as seat `seat` may know the game (None: as a
spectator; a CUBED piece kept from a draw3 draw stays secret from the others).

>>> import json
>>> from cubegames.kit.terminal import speaking
>>> record = {"format": "cubegames-record", "version": 1, "game": "cubes",
...           "options": {"players": 2, "sets": 1}, "seed": 4, "chance": 2,
...           "seats": [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "random"}],
...           "moves": ["roll"]}
>>> with speaking("ja"):
...     lines = told(json.dumps(record).encode())
>>> lines[0]
'CUBES · 1手'
>>> lines[1].startswith("   1. Ana")
True
"""

from __future__ import annotations

from typing import Any

import cubegames
from cubegames.core import chance
from cubegames.core.game import Game
from cubegames.core.phrase import Worded
from cubegames.core.registry import title
from cubegames.kit import terminal, words
from cubegames.kit.terminal import listed, t
from cubegames.render import web
from cubegames.server.protocol import read_record
from cubegames.server.records import ENDINGS, load_record


def told(raw: bytes, seat: int | None = None) -> list[str]:
    """The lines that tell the record `raw` (the bytes of its file): a title, each move
    in words (its notation after it where the reader may read it), what a roll did, and
    the result. A file that is no record, or one the engine refuses, is a `Worded`
    ValueError (`error-record-…`); a `seat` the game lacks is one too."""
    record = read_record(raw)
    loaded = load_record(record)
    game = cubegames.make(loaded.game, **loaded.options)
    if seat is not None and not 0 <= seat < game.players:
        raise Worded(
            "term-error-seat",
            f"--seat {seat}: this game has seats 0 to {game.players - 1}",
            seat=seat,
            last=game.players - 1,
        )
    names = [_name(s.kind, s.bot, s.name, n, seat) for n, s in enumerate(loaded.seats)]
    names = [  # two seats of the same bot, or of the same name, are told apart
        t("cli-replay-seat-named", seat=t("seat-label", seat=n), name=name)
        if names.count(name) > 1
        else name
        for n, name in enumerate(names)
    ]
    state = chance.new_state(game, loaded.seed, loaded.chance)
    lines = [f"{title(game.id)} · {t('games-moves', moves=len(loaded.moves))}"]
    earlier: list[str] = []
    for number, (mover, move) in enumerate(loaded.moves, 1):
        lines.append(f"{number:>4}. {_words(game, move, mover, seat, earlier, names)}")
        earlier.append(move)
        state.play(move)
        view = state.public_view() if seat is None else state.view(seat)
        note = web.told(game, view)
        if note is not None:
            lines.append(
                f"      {words.phrase(terminal.language(), note.said(), names.__getitem__)}"
            )
    lines += _result(loaded.result, names)
    return lines


def _name(kind: str, bot: str | None, name: str | None, number: int, reader: int | None) -> str:
    """A seat as the reader knows it: "You", its person's name, its bot, or "Seat N"."""
    if number == reader:
        return t("seat-you")
    if name:
        return name
    if kind == "bot" and bot:
        return terminal.bot(bot)
    return t("seat-label", seat=number)


def _words(
    game: Game[Any], move: str, mover: int, seat: int | None, earlier: list[str], names: list[str]
) -> str:
    said = web.described(game, move, mover, seat, earlier)
    visible = web.visible(game, move, mover, seat)
    if said is None:  # a plug-in's own words, in its language
        text = web.words(game, move, mover, seat, earlier)
    else:
        text = words.phrase(terminal.language(), said.said(), names.__getitem__)
    return f"{text}  [{move}]" if visible else text


def _result(result: dict[str, Any] | None, names: list[str]) -> list[str]:
    """The result's lines: how a game ended without a move, the scores, the winners."""
    if result is None:
        return [t("cli-replay-unfinished")]
    lines = []
    ended = result.get("ended")
    if ended in ENDINGS:
        lines.append(t(f"clock-ended-{ended}", who=names[result["seat"]]))
    if ended == "aborted":
        return lines
    scores = listed(
        [t("term-score", who=names[s], points=v) for s, v in enumerate(result["scores"])]
    )
    lines.append(t("term-game-over", scores=scores))
    winners = result["winners"]
    if winners:
        lines.append(
            t("term-winners", names=listed([names[w] for w in winners]), count=len(winners))
        )
    else:
        lines.append(t("term-nobody-won"))
    return lines
