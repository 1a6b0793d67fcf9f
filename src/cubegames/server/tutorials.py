"""The tutorials' routes: a first game that teaches (`core.tutorial`).

- `GET /api/tutorials`: the games that have a tutorial, in the catalog's order;
- `GET /api/tutorials/{game}`: its script for the page (the steps' moves, seats and words);
- `POST /api/tutorials/{game}`: a new game dealt as the tutorial says, its setup moves
  played, every seat played at this screen (the learner's and the others', whose guided
  moves the page plays for them); the answer is `POST /api/games`' with the script;
- `POST /api/tutorials/{game}/{game_id}/free` (the host's credential as `Authorization:
  Bearer`): once the guided moves are played, the other seats are handed to the
  tutorial's bot and the game goes on freely.

A tutorial game is an ordinary game: the server checks every move with the rules, as
always. The free route is only the host handing over seats it holds already (the seats a
tutorial game is made with are all played at the host's screen), so it lets nobody play a
seat they could not play before.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from fastapi import APIRouter, HTTPException, Request

import cubegames
from cubegames.core import tutorial as tutorials
from cubegames.core.tutorial import Tutorial
from cubegames.server.api import Parts, _created, load, rate_limited
from cubegames.server.context import bearer
from cubegames.server.i18n import Said
from cubegames.server.limits import check_bot
from cubegames.server.storage import HUMAN, PLAYING, NewSeat, SeatInfo, Unstorable, new_token

router = APIRouter(prefix="/api/tutorials")


@functools.cache
def tutorial_of(game: str) -> Tutorial | None:
    """The tutorial of a registered game (None: it has none, or its file is broken, which
    its game's tests say)."""
    try:
        return tutorials.load(cubegames.make(game))
    except ValueError:
        return None


def needed(game: str) -> Tutorial:
    """The tutorial of `game`, or 404 in the reader's words."""
    found = tutorial_of(game) if game in cubegames.GAMES else None
    if found is None:
        raise Said(404, "error-no-tutorial", game=game)
    return found


def script(tutorial: Tutorial) -> dict[str, Any]:
    """What the page needs to guide the learner: the steps from the move they begin at."""
    return {
        "game": tutorial.game,
        "learner": tutorial.learner,
        "from": len(tutorial.setup),
        "intro": tutorial.intro,
        "intro_text": tutorial.intro_text,
        "free": tutorial.free,
        "free_text": tutorial.free_text,
        "opponent": tutorial.opponent,
        "steps": [s.model_dump(exclude={"rule"}) for s in tutorial.steps],
    }


@router.get("")
async def list_tutorials() -> dict[str, Any]:
    """The ids of the games with a tutorial."""
    return {"games": [g for g in cubegames.GAMES if tutorial_of(g) is not None]}


@router.get("/{game}")
async def get_tutorial(game: str) -> dict[str, Any]:
    """A game's tutorial script."""
    return script(needed(game))


def _setup_seats(tutorial: Tutorial) -> tuple[dict[str, Any], int, list[tuple[int, str]]]:
    """The options, the number of seats and the setup moves with their seats."""
    game, state = tutorials.start(tutorial)  # replays the setup: the rules check it
    replay = tutorials.deal(game, tutorial)
    moves: list[tuple[int, str]] = []
    for move in tutorial.setup:
        seat = replay.to_move
        assert seat is not None  # start() played it: the game was not over
        replay.play(move)
        moves.append((seat, move))
    del state
    return game.options, game.players, moves


@router.post("/{game}", status_code=201)
async def start_tutorial(game: str, request: Request, server: Parts) -> dict[str, Any]:
    """A new tutorial game; every seat's credential and the host's are in the answer."""
    tutorial = needed(game)
    await rate_limited(server, request)
    options, players, moves = await asyncio.to_thread(_setup_seats, tutorial)
    seats = [NewSeat(HUMAN, None, None) for _ in range(players)]
    host = new_token()
    try:
        game_id, tokens = await asyncio.to_thread(
            server.store.create,
            game,
            options,
            tutorial.seed,
            seats,
            moves,
            None,
            host,
            None,
            server.now(),
            chance=tutorial.chance,
        )
    except Unstorable as exc:  # pragma: no cover - the tutorial's own data is storable
        raise HTTPException(400, str(exc)) from None
    made = _created(game_id, game, seats, tokens, PLAYING, host)
    return {**made, "tutorial": script(tutorial)}


def _handed_here(seat: SeatInfo, tutorial: Tutorial) -> bool:
    """Whether a seat is as a tutorial game makes it: a person played at the host's
    screen (never invited nor reissued), or, after the guided moves, the tutorial's bot."""
    if seat.invited or seat.reissued:
        return False
    if seat.kind == HUMAN:
        return True
    return seat.zombie_from is not None and seat.bot == tutorial.opponent


@router.post("/{game}/{game_id}/free")
async def free_game(game: str, game_id: str, request: Request, server: Parts) -> dict[str, Any]:
    """The guided moves are over: the seats other than the learner's are played by the
    tutorial's bot from now on."""
    tutorial = needed(game)
    info = await load(server, game_id)
    token = bearer(request)
    if token is None or not await asyncio.to_thread(server.store.is_host, game_id, token):
        raise Said(403, "error-tutorial-not-host")
    built = cubegames.make(game, **tutorial.options)
    if (
        info.game != game
        or info.seed != tutorial.seed
        or info.chance != tutorial.chance
        or info.options != built.options
        or any(not _handed_here(s, tutorial) for s in info.seats)
    ):
        raise Said(400, "error-not-a-tutorial", game=game)
    guided = len(tutorial.setup) + len(tutorial.steps)
    room = await server.rooms.get(game_id)
    if room is None:  # pragma: no cover - loaded just above
        raise Said(404, "error-no-game", game=game_id)
    try:
        check_bot(tutorial.opponent, game, server.limits)
    except ValueError as exc:  # pragma: no cover - the tutorial's bot is the server's
        raise HTTPException(400, str(exc)) from None
    handed: list[int] = []
    async with room.lock:
        if room.ply < guided:
            raise Said(409, "error-tutorial-not-done", moves=guided - room.ply)
        if room.over:
            raise Said(409, "error-tutorial-over")
        ply = room.ply + 1
        for seat in range(room.game.players):
            if seat == tutorial.learner:
                continue
            done = await asyncio.to_thread(
                server.store.zombify, game_id, seat, ply, tutorial.opponent, None
            )
            if not done:
                continue  # handed over already (the page asked twice)
            room.hand_to_bot(seat, tutorial.opponent, ply)
            handed.append(seat)
            event = {
                "kind": "seat",
                "game": game_id,
                "seat": seat,
                "how": "zombie",
                "from": ply,
                "bot": tutorial.opponent,
            }
            await asyncio.to_thread(server.bus.publish, event)
    server.runner.wake(room)
    return {"id": game_id, "handed": handed, "bot": tutorial.opponent}


__all__ = ["router", "script", "tutorial_of"]
