// A battle template (GET /api/templates/{id}) as an editor document: what the text gives kept, each
// missing item left for the owner to supply (docs/SCENARIOS.md "Templates"). A missing map is a blank
// grid holding every hex the text names; a unit's unknown hex, entry or arrival is left out and its
// unknown strength is 0, so that the server's validator names each one until it is supplied.

import { FORMAT } from "./editor-doc.js";

const pad = (n) => String(n).padStart(2, "0");

function grid(named, lower = "even") {
  let columns = 12, rows = 10;
  for (const hx of Object.keys(named)) {
    columns = Math.max(columns, parseInt(hx.slice(0, 2), 10) + 1);
    rows = Math.max(rows, parseInt(hx.slice(2, 4), 10) + 1);
  }
  const hexes = {};
  for (let c = 1; c <= columns; c++) for (let r = 1; r <= rows; r++) hexes[`${pad(c)}${pad(r)}`] = "clear";
  return { lower_columns: lower, hexes, hexsides: {} };
}

export function templateDocument(t) {
  const units = t.units.map((u) => {
    const out = {};
    for (const [k, v] of Object.entries(u)) if (k !== "unknown" && v !== "?") out[k] = v;
    if (out.strength === undefined) out.strength = 0;
    if (out.type === undefined) out.type = "?";
    return out;
  });
  const areas = {};
  for (const name of Object.keys(t.areas || {})) areas[name] = [];
  const map = t.map || grid(t.hexes);
  map.areas = { ...areas, ...(map.areas || {}) };
  return { format: FORMAT, name: t.id, derived_from: t.id, scenario: t.scenario, map, oob: { unit: units } };
}

/** Has the owner supplied the missing item `what` (as GET /api/templates/{id} names it) in `doc`?
 * `given`: the ids of the template's own units. The map counts as supplied once a hex is painted. */
export function supplied(what, doc, given) {
  const [kind, ...rest] = what.split(" ");
  if (what === "map") return Object.values(doc.map.hexes).some((t) => t !== "clear") || Object.keys(doc.map.hexsides).length > 0;
  if (kind === "map" && rest[0] === "area") return (doc.map.areas[rest[1]] || []).length > 0;
  if (kind === "units") return doc.oob.unit.some((u) => u.side === rest[0] && !given.has(u.id));
  if (kind === "unit") {
    const [id, field] = rest;
    const u = doc.oob.unit.find((x) => x.id === id);
    if (!u) return false;
    if (field === "strength") return u.strength > 0;
    if (field === "type") return u.type !== "?";
    if (field === "hex") return Boolean(u.hex) || Boolean(u.arrives);
    if (field === "entry") return (u.entry || []).length > 0 || Boolean(u.hex);
    if (field === "arrives") return Boolean(u.arrives) || Boolean(u.hex);
  }
  return false;
}
