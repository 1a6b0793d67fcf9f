// The game table: one websocket per seat played at this screen (credentials kept in this
// browser, never in the address), or one spectator connection. The server sends each
// seat its view and legal moves (protocol.js); the game's own module (games/<id>.js)
// draws it and turns taps into move texts, which the server checks with the engine.

import { lang, list as joined, number, phrase, t, tOr } from "./i18n.js";
import { TITLES, api, claimInvite, copy, firstTime, h, heldTokens, inviteLink, nameEl, playLink, remember, remembered, tokensInHash, withCredential } from "./util.js";
import { Link, PROTOCOL } from "./protocol.js";
import { closedWords, friendly } from "./refusals.js";
import { accountTokens } from "./account.js";
import { icon, tip } from "./draw.js";
import { avatar, rematchSeats, seatColour, seatToShow } from "./seats.js";
import { SOUNDS, play as sound, setSound, soundOn } from "./sound.js";
import { ClockPanel, endedWords } from "./clocks.js";
import { ChatPanel } from "./chat.js";
import * as cubed from "./games/cubed.js";
import * as unstackable from "./games/unstackable.js";
import * as stakd from "./games/stakd.js";
import * as cubes from "./games/cubes.js";
import * as generic from "./games/generic.js";

export const MODULES = { cubed, unstackable, stakd, cubes };
/** The page module of a game: its own, or the generic table (a plug-in game). */
export const tableFor = (game) => MODULES[game] || generic;
const SEND_PATIENCE = 5000; // ms to wait for an answer to a move before taking taps again
const RESULTS_AFTER = 700; // ms between the last move and the results: the move lands first

/** Every sentence of the table a player reads that is made here, in one place (each from
 * the catalogs, locales/*.ftl). */
/** What each sound is (sound.js's SOUNDS), in the page's language. */
const SOUND_WORDS = { turn: t("sound-turn"), laid: t("sound-laid"), removed: t("sound-removed"), rolled: t("sound-rolled"), low: t("sound-low") };
/** Where this browser keeps whether to notify of your turn (asked from a button only). */
const NOTIFY_KEY = "cubegames.notify";

export const WORDS = {
  you: t("seat-you"),
  host: t("play-host-tag"),
  here: t("play-presence-here"),
  bot: t("play-presence-bot"),
  online: t("play-presence-online"),
  away: t("play-presence-away"),
  invited: t("play-presence-invited"),
  left: (who) => t("play-left", { name: who }),
  back: (who) => t("play-back", { name: who }),
  copyInvite: t("play-copy-invitation"),
  reissue: t("play-reissue"),
  reissueAsk: (who) => t("play-reissue-confirm", { name: who }),
  copied: t("invite-copied"),
  copyFailed: t("play-copy-failed"),
  claimed: (who) => t("play-claimed", { name: who }),
  reissued: (who) => t("play-reissued-by-host", { name: who }),
  roundOf: (n, of) => t("play-round-of", { round: n, rounds: of }),
  roundOver: (n, of, name = "Round") => {
    const args = { round: n, rounds: of };
    if (name === "Set") return of > 1 ? t("play-set-over-of", args) : t("play-set-over", args);
    return of > 1 ? t("play-round-over-of", args) : t("play-round-over", args);
  },
  nextRound: t("play-next-round"),
  nextSet: t("play-next-set"),
  seeBoard: t("play-see-board"),
  results: t("play-results"),
  waitingFor: (names) => t("play-waiting-for", { names: joined(names), count: names.length }),
  startsIn: (n) => t("play-starts-in", { seconds: n }),
  wentOn: t("play-went-on"),
  roundColumn: (n) => t("play-round-column", { round: n }),
  total: t("play-total"),
  soundOn: t("play-sound-on"),
  soundOff: t("play-sound-off"),
  soundTitle: t("play-sound-title", { sounds: Object.keys(SOUNDS).map((name) => SOUND_WORDS[name]).join(t("play-sound-separator")) }),
  paused: t("play-paused"),
  spentTitle: t("play-invite-spent"),
  spentWhy: t("play-invite-spent-why"),
  spentAsk: t("play-invite-spent-ask"),
};

/** A "Full rules" button that fetches the game's rule page as the server renders it
 * (`?format=html`: headings, lists and tables, any markup written in the rules shown as
 * text), parsed inertly and shown as a page. */
function fullRules(game) {
  const page = h("div", { class: "full-rules", hidden: true });
  const button = h("button", { type: "button", class: "link rules-link" }, t("rules-full"));
  button.addEventListener("click", async () => {
    if (!page.textContent) {
      const response = await fetch(
        `/api/rules/${encodeURIComponent(game)}?lang=${lang()}&format=html`);
      if (response.ok) {
        const parsed = new DOMParser().parseFromString(await response.text(), "text/html");
        page.replaceChildren(...parsed.body.childNodes);
      } else page.textContent = t("rules-not-loaded");
    }
    page.hidden = !page.hidden;
  });
  return h("div", {}, button, page);
}

export async function playPage(root, gameId) {
  const claimed = await claimInvite(gameId);
  if (claimed instanceof Error) {
    root.replaceChildren(spentInvitePage(gameId, claimed));
    return;
  }
  const inHash = tokensInHash();
  let tokens = inHash.length ? inHash : heldTokens(gameId);
  if (!tokens.length) tokens = await accountTokens(gameId); // a signed-in player's own seats
  window.cubegamesPage = new PlayPage(root, gameId, tokens); // for the curious, and for tests
}

/** What an invitation already used (or from another game) opens: a clear page, said once
 * (the server's reason, `refusal.message`, is shown only when it is something else, e.g. a
 * network failure); the server names a spent invitation by its code. */
