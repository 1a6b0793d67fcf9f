// A 3-D table for the stacking games (three.js, vendored): cubes on a floor that the
// player turns and tilts (drag), zooms (wheel, pinch). Only what is in sight can be
// picked: a ray from the pointer finds the first cube face or floor spot it meets; the
// free cell beyond that face (or on that spot) is the target, and a see-through cube
// shows there what would be placed. Axes: the game's x and y lie on the floor, z is up.
// A game whose views name a front (Unstackable's layers) may have it marked on the floor.

import * as THREE from "./vendor/three/three.module.min.js";
import { OrbitControls } from "./vendor/three/addons/OrbitControls.js";
import { still } from "./draw.js";

let webgl = null;

/** Whether this browser can draw in 3-D (asked once: each probe costs a GL context). */
export function webglWorks() {
  if (webgl === null) {
    try {
      const probe = document.createElement("canvas");
      const gl = probe.getContext("webgl2") || probe.getContext("webgl");
      webgl = Boolean(gl);
      if (gl && gl.getExtension("WEBGL_lose_context")) gl.getExtension("WEBGL_lose_context").loseContext();
    } catch {
      webgl = false;
    }
  }
  return webgl;
}

/** The two questions tests (and notes pinned to a cell) ask a game's 3-D view, for a
 * controller whose view is `table()` (a Table3D, or null while the view is not shown):
 * `screenOf(x, y, z, face)`, where on the screen cell (x, y, z)'s top (or bottom) is, and
 * `probe(clientX, clientY)`, the free cell "x,y,z" a tap there would aim at. */
export function probes(table) {
  return {
    screenOf(x, y, z, face = "top") {
      const t = table();
      return t ? t.screenOf(x, y, z, face) : null;
    },
    probe(clientX, clientY) {
      const t = table();
      if (!t) return null;
      const hit = t.hitAt(clientX, clientY);
      return hit.cell ? hit.cell.join(",") : null;
    },
    /** Where on the screen the middle of the floor's front marker is, or null (none). */
    frontAt() {
      const t = table();
      return t ? t.frontAt() : null;
    },
  };
}

/** The scene in `holder`. `pick(hit)` gets {cell: [x,y,z] of a free cell or null, cube:
 * the cube's data or null, event} on hover (event.type "pointermove") and on tap. With
 * `front` (a word, e.g. "FRONT"), a strip lying on the floor just before its front edge
 * (the game's smallest y, the side the view first looks from) says it, so the front stays
 * plain however the view is turned; `label` is the canvas's name for screen readers. */
