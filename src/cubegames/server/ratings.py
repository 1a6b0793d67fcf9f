"""Ratings of rated games, with OpenSkill's Plackett-Luce model (any number of seats,
ties shared).

- A **rated table** is chosen when it is made, its people are all signed in (their seats
  bound to accounts), it has a time control and the server dealt it (no seed given); its
  moves cannot be taken back. Bots may sit at it: each bot (by its full name, parameters
  and all) is a rated player of its own.
- A **pool** is a game and, where the rules differ, its edition (`pool_of`): CUBED's
  English and Japanese editions are rated apart.
- A game's places (`places`): the winners first, then the others by score (the better
  score first: the lower in a game whose facts say so, CUBED's penalty points); a seat that ran
  out of time, resigned, was gone or was handed to the bot (abandoned) is last. An aborted
  game changes nobody's rating.
- The ratings are updated once, by `settle`, in the database transaction that records the
  game's end (`storage.Store.add_moves`, `Store.finish`): it marks the game `rating_done`
  first, so whichever process (`--workers`) records the end, it counts once.
- A rating is shown as one number, `shown(mu)` (1500 for a new player), marked provisional
  until `PROVISIONAL` rated games; the leaderboard orders by the cautious estimate
  mu - 3 sigma.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import and_, func, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from cubegames.core.options import form
from cubegames.core.registry import info, lower_is_better, make
from cubegames.server.storage import (
    FINISHED,
    GameRow,
    RatingEventRow,
    RatingRow,
    SeatRow,
    Store,
    UserRow,
    iso,
    utc,
)

MODEL = PlackettLuce()
#: rated games before a rating is shown without its provisional mark
PROVISIONAL = 10
#: endings where one seat lost without the rules saying so (`referee`)
FORFEITS = ("time", "resigned", "gone")


def shown(mu: float) -> int:
    """The number a rating is shown as: mu on a scale where a newcomer has 1500.

    >>> shown(25.0), shown(27.6354)
    (1500, 1658)
    """
    return round(mu * 60)


def pool_of(options: dict[str, Any]) -> str:
    """The pool of a game's options within its game: its edition where it has one."""
    edition = options.get("edition")
    return str(edition) if edition else ""


def game_pools(game_id: str) -> tuple[str, ...]:
    """The pools a game's rated tables can be in, the default's first: the editions its
    start page offers where it has an `edition` option, else the one pool `""`.

    >>> game_pools("cubed"), game_pools("unstackable")
    (('en', 'ja'), ('',))
    """
    default = pool_of(dict(make(game_id).options))
    choices = next(
        (o.get("choices") or [] for o in form(info(game_id).options) if o["name"] == "edition"),
        [],
    )
    offered = [str(value) for value, _label in choices]
    return (default, *(p for p in offered if p != default))


def places(
    result: dict[str, Any], forfeited: Sequence[int], seats: int, lower: bool = False
) -> list[int]:
    """Each seat's place (1 the best, ties shared) at the end `result` (`scores`,
    `winners`, and for a forfeit `ended` and `seat`): the winners, then the others by score,
    the higher first (the lower where `lower`: a game whose lower score is better); the
    seats in `forfeited` (handed to the bot) and a forfeiting seat come last.

    >>> places({"scores": [3, 5, 1], "winners": [1]}, [], 3)
    [2, 1, 3]
    >>> places({"scores": [3, 5, 1], "winners": [1], "ended": "time", "seat": 1}, [], 3)
    [1, 3, 2]
    >>> places({"scores": [2, 2], "winners": [0, 1]}, [], 2)
    [1, 1]
    >>> places({"scores": [3, 5, 1], "winners": [2]}, [], 3, lower=True)
    [2, 3, 1]
    """
    lost = set(forfeited)
    if result.get("ended") in FORFEITS and isinstance(result.get("seat"), int):
        lost.add(result["seat"])
    winners = set(result.get("winners") or ()) - lost
    scores = list(result.get("scores") or [])

    def score(seat: int) -> float:
        try:
            return float(scores[seat])
        except (IndexError, TypeError, ValueError):
            return 0.0

    sign = 1.0 if lower else -1.0
    keys = [(seat in lost, seat not in winners, sign * score(seat)) for seat in range(seats)]
    return [1 + sum(other < mine for other in keys) for mine in keys]


