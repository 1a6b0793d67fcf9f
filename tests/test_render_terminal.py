"""Terminal drawings work for every game from any seat's view and a spectator's."""

from __future__ import annotations

import pytest
from rich.console import Console

import cubegames
from cubegames.core.registry import info
from cubegames.render.terminal import draw


@pytest.mark.parametrize("game_id", cubegames.GAMES)
def test_every_view_draws(game_id: str) -> None:
    for options in info(game_id).example_options:
        game = cubegames.make(game_id, **options)
        state = game.new_state(seed=2)
        bot = cubegames.bot("random", seed=2)
        for _ in range(6):
            if state.is_over:
                break
            state.play(bot.choose(state))
        console = Console(width=120, record=True)
        console.print(draw(game, state.public_view()))
        for seat in range(game.players):
            legal = state.legal_moves() if seat == state.to_move else []
            console.print(draw(game, state.view(seat), legal))
        assert console.export_text().strip()


def test_a_spectator_sees_no_cubed_hand() -> None:
    state = cubegames.make("cubed", players=2).new_state(seed=1)
    console = Console(width=120, record=True)
    console.print(draw(state.game, state.public_view()))
    text = console.export_text()
    assert "Your hand" not in text
    console = Console(width=120, record=True)
    console.print(draw(state.game, state.view(0)))
    assert "Your hand (25 pieces)" in console.export_text()
