// CUBED: the table on its hex grid (pans and zooms), the hand in its own strip. Tap a
// piece of your hand, turn it, tap a cell lit for it; hovering a cell shows the piece
// there. With a mouse or pen a piece may also be dragged from the hand onto a lit cell
// (R or the wheel turns it on the way). With the keyboard: Enter on a hand piece chooses
// it and goes to a cell it fits; Tab or the arrow keys go from lit cell to lit cell, R
// turns the piece and Enter (or Space) lays it. A cell where the piece does not fit says
// why, in words, at the cell. Cells are named in words from the first piece ("1 row up,
// ½ cell right of the first piece"), as the server's log names them.

import { h } from "../util.js";
import { list as joined, phrase, t, tOr } from "../i18n.js";
import { SQRT3, canvas, corner, flash, hexPoints, icon, label, panZoom, pictureFrame, pointsOf, s, tip } from "../draw.js";

const R = 30; // hexagon radius on the table
const SLOT_CORNERS = [[30, 90, 150], [150, 210, 270], [270, 330, 30]]; // top, left, right
// neighbour of edge d: 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE (rules §2)
const STEPS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
const slotOf = (d) => Math.floor((((d - 1) % 6) + 6) % 6 / 2);

/** Why a piece showing `mine` (letters top, left, right) does not fit at (q, r) of `pieces`
 * (a Map from "q,r" to the slots there), in words; null if no reason is seen. The rules'
 * contacts (docs/rules/cubed.md §3-4) with the edition's letters from the game's `info`:
 * its blocking colour (`black`) touches nothing; its wild colour (`wild`, null without one)
 * matches any colour of a piece without a black side; with `strict_colors` off a mismatch
 * is left to the rules. */
export function misfit(pieces, mine, q, r, info) {
  const { black, wild, strict_colors: strict, palette } = info;
  const name = (c) => (palette[c] ? tOr(`cubed-colour-${palette[c].name.replaceAll(" ", "-")}`, palette[c].name) : c);
  let touches = 0;
  for (let d = 0; d < 6; d += 1) {
    const other = pieces.get(`${q + STEPS[d][0]},${r + STEPS[d][1]}`);
    if (!other) continue;
    touches += 1;
    const a = mine[slotOf(d)];
    const b = other[slotOf(d + 3)];
    if (a === black || b === black) return a === black ? t("cubed-black-touches") : t("cubed-beside-black");
    const joker = wild != null && ((a === wild && !other.includes(black)) || (b === wild && !mine.includes(black)));
    if (strict && a !== b && !joker) return t("cubed-mismatch", { mine: name(a), theirs: name(b) });
  }
  if (pieces.size >= 2 && touches < 2) return t("cubed-touch-two");
  return null;
}

const centre = (q, r) => [SQRT3 * R * (q + r / 2), 1.5 * R * r];
const turned = (letters, k) => letters.slice(k) + letters.slice(0, k);
const key = (q, r) => `${q},${r}`;

/** A count of half cells in words: "½ cell", "1 cell", "2½ cells". */
function halfCells(halves) {
  const whole = Math.floor(halves / 2);
  const text = `${whole || ""}${halves % 2 ? "½" : ""}`;
  return t("cubed-cells", { halves, text });
}

/** Where cell (q, r) is, in words a player can follow on the table: rows up or down and
 * cells left or right of the first piece (at 0,0), e.g. "1 row up, ½ cell right of the
 * first piece". The server's log (games/cubed/web.py `place_words`) says the same. */
export function placeWords(q, r) {
  if (q === 0 && r === 0) return t("cubed-middle");
  const halves = 2 * q + r; // half-cell widths right of the first piece (rows are offset)
  const rows = r ? t("cubed-rows", { rows: Math.abs(r), dir: r < 0 ? "up" : "down" }) : "";
  const across = halves ? t("cubed-across", { cells: halfCells(Math.abs(halves)), dir: halves > 0 ? "right" : "left" }) : "";
  if (!across) return t("cubed-rows-only", { rows: Math.abs(r), dir: r < 0 ? "up" : "down" });
  return t("cubed-place", { rows, across, both: String(Boolean(rows)) });
}

