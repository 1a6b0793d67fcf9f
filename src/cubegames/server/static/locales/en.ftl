# The page's and the server's words in English (Project Fluent syntax: docs/i18n.md).
# Every message here has the same id in ja.ftl. Game names (CUBED, Unstackable, STAKD, CUBES)
# and move notation are not translated.

## The language switch

language-switch = Language

## index.html

page-tagline = tabletop games built around cubes
page-loading = Loading…

## Seats and people (util.js, play.js's roleName)

seat-you = You
# a bot seat without a name, from its bot's name ($bot: random, greedy, mcts, alphabeta or
# another; $name: the same with a capital)
seat-bot = { $bot ->
    [random] Random bot
    [greedy] Greedy bot
    [mcts] Thinking bot
    [alphabeta] Deep bot
   *[other] { $name } bot
  }
seat-bot-numbered = { seat-bot } { $number }
seat-player = Player { $number }
seat-label = Seat { $seat }
seat-label-bot = { $bot } bot
server-said = the server said { $status }

## The start page (app.js)

start-title = cubegames
start-unreachable = The server cannot be reached: { $reason }
start-game-group = Game
start-seed-placeholder = random
start-play = Start playing
start-players = { $count ->
    [one] 1 player
   *[other] { $count } players
  }
start-players-range = { $low }–{ $high } players
start-options = { $game } options
start-who = Who is playing
start-who-plays = Who plays: { $role }
start-you-here = You, at this screen
start-someone-here = Someone at this screen
start-friend = A friend elsewhere (gets a link)
start-other-bot = Another bot, by name…
start-bot-placeholder = e.g. mcts:iterations=500 ({ $names })
start-bot-for = Bot for { $role }
start-name-placeholder = name (optional)
start-name-of = Name of { $role }
start-hot-seat = Several people at this screen: the game asks you to pass the device between turns.
start-heading = Pick a game, pull up a chair
start-lead = { $count ->
    [4] Four
    [5] Five
    [6] Six
    [7] Seven
    [8] Eight
    [9] Nine
   *[other] { $count }
  } tabletop games built around cubes. Play here against bots, pass the device around, or send a friend a link.
start-deal = Deal
start-seed = Seed (the same seed deals the same game)
invite-copy = Copy
invite-copied = Copied
invite-copy-by-hand = Copy by hand
invite-link-for = Link for { $role }
invite-heading = Send each friend their link
invite-once = A link opens its seat once, for the first browser that follows it: send it only to the person playing that seat. If they lose it, reissue the seat from the game's page.
invite-watch = Anyone can watch at this address:
invite-go = Go to the game
games-heading = Games
games-loading = Loading…
games-none-playing = No game in progress.
games-none-finished = No finished game yet.
games-playing = In progress
games-finished = Finished
games-replay = Replay
games-record = Record
games-continue = Continue
games-watch = Watch
games-moves = { $moves ->
    [one] 1 move
   *[other] { $moves } moves
  }
games-won-by = won by { $who }
games-nobody-won = nobody won
load-heading = Load a record
load-about = A record file (saved from a game) is replayed move by move; a finished game opens in the replay viewer. An unfinished one is played on at this screen only: the file tells every hand, so its seats cannot be passed to anyone else.
load-file = Choose a record file
load-no-file = No file chosen
load-button = Load
load-choose = Choose a record file first.

## What /api/catalog says about the built-in games, by game id (a plug-in game's own words
## are shown as the server gives them)

pitch-cubed = Lay hexagonal three-colour pieces so every touching side matches; empty your hand first.
pitch-unstackable = Two players build a 4×4×4 cube of coloured cubes, then take it apart for points.
pitch-stakd = Stack your pieces layer on layer; whoever lays the last piece wins the round.
pitch-cubes = Roll six dice, claim the pot or pay in; three sets, most points wins.
option-players = Players
option-players-help = 1 for a solo game
option-edition = Edition
option-variants = Variants
option-rounds = Rounds
option-rounds-help = 3 by default, 1 in a solo game
option-points_to_win = Points to win
option-points_to_win-help = 3 by default, 1 in a solo game
option-sets = Sets
choice-cubed-edition-en = English (6 players)
choice-cubed-edition-ja = Japanese (2 to 11 players)
choice-cubed-variants-bridging = Bridging the gap: joining two groups earns another piece
choice-cubed-variants-void = Fill the void: closing a hole lets you give a piece away
choice-cubed-variants-draw3 = Draw 3, keep 1
option-cubed-strict_colors = Every touching side must match
option-cubed-strict_colors-help = off: two matching sides are enough
option-unstackable-bag_counts_as_exposed = The face on the bag counts as exposed
option-unstackable-exact_counts = A turn places exactly its colour's count
option-unstackable-exact_counts-help = off: 1 up to the count, then end the turn
choice-stakd-edition-standard = STAKD
option-stakd-uni_opens_beside_bombers = A UNI may open a layer beside BOMBERs
option-stakd-uni_opens_beside_bombers-help = off: a UNI opens a layer only from a hand of nothing but UNIs
choice-cubes-edition-standard = Standard
option-cubes-referee = Real dice: type what they show
option-cubes-referee-help = for a table with its own dice, e.g. roll 1 C . 6 . 3
bot-greedy = Greedy bot: the best-looking move right now
bot-random = Random bot: any legal move
bot-mcts = Thinking bot: searches for about a second

## The replay (replay.js)

replay-back = Back to the start page
replay-title = { $game } replay · cubegames
replay-move-number = Move number
replay-seen-by = Seen by
replay-spectator = a spectator
replay-in-notation = In notation: { $move }
replay-play = Play
replay-pause = Pause
replay-start = The start of the game.
replay-won = { $who } won · { $scores }
replay-draw = A draw
replay-games = ‹ Games
replay-heading = { $game } · replay
replay-still-playing = Still being played: you see it as a spectator does
replay-first = First move
replay-previous = Previous move
replay-next = Next move
replay-last = Last move
replay-finished = Finished { $when }.
replay-save = Save the record
replay-watch = Watch it live
replay-moves = Moves

## The short rules under "How to play" (the server's /api/catalog rules, by game and line)

