// Unit counters as SVG text: side colour, designation, NATO type box, strength (2.4), and markers:
// moved (a black corner flag), ineffective (face-down: hatched, "IE"), attacked this phase (a dot
// in the lower left). The same look as scenarios/render.py's counters. Revised rules (12.0): a morale
// badge on the upper-left corner, each level with its own shape, letter AND colour (Okabe-Ito palette, safe
// for colour-blind eyes): Disordered a yellow square "D", Shaken an orange triangle "S", Routed a
// black diamond "R" (white letter); a Rally marker (12.41) a sky-blue circle "Ry" on the upper-right corner
// (where the moved flag would be: a rallying unit may not move).

export const SIDE_STYLE = {
  union: { fill: "#1f3f8f", ink: "#ffffff", name: "Union" },
  confederate: { fill: "#d9d9d9", ink: "#111111", name: "Confederate" },
};

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

const f = (n) => n.toFixed(1);

/** Morale levels (revised 12.0) as the state names them: label, letter, fill, ink. */
export const MORALE_STYLE = {
  disordered: { label: "Disordered", letter: "D", fill: "#F0E442", ink: "#000" },
  shaken: { label: "Shaken", letter: "S", fill: "#E69F00", ink: "#000" },
  routed: { label: "Routed", letter: "R", fill: "#000000", ink: "#fff" },
};
export const RALLY_STYLE = { label: "Rally marker", letter: "Ry", fill: "#56B4E9", ink: "#000" };

/** The morale badge centred at (x, y) with size s: square, triangle or diamond. */
function moraleBadge(level, x, y, s) {
  const m = MORALE_STYLE[level];
  if (!m) return "";
  let shape;
  if (level === "disordered") shape = `<rect x="${f(x - s / 2)}" y="${f(y - s / 2)}" width="${f(s)}" height="${f(s)}" rx="0.6"`;
  else if (level === "shaken") shape = `<path d="M${f(x)} ${f(y - s * 0.62)} L${f(x + s * 0.62)} ${f(y + s * 0.5)} L${f(x - s * 0.62)} ${f(y + s * 0.5)} Z"`;
  else shape = `<path d="M${f(x)} ${f(y - s * 0.62)} L${f(x + s * 0.62)} ${f(y)} L${f(x)} ${f(y + s * 0.62)} L${f(x - s * 0.62)} ${f(y)} Z"`;
  const ty = level === "shaken" ? y + s * 0.36 : y + s * 0.3;
  return `<g class="morale-mark ${level}" data-morale="${level}">${shape} fill="${m.fill}" stroke="${m.ink === "#fff" ? "#fff" : "#000"}" stroke-width="0.8"/>` +
    `<text x="${f(x)}" y="${f(ty)}" font-size="${f(s * 0.78)}" font-weight="bold" fill="${m.ink}" text-anchor="middle">${m.letter}</text></g>`;
}

/** One counter centred at (cx, cy), width w. `marks`: {moved, ineffective, attacked, selected,
 * morale ("disordered" | "shaken" | "routed" | ""), rally}. */
