// The start page (pick a game, its options and who sits where; the list of games; loading
// a record) and the router that sends /play/ID and /replay/ID to their screens.

import { api, copy, h, inviteLink, playLink, remember, remembered, slot, spliced, TITLES, when } from "./util.js";
import { has, list as joined, t, tOr } from "./i18n.js";
import { WORDS as CLOCK_WORDS, timeControlField, yourTurnFirst } from "./clocks.js";
import { playPage, roleName, seatLabel, tableFor } from "./play.js";
import { replayPage } from "./replay.js";
import { accountPanel, loadSession, ratedField, session } from "./account.js";
import { leaderboardPage, playerPage } from "./players.js";
import { guide, learnPage, tutorialsSection } from "./tutorial.js";
import { lobbySection, MAX_NAME, playerName, publicField } from "./lobby.js";

const app = document.getElementById("app");

function route() {
  const path = location.pathname;
  let match = /^\/play\/([^/]+)\/?$/.exec(path);
  if (match) return playPage(app, decodeURIComponent(match[1])).then(() => guide(decodeURIComponent(match[1])));
  match = /^\/learn\/([^/]+)\/?$/.exec(path);
  if (match) return learnPage(app, decodeURIComponent(match[1]));
  match = /^\/replay\/([^/]+)\/?$/.exec(path);
  if (match) return replayPage(app, decodeURIComponent(match[1]));
  match = /^\/leaderboard\/([^/]+)\/?$/.exec(path);
  if (match) return leaderboardPage(app, decodeURIComponent(match[1]));
  match = /^\/player\/([^/]+)\/?$/.exec(path);
  if (match) return playerPage(app, decodeURIComponent(match[1]));
  return startPage(app);
}

// -- the start page ------------------------------------------------------------------------

const HERE = "here";
const ONLINE = "online";

/** The start page's sentences made here, in one place (words from the catalogs). */
const WORDS = {
  role: (i) => t("seat-player", { number: i + 1 }),
  firstToPlay: t("start-plays-first"),
  notARecord: t("load-not-a-record"),
  badRecord: (reason) => t("load-bad-record", { reason }),
};
const CUSTOM = "custom";
/** The server's codes for a file that is no record at all (not JSON, not a record). */
const NOT_A_RECORD = ["error-record-not-json", "error-record-not-record"];

