// CUBED on the page: pick a piece in your hand, turn it (R or the button), and drag it or
// click a green cell. Cells where the piece fits as it is turned now light up. Draw, pass
// and the variants' choices are buttons.

import { h } from "../util.js";

const WORDS = {
  draw: "Draw a piece",
  pass: "Pass",
  skip: "Give nothing away",
};

function label(move, seatName) {
  if (WORDS[move]) return WORDS[move];
  let m = /^draw3:(\d)$/.exec(move);
  if (m) return `Draw ${m[1]}, keep one`;
  m = /^keep:(\w+)$/.exec(move);
  if (m) return `Keep ${m[1]}`;
  m = /^give:(\w+)>(\d+)$/.exec(move);
  if (m) return `Give ${m[1]} to ${seatName(Number(m[2]))}`;
  return move;
}

function turned(letters, k) {
  return letters.slice(k) + letters.slice(0, k);
}

/** A piece as a small SVG: three diamonds with their letters (top, left, right). */
function pieceSvg(slots, palette, r = 22) {
  const corner = (a) => [r + 2 + r * Math.cos((a * Math.PI) / 180), r + 2 - r * Math.sin((a * Math.PI) / 180)];
  const c = [r + 2, r + 2];
  const quads = [[30, 90, 150], [150, 210, 270], [270, 330, 30]];
  let body = "";
  quads.forEach((corners, i) => {
    const pts = [c, ...corners.map(corner)];
    const colour = palette[slots[i]];
    const mx = pts.reduce((s, p) => s + p[0], 0) / 4;
    const my = pts.reduce((s, p) => s + p[1], 0) / 4;
    body += `<polygon points="${pts.map((p) => p.join(",")).join(" ")}" fill="${colour.rgb}" stroke="#333"/>`;
    body += `<text x="${mx}" y="${my}" fill="${colour.ink}" font-size="${r * 0.5}" font-weight="bold" ` +
      `text-anchor="middle" dominant-baseline="central">${slots[i]}</text>`;
  });
  const size = 2 * r + 4;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">${body}</svg>`;
}

