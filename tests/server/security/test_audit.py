"""An attacker's second look at the server after protocol 2, group commit and the bus:
each test here is an attack that worked before its fix."""

from __future__ import annotations

import json

from tests.server.helpers import TestClient

RECORD = {
    "format": "cubegames-record",
    "version": 1,
    "game": "cubed",
    "options": {},
    "seed": 3,
    "seats": [{"kind": "human"}, {"kind": "human"}],
    "moves": [],
}


def test_a_record_with_a_number_too_long_to_read_is_a_clear_400(client: TestClient) -> None:
    """Python refuses to read an integer of more than 4300 digits with a ValueError that
    is not a JSONDecodeError: a record whose seed had 5000 digits was a 500."""
    body = json.dumps(RECORD).replace('"seed": 3', '"seed": ' + "1" * 5000)
    answer = client.post("/api/records", content=body)
    assert answer.status_code == 400, answer.text
    assert "number" in answer.json()["detail"]
