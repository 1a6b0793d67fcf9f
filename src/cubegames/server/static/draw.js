// Drawing pieces every game shares: SVG elements, hexagons, colours, a board that pans
// and zooms (mouse wheel, drag, pinch), a note shown at a cell, and the animation of a
// piece arriving.

const NS = "http://www.w3.org/2000/svg";

/** An SVG element: s("rect", {x: 1, class: "c"}, child, ...). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Text centred on (x, y). */
export function label(x, y, content, attrs = {}) {
  return s("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, content);
}

export const SQRT3 = Math.sqrt(3);

/** A corner of a pointy-top hexagon: `degrees` counter-clockwise from east. */
export function corner(cx, cy, r, degrees) {
  const a = (degrees * Math.PI) / 180;
  return [cx + r * Math.cos(a), cy - r * Math.sin(a)];
}

export function pointsOf(list) {
  return list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
}

export function hexPoints(cx, cy, r) {
  return pointsOf([30, 90, 150, 210, 270, 330].map((a) => corner(cx, cy, r, a)));
}

/** Black or white text, whichever reads better on `rgb` (#rrggbb). */
export function ink(rgb) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(rgb.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#111" : "#fff";
}

/** `rgb` darkened by `amount` (0..1); very dark colours are lightened instead. */
export function shade(rgb, amount) {
  let [r, g, b] = [1, 3, 5].map((i) => parseInt(rgb.slice(i, i + 2), 16));
  if (0.299 * r + 0.587 * g + 0.114 * b < 60) [r, g, b] = [r, g, b].map((c) => c + (255 - c) * amount * 0.45);
  else [r, g, b] = [r, g, b].map((c) => c * (1 - amount));
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

/** An <svg> that fills its box and shows `box` = [x, y, w, h] of its drawing. */
export function canvas(box, attrs = {}) {
  return s("svg", { viewBox: box.map((v) => v.toFixed(1)).join(" "), preserveAspectRatio: "xMidYMid meet", ...attrs });
}

/** Let `svg` pan (drag with one finger or the mouse on its background) and zoom (wheel,
 * pinch, or the returned controls). `fit()` shows the whole `box` again. Clicks that
 * were not a drag still reach the cells. */
export function panZoom(svg, box) {
  let view = [...box];
  let home = [...box];
  const pointers = new Map();
  let start = null;
  let dragged = false;
  const apply = () => svg.setAttribute("viewBox", view.map((v) => v.toFixed(1)).join(" "));
  const scale = () => view[2] / svg.clientWidth || 1;
  function zoom(factor, cx = view[0] + view[2] / 2, cy = view[1] + view[3] / 2) {
    const w = Math.min(home[2] * 3, Math.max(home[2] / 5, view[2] * factor));
    const f = w / view[2];
    view = [cx - (cx - view[0]) * f, cy - (cy - view[1]) * f, view[2] * f, view[3] * f];
    apply();
  }
  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    const rect = svg.getBoundingClientRect();
    const cx = view[0] + ((event.clientX - rect.left) / rect.width) * view[2];
    const cy = view[1] + ((event.clientY - rect.top) / rect.height) * view[3];
    zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
  }, { passive: false });
  svg.addEventListener("pointerdown", (event) => {
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    start = { view: [...view], points: new Map(pointers) };
    dragged = false;
  });
  svg.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId) || !start) return;
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    const k = scale();
    if (pointers.size === 1) {
      const [x0, y0] = start.points.get(event.pointerId) || [event.clientX, event.clientY];
      const dx = event.clientX - x0;
      const dy = event.clientY - y0;
      if (!dragged && Math.hypot(dx, dy) < 8) return;
      dragged = true;
      view = [start.view[0] - dx * k, start.view[1] - dy * k, view[2], view[3]];
      apply();
    } else if (pointers.size === 2 && start.points.size === 2) {
      const [a, b] = [...pointers.values()];
      const [a0, b0] = [...start.points.values()];
      const ratio = Math.hypot(a0[0] - b0[0], a0[1] - b0[1]) / Math.max(1, Math.hypot(a[0] - b[0], a[1] - b[1]));
      dragged = true;
      view = [...start.view];
      zoom(ratio);
    }
  });
  const end = (event) => {
    pointers.delete(event.pointerId);
    start = pointers.size ? { view: [...view], points: new Map(pointers) } : null;
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  // a drag is not a click on the cell where it ended
  svg.addEventListener("click", (event) => {
    if (dragged) {
      event.stopPropagation();
      event.preventDefault();
      dragged = false;
    }
  }, true);
  return {
    zoomIn: () => zoom(1 / 1.25),
    zoomOut: () => zoom(1.25),
    fit(next) {
      if (next) home = [...next];
      view = [...home];
      apply();
    },
    /** Pan (keeping the zoom) just enough that the point (x, y) of the drawing shows
     * with `margin` around it, e.g. a cell reached with the keyboard. */
    reveal(x, y, margin = 0) {
      const m = Math.min(margin, view[2] / 2, view[3] / 2);
      const dx = Math.min(0, x - m - view[0]) + Math.max(0, x + m - (view[0] + view[2]));
      const dy = Math.min(0, y - m - view[1]) + Math.max(0, y + m - (view[1] + view[3]));
      if (!dx && !dy) return;
      view = [view[0] + dx, view[1] + dy, view[2], view[3]];
      apply();
    },
    /** A new drawing's box: keep the view if the person moved it, else fit. */
    update(next, keep) {
      home = [...next];
      if (!keep) view = [...home];
      apply();
    },
  };
}