howto-cubed-1 = { $edition ->
    [ja] Lay one piece a turn. From the third piece on it must touch at least two pieces, and every side it touches must show the same colour.
   *[other] Lay one piece a turn. From the third piece on it must touch at least two pieces, and every side it touches must show the same colour (white matches any colour except a blocking piece's).
  }
howto-cubed-2 = { $edition ->
    [ja] A blocking piece's midnight purple sides touch nothing: the cells next to them are dead (×).
   *[other] Black sides touch nothing: the cells next to them are dead (×).
  }
howto-cubed-3 = { $players ->
    [1] When no piece fits you must draw, up to twice; if nothing fits after that, or the bag is empty, the game is lost.
   *[other] You may draw one piece instead, then lay or pass; with an empty bag you may pass.
  }
howto-cubed-4 = { $players ->
    [1] Lay every piece of your hand to win.
   *[other] { $edition ->
        [ja] Empty your hand to win the round. Pieces left in hand cost points: single 1, double 2, triple 3, blocking 5. The lowest total wins.
       *[other] Empty your hand to win the round. Pieces left in hand cost points: single 1, double 2, triple 3, blocking 5, wild 10. The lowest total wins.
      }
  }
# a line more for an option a table chose (howto-GAME-OPTION-VALUE), after the lines above
howto-cubed-variants-bridging = Bridging the gap: when the pieces around the cell you fill form two or more separate groups, you may lay one more piece (or pass) that turn, without drawing.
howto-cubed-variants-void = Fill the void: when you fill a cell closed in on all six sides, you may give one piece from your hand to another player (or not). Giving away your last piece empties your hand.
howto-cubed-variants-draw3 = Draw 3, keep 1: at the start of your turn you may instead draw 1 to 3 pieces, keep one and put the others back in the bag; that ends your turn.
howto-cubed-strict_colors-false = At this table two matching sides are enough: the other sides a piece touches may show other colours.
howto-unstackable-1 = Stage 1: pick a colour and stack black ×3, red ×2 or yellow ×1. A cube on the bag must touch another cube on the bag; a higher cube needs a cube right under it. The cube may grow any way while it stays at most 4 wide, deep and tall.
howto-unstackable-2 = When only black is left, the rest of the box fills with black.
howto-unstackable-3 = Stage 2: take two cubes a turn. A cube can go when nothing sits on it and at least 3 of its faces are free. Whoever stacked the last red cube goes second.
howto-unstackable-4 = Your first cube each turn goes to pile 1 (yellow 5, red 3), the second to pile 2 (black 1). Most points wins.
howto-stakd-1 = First everyone lays their bases (2×3) on layer 0, each touching the others.
howto-stakd-2 = Then lay one piece a turn on the current layer: every node rests on a piece below, it touches a piece already on the layer, and no piece carries two pieces of one type.
howto-stakd-3 = The BLUE BOMBER ends the piece under it: nothing more goes on that one.
howto-stakd-4 = A new layer may start once the current one holds 6 pieces, or when you cannot lay on it; never with a bomber, and with a UNI only if you hold nothing but UNIs. Whoever cannot lay at all is out for the round.
howto-stakd-5 = { $players ->
    [1] Solo: lay every piece you hold, the last of them not a BLUE BOMBER, to win; stuck before that, you lose.
   *[other] Whoever lays the last piece (not a bomber) wins the round and a point.
  }
howto-cubes-1 = Roll the six dice. Numbers only: take their sum from the pot.
howto-cubes-2 = CUBES and 1 or 2 numbers: everyone else pays 5, then take twice the sum.
howto-cubes-3 = CUBES and 3 or more numbers: everyone else pays 5, then take the whole pot. Only CUBES: everyone else pays 5. All blank: pay 2.
howto-cubes-4 = If the pot holds too little, you take nothing and pay in the difference.
howto-cubes-5 = Whoever cannot pay in full ends the set and scores 0 for it. { $sets ->
    [1] One set
    [2] Two sets
    [3] Three sets
    [4] Four sets
    [5] Five sets
    [6] Six sets
    [7] Seven sets
    [8] Eight sets
    [9] Nine sets
    [10] Ten sets
   *[other] { $sets } sets
  }; the most points wins.
rules-how-to-play = How to play
rules-full = Full rules
rules-not-loaded = The rules could not be loaded.
rules-plugin-unwritten = This game's maker wrote no rules for it here.
rules-plugin-options = Settings
rules-plugin-seats = { $least } to { $most } players
rules-plugin-seats-fixed = { $count ->
    [one] one player
   *[other] { $count } players
}
rules-plugin-default = { $value } unless you choose

## The play page (play.js)

play-invite-spent = This invitation has been used already
play-invite-spent-why = An invitation opens its seat once, for the first browser that follows it (or it is from another game).
play-watch-game = Watch the game
play-all-games = All games
play-connection = connection
play-type-move = Type a move
play-play = Play
play-moves-so-far = Moves so far
play-moves-in-notation = Moves in notation
play-protocol = This page speaks protocol { $page }, the server { $server }: reload the page.
play-online = online
play-reconnecting = reconnecting…
play-pass-show = I am { $name }: show my pieces
play-pass-to = Pass the device to { $name }
play-pass-look-away = The others look away: the next screen shows this player's hand.
play-trouble = Trouble: { $trouble }
trouble-bot-cannot-play = { $who } cannot play this game: the game waits. The server's operator can tell more.
trouble-bot-failed = { $who } failed and cannot play on: the game waits.
trouble-bot-refused = { $who } chose a move the rules refuse and cannot play on: the game waits.
trouble-bot-lost = The move of { $who } could not be saved: reload the page.
play-won = { $who } won
play-you-won = You won
play-you-won-heading = You won!
play-named-your-turn = { $name }: your turn
play-your-turn = Your turn
play-thinking = { $name } is thinking…
play-waiting = Waiting for { $name } to join
play-their-turn = { $name }'s turn
play-reissued = (reissued { $count }×)
play-watching = You are watching.
play-nothing-to-do = Nothing to do until your turn.
play-legal-moves = { $count ->
    [one] 1 legal move; the board shows them all.
   *[other] { $count } legal moves; the board shows them all.
  }
play-log-move = Move { $ply }
play-log-move-notation = Move { $ply }, in notation: { $move }
play-replay-this = Replay this game
play-save-mine = Save my record
play-spectator-link = Spectator link
play-round-over = Round { $round } is over
play-next-round = Next round
play-see-board = See the board
play-rematch = Rematch
play-new-game = New game
play-results = Results
play-copy-invitation = Copy invitation
play-reissue = Reissue seat
play-reissue-confirm = Give { $name } a new invitation? Whoever holds the seat now loses it.
play-copy-failed = Copy failed
play-not-connected = Not connected: reconnecting, try again in a moment.

## CUBES (games/cubes.js)

cubes-die = { $colour } die: { $face }
cubes-blank = blank
cubes-colour-red = red
cubes-colour-orange = orange
cubes-colour-yellow = yellow
cubes-colour-green = green
cubes-colour-blue = blue
cubes-colour-purple = purple
cubes-table = The dice and the pot
cubes-roll = Roll the dice
cubes-rolling = Rolling…
cubes-pot = { $chips ->
    [one] Pot: 1 chip
   *[other] Pot: { $chips } chips
  }
cubes-set = Set { $set } of { $sets }
cubes-your-roll = Your roll.
cubes-rolls-next = { $name } rolls next.
cubes-seat-line = { $chips } chips · { $points } pts
cubes-bust = { $name } could not pay in full: the set ends.
cubes-all-sets = { $sets ->
    [1] The set is over.
   *[other] All { $sets } sets are played.
  }

## Words shared by the game modules (games/*.js)

view-3d = 3-D
view-layers = Layers
game-over = The game is over.
not-your-turn = It is not your turn yet.

## STAKD (games/stakd.js); piece names (UNI, BLUE BOMBER…) are not translated

stakd-views = How the stack is shown
stakd-left = { $count } left
stakd-turn = Turn
stakd-layer-from-above = Layer { $z } from above
stakd-layer = Layer
stakd-you-are-out = You are out of this round: no piece of yours fits.
stakd-laying = Round { $round }: laying layer { $z }.
stakd-choose-piece = Choose a piece to lay.
stakd-point = Point at a lit spot to lay your { $piece }.
stakd-choose-first = Choose a piece first.
stakd-cannot-go-why = Your { $piece } cannot go here: it must lie wholly on pieces of the layer below, on free spots.
stakd-no-piece-on-layer = No piece may go on layer { $z } now.
stakd-taken = This spot is taken.
stakd-cannot-go = Your { $piece } cannot go here.
stakd-laid = { $who } laid a { $piece } on layer { $z }.
stakd-out = out this round
stakd-seat-line = { $points ->
    [one] 1 pt
   *[other] { $points } pts
  } · { $pieces } pieces
# $you is "true" when the winner is the reader ("You ... win", not "wins")
stakd-round-won = { $you ->
    [true] Nobody could lay another piece. { $who } laid the last one (a BOMBER does not count) and win the round.
   *[other] Nobody could lay another piece. { $who } laid the last one (a BOMBER does not count) and wins the round.
  }
stakd-reached = { $points ->
    [one] { $who } reached 1 point.
   *[other] { $who } reached { $points } points.
  }

## Unstackable (games/unstackable.js); a cube's place in words is as the server's log says it
## (games/unstackable/web.py place_words)

unst-colour-Y = yellow
unst-colour-R = red
unst-colour-K = black
unst-bottom-layer = the bottom layer
unst-layer = layer { $z }
unst-place = { $layer } at { $cell }
unst-cube-title = { $removable ->
    [true] A { $colour } cube you may take out: { $place }
   *[other] A { $colour } cube: { $place }
  }
unst-or = { $first } or { $last }
unst-comma = {", "}
unst-spot-title = A { $colours } cube may go here: { $place }
unst-views = How the cube is shown
unst-supply = { $left } left · { $per } a turn
unst-end-turn = End my turn
unst-stage1-others = Stage 1: the cube is being built.
unst-stacking = Stacking { $colour }: { $placed } of { $per } placed.
unst-tap-to-stack = Tap a lit cell to stack { $colour }.
unst-choose-colour = Choose a colour to stack.
unst-stage2-others = Stage 2: cubes are being taken out.
unst-take = Take a cube ringed in green: it goes to your pile { $pile }.
unst-plan-label = { $bottom ->
    [true] The bottom layer, on the bag, seen from above, its front at the foot
   *[other] Layer { $z } seen from above, its front at the foot
  }
unst-bottom-title = Bottom layer
unst-layer-title = Layer { $z }
unst-front = front
unst-front-floor = FRONT
unst-3d-label = The cube in 3-D, drag to turn it; the strip marked FRONT on the floor is the front, the foot of each layer
unst-cell-taken = This cell is taken: stack on a lit cell.
unst-cannot-come-out = This cube cannot come out now: it needs three open faces and nothing on top.
unst-take-ringed = Take a cube ringed in green.
unst-nothing-holds = Nothing holds a cube up here: it needs a cube under it.
unst-no-cube-here = No cube may go here now: the lit cells show where one may.
unst-choose-colour-first = Choose a colour first.
unst-no-colour-here = No { $colour } cube may go here.
unst-stacked = { $who } stacked a { $colour } cube on { $place }.
unst-took = { $colour ->
    [none] { $who } took a cube out of { $place }.
   *[other] { $who } took a { $colour } cube out of { $place }.
  }
unst-points = { $points } pts
unst-bare = The bag is bare: every cube has been taken out.

## CUBED (games/cubed.js); a cell's place in words is as the server's log says it
## (games/cubed/web.py place_words)

cubed-colour-green = green
cubed-colour-purple = purple
cubed-colour-light-pink = light pink
cubed-colour-neon-pink = neon pink
cubed-colour-yellow = yellow
cubed-colour-blue = blue
cubed-colour-black = black
cubed-colour-white = white
cubed-colour-admiral-blue = admiral blue
cubed-colour-cyber-grape = cyber grape
cubed-colour-cobi-pink = cobi pink
cubed-colour-peach-pie = peach pie
cubed-colour-white-almond = white almond
cubed-colour-midnight-purple = midnight purple
cubed-cells = { $halves ->
    [1] { $text } cell
    [2] { $text } cell
   *[other] { $text } cells
  }
cubed-middle = the middle of the table
cubed-rows = { $dir ->
    [up] { $rows ->
        [one] 1 row up
       *[other] { $rows } rows up
    }
   *[other] { $rows ->
        [one] 1 row down
       *[other] { $rows } rows down
    }
  }
cubed-rows-only = { $dir ->
    [up] { $rows ->
        [one] 1 row above the first piece
       *[other] { $rows } rows above the first piece
    }
   *[other] { $rows ->
        [one] 1 row below the first piece
       *[other] { $rows } rows below the first piece
    }
  }
cubed-across = { $dir ->
    [right] { $cells } right
   *[other] { $cells } left
  }
cubed-place = { $both ->
    [true] { $rows }, { $across } of the first piece
   *[other] { $across } of the first piece
  }
cubed-draw = Draw a piece
cubed-pass = Pass
cubed-skip = Give nothing
cubed-table = The table
cubed-zoom-in = Zoom in
cubed-zoom-out = Zoom out
cubed-fit = Show the whole table
cubed-your-hand = Your hand
cubed-black-touches = A black side may touch nothing, and this one would.
cubed-beside-black = The piece beside it has a black side here: nothing may touch it.
cubed-mismatch = This side is { $mine }, the piece beside it is { $theirs }.
cubed-touch-two = Here it would touch only one piece: it must touch at least two.
cubed-dead = A dead cell: it touches a black side
cubed-first-mark = The first piece: the log names places from here
cubed-may-go = A piece of yours may go here: { $where }
cubed-open = An open cell: { $where }
cubed-label-may-go = { $name }: a piece of yours may go here
cubed-label-fits = { $name }: the chosen piece fits here
cubed-label-no-fit = { $name }: the chosen piece does not fit here
cubed-label-fits-turned = { $turns ->
    [1] { $name }: the chosen piece fits here turned once
   *[other] { $name }: the chosen piece fits here turned twice
  }
cubed-turn-piece = Turn the piece
cubed-turn = Turn
cubed-fits-count = { $cells ->
    [one] Fits 1 cell
   *[other] Fits { $cells } cells
  }
cubed-fits = { $how ->
    [key] { cubed-fits-count } turned like this: Enter lays it on the ringed cell, R turns it.
    [mouse] { cubed-fits-count } turned like this: drag it to a lit cell, or click one.
   *[other] { cubed-fits-count } turned like this: tap a lit cell.
  }
cubed-turn-it = Not like this: turn it.
cubed-fits-nowhere = This piece fits nowhere now.
cubed-ask-mouse = Drag a piece of your hand to the table, or click it.
cubed-ask-touch = Tap a piece of your hand.
cubed-ask-wait = Not your turn yet: meanwhile you can pick a piece and turn it.
cubed-fits-on-your-turn = Where it fits shows on your turn.
cubed-none-fits = No piece of yours fits: draw or pass.
cubed-watching = You are watching: hands are hidden.
cubed-hand-empty = Your hand is empty.
cubed-draw3 = Draw { $count }, keep one
cubed-keep-piece = Keep { $piece }
cubed-keep = Keep
cubed-give = Give { $piece } to { $name }
cubed-drawn = Drawn: { $pieces }
cubed-first-choose = First choose a piece of your hand.
cubed-first-tap = First tap a piece of your hand.
cubed-fits-turned = { $how ->
    [drop] It fits here turned { $turns ->
        [1] once
       *[other] twice
    }: press R (or roll the wheel) as you drag it, then drop it here.
    [key] It fits here turned { $turns ->
        [1] once
       *[other] twice
    }: press R to turn it, then Enter.
   *[other] It fits here turned { $turns ->
        [1] once
       *[other] twice
    }: tap Turn, then the cell.
  }
cubed-ringed = { $text }: it is ringed in orange.
cubed-laid-ringed = { $who } laid a piece: it is ringed in orange.
cubed-points = { $points } pts
cubed-in-hand = { $pieces ->
    [one] 1 piece in hand
   *[other] { $pieces } pieces in hand
  }
cubed-laid-every = { $who } laid every piece.
cubed-fewest = Fewest points left in hand: { $who }.
cubed-piece = piece { $piece }
cubed-stuck = No one could lay another piece and the bag was empty.

## Errors the server sends (server/app.py)

error-no-game = there is no game '{ $game }'
error-token-in-address = a credential never goes in the address: send it as Authorization: Bearer
error-credential-opens-nothing = this credential does not open any seat of this game
error-too-many-games = too many games made from your address: at most { $count } a minute; try again in { $wait }
error-open-tables = you already have { $count } public tables waiting for players: play at one, or wait until one fills, before opening another
error-too-many-seat-changes-client = too many invitations claimed or seats reissued from your address: at most { $count } a minute; try again in { $wait }
error-too-many-seat-changes-game = too many invitations claimed or seats reissued in this game: at most { $count } a minute; try again in { $wait }
error-busy-connections = the server is busy: { $count } connections are open; try again later
error-no-rules = no rules for '{ $game }'; the games are { $games }
error-no-pool = { $game } has no rating pool { $pool }; its pools are { $pools }
error-seat-count = { $seats ->
    [one] this game has 1 seat; { $given } were given
   *[other] this game has { $seats } seats; { $given } were given
  }
error-seed-with-invite = seed: a seed you pick is for games at one screen or among bots; a game with an invited player gets a secret deal
error-invite-used = this invitation has already been used, or is not one of this game's: if the seat is yours, ask the host to reissue it
error-only-host = only the host of this game can reissue a seat
error-not-a-person = seat { $seat } is not a person's seat of this game
error-game-over = the game is over
error-deal-picked = this game's deal was picked by its maker, who knows every hand: its seats stay at one screen and cannot be passed to anyone else
error-record-hidden = the record tells every hidden piece, so it can be saved once the game is over; a seat may save its own view of it with its credential
error-no-seat = there is no seat { $seat }
error-seat-view = a seat's view of a game in play needs that seat's credential
error-seat-handed = this seat is played by the bot from move { $ply } on: its view is the bot's from then, until the game is over
error-file-too-large = the file is too large: at most { $bytes } bytes
error-body-large = the request is too large: at most { $bytes } bytes
error-body-slow = the request body took over { $seconds } seconds
error-body-deep = the request nests too deep: at most { $levels } levels

## The table's second pass (rounds, presence, sounds)

start-plays-first = plays first
load-not-a-record = This file is not a game record saved by cubegames: choose a file saved with “Save the record”.
load-bad-record = This record cannot be loaded: { $reason }
unst-pile = pile { $pile }
unst-pile-label = { $count ->
    [one] pile { $pile }: 1 cube
   *[other] pile { $pile }: { $count } cubes
  }
unst-pile-empty = empty
play-host-tag = you host this game
play-presence-here = at this screen
play-presence-bot = a bot
play-presence-online = at the table
play-presence-away = away
play-presence-invited = invitation not used yet
play-left = { $name } left the table.
play-back = { $name } is back at the table.
play-claimed = { $name } took their seat.
play-reissued-by-host = The host gave { $name } a new invitation.
play-round-of = Round { $round } of { $rounds }
play-round-heading = Round { $round }
play-round-over-of = Round { $round } of { $rounds } is over
play-set-over = Set { $round } is over
play-set-over-of = Set { $round } of { $rounds } is over
play-next-set = Next set
play-waiting-for = { $count ->
    [one] Play goes on when { $names } has seen this.
   *[other] Play goes on when { $names } have seen this.
  }
play-starts-in = Play goes on in { $seconds } s.
play-went-on = Play has gone on.
play-round-column = R{ $round }
play-total = Total
play-sound-on = Sound on
play-sound-off = Sound off
play-sound-title = Sounds: { $sounds }.
play-sound-separator = {"; "}
sound-turn = a two-note chime: it is your turn
sound-laid = a soft knock: a piece or cube was laid
sound-removed = a light tick: a cube was taken out
sound-rolled = a rattle: dice were rolled
play-paused = The round's end is on the screen: play goes on in a moment.
play-invite-spent-ask = If the seat is yours, ask the host to reissue it: they will send you a new link.
cubed-bag = { $count ->
    [one] 1 piece in the bag
   *[other] { $count } pieces in the bag
  }
cubes-chips-label = Chips
cubes-chip-count = { $chips ->
    [one] 1 chip
   *[other] { $chips } chips
  }
cubes-all-sets-bust = { $name } could not pay in full. { cubes-all-sets }
stakd-status = Round { $round } · first to { $goal ->
    [one] 1 point
   *[other] { $goal } points
  } wins

## Time controls, resigning, take-backs (clocks.js)
clock-clocks = Clocks
clock-none = No clock
clock-realtime = Real-time
clock-turn-based = Turn-based
clock-custom = Custom…
clock-minutes = Minutes each
clock-increment = Seconds added a move
clock-days = { $count ->
    [one] 1 day a move
   *[other] { $count } days a move
  }
clock-days-hours = { $days } d { $hours } h
clock-time-control = Time control
clock-first-move = starts after the first move
clock-waiting = waiting
clock-low = little time left
clock-resign = Resign
clock-abort = Abort
clock-claim-win = Claim the win
clock-claim-bot = Let a bot play for them
clock-confirm-resign = Resign this game? The other players play on or win.
clock-confirm-abort = Abort this game? It ends with no result.
clock-gone = { $who } has been away for more than { $grace } seconds on their turn.
clock-ended-time = { $who } ran out of time
clock-ended-resigned = { $who } resigned
clock-ended-gone = { $who } left the game
clock-ended-aborted = The game was aborted: no result
clock-zombie = { $who } is played by a bot from now on
clock-undo = Take back
clock-ask-undo = Ask to take back
clock-accept = Agree
clock-decline = Decline
clock-undo-asked = { $who } asks to take back { $count ->
    [one] a move
   *[other] { $count } moves
  }.
clock-undo-declined = { $who } declined to take the move back.
clock-undo-withdrawn = { $who } has left the game, so their take-back request is withdrawn.
clock-took-back = { $who } took back { $count ->
    [one] a move
   *[other] { $count } moves
  } (from move { $ply })
clock-your-turn = Your turn
play-ended-why = { $why }: { $result }

## Accounts, names and ratings (accounts.js, players.js; the server's accounts, names, ratings)

error-name-blank = a name cannot be blank
error-name-control = a name cannot hold control characters
error-name-invisible = a name cannot hold invisible characters (direction marks, zero-width spaces or joiners)
error-name-long = a name has at most 24 characters
error-name-bot = that name is a bot's: people may not take it
error-name-account = that name belongs to an account: sign in to use it
error-name-taken = that name is taken: choose another
error-password-short = a password has at least { $count } characters
error-signin-failed = wrong name or password
error-too-many-signins = too many sign-in attempts: try again in { $wait }
error-too-many-signups = too many accounts made from your address: try again later
error-signed-out = you are not signed in
error-csrf = this request did not come from this site's page: reload the page and try again
error-no-player = there is no such player
error-rated-signed-out = sign in to make a rated table
error-rated-seed = a rated table is dealt by the server: leave the deal number empty
error-rated-clock = a rated table needs a time control
error-rated-seats = a rated table has your seat here and invited players (or bots) in the others
error-rated-claim-signed-out = this is a rated table: sign in to take the seat
error-rated-reissue = at a rated table a player gets their seat back by signing in; it cannot be given to someone else
error-rated-twice = you already have a seat at this rated table
account-sign-in = Sign in
account-sign-up = Create account
account-sign-out = Sign out
account-name = Name
account-password = Password
account-heading = Your account
account-link = Account
account-lead = Sign in to keep your games and ratings on every device. Guests play as before.
account-signed-in = Signed in as { $name }
account-new-here = New here?
account-moved = { $count ->
    [one] One game of this browser moved into your account.
   *[other] { $count } games of this browser moved into your account.
  }
account-your-games = Your games
account-no-games = No games yet.
account-game-line = { $game } · seat { $seat }
account-rated = rated
account-playing = in play
account-finished = finished
account-open = Open
account-player-page = Your page
start-rated = Rated game
start-rated-help = Rated tables need you signed in, a time control and no deal number; moves cannot be taken back.
leaderboard-title = Leaderboard
leaderboard-heading = { $game } leaderboard
leaderboard-empty = No rated games yet.
leaderboard-place = #
leaderboard-player = Player
leaderboard-rating = Rating
leaderboard-games = Games
leaderboard-provisional = provisional: fewer than { $count } rated games
leaderboard-bot = bot
leaderboard-pool = { $pool } edition
player-title = { $name }
player-ratings = Ratings
player-no-ratings = No rated games yet.
player-history = Rating over time
player-games = Games
player-won = won
player-lost = lost
player-in-play = in play
player-chart = { $game }: rating after each rated game
player-none = There is no such player.
# -- lobby and chat (issue #25): the open tables, quick play, a table's chat, a picked deal --
error-not-public = this table is not public: only its invitation links lead to a seat
error-table-full = every seat of this table is taken
error-only-host-chat = only the host of this game can open or close its spectators' chat
start-public = List this table in the lobby
start-public-help = Anyone may take a seat you left for a friend, with one click, and the game shows among the games in play. Unticked, the table is private: only your invitation links lead to it.
lobby-title = Play with others
lobby-heading = Open tables
lobby-lead = Public tables waiting for players: take a free seat with one click.
lobby-none = No table is waiting for players right now. Open one with quick play, or make a public table below.
lobby-loading = Looking for open tables…
lobby-offline = The list is not live at the moment: reconnecting…
lobby-free = { $free ->
    [one] 1 of { $players } seats free
   *[other] { $free } of { $players } seats free
  }
lobby-host = Host: { $name }
lobby-host-rating = { $name } ({ $rating })
lobby-rated = Rated
lobby-unrated = Not rated
lobby-untimed = No time limit
lobby-join = Join
lobby-open-yours = Go to your table
lobby-bots = { $count ->
    [one] 1 bot
   *[other] { $count } bots
  }
lobby-deal-picked = deal picked by the host
lobby-name = Your name at the tables
lobby-name-placeholder = a name the others see (optional)
quick-heading = Quick play
quick-lead = Pick a game, the number of players and a time control: you sit at a table waiting for the same, or open one that others see in the list.
quick-game = Game
quick-players = Players
quick-clock = Time control
quick-untimed = No time limit
quick-button = Find a game
chat-players = Chat with the players
chat-spectators = Spectators' chat
chat-placeholder = Say something…
chat-send = Send
chat-mute = Mute
chat-unmute = Unmute { $name }
chat-muted = Muted on this screen:
chat-mute-title = Hide { $name }'s lines on this screen
chat-closed = The host closed the spectators' chat.
chat-close-spectators = Close the spectators' chat
chat-open-spectators = Open the spectators' chat
chat-empty = No messages yet.
chat-spectator = Spectator
chat-too-long = A line is at most { $count } characters.
chat-system-joined = { $who } took a seat.
chat-system-time = { $who } ran out of time.
chat-system-resigned = { $who } resigned.
chat-system-gone = { $who } left the game.
chat-system-aborted = The game was aborted.
chat-system-zombie = A bot plays for { $who } from now on.
chat-system-takeback = { $who } took back { $count ->
    [one] a move
   *[other] { $count } moves
  }.
chat-system-closed = The host closed the spectators' chat.
chat-system-opened = The host opened the spectators' chat.
chat-system-left = { $who } left the table.
chat-system-back = { $who } is back.
refusal-chat = That line was not sent: try again in a moment.
refusal-chat-slow = You are chatting too fast: wait a moment.
refusal-chat-closed = The host closed the spectators' chat.
deal-picked = The host picked this game's deal, so they may know every hand, yours included. Play it only with someone you trust. This game is never rated.
## words
# The move log and the last move, as the server describes them (games/<game>/web.py
# `described`, CUBES' games/cubes/outcome.py `described`). A seat ($who, $to) is named by
# the page; $who-you / $to-you is "yes" when that seat is the reader's own. $who-count: how
# many seats $who names.

words-seat = { $who-you ->
    [yes] you
   *[other] { $who }
  }
words-cubed-a-piece = { $count ->
    [1] an all-{ $c1 } piece
    [2] { $first ->
        [admiral-blue] an
       *[other] a
    } { $c1 } and { $c2 } piece
   *[other] { $first ->
        [admiral-blue] an
       *[other] a
    } { $c1 }, { $c2 } and { $c3 } piece
  }
words-cubed-the-piece = { $count ->
    [1] the all-{ $c1 } piece
    [2] the { $c1 } and { $c2 } piece
   *[other] the { $c1 }, { $c2 } and { $c3 } piece
  }
words-cubed-laid = { $who } laid { $piece } { $where }.
words-cubed-laid-middle = { $who } laid { $piece } in { $where }.
words-cubed-drew = { $who } drew a piece.
words-cubed-passed = { $who } passed.
words-cubed-drew-many = { $who } drew { $count } pieces to keep one.
words-cubed-kept = { $who } kept { $piece }.
words-cubed-kept-secret = { $who } kept one of the drawn pieces.
words-cubed-gave = { $who } gave { $piece } to { $to-you ->
    [yes] you
   *[other] { $to }
  }.
words-cubed-gave-secret = { $who } gave a piece to { $to-you ->
    [yes] you
   *[other] { $to }
  }.
words-cubed-skipped = { $who } gave nothing away.
words-unst-stacked = { $who } stacked a { $colour } cube on { $place }.
words-unst-stacked-first = { $who } stacked a { $colour } cube on { $place } (columns A–G left to right, rows 1–7 front to back).
words-unst-ended = { $who } ended the turn.
words-unst-took = { $who } took a cube out of { $place }.
words-stakd-laid = { $z ->
    [0] { $who } laid a { $piece } on the bottom layer.
   *[other] { $who } laid a { $piece } on layer { $z }.
  }
words-cubes-rolled = { $who } rolled.
words-cubes-rolled-faces = { $who } rolled { $faces }.
words-cubes-row-numbers = Numbers only
words-cubes-row-cubes-few = CUBES and 1 or 2 numbers
words-cubes-row-cubes-many = CUBES and 3 or more numbers
words-cubes-row-cubes-only = Only CUBES
words-cubes-row-blank = All blank
words-cubes-head-sum = { $row } ({ $sum })
words-cubes-roll-one = { $head }: { $first }.
words-cubes-roll-two = { $head }: { $first }, then { $then }.
words-cubes-paid = { words-seat } { $who-count ->
    [one] { $who-you ->
        [yes] pay
       *[other] pays
    }
   *[other] pay
  } { $chips }
words-cubes-each-pays = each opponent pays { $chips }
words-cubes-takes = { words-seat } { $who-you ->
    [yes] take
   *[other] takes
  } { $claim }
words-cubes-whole-pot = { words-seat } { $who-you ->
    [yes] take
   *[other] takes
  } the whole pot ({ $chips })
words-cubes-pays = { words-seat } { $who-you ->
    [yes] pay
   *[other] pays
  } { $chips }
words-cubes-owes-broke = { words-seat } { $who-you ->
    [yes] owe { $owed } but have only { $left }, put it in and score 0 for the set
   *[other] owes { $owed } but has only { $left }, puts it in and scores 0 for the set
  }
words-cubes-short = { $pot ->
    [0] the pot is empty
   *[other] the pot holds only { $pot }
  }, so { words-seat } { $who-you ->
    [yes] owe
   *[other] owes
  } { $short } to bring it to { $claim }
words-cubes-short-broke = { $pot ->
    [0] the pot is empty
   *[other] the pot holds only { $pot }
  }, so { words-seat } { $who-you ->
    [yes] owe { $short } but have only { $left }, put it in and score 0 for the set
   *[other] owes { $short } but has only { $left }, puts it in and scores 0 for the set
  }

## words: refused moves (static/refusals.js), by code: the server's own (refusal-CODE) and
## each game's rules' reasons (refusal-GAME-CODE, with the reason's parameters; a colour
## is its name in the page's language)

refusal-unknown-move = That is not a move this game knows: “Moves in notation” shows what to write.
refusal-not-allowed = The rules do not allow that move here.
refusal-not-taken = The server could not take that. If it happens again, reload the page.
refusal-auth = This page has already said who it is: reload the page.
refusal-bot = A bot could not make its move, so the game cannot go on for now.
refusal-turn = It is not your turn yet.
refusal-stale = The game moved on before your move arrived: look again and retry.
refusal-over = The game is over.
refusal-bot-seat = A bot plays this seat.
refusal-spectator = You are watching this game: open it with your seat's link to play.
refusal-storage = Your move could not be saved: reload the page and try again.
refusal-slow-down = Too many moves at once: wait a moment, then try again.
refusal-abandoned = This game was abandoned: no one moved in it for a long time.
refusal-reissued = The host gave this seat a new invitation: this page no longer plays it.
closed-no-game = There is no such game: check the link.
closed-no-seat = This link does not open a seat of this game any more (the host may have given the seat a new invitation).
closed-no-auth = The page could not say who it is to the server in time. Reload the page.
closed-broken = This game cannot be opened: it is damaged. The server's operator can tell more.
closed-other = The server closed the connection (code { $code }). Reload the page.
refusal-late = Your time ran out before this move arrived, so it was not played.
refusal-paused = The next round starts when everyone has seen how this one ended.
refusal-abort-late = Every player has moved: the game can no longer be aborted.
refusal-claim-none = There is nothing to claim: only a real-time player who is away on their own turn can be claimed against.
refusal-claim-early = That player may still come back: you can claim once their grace time is over.
refusal-undo-none = There is no move to take back.
refusal-undo-passed = The turn has passed to another player: ask them to agree to take it back.
refusal-undo-chance = A draw or a roll came since that move, so it can no longer be taken back.
refusal-undo-rated = A rated game's moves cannot be taken back.
refusal-undo-many = This game has had as many take-backs as a game may have.
refusal-undo-hidden = A bot has shown a piece of its hidden hand since that move, so it can no longer be taken back.
refusal-another-colour = another colour
refusal-cubed-refused = That piece cannot go there.
refusal-cubed-occupied = That cell already holds a piece.
refusal-cubed-blocking-early = A piece with a black side may go down only once 3 pieces are on the table.
refusal-cubed-blocking-mismatch = A piece with a black side must match exactly, and here its { $mine } side meets { $theirs }.
refusal-cubed-dead-cell = A black side may touch nothing, and here something would touch one.
refusal-cubed-black-contact = A black side may touch nothing, and here something would touch one.
refusal-cubed-first-at-origin = The first piece goes in the middle of the table.
refusal-cubed-reach = That is too far from the middle of the table.
refusal-cubed-no-touch-first = The piece must touch the piece already on the table.
refusal-cubed-too-few-touches = From the third piece on, a piece must touch at least two others.
refusal-cubed-mismatch = The colours do not match: the { $slot ->
    [top] top
    [left] left
   *[right] right
  } of your piece is { $mine }, the piece beside it is { $theirs }.
refusal-cubed-too-few-matches = The colours do not match: touching sides must share a colour.
refusal-cubed-flipped = A piece may be turned but not flipped over.
refusal-cubed-not-in-hand = That piece is not in your hand.
refusal-cubed-not-drawn = Keep one of the pieces you just drew.
refusal-cubed-keep-first = First choose which of the drawn pieces to keep.
refusal-cubed-give-first = You filled a gap: give a piece to another player, or give nothing.
refusal-cubed-bridge-first = You bridged a gap: lay one more piece, or pass.
refusal-cubed-drawn-already = You have already drawn this turn: lay a piece or pass.
refusal-cubed-bag-empty = The bag is empty: there is nothing left to draw.
refusal-cubed-bag-short = There are not that many pieces left in the bag.
refusal-cubed-draw3-count = You may draw 1, 2 or 3 pieces.
refusal-cubed-pass-before-draw = Draw a piece first: you may pass only after drawing, or once the bag is empty.
refusal-cubed-solo-draw = In solo play you may draw only when no piece fits.
refusal-cubed-solo-no-pass = In solo play there is no passing.
refusal-cubed-give-self = You cannot give a piece to yourself.
refusal-cubed-no-seat = There is no such player.
refusal-cubed-no-draw3 = Drawing three is a variant this game does not use.
refusal-cubed-unknown-colours = This set has no piece in those colours.
refusal-cubed-nothing-now = That is not something you can do now.
refusal-unstackable-occupied = A cube is already there.
refusal-unstackable-float = Nothing would hold that cube up: it needs a cube under it.
refusal-unstackable-not-next = On the bag, a new cube must go next to the cubes already there.
refusal-unstackable-under-bag = Nothing goes under the bag.
refusal-unstackable-first-in-corner = The first cube goes in the corner of the bag.
refusal-unstackable-too-big = The cube may never grow beyond 4 wide, 4 deep or 4 tall.
refusal-unstackable-outside = That is outside the cube.
refusal-unstackable-none-left = There are no { $colour } cubes left.
refusal-unstackable-turn-colour = This turn is { $colour }: stack { $left } more { $colour } { $left ->
    [one] cube
   *[other] cubes
  }.
refusal-unstackable-exact-count = A { $colour } turn stacks exactly { $count } cubes: keep going.
refusal-unstackable-end-empty = Stack at least one cube before you end your turn.
refusal-unstackable-built = The cube is built: now take cubes out.
refusal-unstackable-building = The cube is still being built: stack a cube.
refusal-unstackable-empty = There is no cube there to take.
refusal-unstackable-holds-up = That cube holds up the one above it: it cannot be pulled out.
refusal-unstackable-buried = That cube is too buried: a cube comes out only with 3 of its faces open.
refusal-stakd-occupied = That spot is taken.
refusal-stakd-overhang = A piece must lie wholly on pieces of the layer below.
refusal-stakd-bombed = Nothing more may go on a piece that a BLUE BOMBER has capped.
refusal-stakd-carries = The piece under it already carries a { $piece }.
refusal-stakd-identical = A piece may not cover exactly the same spots as the piece under it.
refusal-stakd-one-bomber = This layer already has its BLUE BOMBER: one per layer.
refusal-stakd-alone = The piece must touch another piece of its layer, side by side.
refusal-stakd-none-left = You have no { $piece } left.
refusal-stakd-base-touch = A BASE must touch the BASEs already laid along at least two of its spots.
refusal-stakd-bases-first = Lay all the BASEs first.
refusal-stakd-bases-low = BASEs go on the bottom layer, and only BASEs go there.
refusal-stakd-first-base = The first BASE goes on the middle spot.
refusal-stakd-closed = That layer is closed: a higher layer has started.
refusal-stakd-skip-layer = Layers are built from the bottom up.
refusal-stakd-too-early = The next layer cannot start yet: the layer below needs more pieces first.
refusal-stakd-bomber-opens = A new layer never starts with a BLUE BOMBER.
refusal-stakd-uni-opens = A new layer starts with a UNI only when you hold nothing else to start it.
refusal-stakd-shape = The piece does not have that shape.
refusal-stakd-reach = That is too far from the middle of the table.
refusal-cubes-not-refereed = The dice are rolled for you: press Roll the dice.
refusal-cubes-face-count = That is not a roll these dice can show.
refusal-cubes-no-face = That is not a roll these dice can show.
refusal-cubes-only-roll = The only move is to roll the dice.

## words: the engines' refusals of a request (a bad option, bot or time control), worded
## by code (core.phrase.Worded); an English answer keeps the engine's own words

error-plugin = { $error }
error-plugin-bad-id = game id { $game } ({ $entry }) is not a lower-case word ([a-z][a-z0-9_]*, at most 32 characters); left out
error-plugin-twice = game '{ $game }' is registered twice ({ $first } and { $second }); using { $first }
error-plugin-unloadable = game '{ $game }' ({ $entry }) cannot be loaded: { $error }
error-plugin-not-game = game '{ $game }' ({ $entry }) is not a cubegames Game class
error-plugin-no-facts = game '{ $game }' ({ $entry }) declares no facts and none can be worked out: { $error }
error-plugin-other-id = game '{ $game }' ({ $entry }) calls itself { $other }, not '{ $game }'
error-plugin-openspiel-name = game '{ $game }': its option '{ $option }' has the name of an OpenSpiel parameter of the adapter's own, so it is not registered with OpenSpiel
error-option-unknown = { $game } has no option { $option } here; it takes { $options }
error-option-whole = option { $option }: must be a whole number
error-option-exactly = option { $option }: must be { $value }
error-option-range = option { $option }: must be from { $low } to { $high }
error-option-bool = option { $option }: must be true or false
error-option-choice = option { $option }: choose from { $choices }
error-option-list = option { $option }: a list of names from { $choices }
error-bot-unknown = unknown bot '{ $bot }'; choose from { $bots }
error-bot-game = bot '{ $bot }' plays { $games } only, not { $game }
error-bot-game-only = bot '{ $bot }' does not play { $game }
error-bot-seed = bot '{ $bot }': the server picks the bot's seed; give no seed
error-bot-finite = bot '{ $bot }': { $key } must be a finite number
error-bot-bound = bot '{ $bot }': { $key } is at most { $high } on this server
error-bot-settings = bot '{ $bot }': { $reason }
error-seat-bot = seats.{ $seat }: { $reason }
error-clock-number = { $field }: expected a number, got { $got }
error-clock-finite = { $field }: expected a finite number, got { $got }
error-clock-negative = { $field }: cannot be negative (got { $got })
error-clock-object = { $field }: expected an object such as a kind and a preset
error-clock-kind = { $field }: expected none, realtime or turn, got { $got }
error-clock-setting = { $field }: not a setting of a { $kind } clock
error-clock-days = { $field }: a turn-based game gives 1, 3 or 7 days a move (got { $got })
error-clock-both = { $field }: give a preset or minutes and increment, not both
error-clock-preset = { $field }: expected one of { $presets }, got { $got }
error-clock-minutes-missing = { $field }: a real-time clock needs minutes (or a preset)
error-clock-min-minutes = { $field }: at least { $low } minutes (15 seconds), or there is no time to move (got { $got })
error-clock-max-minutes = { $field }: at most { $high } on this server (got { $got })
error-clock-max-increment = { $field }: at most { $high } seconds on this server (got { $got })
## tutorials (tutorial.js, server/tutorials.py): a first game that teaches, one sentence a
## step; { $name } is the other player as the page names them
tutorial-start-heading = Learn by playing
tutorial-start-lead = A short guided game shows each rule when it matters, then you play on against the random bot.
tutorial-start-button = Learn { $game }
tutorial-making = Setting up your first game…
tutorial-failed = The tutorial could not start: { $reason }
tutorial-heading = Tutorial
tutorial-step-of = step { $step } of { $steps }
tutorial-wrong = Not that one this time. { $why }
tutorial-turn = Right place! Press { $button } { $turns ->
    [one] once
   *[other] twice
  } and lay the piece here.
tutorial-done = Well played: you know the rules now.
tutorial-own-game = Start a game of your own.
tutorial-cubed-intro = In CUBED you lay three-coloured pieces so that touching sides are the same colour; the first to empty their hand wins the round.
tutorial-cubed-first = The first piece goes in the middle of the table: choose the lit piece of your hand, then the lit cell.
tutorial-cubed-second = { $name } lays the second piece: it only has to touch one piece, and the sides that touch must be the same colour.
tutorial-cubed-two = From the third piece on, a piece must touch at least two pieces and every side it touches must match: lay the lit piece where it meets both.
tutorial-cubed-they-match = { $name } lays a piece that touches two pieces, every touching side matching.
tutorial-cubed-draw = Instead of laying a piece you may draw one from the bag, once a turn: press the lit button.
tutorial-cubed-drawn = After drawing you may lay a piece or pass: the piece you drew fits the lit cell.
tutorial-cubed-they-lay = { $name } lays another piece: the more pieces on the table, the more places a piece can fit.
tutorial-cubed-blocking = This is a blocking piece: its colour must match two pieces, and nothing may ever touch its black sides, so the cells beside them close for good.
tutorial-cubed-free = Those are the rules: finish the round against the random bot, and try to empty your hand first.
tutorial-unstackable-intro = Unstackable has two stages: together you build a 4×4×4 cube, then you take it apart for points; the first cubes are stacked already.
tutorial-unstackable-yellow = Stage 1: a turn places 3 black, 2 red or 1 yellow cube; choose yellow and place your one cube on the lit spot.
tutorial-unstackable-their-red = { $name } chose red, so they place two red cubes, one at a time.
tutorial-unstackable-red = Now choose red and place two cubes: a cube goes on the floor beside another, or on top of a cube.
tutorial-unstackable-last-red = This is the last red cube: whoever stacks it goes second when the cube is taken apart.
tutorial-unstackable-stage-two = Only black is left, so the cube fills up with black and stage 2 begins: { $name } takes two cubes out.
tutorial-unstackable-uncovered = { $name } takes out the cube that sat on your yellow one.
tutorial-unstackable-pile-one = A cube can come out when nothing sits on it and at least 3 of its sides are free; your first cube of a turn goes to pile 1, where yellow scores 5.
tutorial-unstackable-pile-two = Your second cube goes to pile 2, where only black scores, 1 point: take the lit black cube.
tutorial-unstackable-free = Now take the rest of the cube apart against the random bot; the most points win.
tutorial-stakd-intro = In STAKD you build a stack layer by layer; whoever lays the last piece that is not a BLUE BOMBER wins the round.
tutorial-stakd-base = Layer 0 is made of BASE pieces: choose BASE and lay yours on the lit spots.
tutorial-stakd-their-base = { $name } lays a BASE touching the bases already down, as every base after the first must.
tutorial-stakd-base-two = Lay your second BASE on the lit spots.
tutorial-stakd-layer = Now layer 1: every node of a piece must rest on a piece below; lay a DUO on the lit spots.
tutorial-stakd-connect = { $name } lays a TRIO touching a piece already on this layer, as every piece after a layer's first must.
tutorial-stakd-uni = A UNI is a single node: it fills small gaps, but a new layer may never begin with one; lay it on the lit spot.
tutorial-stakd-their-duo = { $name } lays a DUO on their own BASE: a piece may carry only one piece of each type.
tutorial-stakd-bomber = The BLUE BOMBER ends the piece under it, so nothing more may be laid on that BASE: lay it on the lit spot.
tutorial-stakd-free = Play the round out against the random bot: layer 2 opens once layer 1 holds 6 pieces.
tutorial-cubes-intro = In CUBES you only roll the dice: the chips in the middle are the pot, and each roll says who pays and who takes.
tutorial-cubes-numbers = Roll the dice: when only numbers show, you take their sum from the pot.
tutorial-cubes-word = { $name } rolls the word CUBES with one or two numbers: everyone else pays 5, then they take twice the sum.
tutorial-cubes-pot = Roll again: the word CUBES with three numbers or more claims the whole pot.
tutorial-cubes-free = Play on against the random bot: whoever cannot pay what they owe ends the set with 0 points.
error-no-tutorial = { $game } has no tutorial
error-tutorial-not-host = only the host of a tutorial game may hand its seats to the bot
error-not-a-tutorial = this game is not a { $game } tutorial
error-tutorial-not-done = the guided moves are not over: { $moves } to go
error-tutorial-over = the game has ended already
## table (engineer "table": hot-seat names, low-time sound, turn notifications)

# a seat played at this screen when several are (a hot-seat table)
seat-you-numbered = You · Player { $number }
sound-low = a soft double tick: your clock is low
# the bar's button in a game with a clock: a browser notification when your turn comes
# while the tab is hidden (the browser asks for leave when it is first pressed)
play-notify-ask = Alert me on my turn
play-notify-on = Turn alerts on
play-notify-blocked = Alerts blocked by this browser
play-notify-title = A notification from your browser when it becomes your turn while this tab is hidden
notify-your-turn = { $game }: your turn
notify-body = Move { $ply } is yours to play.
error-record-too-large = the file is too large: { $bytes } bytes, at most { $most }
error-record-too-deep = this file nests too deep: at most { $levels } levels
error-record-not-json = { $line ->
    [0] not valid JSON
   *[other] not valid JSON (line { $line } column { $column })
  }
error-record-long-number = this file holds a number too long to read
error-record-not-record = this is not a game record (no "format": "{ $format }")
error-record-field = bad record: the field { $field } is wrong
error-record-options = bad record: { $reason }
error-record-seats = bad record: this { $game } game has { $seats } seats, the record lists { $listed }
error-record-bot-name = bad record: seats.{ $seat }: a bot seat needs its bot's name
error-record-seat-bot = bad record: seats.{ $seat }: { $reason }
error-record-move-over = move { $number } ({ $move }): the game was already over

## -- the lobby, the chat and names (branch lobby, issue #25) --
error-name-mixed = a name cannot mix scripts that look alike (such as a Cyrillic letter among Latin ones): write it in one script
error-name-confusable = that name looks too much like another player's: choose another
refusal-chat-blank = A line cannot be blank: write something first.
refusal-chat-long = That line is too long: shorten it and send it again.
refusal-chat-hidden = That line holds an invisible or control character: take it out and send it again.
chat-spectator-tag = Spectator { $tag }
error-record-move-refused = move { $number } ({ $move }) is refused by the rules: { $reason }

## words: the terminal (cubegames play, render/terminal); the commands typed (?, help, quit,
## roll), move notation and bot names as given are not translated

term-start = { $game } · type help for help
term-seed = This deal was seed { $seed }: play it again with --seed { $seed }.
term-help = Type a move in notation, or the number of a move in the list.
term-help-list = list the legal moves
term-help-help = this text
term-help-quit = leave the game
term-hand-over = { $who }, your turn. Others look away; press Enter.
term-game-left = Game left unfinished.
term-many-moves = { $count } legal moves; type ? to list them.
term-prompt = { $who } move>
term-no-such-move = There is no move { $index }; choose 1 to { $count }.
term-not-allowed = Not allowed: { $reason }
term-unknown-move = That is not a move of this game: type ? to list the legal moves.
term-plays = { $who } plays { $move }
term-bot-plays = { $who } ({ $bot }) plays { $move }
term-score = { $who }: { $points }
term-game-over = Game over. Scores: { $scores }
term-nobody-won = Nobody won.
term-winners = { $count ->
    [one] Winner: { $names }
   *[other] Winners: { $names }
  }
term-moves = moves: { $moves }
term-col-seat = seat
term-col-pieces = pieces
term-col-total = total
term-col-in-hand = points in hand
term-col-points = points
term-col-set = set { $set }
term-col-pile = pile { $pile }
term-you-mark = {" "}(you)
term-cubed-variants = variants: { $variants }
term-cubed-hand = { $pieces ->
    [one] Your hand (1 piece):
   *[other] Your hand ({ $pieces } pieces):
  }
term-cubed-keep-one = Drawn for draw3, keep one:
term-cubed-past = Round { $round }: { $scores } ({ $end })
term-cubed-end-emptied = a hand was emptied
term-cubed-end-blocked = no cell was left to play
term-cubed-end-stalled = nobody could lay a piece
term-cubed-end-standstill = the bag was empty and a full circle laid nothing
term-cubed-end-stuck = no piece fitted, even after two draws
term-cubed-end-bag_empty = a draw was due and the bag was empty
term-cubed-solo-ended = Solo game over: { $end }.
term-cubes-set = set { $set } of { $sets }
term-cubes-in-play = { $points } of the box's { $box } points in play
term-cubes-no-roll = No roll yet.
term-cubes-rolled = { $who } rolled  { $faces }
term-cubes-set-over = Set { $set } is over. Scores { $scores }.
term-cubes-won = Game over: { $who } won with { $points }.
term-cubes-your-roll = Your roll: type roll.
term-cubes-your-roll-referee = Your roll: type roll, or what the real dice show, e.g. roll 1 C . 6 . 3.
term-stakd-empty = (nothing laid yet)
term-stakd-layer = layer { $z }
term-stakd-pieces = { $pieces ->
    [one] 1 piece
   *[other] { $pieces } pieces
  }
term-stakd-closed = closed
term-stakd-new = new
term-stakd-bombed = BOMBER used
term-stakd-solo = solo: lay all { $pieces } pieces to win
term-stakd-race = round { $round } · first to { $points } points
term-stakd-current = current layer { $z }
term-stakd-legend = × terminated   + your moves
term-stakd-round-won = round { $round }: { $who }
term-stakd-won-so-far = Won so far: { $rounds }
term-unst-bag = z=0 (bag)
term-unst-choose = { $who } to choose a colour and stack
term-unst-stacking = { $exact ->
    [yes] { $who } stacking { $colour }, { $placed } of { $per } placed
   *[other] { $who } stacking { $colour }, { $placed } of up to { $per } placed
  }
term-unst-remove = { $who } to remove a cube for pile { $pile }
term-unst-stage-stack = stage 1: stacking
term-unst-stage-unstack = stage 2: unstacking
term-unst-bag-exposed = the bag counts as exposed
term-unst-fewer = a turn may place fewer cubes (end)
term-unst-supply = Supply:
term-unst-last-red = {" "}(last red)
term-error-seat = --seat { $seat }: this game has seats 0 to { $last }
term-error-bots = --bot: { $bots ->
    [one] 1 bot
   *[other] { $bots } bots
  } for { $seats ->
    [0] no other seat
    [one] 1 other seat
   *[other] { $seats } other seats
  }

## words: checks across a game's options, a bot's own complaints about its settings, a
## request the API's models refuse, a record whose result does not match (engineer "words")

edition-cubed-en = English edition
edition-cubed-ja = Japanese edition
edition-stakd-standard = standard edition
edition-cubes-standard = standard edition
error-edition-unknown = unknown edition '{ $edition }'; choose from { $editions } or give a .toml file
error-edition-unreadable = cannot read edition file { $file }: { $reason }
error-edition-too-large = { $file }: too large to read (more than { $bytes } bytes)
error-edition-not-text = { $file }: not a text file
error-players-edition = the { $edition } plays { $low } to { $high } players, not { $players }
error-players-range = { $game } plays { $low } to { $high } players, not { $players }
error-players-exactly = { $game } is a game for exactly { $count } players, not { $players }
error-variant-twice = a variant is named twice
error-variant-solo = the variant “{ $variant }” needs other players; solo has none
error-solo-rounds = solo play is a single game: rounds must be 1
error-solo-points = solo play is a single round: the points to win must be 1
error-bot-no-param = bot '{ $bot }' takes no setting '{ $key }'
error-bot-whole = bot '{ $bot }': { $key } must be a whole number from { $low } to { $high }
error-bot-number = { $above ->
    [yes] bot '{ $bot }': { $key } must be a finite number above { $low } and at most { $high }
   *[other] bot '{ $bot }': { $key } must be a finite number of at least { $low } and at most { $high }
  }
error-bot-flag = bot '{ $bot }': { $key } must be true or false
error-bot-budget-twice = bot '{ $bot }': give iterations or seconds, not both
error-bot-twice = bot '{ $bot }': { $key } is given twice; give it once
error-field-missing = { $field }: this field is missing
error-field-extra = { $field }: there is no such field
error-field-choice = { $field }: must be one of { $expected }
error-field-long = { $field }: at most { $max-length } characters
error-field-short = { $field }: at least { $min-length } characters
error-field-many = { $field }: at most { $max-length } entries
error-field-few = { $field }: at least { $min-length } entries
error-field-at-least = { $field }: must be at least { $ge }
error-field-above = { $field }: must be above { $gt }
error-field-at-most = { $field }: must be at most { $le }
error-field-below = { $field }: must be below { $lt }
error-field-kind = { $kind ->
    [whole] { $field }: must be a whole number
    [number] { $field }: must be a number
    [bool] { $field }: must be true or false
    [text] { $field }: must be text
    [object] { $field }: must be an object
    [list] { $field }: must be a list
    [json] { $field }: this is not JSON
   *[other] { $field }: a value of the wrong kind
  }
error-field-invalid = { $field }: this value is not accepted
error-record-result = bad record: its result does not match its moves
error-unstorable-long = { $field }: at most { $length } characters can be stored
error-unstorable-nul = { $field }: a NUL character (\u0000) cannot be stored
error-unstorable-surrogate = { $field }: a lone surrogate (half of a UTF-16 pair) cannot be stored
error-record-unstorable = bad record: { $reason }
variant-cubed-bridging = Bridging the gap
variant-cubed-void = Fill the void
variant-cubed-draw3 = Draw 3, keep 1
error-game-broken = game { $game } can no longer be replayed from its moves
error-option-text = option { $option }: must be text
error-option-a-list = option { $option }: must be a list
error-option-at-least = option { $option }: must be at least { $low }
error-option-at-most = option { $option }: must be at most { $high }
error-option-invalid = option { $option }: this value is not accepted
error-option-pair = --option { $pair }: write it as key=value
error-option-twice = --option { $option } is given twice; give it once
error-players-twice = --players { $players } and --option players={ $option } disagree: give one of them
error-bot-pairs = bot '{ $bot }': parameters are written key=value

## words: the generic table of a plug-in game (games/generic.js, render/web/generic.py); the
## game's own field names, notation and words are its own

words-generic-played = { $who } played { $move }.
words-generic-moved = { $who } moved.
generic-none = none
generic-move-label = A move in notation
generic-more = and { $count } more: type one
generic-example = a move, e.g. { $move }
generic-your-move = Your move: pick one, or type it.
generic-moves-next = { $name } moves next.
error-game-unknown = unknown game '{ $game }'; choose from { $games }

## lab2: `cubegames odds` (the exact odds of a game's chance, games/cubes/terminal.py)

term-odds-title = CUBES · exact odds over all { $rolls } rolls ({ $edition })
term-odds-caption = s: the sum of the numbers showing · mean claim: the average amount the roller claims from the pot on such a roll
term-odds-col-roll = roll
term-odds-col-happens = what happens
term-odds-col-rolls = rolls
term-odds-col-probability = probability
term-odds-col-claim = mean claim
term-odds-rule-numbers = roller takes s (pot short: takes nothing, pays the difference)
term-odds-rule-cubes-few = opponents pay { $opp }, roller takes { $mult }s the same way
term-odds-rule-cubes-many = opponents pay { $opp }, roller takes the whole pot
term-odds-rule-cubes-only = opponents pay { $opp }
term-odds-rule-blank = roller pays { $blank }
term-odds-none = { $game } has no table of exact odds (the games that have one: { $games })
## cli: the command line (engineer "words2"; cli.py, clickwords.py). click's own messages are
## cli-click-…: their $fields (name, value, message…) are click's, filled in by click, as it
## writes them (quoted: 'x'). The player commands' help is cli-help-COMMAND(-OPTION); what
## they print is cli-…. Option names, commands and notation are what is typed: untranslated.
cli-click-usage = Usage:
cli-click-options = Options
cli-click-commands = Commands
cli-click-arguments = Positional arguments
cli-click-help = Show this message and exit.
cli-click-version-help = Show the version and exit.
cli-click-default = default: { $default }
cli-click-missing-command = Missing command.
cli-click-no-such-command = No such command { $name }.
cli-click-no-such-option = No such option { $name }.
cli-click-missing-argument = Missing argument
cli-click-missing-option = Missing option
cli-click-missing-parameter = Missing parameter
cli-click-invalid-for = Invalid value for { $param_hint }: { $message }
cli-click-invalid = Invalid value: { $message }
cli-click-open-file = Could not open file { $filename }: { $message }
cli-click-takes-no-value = Option { $name } does not take a value.
cli-click-argument-values = Argument { $name } takes { $nargs } values.
cli-click-range = { $value } is not in the range { $range }.
cli-click-number = { $value } is not a valid { $number_type }.
cli-click-boolean = { $value } is not a valid boolean. Recognized values: { $states }
cli-click-did-you-mean = { $count ->
    [one] Did you mean { $possibility }?
   *[other] (Did you mean one of: { $possibilities }?)
  }
cli-click-extra-arguments = { $count ->
    [one] Got unexpected extra argument ({ $args })
   *[other] Got unexpected extra arguments ({ $args })
  }
cli-click-value-count = { $count ->
    [one] Takes { $nargs } values but 1 was given.
   *[other] Takes { $nargs } values but { $len } were given.
  }
cli-click-needs-value = { $count ->
    [one] Option { $name } requires an argument.
   *[other] Option { $name } requires { $nargs } arguments.
  }
cli-click-choice = { $count ->
    [one] { $value } is not { $choice }.
   *[other] { $value } is not one of { $choices }.
  }
cli-help-cubegames = Tabletop games built around cubes: play them, check positions, pit bots.
cli-help-lang = The language: en (English) or ja (Japanese); default: $CUBEGAMES_LANG, else the locale ($LC_ALL, $LC_MESSAGES, $LANG), else en.
cli-help-play =
    Play GAME in the terminal, against bots or people at the same keyboard.

    GAME is one of the ids listed by `cubegames games`. Every sentence (prompts, help, the moves in words, refusals, results) is in the language of --lang.
cli-help-play-players = Number of seats.
cli-help-play-seats = A seat played at this keyboard (repeat for hot-seat play; default: seat 0).
cli-help-play-bots = Bot for the other seats, in seat order; the last one fills the rest (default: random).
cli-help-play-pairs = A game option, e.g. -o edition=ja -o variants=bridging,void -o rounds=1.
cli-help-play-seed = Seed for the deal (default: random).
cli-help-moves = List the legal moves of a saved position, one a line.
cli-help-odds = Exact odds of a game's chance events, as its terminal part lists them (CUBES: every outcome of a roll of six dice).
cli-help-odds-pairs = A game option.
cli-help-check = Say whether MOVE is legal in a saved position: "legal" (exit 0) or why not (exit 1).
cli-help-rules =
    Print the rules of GAME: how to play, and every reading the project assumed.

    GAME is one of the ids listed by `cubegames games`. The same text is in the project's docs/rules/GAME.md (in Japanese docs/rules/ja/GAME.md) and on the web page under "How to play".
cli-help-rules-plain = Print the markdown as it is, or laid out for a terminal (default: laid out in a terminal, plain when piped).
cli-help-games = List the games and the options each one takes (a registered game that cannot be loaded is named on stderr instead).
cli-legal = legal
cli-cannot-read = cannot read { $path }: { $reason }
cli-os-missing = No such file or directory
cli-os-denied = Permission denied
cli-os-folder = Is a directory
cli-os-other = the file could not be read
cli-not-text = { $path }: not a text file
cli-too-large = { $path }: too large to read (more than { $bytes } bytes)
cli-not-json = { $path }: not valid JSON ({ $reason } at line { $line } column { $column })
cli-too-deep = { $path }: not a position file (its brackets nest too deep to read)
cli-long-number = { $path }: not a position file (it holds a number too long to read)
cli-bad-file = { $path }: { $reason }
cli-bad-field = { $path }: { $reason }{ $field ->
   *[other] {""}
  }
cli-missing-field = { $path }: { $reason }{ $field ->
   *[other] {""}
  }
cli-failed = the command failed: { $error } ({ $place })
cli-games-line = { $game }: options { $options }
cli-games-option = { $name }{ $label ->
   *[other] {""}
  }
cli-games-none = (none)
cli-rules-unknown = no rules for '{ $game }'; the games are { $games }
cli-help-replay =
    Tell a game record (a cubegames-record file, as the web app saves it) move by move in words, then its result.

    The record is replayed through the engine; its moves are told as the move log tells them, in the language of --lang, as a spectator sees the game, or as --seat sees it.
cli-help-replay-seat = Tell the game as this seat saw it (default: as a spectator).
cli-replay-unfinished = The game was not finished.
cli-replay-seat-named = { $seat } ({ $name })
cli-check-unknown-move = That is not a move of this game: `cubegames moves` lists the legal ones.
cli-replay-view-of = this file is seat { $seat }'s own view of the game: it is told as that seat saw it
cli-help-compile =
    Compile the numba kernels now, so no bot move or simulation waits for them.

    The first use of a kernel on a machine compiles it (one to three minutes for all of them); later runs load it from numba's cache in a moment. `make play` (the bots only) and `make test` run it before they start.
cli-help-compile-parts = Only these parts (repeatable; default: all of them).
cli-compile-compiling = compiling the kernels of the { $part }...
cli-compile-ready = { $part }: ready ({ $seconds } s)
cli-serve-open = open { $address } in a browser (Ctrl-C stops)
cli-serve-kept = games are kept in { $place }