async function startPage(root) {
  document.title = t("start-title");
  let menu;
  try {
    menu = await api("/api/catalog");
  } catch (err) {
    root.replaceChildren(h("p", { class: "error" }, t("start-unreachable", { reason: err.message })));
    return;
  }
  const games = Object.fromEntries(menu.games.map((g) => [g.id, g]));
  const form = { game: menu.games[0].id, options: {}, seats: [] };

  const picker = h("div", { class: "game-picker", role: "radiogroup", "aria-label": t("start-game-group") });
  const optionsBox = h("fieldset", { class: "options" });
  const seatsBox = h("fieldset", { class: "seats-form" });
  const seedInput = h("input", { type: "number", min: "0", name: "seed", placeholder: t("start-seed-placeholder") });
  const message = h("p", { class: "error", role: "alert" });
  const after = h("div", { class: "after-create" });
  const startButton = h("button", { class: "primary big", type: "submit" }, t("start-play"));
  const timeControl = timeControlField();
  const rated = ratedField();
  const listed = publicField();

  for (const game of menu.games) {
    const input = h("input", { type: "radio", name: "game", value: game.id, id: `game-${game.id}` });
    input.checked = game.id === form.game;
    input.addEventListener("change", () => {
      form.game = game.id;
      form.options = {};
      drawOptions();
    });
    // the seats the form offers, else the game's facts (a game without a players option)
    const players = game.options.find((o) => o.name === "players");
    const low = players?.low ?? game.min_players, high = players?.high ?? game.max_players;
    const count = low === high ? t("start-players", { count: low }) : t("start-players-range", { low, high });
    picker.append(
      h("label", { class: "game-card", for: `game-${game.id}` }, input,
        // the game's picture, from its page module (static/games; none on the generic table)
        tableFor(game.id).picture ? tableFor(game.id).picture() : null,
        // a plug-in game's own words (the catalogs have none for it) are marked as English
        h("span", { class: "game-title", lang: has(`pitch-${game.id}`) ? null : "en" }, game.title),
        h("span", { class: "game-pitch", lang: has(`pitch-${game.id}`) ? null : "en" }, tOr(`pitch-${game.id}`, game.pitch)),
        h("span", { class: "game-count" }, count)),
    );
  }

  function playersOf() {
    const spec = games[form.game].options.find((o) => o.name === "players");
    const chosen = form.options.players;
    return chosen !== undefined && chosen !== null ? chosen : spec ? spec.default : games[form.game].min_players || 2;
  }

  function drawOptions() {
    const game = games[form.game];
    optionsBox.replaceChildren(h("legend", {}, t("start-options", { game: game.title })));
    for (const option of game.options) {
      const fixed = (option.kind === "int" && option.low === option.high) ||
        (option.kind === "choice" && option.choices.length < 2);
      if (fixed) continue;
      const id = `opt-${option.name}`;
      const current = form.options[option.name] ?? option.default;
      let field;
      if (option.kind === "int") {
        field = h("input", { type: "number", id, min: option.low, max: option.high,
          value: current ?? "" });
        field.addEventListener("input", () => {
          form.options[option.name] = field.value === "" ? null : Number(field.value);
          if (option.name === "players") drawSeats();
        });
      } else if (option.kind === "bool") {
        field = h("input", { type: "checkbox", id });
        field.checked = Boolean(current);
        field.addEventListener("change", () => { form.options[option.name] = field.checked; });
      } else if (option.kind === "choice") {
        field = h("select", { id }, option.choices.map(([value, label]) =>
          h("option", { value, selected: value === current }, choiceLabel(game.id, option, value, label))));
        field.addEventListener("change", () => { form.options[option.name] = field.value; });
      } else {
        const chosen = new Set(current || []);
        field = h("div", { class: "multi", id, role: "group" }, option.choices.map(([value, label]) => {
          const box = h("input", { type: "checkbox", value, id: `${id}-${value}` });
          box.checked = chosen.has(value);
          box.addEventListener("change", () => {
            box.checked ? chosen.add(value) : chosen.delete(value);
            form.options[option.name] = [...chosen];
          });
          return h("label", { class: "check", for: `${id}-${value}` }, box, choiceLabel(game.id, option, value, label));
        }));
      }
      // said under the field, not as a number field's placeholder: that box is too narrow
      const help = option.help ? h("small", {}, optionHelp(game.id, option)) : null;
      optionsBox.append(h("div", { class: `field field-${option.kind}` },
        h("label", { for: id }, optionLabel(game.id, option)), field, help));
    }
    drawSeats();
  }

  function drawSeats() {
    const players = Math.max(1, Math.min(20, Number(playersOf()) || 1));
    while (form.seats.length < players) {
      form.seats.push({ who: form.seats.length === 0 ? HERE : menu.bots[0].spec, name: "", custom: "" });
    }
    form.seats.length = players;
    seatsBox.replaceChildren(h("legend", {}, t("start-who")));
    form.seats.forEach((seat, i) => {
      const role = WORDS.role(i);
      const choice = h("select", { id: `seat-${i}`, "aria-label": t("start-who-plays", { role }) },
        h("option", { value: HERE }, i === 0 ? t("start-you-here") : t("start-someone-here")),
        h("option", { value: ONLINE }, t("start-friend")),
        menu.bots.map((b) => h("option", { value: b.spec }, tOr(`bot-${b.spec.split(":")[0]}`, b.label))),
        h("option", { value: CUSTOM }, t("start-other-bot")));
      choice.value = seat.who;
      const custom = h("input", { type: "text", placeholder: t("start-bot-placeholder", { names: menu.bot_names.join(", ") }),
        value: seat.custom, "aria-label": t("start-bot-for", { role }), hidden: seat.who !== CUSTOM });
      const name = h("input", { type: "text", maxlength: String(MAX_NAME), placeholder: t("start-name-placeholder"),
        value: seat.name, "aria-label": t("start-name-of", { role }) });
      choice.addEventListener("change", () => {
        seat.who = choice.value;
        custom.hidden = seat.who !== CUSTOM;
      });
      custom.addEventListener("input", () => { seat.custom = custom.value.trim(); });
      name.addEventListener("input", () => { seat.name = name.value.trim(); });
      seatsBox.append(h("div", { class: "seat-row" }, h("label", { for: `seat-${i}` }, role, i === 0 ? h("small", {}, ` · ${WORDS.firstToPlay}`) : null),
        choice, custom, name));
    });
    const here = form.seats.filter((s) => s.who === HERE).length;
    if (here > 1) {
      seatsBox.append(h("p", { class: "hint" }, t("start-hot-seat")));
    }
  }

  async function start(event) {
    event.preventDefault();
    message.textContent = "";
    // one person at this screen sits under the name they gave in the lobby, unless named here
    const alone = form.seats.filter((s) => s.who === HERE).length === 1;
    const seats = form.seats.map((s) => {
      const name = s.name || (alone && s.who === HERE ? playerName() : "") || null;
      if (s.who === HERE || s.who === ONLINE) return { kind: "human", name: s.who === HERE ? name : s.name || null, invite: s.who === ONLINE };
      return { kind: "bot", bot: s.who === CUSTOM ? s.custom || "random" : s.who, name: s.name || null };
    });
    const options = Object.fromEntries(Object.entries(form.options).filter(([, v]) => v !== null));
    const body = { game: form.game, options, seats, clock: timeControl.value() };
    if (rated.value()) body.rated = true;
    if (listed.value()) body.public = true;
    if (seedInput.value !== "") body.seed = Number(seedInput.value);
    startButton.disabled = true;
    try {
      const made = await api("/api/games", { json: body });
      const tokens = Object.fromEntries(made.seats.filter((s) => s.token).map((s) => [s.seat, s.token]));
      const invites = Object.fromEntries(made.seats.filter((s) => s.invite).map((s) => [s.seat, s.invite]));
      const here = form.seats.map((s, i) => (s.who === HERE ? i : null)).filter((i) => i !== null);
      // this browser keeps its own seats' credentials and the host's; an invited seat's
      // invitation is only for passing on (its claimer gets a credential of its own)
      remember(made.id, { game: made.game, tokens, here, host: made.host, invites, created: new Date().toISOString() });
      const online = form.seats.map((s, i) => (s.who === ONLINE ? i : null)).filter((i) => i !== null);
      const mine = playLink(made.id);
      if (!online.length) {
        location.href = mine;
        return;
      }
      after.replaceChildren(invitePanel(made, online, invites, mine));
      after.scrollIntoView({ behavior: "smooth" });
    } catch (err) {
      message.textContent = err.message;
    } finally {
      startButton.disabled = false;
    }
  }

  const newGame = h("form", { class: "new-game card", onsubmit: start },
    h("h1", {}, t("start-heading")),
    h("p", { class: "lead" }, t("start-lead", { count: menu.games.length })),
    picker, h("div", { class: "setup" }, seatsBox, optionsBox), timeControl.element, rated.element, listed.element,
    h("details", { class: "more" }, h("summary", {}, t("start-deal")),
      h("div", { class: "field" }, h("label", { for: "seed" }, t("start-seed")),
        Object.assign(seedInput, { id: "seed" }))),
    h("div", { class: "actions" }, startButton), message, after);

  // a signed-in player's own games come first; a guest sees the games first, and the
  // header's link takes them to the sign-in form further down
  const account = accountPanel();
  const lobby = lobbySection(menu);
  const first = session.user ? [account, lobby, newGame] : [newGame, lobby, account];
  root.replaceChildren(...first, tutorialsSection(), gamesSection(), loadSection());
  accountLink();
  drawOptions();
}

