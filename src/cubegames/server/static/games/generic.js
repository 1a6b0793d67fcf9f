// The generic table: a game with no page module of its own (a plug-in game, see
// docs/plugins.md) is still playable. The board shows the seat's view as a readable tree;
// the strip shows the legal moves in notation as buttons, and a text box takes any move
// typed in notation. Moves go through the same protocol as every game's (ctx.send); the
// server checks them with the engine and words refusals.

import { t } from "../i18n.js";
import { h } from "../util.js";

/** The most move buttons drawn; the others can be typed. */
const MOST_BUTTONS = 60;
/** Fields of a view that say nothing to a player (the game's id). */
const HIDDEN = new Set(["game"]);

/** A field's name for people: `max_take` reads "max take". */
function named(key) {
  return String(key).replace(/_/g, " ");
}

/** A JSON value as nested lists: objects as name/value pairs, lists numbered from 0. */
export function tree(value) {
  if (value === null || value === undefined) return h("span", { class: "generic-null" }, "—");
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "generic-null" }, t("generic-none"));
    if (value.every((v) => v === null || typeof v !== "object")) {
      return h("span", { class: "generic-value" }, value.map((v) => (v === null ? "—" : String(v))).join(", "));
    }
    return h("ol", { class: "generic-list", start: 0 }, value.map((v) => h("li", {}, tree(v))));
  }
  if (typeof value === "object") {
    const pairs = Object.entries(value).filter(([k]) => !HIDDEN.has(k));
    return h("dl", { class: "generic-tree" }, pairs.flatMap(([k, v]) => [h("dt", {}, named(k)), h("dd", {}, tree(v))]));
  }
  return h("span", { class: "generic-value" }, String(value));
}

export function create(ctx) {
  const view = h("div", { class: "generic-view", "aria-live": "polite" });
  const note = h("p", { class: "stage-note" });
  const buttons = h("div", { class: "move-buttons generic-moves" });
  const input = h("input", { type: "text", class: "generic-move", "aria-label": t("generic-move-label"), autocomplete: "off", maxlength: 200 });
  const typed = h("form", { class: "generic-typed" }, input, h("button", { type: "submit" }, t("play-play")));
  typed.addEventListener("submit", (event) => {
    event.preventDefault();
    const move = input.value.trim();
    if (move && ctx.send) ctx.send(move, input);
  });
  ctx.board.replaceChildren(h("div", { class: "generic-board" }, h("h2", {}, ctx.info.title || ""), view));
  ctx.strip.replaceChildren(h("div", { class: "generic-strip" }, note, ctx.send ? [buttons, typed] : null));

  return {
    render(next) {
      view.replaceChildren(tree(next.view));
      const legal = ctx.send ? next.legal || [] : [];
      buttons.replaceChildren(...legal.slice(0, MOST_BUTTONS).map((move) =>
        h("button", { type: "button", class: "move", "data-move": move, onclick: (event) => ctx.send(move, event.currentTarget) }, move)));
      if (legal.length > MOST_BUTTONS) buttons.append(h("span", { class: "muted" }, t("generic-more", { count: legal.length - MOST_BUTTONS })));
      typed.hidden = !legal.length;
      if (legal.length) input.placeholder = t("generic-example", { move: legal[0] });
      else input.value = "";
      note.textContent = next.over ? t("game-over")
        : legal.length ? t("generic-your-move")
          : next.to_move === null || next.to_move === undefined ? "" : t("generic-moves-next", { name: ctx.seatName(next.to_move) });
      return null;
    },
    refused() {
      input.select();
    },
  };
}

/** What the tutorial lights for a move: its button (the tutorial's fallback for a game
 * whose page module says nothing of it). */
export function tutorialLights(move, state, root) {
  return [...root.querySelectorAll("button.move")].filter((b) => b.dataset.move === move);
}
