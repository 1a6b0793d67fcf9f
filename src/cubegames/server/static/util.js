// Small helpers shared by every screen: building elements, talking to the server,
// remembering the links of the games made in this browser.

import { dateTime, languageHeader, t } from "./i18n.js";

/** An element: h("button", {class: "x", onclick: f}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A name a player chose, as written: its own `<bdi>` (a name in any script or direction
 * stays whole inside the page's sentence, and the page's words around it are told apart
 * from it). */
export function nameEl(name) {
  return h("bdi", { class: "name" }, name);
}

/** A stand-in for part `i` of `spliced` inside a catalog sentence (a private-use
 * character no catalog, name or number contains). */
export const slot = (i) => String.fromCharCode(0xe000 + i);

/** A catalog sentence made with `slot(i)` in place of part `i` (a player's name, say),
 * as a list of children with the parts put back: t("lobby-host", { name: slot(0) }) with
 * [nameEl(host)]. */
export function spliced(text, parts) {
  const out = [];
  let last = 0;
  for (let i = 0; i < text.length; i += 1) {
    const at = text.charCodeAt(i) - 0xe000;
    if (at >= 0 && at < parts.length) {
      out.push(text.slice(last, i), parts[at]);
      last = i + 1;
    }
  }
  out.push(text.slice(last));
  return out.filter((part) => part !== "");
}

let CSRF = null;

/** The signed-in session's CSRF token (account.js), sent with every request that changes
 * something; null for a guest. */
export function setCsrf(token) {
  CSRF = token;
}

/** JSON from the server; a refusal becomes an Error carrying the server's reason. */
export async function api(path, options = {}) {
  const init = { ...options, headers: { ...languageHeader(), ...(options.headers || {}) } };
  const changes = (init.method || (options.json !== undefined ? "POST" : "GET")) !== "GET";
  if (changes && CSRF) init.headers["X-CSRF-Token"] = CSRF;
  if (options.json !== undefined) {
    init.method = init.method || "POST";
    init.body = JSON.stringify(options.json);
    init.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    // the server words its refusal in the page's language (Accept-Language) and names it
    // by its catalog code and parameters too, for the page to tell refusals apart by code
    const reason = data && data.detail ? data.detail : t("server-said", { status: String(response.status) });
    const error = new Error(typeof reason === "string" ? reason : JSON.stringify(reason));
    error.code = data && typeof data.code === "string" ? data.code : null;
    error.args = data && data.args && typeof data.args === "object" ? data.args : {};
    throw error;
  }
  return data;
}

/** Game titles by id, as each game declares them (from the catalog); read `TITLES[id] || id`. */
export const TITLES = await titles();

async function titles() {
  try {
    const menu = await api("/api/catalog");
    return Object.fromEntries(menu.games.map((g) => [g.id, g.title]));
  } catch {
    return {};
  }
}

const KEY = "cubegames.games";

/** Games made or joined in this browser: id -> {game, tokens: {seat: token}, here: [seats]}. */
export function remembered() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

export function remember(id, entry) {
  const all = remembered();
  all[id] = { ...(all[id] || {}), ...entry };
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // private browsing: links still work, they are just not listed
  }
}

/** True the first time this browser asks about `key` (e.g. the rules of a game it has not
 * played yet), false afterwards. */
export function firstTime(key) {
  const name = `cubegames.seen.${key}`;
  try {
    if (localStorage.getItem(name)) return false;
    localStorage.setItem(name, "1");
  } catch {
    return false;
  }
  return true;
}

/** Seat tokens in the page's address: /play/ID#t=TOKEN,TOKEN */
export function tokensInHash() {
  const match = /(?:^#|&)t=([^&]*)/.exec(location.hash);
  return match ? match[1].split(",").filter(Boolean).map(decodeURIComponent) : [];
}

export function playLink(id, tokens = []) {
  const base = `${location.origin}/play/${encodeURIComponent(id)}`;
  return tokens.length ? `${base}#t=${tokens.map(encodeURIComponent).join(",")}` : base;
}

// -- seats and their credentials (kept in this browser's storage, never in an address) ----

/** The header that shows a seat's credential to the server. */
export function withCredential(token) {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** The link that invites a person to a seat, once: /play/ID#invite=CODE. */
export function inviteLink(id, invite) {
  return `${location.origin}/play/${encodeURIComponent(id)}#invite=${encodeURIComponent(invite)}`;
}

/** The credentials this browser holds for a game: its seats played here (or all it holds). */
export function heldTokens(id) {
  const mine = remembered()[id];
  if (!mine || !mine.tokens) return [];
  const seats = mine.here && mine.here.length ? mine.here : Object.keys(mine.tokens);
  return seats.map((s) => mine.tokens[s]).filter(Boolean);
}

/** If the address holds an invitation, claim its seat: the seat's own credential is kept
 * in this browser, the invitation is spent and leaves the address. Resolves to null (no
 * invitation), true (claimed), or the server's refusal (an Error with its words and its code). */
export async function claimInvite(id) {
  const match = /(?:^#|&)invite=([^&]*)/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, "", `/play/${encodeURIComponent(id)}`);
  try {
    const got = await api(`/api/games/${encodeURIComponent(id)}/claim`, { json: { invite: decodeURIComponent(match[1]) } });
    const known = remembered()[id] || {};
    remember(id, { tokens: { ...(known.tokens || {}), [got.seat]: got.token },
      here: [...new Set([...(known.here || []), got.seat])] });
    return true;
  } catch (err) {
    return err; // the refusal: its words (`message`) and its code
  }
}

export function seatLabel(seat, seats) {
  const info = seats && seats[seat];
  const name = info && info.name ? ` · ${info.name}` : "";
  const bot = info && info.kind === "bot" ? ` · ${t("seat-label-bot", { bot: info.bot })}` : "";
  return `${t("seat-label", { seat: String(seat) })}${name}${bot}`;
}

export function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return dateTime(date);
}

/** Copy text, with a fallback for pages not served over https. */
export async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", {}, text);
    document.body.append(area);
    area.select();
    const done = document.execCommand("copy");
    area.remove();
    return done;
  }
}