/** The header's way to the account card (sign in, or your games), beside the language. */
function accountLink() {
  const header = document.querySelector("header.top");
  if (!header || header.querySelector(".account-link")) return;
  const link = h("a", { class: "account-link", href: "#account-heading" }, t("account-link"));
  // a guest lands in the sign-in form's name field
  link.addEventListener("click", () => setTimeout(() => document.getElementById("account-name")?.focus()));
  header.insertBefore(link, header.querySelector("select.language"));
}

/** An option's label, help and choices in the page's language: the catalogs word the
 * built-in games' options by name (`option-NAME`, or `option-GAME-NAME` for one game's own);
 * a plug-in game's words are shown as the server gives them. */
function optionLabel(game, option) {
  return tOr(`option-${game}-${option.name}`, tOr(`option-${option.name}`, option.label));
}

function optionHelp(game, option) {
  if (!option.help) return option.help;
  return tOr(`option-${game}-${option.name}-help`, tOr(`option-${option.name}-help`, option.help));
}

function choiceLabel(game, option, value, label) {
  return tOr(`choice-${game}-${option.name}-${value}`, label);
}

function invitePanel(made, online, invites, mine) {
  const rows = online.map((seat) => {
    const link = inviteLink(made.id, invites[seat]);
    const button = h("button", { type: "button" }, t("invite-copy"));
    button.addEventListener("click", async () => {
      button.textContent = (await copy(link)) ? t("invite-copied") : t("invite-copy-by-hand");
    });
    const role = roleName(seat, made.seats, []);
    return h("li", {}, h("span", { class: "who" }, role),
      h("input", { type: "text", readonly: true, value: link, class: "link", "aria-label": t("invite-link-for", { role }) }),
      button);
  });
  const watch = playLink(made.id);
  return h("section", { class: "invite" },
    h("h2", {}, t("invite-heading")),
    h("p", {}, t("invite-once")),
    h("ul", { class: "links" }, rows),
    h("p", {}, t("invite-watch"), " ", h("a", { href: watch }, watch)),
    h("a", { class: "button primary big", href: mine }, t("invite-go")));
}

