"""Take-back requests in the database (`undo_asks`), so that the answers of people whose
pages are on different server processes are counted together: each answer is one
transaction holding the request's row (`SELECT ... FOR UPDATE` on PostgreSQL; SQLite has
one writer at a time), so two last agreements given at once on two processes cannot both
miss each other. The room keeps its copy (`Room.asking`) for its pages; other processes
learn of a request and its answers on the bus (`undo-ask`, `undo-answer`).
"""

from __future__ import annotations

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from cubegames.server.rooms import UndoAsk
from cubegames.server.storage import MoveRow, Store, UndoAskRow


def put(store: Store, game_id: str, ask: UndoAsk) -> None:
    """Keep `ask` as the game's request (replacing an earlier one)."""
    insert = postgresql.insert if store.engine.dialect.name == "postgresql" else sqlite.insert
    values = {
        "seat": ask.seat,
        "first": ask.first,
        "last": ask.last,
        "waiting": sorted(ask.waiting),
        "agreed": sorted(ask.agreed),
    }
    statement = insert(UndoAskRow).values(game_id=game_id, **values)
    statement = statement.on_conflict_do_update(index_elements=[UndoAskRow.game_id], set_=values)
    with store.engine.begin() as connection:
        connection.execute(statement)


def _held(connection: Connection, game_id: str) -> UndoAsk | None:
    """The game's request, its row held until the transaction ends; None if there is
    none, or if a move was made since it was asked (then it is deleted: void)."""
    row = connection.execute(
        select(UndoAskRow).where(UndoAskRow.game_id == game_id).with_for_update()
    ).first()
    if row is None:
        return None
    moves = connection.execute(
        select(func.count()).select_from(MoveRow).where(MoveRow.game_id == game_id)
    ).scalar_one()
    if row.last != moves:
        connection.execute(delete(UndoAskRow).where(UndoAskRow.game_id == game_id))
        return None
    return UndoAsk(row.seat, row.first, row.last, frozenset(row.waiting), frozenset(row.agreed))


def answer(
    store: Store, game_id: str, seat: int, accept: bool, bots: frozenset[int] = frozenset()
) -> tuple[str, UndoAsk | None]:
    """`seat`'s answer to the game's request: `none` (there is none, or a move was made
    since it was asked), `not-yours`, `declined`, `agreed` (others still to answer) or
    `all` (everyone agreed); with the request as it stands after the answer. A request
    declined or agreed by all is deleted. The seats in `bots` (handed to the bot since the
    request was made: their players resigned or left) are not waited for, and a request
    of one of them is void."""
    with store.engine.begin() as connection:
        ask = _held(connection, game_id)
        gone = delete(UndoAskRow).where(UndoAskRow.game_id == game_id)
        if ask is None:
            return "none", None
        if ask.seat in bots:  # the asker resigned or left since: its moves are the bot's
            connection.execute(gone)
            return "none", None
        if seat not in ask.waiting:
            return "not-yours", ask
        if not accept:
            connection.execute(gone)
            return "declined", ask
        ask = UndoAsk(ask.seat, ask.first, ask.last, ask.waiting, ask.agreed | {seat})
        if ask.agreed >= ask.waiting - bots:
            connection.execute(gone)
            return "all", ask
        connection.execute(
            update(UndoAskRow)
            .where(UndoAskRow.game_id == game_id)
            .values(agreed=sorted(ask.agreed))
        )
        return "agreed", ask


def settle(store: Store, game_id: str, bots: frozenset[int]) -> tuple[str, UndoAsk | None]:
    """The game's request once the seats in `bots` are played by the bot (a person
    resigned, ran out of time or was claimed against): `none` (there is none, or a move
    was made since it was asked), `void` (its asker is a bot's seat now), `all` (every
    person still in the game has agreed: nobody is left to answer) or `waiting` (people
    still to answer); with the request. A void request and one agreed by all are
    deleted."""
    with store.engine.begin() as connection:
        ask = _held(connection, game_id)
        gone = delete(UndoAskRow).where(UndoAskRow.game_id == game_id)
        if ask is None:
            return "none", None
        if ask.seat in bots:
            connection.execute(gone)
            return "void", ask
        if ask.agreed >= ask.waiting - bots:
            connection.execute(gone)
            return "all", ask
        return "waiting", ask


__all__ = ["answer", "put", "settle"]
