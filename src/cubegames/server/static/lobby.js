// The lobby on the start page: the public tables waiting for players, live (the server's
// /ws/lobby sends the list whole once, then a patch for each change: lobbylist.js), each
// joined with one click; quick
// play ("a 2-player CUBED game, 10+5"); and the "public table" box of the new-game form.
// Every line is built from text nodes (util.js's `h`), never from markup.

import { api, h, playLink, remember, remembered, slot, spliced, TITLES } from "./util.js";
import { has, t, tOr } from "./i18n.js";
import { WORDS as CLOCK_WORDS } from "./clocks.js";
import { seatLabel } from "./play.js";
import { applyLobby, emptyList } from "./lobbylist.js";

/** The longest name a player may give (the server's names.MAX_NAME: a longer one is refused). */
export const MAX_NAME = 24;

const NAME = "cubegames.name";
const PING_EVERY = 25000;
/** The quick-play time controls (as the new-game form's presets). */
const QUICK_CLOCKS = ["none", "3+2", "10+5", "30+0"];

/** The name this browser sits down under (remembered between visits). */
export function playerName() {
  try {
    return localStorage.getItem(NAME) || "";
  } catch {
    return "";
  }
}

function keepName(name) {
  try {
    localStorage.setItem(NAME, name);
  } catch {
    // private browsing: typed again next time
  }
}

/** The new-game form's "list this table in the lobby" box. */
export function publicField() {
  const box = h("input", { type: "checkbox", id: "public-table", name: "public" });
  const element = h("div", { class: "field field-public" },
    h("label", { class: "check", for: "public-table" }, box, t("start-public")),
    h("small", {}, t("start-public-help")));
  return { element, value: () => box.checked };
}

/** A time control (the server's `clock.control`) in a player's words: "10+5", "3 days". */
export function clockWords(clock) {
  if (!clock || clock.kind === "none") return t("lobby-untimed");
  if (clock.kind === "realtime") return `${+(clock.bank / 60).toFixed(1)}+${+clock.increment.toFixed(1)}`;
  return CLOCK_WORDS.days(Math.max(1, Math.round(clock.per_move / 86400)));
}

/** A table's options that differ from the game's defaults, in words ("Edition: Japanese"). */
function optionWords(table, game) {
  if (!game) return [];
  const words = [];
  for (const option of game.options) {
    if (option.name === "players") continue;
    const value = table.options[option.name];
    if (value === undefined || JSON.stringify(value) === JSON.stringify(option.default)) continue;
    const label = tOr(`option-${table.game}-${option.name}`, tOr(`option-${option.name}`, option.label));
    const choice = (v) => {
      const found = (option.choices || []).find(([c]) => c === v);
      return tOr(`choice-${table.game}-${option.name}-${v}`, found ? found[1] : String(v));
    };
    const shown = Array.isArray(value) ? value.map(choice).join(", ") : option.kind === "choice" ? choice(value) : String(value);
    if (shown) words.push(`${label}: ${shown}`);
  }
  return words;
}

/** Sit down: keep the seat's credential in this browser, then open the table. */
function sitDown(id, game, seat, token, extra = {}) {
  remember(id, { game, tokens: { [seat]: token }, here: [seat], created: new Date().toISOString(), ...extra });
  location.href = playLink(id);
}

