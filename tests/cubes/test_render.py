"""Words for a roll, the terminal drawing and the odds table."""

from __future__ import annotations

from rich.console import Console, RenderableType

import cubegames
from cubegames.games.cubes import describe
from cubegames.games.cubes.terminal import odds_table
from cubegames.render.terminal import draw
from tests.cubes.helpers import BLANK, FEW_9, MANY, NUMBERS_9, WORD_ONLY, position


def text(renderable: RenderableType) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def said(chips: list[int], pot: int, move: str, to_move: int = 0, you: int | None = None) -> str:
    state = position(chips, pot, to_move=to_move)
    state.play(move)
    assert state.last is not None
    return describe(state.last, state.game.edition, you=you)


def test_words_for_each_row() -> None:
    assert said([15, 15], 10, NUMBERS_9) == "Numbers only (2 + 3 + 4 = 9): seat 0 takes 9."
    assert said([18, 18], 4, NUMBERS_9, you=0) == (
        "Numbers only (2 + 3 + 4 = 9): the pot holds only 4, so you owe 5 to bring it to 9."
    )
    assert said([15, 15, 15], 15, FEW_9, to_move=1, you=1) == (
        "CUBES and 1 or 2 numbers (5 + 4 = 9): each opponent pays 5, then you take 2×9 = 18."
    )
    assert said([15, 15, 15], 15, MANY, to_move=2) == (
        "CUBES and 3 or more numbers (1 + 3 + 4 = 8): each opponent pays 5, "
        "then seat 2 takes the whole pot (25)."
    )
    assert said([15, 15], 10, WORD_ONLY) == "Only CUBES: each opponent pays 5."
    assert said([15, 15], 10, BLANK, to_move=1) == "All blank: seat 1 pays 2."


def test_words_when_a_set_ends() -> None:
    assert said([20, 10, 3, 7], 40, WORD_ONLY, you=1) == (
        "Only CUBES: you pay 5, then seat 2 owes 5 but has only 3, puts it in and scores 0 "
        "for the set."
    )
    assert said([10, 20, 7, 3], 40, WORD_ONLY, you=2) == (
        "Only CUBES: seat 1 and you pay 5, then seat 3 owes 5 but has only 3, puts it in "
        "and scores 0 for the set."
    )
    assert said([3, 20, 15, 12], 30, FEW_9, to_move=2, you=0) == (
        "CUBES and 1 or 2 numbers (5 + 4 = 9): seat 3 pays 5, "
        "then you owe 5 but have only 3, put it in and score 0 for the set."
    )
    assert said([4, 36], 0, NUMBERS_9) == (
        "Numbers only (2 + 3 + 4 = 9): the pot is empty, so seat 0 owes 9 "
        "but has only 4, puts it in and scores 0 for the set."
    )
    assert said([39, 1], 0, BLANK, to_move=1) == (
        "All blank: seat 1 owes 2 but has only 1, puts it in and scores 0 for the set."
    )


def test_the_drawing_shows_the_roll_the_pot_and_the_pad() -> None:
    state = position([3, 20, 15, 12], 30, to_move=2)
    state.play(FEW_9)
    shown = text(draw(state.game, state.view(1), []))
    assert "set 2 of 3 · Pot: 20 chips" in shown
    assert "Seat 2 rolled  C 5 4 . . ." in shown
    assert "CUBES" in shown and "Seat 3 pays 5, then Seat 0 owes 5" in shown
    assert "Set 1 is over. Scores Seat 0: 0, Seat 1: 20, Seat 2: 15, and Seat 3: 7." in shown
    assert "set 1" in shown and "total" in shown
    assert "80 of the box's 100 points in play" in shown


def test_the_drawing_before_any_roll_and_after_the_game() -> None:
    game = cubegames.make("cubes", players=2)
    state = game.new_state(seed=1)
    shown = text(draw(game, state.view(0), state.legal_moves()))
    assert "No roll yet." in shown and "Your roll" in shown
    while not state.is_over:
        state.play("roll")
    shown = text(draw(game, state.view(1), []))
    assert "Game over" in shown


def test_the_odds_table() -> None:
    shown = text(odds_table(cubegames.make("cubes")))
    for expected in ("46656", "931/2916", "23/54", "487/2916", "3367/46656", "1/64", "1.56%"):
        assert expected in shown
