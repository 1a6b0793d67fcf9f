// Unstackable: the cube in 3-D (drag to turn and tilt it) and, as a second view, each
// layer seen from above. Stage 1: choose a colour, tap a lit cell (in 3-D: the face of a
// cube or the spot of the bag where the new cube would rest; it shows before you tap).
// Stage 2: tap a cube ringed in green to take it. Coordinates come from the view and the
// legal moves: the structure may float beyond 0..3. Cells, cubes and spots are named in
// words on a board fixed for the game ("a red cube: layer 2 at D6"), never by their
// coordinates; the notation shows only where it is asked for.

import { h } from "../util.js";
import { t, tOr } from "../i18n.js";
import { canvas, centreOf, flash, fly, icon, isoCube, label, pictureFrame, s, tip } from "../draw.js";
import { Table3D, probes, webglWorks } from "../cube3d.js";

const CELL = 28;

/** Every cube of a view: [{x, y, z, c}]. */
export function cubesOf(view) {
  if (Array.isArray(view.cubes)) return view.cubes.map((e) => ({ x: e.cell[0], y: e.cell[1], z: e.cell[2], c: e.colour }));
  const grid = view.grid;
  const n = Math.round(Math.cbrt(grid.length));
  const [ox, oy, oz] = view.origin || [0, 0, 0];
  const out = [];
  for (let i = 0; i < grid.length; i += 1) {
    if (grid[i] === ".") continue;
    out.push({ x: ox + (i % n), y: oy + (Math.floor(i / n) % n), z: oz + Math.floor(i / (n * n)), c: grid[i] });
  }
  return out;
}

const cellKey = (x, y, z) => `${x},${y},${z}`;
const ORDER = ["Y", "R", "K"];

/** A layer in words, as the server's log says it: "the bottom layer" (on the bag), then
 * "layer 1" to "layer 3" upwards. */
export function layerWords(z) {
  return z === 0 ? t("unst-bottom-layer") : t("unst-layer", { z });
}

/** The board places are named on, fixed for the whole game: columns A to G from left to
 * right, rows 1 to 7 from front to back, the first cube on D4. */
export const COLUMNS = "ABCDEFG";
const FIRST = [3, 3];

/** Where the grid's cell (x, y, z) is, in words a player can follow: its layer and its
 * column and row on the board fixed for the game, e.g. "layer 2 at C6". `frame` ([sx,
 * sy], the state's `hints.frame`) is how far the structure has shifted right and back
 * since its first cube, so a cube keeps its name however the structure grows. These are
 * the words of the server's log (games/unstackable/web.py `place_words`). */
export function placeWords(x, y, z, frame = [0, 0]) {
  return t("unst-place", { layer: layerWords(z), cell: `${columnName(x, frame)}${rowName(y, frame)}` });
}

/** The column letter and row number of the grid's column `x` and row `y`. */
export function columnName(x, frame = [0, 0]) {
  return COLUMNS[x - frame[0] + FIRST[0]];
}

export function rowName(y, frame = [0, 0]) {
  return String(y - frame[1] + FIRST[1] + 1);
}

/** What pointing at a cube says: its colour and place (`frame` as for `placeWords`), and
 * whether you may take it. */
export function cubeTitle(palette, cube, removable = false, frame = [0, 0]) {
  const name = palette[cube.c] ? colourName(palette, cube.c) : "";
  return t("unst-cube-title", { colour: name, removable: String(removable), place: placeWords(cube.x, cube.y, cube.z, frame) });
}

/** What pointing at a free spot where a cube may go says: which colours and where. */
export function spotTitle(palette, cell, colours, frame = [0, 0]) {
  const names = ORDER.filter((c) => colours.has(c)).map((c) => colourName(palette, c));
  const which = names.length > 1 ? t("unst-or", { first: names.slice(0, -1).join(t("unst-comma")), last: names[names.length - 1] }) : names[0] || "";
  return t("unst-spot-title", { colours: which, place: placeWords(...cell, frame) });
}

