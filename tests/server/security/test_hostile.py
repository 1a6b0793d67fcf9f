"""Hostile values in the places the other attack tests do not reach: a time control's
`kind` that is not a word or a number too large for a float, a game id longer than any
message may name, a seat number too large to word, a name the models do not check
holding a lone surrogate. Each is a clear
4xx that names the problem, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server.helpers import HUMAN, TestClient, bot


@pytest.mark.parametrize("kind", [["realtime"], {"a": 1}, 3, None])
def test_a_clock_kind_that_is_not_a_word_is_a_400(client: TestClient, kind: Any) -> None:
    made = client.post(
        "/api/games",
        json={"game": "cubed", "seats": [HUMAN, bot("random")], "clock": {"kind": kind}},
    )
    assert made.status_code == 400 and made.json()["code"] == "error-clock-kind", made.text
    quick = client.post(
        "/api/quickplay",
        json={"game": "cubed", "clock": {"kind": kind}},
        headers={"Accept-Language": "ja"},
    )  # worded from the catalogs, as POST /api/games words it
    assert quick.status_code == 400 and quick.json()["code"] == "error-clock-kind", quick.text
    assert quick.json()["args"]["field"] == "clock.kind" and "持ち時間" in quick.json()["detail"]


@pytest.mark.parametrize(
    ("clock", "field"),
    [
        ({"kind": "realtime", "minutes": 10**400}, "clock.minutes"),
        ({"kind": "realtime", "minutes": 5, "increment": -(10**400)}, "clock.increment"),
    ],
)
def test_a_clock_number_too_large_for_a_float_is_a_400(
    client: TestClient, clock: dict[str, Any], field: str
) -> None:
    made = client.post(
        "/api/games", json={"game": "cubed", "seats": [HUMAN, bot("random")], "clock": clock}
    )
    assert made.status_code == 400 and made.json()["code"] == "error-clock-finite", made.text
    assert made.json()["args"]["field"] == field
    quick = client.post("/api/quickplay", json={"game": "cubed", "clock": clock})
    assert quick.status_code == 400 and quick.json()["args"]["field"] == field, quick.text


@pytest.mark.parametrize(
    "path", ["/api/games/{}", "/api/games/{}/turn", "/api/games/{}/record", "/api/rules/{}"]
)
def test_an_id_too_long_to_name_whole_is_a_404_naming_its_start(
    client: TestClient, path: str
) -> None:
    answer = client.get(path.format("x" * 5000), headers={"Accept-Language": "ja"})
    assert answer.status_code == 404, answer.text
    assert "x" * 100 in answer.json()["detail"] and len(answer.json()["detail"]) < 1000


RECORD = {"format": "cubegames-record", "version": 1, "game": "cubed", "seed": 1, "moves": []}


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/games", {"game": "cubed", "seats": [HUMAN, HUMAN], "options": {"\ud800": 1}}),
        ("/api/games", {"game": "cubed", "seats": [HUMAN, HUMAN], "clock": {"\ud800": 1}}),
        ("/api/records", {**RECORD, "seats": [HUMAN, HUMAN], "options": {"x\ud800": 1}}),
        ("/api/quickplay", {"game": "cubed", "clock": {"kind": "turn", "\udfff": 1}}),
    ],
)
def test_a_lone_surrogate_sent_back_in_a_refusal_is_a_400(
    client: TestClient, path: str, body: dict[str, Any]
) -> None:
    """JSON may escape half of a surrogate pair ("\\ud800"), which no UTF-8 encodes: a
    refusal naming it (a key of `options` or `clock`, which the models take as they come)
    writes the escape back instead of failing to encode its answer."""
    for lang in ("en", "ja"):
        answer = client.post(
            path,
            content=json.dumps(body),
            headers={"Content-Type": "application/json", "Accept-Language": lang},
        )
        assert answer.status_code == 400, answer.text
        assert answer.json()["code"].startswith("error-"), answer.text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_seat_number_too_large_to_word_is_a_400(client: TestClient, lang: str) -> None:
    made = client.post(
        "/api/games", json={"game": "cubed", "seats": [HUMAN, {**HUMAN, "invite": True}]}
    ).json()
    seat = 10**26
    asked = {"Accept-Language": lang}
    reissue = client.post(
        f"/api/games/{made['id']}/seats/{seat}/reissue",
        headers={**asked, "Authorization": f"Bearer {made['host']}"},
    )
    assert reissue.status_code == 400, reissue.text
    assert reissue.json()["code"] == "error-not-a-person" and str(seat) in reissue.json()["detail"]
    replay = client.get(f"/api/games/{made['id']}/replay?seat={seat}", headers=asked)
    assert replay.status_code == 400 and replay.json()["code"] == "error-no-seat", replay.text