function spentInvitePage(gameId, refusal) {
  const reason = refusal.message || "";
  const spent = refusal.code === "error-invite-used";
  const other = spent ? null : h("p", { class: "muted" }, `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`.replace(/\.\.$/, "."));
  return h("section", { class: "card notice" },
    h("h1", {}, WORDS.spentTitle),
    other,
    h("p", {}, WORDS.spentWhy),
    h("p", {}, WORDS.spentAsk),
    h("p", {}, h("a", { href: playLink(gameId) }, t("play-watch-game")), " · ", h("a", { href: "/" }, t("play-all-games"))));
}

/** A seat named by its role: its player's name, "You", "Greedy bot", "Player 2". `mine`
 * are the seats played at this screen: one of them is "You"; several (a hot-seat table)
 * are each "You · Player 2", so the players at the screen tell their seats apart. `plain`
 * leaves "You" out ("Pass the device to Player 2"). */
export function roleName(seat, seats, mine, plain = false) {
  const info = seats && seats[seat];
  if (info && info.name) return info.name;
  const here = !plain && mine && mine.includes(seat);
  if (here && mine.length === 1) return t("seat-you");
  if (here) return t("seat-you-numbered", { number: seat + 1 });
  if (info && info.kind === "bot") {
    const bot = info.bot.split(":")[0];
    const name = bot.replace(/^./, (c) => c.toUpperCase());
    const twins = (seats || []).filter((s) => s.kind === "bot" && !s.name && s.bot.split(":")[0] === info.bot.split(":")[0]);
    return twins.length > 1 ? t("seat-bot-numbered", { bot, name, number: twins.indexOf(info) + 1 }) : t("seat-bot", { bot, name });
  }
  return t("seat-player", { number: seat + 1 });
}

/** A seat in a sentence or a list: the name its player chose (`name`, else the seat's) as
 * a <bdi>, else the page's words for the seat (`roleName`). */
export function seatLabel(seat, seats, name = seats && seats[seat] && seats[seat].name) {
  return name ? nameEl(name) : roleName(seat, seats, []);
}

class PlayPage {
  constructor(root, gameId, tokens) {
    this.gameId = gameId;
    this.hello = null;
    this.active = null;
    this.pending = null;
    this.sending = null;
    this.current = null;
    this.controller = null;
    this.build(root);
    const handler = {
      hello: (link, m) => this.greet(link, m),
      state: (link, m) => this.arrived(link, m),
      other: (link, m) => this.other(link, m),
      connection: () => this.connection(),
      fatal: (link, code, last) => this.fatal(closedWords(code, last)),
    };
    this.links = (tokens.length ? tokens : [null]).map((t) => {
      const link = new Link(gameId, t, handler);
      link.inbox = [];
      return link;
    });
    document.addEventListener("keydown", (event) => this.key(event));
  }

  build(root) {
    this.title = h("h1", {}, t("page-loading"));
    this.banner = h("p", { class: "turn-banner", role: "status", "aria-live": "polite" });
    this.conn = h("span", { class: "conn", title: t("play-connection") });
    this.board = h("div", { class: "board", id: "board" });
    this.strip = h("div", { class: "strip", id: "strip" });
    this.said = h("p", { class: "said", "aria-live": "polite" });
    this.message = h("p", { class: "message", role: "alert" });
    this.seats = h("ul", { class: "seat-list" });
    this.legal = h("div", { class: "legal-moves" });
    this.typed = h("form", { class: "typed", onsubmit: (e) => this.typedMove(e) },
      h("label", { for: "typed-move" }, t("play-type-move")),
      h("input", { id: "typed-move", name: "move", autocomplete: "off", spellcheck: "false" }),
      h("button", { type: "submit" }, t("play-play")));
    this.log = h("ol", { class: "log" });
    this.extras = h("div", { class: "extras" });
    this.rules = h("details", { class: "rules" }, h("summary", {}, t("rules-how-to-play")));
    this.overlay = h("div", { class: "overlay", hidden: true });
    this.sound = h("button", { type: "button", class: "sound-toggle small", title: WORDS.soundTitle, onclick: () => this.toggleSound() });
    this.drawSound();
    this.notify = h("button", { type: "button", class: "notify-toggle small", hidden: true, title: t("play-notify-title"), onclick: () => this.toggleNotify() });
    this.round = h("span", { class: "round-badge", hidden: true });
    this.clocks = new ClockPanel((m) => { const l = this.linkOf(this.active); if (l) l.send(m); }, (s) => this.seatName(s));
    // the clocks sit under the banner; an untimed game's buttons (resign, take back) in the
    // side panel instead, out of the board's way (see `update`)
    this.clockTop = h("div", { class: "clock-top" }, this.clocks.root);
    this.side = h("aside", { class: "side" });
    // the table's chat (chat.js), and the notice of a deal its host picked (said before
    // the first move, and kept)
    this.chat = new ChatPanel({ gameId: this.gameId, seatName: (s) => this.seatName(s), mine: () => this.localSeats(),
      send: (m) => { const l = this.linkOf(this.active); return Boolean(l && l.send(m)); } });
    this.dealNotice = h("p", { class: "deal-picked", role: "note", hidden: true }, t("deal-picked"));
    root.replaceChildren(h("div", { class: "play" },
      h("div", { class: "bar" }, h("a", { href: "/", class: "back", "aria-label": t("play-all-games") }, t("replay-games")), this.title, this.round, this.notify, this.sound, this.conn),
      this.banner,
      this.dealNotice,
      this.clockTop,
      h("div", { class: "cols" },
        h("section", { class: "table-area" }, this.board, this.strip),
        this.side),
      this.overlay));
    this.side.append(this.said, this.message,
          this.seats,
          this.chat.root,
          h("details", { class: "history" }, h("summary", {}, t("play-moves-so-far")), this.log),
          h("details", { class: "notation" }, h("summary", {}, t("play-moves-in-notation")), this.legal, this.typed),
          this.rules, this.extras);
  }

