// Time controls on the page (docs/protocol.md, "clock"): each seat's clock ticking from
// the server's last word, a warning colour when low, and the buttons that end a game
// without a move (resign, abort, claim against a player who is gone); the time control
// picked for a new table; on the start page, the games where it is your turn first.
// The server's clock is the truth: the page only counts down from what it was told.

import { t } from "./i18n.js";
import { api, h } from "./util.js";
import { seatsToPlay } from "./seats.js";
import { play as sound } from "./sound.js";

/** Every sentence of this module a player reads, worded by the catalogs
 * (static/locales/*.ftl, keys `clock-*`) in the page's language. */
export const WORDS = {
  get clocks() { return t("clock-clocks"); },
  get noClock() { return t("clock-none"); },
  get realtime() { return t("clock-realtime"); },
  get turnBased() { return t("clock-turn-based"); },
  get custom() { return t("clock-custom"); },
  get minutes() { return t("clock-minutes"); },
  get increment() { return t("clock-increment"); },
  days: (n) => t("clock-days", { count: n }),
  get timeControl() { return t("clock-time-control"); },
  get firstMove() { return t("clock-first-move"); },
  get waiting() { return t("clock-waiting"); },
  get low() { return t("clock-low"); },
  get resign() { return t("clock-resign"); },
  get abort() { return t("clock-abort"); },
  get claimWin() { return t("clock-claim-win"); },
  get claimBot() { return t("clock-claim-bot"); },
  get confirmResign() { return t("clock-confirm-resign"); },
  get confirmAbort() { return t("clock-confirm-abort"); },
  gone: (who, grace) => t("clock-gone", { who, grace }),
  ended: {
    time: (who) => t("clock-ended-time", { who }),
    resigned: (who) => t("clock-ended-resigned", { who }),
    gone: (who) => t("clock-ended-gone", { who }),
    aborted: () => t("clock-ended-aborted"),
  },
  zombie: (who) => t("clock-zombie", { who }),
  get undo() { return t("clock-undo"); },
  get askUndo() { return t("clock-ask-undo"); },
  get accept() { return t("clock-accept"); },
  get decline() { return t("clock-decline"); },
  undoAsked: (who, n) => t("clock-undo-asked", { who, count: n }),
  undoDeclined: (who) => t("clock-undo-declined", { who }),
  undoWithdrawn: (who) => t("clock-undo-withdrawn", { who }),
  tookBack: (who, n, ply) => t("clock-took-back", { who, count: n, ply }),
  get yourTurn() { return t("clock-your-turn"); },
};

/** Seconds below which a real-time clock shows the warning colour (and a tenth of the
 * bank, if that is more); a turn-based clock warns in its last hour. */
const LOW_SECONDS = 20;
const LOW_TURN = 3600;

