"""Deduplication up to symmetry: games ending in symmetric positions share a key, and
`cubegames report --dedupe` counts each such game once."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import cubegames
from cubegames.cli import main
from cubegames.sim.play import final_key
from cubegames.symmetry import symmetries


@pytest.mark.parametrize(("game_id", "options"), [("unstackable", {}), ("cubed", {"rounds": 1})])
def test_symmetric_games_share_their_final_key(game_id: str, options: dict[str, object]) -> None:
    game = cubegames.make(game_id, **options)
    state = game.new_state(seed=4)
    moves = []
    bot = cubegames.bot("random", seed=4)
    while not state.is_over:
        move = bot.choose(state)
        moves.append(move)
        state.play(move)
    turned = symmetries(game)[1]
    replay = game.new_state(seed=4)
    twin = turned.apply_state(replay)
    played = []
    for move in moves:
        image = turned.apply_move(move, replay.to_dict())  # the position it is played in
        played.append(image)
        twin.play(image)
        replay.play(move)
    assert twin.is_over
    assert played != moves  # a different game ...
    assert final_key(game, twin) == final_key(game, state)  # ... the same up to symmetry
    other = game.new_state(seed=5)
    player = cubegames.bot("random", seed=5)
    while not other.is_over:
        other.play(player.choose(other))
    assert final_key(game, other) != final_key(game, state)


def test_report_dedupe_counts_repeated_games_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.csv"
    with pytest.raises(SystemExit) as done:
        main(["simulate", "cubes", "-n", "3", "--jobs", "1", "-q", "--out", str(out)])
    assert done.value.code == 0
    rows = pd.read_csv(out, dtype={"final": str, "job": str})
    copies = rows.copy()
    copies["seed"] = copies["seed"] + 100  # the same games again, as if from other seeds
    pd.concat([rows, copies]).to_csv(out, index=False)
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        main(["report", str(out), "--dedupe"])
    assert done.value.code == 0
    assert "3 of 6 games repeat another game's final position" in capsys.readouterr().out
    rows.drop(columns=["final"]).to_csv(out, index=False)
    with pytest.raises(SystemExit) as done:
        main(["report", str(out), "--dedupe"])
    assert done.value.code == 2
    assert "no final-position keys" in capsys.readouterr().err
