"""The REST API (`/api/...`), all JSON but the rules:

- `GET /api/catalog`: the games, their options, the bot presets;
- `GET /api/rules/{game}`: the full rules of a game, as markdown (docs/rules/);
- `POST /api/games`: make a game (`CreateGame`); the answer holds each human seat's token;
- `POST /api/games/{id}/claim`: take an invited seat with its one-time invitation;
- `POST /api/games/{id}/seats/{seat}/reissue`: the host gives a seat a new invitation;
- `GET /api/games?status=&limit=&ids=`: the latest public games, and those named by `ids`;
- `GET /api/games/{id}`: one game: seats, status, result, its moves in words;
- `GET /api/games/{id}/record`: the record file (a finished game, or with a seat's
  credential its own view of the game so far);
- `GET /api/games/{id}/replay?ply=&seat=`: the table after move `ply` (its view, the last
  move, and an SVG drawing for other programs), seen by a spectator, or by a seat (once
  the game is over, or with that seat's credential);
- `POST /api/records`: load a record file; the answer is the new game and its tokens.

A credential travels as `Authorization: Bearer ...`, never in the address.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import timedelta
from functools import partial
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse

import cubegames
from cubegames import rulebook
from cubegames.core.game import Game
from cubegames.core.phrase import Phrase, Worded
from cubegames.render import web
from cubegames.server import clocks
from cubegames.server.accounts import bot_name, current_user, guest_name
from cubegames.server.catalog import build, catalog
from cubegames.server.context import Server, bearer, client_of, parts
from cubegames.server.i18n import Said, language_of
from cubegames.server.limits import check_bot
from cubegames.server.protocol import (
    MAX_RECORD,
    MAX_SEED,
    ClaimSeat,
    CreateGame,
    ProtocolError,
    WordedProtocolError,
    read_record,
)
from cubegames.server.records import load_record, seat_record, to_record
from cubegames.server.rooms import RoomError, result_of, run_clocks
from cubegames.server.storage import (
    FINISHED,
    HUMAN,
    NAME_LENGTH,
    PLAYING,
    GameInfo,
    GameSummary,
    NewSeat,
    Unstorable,
    iso,
    new_token,
    storable,
    token_hash,
)

#: the bits of a deal the server makes
SEED_BITS = 128

router = APIRouter(prefix="/api")
log = logging.getLogger("cubegames.server")

#: the app's parts, for a route that needs them
Parts = Annotated[Server, Depends(parts)]


async def load(server: Server, game_id: str) -> GameInfo:
    """The stored game, or 404."""
    info = await asyncio.to_thread(server.store.load, game_id)
    if info is None:
        raise Said(404, "error-no-game", game=game_id)
    return info


async def credential_seat(server: Server, request: Request, game_id: str) -> int | None:
    """The seat the request's credential (`Authorization: Bearer ...`) opens, or None
    without one; 403 for a credential that opens nothing, 400 for one in the address."""
    if "token" in request.query_params:
        raise Said(400, "error-token-in-address")
    token = bearer(request)
    if token is None:
        return None
    seat = await asyncio.to_thread(server.store.seat_of, game_id, token)
    if seat is None:
        raise Said(403, "error-credential-opens-nothing")
    return seat


async def rate_limited(server: Server, request: Request) -> None:
    """429 if the client has made as many games as it may this minute."""
    wait = await server.games_made.allow(client_of(request))
    if wait is not None:
        raise Said(
            429,
            "error-too-many-games",
            headers={"Retry-After": str(math.ceil(wait))},
            count=server.limits.games_per_minute,
            wait=timedelta(seconds=math.ceil(wait)),
        )


async def seat_change_allowed(server: Server, request: Request, game_id: str) -> None:
    """429 if this client, or anyone in this game, has claimed or reissued as many seats
    as it may this minute."""
    held = server.seat_changes.allow(client_of(request), game_id)
    if held is None:
        return
    which, wait = held
    limits = server.limits
    retry = {"Retry-After": str(math.ceil(wait))}
    after = timedelta(seconds=math.ceil(wait))
    if which == "client":
        raise Said(
            429,
            "error-too-many-seat-changes-client",
            headers=retry,
            count=limits.seat_changes_per_client,
            wait=after,
        )
    raise Said(
        429,
        "error-too-many-seat-changes-game",
        headers=retry,
        count=limits.seat_changes_per_game,
        wait=after,
    )


@router.get("/catalog")
async def get_catalog() -> dict[str, Any]:
    """The games, their options and the bots on offer."""
    return catalog()


@router.get("/rules/{game}", response_class=PlainTextResponse)
async def get_rules(
    game: str,
    request: Request,
    shape: Annotated[Literal["markdown", "html"], Query(alias="format")] = "markdown",
) -> PlainTextResponse:
    """The full rules of a game, as markdown (docs/rules/<game>.md, docs/rules/ja/...),
    in the language of `?lang=` or else of Accept-Language; with `?format=html`, as the
    HTML fragment the game page shows (`rulebook.html`: no markup of the page's own)."""
    if game not in cubegames.GAMES:
        raise Said(404, "error-no-rules", game=game, games=", ".join(cubegames.GAMES))
    try:
        if shape == "html":
            fragment = rulebook.html(game, language_of(request))
            return PlainTextResponse(fragment, media_type="text/html; charset=utf-8")
        page = rulebook.text(game, language_of(request))
    except ValueError as exc:
        raise HTTPException(404, str(exc)) from None
    return PlainTextResponse(page, media_type="text/markdown; charset=utf-8")


@router.post("/games", status_code=201)
async def create_game(body: CreateGame, request: Request, server: Parts) -> dict[str, Any]:
    """Make a game; the answer holds the host's credential, the credential of each
    seat played here and the one-time invitation of each invited seat (shown only
    now)."""
    await rate_limited(server, request)
    try:
        game = build(body.game, body.options)
    except ValueError as exc:
        raise Said.of(400, exc, game=body.game) from None
    if len(body.seats) != game.players:
        raise Said(400, "error-seat-count", seats=game.players, given=len(body.seats))
    user = await current_user(request)
    named = False
    seats: list[NewSeat] = []
    for i, seat in enumerate(body.seats):
        if seat.kind == HUMAN and not seat.invite and user is not None and not named:
            # the first seat played here by a signed-in person is theirs, under their name
            seats.append(NewSeat(HUMAN, None, user.name, user_id=user.id))
            named = True
            continue
        if seat.name:
            try:  # what no database can hold is named as such first
                storable(f"seats.{i}.name", seat.name, NAME_LENGTH)
            except Unstorable as exc:
                raise Said.of(400, exc) from None
            # a bot's name is shown where a person's would be: checked as one
            checker = guest_name if seat.kind == HUMAN else bot_name
            seat = seat.model_copy(update={"name": await checker(request, seat.name)})
        if seat.kind == "bot":
            spec = seat.bot or "random"
            try:
                check_bot(spec, body.game, server.limits)
            except ValueError as exc:
                within = Phrase("error-seat-bot", {"seat": i}, f"seats.{i}: {exc}")
                raise Said.of(400, exc, within) from None
            seats.append(NewSeat("bot", spec, seat.name or None))
        else:
            # another seat played at a signed-in person's screen (hot seat) is theirs too
            mine = user.id if user is not None and not seat.invite else None
            seats.append(NewSeat(HUMAN, None, seat.name or None, invited=seat.invite, user_id=mine))
    try:
        control = clocks.parse(
            body.clock,
            max_minutes=server.limits.clock_max_minutes,
            max_increment=server.limits.clock_max_increment,
        )
    except ValueError as exc:
        raise Said.of(400, exc) from None
    if body.seed is not None and any(s.invited for s in seats):
        raise Said(400, "error-seed-with-invite")
    if body.rated:
        _rated_table(user, body.seed, control.timed, seats)
    return await open_table(
        server,
        game,
        seats,
        control,
        seed=body.seed,
        rated=body.rated,
        public=body.public,
        client=client_of(request),
    )


def _deal_and_show(game: Game[Any], seed: int) -> None:
    """Deal `game` from `seed` and write what the server stores and sends of the deal as
    JSON (the whole state, each seat's view, a spectator's): a `ValueError` names the part
    that is not JSON, so that a deal the pages could not be sent fails here."""
    state = game.new_state(seed)
    parts: list[tuple[str, Any]] = [("the position (to_dict)", state.to_dict)]
    parts += [(f"seat {seat}'s view", partial(state.view, seat)) for seat in range(game.players)]
    parts.append(("a spectator's view", state.public_view))
    for name, made in parts:
        try:
            json.dumps(made())
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} is not JSON ({exc})") from None


