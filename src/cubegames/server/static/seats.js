// Who sits where, at a glance: each seat's colour and a small avatar drawn here (a
// symmetric pattern made from the seat's number and name: nothing is fetched). A game
// whose seats own pieces of a colour (STAKD) gives its own colours in `info.seat_colours`,
// so a row, its avatar, its log lines and its pieces match.

import { s } from "./draw.js";

/** Seat colours for games whose pieces carry no seat colour (none is a piece colour of
 * CUBED's or Unstackable's greens, yellows and blacks, nor the tangerine of "your move"). */
export const PALETTE = ["#3b5bdb", "#0c8599", "#ae3ec9", "#c2255c", "#5c940d", "#a05a00", "#1864ab", "#862e9c"];

/** The colour of `seat` at this table. */
export function seatColour(info, seat) {
  const own = info && info.seat_colours;
  if (own && own.length) return own[seat % own.length];
  return PALETTE[seat % PALETTE.length];
}

/** A 32-bit FNV-1a hash of a string: the same seat always gets the same face. */
function hash(text) {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return value;
}

/** A small round avatar: a 5×5 pattern, mirrored left to right, in white on the seat's
 * colour; a bot's has a square frame instead of a round one. */
export function avatar(colour, key, size = 28, bot = false) {
  const bits = hash(key);
  const cell = size / 7;
  const svg = s("svg", { class: `avatar${bot ? " bot" : ""}`, viewBox: `0 0 ${size} ${size}`, width: size, height: size, "aria-hidden": "true" });
  svg.append(bot ? s("rect", { x: 0, y: 0, width: size, height: size, rx: size * 0.22, fill: colour })
    : s("circle", { cx: size / 2, cy: size / 2, r: size / 2, fill: colour }));
  for (let row = 0; row < 5; row += 1) {
    for (let col = 0; col < 3; col += 1) {
      if (!((bits >>> (row * 3 + col)) & 1)) continue;
      for (const c of col === 2 ? [2] : [col, 4 - col]) {
        svg.append(s("rect", { x: cell * (c + 1), y: cell * (row + 1), width: cell, height: cell, fill: "#fff", "fill-opacity": 0.92 }));
      }
    }
  }
  return svg;
}

/** The seats of a rematch of a table (`seats` as the server's hello tells them, `local`
 * the seats played at this screen): bots stay, seats played here stay here, the others get
 * new invitations; a person's seat the bot played on (`zombie_from`: they resigned, ran
 * out of time or left) is theirs again, invited, not a bot under their name. */
export function rematchSeats(seats, local) {
  return seats.map((seat) => (seat.kind === "bot" && seat.zombie_from == null
    ? { kind: "bot", bot: seat.bot, name: seat.name }
    : { kind: "human", name: seat.name, invite: !local.has(seat.seat) }));
}

/** The seats of the listed game `game` (its `seats` as `/api/games` tells them) that this
 * browser plays: those it holds a credential of (`held`, seat numbers), but a seat the bot
 * plays on for its person (they resigned, ran out of time or left): its turns are not
 * theirs any more. */
export function seatsToPlay(game, held) {
  const seats = game.seats || [];
  return held.filter((seat) => !(seats[seat] && seats[seat].kind === "bot"));
}

/** Which of the seats played at this screen (`local`) to show when seat `toMove` is to
 * move (`active`: the one shown now; `seats`: the hello's): the seat to move if it is
 * played here by a person, else the one shown. A seat the bot plays on for its person
 * (`zombie_from`) is the bot's to move: the device is not passed to it. */
export function seatToShow(local, toMove, active, seats) {
  const playing = local.filter((seat) => !(seats && seats[seat] && seats[seat].kind === "bot"));
  return playing.includes(toMove) ? toMove : (active ?? local[0]);
}