export function counter(unit, cx, cy, w, marks = {}) {
  const st = SIDE_STYLE[unit.side] || SIDE_STYLE.union;
  const ink = st.ink;
  const h = w;
  const x0 = cx - w / 2;
  const y0 = cy - h / 2;
  const bw = w * 0.62;
  const bh = h * 0.3;
  const bx = cx - bw / 2;
  const by = y0 + h * 0.3;
  let symbol;
  if (unit.type === "infantry") {
    symbol = `<path d="M${f(bx)} ${f(by)} L${f(bx + bw)} ${f(by + bh)} M${f(bx + bw)} ${f(by)} L${f(bx)} ${f(by + bh)}" stroke="${ink}" stroke-width="1"/>`;
  } else if (unit.type === "cavalry") {
    symbol = `<path d="M${f(bx)} ${f(by + bh)} L${f(bx + bw)} ${f(by)}" stroke="${ink}" stroke-width="1"/>`;
  } else if (unit.type === "gunboat") {
    // revised 9.6: a hull with a mast (scenarios/render.py draws the same)
    symbol = `<path class="gunboat" d="M${f(bx + bw * 0.12)} ${f(by + bh * 0.5)} L${f(bx + bw * 0.88)} ${f(by + bh * 0.5)} L${f(bx + bw * 0.72)} ${f(by + bh * 0.85)} L${f(bx + bw * 0.28)} ${f(by + bh * 0.85)} Z M${f(cx)} ${f(by + bh * 0.5)} L${f(cx)} ${f(by + bh * 0.15)}" fill="${ink}" stroke="${ink}" stroke-width="1"/>`;
  } else {
    symbol = `<circle cx="${f(cx)}" cy="${f(by + bh / 2)}" r="${f(bh * 0.3)}" fill="${ink}"/>`;
  }
  const box = `<rect x="${f(bx)}" y="${f(by)}" width="${f(bw)}" height="${f(bh)}" fill="none" stroke="${ink}" stroke-width="1"/>`;
  const size = Math.min(w * 0.24, 8);
  const desig = `<text x="${f(cx)}" y="${f(y0 + h * 0.25)}" font-size="${f(size)}" fill="${ink}" text-anchor="middle"${
    unit.designation.length > 6 ? ` textLength="${f(w * 0.9)}" lengthAdjust="spacingAndGlyphs"` : ""
  }>${esc(unit.designation)}</text>`;
  const strength = `<text x="${f(cx)}" y="${f(y0 + h * 0.92)}" font-size="${f(w * 0.34)}" font-weight="bold" fill="${ink}" text-anchor="middle">${unit.strength}</text>`;
  let extra = "";
  if (marks.ineffective) {
    extra += `<rect x="${f(x0)}" y="${f(y0)}" width="${f(w)}" height="${f(h)}" rx="2" fill="url(#ineffective)"/>`;
    extra += `<text x="${f(x0 + w - 2)}" y="${f(y0 + h * 0.92)}" font-size="${f(w * 0.2)}" font-weight="bold" fill="#b00000" stroke="#fff" stroke-width="0.6" paint-order="stroke" text-anchor="end">IE</text>`;
  }
  if (marks.moved) {
    const s = w * 0.3;
    extra += `<path class="moved-mark" d="M${f(x0 + w - s)} ${f(y0)} L${f(x0 + w)} ${f(y0)} L${f(x0 + w)} ${f(y0 + s)} Z" fill="#000" stroke="#fff" stroke-width="0.6"/>`;
  }
  if (marks.attacked) {
    extra += `<circle class="attacked-mark" cx="${f(x0 + w * 0.14)}" cy="${f(y0 + h * 0.84)}" r="${f(w * 0.09)}" fill="#c0392b" stroke="#fff" stroke-width="0.6"/>`;
  }
  if (marks.morale) extra += moraleBadge(marks.morale, x0 + w * 0.06, y0 + h * 0.06, Math.max(w * 0.3, 7));
  if (marks.rally) {
    const r = Math.max(w * 0.19, 4);
    extra += `<g class="rally-mark"><circle cx="${f(x0 + w - r * 0.35)}" cy="${f(y0 + r * 0.35)}" r="${f(r)}" fill="${RALLY_STYLE.fill}" stroke="#000" stroke-width="0.8"/>` +
      `<text x="${f(x0 + w - r * 0.35)}" y="${f(y0 + r * 0.35 + r * 0.4)}" font-size="${f(r * 1.05)}" font-weight="bold" fill="#000" text-anchor="middle">Ry</text></g>`;
  }
  const outline = marks.selected
    ? `<rect x="${f(x0 - 2)}" y="${f(y0 - 2)}" width="${f(w + 4)}" height="${f(h + 4)}" rx="3" fill="none" stroke="#ffbf00" stroke-width="3"/>`
    : "";
  const title = `${unit.designation}: ${unit.strength} ${unit.type}, ${st.name}${marks.moved ? ", moved" : ""}${
    marks.ineffective ? ", ineffective" : ""
  }${marks.attacked ? ", in combat this phase" : ""}${marks.morale && MORALE_STYLE[marks.morale] ? `, ${MORALE_STYLE[marks.morale].label}` : ""}${
    marks.rally ? ", rallying" : ""}`;
  return (
    `<g class="counter" data-unit="${esc(unit.id)}"><title>${esc(title)}</title>` +
    `<rect x="${f(x0 + 1.2)}" y="${f(y0 + 1.2)}" width="${f(w)}" height="${f(h)}" rx="2" fill="#000" opacity="0.35"/>` +
    `<rect x="${f(x0)}" y="${f(y0)}" width="${f(w)}" height="${f(h)}" rx="2" fill="${st.fill}" stroke="#000" stroke-width="0.8"/>` +
    box + symbol + desig + strength + extra + outline + `</g>`
  );
}

