// STAKD: the stack in 3-D (drag to turn and tilt) and, as a second view, one layer seen
// from above with the layer under it. Choose a piece, then point at a free spot: the
// piece shows where it would go (Turn tries its other ways through that spot); tap to lay
// it (on a phone: tap to see it, tap again to lay it).

import { h } from "../util.js";
import { t, t as say } from "../i18n.js";
import { canvas, centreOf, flash, fly, icon, isoCube, label, pictureFrame, s, tip } from "../draw.js";
import { Table3D, probes, webglWorks } from "../cube3d.js";

const NODE = 26;
const ORDER = ["BASE", "UNI", "DUO", "TRIO", "QUAD", "BOMBER"];

/** A legal move's parts: {type, z, nodes: ["x,y", ...]}. */
function parse(move) {
  const m = /^(\w+)@(-?\d+):(.+)$/.exec(move);
  if (!m) return null;
  return { move, type: m[1], z: Number(m[2]), nodes: m[3].split("+") };
}

export function create(ctx) {
  const info = ctx.info;
  let state = null;
  let type = null;
  let anchor = null; // {z, node}
  let pick3 = 0; // which candidate through the anchor
  let shownLayer = null;
  let mode = webglWorks() ? "3d" : "plans";
  let table3d = null;
  let lastPlayed = null;

  const viewButtons = h("div", { class: "view-switch", role: "group", "aria-label": t("stakd-views") });
  const holder3d = h("div", { class: "holder3d" });
  const plan = h("div", { class: "stakd-plan" });
  const layers = h("div", { class: "layer-switch" });
  const hand = h("div", { class: "stakd-hand" });
  const note = h("p", { class: "stage-note" });
  ctx.board.replaceChildren(h("div", { class: "stakd-board" }, viewButtons, holder3d, h("div", { class: "plan-box" }, layers, plan)));
  ctx.strip.replaceChildren(h("div", { class: "stakd-strip" }, note, hand));

  const colourOf = (p) => (p.type === "BOMBER" ? info.bomber_colour : info.seat_colours[p.owner % info.seat_colours.length]);
  const moves = () => state.legal.map(parse).filter(Boolean);
  const candidates = () => (anchor && type ? moves().filter((m) => m.type === type && m.z === anchor.z && m.nodes.includes(anchor.node)) : []);
  const current = () => {
    const list = candidates();
    return list.length ? list[pick3 % list.length] : null;
  };
  // the lowest layer a piece may go on now (a piece may also go higher, on pieces there)
  const playLayer = () => {
    const zs = moves().map((m) => m.z);
    return zs.length ? Math.min(...zs) : Math.max(0, ...state.view.pieces.map((p) => p.z));
  };

  function drawHand() {
    const open = new Set(moves().map((m) => m.type));
    if (type && !open.has(type)) type = null;
    if (!type && open.size === 1) type = [...open][0];
    const mine = state.seat !== null ? state.view.hands[state.seat] : null;
    hand.replaceChildren(...ORDER.filter((t) => mine && (mine[t] || open.has(t))).map((t) => h("button", {
      type: "button", class: `piece-type${t === type ? " chosen" : ""}`, disabled: !open.has(t), "aria-pressed": String(t === type),
      "data-type": t, onclick: () => { type = t; pick3 = 0; draw(); },
    }, shapeIcon(t), h("span", {}, h("b", {}, info.names[t]), h("small", {}, say("stakd-left", { count: mine[t] }))))));
    const c = current();
    if (c && candidates().length > 1) {
      hand.append(h("button", { type: "button", class: "turn-piece", onclick: () => { pick3 += 1; draw(); } }, icon("turn"), t("stakd-turn")));
    }
    if (state.seat === null) hand.append(h("p", { class: "muted" }, t("play-watching")));
  }

  function shapeIcon(t) {
    const shape = info.shapes[t][0];
    const w = Math.max(...shape.map((n) => n[0])) + 1;
    const hgt = Math.max(...shape.map((n) => n[1])) + 1;
    const size = 10;
    const colour = t === "BOMBER" ? info.bomber_colour : info.seat_colours[(state.seat ?? 0) % info.seat_colours.length];
    return s("svg", { viewBox: `0 0 ${3 * size} ${3 * size}`, width: 30, height: 30, class: "shape-icon" },
      shape.map(([x, y]) => s("rect", { x: (x + (3 - w) / 2) * size, y: (hgt - 1 - y + (3 - hgt) / 2) * size, width: size - 1, height: size - 1, rx: 2, fill: colour })));
  }

  function extent() {
    const xs = [0];
    const ys = [0];
    for (const p of state.view.pieces) for (const [x, y] of p.nodes) { xs.push(x); ys.push(y); }
    for (const m of moves()) for (const n of m.nodes) { const [x, y] = n.split(",").map(Number); xs.push(x); ys.push(y); }
    return [Math.min(...xs) - 1, Math.min(...ys) - 1, Math.max(...xs) + 1, Math.max(...ys) + 1];
  }

  function drawPlan(fresh) {
    const z = shownLayer ?? playLayer();
    const [x0, y0, x1, y1] = extent();
    const w = (x1 - x0 + 1) * NODE;
    const hgt = (y1 - y0 + 1) * NODE;
    const svg = canvas([-4, -4, w + 8, hgt + 8], { class: "plan", role: "img", "aria-label": t("stakd-layer-from-above", { z }) });
    const here = new Map();
    const below = new Map();
    for (const p of state.view.pieces) {
      for (const [x, y] of p.nodes) {
        if (p.z === z) here.set(`${x},${y}`, p);
        if (p.z === z - 1) below.set(`${x},${y}`, p);
      }
    }
    const open = new Set();
    for (const m of moves()) if (m.z === z && (!type || m.type === type)) m.nodes.forEach((n) => open.add(n));
    const preview = new Set(current() && current().z === z ? current().nodes : []);
    for (let y = y0; y <= y1; y += 1) {
      for (let x = x0; x <= x1; x += 1) {
        const node = `${x},${y}`;
        const rx = (x - x0) * NODE;
        const ry = (y1 - y) * NODE;
        const p = here.get(node);
        if (p) {
          const g = s("g", { class: `laid${lastPlayed && lastPlayed.z === z && lastPlayed.nodes.includes(node) ? " last" : ""}`, "data-node": node, "data-z": z },
            s("rect", { x: rx + 1, y: ry + 1, width: NODE - 2, height: NODE - 2, rx: 3, fill: colourOf(p) }, s("title", {}, `${info.names[p.type]} of ${ctx.seatName(p.owner)}`)),
            label(rx + NODE / 2, ry + NODE / 2, info.letters[p.type], { class: "letter", fill: "#fff" }));
          if (fresh && g.classList.contains("last")) flash(g);
          svg.append(g);
          continue;
        }
        const support = below.get(node);
        const cls = ["node", support ? "support" : "", open.has(node) ? "open" : "", preview.has(node) ? "preview" : ""].filter(Boolean).join(" ");
        svg.append(s("rect", { class: cls, "data-node": node, "data-z": z, x: rx + 2, y: ry + 2, width: NODE - 4, height: NODE - 4, rx: 3,
          style: support ? `--under:${colourOf(support)}` : null }));
      }
    }
    plan.replaceChildren(svg);
    const top = Math.max(playLayer(), ...moves().map((m) => m.z), ...state.view.pieces.map((p) => p.z));
    const playable = new Set(moves().map((m) => m.z));
    layers.replaceChildren(h("span", {}, t("stakd-layer")), ...Array.from({ length: top + 1 }, (_, i) => h("button", {
      type: "button", class: `layer-button${playable.has(i) ? " playable" : ""}`, "aria-pressed": String(i === z), "data-layer": i, onclick: () => { shownLayer = i === playLayer() ? null : i; draw(); },
    }, String(i))));
  }

  function draw3d(fresh) {
    if (!table3d) table3d = new Table3D(holder3d, { pick, height: 0.6, spot: 0x1d2b3a, spotGhost: 0x1d2b3a });
    const [x0, y0, x1, y1] = extent();
    const cubes = [];
    for (const p of state.view.pieces) {
      const isLast = lastPlayed && p.z === lastPlayed.z && p.nodes.some(([x, y]) => lastPlayed.nodes.includes(`${x},${y}`));
      const xs = p.nodes.map((n) => n[0]);
      const ys = p.nodes.map((n) => n[1]);
      const x = Math.min(...xs);
      const y = Math.min(...ys);
      cubes.push({ x, y, z: p.z, w: Math.max(...xs) - x + 1, d: Math.max(...ys) - y + 1, rgb: colourOf(p), fresh: fresh && isLast });
    }
    const marks = [];
    for (const m of moves()) if (!type || m.type === type) for (const n of m.nodes) { const [x, y] = n.split(",").map(Number); marks.push({ x, y, z: m.z }); }
    table3d.show(cubes, [x0, y0, x1 + 1, y1 + 1], marks);
    const top = Math.max(1, ...state.view.pieces.map((p) => p.z + 1));
    table3d.frame([x0, y0, 0, x1 + 1, y1 + 1, top]);
  }

  function drawNote() {
    if (state.over) note.textContent = "";
    else if (!state.legal.length) note.textContent = state.seat !== null && (state.view.out || []).includes(state.seat) ? t("stakd-you-are-out") : t("stakd-laying", { round: state.view.round, z: playLayer() });
    else if (!type) note.textContent = t("stakd-choose-piece");
    else note.textContent = t("stakd-point", { piece: info.names[type] });
  }

  function draw(fresh = false) {
    const make = (id, name, text) => h("button", { type: "button", class: "view-button", "aria-pressed": String(mode === id),
      disabled: id === "3d" && !webglWorks(), onclick: () => { mode = id; draw(); } }, icon(name), text);
    viewButtons.replaceChildren(make("3d", "cube", t("view-3d")), make("plans", "layers", t("view-layers")));
    holder3d.hidden = mode !== "3d";
    plan.parentElement.hidden = mode === "3d";
    drawHand();
    drawNote();
    drawPlan(fresh && mode !== "3d");
    if (mode === "3d") draw3d(fresh);
  }

  /** Point at node (x, y) of layer z; `play` lays the piece shown there. */
  function aim(z, node, play, where) {
    if (!ctx.send) return;
    if (!state.legal.length) {
      if (play) where(state.over ? t("game-over") : t("not-your-turn"));
      return;
    }
    if (!type) {
      if (play) where(t("stakd-choose-first"));
      return;
    }
    if (!anchor || anchor.z !== z || anchor.node !== node) pick3 = 0;
    const same = anchor && anchor.z === z && anchor.node === node;
    anchor = { z, node };
    const c = current();
    if (!c) {
      if (play) {
        const here = moves().some((m) => m.z === z);
        where(here ? t("stakd-cannot-go-why", { piece: info.names[type] }) : t("stakd-no-piece-on-layer", { z }));
      }
      draw();
      return;
    }
    if (play === "confirm" && !same) {
      draw();
      return;
    }
    if (play) {
      anchor = null;
      ctx.send(c.move, null);
      return;
    }
    draw();
  }

  plan.addEventListener("pointermove", (event) => {
    if (event.pointerType === "touch") return;
    const target = event.target.closest("[data-node]");
    if (!target || target.classList.contains("laid")) return;
    if (anchor && anchor.node === target.dataset.node && anchor.z === Number(target.dataset.z)) return;
    aim(Number(target.dataset.z), target.dataset.node, false, null);
  });
  plan.addEventListener("click", (event) => {
    const target = event.target.closest("[data-node]");
    if (!target) return;
    if (target.classList.contains("laid")) {
      tip(target, t("stakd-taken"));
      return;
    }
    const touch = event.pointerType === "touch" || (event.sourceCapabilities && event.sourceCapabilities.firesTouchEvents);
    aim(Number(target.dataset.z), target.dataset.node, touch ? "confirm" : true, (text) => tip(target, text));
  });

  function pick({ cell, event }) {
    if (!state || !cell) {
      if (table3d) table3d.showGhost(null);
      return;
    }
    const [x, y, z] = cell;
    const node = `${x},${y}`;
    const moving = event.type === "pointermove";
    if (moving) {
      if (!type || !state.legal.length) return;
      anchor = { z, node };
      const c = current();
      table3d.showGhost(c ? c.nodes.map((n) => [...n.split(",").map(Number), c.z]) : null);
      return;
    }
    const pin = (text) => {
      const mark = h("div", { class: "pin", style: `left:${event.clientX}px;top:${event.clientY + window.scrollY}px` });
      document.body.append(mark);
      tip(mark, text);
      mark.remove();
    };
    const touch = event.pointerType === "touch";
    const before = anchor;
    if (touch && !(before && before.z === z && before.node === node)) {
      anchor = { z, node };
      pick3 = 0;
      const c = current();
      table3d.showGhost(c ? c.nodes.map((n) => [...n.split(",").map(Number), c.z]) : null);
      if (!c && state.legal.length && type) pin(t("stakd-cannot-go", { piece: info.names[type] }));
      return;
    }
    aim(z, node, true, pin);
  }

  /** The move that led to `next` in motion, on the drawing still shown: the piece
   * travels from its type in this screen's hand (or its player's row) to where it lies
   * (in the 3-D view, or on the layer shown if it is that one). Resolves once landed. */
  function travel(next) {
    const move = next.last && next.last.move ? parse(next.last.move) : null;
    if (!move) return null;
    const nodes = move.nodes.map((n) => n.split(",").map(Number));
    let points = [];
    if (mode === "3d" && table3d) points = nodes.map(([x, y]) => table3d.screenOf(x, y, move.z, "middle")).map(([x, y]) => ({ x, y }));
    else points = move.nodes.map((n) => centreOf(plan.querySelector(`[data-node="${n}"][data-z="${move.z}"]`)));
    if (!points.length || points.some((p) => !p)) return null;
    const place = { x: points.reduce((a, p) => a + p.x, 0) / points.length, y: points.reduce((a, p) => a + p.y, 0) / points.length };
    const seat = next.last.seat;
    const own = seat === state.seat ? centreOf(hand.querySelector(`[data-type="${move.type}"]`)) : null;
    const from = own || (ctx.origin ? ctx.origin(seat) : null);
    const colour = move.type === "BOMBER" ? info.bomber_colour : info.seat_colours[seat % info.seat_colours.length];
    return fly(from, place, colour, { size: 18 + 6 * nodes.length, note: { game: "stakd", ply: next.ply, kind: "laid" } });
  }

  return {
    render(next, prev) {
      const fresh = Boolean(prev) && prev.ply !== next.ply;
      const flight = fresh && state && state.ply === prev.ply && state.view.round === next.view.round ? travel(next) : null;
      const show = () => {
        // a new round (or the last board of one) is shown from its playing layer,
        // whatever layer was looked at before
        if (state && state.view.round !== next.view.round) shownLayer = null;
        state = next;
        lastPlayed = next.last && next.last.move ? parse(next.last.move) : null;
        if (prev && prev.view.round !== next.view.round) shownLayer = null;
        anchor = null;
        draw(fresh);
      };
      if (!flight) return show();
      return flight.then(show);
    },
    ...probes(() => (mode === "3d" ? table3d : null)),
    describe(last) {
      const move = last.move && parse(last.move);
      if (!move) return null;
      const who = last.seat === state.seat ? t("seat-you") : ctx.seatName(last.seat);
      return t("stakd-laid", { who, you: String(last.seat === state.seat), piece: info.names[move.type], z: move.z });
    },
    seatLine(st, seat) {
      const hand = st.view.hands[seat];
      const left = Object.values(hand).reduce((a, b) => a + b, 0);
      const out = (st.view.out || []).includes(seat) && !st.over ? ` · ${t("stakd-out")}` : "";
      return `${t("stakd-seat-line", { points: st.view.points[seat], pieces: left })}${out}`;
    },
    roundOver(prev, next) {
      const a = prev.view.round_winners.length;
      const b = next.view.round_winners.length;
      if (b <= a) return null;
      const winner = next.view.round_winners[b - 1];
      const who = ctx.seatName(winner);
      const text = t("stakd-round-won", { who, you: String(who === t("seat-you")) });
      return { round: b, scores: next.view.points, text };
    },
    /** The layers as the round ended: the last state before it, with the pieces laid since
     * (`moves`: the log's entries after it). */
    roundBoard(prev, next, moves) {
      const view = structuredClone(prev.view);
      for (const e of moves) {
        const move = e.move && parse(e.move);
        if (!move) continue;
        view.pieces.push({ type: move.type, owner: e.seat, z: move.z, nodes: move.nodes.map((n) => n.split(",").map(Number)) });
        const hand = view.hands[e.seat];
        if (hand && hand[move.type]) hand[move.type] -= 1;
      }
      view.points = next.view.points; // the round's point is won
      return { ...prev, ply: next.ply, view, to_move: null };
    },
    status(st) {
      const goal = st.view.options.points_to_win;
      return t("stakd-status", { round: st.view.round, goal });
    },
    ending(st) {
      const top = Math.max(...st.view.points);
      const who = st.view.points.findIndex((p) => p === top);
      return t("stakd-reached", { who: ctx.seatName(who), points: top });
    },
  };
}

