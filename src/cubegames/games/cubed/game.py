"""The CUBED game: options, setting up, reading positions and moves."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, ClassVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from cubegames.core import chance, splitmix
from cubegames.core.capabilities import FinalDigest
from cubegames.core.data import FieldReader, refuse_other_fields
from cubegames.core.errors import plain, shown
from cubegames.core.game import JSON, Game, Playouts, State
from cubegames.core.hexgrid import STEP, in_range, label, pack
from cubegames.core.info import GameInfo
from cubegames.core.options import check_options, players_field
from cubegames.core.phrase import Phrase, Worded, edition_phrase
from cubegames.games.cubed import search_hooks
from cubegames.games.cubed.edition import Edition, load_edition
from cubegames.games.cubed.formats import VERSION, read_chance
from cubegames.games.cubed.frontier import Frontier, rebuild
from cubegames.games.cubed.notation import CubedMove, parse
from cubegames.games.cubed.pieces import Piece, canonical, mirror
from cubegames.games.cubed.placement import SLOT
from cubegames.games.cubed.state import (
    BAG_EMPTY,
    BLOCKED,
    EMPTIED,
    STALLED,
    STANDSTILL,
    STUCK,
    CubedState,
)
from cubegames.games.cubed.summary import COLUMNS, CubedSummary

VARIANTS = ("bridging", "void", "draw3")
ENDINGS = (EMPTIED, BLOCKED, STALLED, STANDSTILL, STUCK, BAG_EMPTY)
MAX_ROUNDS = 10


def _variant(name: str) -> str:
    if name not in VARIANTS:
        raise Worded(
            "error-option-choice",
            f"unknown variant {shown(name)}; choose from {', '.join(VARIANTS)}",
            option="variants",
            choices=", ".join(VARIANTS),
        )
    return name


class CubedOptions(BaseModel):
    """CUBED's options; the players an edition seats, solo's limits and a variant named
    twice are checked by the game."""

    model_config = ConfigDict(extra="forbid")

    players: StrictInt = players_field(1, 11, description="1 for a solo game")
    edition: StrictStr = Field(
        "en",
        title="Edition",
        json_schema_extra={
            "x-choices": [["en", "English (6 players)"], ["ja", "Japanese (2 to 11 players)"]]
        },
    )
    variants: Sequence[Annotated[StrictStr, AfterValidator(_variant)]] = Field(
        (),
        title="Variants",
        json_schema_extra={
            "x-choices": [
                ["bridging", "Bridging the gap: joining two groups earns another piece"],
                ["void", "Fill the void: closing a hole lets you give a piece away"],
                ["draw3", "Draw 3, keep 1"],
            ]
        },
    )
    rounds: StrictInt | None = Field(
        None, ge=1, le=MAX_ROUNDS, title="Rounds", description="3 by default, 1 in a solo game"
    )
    strict_colors: StrictBool = Field(
        True,
        title="Every touching side must match",
        description="off: two matching sides are enough",
    )


INFO = GameInfo(
    id="cubed",
    title="CUBED",
    pitch=(
        "Lay hexagonal three-colour pieces so every touching side matches; empty your hand first."
    ),
    min_players=1,
    max_players=11,
    options=CubedOptions,
    rules=(
        "Lay one piece a turn. From the third piece on it must touch at least two pieces, "
        "and every side it touches must show the same colour (white matches any colour "
        "except a blocking piece's).",
        "Black sides touch nothing: the cells next to them are dead (×).",
        "You may draw one piece instead, then lay or pass; with an empty bag you may pass.",
        "Empty your hand to win the round. Pieces left in hand cost points: single 1, "
        "double 2, triple 3, blocking 5, wild 10. The lowest total wins.",
    ),
    score_better="lower",
    columns=COLUMNS,
    summary=CubedSummary,
    report="cubegames.games.cubed.report:report",
    example_options=(
        {"players": 2, "rounds": 1},
        {"players": 4, "rounds": 1},
        {"players": 3, "edition": "ja", "rounds": 1},
        {"players": 2, "variants": ["bridging", "void", "draw3"], "rounds": 3},
        {"players": 3, "variants": ["draw3"], "rounds": 1, "strict_colors": False},
        {"players": 1},
        {"players": 1, "edition": "ja"},
    ),
)


class Cubed(Game[CubedMove], chance.Versioned, FinalDigest):
    """CUBED with one set of options.

    >>> game = Cubed(players=2, edition="en", rounds=1)
    >>> state = game.new_state(seed=3)
    >>> len(state.hands[0]), len(state.bag)
    (25, 12)
    """

    info: ClassVar[GameInfo] = INFO

    def __init__(
        self,
        players: int = 2,
        edition: str = "en",
        variants: Sequence[str] = (),
        rounds: int | None = None,
        strict_colors: bool = True,
    ) -> None:
        # one option at a time: the model; across options (the edition's seats, solo's
        # limits, a variant named twice): here
        check_options(
            INFO.id,
            CubedOptions,
            {
                "players": players,
                "edition": edition,
                "variants": variants,
                "rounds": rounds,
                "strict_colors": strict_colors,
            },
        )
        self.edition: Edition = load_edition(edition)
        self.edition_name = edition
        if players not in self.edition.hand_size or (players == 1 and not self.edition.solo):
            counts = sorted(self.edition.hand_size)
            raise Worded(
                "error-players-edition",
                f"the {self.edition.id} edition plays {counts[0]} to {counts[-1]} players, "
                f"not {plain(players)}",
                edition=edition_phrase(INFO.id, self.edition.id),
                low=counts[0],
                high=counts[-1],
                players=plain(players),
            )
        self.players = players
        if len(set(variants)) != len(variants):
            raise Worded("error-variant-twice", "a variant is named twice")
        if players == 1 and variants:  # all three are multiplayer variants (spec §8)
            raise Worded(
                "error-variant-solo",
                f"the {variants[0]} variant needs other players; solo has none",
                variant=Phrase(f"variant-cubed-{variants[0]}", {}, variants[0]),
            )
        self.variants: tuple[str, ...] = tuple(variants)
        if rounds is None:
            rounds = 1 if players == 1 else 3
        if players == 1 and rounds != 1:
            raise Worded("error-solo-rounds", "solo play is a single game: rounds must be 1")
        self.rounds = rounds
        self.strict_colors = strict_colors
        self.frontier = Frontier.of(self.edition)
        self.ai_points = search_hooks.points_table(self.edition)

    @property
    def options(self) -> JSON:
        out: JSON = {
            "players": self.players,
            "edition": self.edition_name,
            "variants": list(self.variants),
            "rounds": self.rounds,
        }
        if not self.strict_colors:
            out["strict_colors"] = False
        return out

    def new_state(self, seed: int = 0) -> CubedState:
        """The first deal for `seed` and the generator of every later draw: one SplitMix64
        stream started by the seed (`splitmix.from_seed`), which shuffles the box for the
        first deal and whose state after it the position keeps, in `to_dict` but in no
        view. A seed of 2**64 or more (the web server's 128-bit deals)
        keys that generator with all of its bits, so no seat can search for it from the
        draws it sees (docs/positions.md).

        >>> game = Cubed()
        >>> len(game.new_state(7).to_dict()["rng"]), "rng" in game.new_state(7).view(0)
        (16, False)
        >>> len(game.new_state(2**100).to_dict()["rng"])
        48
        """
        return self.new_state_as(seed, chance.CURRENT)

    def new_state_as(self, seed: int, version: int) -> CubedState:
        """`new_state(seed)` as chance version `version` deals it (`core.chance`): 3 is
        `new_state`; 2 shuffles the first deal with `random.Random(seed)` and starts the
        position's generator at that generator's next 64 bits; 1 is version 2's first deal
        in format 1 (no generator: every later draw comes from a hash of the position then,
        as before format 2). A seed of 2**64 or more gives a format 1 position a `secret`
        (kept in `to_dict`, in no view), mixed into that hash so that no seat can work out
        the draws from what it sees. The web server replays a game it stored in the version
        it was dealt in.

        >>> game = Cubed()
        >>> old = game.new_state_as(7, 1)
        >>> old.hands == game.new_state_as(7, 2).hands, "version" in old.to_dict()
        (True, False)
        >>> old.hands == game.new_state(7).hands
        False
        >>> state = game.new_state_as(2**100, 1)
        >>> len(state.to_dict()["secret"]), "secret" in state.view(0)
        (32, False)
        """
        if type(version) is not int or version not in chance.VERSIONS:
            raise ValueError(f"chance version {shown(version)} is not one of {chance.VERSIONS}")
        seed = chance.whole_seed(seed)
        state = CubedState(self)
        if version >= 3:
            draws = splitmix.Draws(splitmix.from_seed(seed))
            state.deal(draws)
            state.rng = draws.state
            return state
        dealer = chance.seeded(seed)
        state.deal(dealer)
        if version == 1:
            state.rng = None
            if seed >= 2**64:
                state.secret = chance.secret(seed, "cubed")
        else:
            state.rng = splitmix.first(seed, dealer)
        return state

    def parse_move(self, text: str) -> CubedMove:
        return parse(text, self.edition.letters)

    # -- search hooks (see cubegames.games.cubed.search_hooks) ----------------------------

    def sampler(self, view: Mapping[str, Any], seat: int) -> Callable[[random.Random], CubedState]:
        return search_hooks.sampler(self.determinize(view, seat, random.Random(0)), seat)

    def rollout(self, state: State[CubedMove], rng: random.Random) -> None:
        assert isinstance(state, CubedState)
        search_hooks.rollout(state, rng)

    def rewards(self, state: State[CubedMove]) -> list[float]:
        assert isinstance(state, CubedState)
        return search_hooks.rewards(state)

    def root_moves(self, state: State[CubedMove]) -> list[CubedMove]:
        assert isinstance(state, CubedState)
        return search_hooks.root_moves(state)

    def flat_budget(self) -> int | None:
        """The default flat search's playouts a move for these seats and this edition
        (`search_hooks.flat_budget`)."""
        return search_hooks.flat_budget(self.players, self.edition.id)

    def playouts(
        self, view: Mapping[str, Any], seat: int, rng: random.Random
    ) -> Playouts[CubedMove] | None:
        from cubegames.games.cubed import kernel_bridge  # numba: imported only when asked for

        return kernel_bridge.playouts(self.determinize(view, seat, rng))

    def random_playout(
        self, state: State[CubedMove], rngs: list[splitmix.Draws]
    ) -> list[int] | None:
        assert isinstance(state, CubedState)
        from cubegames.games.cubed import kernel_bridge  # numba: imported only when asked for

        return kernel_bridge.random_playout(state, rngs)

    def greedy_move(self, state: State[CubedMove], rng: random.Random) -> CubedMove:
        assert isinstance(state, CubedState)
        from cubegames.games.cubed import kernel_bridge  # numba: imported only when asked for

        if kernel_bridge.searchable(state):
            return kernel_bridge.greedy_move(state, rng)  # the same move, valued in the kernel
        return search_hooks.greedy_move(state, rng)

    def final_digest(self, state: State[CubedMove]) -> str:
        """The simulator's digest of `state` up to symmetry (`games.cubed.digest`)."""
        assert isinstance(state, CubedState)
        from cubegames.games.cubed.digest import final_digest

        return final_digest(state)

    # -- reading positions ---------------------------------------------------------------

    def state_from_dict(self, data: Mapping[str, Any]) -> CubedState:
        return _Reader(self, data).state()

    def determinize(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> CubedState:
        """A full state that `seat` cannot tell from the real one: hidden pieces re-dealt.

        The pieces `seat` cannot see are the box minus the table, its own hand and the
        pieces set aside; they are shuffled into the other hands, the bag and (if another
        seat is choosing from a draw3 draw) that draw.
        """
        data = {k: v for k, v in view.items() if k not in ("seat", "hand_sizes")}
        sizes = view["hand_sizes"]
        ed = self.edition
        seen: Counter[Piece] = Counter()
        for entry in view["table"]:
            seen[canonical(ed.read_piece(entry["slots"], "table"))] += 1
        for text in [*view["hands"][seat], *view.get("aside", [])]:
            seen[canonical(ed.read_piece(text, "hand"))] += 1
        turn = dict(view["turn"])
        drawn_count = turn["drawn"] if isinstance(turn.get("drawn"), int) else 0
        if isinstance(turn.get("drawn"), list):
            for text in turn["drawn"]:
                seen[canonical(ed.read_piece(text, "drawn"))] += 1
        pool: list[Piece] = []
        for piece in ed.pieces:
            key = canonical(piece)
            if seen[key]:
                seen[key] -= 1
            else:
                pool.append(piece)
        need = sum(s for i, s in enumerate(sizes) if i != seat) + view["bag"] + drawn_count
        if len(pool) < need:
            raise ValueError(
                "this position holds more pieces than the box, so it cannot be re-dealt"
            )
        rng.shuffle(pool)
        hands: list[list[str]] = []
        for i, size in enumerate(sizes):
            if i == seat:
                hands.append(list(view["hands"][seat]))
            else:
                hands.append([ed.text(p) for p in pool[:size]])
                del pool[:size]
        if drawn_count:
            turn["drawn"] = [ed.text(p) for p in pool[:drawn_count]]
            del pool[:drawn_count]
        data["hands"] = hands
        data["turn"] = turn
        data["bag"] = [ed.text(p) for p in pool[: view["bag"]]]
        # nobody sees the generator: a fresh one, so the draws to come are a guess too
        data["version"] = VERSION
        data["rng"] = splitmix.to_text(rng.getrandbits(64))
        return self.state_from_dict(data)


#: every field a CUBED position file may have (`CubedState.to_dict`; "secret" only in
#: format 1, "rng" and "version" only after it)
FIELDS = (
    "game", "options", "version", "rng", "secret", "table", "hands", "bag", "aside", "turn",
    "round", "totals", "idle", "stuck", "starter", "past_rounds", "end", "to_move",
)  # fmt: skip


class _Reader(FieldReader):
    """Validates a position dict field by field; errors name the field."""

    def __init__(self, game: Cubed, data: Mapping[str, Any]) -> None:
        super().__init__(data)
        self.game = game
        self.ed = game.edition

    def piece(self, value: Any, where: str) -> Piece:
        if not isinstance(value, str):
            raise ValueError(f"{where}: a piece is a string of three colour letters")
        return self.ed.read_piece(value, where)

    def pieces(self, value: Any, where: str) -> list[Piece]:
        if not isinstance(value, list):
            raise ValueError(f"{where}: must be a list of pieces")
        return [self.piece(v, f"{where}[{i}]") for i, v in enumerate(value)]

    def box_check(self, pieces: list[tuple[str, Piece]]) -> None:
        """Every piece is a piece of the box, each at most as often as the box holds it
        (a rotation is the same piece, a mirror image is not)."""
        ed = self.ed
        box = Counter(canonical(p) for p in ed.pieces)
        left = Counter(box)
        for where, piece in pieces:
            key = canonical(piece)
            text = ed.text(piece)
            if not box[key]:
                if box[canonical(mirror(piece))]:
                    raise ValueError(
                        f"{where}: {text} is the mirror image of a piece of the {ed.id} box; "
                        "pieces cannot be flipped"
                    )
                raise ValueError(f"{where}: the {ed.id} box has no piece {text}")
            if not left[key]:
                times = "once" if box[key] == 1 else f"{box[key]} times"
                raise ValueError(
                    f"{where}: one {text} too many; the {ed.id} box holds that piece {times}"
                )
            left[key] -= 1

    def past_round(self, entry: Any, where: str) -> JSON:
        """A finished round as `_end_round` writes it: each seat's points (0 for the
        seat that emptied its hand, the `winner`; at most the whole box's), and how it
        ended. Kept as it was read: format 1 draws hash it."""
        if not isinstance(entry, dict) or set(entry) != {"scores", "end", "winner"}:
            raise ValueError(f'{where}: must be {{"scores": [...], "end": ..., "winner": ...}}')
        players = self.game.players
        scores = entry["scores"]
        if not isinstance(scores, list) or len(scores) != players:
            raise ValueError(f"{where}.scores: needs {players} numbers, one per seat")
        most = sum(self.ed.piece_points(p) for p in self.ed.pieces)
        for seat, points in enumerate(scores):
            self.count(points, f"{where}.scores[{seat}]", 0, most)
        end = entry["end"]
        if end not in (EMPTIED, BLOCKED, STALLED, STANDSTILL):
            raise ValueError(f"{where}.end: {shown(end)} is not how a round ends")
        winner = entry["winner"]
        if end == EMPTIED:
            self.count(winner, f"{where}.winner", 0, players - 1)
            if scores[winner]:
                raise ValueError(f"{where}.scores[{winner}]: the seat that emptied its hand has 0")
        elif winner is not None:
            raise ValueError(f"{where}.winner: only a round ended by an empty hand has one")
        # copied down to the scores: changing the dict read must not change the state
        return {key: list(value) if key == "scores" else value for key, value in entry.items()}

    def state(self) -> CubedState:
        game, ed = self.game, self.ed
        players = game.players
        refuse_other_fields(self.data, FIELDS, "CUBED")
        state = CubedState(game)

        table: dict[int, Piece] = {}
        for i, entry in enumerate(self.get("table", list)):
            where = f"table[{i}]"
            if not isinstance(entry, dict) or set(entry) != {"cell", "slots"}:
                raise ValueError(f'{where}: must be {{"cell": [q, r], "slots": "GPY"}}')
            cell = entry["cell"]
            if (
                not isinstance(cell, list)
                or len(cell) != 2
                or not all(isinstance(c, int) and not isinstance(c, bool) for c in cell)
            ):
                raise ValueError(f"{where}.cell: must be two whole numbers [q, r]")
            if not in_range(*cell):
                raise ValueError(f"{where}.cell: {cell[0]},{cell[1]} is too far from 0,0")
            packed = pack(*cell)
            if packed in table:
                raise ValueError(f"{where}.cell: two pieces on {cell[0]},{cell[1]}")
            table[packed] = self.piece(entry["slots"], f"{where}.slots")
        for cell, piece in table.items():
            for d in range(6):
                other = table.get(cell + STEP[d])
                if other is not None and ed.black in (piece[SLOT[d]], other[SLOT[(d + 3) % 6]]):
                    raise ValueError(
                        f"table: a black side touches a piece between {label(cell)} "
                        f"and {label(cell + STEP[d])}"
                    )

        hands = self.get("hands", list)
        if len(hands) != players:
            raise ValueError(f'field "hands": needs {players} hands, one per seat')
        state.hands = [self.pieces(h, f"hands[{i}]") for i, h in enumerate(hands)]
        state.bag = self.pieces(self.get("bag", list), "bag")
        state.aside = self.pieces(self.get("aside", list, []), "aside")

        turn = self.get("turn", dict)
        extra = set(turn) - {"drew", "bonus", "give", "drawn", "draws"}
        if extra:
            raise ValueError(f"turn: unknown field {shown(sorted(extra)[0])}")
        for flag in ("drew", "bonus", "give"):
            value = turn.get(flag, False)
            if not isinstance(value, bool):
                raise ValueError(f"turn.{flag}: must be true or false")
            setattr(state, flag, value)
        state.drawn = self.pieces(turn.get("drawn", []), "turn.drawn")
        state.draws = self.count(turn.get("draws", 0), "turn.draws", 0, 2)

        state.round = self.count(self.get("round", int), 'field "round"', 1, game.rounds)
        totals = self.get("totals", list)
        if len(totals) != players:
            raise ValueError(f'field "totals": needs {players} numbers')
        state.totals = [self.count(t, f"totals[{i}]") for i, t in enumerate(totals)]
        state.idle = self.count(self.get("idle", int, 0), 'field "idle"', 0, players)
        state.stuck = self.count(self.get("stuck", int, 0), 'field "stuck"', 0, players - 1)
        if state.stuck > state.idle:
            raise ValueError('field "stuck": a stuck turn is also a turn without a placement')
        state.starter = self.count(self.get("starter", int, 0), 'field "starter"', 0, players - 1)
        past = self.get("past_rounds", list, [])
        if len(past) != state.round - 1 and not (len(past) == state.round and "end" in self.data):
            raise ValueError('field "past_rounds": needs one entry per finished round')
        state.past_rounds = [self.past_round(r, f"past_rounds[{i}]") for i, r in enumerate(past)]
        for seat, total in enumerate(state.totals):
            summed = sum(r["scores"][seat] for r in state.past_rounds)
            if total != summed:
                raise ValueError(
                    f"totals[{seat}]: {total}, but the finished rounds (past_rounds) "
                    f"give that seat {summed}"
                )
        end = self.get("end", (str, type(None)), None)
        if end is not None and end not in ENDINGS:
            raise ValueError(f'field "end": unknown ending {shown(end)}')
        state.end = end
        state.rng, state.secret = read_chance(self.data)

        to_move = self.data.get("to_move", ...)
        if to_move is ...:
            raise ValueError('field "to_move" is missing')
        if to_move is None:
            if end is None:
                raise ValueError('field "to_move": null only once the game has ended ("end")')
        else:
            self.count(to_move, 'field "to_move"', 0, players - 1)
            if end is not None:
                raise ValueError('field "end": given, but a seat is still to move')
            if not state.hands[to_move] and not state.drawn:
                raise ValueError(f"hands[{to_move}]: empty, so the round should have ended")
            if state.idle >= players and not state.bag and not state.drew and not state.drawn:
                raise ValueError(
                    'field "idle": the bag is empty and every player in turn placed nothing, '
                    "so the round should have ended"
                )
        state._to_move = to_move
        # A bonus placement from bridging may fill a void: then bonus (the turn's one bonus
        # is spent) and give are both set. A draw3 draw excludes both.
        if state.drawn and (state.give or state.bonus):
            raise ValueError("turn: drawn cannot be pending together with give or bonus")
        for flag, variant in (("bonus", "bridging"), ("give", "void"), ("drawn", "draw3")):
            if getattr(state, flag) and variant not in game.variants:
                raise ValueError(f"turn.{flag}: only with the {variant} variant")

        self.box_check(
            [(f"table[{i}].slots", p) for i, p in enumerate(table.values())]
            + [(f"hands[{s}][{i}]", p) for s, h in enumerate(state.hands) for i, p in enumerate(h)]
            + [(f"bag[{i}]", p) for i, p in enumerate(state.bag)]
            + [(f"aside[{i}]", p) for i, p in enumerate(state.aside)]
            + [(f"turn.drawn[{i}]", p) for i, p in enumerate(state.drawn)]
        )
        state.front, state.playable = rebuild(game.frontier, table)
        state.table = table
        if to_move is None:
            self.finished(state)
        else:
            if not state.playable:
                raise ValueError("table: no cell is playable, so the round should have ended")
            if game.players == 1 and not state.placements():
                if not state.bag:
                    raise ValueError("nothing fits and the bag is empty: the game is already lost")
                if state.draws >= 2:
                    raise ValueError("nothing fits after two draws: the game is already lost")
        return state

    def finished(self, state: CubedState) -> None:
        """A game over as the rules leave it (`CubedState._finish`): ended in a way its
        seats can end, after its last round, whose record is the hands left; a solo game
        won (`emptied`) just when its hand is empty. A file could say a match of three
        rounds was over after the first, or a solo game was won with pieces in hand."""
        game, ed, end = self.game, self.ed, state.end
        assert end is not None  # `to_move` null needs an "end"
        if game.players == 1:
            if end not in (EMPTIED, BLOCKED, STUCK, BAG_EMPTY):
                raise ValueError(f'field "end": a solo game does not end {end}')
            if state.past_rounds:
                raise ValueError('field "past_rounds": a solo game is a single game')
            if (end == EMPTIED) != (not state.hands[0]):
                raise ValueError(
                    'field "end": a solo game ends emptied just when its hand is empty'
                )
        else:
            if end not in (EMPTIED, BLOCKED, STALLED, STANDSTILL):
                raise ValueError(f'field "end": a game of {game.players} does not end {end}')
            if state.round != game.rounds:
                raise ValueError(
                    f'field "round": the game ends after round {game.rounds}, '
                    f"not in round {state.round}"
                )
            if len(state.past_rounds) != state.round:
                raise ValueError('field "past_rounds": the round that ended the game is missing')
            last = state.past_rounds[-1]
            where = f"past_rounds[{len(state.past_rounds) - 1}]"
            if last["end"] != end:
                raise ValueError(f"{where}.end: {last['end']}, but the game ended {end}")
            winner = last["winner"]
            if winner is not None and state.hands[winner]:
                raise ValueError(
                    f"hands[{winner}]: the seat that emptied its hand still holds pieces"
                )
            left = [sum(ed.piece_points(p) for p in hand) for hand in state.hands]
            if last["scores"] != left:
                raise ValueError(f"{where}.scores: the hands left score {left}")
        if end == BLOCKED and state.playable:
            raise ValueError('field "end": blocked, but a cell of the table is playable')
        if end in (STANDSTILL, BAG_EMPTY) and state.bag:
            raise ValueError(f'field "end": {end}, but the bag holds pieces')
