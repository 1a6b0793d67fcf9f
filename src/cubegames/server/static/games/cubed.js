// CUBED: the table on its hex grid (pans and zooms), the hand in its own strip. Tap a
// piece of your hand, turn it, tap a cell lit for it; hovering a cell shows the piece
// there. A cell where the piece does not fit says why, in words, at the cell.

import { h } from "../util.js";
import { SQRT3, canvas, corner, flash, hexPoints, icon, label, panZoom, pointsOf, s, tip } from "../draw.js";

const R = 30; // hexagon radius on the table
const SLOT_CORNERS = [[30, 90, 150], [150, 210, 270], [270, 330, 30]]; // top, left, right
// neighbour of edge d: 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE (rules §2)
const STEPS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
const slotOf = (d) => Math.floor((((d - 1) % 6) + 6) % 6 / 2);

const centre = (q, r) => [SQRT3 * R * (q + r / 2), 1.5 * R * r];
const turned = (letters, k) => letters.slice(k) + letters.slice(0, k);
const key = (q, r) => `${q},${r}`;

/** A piece: three diamonds with their letters, centred on (cx, cy). */
export function piece(palette, slots, cx, cy, r, attrs = {}) {
  const g = s("g", { class: "piece", ...attrs });
  SLOT_CORNERS.forEach((corners, i) => {
    const pts = [[cx, cy], ...corners.map((a) => corner(cx, cy, r, a))];
    const colour = palette[slots[i]] || { rgb: "#ccc", ink: "#111", name: "?" };
    const mx = pts.reduce((t, p) => t + p[0], 0) / 4;
    const my = pts.reduce((t, p) => t + p[1], 0) / 4;
    g.append(s("polygon", { class: "d", points: pointsOf(pts), fill: colour.rgb }, s("title", {}, colour.name)),
      label(mx, my, slots[i], { fill: colour.ink, "font-size": r * 0.42, "font-weight": 700, class: "letter" }));
  });
  g.append(s("polygon", { class: "rim", points: hexPoints(cx, cy, r), fill: "none", stroke: "rgba(0,0,0,.55)" }));
  return g;
}

/** A piece on its own, for the hand strip and the game cards. */
export function pieceIcon(palette, slots, size = 52) {
  const r = size / 2 - 2;
  return s("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, class: "piece-icon" },
    piece(palette, slots, size / 2, size / 2, r));
}

const WORDS = { draw: "Draw a piece", pass: "Pass", skip: "Give nothing" };

