"""`cubegames odds`: a game's exact odds, listed by its terminal part (CUBES' `odds_of`), in
the language of --lang or CUBEGAMES_LANG as `cubegames play` speaks."""

from __future__ import annotations

import pytest

import cubegames
from cubegames.games.cubes import Cubes
from cubegames.games.cubes.terminal import odds_table
from cubegames.kit.terminal import speaking
from cubegames.render.terminal import odds
from tests.cubes.test_render import text
from tests.test_cli import run


def test_the_odds_come_from_the_games_terminal_part() -> None:
    assert odds(cubegames.make("cubed")) is None
    assert odds(cubegames.make("nim")) is None  # a plug-in without odds lists none
    table = odds(cubegames.make("cubes", edition="standard"))
    assert table is not None
    shown = text(table)
    assert "931/2916" in shown and "46,656 rolls" in shown


def test_the_odds_speak_japanese() -> None:
    game = cubegames.make("cubes")
    assert isinstance(game, Cubes)
    with speaking("ja"):
        shown = text(odds_table(game))
    assert "全46,656通りの出目" in shown and "標準版" in shown
    assert "数字だけ" in shown and "931/2916" in shown
    assert "roller" not in shown and "rolls" not in shown


@pytest.mark.parametrize(("args", "env"), [(("--lang", "ja"), {}), ((), {"CUBEGAMES_LANG": "ja"})])
def test_the_command_speaks_the_language_asked(args: tuple[str, ...], env: dict[str, str]) -> None:
    done = run("odds", "cubes", *args, env=env)
    assert done.returncode == 0, done.stderr
    assert "確率" in done.stdout and "931/2916" in done.stdout
    assert "probability" not in done.stdout
    done = run("odds", "stakd", *args, env=env)
    assert done.returncode == 2
    assert "stakd には正確な確率の表がありません（表があるゲーム: cubes）" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_option_is_one_line() -> None:
    done = run("odds", "cubes", "-o", "sets=many")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "sets" in done.stderr