function gamesSection() {
  const section = h("section", { class: "card games" }, h("h2", {}, t("games-heading")));
  const tabs = h("div", { class: "tabs", role: "tablist" });
  const list = h("ul", { class: "game-list" });
  const mine = remembered();
  const show = async (status, button) => {
    for (const b of tabs.children) b.setAttribute("aria-selected", String(b === button));
    list.replaceChildren(h("li", { class: "muted" }, t("games-loading")));
    try {
      // the public games, and this browser's own (a private game is listed to no one else)
      const ids = Object.keys(mine).slice(-100).map(encodeURIComponent).join(",");
      const listed = await api(`/api/games?status=${status}&limit=40&ids=${ids}`);
      const { sorted: found, yours } = await yourTurnFirst(listed, mine);
      list.replaceChildren(...(found.length ? found.map((g) => gameLine(g, mine[g.id], yours.has(g.id))) :
        [h("li", { class: "muted" }, status === "playing" ? t("games-none-playing") : t("games-none-finished"))]));
    } catch (err) {
      list.replaceChildren(h("li", { class: "error" }, err.message));
    }
  };
  for (const [status, label] of [["playing", t("games-playing")], ["finished", t("games-finished")]]) {
    const button = h("button", { type: "button", role: "tab", class: "tab" }, label);
    button.addEventListener("click", () => show(status, button));
    tabs.append(button);
  }
  section.append(tabs, list);
  show("playing", tabs.children[0]);
  return section;
}

