"""What OpenSpiel needs to know of each game: its parameters, its type, and its chance.

The games draw their chance from a seed (`Game.new_state(seed)`); OpenSpiel wants every
random event as a chance node that lists its outcomes with their probabilities. Each game's
`Rules` turns the engine's hidden draws into such nodes, through the public API alone
(`to_dict`, `state_from_dict`, `play`): a chance outcome is written into the position file,
so the engine's own way of drawing is never relied on.

- CUBED: the deal (one node per piece dealt, the outcome the piece), each `draw`, each piece
  of a `draw3`, and every later round's deal. Hidden hands: imperfect information. Solo
  (players=1) deals its hand the same way, a blocking piece no longer offered once the hand
  holds three (rules §8: the extras go back into the bag and are replaced, so the hand ends
  with at most three, each set as likely as in the book's way); then the starting piece is
  drawn from the bag (a blocking one is set aside and another drawn) and turned by chance.
- CUBES: a `roll` is followed by one node per die (the outcome its face). Public.
- Unstackable and STAKD: no chance, nothing hidden.
"""

from __future__ import annotations

import copy
import functools
import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

import cubegames
from cubegames.core.game import JSON, Game, Move, State
from cubegames.games.cubed.game import Cubed
from cubegames.games.cubed.notation import Draw, Draw3, Place, least_rotation
from cubegames.games.cubed.pieces import PieceKind
from cubegames.games.cubed.rl import distance
from cubegames.rl.encoding import ActionCodec, codec

#: a parameter's default value: OpenSpiel's parameters are bool, int, float or str
Param = bool | int | float | str


@dataclass(frozen=True)
class Event:
    """One entry of a game's history as each seat saw it: `private` for `seats`,
    `public` for everyone else."""

    public: str
    private: str = ""
    seats: frozenset[int] = frozenset()
    #: a line per seat instead, when each seat sees it its own way (a plug-in game's)
    each: tuple[str, ...] = ()

    def seen_by(self, seat: int) -> str:
        if self.each:
            return self.each[seat]
        return self.private if seat in self.seats else self.public

    def known_to(self, seat: int) -> Event:
        """The event as far as `seat` knows it: the other seats' private parts become
        the public line (what a world resampled for `seat` may remember)."""
        if self.each:
            return Event(
                self.public,
                each=tuple(line if s == seat else self.public for s, line in enumerate(self.each)),
            )
        return self if not self.seats or seat in self.seats else Event(self.public)


@dataclass
class Chance:
    """A pending chance node, as plain data (states are deep-copied and pickled): what
    kind of event it is, its outcomes (ids and probabilities) and what it needs to go on."""

    kind: str
    outcomes: list[tuple[int, float]]
    data: JSON


