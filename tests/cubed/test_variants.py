"""The three variants (spec §7), alone and together."""

from __future__ import annotations

import pytest

import cubegames
from tests.cubed.helpers import position, refusal

# A ring of pieces around 0,0 at distance 2 from its east side to its west side: 0,0 then
# touches 1,0 and -1,0, which face it with green, in two separate arcs. (Positions hold
# pieces of the EN box, each once: here doubles.)
RING = [
    ((-1, 0), "PPG"),
    ((-1, -1), "LLN"),
    ((0, -2), "LLY"),
    ((1, -2), "NNB"),
    ((2, -2), "YYG"),
    ((2, -1), "BBP"),
    ((1, 0), "LGL"),
]
# Six pieces around 0,0, each facing it with green: laying there fills a void.
SURROUNDED = [
    ((1, 0), "LGP"),
    ((1, -1), "NGP"),
    ((0, -1), "PYG"),
    ((-1, 0), "PBG"),
    ((-1, 1), "GLN"),
    ((0, 1), "GLY"),
]


def test_bridging_gives_one_more_placement_or_a_pass() -> None:
    state = position(RING, [["GGG", "GGB", "PPP"], ["LLL"]], variants=["bridging"])
    state.play("BGG@0,0")
    assert state.to_move == 0
    assert state.to_dict()["turn"] == {"drew": False, "bonus": True}
    assert [str(m) for m in state.legal_moves()][-1] == "pass"
    assert "draw" not in [str(m) for m in state.legal_moves()]
    assert refusal(state, "draw") == "you bridged a gap: place one more piece or pass"
    state.play("pass")
    assert state.to_move == 1
    assert "idle" not in state.to_dict()  # the turn had a placement


def test_at_most_one_bonus_placement_a_turn() -> None:
    bonus = {"drew": False, "bonus": True}
    state = position(RING, [["GGG", "GGB"], ["LLL"]], variants=["bridging"], turn=bonus)
    state.play("GGG@0,0")
    assert state.to_move == 1


def test_bridging_is_off_unless_chosen() -> None:
    state = position(RING, [["GGG", "GGB"], ["LLL"]])
    state.play("GGG@0,0")
    assert state.to_move == 1


def test_one_arc_is_no_bridge() -> None:
    state = position(SURROUNDED[:3], [["GGG", "GGB"], ["LLL"]], variants=["bridging"])
    state.play("GGG@0,0")  # touches three neighbours in a row
    assert state.to_move == 1


def test_filling_a_void_lets_you_give_a_piece() -> None:
    hands = [["GGG", "PPP", "LLL"], ["YYY"], ["BBB"]]
    state = position(SURROUNDED, hands, bag=["NNN"], variants=["void", "bridging"])
    state.play("GGG@0,0")
    assert state.to_move == 0
    assert state.to_dict()["turn"]["give"] is True
    assert [str(m) for m in state.legal_moves()] == [
        "give:LLL>1",
        "give:LLL>2",
        "give:PPP>1",
        "give:PPP>2",
        "skip",
    ]
    assert refusal(state, "pass") == "you filled a void: give a piece (give:...>seat) or skip"
    assert refusal(state, "give:PPP>0") == "you cannot give a piece to yourself"
    assert refusal(state, "give:PPP>7") == "there is no seat 7"
    assert refusal(state, "give:BBB>1") == "BBB is not in your hand"
    state.play("give:PPP>2")
    assert state.to_dict()["hands"] == [["LLL"], ["YYY"], ["BBB", "PPP"]]
    assert state.to_move == 1


def test_skip_gives_nothing() -> None:
    state = position(SURROUNDED, [["GGG", "PPP"], ["YYY"]], bag=["NNN"], variants=["void"])
    state.play("GGG@0,0")
    state.play("skip")
    assert state.to_dict()["hands"] == [["PPP"], ["YYY"]]
    assert state.to_move == 1


def test_giving_away_the_last_piece_empties_the_hand() -> None:
    state = position(SURROUNDED, [["GGG", "PPP"], ["YYY"]], bag=["NNN"], variants=["void"])
    state.play("GGG@0,0")
    state.play("give:PPP>1")
    assert state.is_over
    assert state.to_dict()["end"] == "emptied"
    assert state.scores() == [0, 6]


def test_void_is_off_unless_chosen() -> None:
    state = position(SURROUNDED, [["GGG", "PPP"], ["YYY"]], bag=["NNN"])
    state.play("GGG@0,0")
    assert state.to_move == 1
    assert refusal(state, "skip") == "there is nothing to skip now"


def test_draw_three_keep_one() -> None:
    bag = ["YYY", "BBB", "LLL", "PPP"]
    state = position([((0, 0), "GGG")], [["GPL"], ["GPN"]], bag=bag, variants=["draw3"])
    assert [str(m) for m in state.legal_moves()][-4:] == ["draw", "draw3:1", "draw3:2", "draw3:3"]
    state.play("draw3:2")
    assert [str(m) for m in state.legal_moves()] == ["keep:YYY", "keep:BBB"]
    assert state.view(1)["turn"]["drawn"] == 2  # others only see how many
    assert state.view(0)["turn"]["drawn"] == ["YYY", "BBB"]
    assert refusal(state, "GGG@1,0").startswith("you drew for draw3")
    assert refusal(state, "keep:LLL") == "LLL is not among the pieces you drew"
    state.play("keep:BBB")
    data = state.to_dict()
    assert data["hands"][0] == ["GPL", "BBB"]
    assert sorted(data["bag"]) == ["LLL", "PPP", "YYY"]
    assert data["to_move"] == 1
    assert data["idle"] == 1  # a draw3 turn places nothing


