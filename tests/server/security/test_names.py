"""Names that look like another, tried as an attacker: a mix of scripts (a Cyrillic "а" in
a Latin name), a look-alike of a bot's name or of an account's ("ada1" beside "adal"), for
an account and for a guest; Japanese names (kana, kanji, Latin digits and letters) and
names in one other script are taken."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from cubegames.server.names import BadName, check_name, look, mixed
from tests.server.accounting import PASSWORD, SAME, browser, quick_app, sign_up
from tests.server.helpers import BOTH

BOT = {"kind": "bot", "bot": "random"}


@pytest.fixture
def app(db_url: str) -> Any:
    return quick_app(db_url)


@pytest.mark.parametrize(
    "name",
    [
        "\u0410da",  # Cyrillic capital A, then Latin
        "p\u0430ypal",  # a Cyrillic small a inside
        "Ad\u03b1",  # a Greek alpha at the end
        "Ada \u0395\u03bb",  # a Latin word and a Greek one
        "\u0422aro\u305f\u308d\u3046",  # Cyrillic Te beside Latin and kana
        "\u0391\u0430",  # Greek and Cyrillic
    ],
)
def test_a_name_mixing_look_alike_scripts_is_refused(app: Any, name: str) -> None:
    with pytest.raises(BadName, match="error-name-mixed"):
        check_name(name)
    with browser(app) as client:
        account = client.post(
            "/api/account/signup", json={"name": name, "password": PASSWORD}, headers=SAME
        )
        assert account.status_code == 400 and account.json()["code"] == "error-name-mixed"
        guest = client.post(
            "/api/games",
            json={"game": "cubes", "seats": [{"kind": "human", "name": name}, BOT]},
            headers={"Accept-Language": "ja"},
        )
        assert guest.status_code == 400 and guest.json()["code"] == "error-name-mixed"
        assert "キリル文字" in guest.json()["detail"]
        assert client.get("/api/games").json() == []


@pytest.mark.parametrize(
    "name",
    [
        "山田たろう",
        "タロウ2",
        "ゆうき123",
        "Taroたろう",
        "さくら・ミク",
        "コーヒー好き",
        "々木",
        "José",
        "Zoë",
        "Иван",
        "Ελένη",
        "김철수",
        "王小明",
        "Ada Lovelace 2",
    ],
)
def test_names_in_one_script_or_a_japanese_mix_are_taken(app: Any, name: str) -> None:
    assert not mixed(name)
    assert check_name(name) == name
    with browser(app) as client:
        made = client.post(
            "/api/games", json={"game": "cubes", "seats": [{"kind": "human", "name": name}, BOT]}
        )
        assert made.status_code == 201, made.text
        assert made.json()["seats"][0]["name"] == name
        assert sign_up(client, name)["user"] == name


@pytest.mark.parametrize("name", ["R\u0430ndom bot", "Rand0m bot", "Gr\u0435edy bot", "B0T"])
def test_a_look_alike_of_a_bots_name_is_refused(name: str) -> None:
    with pytest.raises(BadName, match="error-name-bot"):
        check_name(name)


def test_a_name_that_looks_like_an_accounts_is_refused(app: Any) -> None:
    with browser(app) as owner:
        sign_up(owner, "adal")
        sign_up(owner, "Oscar")
        sign_up(owner, "рау")  # Cyrillic, in one script: a name of its own
    assert look("ada1") == look("adal") == look("AdaI")
    with browser(app) as other:
        for name, like in (("ada1", "adal"), ("AdaI", "adal"), ("0scar", "Oscar"), ("Pay", "рау")):
            assert look(name) == look(like)
            account = other.post(
                "/api/account/signup", json={"name": name, "password": PASSWORD}, headers=SAME
            )
            assert account.status_code == 409, (name, account.text)
            assert account.json()["code"] == "error-name-confusable"
            guest = other.post(
                "/api/games",
                json={"game": "cubes", "seats": [{"kind": "human", "name": name}, BOT]},
            )
            assert guest.status_code == 400 and guest.json()["code"] == "error-name-account"
        # a name that only shares letters is no look-alike
        assert sign_up(other, "Ada")["user"] == "Ada"


def test_a_bots_seat_name_is_checked_as_a_persons(app: Any) -> None:
    """A bot seat's name is shown where a person's would be: no direction override, no
    invisible or control character, no account's name (nor one like it); it may read as a
    bot's. The same for a loaded record's bot seat (which loads unnamed where a person's
    named as an account does)."""
    from tests.server.helpers import played_record

    with browser(app) as owner:
        sign_up(owner, "adal")
    with browser(app) as client:
        for name, code in (
            ("\u202eAda", "error-name-invisible"),
            ("Ada\u200b", "error-name-invisible"),
            ("Ada\u0007", "error-name-control"),
            ("ada1", "error-name-account"),
            ("   ", "error-name-blank"),
        ):
            made = client.post(
                "/api/games",
                json={"game": "cubes", "seats": [{"kind": "human"}, {**BOT, "name": name}]},
            )
            assert made.status_code == 400, (name, made.text)
            assert made.json()["code"] == code, (name, made.text)
            record = played_record("cubes", {})
            record["seats"][1] = {**record["seats"][1], "name": name}
            loaded = client.post("/api/records", json=record)
            if code == "error-name-account":  # a record's seat named as an account: unnamed
                assert loaded.json()["seats"][1]["name"] is None, loaded.text
            else:
                assert loaded.status_code == 400, (name, loaded.text)
        made = client.post(
            "/api/games",
            json={"game": "cubes", "seats": [{"kind": "human"}, {**BOT, "name": " Random  bot"}]},
        )
        assert made.status_code == 201, made.text
        assert made.json()["seats"][1]["name"] == "Random bot"


def test_the_new_name_refusals_have_words_in_both_catalogs() -> None:
    from cubegames.server.i18n import bundle

    for lang in ("en", "ja"):
        for code in ("error-name-mixed", "error-name-confusable"):
            assert bundle(lang).has_message(code), (lang, code)


@BOTH
def test_look_alike_sign_ups_racing_on_two_processes_store_one_account(db_url: str) -> None:
    """Two processes of one server (two apps, two stores, one database) sign up look-alike
    names at the same moment, each checked before the other was stored: the database's
    unique look (migration 0012) lets one in, and the other is refused with the words of a
    look-alike name, not an error."""
    from sqlalchemy import func, select

    from cubegames.server.storage import UserRow

    first, second = quick_app(db_url), quick_app(db_url)
    with browser(first) as other, browser(second) as client:
        checked = second.state.accounts.looks_taken

        def check_then_lose_the_race(name: str) -> bool:
            free = checked(name)
            sign_up(other, "adal")  # the other process stores its look-alike meanwhile
            return bool(free)

        second.state.accounts.looks_taken = check_then_lose_the_race
        answer = client.post(
            "/api/account/signup", json={"name": "ada1", "password": PASSWORD}, headers=SAME
        )
        assert answer.status_code == 409, answer.text
        assert answer.json()["code"] == "error-name-confusable"
        assert answer.json()["detail"] == (
            "that name looks too much like another player's: choose another"
        )
        assert client.cookies.get("cubegames_session") is None
        accounts = [app.state.accounts for app in (first, second)]
        # the same name racing: refused as a taken name
        assert accounts[1].sign_up("adal", PASSWORD) == "error-name-taken"
        assert accounts[0].sign_up("AdaI", PASSWORD) == "error-name-confusable"
        # many at once, over both stores: exactly one of a look is stored
        names = ["0scar", "Oscar", "OscaR", "Oscar", "0scar", "Oscar"]
        results: list[int | str] = []

        def race(i: int, name: str) -> None:
            results.append(accounts[i % 2].sign_up(name, PASSWORD))

        threads = [threading.Thread(target=race, args=(i, n)) for i, n in enumerate(names)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert [type(r) for r in results].count(int) == 1, results
        assert {r for r in results if isinstance(r, str)} <= {
            "error-name-taken",
            "error-name-confusable",
        }
        with first.state.server.store.engine.connect() as connection:
            looks = connection.execute(
                select(UserRow.look, func.count()).group_by(UserRow.look)
            ).all()
        assert sorted(looks) == [("adal", 1), ("oscar", 1)]


def test_the_names_catalogs_are_read_when_the_app_is_made_not_at_the_first_name(
    db_url: str,
) -> None:
    """Checking a first name reads both catalogs and Unicode's confusables (a third of a
    second); the app does it as it is made, off the event loop that serves the pages."""
    from cubegames.server import names

    names.bot_keys.cache_clear()
    names.bot_looks.cache_clear()
    quick_app(db_url).state.server.store.close()
    assert names.bot_keys.cache_info().currsize == 1
    assert names.bot_looks.cache_info().currsize == 1