/** A small stand-alone counter SVG (for lists and the legend). */
export function counterIcon(unit, size = 34, marks = {}) {
  return `<svg class="counter-icon" width="${size}" height="${size}" viewBox="-3 -3 46 46" aria-hidden="true">${counter(unit, 20, 20, 36, marks)}</svg>`;
}

/** A Leader (Grand Chancellorsville 23.5: the view's `leaders`) centred at (cx, cy): a pill in his side's
 * colour with a gold rim (no unit counter has one), his stars and his name. `alone` (23.54: no combat unit
 * of his side in his hex; 23.51: standing on his own) draws a bigger two-line counter, alone in the hex;
 * riding with a unit, a one-line badge over the unit's counter. `selected`: ringed as a selected unit is. */
export function leaderBadge(leader, cx, cy, { alone = false, selected = false } = {}) {
  const st = SIDE_STYLE[leader.side] || SIDE_STYLE.union;
  const stars = "★".repeat(Math.max(1, leader.stars || 1));
  const title = `${leader.name}: ${leader.stars}-star Leader, ${st.name}${alone ? ", on his own" : leader.unit ? ", with a unit" : ""}`;
  const w = leaderWidth(leader, alone);
  const h = alone ? 24 : 11;
  const x0 = cx - w / 2, y0 = cy - h / 2;
  const ring = selected ? `<rect x="${f(x0 - 2)}" y="${f(y0 - 2)}" width="${f(w + 4)}" height="${f(h + 4)}" rx="${f(h / 2 + 2)}" fill="none" stroke="#ffbf00" stroke-width="3"/>` : "";
  const text = alone
    ? `<text x="${f(cx)}" y="${f(y0 + 10)}" font-size="8.5" fill="#e0b000" stroke="#000" stroke-width="0.3" text-anchor="middle" class="leader-stars">${stars}</text>` +
      `<text x="${f(cx)}" y="${f(y0 + 20.5)}" font-size="8.5" font-weight="bold" fill="${st.ink}" text-anchor="middle" class="leader-name">${esc(leader.name)}</text>`
    : `<text x="${f(cx)}" y="${f(y0 + 8.4)}" font-size="7.5" font-weight="bold" fill="${st.ink}" text-anchor="middle"><tspan fill="#e0b000" class="leader-stars">${stars}</tspan> <tspan class="leader-name">${esc(leader.name)}</tspan></text>`;
  return `<g class="leader${alone ? " alone" : ""}${selected ? " selected" : ""}" data-leader="${esc(leader.id)}" data-hex="${esc(leader.hex || "")}" data-stars="${leader.stars}"><title>${esc(title)}</title>` +
    `<rect x="${f(x0)}" y="${f(y0)}" width="${f(w)}" height="${f(h)}" rx="${f(h / 2)}" fill="${st.fill}" stroke="#b8860b" stroke-width="1.6"/>` +
    text + ring + `</g>`;
}

/** The width of a Leader's pill: his name and stars fit in it. */
function leaderWidth(leader, alone) {
  const stars = Math.max(1, leader.stars || 1);
  return alone ? Math.max(34, 8 + 5.6 * Math.max(leader.name.length, stars * 1.4)) : Math.max(34, 10 + 5 * (leader.name.length + stars + 1));
}

/** A small stand-alone Leader SVG (for lists and the legend). */
export function leaderIcon(leader, alone = true) {
  const w = Math.ceil(leaderWidth(leader, alone)) + 6;
  return `<svg class="leader-icon" width="${w}" height="${alone ? 30 : 16}" viewBox="0 0 ${w} ${alone ? 30 : 16}" aria-hidden="true">${leaderBadge(leader, w / 2, alone ? 15 : 8, { alone })}</svg>`;
}
