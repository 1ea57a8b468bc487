// The editor's document: a scenario as one file (scenarios/document.py, docs/SCENARIOS.md "One file"),
// edited in place, with undo and redo. Pure functions and one small class: no DOM.

export const FORMAT = "bluegray-scenario/1";
export const TERRAINS = ["clear", "forest", "rough", "forest_rough", "town", "swamp", "river", "ferry", "pontoon", "lake", "pond"];
export const FEATURES = ["creek", "bridge", "ford", "road", "trail", "turnpike", "railway", "sunken_road", "stream",
  "ridge", "slope", "river_side", "redoubt", "trench", "ferry_crossing"];
export const UNIT_TYPES = ["infantry", "cavalry", "artillery", "gunboat"];
export const VICTORY_AREAS = ["union_victory_hexes", "confederate_victory_hexes"];

const pad = (n) => String(n).padStart(2, "0");

/** The hexside between two hexes, as the rules name it: the sorted pair "AAAA|BBBB". */
export function sideKey(a, b) {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/** A blank map of `columns` x `rows` clear hexes (lower columns "even" or "odd"), no units. */
export function blank({ name = "new-map", title = "A new battle", columns = 10, rows = 8, lower = "even" } = {}) {
  const hexes = {};
  for (let c = 1; c <= columns; c++) for (let r = 1; r <= rows; r++) hexes[`${pad(c)}${pad(r)}`] = "clear";
  return {
    format: FORMAT,
    name,
    scenario: { id: name, name: title, rulesets: ["classic", "revised"], turns: 5, night_turns: [], first_player: "union" },
    map: { lower_columns: lower, hexes, hexsides: {} },
    oob: { unit: [] },
  };
}

/** The document made ready for editing: hexside keys sorted, roads and trails written as paths turned
 * into road and trail hexsides (the same map: 5.22, 5.23), empty tables present. */
export function normalise(doc) {
  const d = structuredClone(doc);
  const sides = {};
  const add = (key, entry) => {
    const [a, b] = key.split("|");
    const k = sideKey(a, b);
    const s = (sides[k] ||= { features: [] });
    for (const f of entry.features || []) if (!s.features.includes(f)) s.features.push(f);
    if (entry.barbed) s.barbed = entry.barbed;
    if (entry.high) s.high = entry.high;
  };
  for (const [k, v] of Object.entries(d.map.hexsides || {})) add(k, v);
  for (const kind of ["road", "trail"]) {
    for (const path of d.map[kind] || []) {
      for (let i = 1; i < path.hexes.length; i++) add(`${path.hexes[i - 1]}|${path.hexes[i]}`, { features: [kind] });
    }
    delete d.map[kind];
  }
  d.map.hexsides = sides;
  d.map.areas ||= {};
  d.oob ||= { unit: [] };
  d.oob.unit ||= [];
  d.scenario.night_turns ||= [];
  return d;
}

/** The scenario as the game map draws it (the shape of GET /api/scenarios/{id}). */
export function forMap(doc) {
  return {
    id: doc.name,
    name: doc.scenario.name || doc.name,
    map: {
      lower_columns: doc.map.lower_columns,
      hexes: Object.fromEntries(Object.entries(doc.map.hexes).map(([h, t]) => [h, { terrain: t }])),
      hexsides: doc.map.hexsides,
      areas: doc.map.areas || {},
    },
    units: doc.oob.unit.map((u) => ({ ...u, hex: u.hex ?? null, arrives: u.arrives ?? null, entry: u.entry || [] })),
    exclusive: doc.scenario.exclusive || {},
  };
}

/** Toggle `feature` on the hexside between `hex` and its neighbour `toward` (a redoubt's barbed side and
 * a slope's high hex are set from them: barbs toward `toward`, `hex` the upper side). */
export function toggleFeature(doc, hex, toward, feature) {
  const key = sideKey(hex, toward);
  const side = (doc.map.hexsides[key] ||= { features: [] });
  const i = side.features.indexOf(feature);
  if (i >= 0) {
    side.features.splice(i, 1);
    if (feature === "redoubt" || feature === "trench") delete side.barbed;
    if (feature === "slope") delete side.high;
  } else {
    side.features.push(feature);
    if (feature === "redoubt" || feature === "trench") side.barbed = toward;
    if (feature === "slope") side.high = hex;
    if ((feature === "bridge" || feature === "ford") && !side.features.includes("creek")) side.features.unshift("creek");
  }
  if (!side.features.length) delete doc.map.hexsides[key];
}

/** Toggle `hex` in the area `name`. */
export function toggleArea(doc, name, hex) {
  const list = (doc.map.areas[name] ||= []);
  const i = list.indexOf(hex);
  if (i >= 0) list.splice(i, 1);
  else list.push(hex);
  if (!list.length) delete doc.map.areas[name];
}

/** A unit id not yet used: "u1", "u2", ... by side ("c1" for the Confederates). */
export function newUnitId(doc, side) {
  const used = new Set(doc.oob.unit.map((u) => u.id));
  const prefix = side === "union" ? "u" : "c";
  let n = 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/** The document to send: the edited one, without editor-only empty tables. */
export function toSend(doc) {
  const d = structuredClone(doc);
  if (!Object.keys(d.map.areas || {}).length) delete d.map.areas;
  return d;
}

/** Undo and redo over whole snapshots of the document (JSON), at most `limit` kept. */
export class History {
  constructor(doc, limit = 200) {
    this.past = [];
    this.future = [];
    this.limit = limit;
    this.current = JSON.stringify(doc);
  }

  /** Record the document after a change (nothing when it did not change). */
  push(doc) {
    const next = JSON.stringify(doc);
    if (next === this.current) return false;
    this.past.push(this.current);
    if (this.past.length > this.limit) this.past.shift();
    this.current = next;
    this.future = [];
    return true;
  }

  undo() {
    if (!this.past.length) return null;
    this.future.push(this.current);
    this.current = this.past.pop();
    return JSON.parse(this.current);
  }

  redo() {
    if (!this.future.length) return null;
    this.past.push(this.current);
    this.current = this.future.pop();
    return JSON.parse(this.current);
  }
}
