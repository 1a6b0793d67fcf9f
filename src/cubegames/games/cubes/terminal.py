"""CUBES in the terminal: the last roll as six coloured dice, what it did, the pot, every
seat's points and the score pad. Drawn only from `view(seat)`.

`odds_of(game)` draws the exact odds of each kind of roll (for `cubegames odds cubes`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cubegames.core.game import Game, Move
from cubegames.games.cubes.dice import BLANK, WORD, Row
from cubegames.games.cubes.edition import Edition
from cubegames.games.cubes.game import Cubes
from cubegames.games.cubes.odds import odds
from cubegames.games.cubes.outcome import Outcome, described
from cubegames.kit import words
from cubegames.kit.terminal import listed, on_colour, t, worded
from cubegames.kit.terminal import seat as seat_name


def dice_text(game: Cubes, faces: Sequence[str]) -> Text:
    """A roll as six coloured dice, each showing its face (`CUBES`, a number or `·`)."""
    out = Text()
    for die, face in zip(game.edition.dice, faces, strict=True):
        # a dot, not a space, so a blank die still reads as a die without colour
        label = "CUBES" if face == WORD else "·" if face == BLANK else face
        out.append(f" {label:^5} ", on_colour(die.rgb))
        out.append(" ")
    return out


def draw(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> RenderableType:
    """The table as `view["seat"]` sees it."""
    assert isinstance(game, Cubes)
    ed = game.edition
    seat = view["seat"]
    to_move = view["to_move"]
    past = view.get("past_sets", [])
    head = Text("CUBES", style="bold")
    head.append(" · " + t("term-cubes-set", set=view["set"], sets=game.sets) + " · ")
    head.append(t("cubes-pot", chips=view["pot"]), style="bold")
    in_play = sum(view["chips"]) + view["pot"]
    if in_play < ed.box_points:
        in_box = t("term-cubes-in-play", points=in_play, box=ed.box_points)
        head.append(f" · {in_box}", style="grey50")
    parts: list[RenderableType] = [head, Text()]

    out = Outcome.from_view(view)
    if out is None:
        parts.append(Text(t("term-cubes-no-roll"), style="grey50"))
    else:
        who = seat_name(out.seat, seat)
        rolled = t("term-cubes-rolled", who=who, faces=" ".join(out.faces))
        parts.append(Text(rolled, style="bold"))
        parts.append(dice_text(game, out.faces))
        parts.append(Text(worded(described(out, ed, seat), seat)))
        if out.bust is not None:
            scores = listed(
                [
                    t("term-score", who=seat_name(s), points=v)
                    for s, v in enumerate(past[-1]["scores"])
                ]
            )
            ended = t("term-cubes-set-over", set=len(past), scores=scores)
            parts.append(Text(ended, style="bold yellow"))
    parts.append(Text())

    seats = Table(box=None, padding=(0, 2), show_header=True, header_style="bold")
    seats.add_column(t("term-col-seat"))
    seats.add_column(t("term-col-points"), justify="right")
    for k in range(1, len(past) + 1):
        seats.add_column(t("term-col-set", set=k), justify="right")
    seats.add_column(t("term-col-total"), justify="right")
    for s, points in enumerate(view["chips"]):
        mark = "▶ " if s == to_move else "  "
        you = t("term-you-mark") if s == seat else ""
        row = [f"{mark}{s}{you}", str(points)]
        row += [str(p["scores"][s]) for p in past]
        row.append(str(view["totals"][s]))
        seats.add_row(*row, style="bold" if s == seat else None)
    parts.append(seats)
    if to_move is None:
        best = max(view["totals"])
        won = [s for s, total in enumerate(view["totals"]) if total == best]
        names = listed([seat_name(s, seat) for s in won])
        over = t("term-cubes-won", who=names, points=best)
        parts += [Text(), Text(over, style="bold green")]
    elif to_move == seat and legal:
        ask = t("term-cubes-your-roll-referee") if game.referee else t("term-cubes-your-roll")
        parts += [Text(), Text(ask, style="bold")]
    return Group(*parts)


#: each row's catalog key (its title, shared with the page's words for a roll)
_TITLES = {row: f"words-cubes-row-{row.value}" for row in Row}


def _happens(row: Row, ed: Edition) -> str:
    """What happens on a roll of `row`, in words."""
    if row is Row.NUMBERS:
        return t("term-odds-rule-numbers")
    if row is Row.CUBES_FEW:
        return t("term-odds-rule-cubes-few", opp=ed.opponent_pays, mult=ed.multiplier)
    if row is Row.CUBES_MANY:
        return t("term-odds-rule-cubes-many", opp=ed.opponent_pays)
    if row is Row.CUBES_ONLY:
        return t("term-odds-rule-cubes-only", opp=ed.opponent_pays)
    return t("term-odds-rule-blank", blank=ed.blank_pays)


def odds_table(game: Cubes) -> Table:
    """The exact odds of each row of the rules' table, from every roll of the game's dice,
    in the terminal's language (`kit.terminal.speaking`)."""
    ed = game.edition
    rows = odds(ed)
    total = rows[0].total
    named = f"edition-cubes-{game.edition_name}"  # a home-made edition: its own name
    table = Table(
        title=t("term-odds-title", rolls=total, edition=t(named) if words.has(named) else ed.name),
        caption=t("term-odds-caption"),
    )
    # fold, not cut, where a language writes no spaces to wrap at
    table.add_column(t("term-odds-col-roll"), overflow="fold")
    table.add_column(t("term-odds-col-happens"), overflow="fold")
    table.add_column(t("term-odds-col-rolls"), justify="right")
    table.add_column(t("term-odds-col-probability"), justify="right")
    table.add_column("≈", justify="right")
    table.add_column(t("term-odds-col-claim"), justify="right")
    for r in rows:
        rule = _happens(r.row, ed)
        claim = "" if r.mean_claim is None else f"{float(r.mean_claim):.2f}"
        table.add_row(
            t(_TITLES[r.row]),
            rule,
            str(r.ways),
            str(r.probability),
            f"{float(r.probability):.2%}",
            claim,
        )
    return table


def odds_of(game: Game[Any]) -> RenderableType:
    """`cubegames odds cubes`: the exact odds of a roll (`cubegames.render.terminal.odds`)."""
    assert isinstance(game, Cubes)
    return odds_table(game)


def tell(game: Game[Any], view: Mapping[str, Any]) -> str | None:
    """The last roll in words, for the seat whose view this is (None before any roll)."""
    assert isinstance(game, Cubes)
    out = Outcome.from_view(view)
    if out is None:
        return None
    return worded(described(out, game.edition, view.get("seat")), view.get("seat"))