  toggleSound() {
    setSound(!soundOn());
    this.drawSound();
  }

  /** Whether your turn is told by a browser notification: asked for here, from the button
   * (a browser asks its person for leave once; never on load). */
  notifying() {
    try {
      return "Notification" in window && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "on";
    } catch {
      return false;
    }
  }

  async toggleNotify() {
    const on = !this.notifying();
    if (on && Notification.permission !== "granted") await Notification.requestPermission();
    try {
      localStorage.setItem(NOTIFY_KEY, on && Notification.permission === "granted" ? "on" : "off");
    } catch {
      // private browsing: nothing is kept
    }
    this.drawNotify();
  }

  /** The button shows in a game with a clock (real-time or turn-based) where this screen
   * plays a seat, in a browser that has notifications. */
  drawNotify() {
    const message = this.current;
    const can = "Notification" in window && this.active !== null && message && message.clock && !message.over;
    this.notify.hidden = !can;
    if (!can) return;
    const blocked = Notification.permission === "denied";
    const on = this.notifying();
    this.notify.disabled = blocked;
    const words = blocked ? t("play-notify-blocked") : on ? t("play-notify-on") : t("play-notify-ask");
    this.notify.replaceChildren(icon("bell"), h("span", { class: "label" }, words));
    this.notify.setAttribute("aria-label", words);
    this.notify.setAttribute("aria-pressed", String(on));
  }

  /** It became this screen's turn: a notification if the tab is hidden and the player
   * asked for them (each is noted in `window.cubegamesNotices`, for tests). */
  alertTurn(message) {
    if (!message.clock || !document.hidden || !this.notifying()) return;
    const game = TITLES[this.hello.game] || this.hello.game;
    const words = { title: t("notify-your-turn", { game }), body: t("notify-body", { ply: message.ply + 1 }) };
    window.cubegamesNotices = [...(window.cubegamesNotices || []), words];
    try {
      const note = new Notification(words.title, { body: words.body, tag: `cubegames-${this.gameId}` });
      note.onclick = () => {
        window.focus();
        note.close();
      };
    } catch {
      // a browser that notifies only from a service worker (Android): the title says it
    }
  }

  drawSound() {
    const on = soundOn();
    this.sound.replaceChildren(icon(on ? "sound" : "mute"), h("span", { class: "label" }, on ? WORDS.soundOn : WORDS.soundOff));
    this.sound.setAttribute("aria-label", on ? WORDS.soundOn : WORDS.soundOff);
    this.sound.setAttribute("aria-pressed", String(on));
  }

  // -- messages -------------------------------------------------------------------------

  greet(link, hello) {
    if (link.token && hello.seat !== null) {
      const known = remembered()[this.gameId] || {};
      remember(this.gameId, { game: hello.game, tokens: { ...(known.tokens || {}), [hello.seat]: link.token } });
    }
    if (this.hello) return;
    if (hello.protocol !== PROTOCOL) this.tell(t("play-protocol", { page: PROTOCOL, server: hello.protocol }), "error");
    this.hello = hello;
    // a picked deal matters where someone else plays (or watches): not to one person
    // alone against bots
    const people = (hello.seats || []).filter((s) => s.kind === "human").length;
    this.dealNotice.hidden = !hello.deal_picked || (people < 2 && hello.seat !== null);
    this.chat.start(hello.seat, (remembered()[this.gameId] || {}).host);
    this.clocks.takebacks = hello.takebacks !== false;
    this.clocks.seats(hello.seats);
    const title = TITLES[hello.game] || hello.game;
    this.title.textContent = title;
    document.title = `${title} · cubegames`;
    const options = hello.options || {};
    const lines = (hello.rules || []).map((line, i) => tOr(`howto-${hello.game}-${i + 1}`, line, options));
    // and a line for each option this table chose that changes the rules (a variant; the
    // looser colours), where the catalogs word one: howto-GAME-OPTION-VALUE
    for (const [name, value] of Object.entries(options)) {
      for (const one of Array.isArray(value) ? value : [value]) {
        const more = tOr(`howto-${hello.game}-${name}-${one}`, null, options);
        if (more) lines.push(more);
      }
    }
    this.rules.append(h("ul", {}, lines.map((line) => h("li", {}, line))));
    this.rules.append(fullRules(hello.game));
    // open the first time on a wide screen; never close what the player has opened already
    if (firstTime(`rules.${hello.game}`) && window.innerWidth > 700) this.rules.open = true;
    this.controller = tableFor(hello.game).create({
      board: this.board,
      strip: this.strip,
      info: hello.info,
      hello,
      send: (move, anchor) => this.send(move, anchor),
      seatName: (seat) => this.seatName(seat),
      origin: (seat) => this.originOf(seat),
    });
  }

  /** Where on the screen a seat's pieces come from: this screen's hand, or the seat's row. */
  originOf(seat) {
    const el = seat === this.active ? this.strip : this.seats.querySelector(`li[data-seat="${seat}"] .face`);
    if (!el || el.hidden) return null;
    const box = el.getBoundingClientRect();
    return box.width ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null;
  }

  arrived(link, state) {
    link.inbox.push(state);
    if (link.seat !== this.active) link.inbox = [state];
    this.refresh();
  }

