// The game table: one websocket per seat played at this screen (credentials kept in this
// browser, never in the address), or one spectator connection. The server sends each
// seat its view and legal moves (protocol.js); the game's own module (games/<id>.js)
// draws it and turns taps into move texts, which the server checks with the engine.

import { TITLES, api, claimInvite, copy, firstTime, h, heldTokens, inviteLink, playLink, remember, remembered, tokensInHash, withCredential } from "./util.js";
import { Link, PROTOCOL } from "./protocol.js";
import { friendly } from "./refusals.js";
import { icon, tip } from "./draw.js";
import { ClockPanel, endedWords } from "./clocks.js";
import * as cubed from "./games/cubed.js";
import * as unstackable from "./games/unstackable.js";
import * as stakd from "./games/stakd.js";
import * as cubes from "./games/cubes.js";

export const MODULES = { cubed, unstackable, stakd, cubes };
const SEND_PATIENCE = 5000; // ms to wait for an answer to a move before taking taps again

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

export async function playPage(root, gameId) {
  const claimed = await claimInvite(gameId);
  if (typeof claimed === "string") {
    root.replaceChildren(spentInvitePage(gameId, claimed));
    return;
  }
  const inHash = tokensInHash();
  const tokens = inHash.length ? inHash : heldTokens(gameId);
  window.cubegamesPage = new PlayPage(root, gameId, tokens); // for the curious, and for tests
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

/** A seat named by its role: its player's name, "You", "Greedy bot", "Player 2". */
export function roleName(seat, seats, mine) {
  const info = seats && seats[seat];
  if (info && info.name) return info.name;
  if (mine && mine.length === 1 && mine[0] === seat) return "You";
  if (info && info.kind === "bot") {
    const name = `${info.bot.split(":")[0].replace(/^./, (c) => c.toUpperCase())} bot`;
    const twins = (seats || []).filter((s) => s.kind === "bot" && !s.name && s.bot.split(":")[0] === info.bot.split(":")[0]);
    return twins.length > 1 ? `${name} ${twins.indexOf(info) + 1}` : name;
  }
  return `Player ${seat + 1}`;
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
      fatal: (link, text) => this.fatal(text),
    };
    this.links = (tokens.length ? tokens : [null]).map((t) => {
      const link = new Link(gameId, t, handler);
      link.inbox = [];
      return link;
    });
    document.addEventListener("keydown", (event) => this.key(event));
  }

  build(root) {
    this.title = h("h1", {}, "Loading…");
    this.banner = h("p", { class: "turn-banner", role: "status", "aria-live": "polite" });
    this.conn = h("span", { class: "conn", title: "connection" });
    this.board = h("div", { class: "board", id: "board" });
    this.strip = h("div", { class: "strip", id: "strip" });
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
    this.clocks = new ClockPanel((m) => { const l = this.linkOf(this.active); if (l) l.send(m); }, (s) => this.seatName(s));
    root.replaceChildren(h("div", { class: "play" },
      h("div", { class: "bar" }, h("a", { href: "/", class: "back", "aria-label": "All games" }, "‹ Games"), this.title, this.conn),
      this.banner,
      this.clocks.root,
      h("div", { class: "cols" },
        h("section", { class: "table-area" }, this.board, this.strip),
        h("aside", { class: "side" }, this.said, this.message,
          this.seats,
          h("details", { class: "history" }, h("summary", {}, "Moves so far"), this.log),
          h("details", { class: "notation" }, h("summary", {}, "Moves in notation"), this.legal, this.typed),
          this.rules, this.extras)),
      this.overlay));
  }

  // -- messages -------------------------------------------------------------------------

  greet(link, hello) {
    if (link.token && hello.seat !== null) {
      const known = remembered()[this.gameId] || {};
      remember(this.gameId, { game: hello.game, tokens: { ...(known.tokens || {}), [hello.seat]: link.token } });
    }
    if (this.hello) return;
    if (hello.protocol !== PROTOCOL) this.tell(`This page speaks protocol ${PROTOCOL}, the server ${hello.protocol}: reload the page.`, "error");
    this.hello = hello;
    this.clocks.seats(hello.seats);
    const title = TITLES[hello.game] || hello.game;
    this.title.textContent = title;
    document.title = `${title} · cubegames`;
    this.rules.append(h("ul", {}, (hello.rules || []).map((line) => h("li", {}, line))));
    this.rules.append(fullRules(hello.game));
    this.rules.open = firstTime(`rules.${hello.game}`) && window.innerWidth > 700;
    this.controller = MODULES[hello.game].create({
      board: this.board,
      strip: this.strip,
      info: hello.info,
      hello,
      send: (move, anchor) => this.send(move, anchor),
      seatName: (seat) => this.seatName(seat),
    });
  }

  arrived(link, state) {
    link.inbox.push(state);
    if (link.seat !== this.active) link.inbox = [state];
    this.refresh();
  }

  other(link, message) {
    if (message.type === "presence") {
      for (const l of this.links) if (l.latest) l.latest.online = message.online;
      this.clocks.presence(message.online);
      this.drawSeats();
    } else if (message.type === "undo") {
      this.clocks.asked(message);
    } else if (message.type === "seat" && message.event === "zombie" && this.hello) {
      this.hello.seats[message.seat] = { ...this.hello.seats[message.seat], kind: "bot", bot: message.bot };
      this.clocks.seats(this.hello.seats);
      this.drawSeats();
    } else if (message.type === "error") {
      if (message.code === "closed") return; // the close handler says it
      const mine = link.seat === this.active || link.seat === null || this.links.length === 1;
      if (!mine) return;
      const text = friendly(this.hello && this.hello.game, message, this.hello && this.hello.info);
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

  fatal(text) {
    if (this.links.some((l) => !l.dead && l.latest)) {
      this.tell(text, "error");
      return;
    }
    this.banner.textContent = "";
    this.board.replaceChildren(h("div", { class: "notice" }, h("p", {}, text), h("p", {}, h("a", { href: "/" }, "Back to the start page"))));
  }

  connection() {
    const up = this.links.filter((l) => l.connected).length;
    const all = this.links.filter((l) => !l.dead).length;
    const ok = up === all && all > 0;
    this.conn.className = `conn ${ok ? "up" : "down"}`;
    this.conn.textContent = ok ? "online" : "reconnecting…";
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
    return local.includes(newest.to_move) ? newest.to_move : (this.active ?? local[0]);
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
        if (!link || !link.inbox.length || this.passing) break;
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
    this.board.classList.add("hidden-hand");
    this.strip.classList.add("hidden-hand");
    const button = h("button", { class: "primary big", type: "button" }, `I am ${this.seatName(seat)}: show my pieces`);
    button.addEventListener("click", () => {
      this.passing = false;
      this.overlay.hidden = true;
      this.board.classList.remove("hidden-hand");
      this.strip.classList.remove("hidden-hand");
      this.active = seat;
      this.pending = null;
      const link = this.linkOf(seat);
      if (link.latest) link.inbox = [link.latest];
      this.pump();
    });
    this.showOverlay(h("div", { class: "pass card" },
      h("h2", {}, `Pass the device to ${this.seatName(seat)}`),
      h("p", {}, "The others look away: the next screen shows this player's hand."), button));
    button.focus();
  }

  linkOf(seat) {
    return this.links.find((l) => l.seat === seat) || this.links[0];
  }

  seatName(seat) {
    const local = this.localSeats();
    if (local.length > 1 && local.includes(seat)) return roleName(seat, this.hello.seats, []);
    return roleName(seat, this.hello && this.hello.seats, local);
  }

  // -- drawing --------------------------------------------------------------------------

  async draw(message) {
    const prev = this.current;
    if (this.sending && message.ply > this.sending.ply) this.sent();
    if (!prev || message.ply !== prev.ply) this.tell("", "");
    this.current = message;
    this.drawBanner(message);
    this.clocks.update(message, this.active);
    this.drawSeats();
    this.drawLegal(message);
    this.drawLog(message);
    this.drawExtras(message);
    this.said.textContent = "";
    await this.controller.render(message, prev && prev.seat === message.seat ? prev : null);
    if (this.current === message) this.said.textContent = this.saying(message);
    if (prev && prev.ply < message.ply && this.controller.roundOver && !message.over) {
      const round = this.controller.roundOver(prev, message);
      if (round) this.results(message, round);
    }
    if (message.over && (!prev || !prev.over)) this.results(message, null, prev);
  }

  /** The last move in words, seats named by their role. */
  saying(message) {
    const own = this.controller.describe && message.last ? this.controller.describe(message.last) : null;
    return this.named(own || message.said || (message.last ? message.last.text : ""));
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

  drawBanner(message) {
    let text;
    let kind = "";
    if (message.trouble) {
      text = `Trouble: ${message.trouble}`;
      kind = "trouble";
    } else if (message.over) {
      const won = (message.result && message.result.winners) || [];
      text = won.length ? `${won.map((s) => this.seatName(s)).join(" and ")} won` : "A draw";
      if (won.length === 1 && this.seatName(won[0]) === "You") text = "You won";
      const why = endedWords(message.result, (s) => this.seatName(s));
      if (why) text = won.length ? `${why}: ${text}` : why;
      kind = "over";
    } else if (message.to_move === this.active && this.active !== null) {
      text = this.localSeats().length > 1 ? `${this.seatName(this.active)}: your turn` : "Your turn";
      kind = "yours";
    } else {
      const seat = this.hello.seats[message.to_move];
      if (seat && seat.kind === "bot") text = `${this.seatName(message.to_move)} is thinking…`;
      else if (!(message.online || []).includes(message.to_move)) text = `Waiting for ${this.seatName(message.to_move)} to join`;
      else text = `${this.seatName(message.to_move)}'s turn`;
    }
    this.banner.textContent = text;
    this.banner.className = `turn-banner ${kind}`;
    document.title = `${kind === "yours" ? "● " : ""}${TITLES[this.hello.game]} · cubegames`;
  }

  drawSeats() {
    const message = this.current;
    if (!this.hello || !message) return;
    const online = new Set(message.online || []);
    const mine = remembered()[this.gameId] || {};
    const local = new Set(this.localSeats());
    this.seats.replaceChildren(...this.hello.seats.map((seat) => {
      const kind = seat.kind === "bot" ? "bot" : online.has(seat.seat) ? "online" : "offline";
      const moving = message.to_move === seat.seat && !message.over;
      const line = this.controller && this.controller.seatLine ? this.controller.seatLine(message, seat.seat) : "";
      const parts = [h("span", { class: `dot ${kind}`, title: kind === "bot" ? "a bot" : kind }),
        h("span", { class: "who" }, this.seatName(seat.seat)), h("span", { class: "score" }, line)];
      if (seat.kind === "human" && mine.host && !local.has(seat.seat)) parts.push(this.reissueButton(seat.seat, mine));
      if (seat.reissued) parts.push(h("small", {}, ` (reissued ${seat.reissued}×)`));
      return h("li", { class: `${moving ? "moving" : ""} ${seat.seat === this.active ? "me" : ""}` }, parts);
    }));
  }

  drawLegal(message) {
    const moves = message.legal || [];
    this.typed.hidden = !(moves.length || (this.hello.info.referee && message.to_move === this.active));
    if (!moves.length) {
      this.legal.replaceChildren(h("p", { class: "muted" }, this.active === null ? "You are watching." : "Nothing to do until your turn."));
      return;
    }
    this.legal.replaceChildren(h("p", { class: "muted" }, `${moves.length} legal move${moves.length === 1 ? "" : "s"}; the board shows them all.`),
      h("div", { class: "move-buttons" }, moves.slice(0, 400).map((move) =>
        h("button", { type: "button", class: "move", onclick: () => this.send(move) }, move))));
  }

  /** The moves so far as a game log: "Ana laid a green, purple and yellow piece.", the
   * mover's name in bold, the notation on hover when this seat may read it (each seat sees
   * the log its own view allows: the server words it). */
  drawLog(message) {
    const entries = message.log || [];
    this.log.replaceChildren(...entries.map((e) => {
      const text = this.named(e.text);
      const who = this.seatName(e.seat);
      const head = text.startsWith(who) ? [h("b", { class: "who" }, who), text.slice(who.length)] : [text];
      const title = e.move ? `Move ${e.ply}, in notation: ${e.move}` : `Move ${e.ply}`;
      return h("li", { value: e.ply, title }, ...head, e.note ? h("small", {}, ` ${this.named(e.note)}`) : null);
    }));
    this.log.scrollTop = this.log.scrollHeight;
  }

  drawExtras(message) {
    const parts = [];
    if (message.over) {
      parts.push(h("a", { class: "button", href: `/replay/${this.gameId}` }, "Replay this game"));
      parts.push(h("a", { class: "button", href: `/api/games/${this.gameId}/record`, download: "" }, icon("download"), "Save the record"));
    } else if (this.active !== null) {
      parts.push(h("button", { type: "button", class: "button save-mine", onclick: () => this.saveMine() }, icon("download"), "Save my record"));
    }
    parts.push(h("a", { class: "button", href: playLink(this.gameId) }, "Spectator link"));
    this.extras.replaceChildren(...parts);
  }

  /** Download this seat's own view of the game so far (the server gives no more before
   * the game is over: no other hand, no seed). */
  async saveMine() {
    const link = this.linkOf(this.active);
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(this.gameId)}/record`, { headers: withCredential(link.token) });
      if (!response.ok) throw new Error((await response.json()).detail || `the server said ${response.status}`);
      const blob = await response.blob();
      const a = h("a", { href: URL.createObjectURL(blob), download: `${this.hello.game}-${this.gameId}-seat${this.active}.json` });
      document.body.append(a);
      a.click();
      a.remove();
    } catch (err) {
      this.tell(err.message, "error");
    }
  }

  /** The results screen: after a round (`round`), or of the game (`round` null). */
  results(message, round, prev) {
    const names = this.hello.seats.map((s) => this.seatName(s.seat));
    let heading;
    let ending;
    let scores;
    if (round) {
      heading = `Round ${round.round} is over`;
      ending = round.text || "";
      scores = round.scores;
    } else {
      const won = (message.result && message.result.winners) || [];
      heading = won.length === 1 ? (names[won[0]] === "You" ? "You won!" : `${names[won[0]]} won`) : won.length ? `${won.map((w) => names[w]).join(" and ")} won` : "A draw";
      const why = endedWords(message.result, (s) => this.seatName(s));
      if (why && !won.length) heading = why;
      ending = why || (this.controller.ending ? this.controller.ending(message, prev) : "");
      scores = message.result ? message.result.scores : [];
    }
    const winners = new Set(round ? [] : (message.result && message.result.winners) || []);
    const rows = scores.map((score, seat) => h("tr", { class: winners.has(seat) ? "winner" : "" },
      h("th", {}, names[seat]), h("td", {}, String(score))));
    // after a round the card closes; at the end it folds down to a bar at the foot of the
    // screen ("See the board"), so the final board can be looked at, turned and tilted,
    // and unfolds again ("Results")
    const close = h("button", { type: "button", class: "primary see-board" }, round ? "Next round" : "See the board");
    close.addEventListener("click", () => {
      if (round) this.overlay.hidden = true;
      else this.fold(true);
    });
    const buttons = [close];
    if (!round) {
      buttons.push(h("a", { class: "button", href: `/replay/${this.gameId}` }, "Replay"));
      const mine = remembered()[this.gameId] || {};
      if (mine.host) buttons.push(h("button", { type: "button", class: "button rematch", onclick: () => this.rematch() }, "Rematch"));
      buttons.push(h("a", { class: "button", href: "/" }, "New game"));
    }
    const unfold = round ? null : h("button", { type: "button", class: "primary show-results", onclick: () => this.fold(false) }, "Results");
    this.showOverlay(h("div", { class: `results card${round ? " round" : " final"}`, role: "dialog", "aria-label": heading },
      h("div", { class: "results-head" }, h("h2", {}, heading), unfold),
      ending ? h("p", { class: "ending" }, ending) : null,
      h("table", { class: "scores" }, h("tbody", {}, rows)),
      h("div", { class: "actions" }, buttons)));
    close.focus();
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
    const seats = hello.seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot, name: s.name } :
      { kind: "human", name: s.name, invite: !local.has(s.seat) }));
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

  reissueButton(seat, mine) {
    const invite = mine.invites && mine.invites[seat];
    const button = h("button", { type: "button", class: "small" }, invite ? "Copy invitation" : "Reissue seat");
    button.addEventListener("click", async () => {
      let code = invite;
      if (!code) {
        if (!confirm(`Give ${this.seatName(seat)} a new invitation? Whoever holds the seat now loses it.`)) return;
        try {
          const got = await api(`/api/games/${encodeURIComponent(this.gameId)}/seats/${seat}/reissue`, { method: "POST", headers: withCredential(mine.host) });
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
      this.tell("Not connected: reconnecting, try again in a moment.", "error");
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
