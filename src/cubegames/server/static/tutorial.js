// A first game that teaches: the start page's "Learn by playing" buttons, /learn/GAME (which
// makes a tutorial game on the server and opens it), and the guide over the play page. The
// game is a real game: every move, the learner's and the ones played for the other seats,
// is checked by the server with the rules. The script is the game's own
// (games/<id>/tutorial.json, served by /api/tutorials/<id>): one step a move; the guide
// lights the learner's move and says why in one sentence, plays the other seats' steps
// through their own connections, then hands those seats to the bot for a free game.

import { api, h, playLink, remember, remembered, TITLES } from "./util.js";
import { has, t } from "./i18n.js";
import { Link } from "./protocol.js";
import { tip } from "./draw.js";
import { tableFor } from "./play.js";
import { tutorialLights as genericLights } from "./games/generic.js";

const LIT = "tutorial-lit";
/** ms the learner sees a step of another seat announced before it is played */
const THEIR_PAUSE = 900;

// -- the start page -----------------------------------------------------------------------

/** The start page's section: a button for each game with a tutorial. */
export function tutorialsSection() {
  const list = h("div", { class: "tutorial-games" });
  const section = h("section", { class: "card tutorials" },
    h("h2", {}, t("tutorial-start-heading")),
    h("p", {}, t("tutorial-start-lead")),
    list);
  api("/api/tutorials").then((found) => {
    // every button says "Learn X" in the page's words; a plug-in game's title (its
    // author's English, as its tutorial is) is set apart in its own language
    list.replaceChildren(...found.games.map((game) => {
      const title = TITLES[game] || game;
      const own = has(`pitch-${game}`);
      const [before, after = ""] = t("tutorial-start-button", { game: "\u0000" }).split("\u0000");
      return h("a", { class: "button", href: `/learn/${encodeURIComponent(game)}`, "data-game": game },
        before, own ? title : h("span", { lang: "en" }, title), after);
    }));
    section.hidden = !found.games.length;
  }).catch(() => { section.hidden = true; });
  return section;
}

/** /learn/GAME: make the tutorial game and open it. This browser keeps the learner's
 * credential as its own seat, and the other seats' apart, for the guide to play. */
export async function learnPage(root, game) {
  root.replaceChildren(h("p", { class: "muted" }, t("tutorial-making")));
  try {
    const made = await api(`/api/tutorials/${encodeURIComponent(game)}`, { method: "POST" });
    const learner = made.tutorial.learner;
    const tokens = Object.fromEntries(made.seats.map((s) => [s.seat, s.token]));
    const others = Object.fromEntries(Object.entries(tokens).filter(([seat]) => Number(seat) !== learner));
    remember(made.id, { game: made.game, tokens: { [learner]: tokens[learner] }, here: [learner], host: made.host,
      tutorial: { game: made.game, tokens: others }, created: new Date().toISOString() });
    location.replace(playLink(made.id));
  } catch (err) {
    root.replaceChildren(h("section", { class: "card notice" },
      h("p", { class: "error" }, t("tutorial-failed", { reason: err.message })),
      h("p", {}, h("a", { href: "/" }, t("replay-back")))));
  }
}

// -- the guide ----------------------------------------------------------------------------

/** The same move in one spelling: STAKD's nodes are a set, written in any order. */
export function sameMove(a, b) {
  const norm = (m) => {
    const at = m.indexOf(":");
    if (!m.includes("@") || at < 0) return m.trim();
    return `${m.slice(0, at)}:${m.slice(at + 1).split("+").sort().join("+")}`;
  };
  return norm(a) === norm(b);
}

/** Start the guide on the play page of `gameId` if this browser made it as a tutorial. */
export async function guide(gameId) {
  const mine = remembered()[gameId];
  const page = window.cubegamesPage;
  if (!mine || !mine.tutorial || !page) return null;
  let script;
  try {
    script = await api(`/api/tutorials/${encodeURIComponent(mine.tutorial.game)}`);
  } catch {
    return null;
  }
  const guide = new Guide(page, gameId, script, mine);
  window.cubegamesTutorial = guide; // for the curious, and for tests
  return guide;
}