/** A cube colour's name (Y, R, K) in the page's language; the server's word otherwise. */
function colourName(palette, c) {
  return tOr(`unst-colour-${c}`, palette[c].name);
}

/** The box the page draws for `cubes` and the free cells `cells` ("x,y,z"):
 * [x0, y0, z0, x1, y1, z1], at least the grid's cells 0..3, and the free row or column
 * before the structure when a cube may go there. */
export function extent(cubes, cells) {
  const xs = [0, 3];
  const ys = [0, 3];
  const zs = [0, 3];
  for (const c of cubes) { xs.push(c.x); ys.push(c.y); zs.push(c.z); }
  for (const k of cells) {
    const [x, y, z] = k.split(",").map(Number);
    xs.push(x); ys.push(y); zs.push(z);
  }
  return [Math.min(...xs), Math.min(...ys), Math.min(...zs), Math.max(...xs), Math.max(...ys), Math.max(...zs)];
}

export function score(info, piles) {
  return piles.reduce((t, pile, p) => t + [...pile].reduce((u, c) => u + (info.points[p][c] || 0), 0), 0);
}

export function create(ctx) {
  const palette = ctx.info.palette;
  let state = null;
  let before = null;
  let colour = null;
  let mode = webglWorks() ? "3d" : "plans";
  let table3d = null;
  let frame = [0, 0]; // how far the structure has shifted since its first cube (`placeWords`)

  const plans = h("div", { class: "plans" });
  const holder3d = h("div", { class: "holder3d" });
  const viewButtons = h("div", { class: "view-switch", role: "group", "aria-label": t("unst-views") });
  const choice = h("div", { class: "colour-choice" });
  const stageNote = h("p", { class: "stage-note" });
  ctx.board.replaceChildren(h("div", { class: "unstackable-board" }, viewButtons, holder3d, plans));
  ctx.strip.replaceChildren(h("div", { class: "unstackable-strip" }, stageNote, choice));

  const stacking = () => state.view.stage === "stack";
  const targets = () => {
    const map = new Map(); // cell -> set of colours
    for (const m of state.legal) {
      const match = /^(\w)@(-?\d+),(-?\d+),(-?\d+)$/.exec(m);
      if (!match) continue;
      const cell = cellKey(match[2], match[3], match[4]);
      if (!map.has(cell)) map.set(cell, new Set());
      map.get(cell).add(match[1]);
    }
    return map;
  };
  const removable = () => new Set(state.legal.filter((m) => /^-?\d+,-?\d+,-?\d+$/.test(m)));

  function drawViewButtons() {
    const make = (id, name, text) => h("button", { type: "button", class: "view-button", "aria-pressed": String(mode === id),
      disabled: id === "3d" && !webglWorks(), onclick: () => { mode = id; draw(); } }, icon(name), text);
    viewButtons.replaceChildren(make("3d", "cube", t("view-3d")), make("plans", "layers", t("view-layers")));
  }

  function drawChoice() {
    const open = new Set();
    for (const set of targets().values()) for (const c of set) open.add(c);
    const fixed = state.view.turn && state.view.turn.colour;
    if (fixed) colour = fixed;
    if (colour && !open.has(colour)) colour = null;
    if (!colour && open.size === 1) colour = [...open][0];
    const others = state.legal.filter((m) => !m.includes(",") && !m.includes("@"));
    const view = state.view;
    choice.replaceChildren(...["Y", "R", "K"].map((c) => {
      const info = palette[c];
      return h("button", {
        type: "button", class: `swatch${c === colour ? " chosen" : ""}`, disabled: !open.has(c),
        style: `--swatch:${info.rgb};--swatch-ink:${info.ink}`, "aria-pressed": String(c === colour),
        "data-colour": c, onclick: () => { colour = c; draw(); },
      }, h("span", { class: "chip" }), h("span", {}, h("b", {}, colourName(palette, c)), h("small", {}, t("unst-supply", { left: view.supply[c], per: info.per_turn }))));
    }), ...others.map((m) => h("button", { type: "button", onclick: () => ctx.send(m) }, m === "end" ? t("unst-end-turn") : m)));
    choice.hidden = !stacking();
  }

  function note() {
    const turn = state.view.turn || {};
    if (state.over) return "";
    if (stacking()) {
      if (!state.legal.length) return t("unst-stage1-others");
      if (turn.colour) return t("unst-stacking", { colour: colourName(palette, turn.colour), placed: turn.placed, per: palette[turn.colour].per_turn });
      return colour ? t("unst-tap-to-stack", { colour: colourName(palette, colour) }) : t("unst-choose-colour");
    }
    if (!state.legal.length) return t("unst-stage2-others");
    return t("unst-take", { pile: 1 + (turn.removed || 0) });
  }

  /** The cell of the last move (`last`: a view's `last`) in the view after it, and
   * whether its cube was taken out; null for a move with no cell. */
  function lastCell(last = state.last) {
    const move = last && last.move;
    if (!move) return null;
    const m = /(-?\d+),(-?\d+),(-?\d+)$/.exec(move);
    if (!m) return null;
    // a cube stacked on x = -1 or y = -1 shifted the structure by one: it now sits on 0
    const [x, y, z] = [m[1], m[2], m[3]].map(Number);
    return { cell: cellKey(Math.max(x, 0), Math.max(y, 0), z), removed: !move.includes("@") };
  }

  function drawPlans(cubes, tgt, rem, last, fresh) {
    const [x0, y0, , x1, y1] = extent(cubes, [...tgt.keys()]);
    const byCell = new Map(cubes.map((c) => [cellKey(c.x, c.y, c.z), c.c]));
    const w = (x1 - x0 + 1) * CELL;
    const hgt = (y1 - y0 + 1) * CELL;
    plans.replaceChildren();
    for (let z = 0; z < 4; z += 1) {
      const layer = layerWords(z);
      const svg = canvas([-16, -22, w + 20, hgt + 44], { class: "plan", "data-plan": z, role: "img",
        "aria-label": t("unst-plan-label", { layer, z, bottom: String(z === 0) }) });
      svg.append(label(w / 2, -12, z === 0 ? t("unst-bottom-title") : t("unst-layer-title", { z }), { class: "plan-title" }));
      svg.append(label(w / 2, hgt + 19, t("unst-front"), { class: "plan-front" }));
      // the fixed board's column letters at the foot, row numbers on the left
      for (let x = x0; x <= x1; x += 1) svg.append(label((x - x0 + 0.5) * CELL, hgt + 8, columnName(x, frame), { class: "plan-axis" }));
      for (let y = y0; y <= y1; y += 1) svg.append(label(-8, (y1 - y + 0.5) * CELL, rowName(y, frame), { class: "plan-axis" }));
      for (let y = y0; y <= y1; y += 1) {
        for (let x = x0; x <= x1; x += 1) {
          const cell = cellKey(x, y, z);
          const rx = (x - x0) * CELL;
          const ry = (y1 - y) * CELL;
          const letter = byCell.get(cell);
          if (letter) {
            const info = palette[letter];
            const g = s("g", { class: `cube${rem.has(cell) ? " removable" : ""}${last && last.cell === cell ? " last" : ""}`, "data-cell": cell },
              s("rect", { x: rx + 1, y: ry + 1, width: CELL - 2, height: CELL - 2, rx: 4, fill: info.rgb }, s("title", {}, cubeTitle(palette, { x, y, z, c: letter }, rem.has(cell), frame))),
              label(rx + CELL / 2, ry + CELL / 2, letter, { fill: info.ink, class: "letter" }));
            if (last && last.cell === cell && fresh) flash(g);
            svg.append(g);
          } else if (tgt.has(cell)) {
            const fits = colour && tgt.get(cell).has(colour);
            svg.append(s("g", { class: `target${fits ? " fits" : ""}`, "data-cell": cell },
              s("rect", { x: rx + 2, y: ry + 2, width: CELL - 4, height: CELL - 4, rx: 4 }, s("title", {}, spotTitle(palette, [x, y, z], tgt.get(cell), frame))),
              label(rx + CELL / 2, ry + CELL / 2, "+", { class: "plus" })));
          } else {
            svg.append(s("rect", { class: "empty", "data-cell": cell, x: rx + 2, y: ry + 2, width: CELL - 4, height: CELL - 4, rx: 4 }));
          }
          if (last && last.removed && last.cell === cell && fresh) {
            const gone = s("rect", { class: "lifted", x: rx + 2, y: ry + 2, width: CELL - 4, height: CELL - 4, rx: 4 });
            svg.append(gone);
            setTimeout(() => gone.remove(), 900);
          }
        }
      }
      plans.append(svg);
    }
  }

  function draw3d(cubes, tgt, rem, last, fresh) {
    if (!table3d) {
      table3d = new Table3D(holder3d, { pick, front: t("unst-front-floor"),
        label: t("unst-3d-label") });
    }
    const [x0, y0, z0, x1, y1, z1] = extent(cubes, [...tgt.keys()]);
    table3d.show(cubes.map((c) => ({
      x: c.x, y: c.y, z: c.z, rgb: palette[c.c].rgb, mark: rem.has(cellKey(c.x, c.y, c.z)),
      fresh: fresh && last && !last.removed && last.cell === cellKey(c.x, c.y, c.z),
    })), [x0, y0, x1 + 1, y1 + 1],
    [...tgt.keys()].filter((k) => !colour || tgt.get(k).has(colour)).map((k) => { const [x, y, z] = k.split(",").map(Number); return { x, y, z }; }));
    if (fresh && last && last.removed && before) {
      const was = cubesOf(before.view).find((c) => cellKey(c.x, c.y, c.z) === last.cell);
      if (was) table3d.lift([was.x, was.y, was.z], palette[was.c].rgb);
    }
    table3d.frame([x0, y0, z0, x1 + 1, y1 + 1, z1 + 1]);
  }

  function draw(fresh = false) {
    drawViewButtons();
    drawChoice();
    stageNote.textContent = note();
    stageNote.hidden = !stageNote.textContent;
    ctx.strip.hidden = stageNote.hidden && choice.hidden; // at the end: no empty card
    const cubes = cubesOf(state.view);
    const tgt = stacking() ? targets() : new Map();
    const rem = removable();
    const last = lastCell();
    frame = (state.hints && state.hints.frame) || [0, 0];
    holder3d.hidden = mode !== "3d";
    plans.hidden = mode === "3d";
    drawPlans(cubes, tgt, rem, last, fresh && mode !== "3d");
    if (mode === "3d") draw3d(cubes, tgt, rem, last, fresh);
  }

  /** Play at `cell` (a free cell or a cube), or say why not at `where`. */
  function act(cell, isCube, where) {
    if (!ctx.send) return;
    if (!state.legal.length) {
      where(state.over ? t("game-over") : t("not-your-turn"));
      return;
    }
    if (isCube) {
      if (removable().has(cell)) ctx.send(cell, null);
      else if (stacking()) where(t("unst-cell-taken"));
      else where(t("unst-cannot-come-out"));
      return;
    }
    if (!stacking()) {
      where(t("unst-take-ringed"));
      return;
    }
    const tgt = targets();
    if (!tgt.has(cell)) {
      const [x, y, z] = cell.split(",").map(Number);
      const under = cubesOf(state.view).some((c) => c.x === x && c.y === y && c.z === z - 1);
      where(z > 0 && !under ? t("unst-nothing-holds") : t("unst-no-cube-here"));
      return;
    }
    if (!colour) {
      where(t("unst-choose-colour-first"));
      return;
    }
    if (!tgt.get(cell).has(colour)) {
      where(t("unst-no-colour-here", { colour: colourName(palette, colour) }));
      return;
    }
    ctx.send(`${colour}@${cell}`, null);
  }

  plans.addEventListener("click", (event) => {
    const target = event.target.closest("[data-cell]");
    if (!target) return;
    act(target.dataset.cell, target.classList.contains("cube"), (text) => tip(target, text));
  });

  function pick({ cell, cube, event }) {
    if (!state) return;
    const tgt = stacking() ? targets() : new Map();
    if (event.type === "pointermove") {
      const spot = cell && tgt.get(cell.join(","));
      const taking = cube && !stacking() && removable().has(cube.cell.join(","));
      if (taking) table3d.showGhost([cube.cell]);
      else if (spot && colour && spot.has(colour)) table3d.showGhost([cell]);
      else table3d.showGhost(null);
      // the hover's words: the spot a cube would go to, else the cube pointed at
      const [x, y, z] = cube ? cube.cell : [];
      const was = cube && cubesOf(state.view).find((c) => c.x === x && c.y === y && c.z === z);
      table3d.say(spot ? spotTitle(palette, cell, spot, frame) : was ? cubeTitle(palette, was, taking, frame) : null);
      return;
    }
    const pin = (text) => {
      const mark = h("div", { class: "pin", style: `left:${event.clientX}px;top:${event.clientY + window.scrollY}px` });
      document.body.append(mark);
      tip(mark, text);
      mark.remove();
    };
    if (!stacking() && cube) act(cube.cell.join(","), true, pin);
    else if (cell) act(cell.join(","), false, pin);
  }

  /** Where the middle of cell `cell` ([x, y, z]) is on the screen in the drawing shown
   * now (the 3-D view, or the layers: null if that cell is not drawn). */
  function onScreen(cell) {
    if (mode === "3d" && table3d) {
      const [x, y] = table3d.screenOf(...cell, "middle");
      return { x, y };
    }
    return centreOf(plans.querySelector(`[data-cell="${cell.join(",")}"]`));
  }

  /** The move that led to `next` in motion, on the drawing still shown: a cube stacked
   * travels from its colour in this screen's supply (or its player's row) to its place;
   * a cube taken out travels from its place to its player. Resolves once it has landed. */
  function travel(next) {
    const last = next.last;
    const stacked = last && last.move ? /^(\w)@(-?\d+),(-?\d+),(-?\d+)$/.exec(last.move) : null;
    const taken = last && last.move ? /^(-?\d+),(-?\d+),(-?\d+)$/.exec(last.move) : null;
    if (!stacked && !taken) return null;
    const cell = (stacked ? stacked.slice(2) : taken.slice(1)).map(Number);
    const place = onScreen(cell);
    const own = stacked && last.seat === state.seat && !ctx.strip.hidden ? centreOf(choice.querySelector(`[data-colour="${stacked[1]}"]`)) : null;
    const player = own || (ctx.origin ? ctx.origin(last.seat) : null);
    const note = { game: "unstackable", ply: next.ply, kind: stacked ? "laid" : "removed" };
    if (stacked) return fly(player, place, palette[stacked[1]].rgb, { note });
    const was = cubesOf(state.view).find((c) => c.x === cell[0] && c.y === cell[1] && c.z === cell[2]);
    return was ? fly(place, player, palette[was.c].rgb, { note }) : null;
  }

  return {
    render(next, prev) {
      const fresh = Boolean(prev) && prev.ply !== next.ply;
      const flight = fresh && state && state.ply === prev.ply ? travel(next) : null;
      const show = () => {
        before = prev;
        state = next;
        draw(fresh);
      };
      if (!flight) return show();
      return flight.then(show);
    },
    ...probes(() => (mode === "3d" ? table3d : null)),
    describe(last) {
      if (!last.move || last.ply === 1) return null; // the first cube: the server's words say how places are named
      const who = last.seat === state.seat ? t("seat-you") : ctx.seatName(last.seat);
      const at = lastCell(last); // where the cube now is, or was before it came out
      if (!at) return null; // `end`: the server's words say it
      const [x, y, z] = at.cell.split(",").map(Number);
      const stacked = /^(\w)@/.exec(last.move);
      // named on the board fixed for the game, as the hovers and the log are
      if (stacked) return t("unst-stacked", { who, colour: colourName(palette, stacked[1]), place: placeWords(x, y, z, frame) });
      const was = before && cubesOf(before.view).find((c) => `${c.x},${c.y},${c.z}` === last.move);
      return t("unst-took", { who, colour: was ? colourName(palette, was.c) : "none", place: placeWords(x, y, z, frame) });
    },
    seatLine(st, seat) {
      const piles = st.view.piles[seat];
      const points = t("unst-points", { points: score(ctx.info, piles) });
      if (st.view.stage === "stack") return points;
      // stage 2: each pile's cubes, in the order taken out
      return h("span", { class: "piles" }, points, ...piles.map((pile, i) => h("span", { class: "pile", "aria-label": t("unst-pile-label", { pile: i + 1, count: pile.length }) },
        ` · ${t("unst-pile", { pile: i + 1 })} `, pile.length ? [...pile].map((c) => h("i", { class: "pile-cube", style: `--cube:${palette[c].rgb}`, title: colourName(palette, c) })) : h("small", {}, t("unst-pile-empty")))));
    },
    ending() {
      return t("unst-bare");
    },
  };
}

