// A picture of each game for its card on the start page, drawn with the same pieces the
// table uses.

import { s, label, shade } from "./draw.js";
import { piece } from "./games/cubed.js";

const CUBED = {
  G: { rgb: "#2f9e44", ink: "#fff", name: "green" }, P: { rgb: "#7048e8", ink: "#fff", name: "purple" },
  Y: { rgb: "#fcc419", ink: "#111", name: "yellow" }, B: { rgb: "#1c7ed6", ink: "#fff", name: "blue" },
  N: { rgb: "#ff2e93", ink: "#fff", name: "pink" }, W: { rgb: "#f8f9fa", ink: "#111", name: "white" },
};

function frame(...children) {
  return s("svg", { viewBox: "0 0 240 150", class: "picture", "aria-hidden": "true" }, ...children);
}

function isoCube(x, y, z, rgb, a = 18) {
  const c = Math.cos(Math.PI / 6);
  const p = (px, py, pz) => [120 + (px - py) * a * c, 40 + (px + py) * a / 2 - pz * a];
  const poly = (pts, fill) => s("polygon", { points: pts.map((q) => q.map((v) => v.toFixed(1)).join(",")).join(" "), fill, stroke: "#2b2b2b", "stroke-width": 0.8, "stroke-linejoin": "round" });
  return s("g", {},
    poly([p(x, y, z + 1), p(x + 1, y, z + 1), p(x + 1, y + 1, z + 1), p(x, y + 1, z + 1)], rgb),
    poly([p(x, y + 1, z), p(x + 1, y + 1, z), p(x + 1, y + 1, z + 1), p(x, y + 1, z + 1)], shade(rgb, 0.25)),
    poly([p(x + 1, y, z), p(x + 1, y + 1, z), p(x + 1, y + 1, z + 1), p(x + 1, y, z + 1)], shade(rgb, 0.42)));
}

export const PICTURES = {
  cubed() {
    const r = 24;
    const at = (q, rr) => [120 + Math.sqrt(3) * r * (q + rr / 2), 76 + 1.5 * r * rr];
    return frame(
      piece(CUBED, "GPY", ...at(0, 0), r), piece(CUBED, "YBN", ...at(1, 0), r), piece(CUBED, "PGW", ...at(-1, 1), r),
      piece(CUBED, "BNG", ...at(0, -1), r), piece(CUBED, "NYP", ...at(-1, 0), r));
  },
  unstackable() {
    const colours = { Y: "#fcc419", R: "#e03131", K: "#2b2b2b" };
    const cubes = [];
    const plan = ["KRKY", "RKYK", "KYKR", "YKRK"];
    for (let z = 0; z < 3; z += 1) for (let x = 0; x < 3 - z; x += 1) for (let y = 0; y < 3 - z; y += 1) cubes.push([x, y, z, colours[plan[(x + z) % 4][(y + 2 * z) % 4]]]);
    cubes.sort((a, b) => a[2] - b[2] || a[0] + a[1] - (b[0] + b[1]));
    return frame(...cubes.map(([x, y, z, c]) => isoCube(x, y, z, c, 20)));
  },
  stakd() {
    const blocks = [[0, 0, 0, "#d62728"], [1, 0, 0, "#d62728"], [2, 0, 0, "#2ca02c"], [0, 1, 0, "#2ca02c"], [1, 1, 0, "#2ca02c"], [2, 1, 0, "#d62728"],
      [0, 0, 1, "#2ca02c"], [1, 0, 1, "#2ca02c"], [1, 1, 1, "#d62728"], [1, 0, 2, "#1f3fff"]];
    blocks.sort((a, b) => a[2] - b[2] || a[0] + a[1] - (b[0] + b[1]));
    return frame(...blocks.map(([x, y, z, c]) => isoCube(x, y, z * 0.6, c, 24)));
  },
  cubes() {
    const dice = [["#e03131", "6"], ["#f76707", "C"], ["#fab005", "3"], ["#2f9e44", "1"], ["#1971c2", "5"]];
    return frame(...dice.map(([rgb, f], i) => s("g", { transform: `translate(${22 + i * 42},${50 + (i % 2) * 22}) rotate(${(i - 2) * 7} 18 18)` },
      s("rect", { width: 38, height: 38, rx: 8, fill: rgb, stroke: "rgba(0,0,0,.35)" }),
      label(19, 19, f === "C" ? "CUBES" : f, { fill: "#fff", "font-size": f === "C" ? 8 : 18, "font-weight": 800 }))));
  },
};