/** A note pinned next to `target` (an element) that goes away by itself. */
export function tip(target, text, kind = "refusal") {
  for (const old of document.querySelectorAll(".tip")) old.remove();
  const rect = target.getBoundingClientRect();
  const note = document.createElement("div");
  note.className = `tip ${kind}`;
  note.setAttribute("role", "alert");
  note.textContent = text;
  document.body.append(note);
  const left = Math.max(8, Math.min(window.innerWidth - note.offsetWidth - 8, rect.left + rect.width / 2 - note.offsetWidth / 2));
  let top = rect.top + window.scrollY - note.offsetHeight - 10;
  if (top < window.scrollY + 4) top = rect.bottom + window.scrollY + 10;
  note.style.left = `${left + window.scrollX}px`;
  note.style.top = `${top}px`;
  const gone = () => note.remove();
  setTimeout(gone, 4500);
  note.addEventListener("click", gone);
  return note;
}

/** Small icons drawn in SVG (they render the same everywhere, unlike symbol fonts). */
const ICONS = {
  first: "M6 5v14M18 5l-9 7 9 7z",
  prev: "M16 5l-9 7 9 7z",
  next: "M8 5l9 7-9 7z",
  last: "M18 5v14M6 5l9 7-9 7z",
  play: "M7 4l13 8-13 8z",
  pause: "M7 5h4v14H7zM13 5h4v14h-4z",
  turn: "M19 12a7 7 0 1 1-2.05-4.95M19 4v4h-4",
  plus: "M12 5v14M5 12h14",
  minus: "M5 12h14",
  fit: "M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5",
  cube: "M12 3l8 4.5v9L12 21l-8-4.5v-9zM12 12l8-4.5M12 12v9M12 12L4 7.5",
  layers: "M12 4l9 5-9 5-9-5zM3 14l9 5 9-5",
  download: "M12 4v11M7 10l5 5 5-5M5 20h14",
  sound: "M4 9h4l5-4v14l-5-4H4zM16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11",
  mute: "M4 9h4l5-4v14l-5-4H4zM16 9l5 6M21 9l-5 6",
  bell: "M6 16v-5a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0",
};

