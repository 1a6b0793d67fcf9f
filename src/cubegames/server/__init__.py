"""The web app: play the games in a browser, at one screen or online, against people or
bots (`cubegames serve`).

- `app`: `create_app(db_url)`, the FastAPI app (pages, REST, the game websocket);
- `storage`: games, seats and moves in SQL (SQLAlchemy); states are rebuilt by replay;
- `rooms`: live games, their connected pages, moves committed then broadcast;
- `writer`: group commit, the moves of many games in one transaction;
- `bus`: moves and seat changes told to the other processes (PostgreSQL LISTEN/NOTIFY);
- `lease`: which process runs a game's bots; `caps`: per-client caps over processes;
- `bots`: bot seats played in worker threads;
- `protocol`: the messages and their limits; `records`: record files; `catalog`: the
  games and options the start page offers;
- `cli`: the `serve` command; `static/`: the page (plain HTML, CSS and JS modules).
"""