  other(link, message) {
    if (message.type.startsWith("chat")) {
      if (link === this.links[0]) this.chat.receive(message); // every link hears it: once
      return;
    }
    if (message.type === "error" && message.code.startsWith("chat")) {
      this.chat.refused(message);
      return;
    }
    if (message.type === "presence") {
      if (link !== this.links[0]) return; // every link hears it: tell it once
      this.presence(message.online);
      for (const l of this.links) if (l.latest) l.latest.online = message.online;
      this.clocks.presence(message.online);
      this.drawSeats();
    } else if (message.type === "undo") {
      this.clocks.asked(message);
    } else if (message.type === "seat" && message.event === "zombie" && this.hello) {
      this.hello.seats[message.seat] = { ...this.hello.seats[message.seat], kind: "bot", bot: message.bot, zombie_from: message.from };
      this.clocks.seats(this.hello.seats);
      this.drawSeats();
    } else if (message.type === "seat") {
      if (link !== this.links[0] || !this.hello) return;
      const seat = this.hello.seats[message.seat];
      if (!seat) return;
      seat.invited = message.event === "reissued";
      if (message.name) {
        seat.name = message.name;
        this.clocks.seats(this.hello.seats);
        this.renamed();
      }
      if (message.event === "reissued") seat.reissued = (seat.reissued || 0) + 1;
      this.tell(message.event === "claimed" ? WORDS.claimed(this.seatName(message.seat)) : WORDS.reissued(this.seatName(message.seat)), "info");
      this.drawSeats();
    } else if (message.type === "error") {
      if (message.code === "closed") return; // the close handler says it
      const mine = link.seat === this.active || link.seat === null || this.links.length === 1;
      if (!mine) return;
      const game = this.hello && this.hello.game;
      const text = friendly(game, message, this.hello && this.hello.info, game ? tableFor(game).refusalParams : null);
      // said where the move was made, or over the board (on a phone the side panel is
      // below the fold)
      const anchor = this.sending && this.sending.anchor;
      if (anchor && anchor.isConnected) tip(anchor, text);
      else if (this.sending) tip(this.board, text);
      this.tell(text, "error");
      this.sent();
      if (this.controller && this.controller.refused) this.controller.refused(message);
    }
  }

  /** A seat got its player's name (an invitation or a lobby seat claimed): the board and
   * the banner name seats too (CUBES' chips, STAKD's scores, "Bo's turn"), so the state on
   * screen is drawn again, as it is, with no move to animate. */
  renamed() {
    const link = this.linkOf(this.active);
    if (!this.current || !link || this.holding || this.passing) return;
    if (!link.inbox.length) link.inbox.push(this.current);
    this.pump();
  }

  /** Say who left the table or came back (people only, never this screen's own seats). */
  presence(online) {
    const now = new Set(online);
    const before = this.online;
    this.online = now;
    if (!before || !this.hello) return;
    const local = new Set(this.localSeats());
    const seen = this.seenOnline || (this.seenOnline = new Set(before));
    for (const seat of this.hello.seats) {
      if (seat.kind !== "human" || local.has(seat.seat)) continue;
      if (before.has(seat.seat) && !now.has(seat.seat)) {
        this.tell(WORDS.left(this.seatName(seat.seat)), "info");
        this.chat.local("left", seat.seat);
      }
      if (!before.has(seat.seat) && now.has(seat.seat)) {
        if (seen.has(seat.seat)) { // not on their first arrival
          this.tell(WORDS.back(this.seatName(seat.seat)), "info");
          this.chat.local("back", seat.seat);
        }
      }
      if (now.has(seat.seat)) seen.add(seat.seat);
    }
  }

  fatal(text) {
    if (this.links.some((l) => !l.dead && l.latest)) {
      this.tell(text, "error");
      return;
    }
    this.banner.textContent = "";
    this.board.replaceChildren(h("div", { class: "notice" }, h("p", {}, text), h("p", {}, h("a", { href: "/" }, t("replay-back")))));
  }

  connection() {
    const up = this.links.filter((l) => l.connected).length;
    const all = this.links.filter((l) => !l.dead).length;
    const ok = up === all && all > 0;
    this.conn.className = `conn ${ok ? "up" : "down"}`;
    this.conn.textContent = ok ? t("play-online") : t("play-reconnecting");
  }

  // -- which seat is shown --------------------------------------------------------------

  newest() {
    let best = null;
    for (const l of this.links) if (l.latest && (!best || l.latest.ply > best.ply)) best = l.latest;
    return best;
  }

  localSeats() {
    return this.links.filter((l) => l.seat !== undefined && l.seat !== null).map((l) => l.seat);
  }

  chooseSeat() {
    const newest = this.newest();
    const local = this.localSeats();
    if (!newest || !local.length) return null;
    return seatToShow(local, newest.to_move, this.active, this.hello && this.hello.seats);
  }

  refresh() {
    if (!this.hello || !this.newest()) return;
    if (this.links.some((l) => l.seat === undefined && !l.dead)) return;
    const seat = this.chooseSeat();
    const passing = this.hello.info.hidden_hands && this.localSeats().length > 1 && seat !== null;
    if (passing && seat !== this.active) {
      this.askToPass(seat);
      return;
    }
    this.active = seat;
    this.pump();
  }

