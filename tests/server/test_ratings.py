"""Ratings: OpenSkill's Plackett-Luce update on known games, a forfeit counted as a loss,
rated tables (who may make one, no take-back), and the update made once, in the transaction
that records the end, whichever way the game ends and on both databases."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from cubegames.server import ratings
from cubegames.server.limits import Limits
from cubegames.server.ratings import Rating, places, update_ratings
from cubegames.server.storage import GameRow, RatingEventRow, RatingRow, Store
from tests.server.accounting import SAME, browser, post, quick_app, sign_up
from tests.server.helpers import BOTH, Socket, TestClient, connect

FRESH = Rating(25.0, 25 / 3)
TIMED = {"kind": "realtime", "preset": "10+5"}
RANDOM = {"kind": "bot", "bot": "random"}
HERE = {"kind": "human"}


def _rounded(found: list[Rating]) -> list[tuple[float, float, int]]:
    return [(round(r.mu, 4), round(r.sigma, 4), r.games) for r in found]


def test_a_two_player_game_moves_both_ratings_by_the_same_amount() -> None:
    after = update_ratings([FRESH, FRESH], [1, 2])
    assert _rounded(after) == [(27.6354, 8.0659, 1), (22.3646, 8.0659, 1)]
    # an upset moves more than an expected result
    upset = update_ratings([Rating(30.0, 5.0, 4), Rating(22.0, 7.0, 2)], [2, 1])
    assert _rounded(upset) == [(28.3623, 4.9406, 5), (25.2095, 6.7673, 3)]
    assert ratings.shown(after[0].mu) == 1658 and ratings.shown(FRESH.mu) == 1500


def test_a_three_player_game_orders_the_new_ratings_by_place() -> None:
    after = update_ratings([FRESH, FRESH, FRESH], [1, 2, 3])
    assert _rounded(after) == [(27.869, 8.2052, 1), (25.7173, 8.0582, 1), (21.4137, 8.0582, 1)]
    tied = update_ratings([FRESH, FRESH, FRESH], [1, 2, 2])
    assert tied[1].mu == tied[2].mu < tied[0].mu


def test_a_timeout_or_an_abandoned_seat_comes_last_whatever_its_score() -> None:
    # seat 0 led on points but ran out of time
    assert places({"scores": [9, 3], "winners": [1], "ended": "time", "seat": 0}, [], 2) == [2, 1]
    # three seats: seat 2 was handed to the bot (abandoned) and then scored best
    assert places({"scores": [4, 2, 8], "winners": [2]}, [2], 3) == [1, 2, 3]
    # a resignation in a 3-seat game: the resigned seat is last, the others by score
    assert places({"scores": [1, 5, 3], "winners": [], "ended": "resigned", "seat": 1}, [], 3) == [
        2,
        3,
        1,
    ]


def _rated(client: Any, **extra: Any) -> Any:
    body = {
        "game": "cubes",
        "options": {"sets": 1},
        "seats": [HERE, RANDOM],
        "clock": TIMED,
        "rated": True,
        **extra,
    }
    return post(client, "/api/games", json=body)


def test_who_may_make_a_rated_table(db_url: str) -> None:
    app = quick_app(db_url)
    with browser(app) as guest:
        refused = guest.post(
            "/api/games",
            json={"game": "cubes", "seats": [HERE, RANDOM], "clock": TIMED, "rated": True},
            headers=SAME,
        )
        assert refused.status_code == 400 and refused.json()["code"] == "error-rated-signed-out"
        sign_up(guest, "ada")
        for extra, code in (
            ({"seed": 7}, "error-rated-seed"),
            ({"clock": None}, "error-rated-clock"),
            ({"seats": [HERE, HERE]}, "error-rated-seats"),
        ):
            answer = _rated(guest, **extra)
            assert answer.status_code == 400 and answer.json()["code"] == code, extra
        made = _rated(guest)
        assert made.status_code == 201
        # the host's seat is theirs, under their name
        detail = guest.get(f"/api/games/{made.json()['id']}").json()
        assert detail["seats"][0]["name"] == "ada"


def _ratings(db_url: str) -> dict[str, tuple[float, int]]:
    store = Store(db_url)
    try:
        with store.engine.connect() as connection:
            rows = connection.execute(select(RatingRow)).all()
            return {r.player: (r.mu, r.games) for r in rows}
    finally:
        store.close()


def test_a_timed_out_rated_game_is_a_loss_and_counts_once(db_url: str) -> None:
    app = quick_app(db_url)
    with browser(app) as client:
        sign_up(client, "ada")
        game_id = _rated(client).json()["id"]
    store = Store(db_url)
    try:
        result = {"scores": [5, 0], "winners": [1], "ended": "time", "seat": 0}
        assert store.finish(game_id, result, 0)
        assert not store.finish(game_id, result, 0)  # another process came second
        with store.engine.begin() as connection:  # and a second settle changes nothing
            assert not ratings.settle(connection, game_id, store.load(game_id).finished_at)  # type: ignore[union-attr]
        with store.engine.connect() as connection:
            events = connection.execute(select(RatingEventRow.player, RatingEventRow.rank)).all()
            done = connection.execute(select(GameRow.rating_done)).scalar()
    finally:
        store.close()
    found = _ratings(db_url)
    ada = next(p for p in found if p.startswith("user:"))
    assert found[ada][0] < 25.0 < found["bot:random"][0]
    assert found[ada][1] == found["bot:random"][1] == 1
    assert sorted(events) == sorted([(ada, 2), ("bot:random", 1)]) and done


def test_the_seats_behind_the_winner_are_placed_by_the_games_better_score(db_url: str) -> None:
    """CUBED counts penalty points (its facts say lower is better): the fewer, the better
    the place, as for any game whose facts say so."""
    app = quick_app(db_url)
    with browser(app) as client:
        sign_up(client, "ada")
        seats = [HERE, RANDOM, {"kind": "bot", "bot": "greedy"}]
        made = _rated(client, game="cubed", options={"players": 3, "rounds": 1}, seats=seats)
        game_id = made.json()["id"]
    store = Store(db_url)
    try:
        assert store.finish(game_id, {"scores": [0, 9, 2], "winners": [0]}, 0)
        with store.engine.connect() as connection:
            rows = connection.execute(select(RatingEventRow.seat, RatingEventRow.rank)).all()
    finally:
        store.close()
    assert sorted(rows) == [(0, 1), (1, 3), (2, 2)]
    assert places({"scores": [0, 9, 2], "winners": [0]}, [], 3) == [1, 2, 3]  # higher first


def test_an_aborted_or_unrated_game_changes_no_rating(db_url: str) -> None:
    app = quick_app(db_url)
    with browser(app) as client:
        sign_up(client, "ada")
        rated = _rated(client).json()["id"]
        unrated = post(
            client, "/api/games", json={"game": "cubes", "seats": [HERE, RANDOM], "clock": TIMED}
        ).json()["id"]
    store = Store(db_url)
    try:
        assert store.finish(
            rated, {"scores": [0, 0], "winners": [], "ended": "aborted", "seat": 0}, 0
        )
        assert store.finish(
            unrated, {"scores": [0, 0], "winners": [1], "ended": "time", "seat": 0}, 0
        )
    finally:
        store.close()
    assert _ratings(db_url) == {}


def _play_out(client: Any, game_id: str, token: str) -> dict[str, Any]:
    """Play the first legal move whenever it is the seat's turn, to the end, asking to
    take back each move before it (every ask must be refused). Every message is read in
    order: an answer and a bot's new state may come in either order."""
    with connect(client, game_id, token) as session:
        socket = Socket(session)
        _hello, state = socket.opening()
        socket.send({"type": "undo"})
        refusals: list[str] = []
        acted: tuple[int, bool] | None = None
        while state.get("result") is None:
            pause = state.get("pause")
            now = (state["ply"], pause is not None)
            if now != acted:
                if pause is not None and state["seat"] in pause["waiting"]:
                    # the end of a round: the next waits for this seat (or for
                    # rooms.ROUND_PAUSE, longer than a read's timeout)
                    socket.send({"type": "ready"})
                    acted = now
                elif pause is None and state["to_move"] == state["seat"] and state["legal"]:
                    if state["ply"] >= 1:
                        socket.send({"type": "undo"})
                    socket.move(state["legal"][0], state["ply"])
                    acted = now
            message = socket.until(lambda m: m["type"] in ("state", "error"))
            if message["type"] == "error":
                refusals.append(message["code"])
            else:
                state = message
        # a rated game's moves cannot be taken back
        assert refusals and set(refusals) == {"undo-rated"}, refusals
        return state