// -- what the page's shared scripts ask of this game (play.js, tutorial.js) ---------------

/** The sound a move makes (`sound.js`): every move lays a piece. */
export const soundOf = () => "laid";

/** The tutorial guides on the layers seen from above, where each spot can be lit (the 3-D
 * view is a picture). */
export const tutorialOnLayers = true;

/** What the tutorial lights for a move: the piece's type, its layer and its nodes. */
export function tutorialLights(move, state, root) {
  const [type, rest] = move.split("@");
  const [z, nodes] = rest.split(":");
  return [root.querySelector(`button.piece-type[data-type="${type}"]`), root.querySelector(`.layer-button[data-layer="${z}"]`),
    ...nodes.split("+").map((n) => root.querySelector(`.stakd-plan [data-node="${n}"][data-z="${z}"]`))];
}

// -- the start page's picture of the game (app.js) -------------------------------------

/** The game's picture on its card on the start page, drawn with the table's pieces. */
export function picture() {
  const blocks = [[0, 0, 0, "#d62728"], [1, 0, 0, "#d62728"], [2, 0, 0, "#2ca02c"], [0, 1, 0, "#2ca02c"], [1, 1, 0, "#2ca02c"], [2, 1, 0, "#d62728"],
    [0, 0, 1, "#2ca02c"], [1, 0, 1, "#2ca02c"], [1, 1, 1, "#d62728"], [1, 0, 2, "#1f3fff"]];
  blocks.sort((a, b) => a[2] - b[2] || a[0] + a[1] - (b[0] + b[1]));
  return pictureFrame(...blocks.map(([x, y, z, c]) => isoCube(x, y, z * 0.6, c, 24)));
}