/** The lobby's section of the start page: quick play and the open tables. */
export function lobbySection(menu) {
  const games = Object.fromEntries(menu.games.map((g) => [g.id, g]));
  const message = h("p", { class: "error", role: "alert" });
  const name = h("input", { type: "text", id: "lobby-name", maxlength: String(MAX_NAME), autocomplete: "nickname",
    placeholder: t("lobby-name-placeholder"), value: playerName() });
  name.addEventListener("input", () => keepName(name.value.trim()));
  const nameField = h("div", { class: "field lobby-name" }, h("label", { for: "lobby-name" }, t("lobby-name")), name);
  // the quick-play row holds the name too: a table joined from the list uses it as well
  const list = h("ul", { class: "lobby-list", "aria-live": "polite" }, h("li", { class: "muted" }, t("lobby-loading")));
  const status = h("p", { class: "muted lobby-status", hidden: true }, t("lobby-offline"));
  const fail = (err) => { message.textContent = err.message; };

  async function join(table, button) {
    message.textContent = "";
    button.disabled = true;
    try {
      const got = await api(`/api/games/${encodeURIComponent(table.id)}/join`, { json: { name: name.value.trim() || null } });
      sitDown(got.id, got.game, got.seat, got.token);
    } catch (err) {
      fail(err);
      button.disabled = false;
    }
  }

  function row(table) {
    const mine = remembered()[table.id];
    const seated = mine && mine.tokens && Object.keys(mine.tokens).length;
    const bots = table.seats.filter((s) => s.kind === "bot").length;
    const host = table.host ? seatLabel(table.host.seat, table.seats, table.host.name) : null;
    const hostWords = host === null ? null : spliced(table.host_rating !== null && table.host_rating !== undefined
      ? t("lobby-host", { name: t("lobby-host-rating", { name: slot(0), rating: Math.round(table.host_rating) }) })
      : t("lobby-host", { name: slot(0) }), [host]);
    const facts = [
      t("lobby-free", { free: table.free, players: table.players }),
      clockWords(table.clock),
      table.rated ? t("lobby-rated") : t("lobby-unrated"),
      bots ? t("lobby-bots", { count: bots }) : null,
      ...optionWords(table, games[table.game]),
      table.deal_picked ? t("lobby-deal-picked") : null,
    ].filter(Boolean);
    const action = seated
      ? h("a", { class: "button", href: playLink(table.id) }, t("lobby-open-yours"))
      : h("button", { type: "button", class: "primary join" }, t("lobby-join"));
    if (!seated) action.addEventListener("click", () => join(table, action));
    return h("li", { class: `lobby-table${seated ? " yours" : ""}`, "data-id": table.id },
      h("span", { class: "game-name" }, TITLES[table.game] || table.game),
      hostWords ? h("span", { class: "host" }, hostWords) : null,
      h("span", { class: "facts muted" }, facts.join(" · ")),
      action);
  }

  function draw(tables) {
    list.replaceChildren(...(tables.length ? tables.map(row) : [h("li", { class: "muted" }, t("lobby-none"))]));
  }

  let retry = 0;
  function watch() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
    let held = emptyList();
    let syncing = false;
    const pinger = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" })); }, PING_EVERY);
    ws.addEventListener("open", () => { retry = 0; status.hidden = true; });
    ws.addEventListener("message", (event) => {
      let got;
      try {
        got = JSON.parse(event.data);
      } catch {
        return;
      }
      const next = applyLobby(held, got);
      if (next === null) {
        // a patch missed or out of step: the whole list again (patches meanwhile wait for it)
        if (!syncing && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "sync" }));
        syncing = true;
        return;
      }
      if (got.type === "lobby") syncing = false;
      if (next !== held) {
        held = next;
        draw(held.tables);
      }
    });
    ws.addEventListener("close", () => {
      clearInterval(pinger);
      status.hidden = false;
      setTimeout(watch, Math.min(10000, 500 * 2 ** retry++));
    });
  }
  watch();

  return h("section", { class: "card lobby" },
    h("h2", {}, t("lobby-title")),
    quickPlay(menu, nameField, () => name.value.trim() || null, fail),
    h("h3", {}, t("lobby-heading")),
    h("p", { class: "muted" }, t("lobby-lead")),
    list, status, message);
}

/** "A 2-player CUBED game, 10+5": sit at a waiting table with the same settings, or open
 * one that others see in the list. */
function quickPlay(menu, nameField, nameOf, fail) {
  // a plug-in game's title is its author's own words (English), marked so
  const game = h("select", { id: "quick-game" }, menu.games.map((g) =>
    h("option", { value: g.id, lang: has(`pitch-${g.id}`) ? null : "en" }, TITLES[g.id] || g.title)));
  const players = h("input", { type: "number", id: "quick-players", min: "1", max: "20", value: "2" });
  const clock = h("select", { id: "quick-clock" }, QUICK_CLOCKS.map((c) => h("option", { value: c }, c === "none" ? t("quick-untimed") : c)));
  clock.value = "10+5";
  const fit = () => {
    const chosen = menu.games.find((g) => g.id === game.value);
    const spec = chosen.options.find((o) => o.name === "players");
    // a game without a players option (a plug-in seating a fixed number) seats its own
    players.min = spec ? spec.low : chosen.min_players;
    players.max = spec ? spec.high : chosen.max_players;
    players.disabled = !spec || spec.low === spec.high;
    if (!spec) players.value = chosen.min_players;
    else if (Number(players.value) < spec.low || Number(players.value) > spec.high) players.value = spec.default;
  };
  game.addEventListener("change", fit);
  fit();
  // styled as a primary button, but not one: the start form's own is the page's primary submit
  const button = h("button", { type: "submit", class: "find" }, t("quick-button"));
  const form = h("form", { class: "quick-play" },
    h("h3", {}, t("quick-heading")),
    h("p", { class: "muted" }, t("quick-lead")),
    h("div", { class: "row" },
      nameField,
      h("div", { class: "field" }, h("label", { for: "quick-game" }, t("quick-game")), game),
      h("div", { class: "field" }, h("label", { for: "quick-players" }, t("quick-players")), players),
      h("div", { class: "field" }, h("label", { for: "quick-clock" }, t("quick-clock")), clock),
      button));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    const held = Object.keys(remembered()).slice(-50);
    const body = {
      game: game.value,
      players: players.disabled ? null : Number(players.value),
      clock: clock.value === "none" ? { kind: "none" } : { kind: "realtime", preset: clock.value },
      name: nameOf(),
      avoid: held,
    };
    try {
      const got = await api("/api/quickplay", { json: body });
      if (got.joined) sitDown(got.id, got.game, got.seat, got.token);
      else sitDown(got.id, got.game, 0, got.seats[0].token, { host: got.host });
    } catch (err) {
      fail(err);
      button.disabled = false;
    }
  });
  return form;
}
