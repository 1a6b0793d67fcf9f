// The account on the page: signing up, in and out (the session lives in an HttpOnly cookie
// the page never reads; the page keeps only the session's CSRF token, which it sends with
// every request that changes something), the signed-in player's games from any device,
// and the "rated" box of the new-game form.

import { api, h, playLink, remember, remembered, setCsrf, TITLES } from "./util.js";
import { has, t } from "./i18n.js";

/** Who is signed in here: {user, csrf} (user null for a guest). */
export const session = { user: null, csrf: null };

/** Ask the server who is signed in (once, before a screen draws). */
export async function loadSession() {
  try {
    const found = await api("/api/account");
    session.user = found.user;
    session.csrf = found.csrf;
  } catch {
    session.user = null;
    session.csrf = null;
  }
  setCsrf(session.csrf);
  return session;
}

/** The seat credentials this browser holds, to move into the account at sign-up / sign-in. */
function heldSeats() {
  const seats = [];
  for (const [game, entry] of Object.entries(remembered())) {
    for (const token of Object.values((entry && entry.tokens) || {})) {
      if (token) seats.push({ game, token });
    }
  }
  return seats.slice(-200);
}

/** The start page's account card: the sign-in form, or who is signed in and their games. */
export function accountPanel() {
  const card = h("section", { class: "card account", "aria-labelledby": "account-heading" });
  const draw = (note = "") => {
    card.replaceChildren(...(session.user ? signedIn(draw, note) : signInForm(draw)));
  };
  draw();
  return card;
}

function signInForm(draw) {
  const name = h("input", { id: "account-name", name: "username", autocomplete: "username", maxlength: "24", required: true });
  const password = h("input", { id: "account-password", name: "password", type: "password", autocomplete: "current-password", minlength: "8", required: true });
  const message = h("p", { class: "error", role: "alert" });
  const submit = async (path) => {
    message.textContent = "";
    if (!name.value.trim() || !password.value) {
      message.textContent = t(name.value.trim() ? "error-password-short" : "error-name-blank", { count: 8 });
      return;
    }
    try {
      const done = await api(path, { json: { name: name.value, password: password.value, seats: heldSeats() } });
      session.user = done.user;
      session.csrf = done.csrf;
      setCsrf(done.csrf);
      draw(done.bound ? t("account-moved", { count: done.bound }) : "");
    } catch (err) {
      message.textContent = err.message;
    }
  };
  // its buttons are plain buttons, not the page's submit buttons (the new-game form's
  // "Start playing" stays the page's one primary submit button); Enter signs in
  const enter = (e) => { if (e.key === "Enter") { e.preventDefault(); submit("/api/account/signin"); } };
  name.addEventListener("keydown", enter);
  password.addEventListener("keydown", enter);
  const form = h("form", { class: "account-form", onsubmit: (e) => e.preventDefault() },
    h("div", { class: "field" }, h("label", { for: "account-name" }, t("account-name")), name),
    h("div", { class: "field" }, h("label", { for: "account-password" }, t("account-password")), password),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "go", onclick: () => submit("/api/account/signin") }, t("account-sign-in")),
      h("span", { class: "muted" }, t("account-new-here")),
      h("button", { type: "button", onclick: () => submit("/api/account/signup") }, t("account-sign-up"))),
    message);
  return [h("h2", { id: "account-heading" }, t("account-heading")), h("p", { class: "lead" }, t("account-lead")), form, boards()];
}

function signedIn(draw, note) {
  const out = h("button", { type: "button", class: "small" }, t("account-sign-out"));
  out.addEventListener("click", async () => {
    try {
      await api("/api/account/signout", { method: "POST" });
    } finally {
      session.user = null;
      session.csrf = null;
      setCsrf(null);
      draw();
    }
  });
  const list = h("ul", { class: "game-list your-games" }, h("li", { class: "muted" }, t("games-loading")));
  yourGames(list);
  return [
    h("h2", { id: "account-heading" }, t("account-heading")),
    h("p", { class: "signed-in" }, t("account-signed-in", { name: session.user }), " · ",
      h("a", { href: `/player/${encodeURIComponent(session.user)}` }, t("account-player-page")), " ", out),
    note ? h("p", { class: "note", role: "status" }, note) : null,
    h("h3", {}, t("account-your-games")),
    list,
    boards(),
  ];
}

async function yourGames(list) {
  try {
    const games = await api("/api/account/games");
    list.replaceChildren(...(games.length ? games.map(gameLine) : [h("li", { class: "muted" }, t("account-no-games"))]));
  } catch (err) {
    list.replaceChildren(h("li", { class: "error" }, err.message));
  }
}

function gameLine(g) {
  const over = g.status === "finished";
  const href = over ? `/replay/${encodeURIComponent(g.id)}` : playLink(g.id);
  return h("li", { dataset: { game: g.id } },
    h("span", { class: "game-name" }, t("account-game-line", { game: TITLES[g.game] || g.game, seat: g.seats.map(String).join(", ") })),
    g.rated ? h("span", { class: "tag rated" }, t("account-rated")) : null,
    h("span", { class: "muted" }, over ? t("account-finished") : t("account-playing")),
    h("span", { class: "line-links" }, h("a", { href }, t("account-open"))));
}

/** Links to each game's leaderboard. */
function boards() {
  return h("p", { class: "boards" }, h("span", { class: "muted" }, `${t("leaderboard-title")}: `),
    Object.entries(TITLES).flatMap(([id, title], i) => [i ? " · " : "",
      // a plug-in game's title is its author's, in English (as on the game cards)
      h("a", { href: `/leaderboard/${encodeURIComponent(id)}`, lang: has(`pitch-${id}`) ? null : "en" }, title)]));
}

/** The signed-in player's own credentials for their seats in a game (fetched for this
 * device and kept like any seat's), or [] for a guest or a game without their seat. */
export async function accountTokens(gameId) {
  if (!session.user) return [];
  try {
    const given = await api(`/api/account/games/${encodeURIComponent(gameId)}/keys`, { method: "POST" });
    const tokens = given.tokens || {};
    const seats = Object.keys(tokens).map(Number);
    if (!seats.length) return [];
    const known = remembered()[gameId] || {};
    remember(gameId, { tokens: { ...(known.tokens || {}), ...tokens }, here: seats });
    return seats.map((s) => tokens[s]);
  } catch {
    return [];
  }
}

/** The new-game form's "rated" box; `value()` is whether it is ticked. */
export function ratedField() {
  const box = h("input", { type: "checkbox", id: "rated", name: "rated" });
  const element = h("div", { class: "field field-bool rated-field" },
    h("label", { class: "check", for: "rated" }, box, t("start-rated")),
    h("small", {}, t("start-rated-help")));
  return { element, value: () => box.checked };
}