def _why(exc: Exception) -> str:
    """A plug-in's failure in one line: a `ValueError`'s words (the contract's refusal),
    else only the error's kind (any other error is a bug of the game, whose words may name
    what the deal hides; the server's log has it whole)."""
    return str(exc) if isinstance(exc, ValueError) else type(exc).__name__


async def open_table(
    server: Server,
    game: Game[Any],
    seats: list[NewSeat],
    control: clocks.TimeControl,
    *,
    seed: int | None = None,
    rated: bool = False,
    public: bool = False,
    client: str | None = None,
) -> dict[str, Any]:
    """Store a new table of `game` (its settings checked already), dealt by the server unless `seed`
    picks the deal, and tell the lobby if it is `public` (429 if `client` has as many
    public tables waiting for players as it may); the answer of `POST /api/games`: the
    host's credential, each seat's credential or invitation."""
    # what the database keeps of the address that opens a public table: a hash
    maker = token_hash(client) if public and client is not None else None
    if maker is not None and any(s.invited for s in seats):
        most = server.limits.open_tables_per_client
        if await asyncio.to_thread(server.store.open_tables_of, maker) >= most:
            raise Said(429, "error-open-tables", count=most)
    # 128 bits from the operating system: a seat's own hand cannot identify the deal
    dealt = seed if seed is not None else server_deal()
    try:  # dealt once now: a game that cannot take the seed, or whose deal the pages cannot
        # be sent (a plug-in's), is refused here, not stored to fail at every page that opens it
        await asyncio.to_thread(_deal_and_show, game, dealt)
    except Exception as exc:  # a plug-in's own code may raise anything
        log.warning("game %s cannot be dealt", game.id, exc_info=True)
        raise HTTPException(400, f"game {game.id!r} cannot be dealt: {_why(exc)}") from None
    host = new_token()
    try:
        game_id, tokens = await asyncio.to_thread(
            server.store.create,
            game.id,
            game.options,
            dealt,
            seats,
            (),
            None,
            host,
            control.to_json(),
            server.now(),
            rated=rated,
            public=public,
            deal_picked=seed is not None,
            maker=maker,
        )
    except Unstorable as exc:
        raise Said.of(400, exc) from None
    if public:
        server.lobby.changed()
    if all(s.kind == "bot" for s in seats):  # nobody to wait for: it plays out unwatched
        await server.hub.play_unwatched(game_id)
    return _created(game_id, game.id, seats, tokens, PLAYING, host)


