"""Game record files: writing a stored game out, and reading one back in.

A record is JSON:

```json
{"format": "cubegames-record", "version": 1, "id": "Xa3k_9Qp",
 "game": "cubed", "options": {"players": 2, "edition": "en", "variants": [], "rounds": 1},
 "seed": 7, "chance": 2,
 "seats": [{"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "greedy"}],
 "moves": ["draw", "GPY@0,0", "..."],
 "result": {"scores": [3.0, 0.0], "winners": [1]},
 "created": "2025-01-01T12:00:00Z", "finished": "2025-01-01T12:20:00Z"}
```

The seed and the moves fix the whole game, hidden parts included, in the chance version
the game was dealt in (`chance`, see `core.chance`: a record without it, as the releases
before chance version 2 wrote them, is of version 1, whose CUBED games draw their later
deals from a hash of the position). So a record of a game still being played would tell
its hidden hands: the app hands one out only once the game
is over (a seat may save its own view of an unfinished game, without the seed).

A record holds data, never sentences: the moves' notation, the seats' kinds, bots and
names, the result as numbers and codes (`{"scores", "winners"}`, and for a game ended
without a move `"ended": "time" | "resigned" | "gone" | "aborted"` with the `"seat"` it
concerns). So a record is the same in every language, and whoever shows it words it in
its reader's language (the page's replay, `cubegames replay --lang ja`).

A seat's view of an unfinished game (`seat_record`, `"format": "cubegames-seat-view"`)
tells each move as the seat may know it: `move` (the notation, only where the seat may
read it) and `say`, the move's words as a phrase of the catalogs (`[key, params]`, as the
protocol sends it), beside `text`, the same words in English, kept as they were for the
programs that read them.

Loading replays every move through the engine; the first move that does not replay, an
option the web app does not take, or a result that disagrees with the moves is refused
with a reason. A loaded game is a new game (new links); an unfinished one can be played on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cubegames
from cubegames.core import chance
from cubegames.core.errors import IllegalMove
from cubegames.core.game import Game
from cubegames.core.phrase import Phrase, Worded
from cubegames.kit.words import refused
from cubegames.render import web
from cubegames.server.catalog import build
from cubegames.server.protocol import (
    RECORD_FORMAT,
    RECORD_VERSION,
    Record,
    WordedProtocolError,
)
from cubegames.server.rooms import result_of
from cubegames.server.storage import GameInfo, NewSeat, iso


def to_record(info: GameInfo) -> dict[str, Any]:
    """The record file of a stored game."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "id": info.id,
        "game": info.game,
        "options": info.options,
        "seed": info.seed,
        "chance": info.chance,
        "seats": [
            {
                k: v
                for k, v in (
                    ("kind", s.kind),
                    ("bot", s.bot),
                    ("name", s.name),
                    # a person's seat the bot played from this move on (out of time, gone)
                    ("zombie_from", s.zombie_from),
                )
                if v is not None
            }
            for s in info.seats
        ],
        "moves": [m.move for m in info.moves],
        "result": info.result,
        # where moves were taken back (the moves above are the line played on)
        **(
            {
                "takebacks": [
                    {"ply": t.ply, "seat": t.seat, "moves": list(t.moves)} for t in info.takebacks
                ]
            }
            if info.takebacks
            else {}
        ),
        "created": iso(info.created_at),
        "finished": iso(info.finished_at),
    }


def seat_record(info: GameInfo, game: Game[Any], seat: int) -> dict[str, Any]:
    """The record of an unfinished game as `seat` may know it: no seed, each move as
    the seat may know it (its notation only where `seat` may read it, its words as a
    phrase of the catalogs, `say`, and in English, `text`). A seat handed to the bot
    (`zombie_from`) is told the bot's moves as a spectator is: its player left the hand
    to the bot. It cannot be loaded back."""
    handed = next((s.zombie_from for s in info.seats if s.seat == seat), None)
    moves: list[dict[str, Any]] = []
    earlier: list[str] = []
    for m in info.moves:
        viewer = seat if handed is None or m.ply < handed else None
        text, phrase = web.worded(game, m.move, m.seat, viewer, earlier)
        moves.append(
            {
                "seat": m.seat,
                "text": text,
                "say": web.said(phrase),
                **({"move": m.move} if web.visible(game, m.move, m.seat, viewer) else {}),
            }
        )
        earlier.append(m.move)
    return {
        "format": "cubegames-seat-view",
        "version": 1,
        "id": info.id,
        "game": info.game,
        "options": info.options,
        "seat": seat,
        "seats": [{"kind": s.kind, "bot": s.bot, "name": s.name} for s in info.seats],
        "moves": moves,
        "created": iso(info.created_at),
    }