export function icon(name) {
  return s("svg", { viewBox: "0 0 24 24", class: "icon", "aria-hidden": "true" },
    s("path", { d: ICONS[name], fill: name === "play" || name.startsWith("prev") || name.startsWith("next") ? "currentColor" : "none",
      stroke: "currentColor", "stroke-width": 2, "stroke-linejoin": "round", "stroke-linecap": "round" }));
}

/** Whether the person asked for less motion (`prefers-reduced-motion`). */
export const still = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** The middle of an element on the screen, or null (gone, hidden, no size). */
export function centreOf(el) {
  if (!el || !el.isConnected) return null;
  const box = el.getBoundingClientRect();
  return box.width || box.height ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null;
}

/** A token of `colour` travels on the screen from `from` to `to` (points {x, y} of the
 * window) in `ms`: a piece from a hand (or a player's row) to its place, or a cube taken
 * out to its player. Resolves true once it has landed; false at once, moving nothing,
 * when a point is missing or the person asked for less motion. Each flight is noted in
 * `window.cubegamesMotion` (`note`, and when it started and landed: for tests). */
export function fly(from, to, colour, { ms = 520, size = 26, note = {} } = {}) {
  if (!from || !to || still() || !document.body.animate) return Promise.resolve(false);
  const token = document.createElement("div");
  token.className = "flying";
  token.setAttribute("aria-hidden", "true");
  token.style.cssText = `left:${from.x}px;top:${from.y}px;width:${size}px;height:${size}px;--token:${colour}`;
  document.body.append(token);
  const entry = { ...note, started: performance.now(), landed: null };
  (window.cubegamesMotion = window.cubegamesMotion || []).push(entry);
  const [dx, dy] = [to.x - from.x, to.y - from.y];
  const flight = token.animate([
    { transform: "translate(-50%, -50%) scale(.85)", opacity: 0.9 },
    { transform: `translate(calc(${dx * 0.5}px - 50%), calc(${dy * 0.5 - 40}px - 50%)) scale(1.12)`, opacity: 1, offset: 0.5 },
    { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%)) scale(1)`, opacity: 1 },
  ], { duration: ms, easing: "cubic-bezier(.3, .7, .4, 1)" });
  return flight.finished.catch(() => null).then(() => {
    token.remove();
    entry.landed = performance.now();
    return true;
  });
}

/** Restart the CSS animation `name` (a class) on `el`. */
export function flash(el, name = "arrive") {
  el.classList.remove(name);
  void el.getBoundingClientRect();
  el.classList.add(name);
}

// -- the start page's pictures of the games (each game's `picture`, static/games) --------

/** A start-page card's picture of a game: an SVG of 240 by 150 around `children`. */
export function pictureFrame(...children) {
  return s("svg", { viewBox: "0 0 240 150", class: "picture", "aria-hidden": "true" }, ...children);
}

/** A cube seen from above at a corner (x, y, z in cubes, `a` the size of a side) for a
 * game's picture on the start page. */
export function isoCube(x, y, z, rgb, a = 18) {
  const c = Math.cos(Math.PI / 6);
  const p = (px, py, pz) => [120 + (px - py) * a * c, 40 + (px + py) * a / 2 - pz * a];
  const poly = (pts, fill) => s("polygon", { points: pts.map((q) => q.map((v) => v.toFixed(1)).join(",")).join(" "), fill, stroke: "#2b2b2b", "stroke-width": 0.8, "stroke-linejoin": "round" });
  return s("g", {},
    poly([p(x, y, z + 1), p(x + 1, y, z + 1), p(x + 1, y + 1, z + 1), p(x, y + 1, z + 1)], rgb),
    poly([p(x, y + 1, z), p(x + 1, y + 1, z), p(x + 1, y + 1, z + 1), p(x, y + 1, z + 1)], shade(rgb, 0.25)),
    poly([p(x + 1, y, z), p(x + 1, y + 1, z), p(x + 1, y + 1, z + 1), p(x + 1, y, z + 1)], shade(rgb, 0.42)));
}