export function create(ctx) {
  const palette = ctx.info.palette;
  let state = null;
  let selected = null; // {index, letters}
  let turn = 0;
  let legal = new Set();
  let moved = false; // the person panned or zoomed: keep their view

  const svg = canvas([-100, -100, 200, 200], { class: "cubed-table", role: "img", "aria-label": "The table" });
  const layer = s("g");
  const ghost = s("g", { class: "ghost" });
  svg.append(layer, ghost);
  const zoom = panZoom(svg, [-100, -100, 200, 200]);
  svg.addEventListener("wheel", () => { moved = true; });
  const tools = h("div", { class: "map-tools" },
    h("button", { type: "button", class: "icon-button", "aria-label": "Zoom in", onclick: () => { moved = true; zoom.zoomIn(); } }, icon("plus")),
    h("button", { type: "button", class: "icon-button", "aria-label": "Zoom out", onclick: () => { moved = true; zoom.zoomOut(); } }, icon("minus")),
    h("button", { type: "button", class: "icon-button", "aria-label": "Show the whole table", onclick: () => { moved = false; zoom.fit(); } }, icon("fit")));
  const hand = h("div", { class: "hand", role: "listbox", "aria-label": "Your hand" });
  const chosen = h("div", { class: "chosen" });
  const actions = h("div", { class: "actions" });
  ctx.board.replaceChildren(h("div", { class: "map" }, svg, tools));
  ctx.strip.replaceChildren(h("div", { class: "hand-head" }, chosen, actions), hand);

  const placements = () => [...legal].filter((m) => m.includes("@"));
  const letters = () => (selected ? turned(selected.letters, turn) : null);
  const fitsAnyTurn = (p) => [0, 1, 2].some((k) => placements().some((m) => m.startsWith(`${turned(p, k)}@`)));

  function table() {
    const map = new Map();
    for (const e of state.view.table) map.set(key(...e.cell), e.slots);
    return map;
  }

  /** Why the selected piece does not fit at (q, r), in words; null if no reason is seen. */
  function whyNot(q, r) {
    const mine = letters();
    const pieces = table();
    let touches = 0;
    for (let d = 0; d < 6; d += 1) {
      const other = pieces.get(key(q + STEPS[d][0], r + STEPS[d][1]));
      if (!other) continue;
      touches += 1;
      const a = mine[slotOf(d)];
      const b = other[slotOf(d + 3)];
      const name = (c) => (palette[c] ? palette[c].name : c);
      if (a === "K" || b === "K") return a === "K" ? "A black side may touch nothing, and this one would." : "The piece beside it has a black side here: nothing may touch it.";
      const wild = (a === "W" && !other.includes("K")) || (b === "W" && !mine.includes("K"));
      if (a !== b && !wild) return `This side is ${name(a)}, the piece beside it is ${name(b)}.`;
    }
    if (pieces.size >= 2 && touches < 2) return "Here it would touch only one piece: it must touch at least two.";
    return null;
  }

  function draw() {
    const view = state.view;
    const pieces = table();
    const hints = state.hints || { open: [], dead: [] };
    const open = new Set(placements().map((m) => m.split("@")[1]));
    const all = [...pieces.keys(), ...hints.open.map((c) => key(...c)), ...hints.dead.map((c) => key(...c))];
    const xs = [];
    const ys = [];
    for (const k of all.length ? all : ["0,0"]) {
      const [x, y] = centre(...k.split(",").map(Number));
      xs.push(x);
      ys.push(y);
    }
    const m = R * 1.6;
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    const w = Math.max(Math.max(...xs) - Math.min(...xs) + 2 * m, R * 8);
    const hh = Math.max(Math.max(...ys) - Math.min(...ys) + 2 * m, R * 6);
    const box = [cx - w / 2, cy - hh / 2, w, hh];
    const last = state.last && state.last.move && state.last.move.includes("@") ? state.last.move.split("@")[1] : null;
    layer.replaceChildren();
    for (const [cell, slots] of pieces) {
      const [cx, cy] = centre(...cell.split(",").map(Number));
      const g = piece(palette, slots, cx, cy, R, { "data-cell": cell });
      if (cell === last) {
        g.classList.add("last");
        g.style.transformOrigin = `${cx}px ${cy}px`;
        if (state.ply !== draw.shownPly) flash(g);
      }
      layer.append(g);
    }
    for (const c of hints.dead) {
      const [cx, cy] = centre(...c);
      layer.append(s("polygon", { class: "dead", points: hexPoints(cx, cy, R * 0.9) }, s("title", {}, "A dead cell: it touches a black side")),
        label(cx, cy, "×", { class: "dead-mark" }));
    }
    for (const c of hints.open) {
      const cell = key(...c);
      const [cx, cy] = centre(...c);
      layer.append(s("polygon", { class: `cell${open.has(cell) ? " open" : ""}`, "data-cell": cell, points: hexPoints(cx, cy, R * 0.92) },
        s("title", {}, open.has(cell) ? "A piece of yours may go here" : "An open cell")));
    }
    draw.shownPly = state.ply;
    zoom.update(box, moved);
    paint();
  }

  function paint() {
    const now = letters();
    for (const cell of layer.querySelectorAll(".cell")) {
      cell.classList.toggle("fits", Boolean(now) && legal.has(`${now}@${cell.dataset.cell}`));
    }
    for (const b of hand.children) b.setAttribute("aria-selected", String(selected !== null && Number(b.dataset.hand) === selected.index));
    const mine = state && state.legal.length > 0;
    if (selected) {
      const fits = layer.querySelectorAll(".cell.fits").length;
      chosen.replaceChildren(pieceIcon(palette, now, 56),
        h("button", { type: "button", class: "turn-piece", onclick: spin, "aria-label": "Turn the piece" }, icon("turn"), "Turn"),
        h("span", { class: "chosen-note" }, fits ? `Fits ${fits} cell${fits === 1 ? "" : "s"} turned like this: tap a lit cell.` :
          fitsAnyTurn(selected.letters) ? "Not like this: turn it." : "This piece fits nowhere now."));
    } else {
      chosen.replaceChildren(h("span", { class: "chosen-note" }, mine ? (placements().length ? "Tap a piece of your hand." : "No piece of yours fits: draw or pass.") : ""));
    }
  }

  function spin() {
    if (!selected) return;
    turn = (turn + 1) % 3;
    paint();
  }

  function choose(index, pieceLetters) {
    selected = { index, letters: pieceLetters };
    turn = 0;
    for (let k = 0; k < 3; k += 1) {
      if (placements().some((m) => m.startsWith(`${turned(pieceLetters, k)}@`))) {
        turn = k;
        break;
      }
    }
    paint();
  }

  function drawHand() {
    const view = state.view;
    const mine = state.seat !== null && view.hands ? view.hands[state.seat] || [] : [];
    const drawn = view.turn && Array.isArray(view.turn.drawn) && state.legal.length ? view.turn.drawn : null;
    hand.replaceChildren(...mine.map((p, i) => h("button", {
      type: "button", class: `hand-piece${fitsAnyTurn(p) ? " playable" : ""}`, role: "option",
      "data-hand": i, "data-piece": p, "aria-label": `piece ${p}`, onclick: () => choose(i, p),
    }, pieceIcon(palette, p, 52))));
    if (!mine.length) hand.append(h("p", { class: "muted" }, state.seat === null ? "You are watching: hands are hidden." : "Your hand is empty."));
    const others = state.legal.filter((m) => !m.includes("@"));
    actions.replaceChildren(...others.map((move) => {
      let text = WORDS[move];
      let match;
      if ((match = /^draw3:(\d)$/.exec(move))) text = `Draw ${match[1]}, keep one`;
      else if ((match = /^keep:(\w+)$/.exec(move))) return h("button", { type: "button", class: "keep", onclick: () => ctx.send(move), "aria-label": `Keep ${match[1]}` }, pieceIcon(palette, match[1], 40), "Keep");
      else if ((match = /^give:(\w+)>(\d+)$/.exec(move))) text = `Give ${match[1]} to ${ctx.seatName(Number(match[2]))}`;
      return h("button", { type: "button", class: move === "draw" ? "primary" : "", onclick: () => ctx.send(move) }, text || move);
    }));
    if (drawn && !others.length) actions.append(h("span", { class: "muted" }, `Drawn: ${drawn.join(", ")}`));
  }

  // -- the board takes taps and shows where the piece would go -----------------------------
  svg.addEventListener("click", (event) => {
    const target = event.target.closest("[data-cell]");
    if (!target || !target.classList.contains("cell") || !ctx.send) return;
    const cell = target.dataset.cell;
    if (!state.legal.length) {
      tip(target, "It is not your turn yet.", "info");
      return;
    }
    if (!selected) {
      tip(target, "First tap a piece of your hand.", "info");
      return;
    }
    if (legal.has(`${letters()}@${cell}`)) {
      ghost.replaceChildren();
      ctx.send(`${letters()}@${cell}`, target);
      return;
    }
    const [q, r] = cell.split(",").map(Number);
    const k = [1, 2].find((t) => legal.has(`${turned(letters(), t)}@${cell}`));
    if (k !== undefined) {
      tip(target, `It fits here turned ${k === 1 ? "once" : "twice"}: tap Turn, then the cell.`, "info");
      return;
    }
    const strict = !ctx.hello.options || ctx.hello.options.strict_colors !== false;
    const reason = strict ? whyNot(q, r) : null;
    if (reason) tip(target, reason);
    else ctx.send(`${letters()}@${cell}`, target); // let the rules say why
  });
  svg.addEventListener("pointerover", (event) => {
    const target = event.target.closest(".cell");
    ghost.replaceChildren();
    if (!target || !selected || event.pointerType === "touch") return;
    const [cx, cy] = centre(...target.dataset.cell.split(",").map(Number));
    const g = piece(palette, letters(), cx, cy, R * 0.96);
    g.classList.toggle("bad", !target.classList.contains("fits"));
    ghost.append(g);
  });
  svg.addEventListener("pointerleave", () => ghost.replaceChildren());

  return {
    render(next) {
      state = next;
      legal = new Set(next.legal);
      const mine = next.seat !== null && next.view.hands ? next.view.hands[next.seat] || [] : [];
      if (selected && mine[selected.index] !== selected.letters) selected = null;
      drawHand();
      draw();
    },
    describe(last) {
      if (!last.move || !last.move.includes("@")) return null;
      const who = last.seat === state.seat ? "You" : ctx.seatName(last.seat);
      return `${who} laid a piece: it is ringed in orange.`;
    },
    seatLine(st, seat) {
      const size = st.view.hand_sizes[seat];
      const total = st.view.totals ? ` · ${st.view.totals[seat]} pts` : "";
      return `${size} piece${size === 1 ? "" : "s"} in hand${total}`;
    },
    roundOver(prev, next) {
      const before = (prev.view.past_rounds || []).length;
      const after = (next.view.past_rounds || []).length;
      if (after <= before) return null;
      const scores = next.view.past_rounds[after - 1].scores;
      const low = Math.min(...scores);
      const best = scores.map((v, seat) => (v === low ? ctx.seatName(seat) : null)).filter(Boolean);
      const text = low === 0 && best.length === 1 ? `${best[0]} laid every piece.` : `Fewest points left in hand: ${best.join(" and ")}.`;
      return { round: after, scores, text };
    },
    ending(st) {
      const sizes = st.view.hand_sizes;
      const empty = sizes.findIndex((n) => n === 0);
      if (empty >= 0) return `${ctx.seatName(empty)} laid every piece.`;
      return "No one could lay another piece and the bag was empty.";
    },
    key(event) {
      if (event.key === "r" || event.key === "R") spin();
      else if (event.key === "Escape") {
        selected = null;
        paint();
      }
    },
  };
}
