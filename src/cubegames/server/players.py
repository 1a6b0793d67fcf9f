"""Leaderboards and player pages (`ratings`), as JSON:

- `GET /api/ratings`: the pools that have ratings (game, pool, how many players);
- `GET /api/ratings/{game}?pool=`: a pool's leaderboard, best first;
- `GET /api/players/{name}`: an account's ratings, games, results and rating over time.

The page draws them at `/leaderboard/{game}` and `/player/{name}`.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

import cubegames
from cubegames.server import ratings
from cubegames.server.accounts import accounts_of
from cubegames.server.context import Server, parts
from cubegames.server.i18n import Said

router = APIRouter(prefix="/api")
Parts = Annotated[Server, Depends(parts)]


@router.get("/ratings")
async def rating_pools(server: Parts) -> list[dict[str, Any]]:
    """The pools (a game, and its edition where rules differ) that have rated players."""
    return await asyncio.to_thread(ratings.pools, server.store)


@router.get("/ratings/{game}")
async def leaderboard(
    game: str,
    server: Parts,
    pool: Annotated[str | None, Query(max_length=32)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 100,
) -> dict[str, Any]:
    """A pool's players, best first, each with one number and whether it is provisional
    (without `pool`: the pool of the game's default edition)."""
    if game not in cubegames.GAMES:
        raise Said(404, "error-no-rules", game=game, games=", ".join(cubegames.GAMES))
    known = ratings.game_pools(game)
    if pool is None:
        pool = known[0]
    elif pool not in known:
        shown = ", ".join(repr(p) for p in known)
        raise Said(404, "error-no-pool", game=game, pool=pool, pools=shown)
    board = await asyncio.to_thread(ratings.leaderboard, server.store, game, pool, limit)
    return {"game": game, "pool": pool, "provisional_games": ratings.PROVISIONAL, "players": board}


@router.get("/players/{name}")
async def player(name: str, request: Request, server: Parts) -> dict[str, Any]:
    """An account's page: its ratings, its games with their results, its rating after each
    rated game."""
    found = await asyncio.to_thread(accounts_of(request).id_of, name[:200])
    if found is None:
        raise Said(404, "error-no-player")
    return await asyncio.to_thread(ratings.player_page, server.store, found[0], found[1])
