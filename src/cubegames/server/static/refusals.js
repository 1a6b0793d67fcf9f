// A refused move told as a sentence for a player, never in the engine's words: the
// server's own refusals by their code, the rules' reasons by each game's table below
// (tried in turn on the reason the server gives: a text, or a function of the match),
// and a plain sentence for anything else. No DOM here: tests run it under Node.

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
};

/** A CUBED colour's name from its letter (the game's palette, in `info`). */
const colour = (info, letter) => (info && info.palette && info.palette[letter] ? info.palette[letter].name : "another colour");

/** The rules' reasons, per game (a function gets the match and the game's `info`). */
export const RULES = {
  cubed: [
    [/is already taken/, "That cell already holds a piece."],
    [/blocking piece may be played only once/, "A piece with a black side may go down only once 3 pieces are on the table."],
    [/blocking piece's colour must match exactly: its (\w) meets (\w)/, (m, info) =>
      `A piece with a black side must match exactly, and here its ${colour(info, m[1])} side meets ${colour(info, m[2])}.`],
    [/blocking piece's colour must match exactly/, "A piece with a black side must match its neighbours' colours exactly."],
    [/is dead: it touches a black side|contact with a black side/, "A black side may touch nothing, and here something would touch one."],
    [/the first piece goes on/, "The first piece goes in the middle of the table."],
    [/does not touch the piece on the table/, "The piece must touch the piece already on the table."],
    [/a piece must touch 2/, "From the third piece on, a piece must touch at least two others."],
    [/contacts match: your (top|left|right) (\w) meets (\w)/, (m, info) =>
      `The colours do not match: the ${m[1]} of your piece is ${colour(info, m[2])}, the piece beside it is ${colour(info, m[3])}.`],
    [/contacts match/, "The colours do not match: touching sides must share a colour."],
    [/a piece cannot be flipped/, "A piece may be turned but not flipped over."],
    [/no piece in your hand shows|is not in your hand/, "That piece is not in your hand."],
    [/is not among the pieces you drew/, "Keep one of the pieces you just drew."],
    [/you drew for draw3/, "First choose which of the drawn pieces to keep."],
    [/you filled a void/, "You filled a gap: give a piece to another player, or give nothing."],
    [/you bridged a gap/, "You bridged a gap: lay one more piece, or pass."],
    [/you have already drawn|draw3 replaces the whole turn/, "You have already drawn this turn: lay a piece or pass."],
    [/the bag is empty/, "The bag is empty: there is nothing left to draw."],
    [/the bag holds only/, "There are not that many pieces left in the bag."],
    [/you may pass only after drawing/, "Draw a piece first: you may pass only after drawing, or once the bag is empty."],
    [/in solo play you may draw only/, "In solo play you may draw only when no piece fits."],
    [/no passing or draw3 in solo play/, "In solo play there is no passing."],
    [/cannot give a piece to yourself/, "You cannot give a piece to yourself."],
    [/there is no seat/, "There is no such player."],
    [/draw3 is not in play/, "Drawing three is a variant this game does not use."],
    [/names colours this edition does not have/, "This set has no piece in those colours."],
    [/there is (nothing to keep|nothing to give|nothing to skip|no draw3) now/, "That is not something you can do now."],
  ],
  unstackable: [
    [/is already taken by a/, "A cube is already there."],
    [/would float/, "Nothing would hold that cube up: it needs a cube under it."],
    [/is not next to the cubes on the bag/, "On the bag, a new cube must go next to the cubes already there."],
    [/is under the bag/, "Nothing goes under the bag."],
    [/the first cube goes on/, "The first cube goes in the corner of the bag."],
    [/would make the structure/, "The cube may never grow beyond 4 wide, 4 deep or 4 tall."],
    [/is outside the 4×4×4 box/, "That is outside the cube."],
    [/there are no (\w+) cubes left/, (m) => `There are no ${m[1]} cubes left.`],
    [/this turn is (\w+): place (\d+) more/, (m) => `This turn is ${m[1]}: stack ${m[2]} more ${m[1]} cube${m[2] === "1" ? "" : "s"}.`],
    [/a (\w+) turn places exactly (\d+)/, (m) => `A ${m[1]} turn stacks exactly ${m[2]} cubes: keep going.`],
    [/the turn has placed no cube yet/, "Stack at least one cube before you end your turn."],
    [/the cube is built/, "The cube is built: now take cubes out."],
    [/the cube is still being built/, "The cube is still being built: stack a cube."],
    [/there is no cube on/, "There is no cube there to take."],
    [/holds up the cube/, "That cube holds up the one above it: it cannot be pulled out."],
    [/faces exposed/, "That cube is too buried: a cube comes out only with 3 of its faces open."],
  ],
  stakd: [
    [/is already taken/, "That spot is taken."],
    [/overhang/, "A piece must lie wholly on pieces of the layer below."],
    [/terminated by a BOMBER/, "Nothing more may go on a piece that a BLUE BOMBER has capped."],
    [/already carries a (\w+)/, (m) => `The piece under it already carries a ${m[1]}.`],
    [/identical stacking/, "A piece may not cover exactly the same spots as the piece under it."],
    [/already has its BOMBER/, "This layer already has its BLUE BOMBER: one per layer."],
    [/must touch another piece of layer/, "The piece must touch another piece of its layer, side by side."],
    [/you have no (\w+) left/, (m) => `You have no ${m[1]} left.`],
    [/a base must touch the other bases/, "A BASE must touch the BASEs already laid along at least two of its spots."],
    [/all bases are laid first/, "Lay all the BASEs first."],
    [/bases go on layer 0|only bases go on layer 0/, "BASEs go on the bottom layer, and only BASEs go there."],
    [/the first base goes/, "The first BASE goes on the middle spot."],
    [/is closed/, "That layer is closed: a higher layer has started."],
    [/cannot start before layer/, "Layers are built from the bottom up."],
    [/cannot start yet/, "The next layer cannot start yet: the layer below needs more pieces first."],
    [/never starts with a BOMBER/, "A new layer never starts with a BLUE BOMBER."],
    [/starts with a UNI only/, "A new layer starts with a UNI only when you hold nothing else to start it."],
    [/is not the shape of a/, "The piece does not have that shape."],
    [/within ±|out of reach/, "That is too far from the middle of the table."],
  ],
  cubes: [
    [/rolls its own dice/, "The dice are rolled for you: press Roll the dice."],
    [/forced roll|has no face/, "That is not a roll these dice can show."],
    [/the only move is roll/, "The only move is to roll the dice."],
  ],
};

/** A move the rules cannot even read (typed in notation): the notation box says more. */
const UNREADABLE = /cannot read|a move is text|is not an? \w+ move|is not a (face|cube colour|colour here)|unknown piece|listed twice/;

export const UNKNOWN_MOVE = "That is not a move this game knows: “Moves in notation” shows what to write.";
export const NOT_ALLOWED = "The rules do not allow that move here.";
export const NOT_TAKEN = "The server could not take that. If it happens again, reload the page.";

/** `message` (an error from the server: {code, message}) as a sentence for a player;
 * `info` is the game's fixed facts from the server's hello (CUBED's colour names). */
export function friendly(game, message, info = null) {
  if (CODES[message.code]) return CODES[message.code];
  const reason = String(message.message || "");
  if (message.code !== "illegal") return NOT_TAKEN;
  for (const [pattern, text] of RULES[game] || []) {
    const match = pattern.exec(reason);
    if (match) return typeof text === "function" ? text(match, info) : text;
  }
  return UNREADABLE.test(reason) ? UNKNOWN_MOVE : NOT_ALLOWED;
}