@dataclass(frozen=True)
class Loaded:
    """A record checked and replayed: what the database needs to store it as a new game."""

    game: str
    options: dict[str, Any]
    seed: int
    seats: list[NewSeat]
    moves: list[tuple[int, str]]
    result: dict[str, Any] | None
    #: the chance version it was dealt in
    chance: int


def _same(a: Any, b: Any) -> bool:
    """Results compare with numbers as numbers (a file may write 3 for 3.0)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


#: how a game may end without a move (`referee`)
ENDINGS = ("time", "resigned", "gone", "aborted")


def _ended_by_no_move(result: dict[str, Any] | None, players: int) -> bool:
    """Whether `result` is a well-formed end of a game by no move."""
    if result is None or result.get("ended") not in ENDINGS:
        return False
    winners, seat, scores = result.get("winners"), result.get("seat"), result.get("scores")
    return (
        set(result) == {"ended", "winners", "seat", "scores"}
        and isinstance(scores, list)
        and len(scores) == players
        and all(
            isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
            for x in scores
        )
        and isinstance(winners, list)
        and all(isinstance(w, int) and 0 <= w < players for w in winners)
        and isinstance(seat, int)
        and 0 <= seat < players
    )


def _palette(game: Game[Any]) -> dict[str, Any]:
    """The game's colours by letter, which the rules' reasons name colours by (none for a
    game whose drawing names none)."""
    palette = web.info(game).get("palette")
    return palette if isinstance(palette, dict) else {}


def load_record(record: Record) -> Loaded:
    """Check a record and replay it through the engine; ProtocolError says what is wrong."""
    try:
        game = build(record.game, record.options)
    except ValueError as exc:
        why: str | Phrase = exc.phrase if isinstance(exc, Worded) else str(exc)
        raise WordedProtocolError(
            "error-record-options", f"bad record: {exc}", reason=why
        ) from None
    if len(record.seats) != game.players:
        raise WordedProtocolError(
            "error-record-seats",
            f"bad record: this {record.game} game has {game.players} seats, "
            f"the record lists {len(record.seats)}",
            game=record.game,
            seats=game.players,
            listed=len(record.seats),
        )
    seats: list[NewSeat] = []
    for i, seat in enumerate(record.seats):
        if seat.kind == "bot":
            if seat.bot is None:
                raise WordedProtocolError(
                    "error-record-bot-name",
                    f"bad record: seats.{i}: a bot seat needs its bot's name",
                    seat=i,
                )
            try:
                cubegames.bot(seat.bot)
            except (ValueError, TypeError) as exc:
                reason: str | Phrase = exc.phrase if isinstance(exc, Worded) else str(exc)
                raise WordedProtocolError(
                    "error-record-seat-bot",
                    f"bad record: seats.{i}: {exc}",
                    seat=i,
                    reason=reason,
                ) from None
        seats.append(NewSeat(seat.kind, seat.bot if seat.kind == "bot" else None, seat.name))
    state = chance.new_state(game, record.seed, record.chance)
    moves: list[tuple[int, str]] = []
    for n, text in enumerate(record.moves, 1):
        seat_no = state.to_move
        if seat_no is None:
            raise WordedProtocolError(
                "error-record-move-over",
                f"move {n} ({text}): the game was already over",
                number=n,
                move=text[:80],
            )
        try:
            move = game.parse_move(text)
            state.play(move)
        except IllegalMove as exc:
            raise WordedProtocolError(
                "error-record-move-refused",
                f"move {n} ({text}) is refused: {exc}",
                number=n,
                move=text[:80],
                reason=refused(game.id, exc.refusal, _palette(game)),
            ) from None
        moves.append((seat_no, str(move)))
    result = result_of(state) if state.is_over else None
    if result is None and _ended_by_no_move(record.result, len(seats)):
        # out of time, resigned, gone or aborted: the result the moves cannot give
        return Loaded(
            record.game, game.options, record.seed, seats, moves, record.result, record.chance
        )
    if record.result is not None and not _same(record.result, result):
        said = "an unfinished game" if result is None else f"{result}"
        raise WordedProtocolError(
            "error-record-result",
            f"the record's result {record.result} does not match its moves, which give {said}",
        )
    return Loaded(record.game, game.options, record.seed, seats, moves, result, record.chance)
