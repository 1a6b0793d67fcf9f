"""The web app: play the games in a browser, at one screen or online, against people or
bots (`cubegames serve`). docs/server.md draws how the parts fit.

- `app`: `create_app(db_url)` builds the FastAPI app from the parts below;
- `pages`: the page and its static files; `api`: the REST API; `websocket`: a game's
  live connection; `context`: what the routes share (`Server`);
- `rooms`: live games, their connected pages, moves committed then broadcast;
- `hub`: news from other processes applied to the live games, bot leases tended, bots
  resumed at start;
- `storage`: games, seats and moves in SQL (SQLAlchemy); states are rebuilt by replay;
  `migrations`: the schema's upgrades (Alembic);
- `writer`: group commit, the moves of many games in one transaction;
- `bus`: moves and seat changes told to the other processes (PostgreSQL LISTEN/NOTIFY);
- `lease`: which process runs a game's bots;
- `limits`: what a client may spend, and the counters that hold it; `guard`: security
  headers, body and head limits in front of the app;
- `bots`: bot seats, their searches in a pool of processes (`thinking`) or on
  `cubegames bots work` workers (`botqueue`, `worker`); `presence`, `undoasks`: claims
  and take-back requests across processes; `replays`: replays computed once;
- `protocol`: the messages and their limits; `records`: record files; `catalog`: the
  games and options the start page offers;
- `lobby`: the open public tables, live; `chat`: a table's chat; `tables`: their routes
  and the lobby's websocket;
- `cli`: the `serve` and `bots work` commands; `process`: a server process's settings and collector;
  `static/`: the page (plain HTML, CSS and JS modules).
"""
