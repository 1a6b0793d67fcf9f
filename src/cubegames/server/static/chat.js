// A table's chat in the side panel (docs/protocol.md, "chat"): a seat's page talks with the
// players, a spectator's with the spectators (which the host may close); system lines (a
// seat taken, a resignation, a timeout, moves taken back, someone leaving) in the same
// stream. A player may mute another on this screen, and a spectator another spectator (by
// the tag the server gives each spectator at a table); mutes are kept in this browser. A
// refused line is told by its code, in the page's words. Every line is
// built from text nodes (util.js's `h`), never from markup: a line holding "<script>" shows
// those characters.

import { api, h, withCredential } from "./util.js";
import { t } from "./i18n.js";
import { friendly } from "./refusals.js";

/** The longest line the server takes (its `MAX_CHAT`). */
export const MAX_CHAT = 300;
/** Lines kept on the page. */
const KEEP = 400;

/** The system lines' words, by kind (the server's `chat.SYSTEM`, and "left" and "back",
 * said by the page itself): `who` names the seat, `count` the moves taken back. */
const SYSTEM = {
  joined: (a) => t("chat-system-joined", a),
  time: (a) => t("chat-system-time", a),
  resigned: (a) => t("chat-system-resigned", a),
  gone: (a) => t("chat-system-gone", a),
  aborted: (a) => t("chat-system-aborted", a),
  zombie: (a) => t("chat-system-zombie", a),
  takeback: (a) => t("chat-system-takeback", a),
  closed: (a) => t("chat-system-closed", a),
  opened: (a) => t("chat-system-opened", a),
  left: (a) => t("chat-system-left", a),
  back: (a) => t("chat-system-back", a),
};

/** A refused line, by the refusal's code (never the server's English). */
const REFUSED = {
  chat: () => t("refusal-chat"),
  "chat-blank": () => t("refusal-chat-blank"),
  "chat-long": () => t("refusal-chat-long", { count: MAX_CHAT }),
  "chat-hidden": () => t("refusal-chat-hidden"),
  "chat-slow": () => t("refusal-chat-slow"),
  "chat-closed": () => t("refusal-chat-closed"),
};

/** A spectator's tag as the server makes it (eight hex digits). */
const TAG = /^[0-9a-f]{8}$/;

function mutedKey(gameId) {
  return `cubegames.muted.${gameId}`;
}

export class ChatPanel {
  /** `send(message)` sends on the table's connection; `seatName(seat)` names a seat;
   * `mine()` the seats played at this screen; `host` the host's credential, if this
   * browser holds it. */
  constructor({ gameId, send, seatName, mine }) {
    this.gameId = gameId;
    this.sendMessage = send;
    this.seatName = seatName;
    this.mine = mine;
    this.host = null;
    this.seat = null;
    /** this page's own tag when it watches (the server's `you`) */
    this.me = null;
    this.lines = [];
    this.ids = new Set();
    this.spectatorsOpen = true;
    this.muted = new Set(this.loadMuted());
    this.heading = h("h2", {}, t("chat-players"));
    this.list = h("ol", { class: "chat-lines", "aria-live": "polite" });
    this.mutedBar = h("p", { class: "chat-muted muted", hidden: true });
    this.input = h("input", { type: "text", id: "chat-text", maxlength: String(MAX_CHAT), autocomplete: "off",
      placeholder: t("chat-placeholder"), "aria-label": t("chat-placeholder") });
    this.button = h("button", { type: "submit" }, t("chat-send"));
    this.note = h("p", { class: "chat-note", role: "status" });
    this.toggle = h("button", { type: "button", class: "small link chat-toggle", hidden: true, onclick: () => this.toggleSpectators() });
    this.form = h("form", { class: "chat-form", onsubmit: (e) => this.submit(e) }, this.input, this.button);
    this.root = h("section", { class: "chat" }, this.heading, this.list, this.mutedBar, this.form, this.note, this.toggle);
  }

  /** The page learnt who it is: `seat` (null: a spectator), and the host's credential. */
  start(seat, host) {
    this.seat = seat;
    this.host = host || null;
    this.heading.textContent = seat === null ? t("chat-spectators") : t("chat-players");
    this.toggle.hidden = !this.host;
    this.draw();
  }

  loadMuted() {
    try {
      // seats (numbers) and spectators' tags (strings)
      return JSON.parse(localStorage.getItem(mutedKey(this.gameId)) || "[]")
        .filter((m) => Number.isInteger(m) || (typeof m === "string" && TAG.test(m)));
    } catch {
      return [];
    }
  }

  saveMuted() {
    try {
      localStorage.setItem(mutedKey(this.gameId), JSON.stringify([...this.muted]));
    } catch {
      // private browsing: the mute lasts while the page is open
    }
  }

