"""The page: one HTML file whose script picks the screen from the path (`/` the start page
and list of games, `/play/{id}` a game, with the seat's credential in the address's
fragment, `#t=TOKEN,TOKEN`, so it never reaches a server's logs; `/replay/{id}` a game
step by step), and its static files under `/static`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"

router = APIRouter(include_in_schema=False)


class NoCacheStatic(StaticFiles):
    """Static files that the browser checks again on every load (a new version of the
    app shows at once; unchanged files cost a 304)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


def static_files() -> NoCacheStatic:
    """The page's scripts, styles and pictures (mounted at `/static`)."""
    return NoCacheStatic(directory=STATIC)


@router.get("/")
@router.get("/play/{game_id}")
@router.get("/learn/{game}")
@router.get("/replay/{game_id}")
@router.get("/leaderboard/{game}")
@router.get("/player/{name}")
def page(request: Request) -> FileResponse:
    """The page (its script reads the path); a browser without a guest id is given one
    (`accounts.give_guest_cookie`)."""
    from cubegames.server.accounts import give_guest_cookie

    response = FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})
    give_guest_cookie(request.cookies, response)
    return response


__all__ = ["STATIC", "router", "static_files"]