def test_a_draw_three_turn_is_never_stuck() -> None:
    # Nothing fits either hand, nor anything in the bag. Seat 0 is stuck; seat 1's draw3
    # turn is not, even though it places nothing, so the round goes on.
    bag = ["YYY", "NNN", "BBB", "LLN", "PPN"]
    state = position([((0, 0), "GGG")], [["PPP"], ["LLL"]], bag=bag, variants=["draw3"])
    state.play("draw")
    state.play("pass")
    assert state.to_dict()["stuck"] == 1
    state.play("draw3:2")
    state.play("keep:NNN")
    assert not state.is_over
    assert "stuck" not in state.to_dict()
    assert state.to_dict()["idle"] == 2
    state.play("draw")
    state.play("pass")
    assert not state.is_over
    assert state.to_dict()["stuck"] == 1


def test_draw_three_refusals() -> None:
    state = position([((0, 0), "GGG")], [["PPP"], ["NNN"]], bag=["YYY"], variants=["draw3"])
    assert [str(m) for m in state.legal_moves()][-2:] == ["draw", "draw3:1"]
    assert refusal(state, "draw3:2") == "the bag holds only 1 piece(s)"
    assert refusal(state, "draw3:4") == "draw3 draws 1, 2 or 3 pieces"
    state.play("draw")
    assert refusal(state, "draw3:1") == "draw3 replaces the whole turn; you have already drawn"
    plain = position([((0, 0), "GGG")], [["PPP"], ["NNN"]], bag=["YYY"])
    assert refusal(plain, "draw3:1") == "draw3 is not in play (it is a variant)"
    assert refusal(plain, "keep:YYY") == "there is nothing to keep now"


def test_returned_pieces_are_mixed_back_deterministically() -> None:
    bag = ["YYY", "BBB", "LLL", "PPP", "NNN", "GGY"]
    runs = []
    for _ in range(2):
        state = position([((0, 0), "GPL")], [["GPN"], ["GPY"]], bag=bag, variants=["draw3"])
        state.play("draw3:3")
        state.play("keep:YYY")
        runs.append(state.to_dict()["bag"])
    assert runs[0] == runs[1]
    assert sorted(runs[0]) == sorted(["BBB", "LLL", "PPP", "NNN", "GGY"])


def test_variant_options_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown variant 'teleport'"):
        cubegames.make("cubed", variants=["teleport"])
    with pytest.raises(ValueError, match="named twice"):
        cubegames.make("cubed", variants=["void", "void"])
    with pytest.raises(ValueError, match="must be a list"):
        cubegames.make("cubed", variants="void")
    with pytest.raises(ValueError, match="the draw3 variant needs other players"):
        cubegames.make("cubed", players=1, variants=["draw3"])


def test_all_three_variants_together_keep_the_contract() -> None:
    game = cubegames.make("cubed", players=3, variants=["bridging", "void", "draw3"], rounds=1)
    kinds = set()
    for seed in range(12):
        state = game.new_state(seed=seed)
        bot = cubegames.bot("random", seed=seed)
        while not state.is_over:
            move = bot.choose(state)
            kinds.add(type(move).__name__)
            state.play(move)
    assert {"Place", "Draw", "Pass", "Draw3", "Keep"} <= kinds


# Playing PGG on 0,0 touches 1,0 and 1,-1 on one side and -1,0 on the other: two arcs,
# a bridge. Then 0,-1 is surrounded on all six sides, and the bonus placement LLP there
# fills a void. Every piece is a different piece of the EN box.
BRIDGE_THEN_VOID = [
    ((1, 0), "LGP"),
    ((1, -1), "NPL"),
    ((-1, 0), "LNG"),
    ((1, -2), "GLY"),
    ((0, -2), "GLL"),
    ((-1, -1), "NLL"),
]


def test_a_bonus_placement_that_fills_a_void_saves_and_loads() -> None:
    hands = [["GGP", "LLP", "YYY", "PPP"], ["BBB"]]
    state = position(BRIDGE_THEN_VOID, hands, bag=["NNN"], variants=["bridging", "void"])
    state.play("PGG@0,0")
    assert state.to_dict()["turn"] == {"drew": False, "bonus": True}
    state.play("LLP@0,-1")
    assert state.to_move == 0
    assert state.to_dict()["turn"] == {"drew": False, "bonus": True, "give": True}
    data = state.to_dict()
    again = state.game.state_from_dict(data)
    assert again.to_dict() == data
    assert [str(m) for m in again.legal_moves()] == ["give:PPP>1", "give:YYY>1", "skip"]
    # the bots see the position through a view and a round trip
    for spec in ("greedy", "mcts:iterations=20"):
        move = cubegames.bot(spec, seed=1).choose(state)
        assert str(move) in ("give:PPP>1", "give:YYY>1", "skip")
    state.play("give:YYY>1")
    assert state.to_move == 1
    assert state.to_dict()["turn"] == {"drew": False, "bonus": False}


@pytest.mark.parametrize(
    ("variants", "turn", "message"),
    [
        (["void"], {"drew": False, "bonus": True}, "turn.bonus: only with the bridging variant"),
        (["bridging"], {"drew": False, "bonus": False, "give": True}, "turn.give: only with"),
        (["draw3"], {"drew": False, "bonus": False, "drawn": ["NNN"]}, None),
    ],
)
def test_pending_steps_need_their_variant(
    variants: list[str], turn: dict[str, object], message: str | None
) -> None:
    hands = [["GGP", "LLP", "YYY"], ["BBB"]]
    if message is None:
        assert position(BRIDGE_THEN_VOID, hands, bag=[], variants=variants, turn=turn)
        return
    with pytest.raises(ValueError, match=message):
        position(BRIDGE_THEN_VOID, hands, bag=[], variants=variants, turn=turn)
