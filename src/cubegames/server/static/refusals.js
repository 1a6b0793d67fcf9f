// A refused move told as a sentence for a player, never in the engine's words: the
// server's own refusals by their code, the rules' reasons by their code and parameters
// from each game's table below, and a plain sentence for anything else. Every sentence is
// in a table here, so the page can be worded in another language by translating the
// tables. No DOM here: tests run it under Node.

/** The server's refusals that are not the rules' own reasons, by code. */
const CODES = {
  turn: "It is not your turn yet.",
  stale: "The game moved on before your move arrived: look again and retry.",
  over: "The game is over.",
  "bot-seat": "A bot plays this seat.",
  spectator: "You are watching this game: open it with your seat's link to play.",
  storage: "Your move could not be saved: reload the page and try again.",
  "slow-down": "Too many moves at once: wait a moment, then try again.",
  abandoned: "This game was abandoned: no one moved in it for a long time.",
  reissued: "The host gave this seat a new invitation: this page no longer plays it.",
  late: "Your time ran out before this move arrived, so it was not played.",
  paused: "The next round starts when everyone has seen how this one ended.",
  "abort-late": "Every player has moved: the game can no longer be aborted.",
  "claim-none": "There is nothing to claim: only a real-time player who is away on their own turn can be claimed against.",
  "claim-early": "That player may still come back: you can claim once their grace time is over.",
  "claim-unavailable": "This server cannot tell here whether a player is away: their clock runs on instead.",
  "undo-none": "There is no move to take back.",
  "undo-passed": "The turn has passed to another player: ask them to agree to take it back.",
  "undo-unavailable": "A take-back across turns cannot be agreed on this server.",
  "undo-chance": "A draw or a roll came since that move, so it can no longer be taken back.",
  "undo-rated": "A rated game's moves cannot be taken back.",
  chat: "That chat line was not sent: it is blank, too long, or holds an invisible character.",
  "chat-slow": "You are chatting too fast: wait a moment.",
  "chat-closed": "The host closed the spectators' chat.",
};

/** A CUBED colour's name from its letter (the game's palette, in `info`). */
const colour = (info, letter) => (info && info.palette && info.palette[letter] ? info.palette[letter].name : "another colour");

/** The rules' reasons, per game, by the code the server sends with them (`refusal.code`;
 * docs/protocol.md): a sentence, or a function of the reason's parameters and the game's
 * `info`. Every sentence a player reads about a refused move is in this table (and CODES). */