export function create(ctx) {
  const palette = ctx.info.palette;
  let selected = null; // {index, letters}
  let turn = 0;
  let message = null;
  let legal = new Set();
  let drag = null;

  const pieceBox = h("div", { class: "selected-piece", "aria-live": "polite" });
  const rotate = h("button", { type: "button", title: "Turn the piece (R)" }, "⟳ Turn (R)");
  const actions = h("div", { class: "actions" });
  const hint = h("p", { class: "hint" });
  rotate.addEventListener("click", () => spin());

  function placements() {
    return [...legal].filter((m) => m.includes("@"));
  }

  function spin() {
    if (!selected) {
      ctx.tell("Pick a piece from your hand first.", "info");
      return;
    }
    turn = (turn + 1) % 3;
    paint();
  }

  function letters() {
    return selected ? turned(selected.letters, turn) : null;
  }

  function fitsHere(cell) {
    return selected && legal.has(`${letters()}@${cell}`);
  }

  function paint() {
    const board = ctx.board;
    for (const g of board.querySelectorAll(".hand-piece")) {
      g.classList.toggle("selected", selected !== null && Number(g.dataset.hand) === selected.index);
    }
    if (selected) {
      const g = board.querySelector(`.hand-piece[data-hand="${selected.index}"]`);
      const now = letters();
      if (g) {
        const texts = g.querySelectorAll("text");
        g.querySelectorAll("polygon.d").forEach((p, i) => {
          p.setAttribute("fill", palette[now[i]].rgb);
          if (texts[i]) {
            texts[i].textContent = now[i];
            texts[i].setAttribute("fill", palette[now[i]].ink);
          }
        });
      }
    }
    let fits = 0;
    for (const cell of board.querySelectorAll(".cell[data-cell]")) {
      const ok = Boolean(fitsHere(cell.dataset.cell));
      cell.classList.toggle("fits", ok);
      if (ok) fits += 1;
    }
    if (selected) {
      const all = placements().filter((m) => [0, 1, 2].some((k) => m.startsWith(`${turned(selected.letters, k)}@`))).length;
      pieceBox.innerHTML = pieceSvg(letters(), palette, 26);
      pieceBox.append(h("span", {}, fits
        ? `${letters()} fits ${fits} cell${fits === 1 ? "" : "s"} turned like this` +
          (all > fits ? ` (${all} in all its turns)` : "") + ". Click or drop it on a green cell."
        : all ? `Not like this: turn it (R) — it fits ${all} way${all === 1 ? "" : "s"}.`
          : `${selected.letters} fits nowhere now.`));
    } else {
      pieceBox.replaceChildren(h("span", { class: "muted" },
        message && message.legal.length ? "Pick a piece from your hand (outlined in green: it fits somewhere)." : ""));
    }
  }

  function place(cell) {
    if (!selected) {
      ctx.tell("Pick a piece from your hand first, then click a cell.", "info");
      return;
    }
    ctx.send(`${letters()}@${cell}`);
  }

  function choose(index, pieceLetters) {
    if (selected && selected.index === index) return;
    selected = { index, letters: pieceLetters };
    turn = 0;
    // start in a turn that fits, if the piece fits at all
    for (let k = 0; k < 3; k += 1) {
      if (placements().some((m) => m.startsWith(`${turned(pieceLetters, k)}@`))) {
        turn = k;
        break;
      }
    }
    paint();
  }

  // -- dragging a hand piece onto a cell ----------------------------------------------------

  function cellAt(x, y) {
    const el = document.elementFromPoint(x, y);
    return el ? el.closest(".cell[data-cell]") : null;
  }

  function pointerDown(event) {
    const piece = event.target.closest(".hand-piece");
    if (!piece || event.button !== 0) return;
    choose(Number(piece.dataset.hand), piece.dataset.piece);
    drag = { x: event.clientX, y: event.clientY, ghost: null, over: null };
    event.preventDefault();
  }

  function pointerMove(event) {
    if (!drag) return;
    if (!drag.ghost && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 6) {
      drag.ghost = h("div", { class: "drag-ghost" });
      drag.ghost.innerHTML = pieceSvg(letters(), palette, 26);
      document.body.append(drag.ghost);
    }
    if (!drag.ghost) return;
    drag.ghost.style.left = `${event.clientX - 28}px`;
    drag.ghost.style.top = `${event.clientY - 28}px`;
    const cell = cellAt(event.clientX, event.clientY);
    if (drag.over && drag.over !== cell) drag.over.classList.remove("hover");
    if (cell) cell.classList.add("hover");
    drag.over = cell;
  }

  function pointerUp(event) {
    if (!drag) return;
    const moved = drag.ghost !== null;
    if (drag.ghost) drag.ghost.remove();
    if (drag.over) drag.over.classList.remove("hover");
    drag = null;
    if (!moved) return;
    const cell = cellAt(event.clientX, event.clientY);
    if (cell) place(cell.dataset.cell);
  }

  ctx.board.addEventListener("pointerdown", pointerDown);
  window.addEventListener("pointermove", pointerMove);
  window.addEventListener("pointerup", pointerUp);

  return {
    render(msg) {
      message = msg;
      legal = new Set(msg.legal);
      const hand = (msg.view.hands && msg.seat !== null && msg.view.hands[msg.seat]) || [];
      if (selected && hand[selected.index] !== selected.letters) {
        selected = null;
        turn = 0;
      }
      const others = msg.legal.filter((m) => !m.includes("@"));
      actions.replaceChildren(...others.map((move) =>
        h("button", { type: "button", class: move === "draw" ? "primary" : "", onclick: () => ctx.send(move) },
          label(move, ctx.seatName))));
      const mine = msg.legal.length > 0;
      rotate.disabled = !mine || !placements().length;
      if (msg.view.turn && msg.view.turn.give && mine) {
        hint.textContent = "You filled a void: give a piece to another player, or give nothing.";
      } else if (msg.view.turn && Array.isArray(msg.view.turn.drawn) && mine) {
        hint.textContent = "Keep one of the pieces you drew: click it, or use the buttons.";
      } else if (mine) {
        hint.textContent = "Your turn: lay a piece so that every side it touches matches, or draw.";
      } else {
        hint.textContent = "";
      }
      ctx.controls.replaceChildren(h("div", { class: "cubed-controls" }, hint,
        h("div", { class: "row" }, pieceBox, rotate), actions));
      paint();
    },
    click(event) {
      const cell = event.target.closest("[data-cell]");
      if (cell && cell.classList.contains("cell")) {
        place(cell.dataset.cell);
        return true;
      }
      const piece = event.target.closest(".hand-piece");
      if (piece) {
        choose(Number(piece.dataset.hand), piece.dataset.piece);
        return true;
      }
      return false;
    },
    key(event) {
      if (event.key === "r" || event.key === "R") {
        spin();
        event.preventDefault();
      } else if (event.key === "Escape") {
        selected = null;
        paint();
      }
    },
  };
}
