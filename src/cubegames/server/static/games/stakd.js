// STAKD on the page: choose a piece type, turn it (R), then point at a square of a layer:
// the piece is previewed with its first node (left-most, then lowest) on that square, green
// if it may go there. Squares where it may start are highlighted; click to lay it.

import { h } from "../util.js";

const ORDER = ["BASE", "UNI", "DUO", "TRIO", "QUAD", "BOMBER"];

function key(nodes) {
  return nodes.map(([x, y]) => `${x},${y}`).join("+");
}

function sortNodes(nodes) {
  return [...nodes].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

function normal(nodes) {
  const x0 = Math.min(...nodes.map((n) => n[0]));
  const y0 = Math.min(...nodes.map((n) => n[1]));
  return key(sortNodes(nodes.map(([x, y]) => [x - x0, y - y0])));
}

/** A legal move "DUO@1:0,0+1,0" as {type, z, nodes}. */
function parse(move) {
  const m = /^(\w+)@(\d+):(.+)$/.exec(move);
  if (!m) return null;
  return { type: m[1], z: Number(m[2]), nodes: m[3].split("+").map((p) => p.split(",").map(Number)) };
}

export function create(ctx) {
  const shapes = ctx.info.shapes;
  const names = ctx.info.names;
  let type = null;
  let turn = 0;
  let message = null;
  let moves = [];
  let legal = new Set();
  let hovered = null;

  function turns() {
    return type ? shapes[type] : [];
  }

  function shape() {
    const all = turns();
    return all.length ? all[turn % all.length] : null;
  }

  function nodesAt(anchor) {
    const s = shape();
    const [ax, ay] = s[0];
    return sortNodes(s.map(([x, y]) => [anchor[0] + x - ax, anchor[1] + y - ay]));
  }

  function moveAt(z, anchor) {
    return `${type}@${z}:${key(nodesAt(anchor))}`;
  }

  function paint() {
    const board = ctx.board;
    for (const el of board.querySelectorAll(".preview")) el.classList.remove("preview", "bad");
    for (const el of board.querySelectorAll(".fits")) el.classList.remove("fits");
    if (!type) return;
    const form = key(shape());
    for (const m of moves) {
      if (m.type !== type || normal(m.nodes) !== form) continue;
      const [ax, ay] = sortNodes(m.nodes)[0];
      const el = board.querySelector(`[data-z="${m.z}"][data-node="${ax},${ay}"]`);
      if (el) el.classList.add("fits");
    }
    if (hovered) {
      const ok = legal.has(moveAt(hovered.z, hovered.node));
      for (const [x, y] of nodesAt(hovered.node)) {
        const el = board.querySelector(`[data-z="${hovered.z}"][data-node="${x},${y}"]`);
        if (el) el.classList.add("preview", ...(ok ? [] : ["bad"]));
      }
    }
  }

  function spin() {
    if (!type) return;
    turn = (turn + 1) % Math.max(1, turns().length);
    render(message);
  }

  function nodeOf(el) {
    return { z: Number(el.dataset.z), node: el.dataset.node.split(",").map(Number) };
  }

  ctx.board.addEventListener("pointerover", (event) => {
    const el = event.target.closest("[data-node]");
    hovered = el ? nodeOf(el) : null;
    paint();
  });
  ctx.board.addEventListener("pointerleave", () => {
    hovered = null;
    paint();
  });

  function render(msg) {
    message = msg;
    legal = new Set(msg.legal);
    moves = msg.legal.map(parse).filter(Boolean);
    const mine = moves.length > 0;
    const playable = new Set(moves.map((m) => m.type));
    const hand = msg.seat !== null ? msg.view.hands[msg.seat] : null;
    if (!playable.has(type)) {
      type = ORDER.find((t) => playable.has(t)) || null;
      turn = 0;
    }
    if (type && turns().length) turn %= turns().length;
    const parts = [];
    if (mine) {
      parts.push(h("p", { class: "hint" }, type === "BASE"
        ? "Lay your base on layer 0: turn it with R, then click a highlighted square."
        : "Choose a piece, turn it with R, then click a highlighted square: the piece's first node " +
          "(left-most, then lowest) goes there. Point at a square to preview it."));
      parts.push(h("div", { class: "type-choice", role: "group", "aria-label": "Piece to lay" },
        ORDER.filter((t) => hand && hand[t] > 0).map((t) => h("button", {
          type: "button",
          class: `type ${t === type ? "chosen" : ""}`,
          "aria-pressed": String(t === type),
          disabled: !playable.has(t),
          title: playable.has(t) ? "" : "cannot be laid now",
          onclick: () => {
            type = t;
            turn = 0;
            render(message);
          },
        }, `${names[t]} ×${hand[t]}`)),
        h("button", { type: "button", onclick: spin, disabled: !type || turns().length < 2, title: "Turn (R)" },
          "⟳ Turn (R)")));
    }
    ctx.controls.replaceChildren(h("div", { class: "stakd-controls" }, parts));
    paint();
  }

  return {
    render,
    click(event) {
      const el = event.target.closest("[data-node]");
      if (!el || !message) return false;
      if (!type) {
        ctx.tell(moves.length ? "Choose a piece first." : "It is not your turn.", "info");
        return true;
      }
      const { z, node } = nodeOf(el);
      ctx.send(moveAt(z, node));
      return true;
    },
    key(event) {
      if (event.key === "r" || event.key === "R") {
        spin();
        event.preventDefault();
      }
    },
  };
}
