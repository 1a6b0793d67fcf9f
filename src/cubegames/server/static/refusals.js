// A refused move told as a sentence for a player, never in the engine's words: the
// server's own refusals by their code (`refusal-CODE` in the catalogs), the rules' reasons
// by their game, code and parameters (`refusal-GAME-CODE`), and a plain sentence for
// anything else. The words are in the catalogs (static/locales/*.ftl), in the page's
// language. The parameters of a rule's reason go to its words as they are, unless the
// game's page module (static/games/<id>.js) exports `refusalParams`, which turns those of
// some codes into words (colours by name). No DOM here: tests run it under Node.

import { has, t } from "./i18n.js";

/** The server's refusals that are not the rules' own reasons (each is `refusal-CODE`). */
export const CODES = [
  "turn", "stale", "over", "bot-seat", "spectator", "storage", "slow-down", "abandoned",
  "reissued", "late", "paused", "abort-late", "claim-none", "claim-early",
  "undo-none", "undo-passed", "undo-chance", "auth", "bot",
  "undo-rated", "undo-many", "undo-hidden", "chat-slow", "chat-closed", "chat-blank", "chat-long", "chat-hidden",
];

/** The catalog key of a rule's reason of `game` (null when the catalogs have no words
 * for it). */
export function ruleKey(game, code) {
  const key = `refusal-${game}-${code}`;
  return has(key) ? key : null;
}

/** `message` (an error from the server: {code, message, refusal}) as a sentence for a
 * player: a rule's reason by its code (`refusal`, which the server sends with every
 * refused move), never from the engine's English; `info` is the game's fixed facts from
 * the server's hello (its palette's colour names), `params` the game's page module's
 * `refusalParams` (codes to a function of the reason's parameters and `info`; null: the
 * parameters as they are). */
export function friendly(game, message, info = null, params = null) {
  if (CODES.includes(message.code)) return t(`refusal-${message.code}`);
  if (message.code !== "illegal") return t("refusal-not-taken");
  const refusal = message.refusal || {};
  if (refusal.code === "unreadable" || refusal.code === "not-a-move") return t("refusal-unknown-move");
  if (CODES.includes(refusal.code)) return t(`refusal-${refusal.code}`); // the game is over, another's turn
  const key = ruleKey(game, refusal.code);
  if (key === null) return t("refusal-not-allowed");
  const given = refusal.params || {};
  const made = params && Object.hasOwn(params, refusal.code) ? params[refusal.code] : null;
  return t(key, made ? made(given, info) : given);
}

/** Why the server closed a page's connection for good (close `code`: docs/protocol.md),
 * as a sentence of the catalogs: by the code of the error it sent last (`last`, or null)
 * where that has words (a seat reissued), else by the close code; never the server's
 * English `message`, which is for programs. */
export function closedWords(code, last = null) {
  if (last && CODES.includes(last.code)) return t(`refusal-${last.code}`);
  if (code === 4404) return t("closed-no-game");
  if (code === 4403) return t("closed-no-seat");
  if (code === 4401) return t("closed-no-auth");
  if (code === 4500) return t("closed-broken");
  return t("closed-other", { code: String(code) });
}