// -- what the page's shared scripts ask of this game (play.js, refusals.js, tutorial.js) --

/** The sound a move makes (`sound.js`): a cube laid or taken out; `end` is silent. */
export const soundOf = (move) => (move.includes("@") ? "laid" : /^\d/.test(move) ? "removed" : null);

/** A colour's name (the rules give its English name) in the page's language, by its letter
 * in the game's palette. */
function cubeColour(info, name) {
  const palette = (info && info.palette) || {};
  const letter = Object.keys(palette).find((c) => palette[c].name === name);
  return letter ? tOr(`unst-colour-${letter}`, name) : name;
}

/** The parameters of the rules' reasons whose words need colours by name, by code
 * (refusals.js `friendly`). */
export const refusalParams = {
  "none-left": (p, info) => ({ colour: cubeColour(info, p.colour) }),
  "turn-colour": (p, info) => ({ colour: cubeColour(info, p.colour), left: p.left }),
  "exact-count": (p, info) => ({ colour: cubeColour(info, p.colour), count: p.count }),
};

/** The tutorial guides on the layers seen from above, where each spot can be lit (the 3-D
 * view is a picture). */
export const tutorialOnLayers = true;

/** What the tutorial lights for a move: the colour and its spot, or the cube to take out. */
export function tutorialLights(move, state, root) {
  if (move.includes("@")) {
    const [colour, cell] = move.split("@");
    return [root.querySelector(`button.swatch[data-colour="${colour}"]`), root.querySelector(`.plan .target[data-cell="${cell}"]`)];
  }
  return [root.querySelector(`.plan .cube[data-cell="${move}"]`)];
}

// -- the start page's picture of the game (app.js) -------------------------------------

/** The game's picture on its card on the start page, drawn with the table's pieces. */
export function picture() {
  const colours = { Y: "#fcc419", R: "#e03131", K: "#2b2b2b" };
  const cubes = [];
  const plan = ["KRKY", "RKYK", "KYKR", "YKRK"];
  for (let z = 0; z < 3; z += 1) for (let x = 0; x < 3 - z; x += 1) for (let y = 0; y < 3 - z; y += 1) cubes.push([x, y, z, colours[plan[(x + z) % 4][(y + 2 * z) % 4]]]);
  cubes.sort((a, b) => a[2] - b[2] || a[0] + a[1] - (b[0] + b[1]));
  return pictureFrame(...cubes.map(([x, y, z, c]) => isoCube(x, y, z, c, 20)));
}
