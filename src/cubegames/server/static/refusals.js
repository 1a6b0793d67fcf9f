// A refused move told as a sentence for a player, never in the engine's words: the
// server's own refusals by their code (`refusal-CODE` in the catalogs), the rules' reasons
// by their game, code and parameters (`refusal-GAME-CODE`), and a plain sentence for
// anything else. The words are in the catalogs (static/locales/*.ftl), in the page's
// language; this module only says which parameters each reason's words need. No DOM here:
// tests run it under Node.

import { has, t, tOr } from "./i18n.js";

/** The server's refusals that are not the rules' own reasons (each is `refusal-CODE`). */
export const CODES = [
  "turn", "stale", "over", "bot-seat", "spectator", "storage", "slow-down", "abandoned",
  "reissued", "late", "paused", "abort-late", "claim-none", "claim-early",
  "undo-none", "undo-passed", "undo-chance", "auth", "bot",
  "undo-rated", "chat-slow", "chat-closed", "chat-blank", "chat-long", "chat-hidden",
];

/** A CUBED colour's name from its letter (the game's palette, in `info`), in the page's
 * language. */
function colour(info, letter) {
  const name = info && info.palette && info.palette[letter] ? info.palette[letter].name : null;
  if (!name) return t("refusal-another-colour");
  return tOr(`cubed-colour-${name.replaceAll(" ", "-")}`, name);
}

/** An Unstackable colour's name (the rules give its English name) in the page's language,
 * by its letter in the game's palette. */
function cubeColour(info, name) {
  const palette = (info && info.palette) || {};
  const letter = Object.keys(palette).find((c) => palette[c].name === name);
  return letter ? tOr(`unst-colour-${letter}`, name) : name;
}

/** The parameters of the rules' reasons whose words need more than the reason gives
 * (colours by name in the page's language), per game and code; every other reason's
 * parameters go to its message as they are. */
const PARAMS = {
  cubed: {
    "blocking-mismatch": (p, info) => ({ mine: colour(info, p.mine), theirs: colour(info, p.theirs) }),
    mismatch: (p, info) => ({ slot: p.slot, mine: colour(info, p.mine), theirs: colour(info, p.theirs) }),
  },
  unstackable: {
    "none-left": (p, info) => ({ colour: cubeColour(info, p.colour) }),
    "turn-colour": (p, info) => ({ colour: cubeColour(info, p.colour), left: p.left }),
    "exact-count": (p, info) => ({ colour: cubeColour(info, p.colour), count: p.count }),
  },
};

/** The catalog key of a rule's reason of `game` (null when the catalogs have no words
 * for it). */
export function ruleKey(game, code) {
  const key = `refusal-${game}-${code}`;
  return has(key) ? key : null;
}

/** `message` (an error from the server: {code, message, refusal}) as a sentence for a
 * player: a rule's reason by its code (`refusal`, which the server sends with every
 * refused move), never from the engine's English; `info` is the game's fixed facts from
 * the server's hello (CUBED's colour names). */
export function friendly(game, message, info = null) {
  if (CODES.includes(message.code)) return t(`refusal-${message.code}`);
  if (message.code !== "illegal") return t("refusal-not-taken");
  const refusal = message.refusal || {};
  if (refusal.code === "unreadable" || refusal.code === "not-a-move") return t("refusal-unknown-move");
  if (CODES.includes(refusal.code)) return t(`refusal-${refusal.code}`); // the game is over, another's turn
  const key = ruleKey(game, refusal.code);
  if (key === null) return t("refusal-not-allowed");
  const params = refusal.params || {};
  const made = (PARAMS[game] || {})[refusal.code];
  return t(key, made ? made(params, info) : params);
}
