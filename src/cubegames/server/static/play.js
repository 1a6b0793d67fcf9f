// The game screen: one websocket per seat played at this screen (tokens in the address,
// #t=TOKEN,TOKEN), or one spectator connection without a token. Every message the server
// sends a seat is made from that seat's view; the page only shows it and turns clicks
// into move texts, which the server checks with the engine.

import { TITLES, api, claimInvite, copy, firstTime, h, heldTokens, inviteLink, playLink, remember, remembered, seatLabel, tokensInHash, withCredential } from "./util.js";
import * as cubed from "./games/cubed.js";
import * as unstackable from "./games/unstackable.js";
import * as stakd from "./games/stakd.js";
import * as cubes from "./games/cubes.js";

const MODULES = { cubed, unstackable, stakd, cubes };
const FATAL = new Set([4401, 4403, 4404, 4500]);
const PING_EVERY = 25000;
const SEND_PATIENCE = 5000; // ms to wait for an answer to a move before taking clicks again

/** A "Full rules" button that fetches the game's rule page (markdown, shown as text). */
function fullRules(game) {
  const page = h("pre", { class: "full-rules", hidden: true });
  const button = h("button", { type: "button", class: "link" }, "Full rules");
  button.addEventListener("click", async () => {
    if (!page.textContent) {
      const response = await fetch(`/api/rules/${encodeURIComponent(game)}`);
      page.textContent = response.ok ? await response.text() : "The rules could not be loaded.";
    }
    page.hidden = !page.hidden;
  });
  return h("div", {}, button, page);
}

/** A websocket to a game whose first message says who this page is: the seat's
 * credential, or null for a spectator. A credential never goes in the address. */
function openGameSocket(gameId, token) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
  ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "auth", token: token || null })));
  return ws;
}

/** A websocket to one game, as one seat (or a spectator), reconnecting when it drops. */
class Link {
  constructor(gameId, token, page) {
    this.gameId = gameId;
    this.token = token;
    this.page = page;
    this.seat = undefined;
    this.latest = null;
    this.inbox = [];
    this.retry = 0;
    this.dead = false;
    this.lastError = null;
    this.open();
  }

  open() {
    const ws = openGameSocket(this.gameId, this.token);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.page.connection();
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "error") this.lastError = message.message;
      this.page.received(this, message);
    });
    ws.addEventListener("close", (event) => {
      this.page.connection();
      if (FATAL.has(event.code)) {
        this.dead = true;
        this.page.fatal(this.lastError || `the server closed the connection (${event.code})`);
        return;
      }
      if (this.closing) return;
      const wait = Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => this.open(), wait);
    });
  }

  get connected() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.connected) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closing = true;
    this.ws.close();
  }
}

/** Let a drawing grow past its natural size (up to half as big again) to fill the table. */
export function grow(board) {
  const svg = board.querySelector("svg");
  if (!svg) return;
  const natural = svg.width.baseVal.value;
  svg.style.width = "100%";
  svg.style.maxWidth = `${Math.round(natural * 1.5)}px`;
}

export async function playPage(root, gameId) {
  const claimed = await claimInvite(gameId);
  if (typeof claimed === "string") {
    root.replaceChildren(spentInvitePage(gameId, claimed));
    return;
  }
  const inHash = tokensInHash();
  const tokens = inHash.length ? inHash : heldTokens(gameId);
  const page = new PlayPage(root, gameId, tokens);
  window.cubegamesPage = page; // for the curious, and for tests
}

/** What an invitation already used (or from another game) opens: a clear page. */
function spentInvitePage(gameId, reason) {
  return h("section", { class: "card notice" },
    h("h1", {}, "This invitation cannot be used"),
    h("p", {}, reason),
    h("p", {}, "An invitation opens its seat once, for the first browser that follows it. " +
      "If the seat is yours, ask the host to reissue it; they will send you a new link."),
    h("p", {}, h("a", { href: playLink(gameId) }, "Watch the game"), " · ", h("a", { href: "/" }, "All games")));
}

class PlayPage {
  constructor(root, gameId, tokens) {
    this.gameId = gameId;
    this.hello = null;
    this.active = null;
    this.pending = null;
    this.sending = null; // {ply, timer} while a move is on its way to the server
    this.shownPly = -1;
    this.controller = null;
    this.seatByToken = {};
    this.build(root);
    this.links = tokens.length ? tokens.map((t) => new Link(gameId, t, this)) : [new Link(gameId, null, this)];
    document.addEventListener("keydown", (event) => this.key(event));
    setInterval(() => this.links.forEach((l) => l.send({ type: "ping" })), PING_EVERY);
  }