export const RULES = {
  cubed: {
    occupied: "That cell already holds a piece.",
    "blocking-early": "A piece with a black side may go down only once 3 pieces are on the table.",
    "blocking-mismatch": (p, info) =>
      `A piece with a black side must match exactly, and here its ${colour(info, p.mine)} side meets ${colour(info, p.theirs)}.`,
    "dead-cell": "A black side may touch nothing, and here something would touch one.",
    "black-contact": "A black side may touch nothing, and here something would touch one.",
    "first-at-origin": "The first piece goes in the middle of the table.",
    "no-touch-first": "The piece must touch the piece already on the table.",
    "too-few-touches": "From the third piece on, a piece must touch at least two others.",
    mismatch: (p, info) =>
      `The colours do not match: the ${p.slot} of your piece is ${colour(info, p.mine)}, the piece beside it is ${colour(info, p.theirs)}.`,
    "too-few-matches": "The colours do not match: touching sides must share a colour.",
    flipped: "A piece may be turned but not flipped over.",
    "not-in-hand": "That piece is not in your hand.",
    "not-drawn": "Keep one of the pieces you just drew.",
    "keep-first": "First choose which of the drawn pieces to keep.",
    "give-first": "You filled a gap: give a piece to another player, or give nothing.",
    "bridge-first": "You bridged a gap: lay one more piece, or pass.",
    "drawn-already": "You have already drawn this turn: lay a piece or pass.",
    "bag-empty": "The bag is empty: there is nothing left to draw.",
    "bag-short": "There are not that many pieces left in the bag.",
    "draw3-count": "You may draw 1, 2 or 3 pieces.",
    "pass-before-draw": "Draw a piece first: you may pass only after drawing, or once the bag is empty.",
    "solo-draw": "In solo play you may draw only when no piece fits.",
    "solo-no-pass": "In solo play there is no passing.",
    "give-self": "You cannot give a piece to yourself.",
    "no-seat": "There is no such player.",
    "no-draw3": "Drawing three is a variant this game does not use.",
    "unknown-colours": "This set has no piece in those colours.",
    "nothing-now": "That is not something you can do now.",
  },
  unstackable: {
    occupied: "A cube is already there.",
    float: "Nothing would hold that cube up: it needs a cube under it.",
    "not-next": "On the bag, a new cube must go next to the cubes already there.",
    "under-bag": "Nothing goes under the bag.",
    "first-in-corner": "The first cube goes in the corner of the bag.",
    "too-big": "The cube may never grow beyond 4 wide, 4 deep or 4 tall.",
    outside: "That is outside the cube.",
    "none-left": (p) => `There are no ${p.colour} cubes left.`,
    "turn-colour": (p) => `This turn is ${p.colour}: stack ${p.left} more ${p.colour} cube${p.left === 1 ? "" : "s"}.`,
    "exact-count": (p) => `A ${p.colour} turn stacks exactly ${p.count} cubes: keep going.`,
    "end-empty": "Stack at least one cube before you end your turn.",
    built: "The cube is built: now take cubes out.",
    building: "The cube is still being built: stack a cube.",
    empty: "There is no cube there to take.",
    "holds-up": "That cube holds up the one above it: it cannot be pulled out.",
    buried: "That cube is too buried: a cube comes out only with 3 of its faces open.",
  },
  stakd: {
    occupied: "That spot is taken.",
    overhang: "A piece must lie wholly on pieces of the layer below.",
    bombed: "Nothing more may go on a piece that a BLUE BOMBER has capped.",
    carries: (p) => `The piece under it already carries a ${p.piece}.`,
    identical: "A piece may not cover exactly the same spots as the piece under it.",
    "one-bomber": "This layer already has its BLUE BOMBER: one per layer.",
    alone: "The piece must touch another piece of its layer, side by side.",
    "none-left": (p) => `You have no ${p.piece} left.`,
    "base-touch": "A BASE must touch the BASEs already laid along at least two of its spots.",
    "bases-first": "Lay all the BASEs first.",
    "bases-low": "BASEs go on the bottom layer, and only BASEs go there.",
    "first-base": "The first BASE goes on the middle spot.",
    closed: "That layer is closed: a higher layer has started.",
    "skip-layer": "Layers are built from the bottom up.",
    "too-early": "The next layer cannot start yet: the layer below needs more pieces first.",
    "bomber-opens": "A new layer never starts with a BLUE BOMBER.",
    "uni-opens": "A new layer starts with a UNI only when you hold nothing else to start it.",
    shape: "The piece does not have that shape.",
    reach: "That is too far from the middle of the table.",
  },
  cubes: {
    "not-refereed": "The dice are rolled for you: press Roll the dice.",
    "face-count": "That is not a roll these dice can show.",
    "no-face": "That is not a roll these dice can show.",
    "only-roll": "The only move is to roll the dice.",
  },
};

export const UNKNOWN_MOVE = "That is not a move this game knows: “Moves in notation” shows what to write.";
export const NOT_ALLOWED = "The rules do not allow that move here.";
export const NOT_TAKEN = "The server could not take that. If it happens again, reload the page.";

/** `message` (an error from the server: {code, message, refusal}) as a sentence for a
 * player: a rule's reason from RULES by its code (`refusal`, which the server sends with
 * every refused move), never from the engine's English; `info` is the game's fixed facts
 * from the server's hello (CUBED's colour names). */
export function friendly(game, message, info = null) {
  if (CODES[message.code]) return CODES[message.code];
  if (message.code !== "illegal") return NOT_TAKEN;
  const refusal = message.refusal || {};
  if (refusal.code === "unreadable" || refusal.code === "not-a-move") return UNKNOWN_MOVE;
  if (CODES[refusal.code]) return CODES[refusal.code]; // the game is over, another's turn
  const text = (RULES[game] || {})[refusal.code];
  if (text === undefined) return NOT_ALLOWED;
  return typeof text === "function" ? text(refusal.params || {}, info) : text;
}