class Guide {
  constructor(page, gameId, script, mine) {
    this.page = page;
    this.gameId = gameId;
    this.script = script;
    this.host = mine.host;
    this.freed = false;
    this.step = null;
    // what to light for a move (the elements of the table a person uses to make it), the
    // layers view and the hint for a near miss: the game's page module says (static/games)
    this.table = tableFor(script.game);
    this.lights = this.table.tutorialLights || genericLights;
    this.build();
    // the other seats: one connection each, playing their steps of the script
    const handler = {
      hello: () => {},
      state: () => this.theirTurn(),
      other: () => {},
      connection: () => {},
      fatal: () => {},
    };
    this.theirs = Object.values(mine.tutorial.tokens || {}).map((token) => new Link(gameId, token, handler));
    // a move the learner makes that is not the step's gets a hint instead of being played
    const send = page.send.bind(page);
    page.send = (move, anchor) => this.sending(move, anchor, send);
    const draw = page.draw.bind(page);
    page.draw = async (message) => {
      await draw(message);
      this.update();
    };
    new MutationObserver(() => this.relight()).observe(page.board.parentElement, { childList: true, subtree: true });
    if (page.current) this.update();
  }

  build() {
    this.counter = h("span", { class: "tutorial-count" });
    this.before = h("p", { class: "tutorial-before" });
    this.text = h("p", { class: "tutorial-text" });
    this.panel = h("section", { class: "tutorial-panel", "aria-live": "polite" },
      h("h2", {}, h("span", {}, t("tutorial-heading")), " ", this.counter),
      this.before, this.text);
    // on a wide screen in the side panel, beside the board (which keeps its place, the
    // hand in sight); on a narrow one under the banner, above the board
    const wide = window.matchMedia("(min-width: 900px)");
    const place = () => (wide.matches ? this.page.side.prepend(this.panel) : this.page.banner.after(this.panel));
    place();
    wide.addEventListener("change", place);
    // the other seats are the guide's, then the bot's: nothing to invite anyone to
    this.page.banner.closest(".play").classList.add("in-tutorial");
  }

  /** A sentence of the script in the page's language; a plug-in game's own words (which
   * the catalogs do not hold) as its script gives them, marked as English. */
  words(key, text, args = {}) {
    return key && has(key) ? t(key, args) : text || "";
  }

  say(node, key, text, args = {}) {
    node.textContent = this.words(key, text, args);
    if (key && has(key)) node.removeAttribute("lang");
    else node.setAttribute("lang", "en");
  }

  /** The step the game is at (null before the script's first move or after its last). */
  at(message) {
    const index = message.ply - this.script.from;
    return index >= 0 && index < this.script.steps.length ? index : null;
  }

  nameArgs() {
    const other = this.script.steps.find((s) => s.seat !== this.script.learner);
    return { name: this.page.seatName(other ? other.seat : 1 - this.script.learner) };
  }

  update() {
    const message = this.page.current;
    if (!message) return;
    const index = this.at(message);
    const steps = this.script.steps;
    this.step = index === null ? null : steps[index];
    if (index !== null) {
      this.counter.textContent = t("tutorial-step-of", { step: index + 1, steps: steps.length });
      // the other seat's last step stays in sight above the learner's
      const prev = index > 0 ? steps[index - 1] : null;
      if (prev && prev.seat !== this.script.learner && this.step.seat === this.script.learner) this.say(this.before, prev.say, prev.text, this.nameArgs());
      else if (index === 0) this.say(this.before, this.script.intro, this.script.intro_text);
      else this.before.textContent = "";
      this.say(this.text, this.step.say, this.step.text, this.nameArgs());
      this.panel.dataset.step = String(index);
      this.panel.classList.toggle("theirs", this.step.seat !== this.script.learner);
      this.layers();
      this.theirTurn();
    } else if (message.ply >= this.script.from + steps.length) {
      this.panel.dataset.step = "free";
      this.panel.classList.remove("theirs");
      this.counter.textContent = "";
      if (message.over) {
        this.before.textContent = "";
        this.text.replaceChildren(t("tutorial-done"), " ", h("a", { href: "/" }, t("tutorial-own-game")));
        this.text.removeAttribute("lang");
        this.panel.dataset.step = "done";
      } else {
        this.before.textContent = "";
        this.say(this.text, this.script.free, this.script.free_text);
      }
      this.free();
    }
    this.relight();
  }