/** A piece: three diamonds with their letters, centred on (cx, cy). */
export function piece(palette, slots, cx, cy, r, attrs = {}) {
  const g = s("g", { class: "piece", ...attrs });
  SLOT_CORNERS.forEach((corners, i) => {
    const pts = [[cx, cy], ...corners.map((a) => corner(cx, cy, r, a))];
    const colour = palette[slots[i]] || { rgb: "#ccc", ink: "#111", name: "?" };
    const colourName = tOr(`cubed-colour-${colour.name.replaceAll(" ", "-")}`, colour.name);
    const mx = pts.reduce((t, p) => t + p[0], 0) / 4;
    const my = pts.reduce((t, p) => t + p[1], 0) / 4;
    g.append(s("polygon", { class: "d", points: pointsOf(pts), fill: colour.rgb }, s("title", {}, colourName)),
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

const WORDS = { draw: t("cubed-draw"), pass: t("cubed-pass"), skip: t("cubed-skip") };
/** Whether this screen has a mouse (or pen) to drag pieces with. */
const fine = () => window.matchMedia("(pointer: fine)").matches;

export function create(ctx) {
  const palette = ctx.info.palette;
  let state = null;
  let selected = null; // {index, letters}
  let turn = 0;
  let legal = new Set();
  let moved = false; // the person panned or zoomed: keep their view
  let keyboard = false; // the last thing the person used was the keyboard (not a pointer)

  const svg = canvas([-100, -100, 200, 200], { class: "cubed-table", role: "group", "aria-label": t("cubed-table") });
  const layer = s("g");
  const ghost = s("g", { class: "ghost" });
  const ring = s("g", { class: "focus-ring", "aria-hidden": "true" });
  svg.append(layer, ghost, ring);
  const zoom = panZoom(svg, [-100, -100, 200, 200]);
  svg.addEventListener("wheel", () => { moved = true; });
  const tools = h("div", { class: "map-tools" },
    h("button", { type: "button", class: "icon-button", "aria-label": t("cubed-zoom-in"), onclick: () => { moved = true; zoom.zoomIn(); } }, icon("plus")),
    h("button", { type: "button", class: "icon-button", "aria-label": t("cubed-zoom-out"), onclick: () => { moved = true; zoom.zoomOut(); } }, icon("minus")),
    h("button", { type: "button", class: "icon-button", "aria-label": t("cubed-fit"), onclick: () => { moved = false; zoom.fit(); } }, icon("fit")));
  const hand = h("div", { class: "hand", role: "listbox", "aria-label": t("cubed-your-hand") });
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

  /** The piece just laid travels to its cell from where it was: this screen's hand, or the
   * row of the player who laid it (`ctx.origin`); it only pops up where there is no such
   * place (a replay) or the person asked for less motion. */
  function travel(g, cx, cy, seat) {
    const from = ctx.origin ? ctx.origin(seat) : null;
    const matrix = svg.getScreenCTM();
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (!from || !matrix || !g.animate || still) {
      flash(g);
      return;
    }
    const p = new DOMPoint(from.x, from.y).matrixTransform(matrix.inverse());
    g.animate([{ transform: `translate(${p.x - cx}px, ${p.y - cy}px) scale(.75)`, opacity: 0.7 }, { transform: "none", opacity: 1 }],
      { duration: 560, easing: "cubic-bezier(.2, .8, .3, 1)" });
  }

  /** Why the selected piece does not fit at (q, r), in words; null if no reason is seen. */
  const whyNot = (q, r) => misfit(table(), letters(), q, r, ctx.info);

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
    ring.replaceChildren();
    for (const [cell, slots] of pieces) {
      const [cx, cy] = centre(...cell.split(",").map(Number));
      const g = piece(palette, slots, cx, cy, R, { "data-cell": cell });
      if (cell === last) {
        g.classList.add("last");
        g.style.transformOrigin = `${cx}px ${cy}px`;
        if (state.ply !== draw.shownPly) travel(g, cx, cy, state.last.seat);
      }
      layer.append(g);
    }
    for (const c of hints.dead) {
      const [cx, cy] = centre(...c);
      layer.append(s("polygon", { class: "dead", points: hexPoints(cx, cy, R * 0.9) }, s("title", {}, t("cubed-dead"))),
        label(cx, cy, "×", { class: "dead-mark" }));
    }
    if (pieces.has("0,0")) {
      layer.append(s("circle", { class: "first-mark", cx: 0, cy: 0, r: 3.2 }, s("title", {}, t("cubed-first-mark"))));
    }
    // lit cells in reading order (top row first, left to right): the order Tab takes
    const byReading = [...hints.open].sort((a, b) => a[1] - b[1] || (2 * a[0] + a[1]) - (2 * b[0] + b[1]));
    for (const c of byReading) {
      const cell = key(...c);
      const [cx, cy] = centre(...c);
      const where = placeWords(...c);
      const here = open.has(cell);
      const title = here ? t("cubed-may-go", { where }) : t("cubed-open", { where });
      const polygon = s("polygon", { class: `cell${here ? " open" : ""}`, "data-cell": cell, "data-where": where, points: hexPoints(cx, cy, R * 0.92) },
        s("title", {}, title));
      if (here) {
        polygon.setAttribute("tabindex", "0");
        polygon.setAttribute("role", "button");
      }
      layer.append(polygon);
    }
    draw.shownPly = state.ply;
    zoom.update(box, moved);
    paint();
  }

  /** What a lit cell says to a screen reader: where it is, and whether the chosen piece
   * fits there as it is turned now. */
  function cellLabel(cell, now) {
    const where = cell.dataset.where;
    const name = where.charAt(0).toUpperCase() + where.slice(1);
    if (!now) return t("cubed-label-may-go", { name });
    if (legal.has(`${now}@${cell.dataset.cell}`)) return t("cubed-label-fits", { name });
    const k = [1, 2].find((t) => legal.has(`${turned(now, t)}@${cell.dataset.cell}`));
    return k === undefined ? t("cubed-label-no-fit", { name }) : t("cubed-label-fits-turned", { name, turns: k });
  }

  function paint() {
    const now = letters();
    for (const cell of layer.querySelectorAll(".cell")) {
      cell.classList.toggle("fits", Boolean(now) && legal.has(`${now}@${cell.dataset.cell}`));
      if (cell.classList.contains("open")) cell.setAttribute("aria-label", cellLabel(cell, now));
    }
    const focused = focusedCell();
    if (focused) showFocus(focused);
    for (const b of hand.children) b.setAttribute("aria-selected", String(selected !== null && Number(b.dataset.hand) === selected.index));
    const mine = state && state.legal.length > 0;
    // another seat is to move and this one holds pieces: it may look them over meanwhile
    const waiting = !mine && state && state.seat !== null && state.to_move !== null && state.to_move !== undefined && hand.querySelector(".hand-piece") !== null;
    if (selected) {
      const fits = layer.querySelectorAll(".cell.fits").length;
      chosen.replaceChildren(pieceIcon(palette, now, 56),
        h("button", { type: "button", class: "turn-piece", onclick: spin, "aria-label": t("cubed-turn-piece") }, icon("turn"), t("cubed-turn")),
        h("span", { class: "chosen-note" }, !mine ? (waiting ? t("cubed-fits-on-your-turn") : "") :
          fits ? t("cubed-fits", { cells: fits, how: keyboard ? "key" : fine() ? "mouse" : "touch" }) :
          fitsAnyTurn(selected.letters) ? t("cubed-turn-it") : t("cubed-fits-nowhere")));
    } else {
      const ask = fine() ? t("cubed-ask-mouse") : t("cubed-ask-touch");
      chosen.replaceChildren(h("span", { class: "chosen-note" }, mine ? (placements().length ? ask : t("cubed-none-fits")) : waiting ? t("cubed-ask-wait") : ""));
    }
  }

  function spin() {
    if (!selected) return;
    turn = (turn + 1) % 3;
    paint();
    if (drag && drag.image) {
      drag.image.replaceChildren(pieceIcon(palette, letters(), 60));
      drag.image.dataset.piece = letters();
      showGhost(drag.over);
    }
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
      "data-hand": i, "data-piece": p, "aria-label": t("cubed-piece", { piece: p }),
      onclick: (event) => {
        if (justDropped()) return;
        choose(i, p);
        if (event.detail === 0) toFirstFit(); // chosen with the keyboard: go to the table
      },
      onpointerdown: (event) => pickUp(event, i, p),
    }, pieceIcon(palette, p, 52))));
    if (!mine.length) hand.append(h("p", { class: "muted" }, state.seat === null ? t("cubed-watching") : t("cubed-hand-empty")));
    const others = state.legal.filter((m) => !m.includes("@"));
    actions.replaceChildren(...others.map((move) => {
      let text = WORDS[move];
      let match;
      if ((match = /^draw3:(\d)$/.exec(move))) text = t("cubed-draw3", { count: Number(match[1]) });
      else if ((match = /^keep:(\w+)$/.exec(move))) return h("button", { type: "button", class: "keep", onclick: () => ctx.send(move), "aria-label": t("cubed-keep-piece", { piece: match[1] }) }, pieceIcon(palette, match[1], 40), t("cubed-keep"));
      else if ((match = /^give:(\w+)>(\d+)$/.exec(move))) text = t("cubed-give", { piece: match[1], name: ctx.seatName(Number(match[2])) });
      return h("button", { type: "button", class: move === "draw" ? "primary" : "", onclick: () => ctx.send(move) }, text || move);
    }));
    if (drawn && !others.length) actions.append(h("span", { class: "muted" }, t("cubed-drawn", { pieces: drawn.join(", ") })));
  }

  // -- the board takes taps (or drops) and shows where the piece would go -----------------

  /** Lay the chosen piece on the cell `target` (a tap, or a drop: `how` says which), or
   * say at the cell why it cannot go there. */
  function layOn(target, how = "tap") {
    if (!target || !target.classList.contains("cell") || !ctx.send) return;
    const cell = target.dataset.cell;
    if (!state.legal.length) {
      tip(target, t("not-your-turn"), "info");
      return;
    }
    if (!selected) {
      tip(target, how === "key" ? t("cubed-first-choose") : t("cubed-first-tap"), "info");
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
      tip(target, t("cubed-fits-turned", { turns: k, how }), "info");
      return;
    }
    const reason = whyNot(q, r);
    if (reason) tip(target, reason);
    else ctx.send(`${letters()}@${cell}`, target); // let the rules say why
  }

  /** The chosen piece, see-through, on the cell `target` (red where it does not fit). */
  function showGhost(target) {
    ghost.replaceChildren();
    if (!target || !selected) return;
    const [cx, cy] = centre(...target.dataset.cell.split(",").map(Number));
    const g = piece(palette, letters(), cx, cy, R * 0.96);
    g.classList.toggle("bad", !target.classList.contains("fits"));
    ghost.append(g);
  }

  svg.addEventListener("click", (event) => layOn(event.target.closest("[data-cell]")));

  // -- the keyboard: lit cells take the focus (Tab, arrows), Enter or Space lays the piece --
  const focusedCell = () => {
    const el = document.activeElement;
    return el && layer.contains(el) && el.classList.contains("cell") ? el : null;
  };

  /** Ring the focused cell, show the chosen piece on it and pan the table to it. */
  function showFocus(cell) {
    ring.replaceChildren();
    if (!cell.matches(":focus-visible") && !keyboard) return;
    const [cx, cy] = centre(...cell.dataset.cell.split(",").map(Number));
    if (!drag) showGhost(cell);
    const around = hexPoints(cx, cy, R * 1.06);
    ring.append(s("polygon", { class: "halo", points: around }), s("polygon", { points: around }));
    zoom.reveal(cx, cy, R * 1.3);
  }

  /** Focus the lit cell `cell` (its place in view), or nothing if it is gone. */
  function focusCell(cell) {
    if (!cell) return;
    cell.focus({ preventScroll: true });
    cell.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  /** Go to the first cell the chosen piece fits, turned as it is (else any lit cell). */
  function toFirstFit() {
    focusCell(layer.querySelector(".cell.fits") || layer.querySelector(".cell.open"));
  }

  /** The lit cell nearest to `from` in the arrow's direction (rows count up and down). */
  function neighbour(from, arrow) {
    const [dx, dy] = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[arrow];
    const [fx, fy] = centre(...from.dataset.cell.split(",").map(Number));
    let best = null;
    let score = Infinity;
    for (const cell of layer.querySelectorAll(".cell.open")) {
      const [x, y] = centre(...cell.dataset.cell.split(",").map(Number));
      const along = (x - fx) * dx + (y - fy) * dy;
      const across = Math.abs((x - fx) * dy - (y - fy) * dx);
      if (along < R * 0.5 || across > along * 2.5) continue;
      const cost = along + 2 * across;
      if (cost < score) [best, score] = [cell, cost];
    }
    return best;
  }

  svg.addEventListener("keydown", (event) => {
    const cell = event.target.closest ? event.target.closest(".cell.open") : null;
    if (!cell || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      layOn(cell, "key");
    } else if (event.key.startsWith("Arrow")) {
      event.preventDefault();
      focusCell(neighbour(cell, event.key));
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      const all = layer.querySelectorAll(".cell.open");
      focusCell(all[event.key === "Home" ? 0 : all.length - 1]);
    }
  });
  svg.addEventListener("focusin", (event) => {
    if (event.target.classList && event.target.classList.contains("cell")) showFocus(event.target);
  });
  svg.addEventListener("focusout", () => {
    ring.replaceChildren();
    if (!drag) ghost.replaceChildren();
  });
  // keys that move or act (not R, which a mouse user may press while dragging)
  const NAVIGATION = new Set(["Tab", "Enter", " ", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End"]);
  document.addEventListener("keydown", (event) => { if (NAVIGATION.has(event.key)) keyboard = true; }, true);
  document.addEventListener("pointerdown", () => { keyboard = false; }, true);
  svg.addEventListener("pointerover", (event) => {
    if (event.pointerType === "touch" || drag) return;
    showGhost(event.target.closest(".cell"));
  });
  svg.addEventListener("pointerleave", () => { if (!drag) ghost.replaceChildren(); });

  // -- drag and drop from the hand (mouse and pen; a finger taps, as the hand scrolls) -----
  let drag = null; // {pointer, x, y, index, letters, image, over}
  let dropped = false; // a drag just ended: the click that follows it is not a tap

  const justDropped = () => dropped;
  const cellAt = (x, y) => {
    const under = document.elementFromPoint(x, y);
    return under && svg.contains(under) ? under.closest(".cell") : null;
  };

  function pickUp(event, index, pieceLetters) {
    if (event.pointerType === "touch" || event.button !== 0 || !state || !state.legal.length) return;
    drag = { pointer: event.pointerId, x: event.clientX, y: event.clientY, index, letters: pieceLetters, image: null, over: null };
  }

  function follow(event) {
    if (!drag || event.pointerId !== drag.pointer) return;
    if (!drag.image) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
      if (!selected || selected.index !== drag.index) choose(drag.index, drag.letters);
      drag.image = h("div", { class: "drag-piece", "aria-hidden": "true", "data-piece": letters() }, pieceIcon(palette, letters(), 60));
      document.body.append(drag.image);
      document.body.classList.add("dragging-piece");
    }
    event.preventDefault();
    drag.image.style.left = `${event.clientX}px`;
    drag.image.style.top = `${event.clientY}px`;
    const over = cellAt(event.clientX, event.clientY);
    if (over !== drag.over) {
      if (drag.over) drag.over.classList.remove("drop-here");
      if (over) over.classList.add("drop-here");
      drag.over = over;
      drag.image.classList.toggle("snapped", Boolean(over)); // the piece shows on the cell instead
      showGhost(over);
    }
  }

  function letGo(event, cancel = false) {
    if (!drag || (event && event.pointerId !== drag.pointer)) return;
    const { image, over } = drag;
    drag = null;
    if (!image) return; // a plain click: the button's own handler chooses the piece
    dropped = true;
    setTimeout(() => { dropped = false; }); // the click (if any) comes in the same task
    image.remove();
    document.body.classList.remove("dragging-piece");
    if (over) over.classList.remove("drop-here");
    ghost.replaceChildren();
    // the cell under the pointer now (the table may have been drawn again meanwhile)
    const at = event ? cellAt(event.clientX, event.clientY) : null;
    if (!cancel && at) layOn(at, "drop");
  }

  document.addEventListener("pointermove", follow);
  document.addEventListener("pointerup", (event) => letGo(event));
  document.addEventListener("pointercancel", (event) => letGo(event, true));
  // the wheel turns a piece being dragged (rather than zooming the table)
  window.addEventListener("wheel", (event) => {
    if (!drag || !drag.image) return;
    event.preventDefault();
    event.stopPropagation();
    spin();
  }, { capture: true, passive: false });

  /** Where the keyboard focus is in this game's table or hand, to find it again after
   * both are drawn anew. */
  function focusNow() {
    const cell = focusedCell();
    if (cell) return { cell: cell.dataset.cell };
    const el = document.activeElement;
    if (el && hand.contains(el) && el.dataset.hand !== undefined) return { hand: Number(el.dataset.hand) };
    return null;
  }

  /** Focus what had it before a new drawing; a cell that is gone (a piece was laid there)
   * hands the focus to the hand, where the next turn starts. */
  function focusAgain(was) {
    if (!was || !keyboard) return;
    let target = was.cell !== undefined ? layer.querySelector(`.cell.open[data-cell="${was.cell}"]`) : null;
    if (!target) {
      const pieces = [...hand.querySelectorAll(".hand-piece")];
      target = was.hand !== undefined ? pieces[Math.min(was.hand, pieces.length - 1)] : hand.querySelector(".hand-piece.playable") || pieces[0];
    }
    if (target) target.focus({ preventScroll: true });
  }

  return {
    render(next) {
      state = next;
      legal = new Set(next.legal);
      const mine = next.seat !== null && next.view.hands ? next.view.hands[next.seat] || [] : [];
      if (selected && mine[selected.index] !== selected.letters) selected = null;
      const was = focusNow();
      drawHand();
      draw();
      focusAgain(was);
    },
    describe(last) {
      if (!last.move || !last.move.includes("@")) return null;
      // the server's words name the piece's colours ("Seat 1 laid a green, purple and
      // yellow piece."); the page adds where to look
      const who = last.seat === state.seat ? t("seat-you") : ctx.seatName(last.seat);
      const said = phrase(last.say, (seat) => (seat === last.seat ? who : seat === state.seat ? t("seat-you") : ctx.seatName(seat)));
      if (said) return t("cubed-ringed", { text: said.replace(/[.。]$/, "") });
      return t("cubed-laid-ringed", { who });
    },
    seatLine(st, seat) {
      const size = st.view.hand_sizes[seat];
      const total = st.view.totals ? ` · ${t("cubed-points", { points: st.view.totals[seat] })}` : "";
      return `${t("cubed-in-hand", { pieces: size })}${total}`;
    },
    roundOver(prev, next) {
      const before = (prev.view.past_rounds || []).length;
      const after = (next.view.past_rounds || []).length;
      if (after <= before) return null;
      const scores = next.view.past_rounds[after - 1].scores;
      const low = Math.min(...scores);
      const best = scores.map((v, seat) => (v === low ? ctx.seatName(seat) : null)).filter(Boolean);
      const text = low === 0 && best.length === 1 ? t("cubed-laid-every", { who: best[0] }) : t("cubed-fewest", { who: joined(best) });
      return { round: after, of: next.view.options.rounds || 1, scores, text };
    },
    /** The table as the round ended: the last state before it, with the pieces laid since
     * (`moves`: the log's entries after it) on the table and out of their hands. */
    roundBoard(prev, next, moves) {
      const view = structuredClone(prev.view);
      for (const e of moves) {
        const m = /^([A-Z]{3})@(-?\d+),(-?\d+)$/.exec(e.move || "");
        if (!m) continue;
        view.table.push({ cell: [Number(m[2]), Number(m[3])], slots: m[1] });
        if (view.hand_sizes) view.hand_sizes[e.seat] = Math.max(0, view.hand_sizes[e.seat] - 1);
        const hand = view.hands && view.hands[e.seat];
        if (hand) {
          const at = hand.findIndex((p) => [0, 1, 2].some((k) => turned(p, k) === m[1]));
          if (at >= 0) hand.splice(at, 1);
        }
      }
      view.totals = next.view.totals; // the round's points are counted
      return { ...prev, ply: next.ply, view, hints: { open: [], dead: [] }, to_move: null };
    },
    /** Each finished round's points and the totals, for the results. */
    roundTable(st) {
      const past = st.view.past_rounds || [];
      return { rounds: past.map((r) => r.scores), totals: st.view.totals || past.reduce((t, r) => t.map((v, i) => v + r.scores[i]), past[0].scores.map(() => 0)) };
    },
    /** Where each round begins in the log: ply -> heading. */
    roundStarts(st) {
      const starts = new Map();
      let round = 0;
      for (const e of st.log || []) {
        const r = e.round || 1;
        if (r !== round && (r > 1 || (st.view.options.rounds || 1) > 1)) starts.set(e.ply, t("play-round-heading", { round: r }));
        round = r;
      }
      return starts;
    },
    status(st) {
      const rounds = st.view.options.rounds || 1;
      const round = rounds > 1 ? `${t("play-round-of", { round: Math.min(st.view.round, rounds), rounds })} · ` : "";
      return `${round}${t("cubed-bag", { count: st.view.bag })}`;
    },
    ending(st) {
      const sizes = st.view.hand_sizes;
      const empty = sizes.findIndex((n) => n === 0);
      if (empty >= 0) return t("cubed-laid-every", { who: ctx.seatName(empty) });
      return t("cubed-stuck");
    },
    key(event) {
      if (event.key === "r" || event.key === "R") spin();
      else if (event.key === "Escape") {
        if (drag) letGo(null, true);
        selected = null;
        paint();
      }
    },
  };
}

// -- what the page's shared scripts ask of this game (play.js, refusals.js, tutorial.js) --

/** The sound a move makes (`sound.js`): a piece laid; drawing and passing are silent. */
export const soundOf = (move) => (move.includes("@") ? "laid" : null);

/** A colour's name from its letter (the game's palette, in `info`), in the page's language. */
function colourName(info, letter) {
  const name = info && info.palette && info.palette[letter] ? info.palette[letter].name : null;
  if (!name) return t("refusal-another-colour");
  return tOr(`cubed-colour-${name.replaceAll(" ", "-")}`, name);
}

/** The parameters of the rules' reasons whose words need colours by name, by code
 * (refusals.js `friendly`). */
export const refusalParams = {
  "blocking-mismatch": (p, info) => ({ mine: colourName(info, p.mine), theirs: colourName(info, p.theirs) }),
  mismatch: (p, info) => ({ slot: p.slot, mine: colourName(info, p.mine), theirs: colourName(info, p.theirs) }),
};

const turnsOf = (letters) => [0, 1, 2].map((k) => letters.slice(k) + letters.slice(0, k));

/** What the tutorial lights for a move: the hand's piece and its cell, or the draw or pass
 * button. */
export function tutorialLights(move, state, root) {
  if (!move.includes("@")) {
    const word = move === "draw" ? t("cubed-draw") : t("cubed-pass");
    return [...root.querySelectorAll("button")].filter((b) => b.textContent.trim() === word);
  }
  const [slots, cell] = move.split("@");
  const hand = (state.view.hands || [])[state.seat] || [];
  const index = hand.findIndex((p) => turnsOf(p).includes(slots));
  return [root.querySelector(`.hand-piece[data-hand="${index}"]`), root.querySelector(`.cubed-table .cell[data-cell="${cell}"]`)];
}

/** The tutorial's hint for `move` when the step is `wanted`: the right piece on the right
 * cell turned otherwise says how many turns it needs; null for anything else. */
export function tutorialHint(move, wanted) {
  if (!move.includes("@") || !wanted.includes("@")) return null;
  const [mine, cell] = move.split("@");
  const [want, there] = wanted.split("@");
  const k = turnsOf(mine).indexOf(want);
  return cell === there && k > 0 ? t("tutorial-turn", { turns: k, button: t("cubed-turn") }) : null;
}

// -- the start page's picture of the game (app.js) -------------------------------------

/** The colours of the start page's picture of the game. */
const PICTURE_COLOURS = {
  G: { rgb: "#2f9e44", ink: "#fff", name: "green" }, P: { rgb: "#7048e8", ink: "#fff", name: "purple" },
  Y: { rgb: "#fcc419", ink: "#111", name: "yellow" }, B: { rgb: "#1c7ed6", ink: "#fff", name: "blue" },
  N: { rgb: "#ff2e93", ink: "#fff", name: "pink" }, W: { rgb: "#f8f9fa", ink: "#111", name: "white" },
};

/** The game's picture on its card on the start page, drawn with the table's pieces. */
export function picture() {
  const r = 24;
  const at = (q, rr) => [120 + Math.sqrt(3) * r * (q + rr / 2), 76 + 1.5 * r * rr];
  return pictureFrame(
    piece(PICTURE_COLOURS, "GPY", ...at(0, 0), r), piece(PICTURE_COLOURS, "YBN", ...at(1, 0), r), piece(PICTURE_COLOURS, "PGW", ...at(-1, 1), r),
    piece(PICTURE_COLOURS, "BNG", ...at(0, -1), r), piece(PICTURE_COLOURS, "NYP", ...at(-1, 0), r));
}