def _broken(game_id: str, exc: RoomError) -> HTTPException:
    """409 for a stored game whose moves no longer replay (which move, in English, never
    its notation nor the engine's reason, which go to the log; `error-game-broken` in
    another language)."""
    log.warning("game %s cannot be replayed: %s", game_id, exc)
    return Said.of(409, Worded("error-game-broken", exc.told, game=game_id))


def _rated_table(user: Any, seed: int | None, timed: bool, seats: list[NewSeat]) -> None:
    """400 unless a table may be rated: made signed in, dealt by the server, timed, its
    people the host (one seat) and invited accounts."""
    if user is None:
        raise Said(400, "error-rated-signed-out")
    if seed is not None:
        raise Said(400, "error-rated-seed")
    if not timed:
        raise Said(400, "error-rated-clock")
    if sum(s.kind == HUMAN and not s.invited for s in seats) != 1:
        raise Said(400, "error-rated-seats")


def _created(
    game_id: str,
    game: str,
    seats: list[NewSeat],
    tokens: list[str],
    status: str,
    host: str,
) -> dict[str, Any]:
    def secret(s: NewSeat, t: str) -> dict[str, str]:
        if s.kind != HUMAN:
            return {}
        return {"invite": t} if s.invited else {"token": t}

    return {
        "id": game_id,
        "game": game,
        "status": status,
        "host": host,
        "seats": [
            {"seat": i, "kind": s.kind, "bot": s.bot, "name": s.name, **secret(s, t)}
            for i, (s, t) in enumerate(zip(seats, tokens, strict=True))
        ],
    }