export class Table3D {
  constructor(holder, { pick, height = 1, front = null, label = null, spot = 0x51cf66, spotGhost = 0x40c057 } = {}) {
    this.holder = holder;
    // the colour of the spots where a piece may go, and of a piece shown there (a game
    // whose seats have colours picks one that no seat has)
    this.spot = spot;
    this.spotGhost = spotGhost;
    this.pick = pick;
    this.height = height; // a cube's height (STAKD's pieces are flatter)
    this.front = front;
    this.marker = null;
    this.renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
    this.renderer.domElement.classList.add("table3d");
    if (label) {
      this.renderer.domElement.setAttribute("role", "img");
      this.renderer.domElement.setAttribute("aria-label", label);
    }
    holder.append(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(35, 1, 0.1, 200);
    this.scene.add(new THREE.HemisphereLight(0xfff8ee, 0x8a7f6a, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(6, 10, 12);
    this.scene.add(sun);
    this.group = new THREE.Group();
    this.scene.add(this.group);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = true;
    this.controls.maxPolarAngle = Math.PI * 0.49;
    this.controls.minDistance = 4;
    this.controls.maxDistance = 60;
    this.controls.addEventListener("change", () => this.draw());
    // until the player turns the view, it follows the table's size and shape
    this.controls.addEventListener("start", () => { this.touched = true; });
    this.touched = false;
    this.bounds = null;
    this.ray = new THREE.Raycaster();
    this.ghost = null;
    this.solids = [];
    this.floor = null;
    this.anims = [];
    this.placed = false;
    const canvas = this.renderer.domElement;
    let down = null;
    canvas.addEventListener("pointerdown", (e) => { down = [e.clientX, e.clientY]; });
    canvas.addEventListener("pointermove", (e) => { if (e.pointerType !== "touch") this.point(e); });
    canvas.addEventListener("pointerleave", () => { this.showGhost(null); this.say(null); });
    canvas.addEventListener("pointerup", (e) => {
      if (down && Math.hypot(e.clientX - down[0], e.clientY - down[1]) < 8) this.point(e);
      down = null;
    });
    new ResizeObserver(() => this.resize()).observe(holder);
    this.resize();
    this.loop();
  }

  // game (x, y, z) → three.js (x, up, -y): the floor is the x-z plane
  at(x, y, z) {
    return new THREE.Vector3(x + 0.5, (z + 0.5) * this.height, -(y + 0.5));
  }

  resize() {
    const w = this.holder.clientWidth || 300;
    const h = this.holder.clientHeight || 300;
    this.renderer.setSize(w, h, false);
    this.settling = 30;
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    if (this.bounds && !this.touched) {
      this.placed = false;
      this.frame(this.bounds);
    }
    this.draw();
  }

  loop() {
    const tick = () => {
      if (!this.renderer.domElement.isConnected) return;
      const now = performance.now();
      if (this.anims.length) {
        this.anims = this.anims.filter((a) => a(now));
        this.draw();
      }
      if (this.controls.update()) this.draw();
      else if (this.settling > 0) {
        // draw a few frames after a change of size or scene, whatever came first
        this.settling -= 1;
        this.draw();
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  draw() {
    this.renderer.render(this.scene, this.camera);
  }

  /** Look at the box [x0, y0, z0, x1, y1, z1] (game cells) from the front corner, far
   * enough back that all of it is in sight whatever the screen's shape. */
  frame(bounds) {
    this.bounds = bounds;
    if (!this.touched) this.placed = false;
    const [x0, , z0, x1, y1, z1] = bounds;
    const y0 = bounds[1] - (this.front ? 0.72 : 0); // the front strip in sight too
    const centre = new THREE.Vector3((x0 + x1) / 2, ((z0 + z1) / 2) * this.height * 0.6, -(y0 + y1) / 2);
    const radius = 0.5 * Math.hypot(x1 - x0, y1 - y0, (z1 - z0) * this.height);
    this.controls.target.copy(centre);
    if (!this.placed) {
      const vfov = (this.camera.fov * Math.PI) / 180;
      const hfov = 2 * Math.atan(Math.tan(vfov / 2) * this.camera.aspect);
      const distance = (radius * 1.08) / Math.sin(Math.min(vfov, hfov) / 2);
      const towards = new THREE.Vector3(0.55, 0.9, 1).normalize().multiplyScalar(distance);
      this.camera.position.copy(centre).add(towards);
      this.placed = true;
    }
    this.controls.update();
    this.draw();
  }

  /** Draw `cubes` ({x, y, z, rgb, data, fresh, mark}) on a floor covering `floor`
   * ([x0, y0, x1, y1], cells), with `marks` ({x, y, z}: free cells where a move may go). */
  show(cubes, floor, marks = []) {
    this.group.traverse((o) => {
      if (o.geometry) o.geometry.dispose();
      if (o.material) o.material.dispose();
    });
    this.group.clear();
    this.solids = [];
    const [fx0, fy0, fx1, fy1] = floor;
    const plane = new THREE.Mesh(new THREE.BoxGeometry(fx1 - fx0, 0.12, fy1 - fy0),
      new THREE.MeshStandardMaterial({ color: 0xe9dcc0, roughness: 0.9 }));
    plane.position.set((fx0 + fx1) / 2, -0.06, -(fy0 + fy1) / 2);
    plane.userData.floor = true;
    this.floor = plane;
    this.group.add(plane);
    const lines = [];
    for (let x = fx0; x <= fx1; x += 1) lines.push(x, 0.005, -fy0, x, 0.005, -fy1);
    for (let y = fy0; y <= fy1; y += 1) lines.push(fx0, 0.005, -y, fx1, 0.005, -y);
    const lineGeo = new THREE.BufferGeometry();
    lineGeo.setAttribute("position", new THREE.Float32BufferAttribute(lines, 3));
    this.group.add(new THREE.LineSegments(lineGeo, new THREE.LineBasicMaterial({ color: 0xc9b995 })));
    this.marker = this.front ? this.frontStrip(fx0, fy0, fx1) : null;
    for (const c of cubes) {
      // a block covers w × d cells from (x, y): a whole STAKD piece is one block
      const w = c.w || 1;
      const d = c.d || 1;
      const box = new THREE.BoxGeometry(w - 0.05, 0.96 * this.height, d - 0.05);
      const mesh = new THREE.Mesh(box, new THREE.MeshStandardMaterial({ color: c.rgb, roughness: 0.55 }));
      mesh.position.set(c.x + w / 2, (c.z + 0.5) * this.height, -(c.y + d / 2));
      mesh.userData = { cell: [c.x, c.y, c.z], data: c.data };
      mesh.add(new THREE.LineSegments(new THREE.EdgesGeometry(box),
        new THREE.LineBasicMaterial({ color: c.mark ? 0x0ca678 : 0x2b2b2b })));
      if (c.mark) {
        const ring = new THREE.Mesh(new THREE.BoxGeometry(w - 0.02, 0.98 * this.height, d - 0.02),
          new THREE.MeshBasicMaterial({ color: 0x0ca678, wireframe: true }));
        ring.raycast = () => {};
        mesh.add(ring);
      }
      this.group.add(mesh);
      this.solids.push(mesh);
      if (c.fresh && !still()) this.arrive(mesh);
    }
    for (const m of marks) {
      const dot = new THREE.Mesh(new THREE.CylinderGeometry(0.17, 0.17, 0.03, 20),
        new THREE.MeshBasicMaterial({ color: this.spot }));
      dot.position.copy(this.at(m.x, m.y, m.z));
      dot.position.y -= 0.5 * this.height - 0.02;
      dot.raycast = () => {};
      this.group.add(dot);
    }
    this.ghost = null;
    this.settling = 30;
    this.draw();
  }

  /** The strip that says `this.front` on the floor before its front edge (game y = fy0,
   * three.js z = -fy0), from fx0 to fx1. It lies flat, so it hides no cube, and nothing
   * picks it, so taps go through it; it is half a cell wider than the floor on each side,
   * so its ends show past the cubes when the view is turned to look from behind. */
  frontStrip(fx0, fy0, fx1) {
    const width = fx1 - fx0 + 1;
    const depth = 0.62;
    const strip = new THREE.Mesh(new THREE.PlaneGeometry(width, depth),
      new THREE.MeshBasicMaterial({ map: this.frontTexture(width, depth), transparent: true, toneMapped: false }));
    strip.rotation.x = -Math.PI / 2; // flat on the floor, the word's top towards the back
    strip.position.set((fx0 + fx1) / 2, 0.002, -fy0 + 0.1 + depth / 2);
    strip.name = "front";
    strip.raycast = () => {};
    this.group.add(strip);
    return strip;
  }

  /** The strip's picture: the word in the page's heading type, paper on the page's muted
   * ink (drawn once per size). */
  frontTexture(width, depth) {
    this.textures = this.textures || new Map();
    const key = `${width}x${depth}`;
    if (this.textures.has(key)) return this.textures.get(key);
    const scale = 160;
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(depth * scale);
    const g = canvas.getContext("2d");
    const css = getComputedStyle(document.documentElement);
    const look = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
    const [w, h] = [canvas.width, canvas.height];
    g.fillStyle = look("--muted", "#667085");
    g.globalAlpha = 0.85;
    g.beginPath();
    g.roundRect(2, 2, w - 4, h - 4, h * 0.3);
    g.fill();
    g.fillStyle = look("--paper", "#f3eee4");
    g.globalAlpha = 1;
    g.font = `700 ${Math.round(h * 0.5)}px ${look("--head", "sans-serif")}`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    if ("letterSpacing" in g) g.letterSpacing = `${Math.round(h * 0.08)}px`;
    g.fillText(this.front, w / 2, h * 0.54);
    const texture = new THREE.CanvasTexture(canvas);
    texture.colorSpace = THREE.SRGBColorSpace;
    texture.anisotropy = this.renderer.capabilities.getMaxAnisotropy();
    this.textures.set(key, texture);
    return texture;
  }

  /** Where the middle of the front strip is on the screen, or null without one. */
  frontAt() {
    if (!this.marker) return null;
    const v = this.marker.position.clone().project(this.camera);
    const rect = this.renderer.domElement.getBoundingClientRect();
    return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
  }

  /** A cube drops in from above. */
  arrive(mesh) {
    const end = mesh.position.y;
    const t0 = performance.now();
    mesh.position.y = end + 3;
    this.anims.push((now) => {
      const t = Math.min(1, (now - t0) / 450);
      mesh.position.y = end + 3 * (1 - t) * (1 - t);
      return t < 1;
    });
  }

  /** A cube that was at `cell` lifts out and fades. */
  lift(cell, rgb) {
    if (still()) return;
    const mesh = new THREE.Mesh(new THREE.BoxGeometry(0.96, 0.96 * this.height, 0.96),
      new THREE.MeshStandardMaterial({ color: rgb, transparent: true, opacity: 1 }));
    mesh.position.copy(this.at(...cell));
    mesh.raycast = () => {};
    this.group.add(mesh);
    const start = mesh.position.y;
    const t0 = performance.now();
    this.anims.push((now) => {
      const t = Math.min(1, (now - t0) / 600);
      mesh.position.y = start + 3 * t;
      mesh.material.opacity = 1 - t;
      if (t >= 1) this.group.remove(mesh);
      return t < 1;
    });
  }

  /** The see-through piece where a move would go: cells [[x,y,z], ...] or null. */
  showGhost(cells, ok = true) {
    if (this.ghost) this.group.remove(this.ghost);
    this.ghost = null;
    if (cells && cells.length) {
      this.ghost = new THREE.Group();
      for (const cell of cells) {
        const mesh = new THREE.Mesh(new THREE.BoxGeometry(0.98, 0.98 * this.height, 0.98),
          new THREE.MeshStandardMaterial({ color: ok ? this.spotGhost : 0xe03131, transparent: true, opacity: 0.5 }));
        mesh.position.copy(this.at(...cell));
        mesh.raycast = () => {};
        this.ghost.add(mesh);
      }
      this.group.add(this.ghost);
    }
    this.draw();
  }

  /** The words the pointer's hover shows over the table (the canvas's title), or none. */
  say(text) {
    const canvas = this.renderer.domElement;
    if (text) canvas.title = text;
    else canvas.removeAttribute("title");
  }

  /** What is under the pointer: the cube hit and the free cell beyond the face hit. */
  hitAt(clientX, clientY) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const p = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    this.ray.setFromCamera(p, this.camera);
    const [hit] = this.ray.intersectObjects([...this.solids, this.floor].filter(Boolean), false);
    if (!hit) return { cell: null, cube: null };
    // the cell just beyond the face that was hit: a step off the hit point along its normal
    const normal = hit.face.normal.clone().transformDirection(hit.object.matrixWorld);
    const spot = hit.point.clone().addScaledVector(normal, 0.02);
    const cell = [Math.floor(spot.x), Math.floor(-spot.z), Math.floor(spot.y / this.height)];
    if (hit.object.userData.floor) return { cell: [cell[0], cell[1], 0], cube: null };
    return { cell, cube: hit.object.userData };
  }

  point(event) {
    const hit = this.hitAt(event.clientX, event.clientY);
    this.pick({ ...hit, event });
  }

  /** Where the centre of the top face of cell (x, y, z) is on the screen (for tests, and
   * for notes pinned to a cell). */
  screenOf(x, y, z, face = "top") {
    const v = this.at(x, y, z);
    if (face === "top") v.y += 0.49 * this.height;
    if (face === "bottom") v.y -= 0.49 * this.height;
    v.project(this.camera);
    const rect = this.renderer.domElement.getBoundingClientRect();
    return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
  }

  dispose() {
    this.controls.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}
