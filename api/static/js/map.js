// The map: SVG hexes with terrain colours AND patterns, hexside features, hex numbers on demand,
// zoom and pan (wheel, drag, pinch, buttons, keys), units as counters with stacks shown readably,
// and overlays the game page draws on it (reachable hexes with their cost, a path, attack hexes...).
// Colours and patterns follow scenarios/render.py so the two maps read alike.

import { H, Layout, R } from "./geometry.js";
import { counter, esc, leaderBadge } from "./counters.js";

export const TERRAIN_STYLE = {
  clear: ["#f3eed8", null, "Clear"],
  forest: ["#a9cf8f", "forest", "Forest"],
  rough: ["#d7b98a", "rough", "Rough"],
  forest_rough: ["#93a86a", "forest_rough", "Forest & Rough"],
  town: ["#c9c2bb", "town", "Town"],
  river: ["#5b9bd5", "river", "River (land units may not enter; gunboats sail it, revised 9.62)"],
  ferry: ["#a8cdee", "ferry", "River Ferry"],
};
const CREEK = "#1a5fb4";
const ROAD = "#8b2e16";
const TRAIL = "#3d2a12";
const CASING = "#fffbe8";

export const DEFS = `
<pattern id="forest" width="12" height="12" patternUnits="userSpaceOnUse">
  <circle cx="3" cy="3" r="2.2" fill="#3d7a2a"/><circle cx="9" cy="9" r="2.2" fill="#3d7a2a"/>
</pattern>
<pattern id="rough" width="14" height="10" patternUnits="userSpaceOnUse">
  <path d="M1 8 L4 3 L7 8 M8 8 L11 3 L14 8" fill="none" stroke="#7a5524" stroke-width="1.2"/>
</pattern>
<pattern id="forest_rough" width="14" height="14" patternUnits="userSpaceOnUse">
  <circle cx="3.5" cy="3.5" r="2.2" fill="#2f5f20"/>
  <path d="M7 13 L10.5 8 L14 13" fill="none" stroke="#5a3d14" stroke-width="1.4"/>
</pattern>
<pattern id="town" width="10" height="10" patternUnits="userSpaceOnUse">
  <rect x="1" y="1" width="4" height="4" fill="#6d6259"/><rect x="6" y="6" width="3" height="3" fill="#6d6259"/>
</pattern>
<pattern id="river" width="16" height="8" patternUnits="userSpaceOnUse">
  <path d="M0 4 Q4 0 8 4 T16 4" fill="none" stroke="#ffffff" stroke-width="1.2" opacity="0.8"/>
</pattern>
<pattern id="ferry" width="16" height="8" patternUnits="userSpaceOnUse">
  <path d="M0 4 Q4 1 8 4 T16 4" fill="none" stroke="#2a6fb0" stroke-width="1" stroke-dasharray="3 2"/>
</pattern>
<pattern id="ineffective" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
  <rect width="6" height="6" fill="#ffffff" opacity="0.35"/><line x1="0" y1="0" x2="0" y2="6" stroke="#b00000" stroke-width="2"/>
</pattern>
<pattern id="reach-hatch" width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
  <line x1="0" y1="0" x2="0" y2="7" stroke="#7a4b00" stroke-width="1.3" opacity="0.55"/>
</pattern>
<marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">
  <path d="M0 0 L10 5 L0 10 z" fill="#0b3d91"/>
</marker>
<marker id="path-arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" orient="auto">
  <path d="M0 0 L10 5 L0 10 z" fill="#222"/>
</marker>
`;

const f = (n) => n.toFixed(1);

