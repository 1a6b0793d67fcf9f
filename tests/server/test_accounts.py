"""Accounts and their seats: a guest's games move into the account they make, a signed-in
device gets its own credentials for the account's seats, seat credentials keep working for
programs, and the operator's `cubegames users` commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from cubegames.cli import cli as main
from tests.server.accounting import PASSWORD, browser, post, quick_app, sign_in, sign_up
from tests.server.helpers import Socket, connect

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot": "random"}


def _seat_of(client: Any, game_id: str, token: str) -> int | None:
    with connect(client, game_id, token) as session:
        hello, _state = Socket(session).opening()
        seat: int | None = hello["seat"]
        return seat


def test_a_guests_games_move_into_the_account_and_open_on_another_device(db_url: str) -> None:
    app = quick_app(db_url)
    with browser(app) as laptop:
        # played as a guest first: the browser holds the seat's credential
        made = laptop.post("/api/games", json={"game": "cubes", "seats": [HUMAN, BOT]}).json()
        token = made["seats"][0]["token"]
        answer = sign_up(laptop, "ada", seats=[{"game": made["id"], "token": token}])
        assert answer["bound"] == 1
        mine = laptop.get("/api/account/games").json()
        assert [(g["id"], g["seats"]) for g in mine] == [(made["id"], [0])]
    with browser(app) as phone:
        assert phone.get("/api/account/games").status_code == 401
        assert sign_in(phone, "ada").status_code == 200
        assert [g["id"] for g in phone.get("/api/account/games").json()] == [made["id"]]
        keys = post(phone, f"/api/account/games/{made['id']}/keys").json()["tokens"]
        assert list(keys) == ["0"] and keys["0"] != token
        # the phone's own credential opens the seat; the laptop's still does too
        assert _seat_of(phone, made["id"], keys["0"]) == 0
        assert _seat_of(phone, made["id"], token) == 0
        # and so do the programs' ways: the record of the seat's own view
        record = phone.get(
            f"/api/games/{made['id']}/record", headers={"Authorization": f"Bearer {keys['0']}"}
        )
        assert record.status_code == 200 and record.json()["seat"] == 0
    with browser(app) as stranger:
        sign_up(stranger, "bob", seats=[{"game": made["id"], "token": token}])
        # bob holds the credential too, but the seat is ada's: nothing moves to bob
        assert stranger.get("/api/account/games").json() == []
        assert post(stranger, f"/api/account/games/{made['id']}/keys").json()["tokens"] == {}


def test_a_seat_made_or_claimed_signed_in_is_the_accounts_and_a_reissue_takes_it_back(
    db_url: str,
) -> None:
    app = quick_app(db_url)
    with browser(app) as host, browser(app) as friend:
        sign_up(host, "ada")
        made = post(
            host, "/api/games", json={"game": "cubes", "seats": [HUMAN, {**HUMAN, "invite": True}]}
        ).json()
        assert made["seats"][0]["name"] == "ada"
        sign_up(friend, "bob")
        claimed = post(
            friend, f"/api/games/{made['id']}/claim", json={"invite": made["seats"][1]["invite"]}
        )
        assert claimed.status_code == 200
        assert [g["seats"] for g in friend.get("/api/account/games").json()] == [[1]]
        key = post(friend, f"/api/account/games/{made['id']}/keys").json()["tokens"]["1"]
        assert _seat_of(friend, made["id"], key) == 1
        detail = host.get(f"/api/games/{made['id']}").json()
        assert [s["name"] for s in detail["seats"]] == ["ada", "bob"]
        # the host gives the seat a new invitation: bob's seat and its keys are gone
        again = post(
            host,
            f"/api/games/{made['id']}/seats/1/reissue",
            headers={"Authorization": f"Bearer {made['host']}"},
        )
        assert again.status_code == 200
        assert friend.get("/api/account/games").json() == []
        with connect(friend, made["id"], key) as session:
            assert Socket(session).receive()["type"] in ("error", "closed")


def _rated_table(host: Any) -> dict[str, Any]:
    """A rated CUBES table made by the signed-in `host`, seat 1 invited."""
    made: dict[str, Any] = post(
        host,
        "/api/games",
        json={
            "game": "cubes",
            "seats": [HUMAN, {**HUMAN, "invite": True}],
            "clock": {"kind": "realtime", "preset": "3+2"},
            "rated": True,
        },
    ).json()
    return made


def test_a_rated_tables_invitation_is_claimed_signed_in(db_url: str) -> None:
    app = quick_app(db_url)
    with browser(app) as host, browser(app) as guest:
        sign_up(host, "ada")
        made = _rated_table(host)
        invite = made["seats"][1]["invite"]
        refused = guest.post(f"/api/games/{made['id']}/claim", json={"invite": invite})
        assert refused.status_code == 403
        assert refused.json()["code"] == "error-rated-claim-signed-out"
        twice = post(host, f"/api/games/{made['id']}/claim", json={"invite": invite})
        assert twice.status_code == 409 and twice.json()["code"] == "error-rated-twice"
        sign_up(guest, "bob")
        claimed = post(guest, f"/api/games/{made['id']}/claim", json={"invite": invite})
        assert claimed.status_code == 200
        with connect(guest, made["id"], claimed.json()["token"]) as session:
            hello, _state = Socket(session).opening()
        assert hello["rated"] is True  # the page offers the host no reissue of bob's seat
        assert hello["takebacks"] is False  # nor a take-back the server would refuse
        # bob's seat is bound to bob: the host cannot pass it to somebody else mid-game
        # (bob gets it back anywhere by signing in)
        host_key = {"Authorization": f"Bearer {made['host']}"}
        taken = post(host, f"/api/games/{made['id']}/seats/1/reissue", headers=host_key)
        assert taken.status_code == 409 and taken.json()["code"] == "error-rated-reissue"
        assert [g["seats"] for g in guest.get("/api/account/games").json()] == [[1]]


def test_a_rated_tables_unclaimed_invitation_can_be_reissued(db_url: str) -> None:
    """A link lost before anyone claimed it: the host may send a new one."""
    app = quick_app(db_url)
    with browser(app) as host:
        sign_up(host, "ada")
        made = _rated_table(host)
        host_key = {"Authorization": f"Bearer {made['host']}"}
        again = post(host, f"/api/games/{made['id']}/seats/1/reissue", headers=host_key)
        assert again.status_code == 200 and again.json()["invite"] != made["seats"][1]["invite"]


def test_the_operator_resets_a_password_and_lists_the_accounts(db_url: str, tmp_path: Path) -> None:
    app = quick_app(db_url)
    with browser(app) as client:
        sign_up(client, "ada")
        sign_up(client, "bob")
    runner = CliRunner()
    listed = runner.invoke(main, ["users", "list", "--db", db_url])
    assert listed.exit_code == 0 and [
        line.split("\t")[0] for line in listed.output.splitlines()
    ] == [
        "ada",
        "bob",
    ]
    reset = runner.invoke(
        main, ["users", "reset-password", "ADA", "--db", db_url], input="a new password\n"
    )
    assert reset.exit_code == 0, reset.output
    with browser(app) as client:
        assert sign_in(client, "ada").status_code == 401
        assert sign_in(client, "ada", "a new password").status_code == 200
    short = runner.invoke(main, ["users", "reset-password", "ada", "--db", db_url], input="short\n")
    assert short.exit_code == 2 and "8 to 256 characters" in short.output
    nobody = runner.invoke(main, ["users", "reset-password", "cyd", "--db", db_url], input="x\n")
    assert nobody.exit_code == 2 and "no account 'cyd'" in nobody.output
    # a mistyped path is refused, not made into an empty database that lists nobody
    typo = tmp_path / "no" / "such.sqlite3"
    for command in (["list"], ["reset-password", "ada"]):
        missing = runner.invoke(main, ["users", *command, "--db", f"sqlite:///{typo}"])
        assert missing.exit_code == 2 and f"there is no database at {typo}" in missing.output
    assert not typo.parent.exists()
    helped = runner.invoke(main, ["users", "reset-password", "--help"])
    assert helped.exit_code == 0 and "standard input" in helped.output
    assert PASSWORD not in reset.output


def test_signing_out_ends_every_session_when_the_password_is_reset(db_url: str) -> None:
    app = quick_app(db_url)
    with browser(app) as client:
        sign_up(client, "ada")
        assert client.get("/api/account").json()["user"] == "ada"
        runner = CliRunner()
        assert (
            runner.invoke(
                main, ["users", "reset-password", "ada", "--db", db_url], input="another password\n"
            ).exit_code
            == 0
        )
        assert client.get("/api/account").json()["user"] is None


def test_hot_seats_of_a_signed_in_player_are_theirs_and_a_records_names_are_checked(
    db_url: str,
) -> None:
    import json

    from tests.server.test_api import finished_record

    app = quick_app(db_url)
    with browser(app) as client:
        sign_up(client, "ada")
        made = post(
            client,
            "/api/games",
            json={"game": "cubes", "seats": [HUMAN, {**HUMAN, "name": "Kit"}]},
        ).json()
        assert [s["name"] for s in made["seats"]] == ["ada", "Kit"]
        assert [g["seats"] for g in client.get("/api/account/games").json()] == [[0, 1]]
        record = finished_record()
        record["seats"][0] = {"kind": "human", "name": "ADA"}
        loaded = post(client, "/api/records", content=json.dumps(record))
        assert loaded.status_code == 201
        # a record's seat named as an account loads unnamed: no guest wears the name
        assert client.get(f"/api/games/{loaded.json()['id']}").json()["seats"][0]["name"] is None
        record["seats"][0] = {"kind": "human", "name": "Greedy bot"}
        refused = post(client, "/api/records", content=json.dumps(record))
        assert refused.status_code == 400 and refused.json()["code"] == "error-name-bot"