  build(root) {
    this.title = h("h1", {}, "Loading…");
    this.status = h("p", { class: "status", role: "status", "aria-live": "polite" });
    this.conn = h("span", { class: "conn", title: "connection" });
    this.board = h("div", { class: "board", id: "board" });
    this.controls = h("div", { class: "controls", id: "controls" });
    this.said = h("p", { class: "said", "aria-live": "polite" });
    this.message = h("p", { class: "message", role: "alert" });
    this.seats = h("ul", { class: "seat-list" });
    this.legal = h("div", { class: "legal-moves" });
    this.typed = h("form", { class: "typed", onsubmit: (e) => this.typedMove(e) },
      h("label", { for: "typed-move" }, "Type a move"),
      h("input", { id: "typed-move", name: "move", autocomplete: "off", spellcheck: "false" }),
      h("button", { type: "submit" }, "Play"));
    this.log = h("ol", { class: "log" });
    this.extras = h("div", { class: "extras" });
    this.rules = h("details", { class: "rules" }, h("summary", {}, "How to play"));
    this.overlay = h("div", { class: "overlay", hidden: true });
    root.replaceChildren(h("div", { class: "play" },
      h("div", { class: "bar" }, h("a", { href: "/", class: "back" }, "← All games"), this.title, this.conn),
      this.status,
      h("div", { class: "cols" },
        h("section", { class: "table-area" }, this.board, this.controls),
        h("aside", { class: "side" }, this.said, this.message,
          h("h2", {}, "Seats"), this.seats,
          h("details", { class: "moves", open: true },
            h("summary", {}, "Your moves"), this.legal, this.typed),
          h("details", { class: "history" }, h("summary", {}, "Moves so far"), this.log),
          this.rules,
          this.extras)),
      this.overlay));
  }

  // -- messages ---------------------------------------------------------------------------

  received(link, message) {
    if (message.type === "hello") {
      link.seat = message.seat;
      if (link.token && message.seat !== null) this.seatByToken[message.seat] = link.token;
      if (!this.hello) this.start(message);
      if (link.token && message.seat !== null) {
        const known = remembered()[this.gameId] || {};
        remember(this.gameId, { game: message.game, tokens: { ...(known.tokens || {}), [message.seat]: link.token } });
      }
      return;
    }
    if (message.type === "state") {
      link.latest = message;
      link.inbox.push(message);
      if (link.seat !== this.active) link.inbox = [message];
      this.refresh();
    } else if (message.type === "presence") {
      for (const l of this.links) {
        if (l.latest) l.latest.online = message.online;
      }
      if (this.current) this.current.online = message.online;
      this.drawSeats();
    } else if (message.type === "error") {
      if (message.code === "closed") return; // the close handler says it
      const mine = link.seat === this.active || link.seat === null || this.links.length === 1;
      if (mine) this.tell(message.message, "error");
      if (mine) this.sent();
      if (this.controller && this.controller.refused) this.controller.refused(message);
    }
  }

  start(hello) {
    this.hello = hello;
    const title = TITLES[hello.game] || hello.game;
    this.title.textContent = title;
    document.title = `${title} · cubegames`;
    this.rules.append(h("ul", {}, (hello.rules || []).map((line) => h("li", {}, line))));
    this.rules.append(fullRules(hello.game));
    this.rules.open = firstTime(`rules.${hello.game}`);
    const module = MODULES[hello.game];
    this.controller = module.create({
      board: this.board,
      controls: this.controls,
      info: hello.info,
      hello,
      send: (move) => this.send(move),
      tell: (text, kind) => this.tell(text, kind),
      seatName: (seat) => this.seatName(seat),
    });
    this.board.addEventListener("click", (event) => {
      if (this.controller.click && this.controller.click(event)) return;
      const target = event.target.closest("[data-move]");
      if (target) this.send(target.dataset.move);
    });
  }

  fatal(text) {
    if (this.links.some((l) => !l.dead && l.latest)) {
      this.tell(text, "error");
      return;
    }
    this.status.textContent = "";
    this.board.replaceChildren(h("div", { class: "notice" }, h("p", {}, text),
      h("p", {}, h("a", { href: "/" }, "Back to the start page"))));
  }

  connection() {
    const up = this.links.filter((l) => l.connected).length;
    const all = this.links.filter((l) => !l.dead).length;
    this.conn.className = `conn ${up === all && all ? "up" : "down"}`;
    this.conn.textContent = up === all && all ? "connected" : "reconnecting…";
  }