@router.post("/games/{game_id}/claim")
async def claim_seat(
    game_id: str, body: ClaimSeat, request: Request, server: Parts
) -> dict[str, Any]:
    """Take the seat of a one-time invitation: the answer is the seat's own credential
    (kept by this browser); the invitation is spent."""
    await seat_change_allowed(server, request, game_id)
    info = await load(server, game_id)
    user = await current_user(request)
    if info.rated and user is None:
        raise Said(403, "error-rated-claim-signed-out")
    if user is not None and any(s.user_id == user.id for s in info.seats) and info.rated:
        raise Said(409, "error-rated-twice")
    claimed = await asyncio.to_thread(
        server.store.claim,
        game_id,
        body.invite,
        user.id if user else None,
        user.name if user else None,
    )
    if claimed is None:
        raise Said(409, "error-invite-used")
    seat, credential = claimed
    room = server.rooms.rooms.get(game_id)
    if room is not None:
        await room.seat_changed(seat, "claimed")
    await asyncio.to_thread(
        server.bus.publish, {"kind": "seat", "game": game_id, "seat": seat, "how": "claimed"}
    )
    await server.chats.system(game_id, "joined", seat=seat)
    server.lobby.changed()
    return {"id": game_id, "seat": seat, "token": credential}


@router.post("/games/{game_id}/seats/{seat}/reissue")
async def reissue_seat(game_id: str, seat: int, request: Request, server: Parts) -> dict[str, Any]:
    """The host gives a seat a new invitation (a player who lost their seat): the old
    credential opens nothing more, and every page of the game is told."""
    await seat_change_allowed(server, request, game_id)
    info = await load(server, game_id)
    token = bearer(request)
    if token is None or not await asyncio.to_thread(server.store.is_host, game_id, token):
        raise Said(403, "error-only-host")
    if not 0 <= seat < len(info.seats) or info.seats[seat].kind != HUMAN:
        raise Said(400, "error-not-a-person", seat=seat)
    if info.status == FINISHED:
        raise Said(409, "error-game-over")
    if picked(info.seed):
        raise Said(409, "error-deal-picked")
    if info.rated and info.seats[seat].user_id is not None:
        # its player gets it back by signing in anywhere; a new invitation would only let
        # the host hand a rated seat, mid-game, to somebody else
        raise Said(409, "error-rated-reissue")
    invite = await asyncio.to_thread(server.store.reissue, game_id, seat)
    room = server.rooms.rooms.get(game_id)
    if room is not None:
        await room.seat_changed(seat, "reissued")
    await asyncio.to_thread(
        server.bus.publish, {"kind": "seat", "game": game_id, "seat": seat, "how": "reissued"}
    )
    return {"id": game_id, "seat": seat, "invite": invite}


