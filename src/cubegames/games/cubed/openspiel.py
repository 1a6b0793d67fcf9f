"""CUBED as an OpenSpiel game (`cubegames_cubed`, through `cubegames.openspiel`): the deal
(one chance node per piece dealt, the outcome the piece), each `draw`, each piece of a
`draw3`, and every later round's deal. Hidden hands: imperfect information. Solo
(players=1) deals its hand the same way, a blocking piece no longer offered once the hand
holds three (rules §8: the extras go back into the bag and are replaced, so the hand ends
with at most three, each set as likely as in the book's way); then the starting piece is
drawn from the bag (a blocking one is set aside and another drawn) and turned by chance.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cubegames.core.errors import shown
from cubegames.core.game import JSON, Move, State
from cubegames.games.cubed.game import Cubed
from cubegames.games.cubed.notation import Draw, Draw3, Place, least_rotation
from cubegames.games.cubed.pieces import PieceKind
from cubegames.games.cubed.rl import distance
from cubegames.kit.openspiel import Chance, Codecs, Event, Holder, Param, Rules


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

    def __init__(self, params: dict[str, Param], codec: Codecs) -> None:
        super().__init__(params, codec)
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
                f"cubegames_cubed: bad parameter radius={shown(radius)}: a whole number, 0 for "
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
                f"cubegames_cubed: bad parameter radius={shown(radius)}: solo plays on the whole "
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


RULES = CubedRules
