// Hex geometry of a scenario map, the same as scenarios/render.py draws it: flat-topped hexes in
// vertical columns, numbered XXYY (column, row); the columns named by map.lower_columns sit half a
// hex lower. Pure functions: no DOM.

export const R = 30; // corner radius of a hex (SVG units)
export const H = Math.sqrt(3) * R; // flat side to flat side
export const MARGIN = 24;

export function parseHex(number) {
  return [parseInt(number.slice(0, 2), 10), parseInt(number.slice(2, 4), 10)];
}

export function hexNumber(column, row) {
  return String(column).padStart(2, "0") + String(row).padStart(2, "0");
}

export class Layout {
  constructor(map) {
    this.hexes = map.hexes;
    this.lower = map.lower_columns === "even" ? 0 : 1;
    const cols = [], rows = [];
    for (const h of Object.keys(map.hexes)) {
      const [c, r] = parseHex(h);
      cols.push(c);
      rows.push(r);
    }
    this.c0 = Math.min(...cols);
    this.c1 = Math.max(...cols);
    this.r0 = Math.min(...rows);
    this.r1 = Math.max(...rows);
    this.width = 2 * MARGIN + (this.c1 - this.c0) * 1.5 * R + 2 * R;
    this.height = 2 * MARGIN + (this.r1 - this.r0 + 1.5) * H;
  }

  centre(number) {
    const [c, r] = parseHex(number);
    const x = MARGIN + R + (c - this.c0) * 1.5 * R;
    const y = MARGIN + H / 2 + (r - this.r0) * H + ((c + this.lower) % 2 === 0 ? H / 2 : 0);
    return [x, y];
  }

  corners(number, radius = R) {
    const [x, y] = this.centre(number);
    const out = [];
    for (let a = 0; a < 360; a += 60) {
      const t = (a * Math.PI) / 180;
      out.push([x + radius * Math.cos(t), y + radius * Math.sin(t)]);
    }
    return out;
  }

  points(number, radius = R) {
    return this.corners(number, radius).map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  }

  /** The two corners of the hexside between adjacent hexes a and b. */
  edge(a, b) {
    const [bx, by] = this.centre(b);
    const near = this.corners(a).sort(
      (p, q) => (p[0] - bx) ** 2 + (p[1] - by) ** 2 - ((q[0] - bx) ** 2 + (q[1] - by) ** 2),
    );
    return [near[0], near[1]];
  }

  /** The hex of the map under the point (x, y), or null. */
  hexAt(x, y) {
    const c = Math.round((x - MARGIN - R) / (1.5 * R)) + this.c0;
    let best = null;
    let bestD = Infinity;
    for (let cc = c - 1; cc <= c + 1; cc++) {
      const shift = (cc + this.lower) % 2 === 0 ? H / 2 : 0;
      const r = Math.round((y - MARGIN - H / 2 - shift) / H) + this.r0;
      for (let rr = r - 1; rr <= r + 1; rr++) {
        if (cc < 0 || rr < 0 || cc > 99 || rr > 99) continue;
        const n = hexNumber(cc, rr);
        if (!(n in this.hexes)) continue;
        const [hx, hy] = this.centre(n);
        const d = (hx - x) ** 2 + (hy - y) ** 2;
        if (d < bestD) {
          bestD = d;
          best = n;
        }
      }
    }
    return bestD <= R * R ? best : null;
  }
}

/** The hexes of the map adjacent to `number` (centres one hex height apart). */
export function neighbours(layout, number) {
  const [c, r] = parseHex(number);
  const [x, y] = layout.centre(number);
  const out = [];
  for (let cc = c - 1; cc <= c + 1; cc++) {
    for (let rr = r - 1; rr <= r + 1; rr++) {
      if (cc < 0 || rr < 0 || (cc === c && rr === r)) continue;
      const n = hexNumber(cc, rr);
      if (!(n in layout.hexes)) continue;
      const [nx, ny] = layout.centre(n);
      if (Math.abs(Math.hypot(nx - x, ny - y) - H) < 1) out.push(n);
    }
  }
  return out;
}
