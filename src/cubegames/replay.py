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

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

import cubegames
from cubegames.core import chance
from cubegames.core.game import Game
from cubegames.core.phrase import Worded
from cubegames.core.registry import title
from cubegames.kit import terminal, words
from cubegames.kit.terminal import listed, t
from cubegames.render import web
from cubegames.server.protocol import (
    MAX_MOVE,
    MAX_MOVES,
    MAX_RECORD,
    RecordSeat,
    WordedProtocolError,
    describe_error,
    read_record,
    too_deep,
)
from cubegames.server.records import ENDINGS, load_record

#: what identifies a seat's view of an unfinished game (`server.records.seat_record`)
SEAT_VIEW = "cubegames-seat-view"


def told(raw: bytes, seat: int | None = None) -> list[str]:
    """The lines that tell the record `raw` (the bytes of its file): a title, each move
    in words (its notation after it where the reader may read it), what a roll did, and
    the result. A file that is no record, or one the engine refuses, is a `Worded`
    ValueError (`error-record-…`); a `seat` the game lacks is one too.

    A seat's view of an unfinished game (`"format": "cubegames-seat-view"`) is told as
    that seat saw it, each move from its phrase (`say`)."""
    head = _json(raw)
    if isinstance(head, dict) and head.get("format") == SEAT_VIEW:
        return _told_view(head, seat)
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
    names = _names(loaded.seats, seat)
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


def _names(seats: Any, reader: int | None) -> list[str]:
    """The seats' names as the reader knows them, two seats of the same bot (or of the
    same name) told apart by their numbers."""
    names = [_name(s.kind, s.bot, s.name, n, reader) for n, s in enumerate(seats)]
    return [
        t("cli-replay-seat-named", seat=t("seat-label", seat=n), name=name)
        if names.count(name) > 1
        else name
        for n, name in enumerate(names)
    ]


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


def _json(raw: bytes) -> Any:
    """The file's JSON when it can be read within the record's bounds (else None: the
    record's reader says what is wrong)."""
    if len(raw) > MAX_RECORD or too_deep(raw):
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return None


class _ViewMove(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    seat: Annotated[int, Field(ge=0, le=19)]
    text: Annotated[str, Field(max_length=2000)]
    say: list[Any] | None = None
    move: Annotated[str, Field(min_length=1, max_length=MAX_MOVE)] | None = None


class _SeatView(BaseModel):
    """A seat's view of an unfinished game, as `server.records.seat_record` writes it."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["cubegames-seat-view"]
    version: Literal[1]
    game: Annotated[str, Field(max_length=32)]
    options: dict[str, Any] = Field(default_factory=dict)
    seat: Annotated[int, Field(ge=0, le=19)]
    seats: Annotated[list[RecordSeat], Field(min_length=1, max_length=20)]
    moves: Annotated[list[_ViewMove], Field(max_length=MAX_MOVES)]
    id: str | None = None
    created: str | None = None


def _told_view(data: dict[str, Any], seat: int | None) -> list[str]:
    """A seat's view told as that seat saw it: each move's phrase worded (a plug-in's own
    words, `say` null, as they are), its notation where the seat could read it."""
    try:
        view = _SeatView.model_validate(data)
    except ValidationError as exc:
        loc = exc.errors(include_url=False)[0]["loc"]
        field = ".".join(str(part) for part in loc)[:80] or "record"
        raise WordedProtocolError(
            "error-record-field", f"bad record: {describe_error(exc)}", field=field
        ) from None
    if seat is not None and seat != view.seat:
        raise Worded(
            "cli-replay-view-of",
            f"this file is seat {view.seat}'s own view of the game: it is told as that seat saw it",
            seat=view.seat,
        )
    try:
        game = cubegames.make(view.game, **view.options)
    except (ValueError, TypeError) as exc:
        why = exc.phrase if isinstance(exc, Worded) else str(exc)
        raise WordedProtocolError(
            "error-record-options", f"bad record: {exc}", reason=why
        ) from None
    if len(view.seats) != game.players or view.seat >= game.players:
        raise WordedProtocolError(
            "error-record-seats",
            f"bad record: this {view.game} game has {game.players} seats, "
            f"the record lists {len(view.seats)}",
            game=view.game,
            seats=game.players,
            listed=len(view.seats),
        )
    names = _names(view.seats, view.seat)
    lines = [f"{title(game.id)} · {t('games-moves', moves=len(view.moves))}"]
    for number, move in enumerate(view.moves, 1):
        text = move.text
        if move.say is not None:
            try:
                text = words.phrase(terminal.language(), move.say, names.__getitem__)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                raise WordedProtocolError(
                    "error-record-field",
                    f"bad record: moves.{number - 1}.say: not a phrase of the catalogs",
                    field=f"moves.{number - 1}.say",
                ) from None
        lines.append(f"{number:>4}. {text}  [{move.move}]" if move.move else f"{number:>4}. {text}")
    lines.append(t("cli-replay-unfinished"))
    return lines