export class MapView {
  /** Draw `scenario` (the JSON of GET /api/scenarios/{id}) into `container`. */
  constructor(container, scenario) {
    this.container = container;
    this.scenario = scenario;
    this.layout = new Layout(scenario.map);
    this.units = Object.fromEntries(scenario.units.map((u) => [u.id, u]));
    this.onHexClick = () => {};
    this.onHexHover = () => {};
    this.hovered = null;
    this.occupied = new Set(); // hexes with a counter, as last drawn
    const L = this.layout;
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "map");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `Map of ${scenario.name}`);
    svg.setAttribute("font-family", "DejaVu Sans, Arial, sans-serif");
    svg.innerHTML =
      `<defs>${DEFS}</defs><rect class="sea" x="0" y="0" width="${f(L.width)}" height="${f(L.height)}" fill="#eef1f4"/>` +
      `<g id="terrain">${this._hexes()}</g><g id="areas">${this._areas()}</g>${this._hexsides()}` +
      `<g id="entries">${this._entries()}</g><g id="overlay"></g><g id="numbers" class="hidden">${this._numbers()}</g>` +
      `<g id="works" pointer-events="none"></g><g id="units"></g><g id="leaders"></g><g id="objectives" pointer-events="none"></g><g id="path"></g><g id="marks"></g>`;
    this.svg = svg;
    container.appendChild(svg);
    this.overlay = svg.querySelector("#overlay");
    this.pathLayer = svg.querySelector("#path");
    this.unitLayer = svg.querySelector("#units");
    this.leaderLayer = svg.querySelector("#leaders");
    this.worksLayer = svg.querySelector("#works");
    this.markLayer = svg.querySelector("#marks");
    this.objectiveLayer = svg.querySelector("#objectives");
    this.numbers = svg.querySelector("#numbers");
    this.view = { x: 0, y: 0, w: L.width, h: L.height };
    this._interaction();
    this.fit();
  }

  // -- drawing the static map ------------------------------------------------------------------
  _hexes() {
    const L = this.layout;
    const out = [];
    for (const [number, { terrain }] of Object.entries(this.scenario.map.hexes)) {
      const [fill, pattern, label] = TERRAIN_STYLE[terrain] || ["#ff00ff", null, terrain];
      const pts = L.points(number);
      out.push(
        `<polygon class="hex" data-hex="${number}" data-terrain="${terrain}" points="${pts}" fill="${fill}" stroke="#8a8577" stroke-width="0.6"><title>${number} ${label}</title></polygon>`,
      );
      if (pattern) out.push(`<polygon points="${pts}" fill="url(#${pattern})" pointer-events="none"/>`);
    }
    return out.join("");
  }

  _areas() {
    const L = this.layout;
    const out = [];
    const colours = { union_victory_hexes: "#1f3f8f", confederate_victory_hexes: "#8b0000" };
    for (const [name, hexes] of Object.entries(this.scenario.map.areas || {})) {
      const colour = colours[name];
      if (!colour) continue;
      for (const h of hexes) {
        const [x, y] = L.centre(h);
        out.push(`<circle cx="${f(x)}" cy="${f(y)}" r="${f(R * 0.78)}" fill="none" stroke="${colour}" stroke-width="2.4" stroke-dasharray="5 3"><title>${h}: ${name.replaceAll("_", " ")}</title></circle>`);
      }
    }
    const bonus = (this.scenario.exclusive?.movement_quota || {}).bonus_hex;
    if (bonus && bonus in this.scenario.map.hexes) {
      const [x, y] = L.centre(bonus);
      out.push(`<circle cx="${f(x)}" cy="${f(y)}" r="${f(R * 0.84)}" fill="none" stroke="#b8860b" stroke-width="2.4"/>`);
    }
    return out.join("");
  }

  _hexsides() {
    const L = this.layout;
    const hexes = this.scenario.map.hexes;
    const creeks = [], paths = [], crossings = [], redoubts = [], arrows = [];
    for (const [name, side] of Object.entries(this.scenario.map.hexsides)) {
      const [a, b] = name.split("|");
      if (!(a in hexes) || !(b in hexes)) continue;
      const [[x1, y1], [x2, y2]] = L.edge(a, b);
      const [ax, ay] = L.centre(a);
      const [bx, by] = L.centre(b);
      const feats = new Set(side.features);
      if (feats.has("creek")) creeks.push(`<line x1="${f(x1)}" y1="${f(y1)}" x2="${f(x2)}" y2="${f(y2)}"/>`);
      if (feats.has("road") || feats.has("trail")) paths.push(pathStep(ax, ay, bx, by, feats.has("road") ? "road" : "trail"));
      const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
      const ux = (bx - ax) / H, uy = (by - ay) / H;
      if (feats.has("bridge")) crossings.push(bridge(mx, my, ux, uy));
      if (feats.has("ford")) crossings.push(ford(mx, my, ux, uy));
      if (feats.has("redoubt")) redoubts.push(redoubt([x1, y1], [x2, y2], L.centre(side.barbed || b)));
      if (feats.has("ferry_crossing")) {
        const [ferry, bank] = hexes[a]?.terrain === "ferry" ? [a, b] : [b, a];
        const [fx, fy] = L.centre(ferry);
        const [kx, ky] = L.centre(bank);
        arrows.push(
          `<line x1="${f(fx + (kx - fx) * 0.15)}" y1="${f(fy + (ky - fy) * 0.15)}" x2="${f(fx + (kx - fx) * 0.78)}" y2="${f(fy + (ky - fy) * 0.78)}" stroke="#0b3d91" stroke-width="2.2" marker-end="url(#arrow)"/>`,
        );
      }
    }
    return (
      `<g id="creeks" stroke="${CREEK}" stroke-width="4" stroke-linecap="round" pointer-events="none">${creeks.join("")}</g>` +
      `<g id="roads" stroke-linecap="round" pointer-events="none">${paths.join("")}</g>` +
      `<g id="crossings" pointer-events="none">${crossings.join("")}</g>` +
      `<g id="redoubts" pointer-events="none">${redoubts.join("")}</g>` +
      `<g id="ferries" pointer-events="none">${arrows.join("")}</g>`
    );
  }

  _entries() {
    const L = this.layout;
    const seen = new Map();
    for (const u of this.scenario.units) {
      if (u.hex !== null || u.arrives === null) continue;
      for (const h of u.entry) {
        if (!(h in this.scenario.map.hexes)) continue;
        const key = `${h}:${u.side}:${u.arrives}`;
        if (seen.has(key)) continue;
        const [x, y] = L.centre(h);
        seen.set(
          key,
          `<text class="entry" x="${f(x)}" y="${f(y + H / 2 - 5)}" font-size="9" font-weight="bold" fill="${u.side === "union" ? "#1f3f8f" : "#555"}" text-anchor="middle" pointer-events="none">T${u.arrives} entry</text>`,
        );
      }
    }
    return [...seen.values()].join("");
  }

  _numbers() {
    const L = this.layout;
    return Object.entries(this.scenario.map.hexes)
      .map(([n, { terrain }]) => {
        const [x, y] = L.centre(n);
        return `<text x="${f(x)}" y="${f(y - H / 2 + 8.5)}" font-size="7.5" fill="${terrain === "river" ? "#fff" : "#333"}" text-anchor="middle">${n}</text>`;
      })
      .join("");
  }

  showNumbers(on) {
    this.numbers.classList.toggle("hidden", !on);
    this.numbersShown = on;
  }

  // -- units --------------------------------------------------------------------------------------
  /** Draw the units of `board` (a model.Board) and its Leaders; `selected`: a unit's or a Leader's id to ring. */
  drawUnits(board, selected = null) {
    const L = this.layout;
    const byHex = {};
    for (const [u, h] of Object.entries(board.state.positions)) (byHex[h] ||= []).push(u);
    const moved = new Set(board.state.moved);
    const ineffective = new Set(board.state.ineffective);
    const attacked = new Set(board.state.attacked);
    const morale = board.state.morale || {};
    const rallying = new Set(board.state.rallying || []);
    this.occupied = new Set([...Object.keys(byHex), ...(board.leaders || []).map((x) => x.hex)]); // hexes with a counter (setOverlay places labels clear of them)
    this.drawWorks(board.state.breastworks || {});
    const out = [];
    for (const [h, ids] of Object.entries(byHex)) {
      if (!(h in this.scenario.map.hexes)) continue;
      ids.sort();
      const [x, y] = L.centre(h);
      const n = ids.length;
      const marks = (u) => ({ moved: moved.has(u), ineffective: ineffective.has(u), attacked: attacked.has(u), selected: u === selected, morale: morale[u] || "", rally: rallying.has(u) });
      out.push(`<g class="stack" data-hex="${h}" data-count="${n}">`);
      if (n === 1) {
        out.push(counter(this.units[ids[0]], x, y + 2, R * 1.1, marks(ids[0])));
      } else if (n === 2) {
        const w = R * 0.88;
        ids.forEach((u, i) => out.push(counter(this.units[u], x + (i - 0.5) * (w + 1.5), y + 2, w, marks(u))));
      } else {
        const w = R * 0.9;
        ids.forEach((u, i) => out.push(counter(this.units[u], x - 6 + i * 5, y + 6 - i * 5, w, marks(u))));
        out.push(`<g class="stack-count"><circle cx="${f(x + R * 0.62)}" cy="${f(y - R * 0.55)}" r="7" fill="#fff" stroke="#000"/><text x="${f(x + R * 0.62)}" y="${f(y - R * 0.55 + 3.5)}" font-size="10" font-weight="bold" text-anchor="middle">${n}</text></g>`);
      }
      out.push(`</g>`);
    }
    this.unitLayer.innerHTML = out.join("");
    this.drawLeaders(board.leaders || [], selected);
  }

  /** Grand Chancellorsville 23.5: the Leaders on the map (the view's `leaders`). One riding with a unit is a
   * one-line badge over the top of the hex's counters; one on his own (23.51, 23.54) a two-line counter in
   * the middle of his hex. Several in one hex are drawn one above the other. */
  drawLeaders(leaders, selected = null) {
    const L = this.layout;
    const byHex = {};
    for (const x of leaders) if (x.hex in this.scenario.map.hexes) (byHex[x.hex] ||= []).push(x);
    const out = [];
    for (const [hx, here] of Object.entries(byHex)) {
      const [x, y] = L.centre(hx);
      here.sort((a, b) => b.stars - a.stars || a.id.localeCompare(b.id));
      const riding = here.filter((l) => !l.alone);
      const alone = here.filter((l) => l.alone);
      riding.forEach((l, i) => out.push(leaderBadge(l, x, y - H / 2 + 5 - i * 12, { selected: l.id === selected })));
      alone.forEach((l, i) => out.push(leaderBadge(l, x, y + 2 - (alone.length - 1) * 13 + i * 26, { alone: true, selected: l.id === selected })));
    }
    this.leaderLayer.innerHTML = out.join("");
  }

  /** Revised 10.3 Breastworks Markers (`state.breastworks`: hex -> {status, side, facing}): under
   * construction a dashed brown hex outline with "BW…"; complete (or a trench) a heavy purple line (not a road's brown)
   * with teeth on each of the three hexsides it faces (toward the hexes in `facing`). `preview`: a hex whose
   * marker is only the facing under the pointer (movement.js previewFacing), not the server's: drawn
   * lighter, with the class "preview", so that neither a player nor a test takes it for a completed marker. */
  drawWorks(works, preview = null) {
    const L = this.layout;
    const out = [];
    for (const [hx, w] of Object.entries(works)) {
      if (!(hx in this.scenario.map.hexes)) continue;
      const [x, y] = L.centre(hx);
      const title = `<title>${esc(hx)}: ${w.status === "building" ? "breastworks under construction (10.34)" : w.status === "trench" ? "trench (10.33)" : "breastworks (10.34)"}${w.facing?.length ? `, facing ${esc(w.facing.join(", "))}` : ""}</title>`;
      if (w.status === "building") {
        out.push(`<g class="works building" data-hex="${hx}" data-status="building">${title}<polygon points="${L.points(hx, R - 4)}" fill="none" stroke="#7a4b00" stroke-width="2.4" stroke-dasharray="5 3"/>` +
          `<rect x="${f(x - 13)}" y="${f(y - H / 2 + 3)}" width="26" height="10" rx="2" fill="#fff3d6" stroke="#7a4b00" stroke-width="0.8"/>` +
          `<text x="${f(x)}" y="${f(y - H / 2 + 11)}" font-size="8" font-weight="bold" fill="#7a4b00" text-anchor="middle">BW…</text></g>`);
        continue;
      }
      const sides = (w.facing || []).filter((n) => n in this.scenario.map.hexes).map((n) => {
        const [[x1, y1], [x2, y2]] = L.edge(hx, n);
        // pull the line a little inside this hex, teeth toward the enemy (the faced hex)
        const [nx, ny] = L.centre(n);
        const len = Math.hypot(nx - x, ny - y) || 1;
        const ux = (nx - x) / len, uy = (ny - y) / len;
        const ix = -ux * 3, iy = -uy * 3;
        const teeth = [0.2, 0.4, 0.6, 0.8].map((t) => {
          const sx = x1 + (x2 - x1) * t + ix, sy = y1 + (y2 - y1) * t + iy;
          return `<line x1="${f(sx)}" y1="${f(sy)}" x2="${f(sx + ux * 5)}" y2="${f(sy + uy * 5)}"/>`;
        });
        return `<line x1="${f(x1 + ix)}" y1="${f(y1 + iy)}" x2="${f(x2 + ix)}" y2="${f(y2 + iy)}" stroke-width="${w.status === "trench" ? 5 : 3.6}"/>` +
          (w.status === "trench" ? `<line x1="${f(x1 + ix)}" y1="${f(y1 + iy)}" x2="${f(x2 + ix)}" y2="${f(y2 + iy)}" stroke="#fff3d6" stroke-width="1.4"/>` : "") +
          `<g stroke-width="2">${teeth.join("")}</g>`;
      });
      const previewed = hx === preview;
      out.push(`<g class="works ${w.status}${previewed ? " preview" : ""}" data-hex="${hx}" data-status="${w.status}"${previewed ? ` opacity="0.55"` : ""} stroke="#8e2f6e" stroke-linecap="round">${title}${sides.join("")}</g>`);
    }
    this.worksLayer.innerHTML = out.join("");
  }

  /** The objective hexes (the server's glance): a star at the hex's left corner, filled with the
   * colour of the side holding it (white: nobody yet), with the points it is worth. */
  setObjectives(objectives = []) {
    const L = this.layout;
    const fill = { union: "#1f3f8f", confederate: "#9a9a9a" };
    const out = [];
    for (const o of objectives) {
      if (!(o.hex in this.scenario.map.hexes)) continue;
      const [x, y] = L.centre(o.hex);
      const cx = x - R + 9;
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const r = i % 2 ? 3.4 : 8;
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        pts.push(`${f(cx + r * Math.cos(a))},${f(y + r * Math.sin(a))}`);
      }
      const holder = o.holder || "";
      out.push(`<g class="objective" data-hex="${o.hex}" data-holder="${holder}" data-points="${o.points}">` +
        `<polygon points="${pts.join(" ")}" fill="${fill[holder] || "#fff"}" stroke="#b8860b" stroke-width="1.4"/>` +
        (o.points ? `<text x="${f(cx)}" y="${f(y + 17)}" font-size="8" font-weight="bold" text-anchor="middle" class="objective-label">${o.points}</text>` : "") +
        `<title>${esc(`${o.hex}: ${o.points ? `${o.points} VP` : "to occupy"} (${o.rule})${o.side ? ` for the ${o.side === "union" ? "Union" : "Confederate"}` : ""} — held by ${holder ? (holder === "union" ? "the Union" : "the Confederate") : "nobody yet"}`)}</title></g>`);
    }
    this.objectiveLayer.innerHTML = out.join("");
  }

  // -- overlays -----------------------------------------------------------------------------------
  /** Replace the overlay: `shades` {hex: {cls, label, title}}, `rings` [{hex, cls, label}]. */
  setOverlay({ shades = {}, rings = [] } = {}) {
    const L = this.layout;
    const out = [];
    for (const [h, s] of Object.entries(shades)) {
      if (!(h in this.scenario.map.hexes)) continue;
      const [x, y] = L.centre(h);
      out.push(
        `<g class="shade ${s.cls || ""}" data-hex="${h}"><polygon points="${L.points(h, R - 1)}" style="${s.style || ""}"/>` +
          (s.hatch ? `<polygon points="${L.points(h, R - 1)}" fill="url(#reach-hatch)"/>` : "") +
          (s.label !== undefined
            ? // Under a counter the label sits on the hex's lower edge, clear of the counter's box.
              this.occupied.has(h)
              ? `<text x="${f(x)}" y="${f(y + H / 2 + 3)}" font-size="9" font-weight="bold" text-anchor="middle" class="shade-label under-counter">${esc(s.label)}</text>`
              : `<text x="${f(x)}" y="${f(y + H / 2 - 4)}" font-size="10" font-weight="bold" text-anchor="middle" class="shade-label">${esc(s.label)}</text>`
            : "") +
          (s.title ? `<title>${esc(s.title)}</title>` : "") +
          `</g>`,
      );
    }
    for (const r of rings) {
      if (!(r.hex in this.scenario.map.hexes)) continue;
      const [x, y] = L.centre(r.hex);
      out.push(`<g class="ring ${r.cls || ""}" data-hex="${r.hex}"><polygon points="${L.points(r.hex, R - 2.5)}" fill="none"/>` +
        (r.label ? `<text x="${f(x)}" y="${f(y - H / 2 + 11)}" font-size="9" font-weight="bold" text-anchor="middle" class="ring-label">${esc(r.label)}</text>` : "") +
        `</g>`);
    }
    this.overlay.innerHTML = out.join("");
  }

  /** Draw a path through hex centres (a move preview, or the last move in `cls` "trail"). */
  setPath(path, cls = "preview", costLabel = null) {
    if (!path || path.length < 2) {
      this.pathLayer.innerHTML = "";
      return;
    }
    const pts = path.map((h) => this.layout.centre(h));
    const d = pts.map(([x, y], i) => `${i ? "L" : "M"}${f(x)} ${f(y)}`).join(" ");
    const [ex, ey] = pts[pts.length - 1];
    this.pathLayer.innerHTML =
      `<g class="path ${cls}"><path d="${d}" class="casing"/><path d="${d}" class="line" marker-end="url(#path-arrow)"/>` +
      pts.slice(1, -1).map(([x, y]) => `<circle cx="${f(x)}" cy="${f(y)}" r="3"/>`).join("") +
      (costLabel !== null
        ? `<g class="path-cost"><rect x="${f(ex + 8)}" y="${f(ey - 24)}" width="${f(12 + 7 * String(costLabel).length)}" height="16" rx="3"/><text x="${f(ex + 14)}" y="${f(ey - 12)}" font-size="11" font-weight="bold">${esc(costLabel)}</text></g>`
        : "") +
      `</g>`;
  }

  /** Centre the view on a hex (keeping the zoom). */
  centreOn(hex) {
    const [x, y] = this.layout.centre(hex);
    this.view.x = x - this.view.w / 2;
    this.view.y = y - this.view.h / 2;
    this._apply();
  }

  // -- zoom and pan ------------------------------------------------------------------------------
  _aspect() {
    const r = this.svg.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? r.height / r.width : 1;
  }

  fit() {
    const L = this.layout;
    const a = this._aspect();
    let w = L.width, h = L.width * a;
    if (h < L.height) {
      h = L.height;
      w = h / a;
    }
    this.view = { x: (L.width - w) / 2, y: (L.height - h) / 2, w, h };
    this._apply();
  }

  /** Zoom by `factor` (>1 zooms in) about the SVG point (px, py), by default the view's centre. */
  zoom(factor, px = null, py = null) {
    const v = this.view;
    if (px === null) {
      px = v.x + v.w / 2;
      py = v.y + v.h / 2;
    }
    const L = this.layout;
    const nw = Math.min(Math.max(v.w / factor, 180), L.width * 2.5);
    const k = nw / v.w;
    this.view = { x: px - (px - v.x) * k, y: py - (py - v.y) * k, w: nw, h: v.h * k };
    this._apply();
  }

  /** The zoom level: screen pixels per SVG unit. */
  scale() {
    const r = this.svg.getBoundingClientRect();
    return r.width / this.view.w;
  }

  resize() {
    const a = this._aspect();
    this.view.h = this.view.w * a;
    this._apply();
  }

  _apply() {
    const v = this.view;
    if (!(v.h > 0)) v.h = v.w * this._aspect();
    // Keep the middle of the view over the map: it can never be panned out of sight.
    const L = this.layout;
    v.x = Math.min(Math.max(v.x, -v.w / 2), L.width - v.w / 2);
    v.y = Math.min(Math.max(v.y, -v.h / 2), L.height - v.h / 2);
    this.svg.setAttribute("viewBox", `${f(v.x)} ${f(v.y)} ${f(v.w)} ${f(v.h)}`);
    this.svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  }

  _toSvg(clientX, clientY) {
    const pt = this.svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    return [p.x, p.y];
  }

  /** The hex at a screen point (for clicks and tests). */
  hexAtClient(clientX, clientY) {
    const [x, y] = this._toSvg(clientX, clientY);
    return this.layout.hexAt(x, y);
  }

  /** The screen point at the centre of a hex (for tests and tooltips). */
  clientOf(hex) {
    const [x, y] = this.layout.centre(hex);
    const m = this.svg.getScreenCTM();
    return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
  }

  _interaction() {
    const svg = this.svg;
    const pointers = new Map();
    let drag = null;
    let pinch = null;
    svg.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        const [px, py] = this._toSvg(e.clientX, e.clientY);
        this.zoom(Math.exp(-e.deltaY * 0.0015), px, py);
      },
      { passive: false },
    );
    svg.addEventListener("pointerdown", (e) => {
      svg.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pointers.size === 1) {
        drag = { x: e.clientX, y: e.clientY, view: { ...this.view }, moved: false };
      } else if (pointers.size === 2) {
        const [[x1, y1], [x2, y2]] = [...pointers.values()];
        pinch = { d: Math.hypot(x2 - x1, y2 - y1), view: { ...this.view } };
        drag = null;
      }
    });
    svg.addEventListener("pointermove", (e) => {
      if (pointers.has(e.pointerId)) pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pinch && pointers.size === 2) {
        const [[x1, y1], [x2, y2]] = [...pointers.values()];
        const d = Math.hypot(x2 - x1, y2 - y1);
        const [px, py] = this._toSvg((x1 + x2) / 2, (y1 + y2) / 2);
        const target = pinch.view.w / (d / pinch.d);
        this.zoom(this.view.w / target, px, py);
        return;
      }
      if (drag) {
        const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
        if (!drag.moved && Math.hypot(dx, dy) > 6) drag.moved = true;
        if (drag.moved) {
          const s = this.scale();
          this.view.x = drag.view.x - dx / s;
          this.view.y = drag.view.y - dy / s;
          this._apply();
          svg.classList.add("panning");
        }
        return;
      }
      const hex = this.hexAtClient(e.clientX, e.clientY);
      if (hex !== this.hovered) {
        this.hovered = hex;
        this.onHexHover(hex);
      }
    });
    const end = (e) => {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (drag && !drag.moved && e.type === "pointerup") {
        const hex = this.hexAtClient(e.clientX, e.clientY);
        if (hex) this.onHexClick(hex, e);
      }
      drag = null;
      svg.classList.remove("panning");
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    svg.addEventListener("pointerleave", () => {
      if (this.hovered !== null) {
        this.hovered = null;
        this.onHexHover(null);
      }
    });
    new ResizeObserver(() => this.resize()).observe(this.container);
  }
}

