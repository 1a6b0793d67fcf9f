"""The terminal drawing of STAKD, made from a seat's view only."""

from __future__ import annotations

from typing import Any

from rich.console import Console

import cubegames
from cubegames.render.terminal import draw
from tests.stakd.helpers import FOUR_BASES, SIX_ON_LAYER_1, position

HOLD = {"UNI": 2, "DUO": 2, "TRIO": 2, "QUAD": 1, "BOMBER": 2}


def text_of(renderable: Any) -> str:
    console = Console(width=160, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_layers_pieces_owners_and_terminated_pieces() -> None:
    state = position([*FOUR_BASES, *SIX_ON_LAYER_1], hands=[HOLD, HOLD])
    state.play("DUO@2:1,0+2,0")
    state.play("BOMBER@2:1,1")
    out = text_of(draw(state.game, state.view(0), state.legal_moves()))
    assert "layer 0 · 4 pieces · closed" in out
    assert "layer 1 · 6 pieces · closed" in out
    assert "layer 2 · 2 pieces · BOMBER used" in out
    assert "D0×" in out  # the DUO under the bomber
    assert "*1" in out and "=0" in out and "Q1" in out
    assert " + " in out  # where seat 0 may lay
    assert "round 1 · first to 3 points" in out


def test_hands_points_and_who_is_out() -> None:
    laid = [*FOUR_BASES[:2], (1, "DUO@1:1,0+2,0"), (0, "QUAD@1:3,0+4,0+3,1+4,1")]
    state = position(laid, players=3, hands=[{"UNI": 3}, {"QUAD": 1}, {}])
    state.play("UNI@1:5,0")
    out = text_of(draw(state.game, state.view(1), []))
    assert out.count("out this round") == 2
    assert "you" in out
    assert "BOMBER" in out


def test_every_seat_can_draw_a_random_game() -> None:
    for players in (1, 2, 5, 8):
        state = cubegames.make("stakd", players=players, points_to_win=1).new_state()
        bot = cubegames.bot("random", seed=players)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            text_of(draw(state.game, state.view(seat), state.legal_moves()))
            state.play(bot.choose(state))
        final = text_of(draw(state.game, state.view(0), []))
        assert "layer 0" in final
    start = cubegames.make("stakd").new_state()
    assert "nothing laid yet" in text_of(draw(start.game, start.view(1), []))
    first = text_of(draw(start.game, start.view(0), start.legal_moves()))
    # the two first bases cover 8 nodes between them; one more " + " is in the legend
    assert "layer 0 · 0 pieces" in first and first.count(" + ") == 8 + 1