@dataclass(frozen=True)
class Rating:
    """A player's rating in a pool."""

    mu: float
    sigma: float
    games: int = 0


def update_ratings(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The ratings after one game, the players in seat order with their places.

    >>> new = update_ratings([Rating(25.0, 25 / 3), Rating(25.0, 25 / 3)], [1, 2])
    >>> [(round(r.mu, 4), round(r.sigma, 4), r.games) for r in new]
    [(27.6354, 8.0659, 1), (22.3646, 8.0659, 1)]
    """
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=list(ranks))
    return [
        Rating(float(team[0].mu), float(team[0].sigma), r.games + 1)
        for team, r in zip(after, before, strict=True)
    ]


def player_of(seat: Any) -> str | None:
    """The rated player in a seat row: its account, or a bot that sat down as one (a
    person's seat handed to the bot stays the person's)."""
    if seat.user_id is not None:
        return f"user:{seat.user_id}"
    if seat.kind == "bot" and seat.zombie_from is None and seat.bot:
        return f"bot:{seat.bot}"
    return None


def settle(connection: Connection, game_id: str, at: datetime) -> bool:
    """Update the ratings of the game `game_id`, which just ended, inside the transaction
    of `connection` that recorded its end; False (nothing changed) if it is not rated or
    its ratings were updated already."""
    marked = connection.execute(
        update(GameRow)
        .where(GameRow.id == game_id, GameRow.rated.is_(True), GameRow.rating_done.is_(False))
        .values(rating_done=True)
    )
    if marked.rowcount != 1:
        return False
    game = connection.execute(
        select(GameRow.game, GameRow.options, GameRow.result).where(GameRow.id == game_id)
    ).one()
    result = game.result or {}
    if result.get("ended") == "aborted":
        return False
    seats = connection.execute(
        select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
    ).all()
    forfeited = [s.seat for s in seats if s.zombie_from is not None]
    ranks = places(result, forfeited, len(seats), lower_is_better(game.game))
    players = [player_of(s) for s in seats]
    # a player in two seats (two of the same bot) is not rated by this game
    rated = [
        (seat, player, ranks[seat.seat])
        for seat, player in zip(seats, players, strict=True)
        if player is not None and players.count(player) == 1
    ]
    if len(rated) < 2:
        return False
    pool = pool_of(dict(game.options))
    names = [player for _, player, _ in rated]
    # every player's row exists (a newcomer's made fresh, or left as another transaction
    # made it), then all are locked in one order: two games ending at once in two
    # processes wait for each other instead of losing an update or failing the end
    fresh = [
        {
            "player": p,
            "game": game.game,
            "pool": pool,
            "mu": MODEL.mu,
            "sigma": MODEL.sigma,
            "games": 0,
        }
        for p in sorted(names)
    ]
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    connection.execute(dialect.insert(RatingRow).values(fresh).on_conflict_do_nothing())
    query = (
        select(RatingRow)
        .where(RatingRow.game == game.game, RatingRow.pool == pool, RatingRow.player.in_(names))
        .order_by(RatingRow.player)
    )
    if connection.dialect.name == "postgresql":
        query = query.with_for_update()
    held = {r.player: Rating(r.mu, r.sigma, r.games) for r in connection.execute(query)}
    before = [held[player] for player in names]
    after = update_ratings(before, [rank for _, _, rank in rated])
    for (seat, player, rank), new in zip(rated, after, strict=True):
        connection.execute(
            update(RatingRow)
            .where(RatingRow.player == player, RatingRow.game == game.game, RatingRow.pool == pool)
            .values(mu=new.mu, sigma=new.sigma, games=new.games)
        )
        connection.execute(
            insert(RatingEventRow).values(
                game_id=game_id,
                player=player,
                game=game.game,
                pool=pool,
                seat=seat.seat,
                rank=rank,
                mu=new.mu,
                sigma=new.sigma,
                at=at,
            )
        )
    return True


# -- reading ------------------------------------------------------------------------------


def _names(connection: Connection, players: Sequence[str]) -> dict[str, str]:
    ids = [int(p[5:]) for p in players if p.startswith("user:")]
    found = {}
    if ids:
        for row in connection.execute(select(UserRow.id, UserRow.name).where(UserRow.id.in_(ids))):
            found[f"user:{row.id}"] = row.name
    for p in players:
        if p.startswith("bot:"):
            found[p] = p[4:]
    return found


def described(player: str, name: str, rating: Rating) -> dict[str, Any]:
    """A rating as the API gives it."""
    return {
        "player": name,
        "bot": player.startswith("bot:"),
        "rating": shown(rating.mu),
        "provisional": rating.games < PROVISIONAL,
        "games": rating.games,
    }


def leaderboard(store: Store, game: str, pool: str, limit: int = 100) -> list[dict[str, Any]]:
    """The players of a pool, best first (by mu - 3 sigma)."""
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(RatingRow)
            .where(RatingRow.game == game, RatingRow.pool == pool)
            .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), RatingRow.player)
            .limit(limit)
        ).all()
        names = _names(connection, [r.player for r in rows])
    return [
        {"place": i, **described(r.player, names[r.player], Rating(r.mu, r.sigma, r.games))}
        for i, r in enumerate(rows, 1)
        if r.player in names
    ]


def host_rating(store: Store, table: Any) -> int | None:
    """The rating the lobby shows beside a table's host (a `GameSummary`): the host's, in
    the table's game and pool, when the host is signed in and has played rated games
    there; None otherwise."""
    host = table.host_seat
    if host is None or host >= len(table.seats) or table.seats[host].user_id is None:
        return None
    with store.engine.connect() as connection:
        row = connection.execute(
            select(RatingRow).where(
                RatingRow.player == f"user:{table.seats[host].user_id}",
                RatingRow.game == table.game,
                RatingRow.pool == pool_of(table.options),
            )
        ).first()
    if row is None:
        return None
    return shown(row.mu)


def pools(store: Store) -> list[dict[str, Any]]:
    """The pools that have ratings: game, pool and how many players."""
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(RatingRow.game, RatingRow.pool, func.count())
            .group_by(RatingRow.game, RatingRow.pool)
            .order_by(RatingRow.game, RatingRow.pool)
        ).all()
    return [{"game": g, "pool": p, "players": n} for g, p, n in rows]


def player_page(store: Store, user_id: int, name: str, limit: int = 200) -> dict[str, Any]:
    """An account's ratings, and its games with their results (the public ones, and the
    rated ones once over) and its rating after each rated one."""
    player = f"user:{user_id}"
    with store.engine.connect() as connection:
        ratings = connection.execute(
            select(RatingRow).where(RatingRow.player == player).order_by(RatingRow.game)
        ).all()
        events = connection.execute(
            select(RatingEventRow)
            .where(RatingEventRow.player == player)
            .order_by(RatingEventRow.at, RatingEventRow.id)
        ).all()
        games = connection.execute(
            select(
                GameRow.id,
                GameRow.game,
                GameRow.status,
                GameRow.result,
                GameRow.rated,
                GameRow.created_at,
                SeatRow.seat,
            )
            .join(SeatRow, SeatRow.game_id == GameRow.id)
            .where(
                SeatRow.user_id == user_id,
                # a page anyone reads: a private table's link is its invitation, so it
                # lists the public games and the rated ones that are over (whose result
                # is in the ratings already), never a private game's id
                or_(GameRow.public, and_(GameRow.rated, GameRow.status == FINISHED)),
            )
            .order_by(GameRow.created_at.desc(), GameRow.id)
            .limit(limit)
        ).all()
    return {
        "name": name,
        "ratings": [
            {
                "game": r.game,
                "pool": r.pool,
                **described(player, name, Rating(r.mu, r.sigma, r.games)),
            }
            for r in ratings
        ],
        "history": [
            {
                "game_id": e.game_id,
                "game": e.game,
                "pool": e.pool,
                "rank": e.rank,
                "rating": shown(e.mu),
                "at": iso(utc(e.at)),
            }
            for e in events
        ],
        "games": [
            {
                "id": g.id,
                "game": g.game,
                "status": g.status,
                "rated": bool(g.rated),
                "seat": g.seat,
                "won": None if not g.result else g.seat in (g.result.get("winners") or []),
                "created": iso(utc(g.created_at)),
            }
            for g in games
        ],
    }


__all__ = [
    "MODEL",
    "PROVISIONAL",
    "Rating",
    "game_pools",
    "leaderboard",
    "places",
    "player_page",
    "pool_of",
    "pools",
    "settle",
    "shown",
    "update_ratings",
]