  /** Draw the shown seat's new states in order; a game that animates each move (CUBES)
   * shows each one for a moment, the others skip straight to the newest. */
  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    let again = false;
    try {
      for (;;) {
        const link = this.linkOf(this.active);
        if (!link || !link.inbox.length || this.passing || this.holding) break;
        const hold = this.controller.hold;
        const message = hold ? link.inbox.shift() : link.inbox.splice(0).pop();
        await this.draw(message);
        if (hold && link.inbox.length) await new Promise((r) => setTimeout(r, hold));
        if (this.chooseSeat() !== this.active) {
          again = true;
          break;
        }
      }
    } finally {
      this.pumping = false;
    }
    if (again) this.refresh();
  }

  askToPass(seat) {
    if (this.pending === seat && this.passing) return;
    this.pending = seat;
    this.passing = true;
    for (const part of this.seatsOwn()) part.classList.add("hidden-hand");
    // the banner behind the pass screen says whose turn comes, not the last seat's turn
    this.banner.textContent = t("play-pass-to", { name: this.plainName(seat) });
    this.banner.className = "turn-banner";
    const button = h("button", { class: "primary big", type: "button" }, t("play-pass-show", { name: this.plainName(seat) }));
    button.addEventListener("click", () => {
      this.passing = false;
      this.overlay.hidden = true;
      for (const part of this.seatsOwn()) part.classList.remove("hidden-hand");
      this.active = seat;
      this.pending = null;
      const link = this.linkOf(seat);
      if (link.latest) link.inbox = [link.latest];
      this.pump();
    });
    this.showOverlay(h("div", { class: "pass card" },
      h("h2", {}, t("play-pass-to", { name: this.plainName(seat) })),
      h("p", {}, t("play-pass-look-away")), button));
    button.focus();
  }

  /** What the page draws from the shown seat's own state, hidden behind the pass screen:
   * the table and hand, and beside them the last move's words, a refusal, the log (its
   * secret moves told as that seat may read them) and its legal moves in notation (a hand
   * by another name: "play 8", "GPY@1,-1"). */
  seatsOwn() {
    return [this.board, this.strip, this.said, this.message, this.log, this.legal, this.typed];
  }

  linkOf(seat) {
    return this.links.find((l) => l.seat === seat) || this.links[0];
  }

  seatName(seat) {
    return roleName(seat, this.hello && this.hello.seats, this.localSeats());
  }

  /** A seat's name without "You": whom the device is passed to, whose turn it is at a
   * screen where several seats are played. */
  plainName(seat) {
    return roleName(seat, this.hello && this.hello.seats, this.localSeats(), true);
  }

  // -- drawing --------------------------------------------------------------------------

  async draw(message) {
    const prev = this.current;
    if (this.sending && message.ply > this.sending.ply) this.sent();
    if (!prev || message.ply !== prev.ply) this.tell("", "");
    this.current = message;
    const round = prev && prev.ply < message.ply && this.controller.roundOver && !message.over ? this.controller.roundOver(prev, message) : null;
    // what the board shows: the round's last table while its end is looked at
    const moves = round ? (message.log || []).filter((e) => e.ply > prev.ply) : [];
    this.shown = round ? (this.controller.roundBoard ? this.controller.roundBoard(prev, message, moves) : prev) : null;
    this.drawBanner(message, round);
    this.clocks.update(message, this.active);
    const home = message.clock ? this.clockTop : this.side;
    if (this.clocks.root.parentElement !== home) home.prepend(this.clocks.root);
    this.drawSeats();
    this.drawNotify();
    this.drawLegal(round ? { ...message, legal: [] } : message);
    this.drawLog(message);
    this.drawExtras(message);
    this.drawStatus(this.shown ? { ...this.shown, view: { ...this.shown.view, round: round.round } } : message);
    this.said.textContent = "";
    this.sounds(prev, message);
    if (!prev && message.pause) {
      // opened (or reloaded) after a round ended: that end is not on this screen, so do
      // not hold the next round for it
      for (const link of this.links) if (message.pause.waiting.includes(link.seat)) link.send({ type: "ready" });
    }
    if (round) {
      // the round is over: its last board stays in sight (the next round's waits in the
      // inbox) until this screen's players press "Next round"
      this.holding = true;
      // the round's last move travels onto the board it ended (as any other move)
      await this.controller.render({ ...this.shown, legal: [], last: message.last }, prev && prev.seat === message.seat ? prev : null);
      if (this.current === message) this.said.textContent = this.saying(message);
      await new Promise((resolve) => setTimeout(resolve, RESULTS_AFTER));
      this.results(message, round);
      return;
    }
    await this.controller.render(message, prev && prev.seat === message.seat ? prev : null);
    if (this.current === message) this.said.textContent = this.saying(message);
    if (message.over && (!prev || !prev.over)) {
      // the results come once the last move has landed
      if (prev) await new Promise((resolve) => setTimeout(resolve, RESULTS_AFTER));
      if (this.current === message) this.results(message, null, prev);
    }
  }

  /** Chime when it becomes this screen's turn; a move's own sound otherwise. */
  sounds(prev, message) {
    if (!prev || message.ply <= prev.ply) return;
    const mine = message.to_move === this.active && this.active !== null && !message.over;
    // whose the last move was tells it too: states that came together are drawn as one
    // (the move of this seat's and the reply to it), so `prev` may be this seat's turn
    const replied = message.last && message.last.seat !== this.active;
    if (mine && (prev.to_move !== this.active || replied || this.passing)) {
      sound("turn");
      this.alertTurn(message);
      return;
    }
    const move = message.last && message.last.move;
    // the game's page module says which sound a move makes (a piece laid, a cube taken
    // out, dice); a game whose module says nothing (the generic table) is silent
    const soundOf = tableFor(this.hello.game).soundOf;
    const kind = move && soundOf ? soundOf(move) : null;
    if (kind) sound(kind);
  }

  /** The round (and what else the game keeps count of) in the bar: "Round 2 of 3 · 12
   * pieces in the bag". */
  drawStatus(message) {
    const text = this.controller.status ? this.controller.status(message) : "";
    this.round.textContent = text;
    this.round.hidden = !text;
  }

  /** "Next round": this screen's players have seen the end; the server starts the next
   * round when everyone has (or after a short countdown). */
  nextRound() {
    for (const link of this.links) if (link.seat !== null && link.seat !== undefined) link.send({ type: "ready" });
    clearInterval(this.countdown);
    this.holding = false;
    this.overlay.hidden = true;
    this.shown = null;
    this.drawSeats();
    this.drawStatus(this.current);
    const shown = this.current;
    Promise.resolve(this.controller.render(shown, null)).then(() => this.pump());
  }

  /** The last move in words, seats named by their role. */
  saying(message) {
    const own = this.controller.describe && message.last ? this.controller.describe(message.last) : null;
    if (own) return own;
    if (message.said) return this.worded(message.say, message.said);
    return message.last ? this.worded(message.last.say, message.last.text) : "";
  }

  /** The server's phrase (`say`: a move, a roll's outcome) in the page's words, seats
   * named by their role; its English `text`, seats named, where it has none (a plug-in
   * game's own words). */
  worded(say, text) {
    return phrase(say, (seat) => this.seatName(seat)) ?? this.named(text);
  }

  /** `text` with each "seat N" named by its role; "You" takes the verb that follows it
   * in its own form ("you take", not "you takes": notes are written for everyone). */
  named(text) {
    const out = (text || "").replace(/\b([Ss])eat (\d+)\b/g, (_, s, n) => {
      const name = this.seatName(Number(n));
      return name === "You" && s === "s" ? "you" : name;
    });
    return out
      .replace(/\b([Yy]ou) (owe)s (\d+) but has only (\d+), puts it in and scores/g, "$1 $2 $3 but have only $4, put it in and score")
      .replace(/\b([Yy]ou) (take|pay|owe|roll|win|score|put|lay|stack)s\b/g, "$1 $2")
      .replace(/\b([Yy]ou) has\b/g, "$1 have");
  }

  drawBanner(message, round = null) {
    let text;
    let kind = "";
    if (round) {
      text = WORDS.roundOver(round.round, round.of || 1, round.name);
      kind = "over";
    } else if (message.trouble) {
      text = phrase(message.trouble_say, (s) => this.seatName(s)) ?? t("play-trouble", { trouble: message.trouble });
      kind = "trouble";
    } else if (message.over) {
      const won = (message.result && message.result.winners) || [];
      text = won.length ? t("play-won", { who: joined(won.map((s) => this.seatName(s))) }) : t("replay-draw");
      if (won.length === 1 && this.seatName(won[0]) === t("seat-you")) text = t("play-you-won");
      const why = endedWords(message.result, (s) => this.seatName(s));
      if (why) text = won.length ? t("play-ended-why", { why, result: text }) : why;
      kind = "over";
    } else if (message.pause && !message.over) {
      text = WORDS.paused;
    } else if (message.to_move === this.active && this.active !== null && message.seat === this.active) {
      // (a seat the bot plays on for this page's player is sent as to a spectator: its turns are the bot's)
      text = this.localSeats().length > 1 ? t("play-named-your-turn", { name: this.plainName(this.active) }) : t("play-your-turn");
      kind = "yours";
    } else {
      const seat = this.hello.seats[message.to_move];
      if (seat && seat.kind === "bot") text = t("play-thinking", { name: this.seatName(message.to_move) });
      else if (!(message.online || []).includes(message.to_move)) text = t("play-waiting", { name: this.seatName(message.to_move) });
      else text = t("play-their-turn", { name: this.seatName(message.to_move) });
    }
    this.banner.textContent = text;
    this.banner.className = `turn-banner ${kind}`;
    document.title = `${kind === "yours" ? "● " : ""}${TITLES[this.hello.game] || this.hello.game} · cubegames`;
  }

  drawSeats() {
    const message = this.current;
    if (!this.hello || !message) return;
    const online = new Set(message.online || []);
    const mine = remembered()[this.gameId] || {};
    const local = new Set(this.localSeats());
    const hostSeat = mine.host ? this.localSeats()[0] : undefined;
    // seven seats or more: smaller cards, side by side where they fit (app.css)
    this.seats.classList.toggle("crowded", this.hello.seats.length > 6);
    this.seats.replaceChildren(...this.hello.seats.map((seat) => {
      const here = local.has(seat.seat);
      const kind = seat.kind === "bot" ? "bot" : here || online.has(seat.seat) ? "online" : "offline";
      const status = seat.kind === "bot" ? WORDS.bot : seat.invited ? WORDS.invited : here ? WORDS.here : online.has(seat.seat) ? WORDS.online : WORDS.away;
      const colour = seatColour(this.hello.info, seat.seat);
      const moving = message.to_move === seat.seat && !message.over;
      const line = this.controller && this.controller.seatLine ? this.controller.seatLine(this.shown || message, seat.seat) : "";
      const face = h("span", { class: `face ${kind}`, title: status }, avatar(colour, `${seat.seat}:${seat.name || seat.bot || seat.kind}`, 30, seat.kind === "bot"));
      const parts = [face,
        h("span", { class: "who" }, this.seatName(seat.seat), seat.seat === hostSeat ? h("small", { class: "host-tag" }, ` · ${WORDS.host}`) : null),
        h("span", { class: `presence ${kind}` }, status),
        h("span", { class: "score" }, line)];
      // a rated table's claimed seats are accounts': their players sign in to get them back
      const passable = !(this.hello.rated && !seat.invited);
      if (seat.kind === "human" && mine.host && !here && passable) parts.push(this.reissueButton(seat, mine));
      if (seat.reissued) parts.push(h("small", {}, ` ${t("play-reissued", { count: seat.reissued })}`));
      return h("li", { class: `${moving ? "moving" : ""} ${seat.seat === this.active ? "me" : ""}`, style: `--seat:${colour}`, "data-seat": seat.seat }, parts);
    }));
  }

  drawLegal(message) {
    const moves = message.legal || [];
    this.typed.hidden = !(moves.length || (this.hello.info.referee && message.to_move === this.active));
    if (!moves.length) {
      this.legal.replaceChildren(h("p", { class: "muted" }, this.active === null ? t("play-watching") : t("play-nothing-to-do")));
      return;
    }
    this.legal.replaceChildren(h("p", { class: "muted" }, t("play-legal-moves", { count: moves.length })),
      h("div", { class: "move-buttons" }, moves.slice(0, 400).map((move) =>
        h("button", { type: "button", class: "move", onclick: () => this.send(move) }, move))));
  }

  /** The moves so far as a game log: "Ana laid a green, purple and yellow piece.", the
   * mover's name in bold, the notation on hover when this seat may read it (each seat sees
   * the log its own view allows: the server words it). */
  drawLog(message) {
    const entries = message.log || [];
    const rounds = this.controller && this.controller.roundStarts ? this.controller.roundStarts(message) : null;
    this.log.replaceChildren(...entries.flatMap((e) => {
      const text = this.worded(e.say, e.text);
      const who = this.seatName(e.seat);
      const style = `color:${seatColour(this.hello.info, e.seat)}`;
      const head = text.startsWith(who) ? [h("b", { class: "who", style }, who), text.slice(who.length)] : [text];
      const title = e.move ? t("play-log-move-notation", { ply: e.ply, move: e.move }) : t("play-log-move", { ply: e.ply });
      const line = h("li", { value: e.ply, title }, ...head, e.note ? h("small", {}, ` ${this.worded(e.note_say, e.note)}`) : null);
      const round = rounds && rounds.get(e.ply);
      return round ? [h("li", { class: "round-head", value: e.ply }, round), line] : [line];
    }));
    this.log.scrollTop = this.log.scrollHeight;
  }

  drawExtras(message) {
    const parts = [];
    if (message.over) {
      parts.push(h("a", { class: "button", href: `/replay/${this.gameId}` }, t("play-replay-this")));
      parts.push(h("a", { class: "button", href: `/api/games/${this.gameId}/record`, download: "" }, icon("download"), t("replay-save")));
    } else if (this.active !== null) {
      parts.push(h("button", { type: "button", class: "button save-mine", onclick: () => this.saveMine() }, icon("download"), t("play-save-mine")));
    }
    parts.push(h("a", { class: "button", href: playLink(this.gameId) }, t("play-spectator-link")));
    this.extras.replaceChildren(...parts);
  }

  /** Download this seat's own view of the game so far (the server gives no more before
   * the game is over: no other hand, no seed). */
  async saveMine() {
    const link = this.linkOf(this.active);
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(this.gameId)}/record`, { headers: withCredential(link.token) });
      if (!response.ok) throw new Error((await response.json()).detail || t("server-said", { status: String(response.status) }));
      const blob = await response.blob();
      const a = h("a", { href: URL.createObjectURL(blob), download: `${this.hello.game}-${this.gameId}-seat${this.active}.json` });
      document.body.append(a);
      a.click();
      a.remove();
    } catch (err) {
      this.tell(err.message, "error");
    }
  }

  /** The results screen: after a round (`round`), or of the game (`round` null). Games
   * played in rounds show each round's score and the total (`controller.roundTable`). */
  results(message, round, prev) {
    const names = this.hello.seats.map((s) => this.seatName(s.seat));
    let heading;
    let ending;
    let scores;
    if (round) {
      heading = WORDS.roundOver(round.round, round.of || 1, round.name);
      ending = round.text || "";
      scores = round.scores;
    } else {
      const won = (message.result && message.result.winners) || [];
      heading = won.length === 1 ? (names[won[0]] === t("seat-you") ? t("play-you-won-heading") : t("play-won", { who: names[won[0]] })) : won.length ? t("play-won", { who: joined(won.map((w) => names[w])) }) : t("replay-draw");
      const why = endedWords(message.result, (s) => this.seatName(s));
      if (why && !won.length) heading = why;
      ending = why || (this.controller.ending ? this.controller.ending(message, prev) : "");
      scores = message.result ? message.result.scores : [];
    }
    const winners = new Set(round ? [] : (message.result && message.result.winners) || []);
    const table = this.controller.roundTable ? this.controller.roundTable(message) : null;
    const head = table && table.rounds.length > 1 ? h("thead", {}, h("tr", {}, h("th", {}), table.rounds.map((_, i) => h("th", { class: "round-score" }, WORDS.roundColumn(i + 1))), h("th", {}, WORDS.total))) : null;
    const rows = scores.map((score, seat) => h("tr", { class: winners.has(seat) ? "winner" : "", style: `--seat:${seatColour(this.hello.info, seat)}` },
      h("th", {}, h("i", { class: "seat-mark" }), names[seat]),
      head ? table.rounds.map((r) => h("td", { class: "round-score" }, number(r[seat]))) : null,
      h("td", {}, number(head ? table.totals[seat] : score))));
    // the card folds down to a bar at the foot of the screen ("See the board"), so the
    // board can be looked at, turned and tilted, and unfolds again ("Results"); after a
    // round "Next round" closes it and shows the next round
    const next = round && round.name === "Set" ? WORDS.nextSet : WORDS.nextRound;
    const close = h("button", { type: "button", class: "primary see-board" }, round ? next : WORDS.seeBoard);
    close.addEventListener("click", () => {
      if (round) this.nextRound();
      else this.fold(true);
    });
    const buttons = [close];
    if (round) buttons.push(h("button", { type: "button", class: "button look", onclick: () => this.fold(true) }, WORDS.seeBoard));
    if (!round) {
      buttons.push(h("a", { class: "button", href: `/replay/${this.gameId}` }, t("games-replay")));
      const mine = remembered()[this.gameId] || {};
      if (mine.host) buttons.push(h("button", { type: "button", class: "button rematch", onclick: () => this.rematch() }, t("play-rematch")));
      buttons.push(h("a", { class: "button", href: "/" }, t("play-new-game")));
    }
    const unfold = h("button", { type: "button", class: "primary show-results", onclick: () => this.fold(false) }, WORDS.results);
    const folded = round ? h("button", { type: "button", class: "primary show-results next-from-bar", onclick: () => this.nextRound() }, next) : null;
    const wait = round && message.pause ? h("p", { class: "countdown muted" }) : null;
    this.showOverlay(h("div", { class: `results card${round ? " round" : " final"}`, role: "dialog", "aria-label": heading },
      h("div", { class: "results-head" }, h("h2", {}, heading), unfold, folded),
      ending ? h("p", { class: "ending" }, ending) : null,
      h("table", { class: "scores" }, head, h("tbody", {}, rows)),
      wait,
      h("div", { class: "actions" }, buttons)));
    if (wait) this.countDown(wait, message.pause);
    close.focus();
  }

  /** The seconds until the next round starts without those who have not pressed. */
  countDown(where, pause) {
    clearInterval(this.countdown);
    const ends = Date.now() + pause.seconds * 1000;
    const others = pause.waiting.filter((seat) => !this.localSeats().includes(seat)).map((seat) => this.seatName(seat));
    const tick = () => {
      const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      // at 0 the server has gone on without waiting (this screen keeps the last board
      // until its player presses the button): no "in 0 s" left standing
      if (!left) where.textContent = WORDS.wentOn;
      else where.textContent = others.length ? `${WORDS.waitingFor(others)} ${WORDS.startsIn(left)}` : WORDS.startsIn(left);
      if (!left) clearInterval(this.countdown);
    };
    tick();
    this.countdown = setInterval(tick, 1000);
  }

  /** Fold the final results down to a bar (the board shows and takes the pointer), or
   * unfold them. */
  fold(folded) {
    this.overlay.classList.toggle("folded", folded);
    const button = this.overlay.querySelector(folded ? ".show-results" : ".see-board");
    if (button) button.focus();
  }

  showOverlay(content) {
    this.overlay.classList.remove("folded");
    this.overlay.replaceChildren(content);
    this.overlay.hidden = false;
  }

  /** The same game again, same seats: bots stay, seats played here stay here, others get
   * new invitations (copied from the players list of the new game). */
  async rematch() {
    const hello = this.hello;
    const local = new Set(this.localSeats());
    const seats = rematchSeats(hello.seats, local);
    try {
      const made = await api("/api/games", { json: { game: hello.game, options: hello.options, seats } });
      const tokens = Object.fromEntries(made.seats.filter((s) => s.token).map((s) => [s.seat, s.token]));
      const invites = Object.fromEntries(made.seats.filter((s) => s.invite).map((s) => [s.seat, s.invite]));
      remember(made.id, { game: made.game, tokens, here: [...local], host: made.host, invites, created: new Date().toISOString() });
      location.href = playLink(made.id);
    } catch (err) {
      this.tell(err.message, "error");
    }
  }

  /** The host's button on another person's seat: while its invitation is unused, copy it
   * again; once taken (or when this browser lost it), give the seat a new invitation (whoever
   * holds it now loses it) and copy that. */
  reissueButton(seat, mine) {
    const invite = seat.invited && mine.invites && mine.invites[seat.seat];
    const button = h("button", { type: "button", class: `small ${invite ? "copy-invite" : "reissue"}` }, invite ? WORDS.copyInvite : WORDS.reissue);
    button.addEventListener("click", async () => {
      let code = invite;
      if (!code) {
        if (!seat.invited && !confirm(WORDS.reissueAsk(this.seatName(seat.seat)))) return;
        try {
          const got = await api(`/api/games/${encodeURIComponent(this.gameId)}/seats/${seat.seat}/reissue`, { method: "POST", headers: withCredential(mine.host) });
          code = got.invite;
          const known = remembered()[this.gameId] || {};
          remember(this.gameId, { invites: { ...(known.invites || {}), [seat.seat]: code } });
        } catch (err) {
          this.tell(err.message, "error");
          return;
        }
      }
      const done = await copy(inviteLink(this.gameId, code));
      this.drawSeats();
      const now = this.seats.querySelector(`li[data-seat="${seat.seat}"] button`);
      if (now) now.textContent = done ? WORDS.copied : WORDS.copyFailed;
    });
    return button;
  }

  tell(text, kind) {
    this.message.textContent = text || "";
    this.message.className = `message ${kind || ""}`;
    if (this.passing) this.message.classList.add("hidden-hand");
  }

  // -- input ----------------------------------------------------------------------------

  send(move, anchor = null) {
    const link = this.linkOf(this.active);
    if (!link || this.active === null) {
      this.tell(friendly(this.hello && this.hello.game, { code: "spectator" }), "error");
      return;
    }
    if (this.sending) return;
    const ply = link.latest ? link.latest.ply : undefined;
    if (!link.send({ type: "move", move, ply })) {
      this.tell(t("play-not-connected"), "error");
      return;
    }
    const timer = setTimeout(() => this.sent(), SEND_PATIENCE);
    this.sending = { ply: ply === undefined ? -1 : ply, timer, anchor };
    this.board.classList.add("busy");
  }

  sent() {
    if (!this.sending) return;
    clearTimeout(this.sending.timer);
    this.sending = null;
    this.board.classList.remove("busy");
  }

  typedMove(event) {
    event.preventDefault();
    const input = this.typed.elements.move;
    const move = input.value.trim();
    if (move) this.send(move);
    input.value = "";
  }

  key(event) {
    const tag = (event.target.tagName || "").toLowerCase();
    if (["input", "select", "textarea"].includes(tag) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (!this.overlay.hidden && !this.overlay.classList.contains("folded")) return;
    if (this.controller && this.controller.key) this.controller.key(event);
  }
}