@BOTH
def test_a_rated_game_played_to_its_end_moves_the_ratings_once(db_url: str) -> None:
    # a move and a take-back ask on every turn, against a bot that answers at once, go past
    # the page's message rate (whose excess is dropped unread, the turn with it)
    app = quick_app(db_url, Limits(message_burst=10_000))
    with browser(app) as client:
        sign_up(client, "ada")
        made = _rated(client).json()
        end = _play_out(client, made["id"], made["seats"][0]["token"])
        assert end["result"] is not None
        page = client.get("/api/players/ada").json()
        board = client.get("/api/ratings/cubes", params={"pool": page["ratings"][0]["pool"]})
        assert client.get("/api/ratings/cubes").json() == board.json()  # the default pool
    found = _ratings(db_url)
    assert sorted(p.split(":")[0] for p in found) == ["bot", "user"]
    assert all(games == 1 for _, games in found.values())
    assert {p["player"] for p in board.json()["players"]} == {"ada", "random"}
    assert page["ratings"][0]["provisional"] and len(page["history"]) == 1
    assert page["games"][0]["rated"] and page["games"][0]["won"] is not None


@BOTH
def test_two_processes_ending_the_same_rated_game_rate_it_once(db_url: str) -> None:
    """Two stores on one database (two `--workers`) record the same end at once: one wins,
    and the ratings change once."""
    from concurrent.futures import ThreadPoolExecutor

    app = quick_app(db_url)
    with browser(app) as client:
        sign_up(client, "ada")
        game_id = _rated(client).json()["id"]
    stores = [Store(db_url), Store(db_url)]
    try:
        result = {"scores": [0, 3], "winners": [1], "ended": "resigned", "seat": 0}
        with ThreadPoolExecutor(2) as pool:
            ended = list(pool.map(lambda s: s.finish(game_id, result, 0), stores))
        assert sorted(ended) == [False, True]
        with stores[0].engine.connect() as connection:
            events = connection.execute(select(RatingEventRow.player)).all()
    finally:
        for store in stores:
            store.close()
    assert len(events) == 2
    assert all(games == 1 for _, games in _ratings(db_url).values())


def test_a_leaderboard_of_a_pool_the_game_has_not_is_not_found(client: TestClient) -> None:
    assert ratings.game_pools("cubed") == ("en", "ja")
    assert ratings.game_pools("unstackable") == ("",)
    assert client.get("/api/ratings/cubed", params={"pool": "ja"}).json()["players"] == []
    assert client.get("/api/ratings/cubed").json()["pool"] == "en"
    answer = client.get("/api/ratings/cubed", params={"pool": "xx"})
    assert answer.status_code == 404
    assert answer.json()["detail"] == "cubed has no rating pool xx; its pools are 'en', 'ja'"
    japanese = client.get(
        "/api/ratings/cubed", params={"pool": "xx"}, headers={"Accept-Language": "ja"}
    )
    assert "プール" in japanese.json()["detail"]
