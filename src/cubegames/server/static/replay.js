// The replay: the same table as in play, drawn by the same game module with the same
// animations, moved by a scrubber and icon buttons (play, step, first, last). A spectator
// sees the public view; once the game is over, any seat's side of the table.

import { api, h, remembered, TITLES, when, withCredential } from "./util.js";
import { icon } from "./draw.js";
import { endedWords } from "./clocks.js";
import { roleName, tableFor } from "./play.js";
import { list as joined, number, phrase, t } from "./i18n.js";

const STEP_MS = 1100;

export async function replayPage(root, gameId) {
  let game;
  try {
    game = await api(`/api/games/${encodeURIComponent(gameId)}`);
  } catch (err) {
    root.replaceChildren(h("div", { class: "notice" }, h("p", {}, err.message), h("p", {}, h("a", { href: "/" }, t("replay-back")))));
    return;
  }
  const title = TITLES[game.game] || game.game;
  document.title = t("replay-title", { game: title });
  const total = game.moves.length;
  const over = game.status === "finished";
  const mine = remembered()[gameId] || {};
  const seats = game.seats.map((s) => ({ seat: s.seat, kind: s.kind, bot: s.bot, name: s.name }));
  // the seats this browser played are "You" (a hot-seat game's several: "You · Player 2")
  const held = Object.keys(mine.tokens || {}).map(Number);
  const nameOf = (s) => roleName(s, seats, held);
  let ply = over ? 0 : total;
  let seat = null;
  let asked = 0;
  let shown = null;
  let playing = null;

  const board = h("div", { class: "board", id: "board" });
  const strip = h("div", { class: "strip" });
  const said = h("p", { class: "said", "aria-live": "polite" });
  const counter = h("span", { class: "counter" });
  const slider = h("input", { type: "range", min: "0", max: String(total), value: String(ply), "aria-label": t("replay-move-number") });
  const perspective = h("select", { "aria-label": t("replay-seen-by") },
    h("option", { value: "" }, t("replay-spectator")),
    game.seats.map((s) => ((over || (mine.tokens && mine.tokens[s.seat])) ? h("option", { value: String(s.seat) }, nameOf(s.seat)) : null)));
  const named = (text) => (text || "").replace(/\b([Ss])eat (\d+)\b/g, (_, s, n) => {
    const name = nameOf(Number(n));
    return name === t("seat-you") && s === "s" ? name.toLowerCase() : name;
  });
  // the server's phrase in the page's words (its English, seats named, for a plug-in game)
  const worded = (say, text) => phrase(say, nameOf) ?? named(text);
  const list = h("ol", { class: "log replay-moves" }, game.moves.map((m) =>
    h("li", { value: m.ply }, h("button", { type: "button", class: "link", title: m.move ? t("replay-in-notation", { move: m.move }) : null, onclick: () => go(m.ply) }, worded(m.say, m.text)))));
  const playButton = h("button", { type: "button", class: "icon-button", "aria-label": t("replay-play") }, icon("play"));

  const controller = tableFor(game.game).create({
    board, strip, info: game.info, hello: { seats }, send: null,
    seatName: (s) => nameOf(s),
  });
  window.cubegamesReplay = { go: (n) => go(n), get ply() { return ply; }, get shown() { return shown; } };

  async function show() {
    const ask = ++asked;
    counter.textContent = `${ply} / ${total}`;
    slider.value = String(ply);
    [...list.children].forEach((li, i) => li.classList.toggle("current", i + 1 === ply));
    follow();
    const query = new URLSearchParams({ ply: String(ply) });
    let headers = {};
    if (seat !== null) {
      query.set("seat", String(seat));
      if (!over && mine.tokens && mine.tokens[seat]) headers = withCredential(mine.tokens[seat]);
    }
    try {
      const step = await api(`/api/games/${encodeURIComponent(gameId)}/replay?${query}`, { headers });
      if (ask !== asked) return;
      const state = { ...step, legal: [], log: [] };
      const prev = shown && shown.seat === state.seat && shown.ply === state.ply - 1 ? shown : null;
      shown = state;
      await controller.render(state, prev);
      follow(); // drawing the step can move the list's lines (the board, the words above it)
      const own = controller.describe && step.last ? controller.describe(step.last) : null;
      const last = step.last ? worded(step.last.say, step.last.text) : "";
      said.textContent = ply === 0 ? t("replay-start") : own || (step.said ? worded(step.say, step.said) : last);
    } catch (err) {
      said.textContent = err.message;
    }
  }

  /** Scroll the move list so that the move shown (or the first, at the start) is in it. */
  function follow() {
    const li = list.children[Math.max(0, ply - 1)];
    if (!li) return;
    const top = li.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + li.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2 + li.offsetHeight / 2);
    }
  }

  function go(to) {
    ply = Math.max(0, Math.min(total, to));
    if (ply >= total) stop();
    return show();
  }

  function stop() {
    if (playing) clearInterval(playing);
    playing = null;
    playButton.replaceChildren(icon("play"));
    playButton.setAttribute("aria-label", t("replay-play"));
  }

  playButton.addEventListener("click", () => {
    if (playing) {
      stop();
      return;
    }
    if (ply >= total) go(0);
    playing = setInterval(() => go(ply + 1), STEP_MS);
    playButton.replaceChildren(icon("pause"));
    playButton.setAttribute("aria-label", t("replay-pause"));
  });
  slider.addEventListener("input", () => {
    stop();
    go(Number(slider.value));
  });
  perspective.addEventListener("change", () => {
    seat = perspective.value === "" ? null : Number(perspective.value);
    shown = null;
    show();
  });
  document.addEventListener("keydown", (event) => {
    const tag = (event.target.tagName || "").toLowerCase();
    if (["input", "select", "textarea"].includes(tag) && event.target !== slider) return;
    if (event.key === "ArrowRight") go(ply + 1);
    else if (event.key === "ArrowLeft") go(ply - 1);
    else return;
    event.preventDefault();
  });

  const button = (name, label, to) => h("button", { type: "button", class: "icon-button", "aria-label": label, onclick: () => { stop(); go(to()); } }, icon(name));
  let result = "";
  if (game.result) {
    const won = game.result.winners.map((s) => nameOf(s));
    result = won.length ? t("replay-won", { who: joined(won), scores: game.result.scores.map(number).join(" – ") }) : t("replay-draw");
    // how it ended, as the game's page said it: a resignation, a flag, an abort (no
    // result: not "a draw")
    const ended = endedWords(game.result, nameOf);
    if (ended) result = game.result.ended === "aborted" ? ended : `${result} · ${ended}`;
  }
  root.replaceChildren(h("div", { class: "play replay" },
    h("div", { class: "bar" }, h("a", { href: "/", class: "back" }, t("replay-games")), h("h1", {}, t("replay-heading", { game: title }))),
    h("p", { class: "turn-banner over" }, over ? result : t("replay-still-playing")),
    game.deal_picked ? h("p", { class: "deal-picked", role: "note" }, t("deal-picked")) : null,
    h("div", { class: "scrubber" },
      button("first", t("replay-first"), () => 0), button("prev", t("replay-previous"), () => ply - 1), playButton,
      button("next", t("replay-next"), () => ply + 1), button("last", t("replay-last"), () => total),
      slider, counter, h("label", { class: "seen-by" }, t("replay-seen-by"), " ", perspective)),
    h("div", { class: "cols" },
      h("section", { class: "table-area" }, board, strip),
      h("aside", { class: "side" }, said,
        h("p", { class: "muted" }, over ? t("replay-finished", { when: when(game.finished) }) : ""),
        over ? h("a", { class: "button", href: `/api/games/${encodeURIComponent(gameId)}/record`, download: "" }, icon("download"), t("replay-save"))
          : h("a", { class: "button", href: `/play/${encodeURIComponent(gameId)}` }, t("replay-watch")),
        h("details", { class: "history", open: window.innerWidth > 700 }, h("summary", {}, t("replay-moves")), list)))));
  show();
}
