"""The lobby with accounts: who sits down from the lobby (a guest's name checked like every
guest's, a signed-in player's seat bound to the account), rated public tables (accounts
only, each once) and the host's rating in the list."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, select

from cubegames.server.storage import RatingRow, SeatRow, UserRow
from tests.server.accounting import SAME, browser, post, quick_app, sign_up
from tests.server.helpers import TestClient

TIMED = {"kind": "realtime", "preset": "10+5"}
HERE = {"kind": "human"}
INVITED = {"kind": "human", "invite": True}


def _public(client: TestClient, **extra: Any) -> dict[str, Any]:
    body = {"game": "cubes", "options": {"sets": 1}, "seats": [HERE, INVITED], "public": True}
    answer = post(client, "/api/games", json={**body, **extra})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def _lobby(client: TestClient) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = client.get("/api/lobby").json()["tables"]
    return tables


def _seat_row(app: Any, game_id: str, seat: int) -> Any:
    with app.state.server.store.engine.connect() as connection:
        return connection.execute(
            select(SeatRow).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
        ).one()


def test_a_guest_joining_from_the_lobby_cannot_take_a_bots_or_an_accounts_name(
    db_url: str,
) -> None:
    app = quick_app(db_url)
    with browser(app) as host, browser(app) as guest:
        sign_up(host, "ada")
        made = _public(host)
        for name, code in (("Random bot", "error-name-bot"), ("ADA", "error-name-account")):
            refused = post(guest, f"/api/games/{made['id']}/join", json={"name": name})
            assert refused.status_code == 400 and refused.json()["code"] == code
        assert _lobby(guest)[0]["free"] == 1  # nothing changed
        joined = post(guest, f"/api/games/{made['id']}/join", json={"name": "Ｂｏｂ"})
        assert joined.status_code == 200, joined.text
        row = _seat_row(app, made["id"], joined.json()["seat"])
        assert row.name == "Bob" and row.user_id is None  # NFKC, and a guest's seat


def test_a_signed_in_player_joins_under_their_account(db_url: str) -> None:
    app = quick_app(db_url)
    with browser(app) as host, browser(app) as player:
        made = _public(host)
        sign_up(player, "grace")
        joined = post(player, f"/api/games/{made['id']}/join", json={"name": "someone else"})
        assert joined.status_code == 200, joined.text
        row = _seat_row(app, made["id"], joined.json()["seat"])
        assert row.name == "grace" and row.user_id is not None


def test_a_rated_public_table_seats_accounts_once_and_shows_the_hosts_rating(
    db_url: str,
) -> None:
    app = quick_app(db_url)
    with browser(app) as host, browser(app) as guest, browser(app) as player:
        sign_up(host, "ada")
        made = _public(host, rated=True, clock=TIMED)
        [listed] = _lobby(guest)
        assert listed["rated"] is True and listed["host_rating"] is None  # no games yet
        store = app.state.server.store
        with store.engine.begin() as connection:
            ada = connection.execute(select(UserRow.id).where(UserRow.name == "ada")).scalar()
            connection.execute(
                insert(RatingRow).values(
                    player=f"user:{ada}",
                    game="cubes",
                    pool="standard",
                    mu=26.0,
                    sigma=4.0,
                    games=12,
                )
            )
        assert _lobby(guest)[0]["host_rating"] == 1560
        refused = post(guest, f"/api/games/{made['id']}/join", json={"name": "Bob"})
        assert refused.status_code == 403
        assert refused.json()["code"] == "error-rated-claim-signed-out"
        twice = post(host, f"/api/games/{made['id']}/join", json={})
        assert twice.status_code == 409 and twice.json()["code"] == "error-rated-twice"
        sign_up(player, "grace")
        joined = post(player, f"/api/games/{made['id']}/join", json={})
        assert joined.status_code == 200, joined.text
        assert _seat_row(app, made["id"], 1).user_id is not None
        # quick play never seats a guest at a rated table: it opens one of its own
        quick = guest.post(
            "/api/quickplay", json={"game": "cubes", "players": 2}, headers=SAME
        ).json()
        assert quick["id"] != made["id"]