  /** A message of the server's about the chat: `chat`, `chat-history`, `chat-spectators`. */
  receive(message) {
    if (message.type === "chat-history") {
      this.lines = this.lines.filter((line) => line.id === null); // this page's own notes
      this.ids.clear();
      for (const line of message.lines || []) this.add(line);
      this.spectatorsOpen = message.spectators_open !== false;
      this.me = typeof message.you === "string" ? message.you : null;
    } else if (message.type === "chat") {
      this.add(message);
    } else if (message.type === "chat-spectators") {
      this.spectatorsOpen = Boolean(message.open);
    }
    this.draw();
  }

  add(line) {
    if (line.id !== null && line.id !== undefined) {
      if (this.ids.has(line.id)) return;
      this.ids.add(line.id);
    }
    this.lines.push(line);
    if (this.lines.length > KEEP) this.lines.splice(0, this.lines.length - KEEP);
  }

  /** A line this page says itself (someone left or came back): not stored anywhere. */
  local(kind, seat) {
    this.add({ id: null, system: kind, params: { seat }, channel: "table" });
    this.draw();
  }

  /** The server refused a line: said under the box. */
  refused(message) {
    const words = REFUSED[message.code];
    this.note.textContent = words ? words(message) : friendly(null, message);
    this.note.className = "chat-note error";
  }

  submit(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    if (text.length > MAX_CHAT) {
      this.note.textContent = t("chat-too-long", { count: MAX_CHAT });
      return;
    }
    if (this.sendMessage({ type: "chat", text })) {
      this.input.value = "";
      this.note.textContent = "";
    }
  }

  /** Mute a seat (a number) or a spectator (their tag). */
  mute(who) {
    this.muted.add(who);
    this.saveMuted();
    this.draw();
  }

  unmute(who) {
    this.muted.delete(who);
    this.saveMuted();
    this.draw();
  }

  /** The name of a seat, or of a spectator by their tag. */
  nameOf(who) {
    return typeof who === "string" ? t("chat-spectator-tag", { tag: who }) : this.seatName(who);
  }

  /** Who said a line, as the mutes know them: its seat, or its spectator's tag. */
  speaker(line) {
    if (line.seat !== null && line.seat !== undefined) return line.seat;
    return typeof line.spectator === "string" ? line.spectator : null;
  }

  async toggleSpectators() {
    try {
      const got = await api(`/api/games/${encodeURIComponent(this.gameId)}/chat/spectators`,
        { json: { open: !this.spectatorsOpen }, headers: withCredential(this.host) });
      this.spectatorsOpen = got.spectators_open;
      this.drawState();
    } catch (err) {
      this.note.textContent = err.message;
    }
  }

  words(line) {
    const params = line.params || {};
    const who = params.seat !== null && params.seat !== undefined ? this.seatName(params.seat) : "";
    const words = SYSTEM[line.system];
    return words ? words({ who, count: params.count || 0 }) : "";
  }

  row(line) {
    if (line.system) return h("li", { class: "system" }, this.words(line));
    const seat = line.seat ?? null;
    const speaker = this.speaker(line);
    const who = speaker === null ? t("chat-spectator") : this.nameOf(speaker);
    const own = seat !== null ? this.mine().includes(seat) : speaker !== null && speaker === this.me;
    // a player mutes a player, a spectator a spectator (each reads only their own chat)
    const mute = speaker !== null && !own
      ? h("button", { type: "button", class: "small link mute", title: t("chat-mute-title", { name: who }),
        "data-seat": seat ?? "", "data-spectator": seat === null ? speaker : null, onclick: () => this.mute(speaker) }, t("chat-mute"))
      : null;
    return h("li", { class: own ? "own" : null, "data-seat": seat ?? "", "data-spectator": seat === null ? speaker : null },
      h("b", { class: "who" }, who), " ", h("span", { class: "text" }, line.text), " ", mute);
  }

  draw() {
    const shown = this.lines.filter((line) => line.system || !this.muted.has(this.speaker(line)));
    this.list.replaceChildren(...(shown.length ? shown.map((line) => this.row(line)) : [h("li", { class: "muted empty" }, t("chat-empty"))]));
    this.list.scrollTop = this.list.scrollHeight;
    const muted = [...this.muted];
    this.mutedBar.hidden = !muted.length;
    this.mutedBar.replaceChildren(t("chat-muted"), " ", ...muted.map((who) =>
      h("button", { type: "button", class: "small link unmute", "data-seat": typeof who === "string" ? "" : who,
        "data-spectator": typeof who === "string" ? who : null, onclick: () => this.unmute(who) },
      t("chat-unmute", { name: this.nameOf(who) }))));
    this.drawState();
  }

  drawState() {
    const closed = this.seat === null && !this.spectatorsOpen;
    this.input.disabled = closed;
    this.button.disabled = closed;
    if (closed) {
      this.note.textContent = t("chat-closed");
      this.note.className = "chat-note";
    } else if (this.note.textContent === t("chat-closed")) {
      this.note.textContent = "";
    }
    this.toggle.textContent = this.spectatorsOpen ? t("chat-close-spectators") : t("chat-open-spectators");
  }
}