class Holder:
    """The engine state behind an OpenSpiel state, its pending chance node and the
    history as each seat saw it. Copied with the engine's own `clone`, pickled as a
    position file."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.inner: State[Any] | None = None
        self.chance: Chance | None = None
        self.log: list[Event] = []
        #: the moves played (chance outcomes not counted)
        self.moves = 0

    def state(self) -> State[Any]:
        assert self.inner is not None
        return self.inner

    def __deepcopy__(self, memo: dict[int, Any]) -> Holder:
        other = Holder(self.game)
        other.inner = None if self.inner is None else self.inner.clone()
        other.chance = copy.deepcopy(self.chance, memo)
        other.log = list(self.log)
        other.moves = self.moves
        return other

    def __getstate__(self) -> JSON:
        return {
            "game": self.game.id,
            "options": self.game.options,
            "position": None if self.inner is None else self.inner.to_dict(),
            "chance": self.chance,
            "log": self.log,
            "moves": self.moves,
        }

    def __setstate__(self, saved: JSON) -> None:
        self.game = _game(saved["game"], json.dumps(saved["options"], sort_keys=True))
        position = saved["position"]
        self.inner = None if position is None else self.game.state_from_dict(position)
        self.chance = saved["chance"]
        self.log = saved["log"]
        self.moves = saved["moves"]


@functools.lru_cache(maxsize=32)
def _game(game_id: str, options: str) -> Game[Any]:
    return cubegames.make(game_id, **json.loads(options))


class Rules:
    """A game's OpenSpiel description. Subclasses say how the game's chance happens."""

    game_id: str = ""
    long_name: str = ""
    #: OpenSpiel's name of the game, if not `cubegames_<game_id>`
    openspiel_name: str = ""
    #: OpenSpiel parameters and their defaults (`options` turns them into `make`'s options)
    defaults: dict[str, Param] = {}  # noqa: RUF012
    min_players = 2
    max_players = 2
    chance_mode = "deterministic"  # or "explicit"
    hidden = False  # imperfect information
    max_chance_outcomes = 0
    #: whether the information-state tensor is offered (the observation's: the view holds
    #: all that a seat of a built-in game can know)
    infostate_tensor = True
    #: whether public and private observation strings are offered
    factored = False

    def __init__(self, params: dict[str, Param]) -> None:
        self.params = {**self.defaults, **params}
        self.game: Game[Any] = self.make(self.params)
        self.codec: ActionCodec = self.make_codec()

    def make(self, params: dict[str, Param]) -> Game[Any]:
        """The cubegames game of these parameters; a bad one raises ValueError naming it."""
        options = self.options(params)
        try:
            return cubegames.make(self.game_id, **options)
        except (ValueError, TypeError) as error:
            name = self.culprit(str(error), options)
            raise ValueError(
                f"cubegames_{self.game_id}: bad parameter {name}={params.get(name)!r}: {error}"
            ) from None

    def culprit(self, message: str, options: dict[str, Any]) -> str:
        """The parameter an error from `make` is about (the one it names, else players)."""
        lowered = message.lower()
        for name in options:
            words = {name, name.replace("_", " "), name.rstrip("s")}
            if any(w in lowered for w in words):
                return name
        return "players"

    def options(self, params: dict[str, Param]) -> dict[str, Any]:
        return dict(params)

    def settings(self) -> dict[str, Any]:
        """The codec's and the observer's own settings (CUBED's window)."""
        return {}

    def make_codec(self) -> ActionCodec:
        return codec(self.game, **self.settings())

    def legal(self, state: State[Any]) -> list[Move]:
        """The moves offered: the engine's legal moves (CUBED may bound its table)."""
        moves: list[Move] = state.legal_moves()
        return moves

    def max_game_length(self) -> int:
        raise NotImplementedError

    # -- play and chance ------------------------------------------------------------------

    def start(self, holder: Holder) -> None:
        """Set up a new game in `holder` (its `inner` state, or a pending chance node)."""
        holder.inner = self.game.new_state(0)

    def after(self, holder: Holder, move: Move) -> None:
        """Play `move` (legal) for the seat to move, leaving any chance it brings pending."""
        holder.state().play(move)

    def resolve(self, holder: Holder, outcome: int) -> Event:
        """Apply chance `outcome` to the pending node; the event to log."""
        raise NotImplementedError

    def move_event(self, seat: int, move: Move) -> Event:
        """How the seats see `move` of `seat` (made before it is played): in notation."""
        return Event(f"seat {seat}: {move}")

    def seen(self, holder: Holder, event: Event) -> Event:
        """The event logged once it has happened (a plug-in game adds each seat's view)."""
        return event

    def cut(self, holder: Holder) -> bool:
        """Whether the game is cut short unfinished (a plug-in game's move bound)."""
        return False

    def chance_text(self, chance: Chance | None, outcome: int) -> str:
        """A chance outcome in words (`chance` the pending node, when there is one)."""
        return f"outcome {outcome}"


# -- games without chance ------------------------------------------------------------------


class UnstackableRules(Rules):
    game_id = "unstackable"
    long_name = "Unstackable (cubegames)"
    defaults = {"players": 2, "exact_counts": True, "bag_counts_as_exposed": False}  # noqa: RUF012

    def max_game_length(self) -> int:
        # every move places or removes one of the 64 cubes; `end` closes at most one turn
        # per cube placed (exact_counts=false)
        return 64 * 3


class StakdRules(Rules):
    game_id = "stakd"
    long_name = "STAKD (cubegames)"
    defaults = {  # noqa: RUF012
        "players": 2,
        "edition": "standard",
        "points_to_win": 0,  # 0: the game's own (3, and 1 solo)
        "uni_opens_beside_bombers": False,
    }
    min_players = 1
    max_players = 8

    def options(self, params: dict[str, Param]) -> dict[str, Any]:
        out: dict[str, Any] = dict(params)
        if out["points_to_win"] == 0:
            del out["points_to_win"]
        return out

    def max_game_length(self) -> int:
        view = self.game.new_state(0).view(0)
        pieces = sum(sum(hand.values()) for hand in view["hands"])
        players = self.game.players
        points = int(self.game.options["points_to_win"])
        # each round lays at most every piece and gives one seat a point
        rounds = 1 if players == 1 else players * (points - 1) + 1
        return pieces * rounds


# -- CUBES: dice -----------------------------------------------------------------------------

#: every face a CUBES die may show, in chance-outcome order
FACES = ("C", ".", "1", "2", "3", "4", "5", "6")


class CubesRules(Rules):
    game_id = "cubes"
    long_name = "CUBES (cubegames)"
    defaults = {"players": 2, "sets": 3, "edition": "standard"}  # noqa: RUF012
    max_players = 10
    chance_mode = "explicit"
    max_chance_outcomes = len(FACES)
    #: rolls per set declared as the bound. A set has no hard limit (chips can go round and
    #: round), so this is a practical bound, as backgammon's in OpenSpiel: in 20,000 random
    #: 2-player sets the longest took 92 rolls (and 9 in 5,000 sets of 10 players)
    ROLLS_PER_SET = 1000

    def options(self, params: dict[str, Param]) -> dict[str, Any]:
        # a refereed game accepts forced rolls: that is how the dice's outcome goes in
        return {**params, "referee": True}

    def max_game_length(self) -> int:
        return self.ROLLS_PER_SET * int(self.params["sets"])

    def after(self, holder: Holder, move: Move) -> None:
        holder.chance = self._die(holder, [])

    def _die(self, holder: Holder, faces: list[str]) -> Chance:
        die = holder.state().to_dict()["faces"][len(faces)]
        counts = Counter(die)
        return Chance(
            "die",
            [(FACES.index(f), counts[f] / len(die)) for f in FACES if f in counts],
            {"faces": faces},
        )

    def resolve(self, holder: Holder, outcome: int) -> Event:
        assert holder.chance is not None
        faces = [*holder.chance.data["faces"], FACES[outcome]]
        dice = len(holder.state().to_dict()["faces"])
        if len(faces) < dice:
            holder.chance = self._die(holder, faces)
        else:
            holder.chance = None
            holder.state().play("roll " + " ".join(faces))
        return Event(f"die {len(faces)} shows {FACES[outcome]}")

    def chance_text(self, chance: Chance | None, outcome: int) -> str:
        face = FACES[outcome] if 0 <= outcome < len(FACES) else "?"
        if chance is None:
            return f"a die shows {face}"
        return f"die {len(chance.data['faces']) + 1} shows {face}"


# -- CUBED: deals and draws --------------------------------------------------------------------


class CubedRules(Rules):
    game_id = "cubed"
    long_name = "CUBED (cubegames)"
    defaults = {  # noqa: RUF012
        "players": 2,
        "edition": "en",
        "variants": "",
        "rounds": 0,  # 0: the game's own (3, and 1 solo)
        "strict_colors": True,
        "radius": 0,
    }
    min_players = 1
    max_players = 11
    chance_mode = "explicit"
    hidden = True
    factored = True

    def __init__(self, params: dict[str, Param]) -> None:
        super().__init__(params)
        assert isinstance(self.game, Cubed)
        edition = self.game.edition
        box = Counter(least_rotation(edition.text(p)) for p in edition.pieces)
        #: the distinct pieces (chance outcome i brings pieces[i]) and the box's copies
        self.pieces = sorted(box)
        self.box = box
        self.hand_size = edition.hand_size[self.game.players]
        self.max_chance_outcomes = len(self.pieces)
        #: the distinct blocking pieces (solo keeps at most three in hand)
        self.blocking = frozenset(
            p
            for p in self.pieces
            if edition.kind(edition.read_piece(p, "box")) is PieceKind.BLOCKING
        )

    def options(self, params: dict[str, Param]) -> dict[str, Any]:
        out: dict[str, Any] = dict(params)
        radius = out.pop("radius")
        if isinstance(radius, bool) or not isinstance(radius, int) or radius < 0:
            raise ValueError(
                f"cubegames_cubed: bad parameter radius={radius!r}: a whole number, 0 for "
                "the full table"
            )
        # "+" joins variants in a game string, where "," separates parameters
        names = str(out["variants"]).replace(",", "+").split("+")
        out["variants"] = tuple(v.strip() for v in names if v.strip())
        if out["rounds"] == 0:
            del out["rounds"]
        if out["players"] == 1 and radius != 0:
            # a solo turn must place while a piece fits anywhere: with the table bounded,
            # a fit beyond the window would leave the seat without a move
            raise ValueError(
                f"cubegames_cubed: bad parameter radius={radius!r}: solo plays on the whole "
                "table (radius=0)"
            )
        return out

    @property
    def radius(self) -> int | str:
        """The window of actions and planes: "full" (parameter radius=0, the default) is
        the one no legal placement ever leaves (see `cubegames.games.cubed.rl`); a smaller
        one bounds the table to that hexagon, a placement beyond it not being offered."""
        radius = int(self.params["radius"])
        return "full" if radius == 0 else radius

    def settings(self) -> dict[str, Any]:
        return {"radius": self.radius}

    def legal(self, state: State[Any]) -> list[Move]:
        moves = state.legal_moves()
        if self.radius == "full":
            return moves
        bound = int(self.radius)
        return [m for m in moves if not isinstance(m, Place) or distance(m.q, m.r) <= bound]

    def max_game_length(self) -> int:
        n = sum(self.box.values())
        players = self.game.players
        # per round: n placements, n draws and the passes after them, P idle turns between
        # two placements once the bag is empty, a bonus pass or a give per placement, and a
        # draw3 and its keep per piece of the bag
        per_round = n + 2 * n + players * (n + 1) + n + 2 * n
        return per_round * int(self.game.options["rounds"])

    # the deal: one chance node per piece, the hand of the seat to move first

    @property
    def solo(self) -> bool:
        return self.game.players == 1

    def start(self, holder: Holder) -> None:
        template = self.game.new_state(0).to_dict()
        if self.solo:  # the starting piece is laid by chance after the deal
            template = {**template, "table": []}
            template.pop("aside", None)
        self._deal(holder, template)

    def _deal(self, holder: Holder, template: JSON) -> None:
        players = self.game.players
        template = {**template, "hands": [[] for _ in range(players)], "bag": []}
        holder.inner = None
        holder.chance = self._deal_node(template, 0)

    def _pool(self, template: JSON) -> Counter[str]:
        """The pieces not yet dealt, laid or set aside: the bag, as a multiset."""
        pool = Counter(self.box)
        for hand in template["hands"]:
            pool.subtract(hand)
        pool.subtract(template.get("aside", []))
        pool.subtract(least_rotation(e["slots"]) for e in template["table"])
        return pool

    def _node(self, kind: str, pool: Counter[str], data: JSON) -> Chance:
        total = sum(pool.values())
        outcomes = [(i, pool[p] / total) for i, p in enumerate(self.pieces) if pool[p] > 0]
        return Chance(kind, outcomes, data)

    def _deal_node(self, template: JSON, k: int) -> Chance:
        pool = self._pool(template)
        if self.solo and sum(p in self.blocking for p in template["hands"][0]) >= 3:
            # solo: a blocking piece beyond the third goes back and is replaced (rules §8)
            for piece in self.blocking:
                pool[piece] = 0
        return self._node("deal", pool, {"template": template, "k": k})

    def _dealt_to(self, template: JSON, k: int) -> int:
        players = self.game.players
        return (int(template["to_move"]) + k // self.hand_size) % players

    def _resolve_deal(self, holder: Holder, outcome: int) -> Event:
        assert holder.chance is not None
        template, k = holder.chance.data["template"], holder.chance.data["k"]
        seat = self._dealt_to(template, k)
        piece = self.pieces[outcome]
        hands = [list(h) for h in template["hands"]]
        hands[seat].append(piece)
        template = {**template, "hands": hands}
        players = self.game.players
        done = k + 1 == players * self.hand_size
        if self.solo:  # no position until the starting piece is laid
            holder.chance = self._start_node(template) if done else self._deal_node(template, k + 1)
        else:
            holder.inner = self._position(template)
            holder.chance = None if done else self._deal_node(template, k + 1)
        number = template["round"]
        return Event(
            f"round {number}: seat {seat} is dealt a piece",
            f"round {number}: seat {seat} is dealt {piece}",
            frozenset({seat}),
        )

    def _position(self, template: JSON) -> State[Any]:
        """The engine's state of `template`, the bag holding every piece left."""
        pool = self._pool(template)
        return self.game.state_from_dict(
            {**template, "bag": [p for p in self.pieces for _ in range(pool[p])]}
        )

    # solo's starting piece: drawn from the bag (a blocking one is set aside and another
    # drawn), then turned one of its ways on 0,0

    def _start_node(self, template: JSON) -> Chance:
        return self._node("start", self._pool(template), {"template": template})

    def _resolve_start(self, holder: Holder, outcome: int) -> Event:
        assert holder.chance is not None
        template = holder.chance.data["template"]
        piece = self.pieces[outcome]
        if piece in self.blocking:
            template = {**template, "aside": [*template.get("aside", []), piece]}
            holder.chance = self._start_node(template)
            return Event(f"the starting piece drawn is {piece}: blocking, set aside")
        turns = Counter(_turns(piece))
        holder.chance = Chance(
            "turn",
            [(i, turns[t] / 3) for i, t in enumerate(_turns(piece)) if t not in _turns(piece)[:i]],
            {"template": template, "piece": piece},
        )
        return Event(f"the starting piece is {piece}")

    def _resolve_turn(self, holder: Holder, outcome: int) -> Event:
        assert holder.chance is not None
        template, piece = holder.chance.data["template"], holder.chance.data["piece"]
        slots = _turns(piece)[outcome]
        template = {**template, "table": [{"cell": [0, 0], "slots": slots}]}
        holder.chance = None
        holder.inner = self._position(template)
        return Event(f"the starting piece is laid as {slots} on 0,0")

    # moves and draws

    def after(self, holder: Holder, move: Move) -> None:
        state = holder.state()
        if isinstance(move, Draw | Draw3):
            holder.chance = self._draw_node(holder, str(move), [])
            return
        before = state.to_dict()["round"]
        state.play(move)
        if state.to_move is not None and state.to_dict()["round"] != before:
            # the engine dealt the next round from a hash of the position: deal it by chance
            self._deal(holder, state.to_dict())

    def _draw_node(self, holder: Holder, move: str, chosen: list[str]) -> Chance:
        """The next of the pieces a draw (`draw`, `draw3:k`) takes from the bag."""
        pool = Counter(least_rotation(p) for p in holder.state().to_dict()["bag"])
        pool.subtract(chosen)
        total = sum(pool.values())
        return Chance(
            "draw",
            [(i, pool[p] / total) for i, p in enumerate(self.pieces) if pool[p] > 0],
            {"move": move, "chosen": chosen},
        )

    def _resolve_draw(self, holder: Holder, outcome: int) -> Event:
        assert holder.chance is not None
        move = self.game.parse_move(holder.chance.data["move"])
        chosen = [*holder.chance.data["chosen"], self.pieces[outcome]]
        seat = holder.state().to_move
        assert seat is not None
        if len(chosen) < (move.k if isinstance(move, Draw3) else 1):
            holder.chance = self._draw_node(holder, str(move), chosen)
        elif self.solo:
            holder.chance = None
            self._play_solo_draw(holder, chosen[0])
        else:
            holder.chance = None
            self._play_draw(holder, seat, move, chosen)
        return Event(
            f"seat {seat} draws a piece", f"seat {seat} draws {chosen[-1]}", frozenset({seat})
        )

    def _play_solo_draw(self, holder: Holder, chosen: str) -> None:
        """Solo: lay the piece chance chose on top of the bag, then let the engine draw it
        (and end the game if nothing fits after the draws, as it decides)."""
        data = holder.state().to_dict()
        bag = list(data["bag"])
        top = next(i for i, p in enumerate(bag) if least_rotation(p) == chosen)
        bag.insert(0, bag.pop(top))
        holder.inner = self.game.state_from_dict({**data, "bag": bag})
        holder.inner.play(Draw())

    def _play_draw(self, holder: Holder, seat: int, move: Move, chosen: list[str]) -> None:
        """Play the draw, then exchange what the engine drew for the pieces chance chose,
        in the position file (so the engine's own way of drawing does not matter)."""
        state = holder.state()
        before = state.to_dict()
        state.play(move)
        after = state.to_dict()
        drawn3 = "drawn" in after["turn"]
        if drawn3:
            got = [least_rotation(p) for p in after["turn"]["drawn"]]
        else:
            grown = Counter(map(least_rotation, after["hands"][seat]))
            grown.subtract(map(least_rotation, before["hands"][seat]))
            got = list(grown.elements())
        out = Counter(chosen) - Counter(got)  # come out of the bag instead
        back = Counter(got) - Counter(chosen)  # go back into it
        if not out:
            return
        after["bag"] = sorted([*_without(after["bag"], out), *back.elements()])
        if drawn3:  # the pieces wait beside the hand
            after["turn"] = {**after["turn"], "drawn": list(chosen)}
        else:
            hands = list(after["hands"])
            hands[seat] = [*_without(hands[seat], back), *out.elements()]
            after["hands"] = hands
        holder.inner = self.game.state_from_dict(after)

    def resolve(self, holder: Holder, outcome: int) -> Event:
        assert holder.chance is not None
        kind = holder.chance.kind
        if kind == "deal":
            return self._resolve_deal(holder, outcome)
        if kind == "start":
            return self._resolve_start(holder, outcome)
        if kind == "turn":
            return self._resolve_turn(holder, outcome)
        return self._resolve_draw(holder, outcome)

    def move_event(self, seat: int, move: Move) -> Event:
        """What a `keep` kept and a `give` gave is seen by the seats holding it only."""
        text = str(move)
        if text.startswith("keep:"):
            return Event(f"seat {seat}: keep", f"seat {seat}: {text}", frozenset({seat}))
        if text.startswith("give:"):
            to = int(text.rsplit(">", 1)[1])
            return Event(f"seat {seat}: give>{to}", f"seat {seat}: {text}", frozenset({seat, to}))
        return Event(f"seat {seat}: {text}")

    def chance_text(self, chance: Chance | None, outcome: int) -> str:
        piece = self.pieces[outcome] if 0 <= outcome < len(self.pieces) else "?"
        if chance is None:
            return f"piece {piece}"
        if chance.kind == "deal":
            seat = self._dealt_to(chance.data["template"], chance.data["k"])
            return f"deal {piece} to seat {seat}"
        if chance.kind == "start":
            return f"start with {piece}"
        if chance.kind == "turn":
            turns = _turns(chance.data["piece"])
            return f"lay {turns[outcome]} on 0,0" if 0 <= outcome < 3 else "?"
        return f"draw {piece}"


def _turns(piece: str) -> tuple[str, str, str]:
    """The three ways a piece can be laid: its slots (top, left, right) turned by 0, 1
    and 2 steps, as the engine turns it (a one-colour piece gives the same three)."""
    return (piece, piece[1:] + piece[:1], piece[2:] + piece[:2])


def _without(pieces: list[str], taken: Counter[str]) -> list[str]:
    """`pieces` less the pieces counted in `taken` (compared in any rotation)."""
    left = Counter(taken)
    out = []
    for piece in pieces:
        key = least_rotation(piece)
        if left[key] > 0:
            left[key] -= 1
        else:
            out.append(piece)
    return out


RULES: dict[str, type[Rules]] = {
    "cubed": CubedRules,
    "unstackable": UnstackableRules,
    "stakd": StakdRules,
    "cubes": CubesRules,
}
