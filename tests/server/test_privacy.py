"""What a seat may see: its websocket traffic never holds another seat's hidden pieces."""

from __future__ import annotations

import random
from typing import Any

import cubegames
from cubegames.games.cubed.notation import least_rotation
from cubegames.games.cubed.web import place_words
from tests.server.helpers import HUMAN, Socket, TestClient, connect, make_game, pieces_in, token

LETTERS = "GPLNYBWK"


def _held(view: dict[str, Any], seat: int) -> set[str]:
    """The pieces a seat's own view shows it holding (its hand and a draw3 draw)."""
    pieces = set(view["hands"][seat])
    drawn = view["turn"].get("drawn")
    if isinstance(drawn, list):
        pieces |= set(drawn)
    return {least_rotation(p) for p in pieces}


def test_a_seats_traffic_never_holds_another_seats_hand(client: TestClient) -> None:
    # draw3 and void add moves that name pieces (keep:..., give:...), which must stay secret
    options = {"rounds": 1, "variants": ["draw3", "void"]}
    made = make_game(client, "cubed", [HUMAN, HUMAN], options, seed=11)
    game_id = made["id"]
    rng = random.Random(5)
    held: list[set[str]] = [set(), set()]
    table: set[str] = set()
    places: set[str] = set()  # where the spectator's table shows pieces, in the log's words
    with (
        connect(client, game_id, token(made, 0)) as a,
        connect(client, game_id, token(made, 1)) as b,
        connect(client, game_id) as c,
    ):
        seats = [Socket(a), Socket(b)]
        watcher = Socket(c)
        kinds: set[str] = set()
        for ply in range(60):
            states = [s.state(ply=ply) for s in seats]
            watched = watcher.state(ply=ply)
            for seat, state in enumerate(states):
                held[seat] |= _held(state["view"], seat)
            table |= {least_rotation(e["slots"]) for e in states[0]["view"]["table"]}
            places |= {place_words(*e["cell"]) for e in watched["view"]["table"]}
            if states[0]["over"]:
                break
            mover = states[0]["to_move"]
            legal = states[mover]["legal"]
            # often pick the moves that name a piece, so the test meets them
            named = [m for m in legal if m.startswith(("keep:", "draw3:", "give:"))]
            move = rng.choice(named if named and rng.random() < 0.5 else legal)
            kinds.add(move.split(":")[0] if ":" in move else "place" if "@" in move else move)
            seats[mover].move(move)
    assert {"draw3", "keep", "place"} <= kinds, kinds
    # the log shows a move's notation only to the seats that may read it: a kept piece to
    # its keeper alone, a given one to its giver and receiver (the other seat of two)
    logs = [s["log"] for s in states]
    for mine, theirs, seen in zip(logs[0], logs[1], watched["log"], strict=True):
        for entry, viewer in ((mine, 0), (theirs, 1), (seen, None)):
            hidden = "kept" in entry["text"] or ("gave" in entry["text"] and viewer is None)
            assert (entry["move"] is None) == (viewer != entry["seat"] and hidden), entry
            # a laid piece's place in the log is one the public table shows, nothing more
            if " laid " in entry["text"]:
                where = entry["text"].split(" piece ", 1)[1].removesuffix(".")
                assert where.removeprefix("in ") in places, (entry, sorted(places))
    for seat in (0, 1):
        secret = held[1 - seat] - held[seat] - table
        assert len(secret) > 10, "the test needs hidden pieces to look for"
        seen = pieces_in("\n".join(seats[seat].transcript), LETTERS)
        assert not seen & secret, f"seat {seat} was sent {sorted(seen & secret)}"
        assert held[seat] <= seen | table  # its own pieces did reach it
    secret = (held[0] | held[1]) - table
    seen = pieces_in("\n".join(watcher.transcript), LETTERS)
    assert not seen & secret, f"a spectator was sent {sorted(seen & secret)}"


def test_the_game_listing_hides_what_a_spectator_may_not_read(client: TestClient) -> None:
    made = make_game(client, "cubed", [HUMAN, HUMAN], {"rounds": 1, "variants": ["draw3"]})
    state = cubegames.make("cubed", players=2, rounds=1, variants=["draw3"]).new_state(seed=7)
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        ws.opening()
        ws.move("draw3:2")
        kept = ws.state(ply=1)["legal"][0]
        ws.move(kept)
        ws.state(ply=2)
    state.play("draw3:2")
    assert kept in [str(m) for m in state.legal_moves()]
    detail = client.get(f"/api/games/{made['id']}").json()
    assert detail["moves"][1] == {
        "ply": 2,
        "seat": 0,
        "text": "Seat 0 kept one of the drawn pieces.",
        "say": ["words-cubed-kept-secret", {"who": {"seat": 0}}],
    }
    assert detail["seed"] is None
    assert kept[5:] not in client.get(f"/api/games/{made['id']}").text
