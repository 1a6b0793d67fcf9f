"""Records hold data, not sentences (server/records.py): a record is the same whatever the
language of the request that fetched it, a seat's view carries each move's phrase (`say`)
beside its English `text`, and `cubegames replay` words a record in the reader's language."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import cubegames
from cubegames.cli import cli
from cubegames.core.registry import built_in
from cubegames.kit import words
from cubegames.server.i18n import phrase
from tests.server.helpers import TestClient, played_record, token
from tests.test_terminal_words import JAPANESE, english

#: a game per built-in game, small enough to replay quickly
SETTINGS = {
    "cubed": {"players": 2, "rounds": 1},
    "unstackable": {},
    "stakd": {"players": 2},
    "cubes": {"players": 2, "sets": 1},
}
PLAIN = {"CUBEGAMES_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": "C.UTF-8"}


def a_record(game: str, options: dict[str, Any], seed: int = 4) -> dict[str, Any]:
    """A whole game between random bots, its seat 0 a person named ANA (capitals: the scan
    of English words passes over names written so)."""
    return played_record(game, options, seed, first={"kind": "human", "name": "ANA"})


def replay(path: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["replay", str(path), *args], env=PLAIN)


def test_a_record_is_the_same_data_in_every_language(client: TestClient) -> None:
    record = a_record("cubed", SETTINGS["cubed"])
    made = client.post("/api/records", content=json.dumps(record)).json()
    path = f"/api/games/{made['id']}/record"
    english_one = client.get(path, headers={"Accept-Language": "en"}).json()
    japanese_one = client.get(path, headers={"Accept-Language": "ja"}).json()
    assert english_one == japanese_one == client.get(path, params={"lang": "ja"}).json()
    assert english_one["moves"] == record["moves"]
    assert english_one["result"] == record["result"]
    # and it loads again, in either language, as the same game
    again = client.post("/api/records?lang=ja", content=json.dumps(japanese_one))
    assert again.status_code == 201, again.text


def test_a_seats_view_tells_each_move_by_its_phrase(client: TestClient) -> None:
    """An unfinished game's record for a seat: the same data in either language, each
    move's words as a phrase the reader's language words with no English, its English
    `text` kept as it was."""
    whole = a_record("cubed", SETTINGS["cubed"])
    record = {**whole, "moves": whole["moves"][:10], "result": None}
    made = client.post("/api/records", content=json.dumps(record)).json()
    path = f"/api/games/{made['id']}/record"
    auth = {"Authorization": f"Bearer {token(made, 0)}"}
    english_one = client.get(path, headers={**auth, "Accept-Language": "en"}).json()
    japanese_one = client.get(path, headers={**auth, "Accept-Language": "ja"}).json()
    assert english_one == japanese_one
    assert english_one["format"] == "cubegames-seat-view"
    moves = english_one["moves"]
    assert len(moves) == 10
    for move in moves:
        said = move["say"]
        assert words.has(said[0]), said

        def name(n: int, lang: str) -> str:  # the record's reader is seat 0
            return words.say(lang, "seat-you") if n == 0 else words.say(lang, "seat-label", seat=n)

        assert phrase("en", said, lambda n: name(n, "en")) == move["text"]
        japanese = phrase("ja", said, lambda n: name(n, "ja"))
        assert JAPANESE.search(japanese) and english(japanese) == [], japanese


@pytest.mark.parametrize("game", [g for g in cubegames.GAMES if built_in(g)])
def test_a_replay_told_in_japanese_has_no_english_sentence(game: str, tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    record = a_record(game, SETTINGS[game])
    path.write_text(json.dumps(record))
    done = replay(path, "--lang", "ja")
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert len(lines) >= len(record["moves"]) + 3
    assert english(done.stdout) == [], done.stdout[-3000:]
    assert lines[0].endswith(f"{len(record['moves'])}手")
    assert any(line.startswith("ゲーム終了。得点: ") for line in lines[-3:])
    winners = record["result"]["winners"]
    assert lines[-1].startswith("勝者: ") if winners else lines[-1] == "勝者はいません。"
    # the same record in English: the same moves, in English words
    told = replay(path, "--lang", "en")
    assert told.exit_code == 0 and not JAPANESE.search(told.stdout)
    assert len(told.stdout.splitlines()) == len(lines)
    assert "Game over. Scores: " in told.stdout


def test_a_replay_from_a_seat_keeps_the_others_secrets(tmp_path: Path) -> None:
    """CUBED with draw3: the piece a seat keeps from its draw is secret from the others;
    told from that seat its notation shows, told from another seat or to a spectator it
    does not."""
    record = a_record("cubed", {"players": 2, "rounds": 1, "variants": ["draw3"]}, seed=5)
    kept = [m for m in record["moves"] if m.startswith("keep")]
    assert kept, record["moves"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    spectator = replay(path, "--lang", "ja").stdout
    seats = [replay(path, "--lang", "ja", "--seat", str(s)).stdout for s in (0, 1)]
    for move in kept:
        assert f"[{move}]" not in spectator
        assert any(f"[{move}]" in told for told in seats)
    assert "あなた" in seats[0] and "あなた" not in spectator


def test_a_replay_ended_without_a_move_and_an_unfinished_one(tmp_path: Path) -> None:
    whole = a_record("cubes", SETTINGS["cubes"])
    resigned = {
        **whole,
        "moves": whole["moves"][:1],
        "result": {"ended": "resigned", "seat": 1, "winners": [0], "scores": [0, 0]},
    }
    path = tmp_path / "resigned.json"
    path.write_text(json.dumps(resigned))
    lines = replay(path, "--lang", "ja").stdout.splitlines()
    assert lines[-3:] == [
        words.say("ja", "clock-ended-resigned", who="ランダムボット"),
        "ゲーム終了。得点: ANA 0点、ランダムボット 0点",
        "勝者: ANA",
    ]
    unfinished = {**whole, "moves": whole["moves"][:1], "result": None}
    path.write_text(json.dumps(unfinished))
    assert replay(path, "--lang", "ja").stdout.splitlines()[-1] == "ゲームはまだ終わっていません。"


def test_two_seats_of_the_same_bot_are_told_apart(tmp_path: Path) -> None:
    record = a_record("cubes", {"players": 3, "sets": 1})
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    told = replay(path, "--lang", "ja").stdout
    assert "席1（ランダムボット）" in told and "席2（ランダムボット）" in told


def _one_line(done: Result) -> str:
    assert done.exit_code == 2, done.output
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and done.stdout == "", done.output
    return lines[0]


def test_a_bad_record_is_one_line_in_the_readers_language(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    record = a_record("cubes", SETTINGS["cubes"])
    cases: list[tuple[Any, str, str]] = [
        ("{not json", "JSONとして読めません（1行2列）", "not valid JSON (Expecting"),
        ({"format": "other"}, "ゲームの記録ではありません", "not a game record"),
        ({**record, "moves": ["roll", "FLY"]}, "2手目", "move 2 (FLY)"),
        ({**record, "result": {"scores": [1, 2], "winners": [1]}}, "結果", "does not match"),
    ]
    for content, japanese, english_words in cases:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
        line = _one_line(replay(path, "--lang", "ja"))
        # the file's name and its fields, quoted, are the file's own
        said = re.sub(r'"[^"]*"', "", line.replace(str(path), "").removeprefix("cubegames: "))
        assert japanese in line and english(said) == [], line
        assert english_words in _one_line(replay(path)), content
    path.write_text(json.dumps(record))
    line = _one_line(replay(path, "--lang", "ja", "--seat", "7"))
    assert "このゲームの席は0〜1です" in line
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2_000_000)
    assert "大きすぎ" in _one_line(replay(big, "--lang", "ja"))
    assert "ファイルがありません" in _one_line(replay(tmp_path / "none.json", "--lang", "ja"))


def test_a_seats_view_is_told_as_that_seat_saw_it(client: TestClient, tmp_path: Path) -> None:
    """The seat's view the server saves (CUBED with draw3: the others' kept pieces are
    secret) told in Japanese from its phrases: no English, the seat's own kept pieces with
    their notation, the others' without."""
    whole = a_record("cubed", {"players": 2, "rounds": 1, "variants": ["draw3"]}, seed=5)
    record = {**whole, "moves": whole["moves"][:30], "result": None}
    made = client.post("/api/records", content=json.dumps(record)).json()
    auth = {"Authorization": f"Bearer {token(made, 0)}"}
    view = client.get(f"/api/games/{made['id']}/record", headers=auth).json()
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view))
    done = replay(path, "--lang", "ja")
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert len(lines) == 32 and lines[-1] == "ゲームはまだ終わっていません。"
    assert english(done.stdout) == [], done.stdout
    assert "あなた" in done.stdout
    for line, move in zip(lines[1:-1], view["moves"], strict=True):
        assert ("move" in move and line.endswith(f"  [{move['move']}]")) or "  [" not in line
    assert any("move" not in m for m in view["moves"])  # a secret of the other seat
    assert replay(path, "--lang", "ja", "--seat", "0").stdout == done.stdout
    # in English its words are the server's English (the bot's seat named by its bot)
    told = replay(path, "--lang", "en").stdout.splitlines()
    assert [line.split(". ", 1)[1].split("  [")[0] for line in told[1:-1]] == [
        m["text"].replace("Seat 1", "Random bot") for m in view["moves"]
    ]
    # told as another seat: refused, the file holds only its own seat's knowledge
    line = _one_line(replay(path, "--lang", "ja", "--seat", "1"))
    assert "席0から見たゲームの記録です" in line
    # a phrase that is not the catalogs', or names a seat the game lacks: refused
    for bad in (["no-such-key", {}], ["words-cubed-drew", {"who": {"seat": 9}}], "x"):
        tampered = {**view, "moves": [{**view["moves"][0], "say": bad}]}
        path.write_text(json.dumps(tampered))
        line = _one_line(replay(path, "--lang", "ja"))
        assert "moves.0.say" in line, line
