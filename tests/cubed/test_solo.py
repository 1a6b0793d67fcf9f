"""Solo mode (spec §8)."""

from __future__ import annotations

import pytest

import cubegames
from cubegames.games.cubed import CubedState, load_edition
from cubegames.games.cubed.pieces import PieceKind
from tests.cubed.helpers import position, refusal

EN = load_edition("en")


def kind(text: str) -> PieceKind:
    return EN.kind(EN.read_piece(text, "test"))


@pytest.mark.parametrize("seed", range(40))
def test_setup(seed: int) -> None:
    state = cubegames.make("cubed", players=1).new_state(seed=seed)
    data = state.to_dict()
    hand = data["hands"][0]
    assert len(hand) == 25
    assert sum(kind(p) is PieceKind.BLOCKING for p in hand) <= 3
    assert len(data["table"]) == 1
    assert data["table"][0]["cell"] == [0, 0]
    assert kind(data["table"][0]["slots"]) is not PieceKind.BLOCKING
    assert all(kind(p) is PieceKind.BLOCKING for p in data.get("aside", []))
    assert len(hand) + len(data["bag"]) + 1 + len(data.get("aside", [])) == 62


def test_solo_is_one_game_without_the_variants() -> None:
    assert cubegames.make("cubed", players=1).rounds == 1
    with pytest.raises(ValueError, match="rounds must be 1"):
        cubegames.make("cubed", players=1, rounds=3)
    for variant in ("bridging", "void", "draw3"):
        with pytest.raises(ValueError, match=f"the {variant} variant needs other players"):
            cubegames.make("cubed", players=1, variants=[variant])
    with pytest.raises(ValueError, match="the bridging variant needs other players"):
        cubegames.make("cubed", players=1, variants=["bridging", "void"])


def solo(hand: list[str], bag: list[str], draws: int = 0) -> CubedState:
    turn = {"drew": False, "bonus": False, "draws": draws} if draws else None
    return position([((0, 0), "GGG")], [hand], bag=bag, players=1, turn=turn)


def test_only_placements_while_one_fits() -> None:
    state = solo(["GGY", "PPP"], ["YYY"])
    # the origin shows green all round: a rotation fits where its diamond facing the
    # origin is green (left facing east or north-east, right facing west or north-west,
    # top facing south-west or south-east)
    assert [str(m) for m in state.legal_moves()] == [
        "GGY@-1,1",
        "GGY@0,1",
        "GGY@1,-1",
        "GGY@1,0",
        "GYG@-1,0",
        "GYG@-1,1",
        "GYG@0,-1",
        "GYG@0,1",
        "YGG@-1,0",
        "YGG@0,-1",
        "YGG@1,-1",
        "YGG@1,0",
    ]
    assert refusal(state, "draw") == "in solo play you may draw only when no piece fits"
    assert refusal(state, "pass") == "there is no passing or draw3 in solo play"


def test_two_draws_then_the_game_is_lost() -> None:
    state = solo(["PPP"], ["YYY", "BBB", "LLL"])
    assert [str(m) for m in state.legal_moves()] == ["draw"]
    state.play("draw")
    assert [str(m) for m in state.legal_moves()] == ["draw"]
    state.play("draw")
    assert state.is_over
    assert state.to_dict()["end"] == "stuck"
    assert state.winners() == []
    assert state.scores() == [9]


def test_a_draw_that_fits_is_played() -> None:
    state = solo(["PPP"], ["GGY", "BBB"])
    state.play("draw")
    moves = [str(m) for m in state.legal_moves()]
    assert moves
    assert all(m[:3] in ("GGY", "GYG", "YGG") for m in moves)
    state.play(state.legal_moves()[0])
    assert "draws" not in state.to_dict()["turn"]  # a placement resets the count


def test_an_empty_bag_when_a_draw_is_due_loses() -> None:
    state = solo(["PPP"], ["BBB"])
    state.play("draw")
    assert state.is_over
    assert state.to_dict()["end"] == "bag_empty"


def test_emptying_the_hand_wins() -> None:
    state = solo(["GGY"], ["BBB"])
    state.play("GGY@1,0")
    assert state.is_over
    assert state.winners() == [0]
    assert state.scores() == [0]