  // -- which seat is shown ----------------------------------------------------------------

  newest() {
    let best = null;
    for (const l of this.links) if (l.latest && (!best || l.latest.ply > best.ply)) best = l.latest;
    return best;
  }

  localSeats() {
    return this.links.filter((l) => l.seat !== undefined && l.seat !== null).map((l) => l.seat);
  }

  /** The seat to show: the seat to move if it is played here, else the one shown. */
  chooseSeat() {
    const newest = this.newest();
    const local = this.localSeats();
    if (!newest || !local.length) return null;
    return local.includes(newest.to_move) ? newest.to_move : (this.active ?? local[0]);
  }

  refresh() {
    if (!this.hello || !this.newest()) return;
    // wait until every seat's connection has said who it is, so a hot-seat table never
    // shows one seat's hand before it knows to ask for the device to be passed
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

  /** Draw the active seat's new states in order; a game that animates (CUBES) shows each
   * one for a moment, the others skip straight to the newest. */
  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    let again = false;
    try {
      for (;;) {
        const link = this.linkOf(this.active);
        if (!link || !link.inbox.length || !this.overlay.hidden) break;
        const animated = Boolean(this.controller.hold);
        const message = animated ? link.inbox.shift() : link.inbox.splice(0).pop();
        await this.draw(message);
        if (animated && link.inbox.length) await new Promise((r) => setTimeout(r, this.controller.hold));
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
    if (this.pending === seat && !this.overlay.hidden) return;
    this.pending = seat;
    this.board.replaceChildren();
    this.controls.replaceChildren();
    this.legal.replaceChildren();
    const button = h("button", { class: "primary big", type: "button" }, `I am ${this.seatName(seat)}: show my pieces`);
    button.addEventListener("click", () => {
      this.overlay.hidden = true;
      this.active = seat;
      this.pending = null;
      const link = this.linkOf(seat);
      if (link.latest) link.inbox = [link.latest];
      this.pump();
    });
    this.overlay.replaceChildren(h("div", { class: "pass" },
      h("h2", {}, `Pass the device to ${this.seatName(seat)}`),
      h("p", {}, "The others look away: the next screen shows this seat's hand."), button));
    this.overlay.hidden = false;
    button.focus();
  }

  linkOf(seat) {
    return this.links.find((l) => l.seat === seat) || this.links[0];
  }

  seatName(seat) {
    const info = this.hello && this.hello.seats[seat];
    if (info && info.name) return info.name;
    return `Seat ${seat}`;
  }

  // -- drawing ----------------------------------------------------------------------------

  async draw(message) {
    if (this.sending && message.ply > this.sending.ply) this.sent();
    if (message.ply !== this.shownPly) this.tell("", "");
    this.shownPly = message.ply;
    this.current = message;
    this.board.innerHTML = message.svg;
    grow(this.board);
    this.drawStatus(message);
    this.drawSeats();
    this.drawLegal(message);
    this.drawLog(message);
    this.drawExtras(message);
    this.said.textContent = "";
    await this.controller.render(message);
    if (this.current === message) this.said.textContent = message.said || "";
  }

  drawStatus(message) {
    const seats = this.hello.seats;
    let text;
    if (message.trouble) {
      text = `Trouble: ${message.trouble}`;
    } else if (message.over) {
      const won = (message.result && message.result.winners) || [];
      const names = won.map((s) => (s === this.active ? "you" : this.seatName(s)));
      text = won.length ? `Game over: ${names.join(" and ")} won.` : "Game over: nobody won.";
    } else if (message.to_move === this.active && this.active !== null) {
      text = this.localSeats().length > 1 ? `${this.seatName(this.active)}: your turn.` : "Your turn.";
    } else {
      const seat = seats[message.to_move];
      if (seat && seat.kind === "bot") {
        text = `${this.seatName(message.to_move)} (${seat.bot} bot) is thinking…`;
      } else if (!(message.online || []).includes(message.to_move)) {
        text = `Waiting for ${this.seatName(message.to_move)} to join (send them their link).`;
      } else {
        text = `Waiting for ${this.seatName(message.to_move)}…`;
      }
    }
    this.status.textContent = text;
    this.status.className = `status ${message.to_move === this.active && !message.over ? "yours" : ""}`;
    document.title = `${message.to_move === this.active && !message.over ? "● " : ""}${TITLES[this.hello.game]} · cubegames`;
  }

  drawSeats() {
    const message = this.current;
    if (!this.hello || !message) return;
    const online = new Set(message.online || []);
    const mine = remembered()[this.gameId] || {};
    const local = new Set(this.localSeats());
    this.seats.replaceChildren(...this.hello.seats.map((seat) => {
      const kind = seat.kind === "bot" ? "bot" : online.has(seat.seat) ? "online" : "offline";
      const parts = [h("span", { class: `dot ${kind}`, title: kind }), seatLabel(seat.seat, this.hello.seats)];
      if (seat.seat === this.active) parts.push(h("strong", {}, " (you)"));
      else if (local.has(seat.seat)) parts.push(" (at this screen)");
      if (message.to_move === seat.seat && !message.over) parts.push(h("span", { class: "turn" }, " ◀ to move"));
      if (seat.kind === "human" && mine.host && !local.has(seat.seat)) parts.push(" ", this.reissueButton(seat.seat, mine));
      if (seat.reissued) parts.push(h("small", {}, ` (reissued ${seat.reissued}×)`));
      return h("li", {}, parts);
    }));
  }

  drawLegal(message) {
    const moves = message.legal || [];
    this.typed.hidden = !(moves.length || (this.hello.info.referee && message.to_move === this.active));
    if (!moves.length) {
      this.legal.replaceChildren(h("p", { class: "muted" },
        this.active === null ? "You are watching." : "Nothing to do until your turn."));
      return;
    }
    const buttons = moves.slice(0, 400).map((move) =>
      h("button", { type: "button", class: "move", onclick: () => this.send(move) }, move));
    this.legal.replaceChildren(h("p", { class: "muted" },
      `${moves.length} legal move${moves.length === 1 ? "" : "s"}: click one, or play on the board.`),
      h("div", { class: "move-buttons" }, buttons));
  }

  drawLog(message) {
    const entries = message.log || [];
    this.log.replaceChildren(...entries.map((e) => h("li", { value: e.ply }, e.text,
      e.note ? h("small", {}, ` ${e.note}`) : null)));
    this.log.scrollTop = this.log.scrollHeight;
  }

  drawExtras(message) {
    const parts = [];
    const mine = remembered()[this.gameId] || {};
    if (message.over) {
      parts.push(h("a", { class: "button", href: `/replay/${this.gameId}` }, "Replay this game"));
      parts.push(h("a", { class: "button", href: `/api/games/${this.gameId}/record`, download: "" }, "Save the record"));
    }
    parts.push(h("a", { class: "button", href: playLink(this.gameId) }, "Spectator link"));
    this.extras.replaceChildren(...parts);
  }

  /** The host's button for a seat: copy its invitation while unclaimed, or give it a new
   * one (the old credential stops working; every page of the game is told). */
  reissueButton(seat, mine) {
    const invite = mine.invites && mine.invites[seat];
    const button = h("button", { type: "button", class: "small" }, invite ? "Copy invitation" : "Reissue seat");
    button.addEventListener("click", async () => {
      let code = invite;
      if (!code) {
        if (!confirm(`Give seat ${seat} a new invitation? Whoever holds it now loses it.`)) return;
        try {
          const got = await api(`/api/games/${encodeURIComponent(this.gameId)}/seats/${seat}/reissue`,
            { method: "POST", headers: withCredential(mine.host) });
          code = got.invite;
          remember(this.gameId, { invites: { ...(mine.invites || {}), [seat]: code } });
        } catch (err) {
          this.tell(err.message, "error");
          return;
        }
      }
      button.textContent = (await copy(inviteLink(this.gameId, code))) ? "Copied" : "Copy failed";
    });
    return button;
  }

  tell(text, kind) {
    this.message.textContent = text || "";
    this.message.className = `message ${kind || ""}`;
  }

  // -- input ----------------------------------------------------------------------------------

  send(move) {
    const link = this.linkOf(this.active);
    if (!link || this.active === null) {
      this.tell("You are watching this game: open it with a seat's link to play.", "error");
      return;
    }
    if (this.sending) return;
    const ply = link.latest ? link.latest.ply : undefined;
    if (!link.send({ type: "move", move, ply })) {
      this.tell("Not connected: reconnecting, try again in a moment.", "error");
      return;
    }
    // Until the server answers (the next position, or a refusal) the board takes no more
    // clicks: a quick second click would otherwise be made against the old position.
    const timer = setTimeout(() => this.sent(), SEND_PATIENCE);
    this.sending = { ply: ply === undefined ? -1 : ply, timer };
    this.board.classList.add("busy");
  }

  /** The move in flight has been answered (or given up on): the board takes clicks again. */
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
    if (!this.overlay.hidden) return;
    if (this.controller && this.controller.key) this.controller.key(event);
  }
}