  /** A game whose page module asks for it (`tutorialOnLayers`: Unstackable, STAKD) is
   * guided on its layers seen from above, where each spot can be lit. */
  layers() {
    if (this.switched || !this.table.tutorialOnLayers) return;
    const button = [...this.page.board.parentElement.querySelectorAll("button.view-button")].find((b) => b.textContent.trim() === t("view-layers"));
    if (!button) return;
    this.switched = true;
    if (button.getAttribute("aria-pressed") !== "true") button.click();
  }

  relight() {
    const root = this.page.board.parentElement;
    for (const el of root.querySelectorAll(`.${LIT}`)) el.classList.remove(LIT);
    const message = this.page.current;
    if (!this.step || !message || this.step.seat !== this.script.learner || message.to_move !== this.script.learner) return;
    let found = [];
    try {
      found = this.lights(this.step.move, message, root);
    } catch {
      found = [];
    }
    for (const el of found) if (el) el.classList.add(LIT);
  }

  /** The learner's move: the step's is played; another gets a kind hint and is not. */
  sending(move, anchor, send) {
    const step = this.step;
    const message = this.page.current;
    if (!step || !message || step.seat !== this.script.learner || sameMove(move, step.move)) {
      send(move, anchor);
      return;
    }
    const hint = this.hint(move, step);
    tip(anchor && anchor.isConnected ? anchor : this.page.board, hint, "tutorial-hint");
    this.page.tell(hint, "info");
    // the table forgets the half-made move (a chosen piece stays chosen)
    Promise.resolve(this.page.controller.render(message, null)).then(() => this.relight());
  }

  /** A kind word for a move that is not the step's: the game's own hint if its page module
   * has one for this move (`tutorialHint`: CUBED's right piece on the right cell turned
   * otherwise says how many turns it needs); anything else repeats the step's why. */
  hint(move, step) {
    const own = this.table.tutorialHint ? this.table.tutorialHint(move, step.move) : null;
    if (own) return own;
    return t("tutorial-wrong", { why: this.words(step.say, step.text, this.nameArgs()) });
  }

  /** Play the other seat's step through its own connection, once the learner has seen it. */
  theirTurn() {
    const message = this.page.current;
    const step = this.step;
    if (!message || !step || step.seat === this.script.learner || message.to_move !== step.seat) return;
    const link = this.theirs.find((l) => l.seat === step.seat && l.latest && l.latest.ply === message.ply);
    if (!link || this.playing === message.ply) return;
    this.playing = message.ply;
    setTimeout(() => {
      if (!link.send({ type: "move", move: step.move, ply: message.ply })) this.playing = null;
    }, THEIR_PAUSE);
  }

  /** The guided moves are over: the other seats go to the bot (once), for a free game. */
  async free() {
    if (this.freed) return;
    this.freed = true;
    for (const link of this.theirs) link.close();
    this.theirs = [];
    if (this.page.current && this.page.current.over) return;
    try {
      await api(`/api/tutorials/${encodeURIComponent(this.script.game)}/${encodeURIComponent(this.gameId)}/free`, {
        method: "POST", headers: { Authorization: `Bearer ${this.host}` } });
    } catch (err) {
      this.page.tell(err.message, "error");
    }
  }
}