function pathStep(ax, ay, bx, by, kind) {
  const line = `x1="${f(ax)}" y1="${f(ay)}" x2="${f(bx)}" y2="${f(by)}"`;
  if (kind === "road") return `<line ${line} stroke="${CASING}" stroke-width="5.4"/><line ${line} stroke="${ROAD}" stroke-width="3.2"/>`;
  return `<line ${line} stroke="${CASING}" stroke-width="4.4"/><line ${line} stroke="${TRAIL}" stroke-width="2.2" stroke-dasharray="5 3"/>`;
}

function bridge(mx, my, ux, uy) {
  const px = -uy, py = ux;
  const half = R * 0.32, gap = 3.2;
  const rails = [-1, 1].map((s) => {
    const ox = px * gap * s, oy = py * gap * s;
    return `<line x1="${f(mx - ux * half + ox)}" y1="${f(my - uy * half + oy)}" x2="${f(mx + ux * half + ox)}" y2="${f(my + uy * half + oy)}"/>`;
  });
  const deck = `<line x1="${f(mx - ux * half)}" y1="${f(my - uy * half)}" x2="${f(mx + ux * half)}" y2="${f(my + uy * half)}" stroke="#f3eed8" stroke-width="5"/>`;
  return `<g class="bridge" stroke="#222" stroke-width="1.6">${deck}${rails.join("")}</g>`;
}

