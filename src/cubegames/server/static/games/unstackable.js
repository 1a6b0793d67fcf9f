// Unstackable on the page. Stage 1: choose a colour, then click a cell marked + (in the
// cube or in a layer plan). Stage 2: click a cube outlined in green to take it. Layer
// toggles hide the layers above the one you want to see.

import { h } from "../util.js";

export function create(ctx) {
  const palette = ctx.info.palette;
  let colour = null;
  let message = null;
  let legal = new Set();
  const shown = [true, true, true, true];

  function colours() {
    const found = new Set();
    for (const m of legal) if (m.includes("@")) found.add(m[0]);
    return ["Y", "R", "K"].filter((c) => found.has(c));
  }

  function paint() {
    for (const el of ctx.board.querySelectorAll(".target[data-cell]")) {
      el.classList.toggle("fits", colour !== null && legal.has(`${colour}@${el.dataset.cell}`));
    }
    for (const layer of ctx.board.querySelectorAll(".layer[data-layer]")) {
      layer.classList.toggle("hidden", !shown[Number(layer.dataset.layer)]);
    }
  }

  function colourButtons() {
    const open = colours();
    if (!open.length) return null;
    if (!open.includes(colour)) colour = open.length === 1 ? open[0] : null;
    const fixed = message.view.turn && message.view.turn.colour;
    return h("div", { class: "colour-choice", role: "group", "aria-label": "Colour to stack" },
      h("span", {}, fixed ? "Stacking:" : "Choose a colour:"),
      open.map((c) => {
        const info = palette[c];
        const button = h("button", {
          type: "button",
          class: `swatch ${c === colour ? "chosen" : ""}`,
          style: `--swatch:${info.rgb};--swatch-ink:${info.ink}`,
          "aria-pressed": String(c === colour),
          onclick: () => {
            colour = c;
            render(message);
          },
        }, h("b", {}, c), ` ${info.name} · ${message.view.supply[c]} left · places ${info.per_turn}`);
        return button;
      }));
  }

  function layerToggles() {
    return h("div", { class: "layer-toggles", role: "group", "aria-label": "Layers shown in the cube" },
      h("span", {}, "Show layers:"),
      [0, 1, 2, 3].map((z) => {
        const box = h("input", { type: "checkbox", id: `layer-${z}` });
        box.checked = shown[z];
        box.addEventListener("change", () => {
          shown[z] = box.checked;
          paint();
        });
        return h("label", { class: "check", for: `layer-${z}` }, box, ` ${z}`);
      }),
      h("button", { type: "button", class: "small", onclick: () => {
        shown.fill(true);
        render(message);
      } }, "all"));
  }

  function render(msg) {
    message = msg;
    legal = new Set(msg.legal);
    const mine = msg.legal.length > 0;
    const stage = msg.view.stage;
    let hint = "";
    if (mine && stage === "stack") {
      hint = "Stage 1: choose a colour, then click a cell marked + (in the cube or a layer plan). " +
        "A cube on the bag must touch another; higher cubes need a cube under them.";
    } else if (mine) {
      const pile = msg.view.turn.removed ? 2 : 1;
      hint = `Stage 2: click a cube outlined in green to take it into pile ${pile}. ` +
        "Pile 1 scores yellow 5 and red 3; pile 2 scores black 1.";
    }
    ctx.controls.replaceChildren(h("div", { class: "unstackable-controls" },
      hint ? h("p", { class: "hint" }, hint) : null,
      mine && stage === "stack" ? colourButtons() : null,
      layerToggles()));
    paint();
  }

  return {
    render,
    click(event) {
      const el = event.target.closest("[data-cell]");
      if (!el || !message) return false;
      const cell = el.dataset.cell;
      if (message.view.stage === "stack") {
        if (!colour) {
          ctx.tell("Choose a colour first (the buttons under the cube).", "info");
          return true;
        }
        ctx.send(`${colour}@${cell}`);
      } else {
        ctx.send(cell);
      }
      return true;
    },
    key(event) {
      const letter = event.key.toUpperCase();
      if (["Y", "R", "K"].includes(letter) && colours().includes(letter)) {
        colour = letter;
        render(message);
      }
    },
  };
}
