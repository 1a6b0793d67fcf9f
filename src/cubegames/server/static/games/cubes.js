// CUBES: six dice, the pot and everyone's chips. Roll: the dice tumble, then settle on
// the roll the server made, and the roll is told in words.

import { h } from "../util.js";
import { t, tOr } from "../i18n.js";
import { label, pictureFrame, s, still } from "../draw.js";
import { seatColour } from "../seats.js";

const TUMBLE_MS = 800;

function die(info, face, x, y, size = 64) {
  const text = face === "C" ? "CUBES" : face === "." ? "" : face;
  // the outer group places the die; the inner one may tumble (a CSS transform of its own)
  const body = s("g", { class: "die" },
    s("rect", { width: size, height: size, rx: 12, fill: info.rgb, class: "die-body" }),
    s("rect", { x: 4, y: 4, width: size - 8, height: size - 8, rx: 9, fill: "none", class: "die-rim" }),
    label(size / 2, size / 2, text, { class: "face", fill: info.ink, "font-size": text.length > 2 ? 13 : 30 }),
    s("title", {}, t("cubes-die", { colour: tOr(`cubes-colour-${info.name}`, info.name), face: text || t("cubes-blank") })));
  return s("g", { transform: `translate(${x},${y})` }, body);
}

export function create(ctx) {
  const dice = ctx.info.dice;
  let state = null;
  const svg = s("svg", { viewBox: "0 0 460 180", class: "cubes-table", role: "img", "aria-label": t("cubes-table") });
  // everyone's chips, in words that wrap (a line in the drawing was cut off with many players)
  const chips = h("ul", { class: "chip-line", "aria-label": t("cubes-chips-label") });
  const button = h("button", { type: "button", class: "primary big roll" }, t("cubes-roll"));
  const hint = h("p", { class: "stage-note" });
  button.addEventListener("click", () => {
    if (!ctx.send || button.disabled) return;
    button.disabled = true;
    button.textContent = t("cubes-rolling");
    ctx.send("roll", button);
  });
  ctx.board.replaceChildren(h("div", { class: "cubes-board" }, svg, chips));
  ctx.strip.replaceChildren(h("div", { class: "cubes-strip" }, ctx.send ? button : null, hint));

  function faces() {
    const roll = (state.view.last_roll || "").split(" ").filter(Boolean);
    return dice.map((_, i) => roll[i] || "?");
  }

  function draw(tumbling) {
    svg.replaceChildren();
    const shown = faces();
    dice.forEach((info, i) => {
      const x = 20 + (i % 6) * 72;
      const g = die(info, tumbling ? "?" : shown[i], x, 24);
      if (tumbling) g.firstChild.classList.add("tumbling");
      svg.append(g);
    });
    const view = state.view;
    svg.append(label(230, 130, t("cubes-pot", { chips: view.pot }), { class: "pot" }));
    svg.append(label(230, 160, t("cubes-set", { set: view.set, sets: ctx.info.sets }), { class: "muted-text" }));
    chips.replaceChildren(...view.chips.map((count, seat) => h("li", { style: `--seat:${seatColour(ctx.info, seat)}`, class: state.to_move === seat ? "moving" : "" },
      h("i", { class: "seat-mark" }), h("span", { class: "who" }, ctx.seatName(seat)), h("b", {}, t("cubes-chip-count", { chips: count })))));
  }

  function tumble() {
    const entry = { game: "cubes", ply: state.ply, kind: "rolled", started: performance.now(), landed: null };
    (window.cubegamesMotion = window.cubegamesMotion || []).push(entry);
    return new Promise((resolve) => {
      const texts = [...svg.querySelectorAll(".die .face")];
      const timer = setInterval(() => {
        texts.forEach((t, i) => {
          const options = dice[i].faces;
          const f = options[Math.floor(Math.random() * options.length)];
          t.textContent = f;
          t.setAttribute("font-size", f.length > 2 ? 13 : 30);
        });
      }, 70);
      setTimeout(() => {
        clearInterval(timer);
        draw(false);
        entry.landed = performance.now();
        resolve();
      }, TUMBLE_MS);
    });
  }

  return {
    hold: 1300,
    render(next, prev) {
      state = next;
      const mine = next.legal.includes("roll");
      button.disabled = !mine || !ctx.send;
      button.textContent = t("cubes-roll");
      hint.textContent = mine ? t("cubes-your-roll") : next.over ? "" : t("cubes-rolls-next", { name: ctx.seatName(next.to_move) });
      // a spectator, or anyone once the game is over, has no dice to roll: no empty card
      button.hidden = next.seat === null || next.over;
      ctx.strip.hidden = button.hidden && !hint.textContent;
      // the dice tumble, then settle (at once for a person who asked for less motion)
      const fresh = prev && next.ply > prev.ply && next.view.last_roll && !still();
      draw(fresh);
      return fresh ? tumble() : null;
    },
    refused() {
      // any refusal comes here (a take-back asked for too): the dice are live again only
      // for the seat whose roll it still is
      button.disabled = !state || !state.legal.includes("roll") || !ctx.send;
      button.textContent = t("cubes-roll");
    },
    seatLine(st, seat) {
      return t("cubes-seat-line", { chips: st.view.chips[seat], points: st.view.totals[seat] });
    },
    roundOver(prev, next) {
      const a = (prev.view.past_sets || []).length;
      const b = (next.view.past_sets || []).length;
      if (b <= a) return null;
      const set = next.view.past_sets[b - 1];
      return { round: b, of: ctx.info.sets, name: "Set", scores: set.scores, text: set.bust !== null && set.bust !== undefined ? t("cubes-bust", { name: ctx.seatName(set.bust) }) : "" };
    },
    roundTable(st) {
      const past = st.view.past_sets || [];
      return { rounds: past.map((p) => p.scores), totals: st.view.totals };
    },
    status(st) {
      const sets = ctx.info.sets;
      return sets > 1 ? t("cubes-set", { set: Math.min(st.view.set, sets), sets }) : "";
    },
    ending(st) {
      const sets = ctx.info.sets;
      const bust = (st.view.past_sets || []).at(-1);
      if (bust && bust.bust !== null && bust.bust !== undefined) return t("cubes-all-sets-bust", { sets, name: ctx.seatName(bust.bust) });
      return t("cubes-all-sets", { sets });
    },
  };
}

// -- what the page's shared scripts ask of this game (play.js, tutorial.js) ---------------

/** The sound a move makes (`sound.js`): the dice rolled; the other choices are silent. */
export const soundOf = (move) => (move === "roll" ? "rolled" : null);

/** What the tutorial lights for a move: the roll button. */
export function tutorialLights(move, state, root) {
  return [root.querySelector("button.roll")];
}

// -- the start page's picture of the game (app.js) -------------------------------------

/** The game's picture on its card on the start page, drawn with the table's pieces. */
export function picture() {
  const dice = [["#e03131", "6"], ["#f76707", "C"], ["#fab005", "3"], ["#2f9e44", "1"], ["#1971c2", "5"]];
  return pictureFrame(...dice.map(([rgb, f], i) => s("g", { transform: `translate(${22 + i * 42},${50 + (i % 2) * 22}) rotate(${(i - 2) * 7} 18 18)` },
    s("rect", { width: 38, height: 38, rx: 8, fill: rgb, stroke: "rgba(0,0,0,.35)" }),
    label(19, 19, f === "C" ? "CUBES" : f, { fill: "#fff", "font-size": f === "C" ? 8 : 18, "font-weight": 800 }))));
}
