// CUBES on the page: a Roll button; the dice tumble for a moment before they settle on the
// roll the server made, and the roll is told in words.

import { h } from "../util.js";

const TUMBLE_MS = 700;
const STEP_MS = 70;

export function create(ctx) {
  const dice = ctx.info.dice;
  let shownPly = null;

  /** Spin the dice on the board for a moment, then show their real faces again. */
  function tumble() {
    const texts = [...ctx.board.querySelectorAll(".die .face")];
    const finals = texts.map((t) => t.textContent);
    const timer = setInterval(() => {
      texts.forEach((t, i) => {
        const options = dice[i].faces;
        t.textContent = options[Math.floor(Math.random() * options.length)];
      });
    }, STEP_MS);
    return new Promise((resolve) => {
      setTimeout(() => {
        clearInterval(timer);
        texts.forEach((t, i) => {
          t.textContent = finals[i];
        });
        resolve();
      }, TUMBLE_MS);
    });
  }

  function roll(button) {
    button.disabled = true;
    button.textContent = "Rolling…";
    ctx.send("roll");
  }

  return {
    // show each roll for a moment before the next one (a bot may roll right after you)
    hold: 1400,
    render(msg) {
      const mine = msg.legal.includes("roll");
      const button = h("button", { type: "button", class: "primary big roll", disabled: !mine }, "Roll the dice");
      button.addEventListener("click", () => roll(button));
      const note = mine ? "Your roll." : msg.over ? "" : `${ctx.seatName(msg.to_move)} rolls next.`;
      ctx.controls.replaceChildren(h("div", { class: "cubes-controls" }, button, h("span", { class: "hint" }, note),
        ctx.info.referee && mine ? h("p", { class: "hint" },
          "Rolling real dice? Type what they show under “Your moves”, e.g. roll 1 C . 6 . 3.") : null));
      const fresh = shownPly !== null && msg.ply > shownPly && msg.view.last_roll;
      shownPly = msg.ply;
      return fresh ? tumble() : null;
    },
    refused() {
      const button = ctx.controls.querySelector("button.roll");
      if (button) {
        button.disabled = false;
        button.textContent = "Roll the dice";
      }
    },
    key(event) {
      if (event.key === " " || event.key === "Enter") {
        const button = ctx.controls.querySelector("button.roll");
        if (button && !button.disabled && document.activeElement === document.body) {
          event.preventDefault();
          roll(button);
        }
      }
    },
  };
}
