"""The per-client caps of `limits.Limits` when several processes serve one database.

- Games made per client per minute: counted in the database (`SharedRate`, the
  `creations` table) on PostgreSQL, so the cap holds for the sum over every process; a
  process alone (SQLite) counts in memory (`limits.RateLimit`).
- Open websockets per client and live games per server: counted in each process's memory,
  and with `cubegames serve --workers N` each process takes `1/N` of the cap
  (`share`), so the sum over the processes never exceeds it. The kernel hands each new
  connection to any process, so a client may be refused slightly before the whole cap
  when its connections land unevenly: the cap is never exceeded, at worst reached early.
"""

from __future__ import annotations

import hashlib
import time

from sqlalchemy import delete, func, insert, select, text

from cubegames.server.storage import CreationRow, Store


def share(cap: int, workers: int) -> int:
    """One process's part of `cap` among `workers` processes (at least 1).

    >>> share(16, 1), share(16, 3), share(1, 4)
    (16, 5, 1)
    """
    return max(1, cap // workers)


class SharedRate:
    """At most `count` events per `window` seconds for each key, counted in the database
    (every process on it sees the same count). One client's check and count are one
    transaction under a lock on that client (PostgreSQL's advisory lock), so two
    processes cannot both let through the last allowed event."""

    def __init__(self, store: Store, count: int, window: float = 60.0) -> None:
        self.store = store
        self.count = count
        self.window = window

    def allow(self, key: str) -> float | None:
        """None if one more event of `key` is allowed now (and count it), else the seconds
        to wait. Blocks on the database: call it from a worker thread."""
        digest = hashlib.sha256(key.encode("utf-8")).digest()
        client = digest.hex()
        moment = time.time()
        with self.store.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                lock = int.from_bytes(digest[:8], "big", signed=True)
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": lock})
            connection.execute(delete(CreationRow).where(CreationRow.at <= moment - self.window))
            # how many are in the window and when the oldest leaves it: two numbers, not
            # every row (a raised cap, as in benchmarks/web_load.py, made that thousands)
            made, oldest = connection.execute(
                select(func.count(), func.min(CreationRow.at)).where(CreationRow.client == client)
            ).one()
            if made >= self.count:
                return max(0.0, oldest + self.window - moment)
            connection.execute(insert(CreationRow).values(client=client, at=moment))
        return None


__all__ = ["SharedRate", "share"]