function gameLine(g, mine, yours = false) {
  // the seats played at this screen are "You", as the game's own page calls them
  const tokens = mine && mine.tokens ? mine.tokens : {};
  const here = (mine && mine.here && mine.here.length ? mine.here : Object.keys(tokens).filter((s) => tokens[s]))
    .map(Number);
  const named = (seat) => (g.seats[seat] && g.seats[seat].name ? seatLabel(seat, g.seats) : roleName(seat, g.seats, here));
  const who = g.seats.flatMap((s, i) => (i ? [" · ", named(s.seat)] : [named(s.seat)]));
  const links = [];
  if (g.status === "finished") {
    links.push(h("a", { href: `/replay/${g.id}` }, t("games-replay")));
    links.push(h("a", { href: `/api/games/${g.id}/record`, download: "" }, t("games-record")));
  } else {
    if (here.length) links.push(h("a", { href: playLink(g.id) }, t("games-continue")));
    links.push(h("a", { href: playLink(g.id) }, t("games-watch")));
  }
  let result = [];
  if (g.result) {
    const winners = g.result.winners;
    const won = joined(winners.map((s, i) => slot(i)));
    result = [" · ", ...(winners.length ? spliced(t("games-won-by", { who: won }), winners.map(named)) : [t("games-nobody-won")])];
  }
  return h("li", { class: yours ? "your-turn" : null }, h("span", { class: "game-name" }, TITLES[g.game] || g.game),
    yours ? h("span", { class: "tag" }, ` ${CLOCK_WORDS.yourTurn} `) : null,
    h("span", { class: "muted" }, " ", who, ` · ${t("games-moves", { moves: g.moves })} · ${when(g.created)}`, result),
    h("span", { class: "line-links" }, links));
}

/** A short fingerprint of a file's text (FNV-1a, 64 bits as two halves): the same record
 * loaded twice opens the game it made the first time instead of a copy. */
function fingerprint(text) {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return `${a.toString(16)}${b.toString(16)}-${text.length}`;
}

const LOADED = "cubegames.loaded";

function loadedBefore(print) {
  try {
    return JSON.parse(localStorage.getItem(LOADED) || "{}")[print] || null;
  } catch {
    return null;
  }
}

function rememberLoaded(print, id) {
  try {
    const all = JSON.parse(localStorage.getItem(LOADED) || "{}");
    all[print] = id;
    localStorage.setItem(LOADED, JSON.stringify(all));
  } catch {
    // private browsing: a second load makes a second game
  }
}

function loadSection() {
  // the browser's own file button speaks the browser's language, not the page's: it is hidden
  // behind a label worded from the catalogs (still focusable, and named by that label)
  const input = h("input", { type: "file", accept: ".json,application/json", id: "record-file", class: "file-input" });
  const picked = h("span", { class: "muted file-name" }, t("load-no-file"));
  input.addEventListener("change", () => {
    picked.textContent = input.files && input.files[0] ? input.files[0].name : t("load-no-file");
  });
  const message = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "submit" }, t("load-button"));
  const form = h("form", { class: "card load" },
    h("h2", {}, t("load-heading")),
    h("p", {}, t("load-about")),
    h("div", { class: "row" }, input, h("label", { for: "record-file", class: "button" }, t("load-file")), picked, button),
    message);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.textContent = "";
    const file = input.files && input.files[0];
    if (!file) {
      message.textContent = t("load-choose");
      return;
    }
    const text = await file.text();
    const print = fingerprint(text);
    const before = loadedBefore(print);
    if (before) {
      try {
        const known = await api(`/api/games/${encodeURIComponent(before)}`);
        location.href = known.status === "finished" ? `/replay/${before}` : playLink(before);
        return;
      } catch {
        // that game is gone from the server: load the file again
      }
    }
    try {
      const made = await api("/api/records", { method: "POST", body: text,
        headers: { "Content-Type": "application/json" } });
      const tokens = Object.fromEntries(made.seats.filter((s) => s.token).map((s) => [s.seat, s.token]));
      // every person's seat of a loaded game is played here (hot seat); it has no host
      remember(made.id, { game: made.game, tokens, here: Object.keys(tokens).map(Number), loaded: true });
      rememberLoaded(print, made.id);
      location.href = made.status === "finished" ? `/replay/${made.id}` : playLink(made.id);
    } catch (err) {
      const reason = err.message || "";
      message.textContent = NOT_A_RECORD.includes(err.code) ? WORDS.notARecord : WORDS.badRecord(reason);
    }
  });
  return form;
}

await loadSession();
route();
