// The leaderboard of a game (/leaderboard/GAME) and a player's page (/player/NAME): their
// ratings, games, results and a line chart of their rating over time, drawn here as SVG
// (nothing is loaded from elsewhere).

import { api, h, playLink, TITLES, when } from "./util.js";
import { t } from "./i18n.js";
import { s } from "./draw.js";

function rating(entry, provisionalGames) {
  const mark = entry.provisional ? h("abbr", { class: "provisional", title: t("leaderboard-provisional", { count: provisionalGames }) }, "?") : null;
  return h("span", { class: "rating" }, String(entry.rating), mark);
}

function edition(pool) {
  return t("leaderboard-pool", { pool: pool.charAt(0).toUpperCase() + pool.slice(1) });
}

function poolName(pool) {
  return pool ? ` · ${edition(pool)}` : "";
}

export async function leaderboardPage(root, game) {
  const title = TITLES[game] || game;
  document.title = `${t("leaderboard-heading", { game: title })} · cubegames`;
  const card = h("section", { class: "card leaderboard" }, h("h1", {}, t("leaderboard-heading", { game: title })));
  root.replaceChildren(h("p", {}, h("a", { href: "/" }, t("play-all-games"))), card);
  let pools;
  try {
    pools = (await api("/api/ratings")).filter((p) => p.game === game);
  } catch (err) {
    card.append(h("p", { class: "error" }, err.message));
    return;
  }
  // no rated game of it yet: no pool to ask for (a game with editions or rule sets has no
  // pool "", and asking for it was refused in the server's words)
  if (!pools.length) {
    card.append(h("p", { class: "muted" }, t("leaderboard-empty")));
    return;
  }
  for (const pool of pools) {
    let board;
    try {
      board = await api(`/api/ratings/${encodeURIComponent(game)}?pool=${encodeURIComponent(pool.pool)}`);
    } catch (err) {
      card.append(h("p", { class: "error" }, err.message));
      continue;
    }
    if (pool.pool) card.append(h("h2", {}, edition(pool.pool)));
    if (!board.players.length) {
      card.append(h("p", { class: "muted" }, t("leaderboard-empty")));
      continue;
    }
    card.append(h("table", { class: "board-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("leaderboard-place")), h("th", { scope: "col" }, t("leaderboard-player")),
        h("th", { scope: "col", class: "num" }, t("leaderboard-rating")), h("th", { scope: "col", class: "num" }, t("leaderboard-games")))),
      h("tbody", {}, board.players.map((p) => h("tr", {},
        h("td", {}, String(p.place)),
        h("td", {}, p.bot ? [p.player, " ", h("span", { class: "tag bot" }, t("leaderboard-bot"))]
          : h("a", { href: `/player/${encodeURIComponent(p.player)}` }, p.player)),
        h("td", { class: "num" }, rating(p, board.provisional_games)),
        h("td", { class: "num" }, String(p.games)))))));
    if (board.players.some((p) => p.provisional)) {
      card.append(h("p", { class: "muted small-print" }, `? ${t("leaderboard-provisional", { count: board.provisional_games })}`));
    }
  }
}

export async function playerPage(root, name) {
  document.title = `${t("player-title", { name })} · cubegames`;
  const back = h("p", {}, h("a", { href: "/" }, t("play-all-games")));
  let page;
  try {
    page = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch {
    root.replaceChildren(back, h("section", { class: "card" }, h("p", { class: "error" }, t("player-none"))));
    return;
  }
  const ratings = h("section", { class: "card" }, h("h2", {}, t("player-ratings")));
  if (!page.ratings.length) ratings.append(h("p", { class: "muted" }, t("player-no-ratings")));
  else {
    ratings.append(h("ul", { class: "rating-list" }, page.ratings.map((r) =>
      h("li", {}, h("a", { href: `/leaderboard/${encodeURIComponent(r.game)}` }, `${TITLES[r.game] || r.game}${poolName(r.pool)}`), " ",
        rating(r, 10), h("span", { class: "muted" }, ` · ${t("leaderboard-games")}: ${r.games}`)))));
  }
  const history = h("section", { class: "card" }, h("h2", {}, t("player-history")));
  const byPool = new Map();
  for (const e of page.history) {
    const key = `${e.game}|${e.pool}`;
    if (!byPool.has(key)) byPool.set(key, []);
    byPool.get(key).push(e);
  }
  if (!byPool.size) history.append(h("p", { class: "muted" }, t("player-no-ratings")));
  for (const [key, events] of byPool) {
    const [game, pool] = key.split("|");
    history.append(chart(`${TITLES[game] || game}${poolName(pool)}`, events));
  }
  const games = h("section", { class: "card" }, h("h2", {}, t("player-games")),
    h("ul", { class: "game-list" }, page.games.map((g) => {
      const over = g.status === "finished";
      const result = !over ? t("player-in-play") : g.won ? t("player-won") : t("player-lost");
      return h("li", {}, h("a", { class: "game-name", href: over ? `/replay/${encodeURIComponent(g.id)}` : playLink(g.id) }, TITLES[g.game] || g.game),
        g.rated ? h("span", { class: "tag rated" }, t("account-rated")) : null,
        h("span", { class: `result ${over ? (g.won ? "won" : "lost") : ""}` }, result),
        h("span", { class: "muted" }, when(g.created)));
    })));
  root.replaceChildren(back, h("h1", { class: "player-name" }, page.name), ratings, history, games);
}

/** A line chart of a rating after each rated game: the numbers on the left, one dot a game. */
export function chart(label, events) {
  const width = 560;
  const height = 200;
  const pad = { left: 44, right: 12, top: 12, bottom: 24 };
  // from 1500, a newcomer's rating, so that the first game draws a line too
  const values = [1500, ...events.map((e) => e.rating)];
  const low = Math.min(...values, 1500) - 20;
  const high = Math.max(...values, 1500) + 20;
  const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / (values.length - 1);
  const y = (v) => pad.top + ((high - v) * (height - pad.top - pad.bottom)) / (high - low);
  const svg = s("svg", { class: "rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("player-chart", { game: label }) });
  for (const v of [low + 20, Math.round((low + high) / 2), high - 20]) {
    svg.append(s("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }));
    const text = s("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" });
    text.textContent = String(Math.round(v));
    svg.append(text);
  }
  svg.append(s("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "line" }));
  events.forEach((e, i) => {
    const dot = s("circle", { cx: x(i + 1), cy: y(e.rating), r: 4, class: "dot" });
    const tip = s("title", {});
    tip.textContent = `${e.rating} · ${when(e.at)}`;
    dot.append(tip);
    svg.append(dot);
  });
  return h("figure", { class: "chart" }, h("figcaption", {}, label), svg);
}