function ford(mx, my, ux, uy) {
  const half = R * 0.3;
  const dots = [-1, -0.33, 0.33, 1].map((t) => `<circle cx="${f(mx + ux * half * t)}" cy="${f(my + uy * half * t)}" r="2.3"/>`);
  return `<g class="ford" fill="#ffffff" stroke="#222" stroke-width="1">${dots.join("")}</g>`;
}

function redoubt([x1, y1], [x2, y2], [bx, by]) {
  const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
  const len = Math.hypot(bx - mx, by - my) || 1;
  const nx = (bx - mx) / len, ny = (by - my) / len;
  const barbs = [0.25, 0.5, 0.75].map((t) => {
    const sx = x1 + (x2 - x1) * t, sy = y1 + (y2 - y1) * t;
    return `<line x1="${f(sx)}" y1="${f(sy)}" x2="${f(sx + nx * 6)}" y2="${f(sy + ny * 6)}"/>`;
  });
  return `<g class="redoubt" stroke="#222" stroke-linecap="round"><line x1="${f(x1)}" y1="${f(y1)}" x2="${f(x2)}" y2="${f(y2)}" stroke-width="3"/><g stroke-width="2">${barbs.join("")}</g></g>`;
}

/** Sample SVG snippets for the legend. */
export const LEGEND_HEXSIDES = [
  [`<line x1="0" y1="10" x2="34" y2="10" stroke="${CREEK}" stroke-width="4"/>`, "Creek: cross only at a bridge or ford"],
  [`<line x1="0" y1="10" x2="34" y2="10" stroke="${CREEK}" stroke-width="4"/>` + bridge(17, 10, 0, 1), "Bridge"],
  [`<line x1="0" y1="10" x2="34" y2="10" stroke="${CREEK}" stroke-width="4"/>` + ford(17, 10, 0, 1), "Ford"],
  [pathStep(0, 10, 34, 10, "road"), "Road"],
  [pathStep(0, 10, 34, 10, "trail"), "Trail"],
  [redoubt([0, 6], [34, 6], [17, 30]), "Redoubt (barbs toward the attacker)"],
  [`<line x1="2" y1="10" x2="32" y2="10" stroke="#0b3d91" stroke-width="2.2" marker-end="url(#arrow)"/>`, "Ferry arrow"],
  [`<g stroke="#8e2f6e" stroke-linecap="round"><line x1="0" y1="8" x2="34" y2="8" stroke-width="3.6"/><g stroke-width="2"><line x1="7" y1="8" x2="7" y2="13"/><line x1="14" y1="8" x2="14" y2="13"/><line x1="21" y1="8" x2="21" y2="13"/><line x1="28" y1="8" x2="28" y2="13"/></g></g>`, "Breastworks (revised 10.3): teeth toward the faced hexes"],
  [`<rect x="2" y="3" width="30" height="16" fill="none" stroke="#7a4b00" stroke-width="2.4" stroke-dasharray="5 3"/><text x="17" y="15" font-size="8" font-weight="bold" fill="#7a4b00" text-anchor="middle">BW…</text>`, "Breastworks under construction (10.34)"],
];
