"""CUBED's own sections of a simulation report (`GameInfo.report`), from the columns of its
summary (`cubegames.games.cubed.summary`)."""

# pandas ships no type information; its values are typed as Any here.

from __future__ import annotations

from cubegames.core.registry import make
from cubegames.games.cubed.game import Cubed
from cubegames.kit.plots import COLOURS, WIDE, errors, figure, percent, png
from cubegames.kit.report import Rate, Section, Table


def report(setting: Section) -> None:
    """CUBED's section: the pieces left in hand by kind, against the points chart of the
    edition, and how often a player holding a kind at the end still won; how rounds ended."""
    game = make("cubed", **setting.options)
    assert isinstance(game, Cubed)
    edition = game.edition
    seats = setting.seat_frame()
    kinds = [k for k in edition.points if f"left_{k.value}" in seats.columns]
    if not kinds:
        return
    rows = []
    raw = []
    total_points = sum(seats[f"left_{k.value}"].mean() * edition.points[k] for k in kinds)
    for kind in kinds:
        left = seats[f"left_{kind.value}"]
        points = edition.points[kind]
        holding = seats[left > 0]
        free = seats[left == 0]
        held = Rate("holding", float(holding["win"].sum()), len(holding))
        clear = Rate("not holding", float(free["win"].sum()), len(free))
        mean_points = float(left.mean()) * points
        raw.append(
            {
                "kind": kind.value,
                "points": points,
                "box": edition.kind_counts.get(kind, 0),
                "left": float(left.mean()),
                "points_left": mean_points,
                "held": held,
                "clear": clear,
            }
        )
        rows.append(
            [
                kind.value,
                str(points),
                str(edition.kind_counts.get(kind, 0)),
                f"{left.mean():.2f}",
                f"{mean_points:.2f}",
                f"{mean_points / total_points:.0%}" if total_points else "—",
                f"{(left > 0).mean():.1%}",
                held.text() if held.n else "—",
                clear.text() if clear.n else "—",
            ]
        )
    setting.extras["leftovers"] = raw
    setting.extras.setdefault("plots", []).append(("pieces left in hand by kind", leftovers_plot))
    setting.tables.append(
        Table(
            f"Pieces left in hand against the points chart ({edition.name})",
            [
                "kind",
                "points",
                "in box",
                "left per player",
                "points per player",
                "share of points",
                "held by",
                "wins when held",
                "wins when not",
            ],
            rows,
            "Counted at the end of the game (in a match of several rounds, its last round); "
            "'held by': the share of players holding at least one. A kind whose holders "
            "still win about as often as the others costs less than its points suggest.",
        )
    )
    ends = [c for c in setting.df.columns if c.startswith("end_")]
    rounds = float(setting.df["rounds"].sum()) if "rounds" in setting.df.columns else 0.0
    if ends and rounds:
        setting.tables.append(
            Table(
                "How rounds ended",
                ["ending", "rounds", "share"],
                [
                    [
                        c[4:].replace("_", " "),
                        f"{int(setting.df[c].sum()):,}",
                        f"{setting.df[c].sum() / rounds:.1%}",
                    ]
                    for c in ends
                    if setting.df[c].sum()
                ],
            )
        )


def leftovers_plot(setting: Section) -> bytes:
    """CUBED: pieces and points left per player by kind, beside the kind's points."""
    raw = setting.extras["leftovers"]
    fig, (left, right) = figure(WIDE, cols=2)
    names = [f"{r['kind']}\n({r['points']} pt)" for r in raw]
    xs = range(len(raw))
    left.bar(xs, [r["left"] for r in raw], color=COLOURS[0])
    left.set_xticks(list(xs), names, fontsize="small")
    left.set_ylabel("pieces per player")
    left.set_title("Left in hand at the end")
    held = [r["held"] for r in raw]
    clear = [r["clear"] for r in raw]
    width = 0.38
    for offset, rates, colour, label in (
        (-width / 2, held, COLOURS[3], "holding one"),
        (width / 2, clear, COLOURS[2], "holding none"),
    ):
        present = [(x + offset, r) for x, r in zip(xs, rates, strict=True) if r.n]
        if not present:
            continue
        px, pr = zip(*present, strict=True)
        right.bar(px, [r.rate for r in pr], width=width * 0.95, color=colour, label=label)
        right.errorbar(
            px, [r.rate for r in pr], yerr=errors(pr), fmt="none", ecolor="#212529", capsize=3
        )
    right.set_xticks(list(xs), names, fontsize="small")
    right.set_ylim(0, 1)
    percent(right)
    right.set_ylabel("win rate")
    right.legend(frameon=False, fontsize="small")
    right.set_title("Win rate of players holding each kind")
    return png(fig)
