"""Every registered game, with each of its example option sets, keeps the shared contract."""

from __future__ import annotations

from typing import Any

import pytest

import cubegames
from cubegames.core.registry import games
from tests.conformance import check_clone, playout


def cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for facts in games():
        for options in facts.example_options:
            out.append((facts.id, dict(options)))
    return out


CASES = cases()
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o in CASES]


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_deep_playout(game_id: str, options: dict[str, Any]) -> None:
    """One game checked at every step."""
    playout(game_id, options, seed=1, deep=True)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", [*range(2, 7), 2**127 + 7])
def test_playouts(game_id: str, options: dict[str, Any], seed: int) -> None:
    """More games, each checked at a sample of steps; the last on a seed as large as the web
    app deals (128 bits), which every game's `new_state` takes."""
    playout(game_id, options, seed=seed, deep=False)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_clone_is_independent(game_id: str, options: dict[str, Any]) -> None:
    check_clone(game_id, options, seed=3)


def test_every_registered_game_loads_and_is_checked() -> None:
    """Every game in GAMES (the test suite's plug-in included) loads and has cases here."""
    assert {g for g, _ in CASES} == set(cubegames.GAMES)
    assert "nim" in cubegames.GAMES  # tests/plugin_game is installed


def test_unknown_game_and_option() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        cubegames.make("chess")
    for game_id in cubegames.GAMES:
        with pytest.raises(ValueError, match="has no option 'bogus'"):
            cubegames.make(game_id, bogus=1)


BUILT_IN = ("cubed", "unstackable", "stakd", "cubes")
NOT_WHOLE: list[Any] = [None, 1.5, float("nan"), "7", True, [1]]


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_a_seed_or_a_seat_that_is_not_a_whole_number_is_refused(game_id: str) -> None:
    """ValueError, as for any bad argument, never a TypeError from deep inside: a seed is
    a whole number (numpy's too), and so is a seat (`view(True)` is not seat 1)."""
    import numpy as np

    game = cubegames.make(game_id)
    for seed in NOT_WHOLE:
        with pytest.raises(ValueError, match="seed must be a whole number"):
            game.new_state(seed)
    five: Any = np.int64(5)  # what numpy code passes on
    assert game.new_state(five).to_dict() == game.new_state(5).to_dict()
    state = game.new_state(5)
    for seat in [*NOT_WHOLE, 1.0, -1, game.players]:
        with pytest.raises(ValueError, match="there is no seat"):
            state.view(seat)
    one: Any = np.int64(1)
    assert state.view(one) == state.view(1)


def test_a_game_id_that_is_not_text_is_an_unknown_game() -> None:
    ids: list[Any] = [None, 5, ["cubed"]]
    for game_id in ids:
        with pytest.raises(ValueError, match="unknown game"):
            cubegames.make(game_id)


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_a_refusal_quotes_a_long_text_cut_short(game_id: str) -> None:
    """The reason names what was typed, but 100,000 characters of it are no reason
    (`cubegames check` printed them all): it stays a short line, the state untouched."""
    state = cubegames.make(game_id).new_state(5)
    before = state.to_dict()
    offered: list[Any] = ["x" * 100_000, "DUO@1:0,0+" + "9" * 100_000 + ",q", "K@" + "9" * 100_000]
    offered += [b"x" * 100_000, ["draw"] * 50_000]  # no move at all: named cut short too
    for text in offered:
        with pytest.raises(cubegames.IllegalMove) as refused:
            state.play(text)
        assert len(str(refused.value)) < 300, str(refused.value)[:300]
        assert "…" in str(refused.value) or "..." in str(refused.value)  # cut short
    assert state.to_dict() == before


#: option sets of each built-in game with a whole number, a bool or both among their values
TYPED_OPTIONS: dict[str, dict[str, Any]] = {
    "cubed": {"players": 2, "rounds": 1, "strict_colors": False},
    "unstackable": {"players": 2, "exact_counts": False, "bag_counts_as_exposed": True},
    "stakd": {"players": 2, "points_to_win": 1},
    "cubes": {"players": 2, "sets": 1, "referee": True},
}


def _retyped(value: Any) -> list[Any]:
    """What Python's `==` takes for `value` but JSON does not: 2.0 for 2, 1 for True."""
    if isinstance(value, bool):
        return [int(value), float(value)]
    if isinstance(value, int):
        return [float(value), *([True] if value == 1 else [])]
    return []


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_a_position_whose_options_are_of_another_kind_or_missing_is_refused(game_id: str) -> None:
    """`{"players": 2.0}` or `{"rounds": true}` equal the game's options in Python but are
    none of its options (`to_dict` would write others than were read): refused naming the
    field, as is a position without its options (api.md: a position has at least "game"
    and "options")."""
    game = cubegames.make(game_id, **TYPED_OPTIONS[game_id])
    data = game.new_state(5).to_dict()
    assert game.state_from_dict(data).to_dict() == data
    tried = 0
    for name, value in data["options"].items():
        for other in _retyped(value):
            changed = {**data, "options": {**data["options"], name: other}}
            with pytest.raises(ValueError, match='field "options": they differ'):
                game.state_from_dict(changed)
            tried += 1
    assert tried >= 2
    with pytest.raises(ValueError, match='field "options" is missing'):
        game.state_from_dict({k: v for k, v in data.items() if k != "options"})


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_a_position_may_give_its_options_as_make_was_given_them(game_id: str) -> None:
    """api.md: `"options"` is what `make` was given, which need not be how `to_dict` writes
    them (CUBED's default edition and variants left out, Unstackable's players given): a
    file saying so was refused as 'they differ from the game reading the position', by
    `cubegames moves` too, which had made that very game from them. The state writes
    them in full."""
    given = TYPED_OPTIONS[game_id]
    game = cubegames.make(game_id, **given)
    data = game.new_state(5).to_dict()
    assert data["options"] != given
    state = game.state_from_dict({**data, "options": dict(given)})
    assert state.to_dict() == data
    assert cubegames.game_from_dict({**data, "options": dict(given)}).options == game.options
    other = {**given, "players": 3} if game_id != "unstackable" else {"exact_counts": True}
    with pytest.raises(ValueError, match='field "options": they differ'):
        game.state_from_dict({**data, "options": other})


def test_a_positions_options_never_open_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Options that are not the game's own as written are tried on `make`, but never an
    edition other than the game's: it could name any file to read."""
    from cubegames.core import registry

    made: list[dict[str, Any]] = []
    real = registry.make

    def make(game_id: str, **options: Any) -> Any:
        made.append(options)
        return real(game_id, **options)

    monkeypatch.setattr(registry, "make", make)
    game = cubegames.make("cubed", players=2, rounds=1)
    data = game.new_state(5).to_dict()
    for edition in ("/etc/hostname.toml", "ja"):
        with pytest.raises(ValueError, match='field "options": they differ'):
            game.state_from_dict({**data, "options": {"players": 2, "edition": edition}})
    assert made == []
    game.state_from_dict({**data, "options": {"players": 2, "rounds": 1, "edition": "en"}})
    assert made == [{"players": 2, "rounds": 1, "edition": "en"}]