/** A clock's time in words: m:ss (h:mm:ss past an hour), or days and hours. */
export function shown(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds >= 86400) {
    const days = Math.floor(seconds / 86400);
    const hours = Math.floor((seconds % 86400) / 3600);
    return t("clock-days-hours", { days, hours });
  }
  const hh = Math.floor(seconds / 3600);
  const mm = Math.floor((seconds % 3600) / 60);
  const ss = String(seconds % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/** Whether `ms` left is low for this time control. */
export function low(ms, control) {
  if (!control) return false;
  if (control.kind === "turn") return ms < LOW_TURN * 1000;
  return ms < Math.max(LOW_SECONDS, control.bank / 10) * 1000;
}

/** Words for a game ended by no move, or null (`result.ended`). */
export function endedWords(result, seatName) {
  if (!result || !result.ended || !WORDS.ended[result.ended]) return null;
  return WORDS.ended[result.ended](seatName(result.seat));
}

/** The clocks and the end-of-game buttons of the play page. `send(message)` sends for
 * the seat shown; `seatName(seat)` names a seat. */
export class ClockPanel {
  constructor(send, seatName) {
    this.send = send;
    this.seatName = seatName;
    this.root = h("div", { class: "clocks", hidden: true, "aria-label": WORDS.clocks });
    this.faces = h("ul", { class: "clock-faces" });
    this.notice = h("p", { class: "clock-notice", role: "status" });
    this.buttons = h("div", { class: "clock-buttons" });
    this.root.append(this.faces, this.notice, this.buttons);
    this.message = null;
    this.seat = null;
    this.received = 0;
    this.away = new Map(); // seat -> when this page saw it go (performance.now())
    this.timer = null;
    this.people = [];
    // false where no move can be taken back (a rated table, a game of rolls: `hello`)
    this.takebacks = true;
    this.asking = null; // a take-back request waiting for answers (an "undo" message)
    this.said = "";
  }

  /** A take-back request changed (an `undo` message from the server). */
  asked(message) {
    const ended = message.event === "declined" || message.event === "withdrawn";
    this.asking = ended ? null : message;
    this.said = message.event === "declined" ? WORDS.undoDeclined(this.seatName(message.seat))
      : message.event === "withdrawn" ? WORDS.undoWithdrawn(this.seatName(message.seat)) : "";
    if (this.message) this.draw();
  }

  /** The seats played by people (`hello.seats`, or a seat handed to the bot since). */
  seats(seats) {
    this.people = seats.filter((s) => s.kind === "human").map((s) => s.seat);
    if (this.message) this.draw();
  }

  /** A new state (`message`) for the seat shown (`seat`, null for a spectator). */
  update(message, seat) {
    this.message = message;
    this.seat = seat;
    this.received = performance.now();
    this.presence(message.online || []);
    this.draw();
    clearInterval(this.timer);
    if (message.clock && message.clock.running !== null && !message.over) {
      this.timer = setInterval(() => this.tick(), 250);
    }
  }

  /** The seats with a page: one gone is timed from now (for the claim button). */
  presence(online) {
    const here = new Set(online);
    for (const seat of [...this.away.keys()]) if (here.has(seat)) this.away.delete(seat);
    const players = this.message ? this.message.clock ? this.message.clock.left_ms.length : 0 : 0;
    for (let s = 0; s < players; s++) if (!here.has(s) && !this.away.has(s)) this.away.set(s, performance.now());
    if (this.message) this.message.online = online;
  }

  /** Each clock as it stands now. */
  left(seat) {
    const clock = this.message.clock;
    const ms = clock.left_ms[seat];
    return clock.running === seat ? ms - (performance.now() - this.received) : ms;
  }

  tick() {
    if (!this.message) return;
    for (const face of this.faces.children) {
      const seat = Number(face.dataset.seat);
      const ms = this.left(seat);
      face.querySelector(".time").textContent = shown(ms);
      const warn = this.message.clock.running === seat && low(ms, this.message.clock.control);
      face.classList.toggle("low", warn);
      // the seat shown here is low on time: a sound, once a turn (if sounds are on)
      if (warn && seat === this.seat && !this.message.over && this.warned !== this.message.ply) {
        this.warned = this.message.ply;
        sound("low");
      }
    }
    this.drawButtons();
  }

  draw() {
    const message = this.message;
    const clock = message.clock;
    this.root.hidden = false;
    if (clock) {
      this.faces.replaceChildren(...clock.left_ms.map((_ms, seat) => {
        const running = clock.running === seat && !message.over;
        const waiting = !running && message.to_move === seat && !message.over;
        return h("li", { class: `clock-face${running ? " running" : ""}${seat === this.seat ? " mine" : ""}`, dataset: { seat } },
          h("span", { class: "who" }, this.seatName(seat)),
          h("span", { class: "time", role: "timer", "aria-live": "off" }, shown(this.left(seat))),
          waiting && clock.control.kind === "realtime" ? h("small", {}, WORDS.firstMove) : null);
      }));
      this.faces.setAttribute("title", clock.describe);
    } else {
      this.faces.replaceChildren();
    }
    const back = (message.takebacks || []).slice(-1)[0];
    if (this.asking && this.asking.ply !== undefined && this.asking.ply !== message.ply) this.asking = null;
    if (this.asking && this.asking.ply === undefined) this.asking.ply = message.ply;
    this.notice.textContent = message.over ? endedWords(message.result, this.seatName) || ""
      : this.asking ? WORDS.undoAsked(this.seatName(this.asking.asker), this.asking.moves)
      : this.said || (back ? WORDS.tookBack(this.seatName(back.seat), back.moves, back.ply) : "");
    this.tick();
    this.drawButtons();
  }

  /** Resign and abort while the game is played; claim when the seat to move has been
   * away longer than the grace on its real-time turn. */
  drawButtons() {
    const message = this.message;
    // a seat handed to the bot (its player resigned or ran out of time) has no buttons:
    // the server refuses its resign, take-backs and claims
    const mine = this.seat !== null && this.seat !== undefined && !message.over && this.people.includes(this.seat);
    const buttons = [];
    if (mine) {
      const players = message.clock ? message.clock.left_ms.length : null;
      const moved = new Set((message.log || []).map((entry) => entry.seat));
      const everyone = this.people.every((s) => moved.has(s));
      if (!everyone && message.ply < 200) {
        buttons.push(h("button", { type: "button", class: "abort", onclick: () => this.confirm(WORDS.confirmAbort, { type: "abort" }) }, WORDS.abort));
      }
      const log = message.log || [];
      let last = log.length - 1;
      while (last >= 0 && log[last].seat !== this.seat) last--;
      const people = new Set(this.people);
      const since = last >= 0 ? log.slice(last + 1) : [];
      // none where the server would refuse every take-back (`takebacks`)
      const takeable = this.takebacks && last >= 0;
      if (takeable && since.every((e) => !people.has(e.seat)) && (message.to_move === this.seat || !people.has(message.to_move))) {
        buttons.push(h("button", { type: "button", class: "undo", onclick: () => this.send({ type: "undo" }) }, WORDS.undo));
      } else if (takeable && !this.asking) {
        buttons.push(h("button", { type: "button", class: "undo-ask", onclick: () => this.send({ type: "undo-ask" }) }, WORDS.askUndo));
      }
      if (this.asking && (this.asking.waiting || []).includes(this.seat)) {
        buttons.unshift(
          h("button", { type: "button", class: "primary undo-accept", onclick: () => this.send({ type: "undo-accept" }) }, WORDS.accept),
          h("button", { type: "button", class: "undo-decline", onclick: () => this.send({ type: "undo-decline" }) }, WORDS.decline));
      }
      buttons.push(h("button", { type: "button", class: "resign", onclick: () => this.confirm(WORDS.confirmResign, { type: "resign" }) }, WORDS.resign));
      const clock = message.clock;
      const absent = clock ? clock.running : null;
      if (clock && clock.grace_ms && absent !== null && absent !== this.seat && this.away.has(absent) &&
          performance.now() - this.away.get(absent) >= clock.grace_ms) {
        const grace = Math.round(clock.grace_ms / 1000);
        buttons.unshift(h("p", { class: "gone" }, WORDS.gone(this.seatName(absent), grace)));
        if (players === 2) buttons.push(h("button", { type: "button", class: "primary claim", onclick: () => this.send({ type: "claim", outcome: "win" }) }, WORDS.claimWin));
        buttons.push(h("button", { type: "button", class: "claim", onclick: () => this.send({ type: "claim", outcome: "bot" }) }, WORDS.claimBot));
      }
    }
    const key = buttons.map((b) => b.className + b.textContent).join("|");
    if (key !== this.shownButtons) {
      this.shownButtons = key;
      this.buttons.replaceChildren(...buttons);
    }
  }

  confirm(question, message) {
    if (window.confirm(question)) this.send(message);
  }
}

/** The time-control field of the new-table form; `value()` is the request's `clock`. */
export function timeControlField() {
  const select = h("select", { id: "time-control" },
    h("option", { value: "none" }, WORDS.noClock),
    h("optgroup", { label: WORDS.realtime }, ["3+2", "10+5", "30+0"].map((p) => h("option", { value: `rt:${p}` }, p)),
      h("option", { value: "rt:custom" }, WORDS.custom)),
    h("optgroup", { label: WORDS.turnBased }, [1, 3, 7].map((d) => h("option", { value: `turn:${d}` }, WORDS.days(d)))));
  const minutes = h("input", { type: "number", min: "0.25", step: "0.25", value: "5", id: "clock-minutes", "aria-label": WORDS.minutes });
  const increment = h("input", { type: "number", min: "0", step: "1", value: "3", id: "clock-increment", "aria-label": WORDS.increment });
  const custom = h("span", { class: "clock-custom", hidden: true },
    h("label", { for: "clock-minutes" }, WORDS.minutes), minutes,
    h("label", { for: "clock-increment" }, WORDS.increment), increment);
  select.addEventListener("change", () => { custom.hidden = select.value !== "rt:custom"; });
  const element = h("div", { class: "field field-clock" }, h("label", { for: "time-control" }, WORDS.timeControl), select, custom);
  const value = () => {
    const [kind, what] = select.value.split(":");
    if (kind === "rt" && what === "custom") return { kind: "realtime", minutes: Number(minutes.value), increment: Number(increment.value) };
    if (kind === "rt") return { kind: "realtime", preset: what };
    if (kind === "turn") return { kind: "turn", days: Number(what) };
    return { kind: "none" };
  };
  return { element, value };
}

/** The games in play, those where it is this browser's seat's turn first (each asked of
 * `/api/games/{id}/turn`); the set of those games' ids. */
export async function yourTurnFirst(found, mine) {
  const yours = new Set();
  await Promise.all(found.map(async (g) => {
    const tokens = mine[g.id] && mine[g.id].tokens ? Object.keys(mine[g.id].tokens).map(Number) : [];
    const held = seatsToPlay(g, tokens);
    if (g.status !== "playing" || !held.length) return;
    try {
      const turn = await api(`/api/games/${encodeURIComponent(g.id)}/turn`);
      if (turn.to_move !== null && held.includes(turn.to_move)) yours.add(g.id);
    } catch {
      // a game that cannot be read is listed where it was
    }
  }));
  const sorted = [...found.filter((g) => yours.has(g.id)), ...found.filter((g) => !yours.has(g.id))];
  return { sorted, yours };
}
