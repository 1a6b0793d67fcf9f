// The replay viewer: step through a game move by move (buttons, slider, arrow keys), as a
// spectator or, once the game is over, from any seat's side of the table.

import { api, h, remembered, TITLES, when, withCredential } from "./util.js";
import { grow } from "./play.js";

export async function replayPage(root, gameId) {
  let game;
  try {
    game = await api(`/api/games/${encodeURIComponent(gameId)}`);
  } catch (err) {
    root.replaceChildren(h("div", { class: "notice" }, h("p", {}, err.message),
      h("p", {}, h("a", { href: "/" }, "Back to the start page"))));
    return;
  }
  const title = TITLES[game.game] || game.game;
  document.title = `${title} replay · cubegames`;
  const total = game.moves.length;
  const over = game.status === "finished";
  const mine = remembered()[gameId] || {};
  let ply = over ? 0 : total;
  let seat = null;
  let asked = 0;

  const board = h("div", { class: "board", id: "board" });
  const said = h("p", { class: "said", "aria-live": "polite" });
  const counter = h("span", { class: "counter" });
  const slider = h("input", { type: "range", min: "0", max: String(total), value: String(ply),
    "aria-label": "Move number" });
  const perspective = h("select", { "aria-label": "Seen by" },
    h("option", { value: "" }, "a spectator"),
    game.seats.map((s) => {
      const allowed = over || (mine.tokens && mine.tokens[s.seat]);
      return allowed ? h("option", { value: String(s.seat) }, `seat ${s.seat}${s.name ? ` · ${s.name}` : ""}`) : null;
    }));
  const list = h("ol", { class: "log replay-moves" }, game.moves.map((m) =>
    h("li", { value: m.ply }, h("button", { type: "button", class: "link", onclick: () => go(m.ply) }, m.text))));

  async function show() {
    const ask = ++asked;
    counter.textContent = `move ${ply} of ${total}`;
    slider.value = String(ply);
    [...list.children].forEach((li, i) => li.classList.toggle("current", i + 1 === ply));
    const query = new URLSearchParams({ ply: String(ply) });
    let headers = {};
    if (seat !== null) {
      query.set("seat", String(seat));
      if (!over && mine.tokens && mine.tokens[seat]) headers = withCredential(mine.tokens[seat]);
    }
    try {
      const step = await api(`/api/games/${encodeURIComponent(gameId)}/replay?${query}`, { headers });
      if (ask !== asked) return;
      board.innerHTML = step.svg;
      grow(board);
      said.textContent = ply === 0 ? "The start of the game." : step.said || "";
    } catch (err) {
      said.textContent = err.message;
    }
  }

  function go(to) {
    ply = Math.max(0, Math.min(total, to));
    show();
  }

  slider.addEventListener("input", () => go(Number(slider.value)));
  perspective.addEventListener("change", () => {
    seat = perspective.value === "" ? null : Number(perspective.value);
    show();
  });
  document.addEventListener("keydown", (event) => {
    const tag = (event.target.tagName || "").toLowerCase();
    if (["input", "select", "textarea"].includes(tag) && event.target !== slider) return;
    if (event.key === "ArrowRight") go(ply + 1);
    else if (event.key === "ArrowLeft") go(ply - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(total);
    else return;
    event.preventDefault();
  });

  const button = (text, label, to) => h("button", { type: "button", "aria-label": label, onclick: () => go(to()) }, text);
  let result = "";
  if (game.result) {
    const won = game.result.winners.map((s) => `seat ${s}`).join(" and ");
    result = won ? `Won by ${won}; scores ${game.result.scores.join(", ")}.` : "Nobody won.";
  }
  root.replaceChildren(h("div", { class: "play replay" },
    h("div", { class: "bar" }, h("a", { href: "/", class: "back" }, "← All games"), h("h1", {}, `${title} · replay`)),
    h("p", { class: "status" }, over ? `Finished ${when(game.finished)}. ${result}` :
      "This game is still being played: you see it as a spectator saw it."),
    h("div", { class: "stepper" },
      button("⏮", "first move", () => 0), button("◀", "previous move", () => ply - 1),
      counter, button("▶", "next move", () => ply + 1), button("⏭", "last move", () => total),
      slider, h("label", {}, "Seen by ", perspective)),
    h("div", { class: "cols" },
      h("section", { class: "table-area" }, board),
      h("aside", { class: "side" }, said,
        over ? h("a", { class: "button", href: `/api/games/${encodeURIComponent(gameId)}/record`, download: "" },
          "Save the record") : h("a", { class: "button", href: `/play/${encodeURIComponent(gameId)}` }, "Watch it live"),
        h("h2", {}, "Moves"), list))));
  show();
}