#: the most game ids `GET /api/games?ids=` reads (a page's own games)
MAX_IDS = 100


@router.get("/games")
async def list_games(
    server: Parts,
    status: Annotated[str | None, Query(pattern="^(playing|finished)$")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    ids: Annotated[str, Query(max_length=MAX_IDS * 25)] = "",
) -> list[dict[str, Any]]:
    """The latest public games, newest first, and those of `ids` (comma-separated: the
    games a page holds seats of or made), public or not. A private game is never listed
    to anyone else: its link is its invitation."""
    also = [i for i in ids.split(",") if i][:MAX_IDS]
    found = await asyncio.to_thread(server.store.summaries, status, limit, public=True, also=also)
    return [
        {
            "id": g.id,
            "game": g.game,
            "options": g.options,
            "status": g.status,
            "created": iso(g.created_at),
            "finished": iso(g.finished_at),
            "result": g.result,
            "moves": g.moves,
            "seats": _seats_json(g),
            "public": g.public,
            "deal_picked": g.deal_picked,
        }
        for g in found
    ]


@router.get("/games/{game_id}")
async def game_detail(game_id: str, server: Parts) -> dict[str, Any]:
    """One game: its settings, seats, status and moves (in words a spectator may read;
    the notation too once the game is over), and the fixed facts its page draws with
    (`info`, as in the websocket's `hello`)."""
    info = await load(server, game_id)
    game = build_trusted(info)
    over = info.status == FINISHED
    moves = await server.replays.told(info, game, over)
    return {
        "id": info.id,
        "game": info.game,
        "options": info.options,
        "players": game.players,
        "status": info.status,
        "created": iso(info.created_at),
        "finished": iso(info.finished_at),
        "result": info.result,
        "seats": _seats_json(info),
        "clock": clocks.TimeControl.from_json(info.time_control).to_json(),
        "moves": moves,
        # where moves were taken back: how many, not which (they may have been secret)
        "takebacks": [
            {"ply": t.ply, "seat": t.seat, "moves": len(t.moves)} for t in info.takebacks
        ],
        "seed": info.seed if over else None,
        "info": web.info(game),
        "public": info.public,
        # its maker picked the deal and may know every hand: never rated
        "deal_picked": info.deal_picked,
    }


@router.get("/games/{game_id}/turn")
async def game_turn(game_id: str, server: Parts) -> dict[str, Any]:
    """Whose turn it is and the clocks, for the start page's "your turn" list: from the
    live game if this process holds it, else from the stored moves (through the replay
    cache, as `replay` does)."""
    room = server.rooms.rooms.get(game_id)
    if room is not None:
        return {
            "ply": room.ply,
            "to_move": room.to_move,
            "clock": room.clocks.message(server.now().timestamp()),
        }
    info = await load(server, game_id)
    if info.status == FINISHED:
        return {"ply": len(info.moves), "to_move": None, "clock": None}
    with _shown(info.id, len(info.moves)):
        game, state, played = await server.replays.step(info, len(info.moves))
    clocks = run_clocks(info, game.players, played, state.to_move)
    return {
        "ply": len(info.moves),
        "to_move": state.to_move,
        "clock": clocks.message(server.now().timestamp()),
    }


@router.get("/games/{game_id}/record")
async def download_record(game_id: str, request: Request, server: Parts) -> JSONResponse:
    """The game's record file, seed and all, once the game is over. Before that a full
    record would tell every hidden piece: a seat (by its credential) gets its own view
    of the game so far instead, without the seed; anyone else is refused."""
    seat = await credential_seat(server, request, game_id)
    info = await load(server, game_id)
    filename = f"cubegames-{info.game}-{info.id}.json"
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
    if info.status == FINISHED:
        return JSONResponse(to_record(info), headers=headers)
    if seat is None:
        raise Said(403, "error-record-hidden")
    # every move in words: a long game's take a while, in a worker thread
    with _shown(info.id, len(info.moves)):
        mine = await asyncio.to_thread(seat_record, info, build_trusted(info), seat)
    return JSONResponse(mine, headers=headers)


@router.get("/games/{game_id}/replay")
async def replay_step(
    game_id: str,
    request: Request,
    server: Parts,
    ply: Annotated[int, Query(ge=0)] = 0,
    seat: Annotated[int | None, Query(ge=0)] = None,
) -> dict[str, Any]:
    """The table after move `ply`, seen by a spectator or by `seat` (a seat's view
    needs the game over, or that seat's credential)."""
    mine = await credential_seat(server, request, game_id)
    info = await load(server, game_id)
    if seat is not None:
        if seat >= len(info.seats):
            raise Said(400, "error-no-seat", seat=seat)
        if info.status != FINISHED and mine != seat:
            raise Said(403, "error-seat-view")
    total = len(info.moves)
    ply = min(ply, total)
    handed = next((s.zombie_from for s in info.seats if s.seat == seat), None)
    if info.status != FINISHED and handed is not None and ply >= handed:
        # the seat is the bot's from move `handed` on: its player saw the hand until then
        raise Said(403, "error-seat-handed", ply=handed)
    with _shown(info.id, ply):
        game, state, played = await server.replays.step(info, ply)
        return _replay_frame(game, state, played, ply, total, seat)


@contextmanager
def _shown(game_id: str, ply: int) -> Iterator[None]:
    """Show a stored game up to move `ply`, or answer 409 (`_broken`): its moves no longer
    replay (a `RoomError`), or the game's own code fails on a position of it (a plug-in's
    `view` or rules raising late in a game). The server's log has such an error whole; a
    page is told only that the game can no longer be shown, never the error's words (they
    may name what a hand holds)."""
    try:
        yield
    except HTTPException:  # the request's own refusal, not the game's failure
        raise
    except RoomError as exc:
        raise _broken(game_id, exc) from None
    except Exception as exc:  # a plug-in's own code may raise anything
        log.warning("game %s failed to show move %d", game_id, ply, exc_info=exc)
        failed = RoomError(
            f"game {game_id}'s code failed at move {ply}: {type(exc).__name__}",
            f"game {game_id} cannot be shown at move {ply}",
        )
        raise _broken(game_id, failed) from None


def _replay_frame(
    game: Game[Any], state: Any, played: list[Any], ply: int, total: int, seat: int | None
) -> dict[str, Any]:
    """What `GET /api/games/{id}/replay` answers: the table after move `ply`, seen by a
    spectator (`seat` None) or by `seat`."""
    view = state.public_view() if seat is None else state.view(seat)
    last = played[-1] if played else None
    said, say = web.telling(game, view) if web.tells(game) else (None, None)
    earlier = [p.move for p in played[:-1]]
    last_text, last_say = None, None
    if last is not None:
        last_text, phrase = web.worded(game, last.move, last.seat, seat, earlier)
        last_say = web.said(phrase)
    if said is None and last is not None:
        said, say = last_text, last_say
    hints = web.hints(game, view)
    if web.framed(game):
        hints = {**(hints or {}), **web.history_hints(game, [p.move for p in played])}
    return {
        "ply": ply,
        "total": total,
        "seat": seat,
        "to_move": state.to_move,
        "over": state.is_over,
        "view": view,
        "hints": hints,
        "last": None
        if last is None
        else {
            "ply": last.ply,
            "seat": last.seat,
            "move": last.move if web.visible(game, last.move, last.seat, seat) else None,
            "text": last_text,
            "say": last_say,
        },
        "result": result_of(state) if state.is_over else None,
        "svg": web.draw(game, view, []),
        "said": said,
        "say": say,
    }


@router.post("/records", status_code=201)
async def upload_record(request: Request, server: Parts) -> dict[str, Any]:
    """Load a record file (the request body): it is replayed through the engine and
    becomes a new game whose people's seats are all played at the uploader's screen
    (the file tells every hand, so none of them may be passed to another person: the
    game has no host, and no seat can be reissued as an invitation)."""
    await rate_limited(server, request)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_RECORD:
            raise Said(413, "error-file-too-large", bytes=MAX_RECORD)
    try:
        record = read_record(bytes(raw))
        loaded = await asyncio.to_thread(load_record, record)
        for i, held in enumerate(loaded.seats):
            try:  # what no database can hold is named as such first, as for a new game
                storable(f"seats.{i}.name", held.name or "", NAME_LENGTH)
            except Unstorable as exc:
                raise Said.of(
                    400, exc, Phrase("error-record-unstorable", {}, f"bad record: {exc}")
                ) from None
        loaded = replace(loaded, seats=[await _record_seat(request, s) for s in loaded.seats])
        for i, new_seat in enumerate(loaded.seats):
            if new_seat.bot is not None:
                try:
                    check_bot(new_seat.bot, loaded.game, server.limits)
                except ValueError as exc:
                    why: str | Phrase = exc.phrase if isinstance(exc, Worded) else str(exc)
                    raise WordedProtocolError(
                        "error-record-seat-bot", f"bad record: seats.{i}: {exc}", seat=i, reason=why
                    ) from None
    except ProtocolError as exc:
        raise Said.of(400, exc) from None
    host = new_token()
    try:
        game_id, tokens = await asyncio.to_thread(
            server.store.create,
            loaded.game,
            loaded.options,
            loaded.seed,
            loaded.seats,
            loaded.moves,
            loaded.result,
            host,
            chance=loaded.chance,
            # whoever holds a record knows its deal, as the maker of a picked one does
            deal_picked=True,
        )
    except Unstorable as exc:
        raise Said.of(
            400, exc, Phrase("error-record-unstorable", {}, f"bad record: {exc}")
        ) from None
    status = FINISHED if loaded.result is not None else PLAYING
    # Whoever holds a record file knows its deal: every hand and the bag. So a loaded
    # game is played at the uploader's screen only; it has no host who could invite
    # someone else into it (the host credential is kept by nobody).
    return {**_created(game_id, loaded.game, loaded.seats, tokens, status, host), "host": None}


async def _record_seat(request: Request, seat: NewSeat) -> NewSeat:
    """A loaded record's seat: its name checked as a guest's (a bot's as `bot_name`; 400
    for a name no guest may take); a name of an account is dropped (the record's game is
    a guest's)."""
    if not seat.name:
        return seat
    named = guest_name if seat.kind == HUMAN else bot_name
    try:
        return replace(seat, name=await named(request, seat.name))
    except Said as exc:
        if exc.key != "error-name-account":
            raise
        return replace(seat, name=None)


def server_deal() -> int:
    """A deal the server makes: 128 bits from the operating system, never a number a
    person could pick (those are at most `MAX_SEED`), so `picked` tells them apart, and
    always 2**64 or more, the seeds from which the games key their hidden chance with all
    of the seed (CUBES' dice, CUBED's secret behind later deals)."""
    while True:
        seed = secrets.randbits(SEED_BITS)
        if seed >= 2**64:  # below it once in 2**64 draws: draw again
            return seed


def picked(seed: int) -> bool:
    """Whether a game's seed was picked by a person (who then knows every hand)."""
    return seed <= MAX_SEED


def build_trusted(info: GameInfo) -> Any:
    """The game of a stored row (its options were checked when it was made)."""
    return cubegames.make(info.game, **info.options)


def _seats_json(info: GameInfo | GameSummary) -> list[dict[str, Any]]:
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "bot": s.bot,
            "name": s.name,
            "invited": s.invited,
            "reissued": s.reissued,
            "zombie_from": s.zombie_from,
        }
        for s in info.seats
    ]
