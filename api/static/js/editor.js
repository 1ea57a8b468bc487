// The scenario editor (/editor; docs/SCENARIOS.md "The editor"): start from a shipped or saved battle,
// a battle template or a blank grid; paint terrain and hexside features on the game's own map drawing;
// place units; set the Game-Turns; mark victory hexes. Every change is checked by the server's own
// validator (POST /api/scenarios/check) and each problem shown on its hexes. Undo and redo; save,
// download, upload. Every name is shown as text (h() and the map's esc()), never as markup.

import { csrfHeader, getJSON, h, signedIn } from "./api.js";
import { neighbours } from "./geometry.js";
import { MapView, TERRAIN_STYLE } from "./map.js";
import * as D from "./editor-doc.js";
import { supplied, templateDocument } from "./editor-templates.js";

// Terrains the game map has no colour for yet (revised book): drawn in the editor all the same.
TERRAIN_STYLE.swamp ||= ["#b9c9a3", null, "Swamp"];
TERRAIN_STYLE.lake ||= ["#3f7fc0", null, "Lake"];
TERRAIN_STYLE.pond ||= ["#7fb0e0", null, "Pond"];
TERRAIN_STYLE.pontoon ||= ["#b9d6f2", null, "Pontoon"];

const root = document.getElementById("app");
const CHECK_DELAY = 250; // ms after the last change

const ed = {
  doc: null, history: null, map: null, tool: "terrain", terrain: "forest", feature: "creek",
  area: D.VICTORY_AREAS[0], selected: null, problems: [], checks: 0, checking: null, missing: [],
  unit: { side: "union", type: "infantry", strength: 4, designation: "", arrives: 0 },
};
window.editor = ed; // for the browser tests and the curious

// -- start -------------------------------------------------------------------------------------------
async function start() {
  await signedIn().catch(() => null); // a signed-in browser's saves carry the session's CSRF token
  root.replaceChildren(
    header(),
    h("main", { class: "start" },
      h("section", { class: "card", id: "from-battle" }, h("h2", {}, "From a battle"), h("p", { class: "muted" }, "Loading…")),
      h("section", { class: "card", id: "from-template" }, h("h2", {}, "Complete a template"), h("p", { class: "muted" }, "Loading…")),
      h("section", { class: "card", id: "from-blank" }, h("h2", {}, "A blank map"),
        field("Columns", h("input", { id: "blank-columns", type: "number", min: 2, max: 60, value: 10 })),
        field("Rows", h("input", { id: "blank-rows", type: "number", min: 2, max: 60, value: 8 })),
        field("Lower columns (2.1)", h("select", { id: "blank-lower" }, h("option", { value: "even" }, "even"), h("option", { value: "odd" }, "odd"))),
        h("button", { id: "new-blank", class: "primary", onclick: () => {
          const v = (id) => Math.max(2, Math.min(60, parseInt(root.querySelector(id).value, 10) || 2));
          open(D.blank({ columns: v("#blank-columns"), rows: v("#blank-rows"), lower: root.querySelector("#blank-lower").value }));
        } }, "New blank map")),
      h("section", { class: "card" }, h("h2", {}, "A file"), h("p", { class: "muted" }, "A scenario file (bluegray scenario export, or this editor's download)."),
        h("input", { type: "file", id: "upload-start", accept: ".json,.toml,application/json", onchange: (e) => upload(e.target.files[0]) })),
    ),
  );
  const battles = await getJSON("/api/scenarios").catch(() => []);
  const pick = h("select", { id: "battle" }, battles.map((s) => h("option", { value: s.id }, `${s.name}${s.saved ? " (saved)" : ""}`)));
  root.querySelector("#from-battle").replaceChildren(h("h2", {}, "From a battle"), field("Battle", pick),
    h("button", { id: "open-battle", class: "primary", onclick: async () => open(await getJSON(`/api/scenarios/${encodeURIComponent(pick.value)}/document`)) }, "Open"));
  const templates = await getJSON("/api/templates").catch(() => []);
  const tpick = h("select", { id: "template" }, templates.map((t) => h("option", { value: t.id }, `${t.name} (${t.missing.length} to supply)`)));
  root.querySelector("#from-template").replaceChildren(h("h2", {}, "Complete a template"),
    templates.length ? field("Template", tpick) : h("p", { class: "muted" }, "No template."),
    templates.length ? h("button", { id: "open-template", onclick: async () => {
      const t = await getJSON(`/api/templates/${encodeURIComponent(tpick.value)}`);
      open(templateDocument(t), t.missing);
    } }, "Open") : null);
  document.body.dataset.ready = "1";
}

function header() {
  return h("header", { class: "site-header" }, h("h1", {}, "Scenario editor"),
    h("p", {}, h("a", { href: "/", style: "color:#fff" }, "Back to the lobby")));
}

function field(label, control) {
  return h("label", { class: "field" }, h("span", {}, label), control);
}

// -- the editor --------------------------------------------------------------------------------------
function open(doc, missing = []) {
  ed.doc = D.normalise(doc);
  ed.history = new D.History(ed.doc);
  ed.missing = missing;
  ed.given = new Set(ed.doc.oob.unit.map((u) => u.id)); // a template's own units
  ed.selected = null;
  root.replaceChildren(
    header(),
    h("div", { class: "editor" },
      h("aside", { id: "tools" }),
      h("div", { id: "map-area" }),
      h("aside", { id: "problems-panel" },
        h("h2", {}, "Problems"), h("p", { id: "check-state", class: "muted" }, "Checking…"), h("ul", { id: "problems" }),
        missing.length ? h("div", { class: "missing" }, h("h3", {}, "The template's missing items"), h("p", { id: "missing-count", class: "muted" }), h("ul", { id: "missing" })) : null,
        h("h2", {}, "File"),
        h("div", { class: "row" },
          h("button", { id: "save", class: "primary", onclick: save }, "Save"),
          h("button", { id: "download", onclick: download }, "Download"),
          h("label", { class: "button" }, "Upload", h("input", { type: "file", id: "upload", class: "hidden", accept: ".json,.toml,application/json", onchange: (e) => upload(e.target.files[0]) }))),
        h("p", { id: "saved-note" }),
      ),
    ),
  );
  drawTools();
  drawMap();
  drawMissing();
  check();
}

/** The template's missing items, each marked once supplied (the validator has the last word). */
function drawMissing() {
  const list = root.querySelector("#missing");
  if (!list) return;
  const marks = ed.missing.map((m) => supplied(m.what, ed.doc, ed.given));
  list.replaceChildren(...ed.missing.map((m, i) => h("li", { "data-what": m.what, class: marks[i] ? "supplied" : "" },
    h("b", {}, m.what), marks[i] ? " — supplied" : `: ${m.reason}`)));
  const left = marks.filter((x) => !x).length;
  root.querySelector("#missing-count").textContent = left ? `${left} of ${marks.length} still to supply` : "Every item supplied.";
}

function drawMap() {
  const area = root.querySelector("#map-area");
  const old = ed.map;
  const holder = h("div", {});
  area.replaceChildren(holder);
  ed.map = new MapView(holder, D.forMap(ed.doc));
  if (old && old.layout.width === ed.map.layout.width && old.layout.height === ed.map.layout.height) {
    ed.map.view = { ...old.view };
    ed.map._apply();
  }
  if (old?.numbersShown !== false) ed.map.showNumbers(true);
  ed.map.onHexClick = (hex, e) => act(hex, e);
  drawOtherSides();
  drawUnits();
  drawProblems();
}

// Hexside features the game map does not draw (yet): a coloured line on the hexside, named in its title.
const OTHER_SIDES = { turnpike: "#b5651d", railway: "#333", sunken_road: "#6b3e26", stream: "#4aa3df", ridge: "#7a5524",
  slope: "#a0522d", river_side: "#1a3f8f", trench: "#8e2f6e" };

function drawOtherSides() {
  const L = ed.map.layout;
  const out = [];
  for (const [key, side] of Object.entries(ed.doc.map.hexsides)) {
    const [a, b] = key.split("|");
    if (!(a in ed.doc.map.hexes) || !(b in ed.doc.map.hexes)) continue;
    const shown = side.features.filter((f) => f in OTHER_SIDES);
    shown.forEach((f, i) => {
      const [[x1, y1], [x2, y2]] = L.edge(a, b);
      const [cx, cy] = L.centre(a);
      const k = 0.12 + 0.1 * i; // each feature a little further inside hex a
      const p = (x, y) => [x + (cx - x) * k, y + (cy - y) * k].map((v) => v.toFixed(1));
      const [px1, py1] = p(x1, y1), [px2, py2] = p(x2, y2);
      const dash = f === "slope" || f === "ridge" ? ' stroke-dasharray="2 2"' : "";
      out.push(`<line class="side-${f}" data-side="${key}" x1="${px1}" y1="${py1}" x2="${px2}" y2="${py2}" stroke="${OTHER_SIDES[f]}" stroke-width="3"${dash}><title>${key}: ${f.replace("_", " ")}</title></line>`);
    });
  }
  const g = document.createElementNS("http://www.w3.org/2000/svg", "g");
  g.setAttribute("id", "editor-sides");
  g.setAttribute("pointer-events", "none");
  g.innerHTML = out.join("");
  ed.map.svg.querySelector("#units").before(g);
}

function drawUnits() {
  const positions = Object.fromEntries(ed.doc.oob.unit.filter((u) => u.hex && u.hex in ed.doc.map.hexes).map((u) => [u.id, u.hex]));
  ed.map.units = Object.fromEntries(D.forMap(ed.doc).units.map((u) => [u.id, u]));
  ed.map.drawUnits({ state: { positions, moved: [], ineffective: [], attacked: [] } }, ed.selected);
}

function drawProblems() {
  const shades = {};
  for (const p of ed.problems) {
    for (const hx of p.hexes || []) {
      const s = (shades[hx] ||= { cls: "problem", label: "!", title: "" });
      s.title += `${s.title ? "\n" : ""}${p.location}: ${p.message}`;
    }
  }
  const rings = ed.cursor && ed.cursor in ed.doc.map.hexes ? [{ hex: ed.cursor, cls: "cursor" }] : [];
  ed.map.setOverlay({ shades, rings });
}

/** The keyboard's hex: the arrow keys move it (a column left or right, a row up or down), Enter or
 * the space bar uses the tool on it as a click would. */
function moveCursor(key) {
  const hexes = ed.doc.map.hexes;
  const start = ed.cursor in hexes ? ed.cursor : Object.keys(hexes).sort()[0];
  let c = parseInt(start.slice(0, 2), 10), r = parseInt(start.slice(2, 4), 10);
  if (ed.cursor in hexes) {
    if (key === "arrowup") r -= 1;
    else if (key === "arrowdown") r += 1;
    else if (key === "arrowleft") c -= 1;
    else if (key === "arrowright") c += 1;
  }
  const next = `${String(c).padStart(2, "0")}${String(r).padStart(2, "0")}`;
  if (next in hexes) ed.cursor = next;
  else ed.cursor = start;
  drawProblems();
  ed.map.centreOn(ed.cursor);
}

/** Make a change to the document; record it for undo; redraw what it touched; check it again. */
function change(fn, what = "map") {
  fn(ed.doc);
  if (!ed.history.push(ed.doc)) return;
  after(what);
}

function after(what) {
  if (what === "map") drawMap();
  else drawUnits();
  if (what !== "map") drawProblems();
  drawTools();
  drawMissing();
  root.querySelector("#saved-note").textContent = "";
  clearTimeout(ed.checking);
  ed.checking = setTimeout(check, CHECK_DELAY);
}

function undo() {
  const d = ed.history.undo();
  if (d) {
    ed.doc = d;
    after("map");
  }
}

function redo() {
  const d = ed.history.redo();
  if (d) {
    ed.doc = d;
    after("map");
  }
}

// -- the tools ---------------------------------------------------------------------------------------
const TOOLS = [["terrain", "Terrain", "t"], ["hexside", "Hexsides", "e"], ["units", "Units", "u"], ["victory", "Victory", "v"], ["scenario", "Turns", "s"]];

function drawTools() {
  const panel = root.querySelector("#tools");
  const active = document.activeElement?.id;
  panel.replaceChildren(
    h("div", { class: "tabs" }, TOOLS.map(([id, label, key]) => h("button", { "data-tool": id, "aria-pressed": String(ed.tool === id), title: `${label} (${key})`, onclick: () => { ed.tool = id; drawTools(); } }, label))),
    h("div", { class: "row" },
      h("button", { id: "undo", disabled: !ed.history.past.length, onclick: undo, title: "Undo (Ctrl+Z)" }, "Undo"),
      h("button", { id: "redo", disabled: !ed.history.future.length, onclick: redo, title: "Redo (Ctrl+Y)" }, "Redo")),
    ...toolPanel(),
  );
  if (active && panel.querySelector(`#${active}`)) panel.querySelector(`#${active}`).focus();
}

function toolPanel() {
  if (ed.tool === "terrain") {
    return [h("p", { class: "muted" }, "Click a hex to paint it (keys 1-9, 0 choose)."),
      h("div", { class: "palette" }, D.TERRAINS.map((t, i) => h("button", { "data-terrain": t, "aria-pressed": String(ed.terrain === t), onclick: () => { ed.terrain = t; drawTools(); } },
        h("span", { class: "swatch", style: `background:${(TERRAIN_STYLE[t] || ["#f0f"])[0]}` }), `${i < 10 ? `${(i + 1) % 10} ` : ""}${t.replace("_", " & ")}`)))];
  }
  if (ed.tool === "hexside") {
    return [h("p", { class: "muted" }, "Click inside a hex near the side to mark: the feature goes on that hexside, or comes off it. A redoubt's barbs and a trench's outside face the neighbour; a slope rises toward the hex clicked."),
      h("div", { class: "palette" }, D.FEATURES.map((f) => h("button", { "data-feature": f, "aria-pressed": String(ed.feature === f), onclick: () => { ed.feature = f; drawTools(); } }, f.replace("_", " "))))];
  }
  if (ed.tool === "victory") {
    const names = [...new Set([...D.VICTORY_AREAS, ...Object.keys(ed.doc.map.areas)])];
    return [h("p", { class: "muted" }, "Click a hex to put it in the area, or take it out."),
      field("Area", h("select", { id: "area", onchange: (e) => { ed.area = e.target.value; } }, names.map((n) => h("option", { value: n, selected: n === ed.area }, n.replaceAll("_", " "))))),
      field("A new area", h("input", { id: "new-area", placeholder: "name_of_area", onchange: (e) => { const n = e.target.value.trim(); if (/^[a-z0-9_]+$/.test(n)) { ed.area = n; drawTools(); } } })),
      h("ul", {}, Object.entries(ed.doc.map.areas).map(([n, hs]) => h("li", {}, `${n}: ${hs.join(", ")}`)))];
  }
  if (ed.tool === "units") return unitsPanel();
  return scenarioPanel();
}

function unitsPanel() {
  const u = ed.unit;
  const chosen = ed.doc.oob.unit.find((x) => x.id === ed.selected) || null;
  const shown = chosen ? { ...chosen, arrives: chosen.arrives || 0 } : u;
  // The form edits the selected unit (each change recorded), or sets up the next unit placed.
  const set = (k, parse = (v) => v) => (e) => {
    const v = parse(e.target.value);
    if (!chosen) {
      u[k] = v;
      return;
    }
    change((d) => {
      const x = d.oob.unit.find((y) => y.id === chosen.id);
      if (k !== "arrives") x[k] = v;
      else if (v > 0) {
        x.arrives = v;
        x.entry = x.entry?.length ? x.entry : x.hex ? [x.hex] : [];
        delete x.hex;
      } else {
        if (x.entry?.length && !x.hex) x.hex = x.entry[0];
        delete x.arrives;
        delete x.entry;
      }
    }, "units");
  };
  const sel = (id, k, options) => {
    const all = options.includes(shown[k]) ? options : [shown[k], ...options];
    return h("select", { id, onchange: set(k) }, all.map((o) => h("option", { value: o, selected: o === shown[k] }, o)));
  };
  const rows = ed.doc.oob.unit.map((x) => h("tr", { "data-unit": x.id, class: x.id === ed.selected ? "selected" : "", onclick: () => { ed.selected = ed.selected === x.id ? null : x.id; if (x.hex) ed.map.centreOn(x.hex); drawUnits(); drawTools(); } },
    h("td", {}, x.id), h("td", {}, x.side === "union" ? "U" : "C"), h("td", {}, x.designation), h("td", {}, String(x.strength)),
    h("td", {}, x.hex || (x.arrives ? `T${x.arrives} ${(x.entry || []).join(" ")}` : "—")),
    h("td", {}, h("button", { class: "small danger", "data-remove": x.id, title: "Remove", onclick: (e) => { e.stopPropagation(); change((d) => { d.oob.unit = d.oob.unit.filter((y) => y.id !== x.id); }, "units"); } }, "×"))));
  return [
    h("p", { class: "muted", id: "units-hint" }, chosen ? `Editing ${chosen.id}: the fields change it; click a hex to put it there (or its row again to let go).` : "Click a hex to place a new unit; click a unit's row to edit it or move it."),
    field("Side", sel("unit-side", "side", ["union", "confederate"])),
    field("Type", sel("unit-type", "type", D.UNIT_TYPES)),
    field("Strength Points", h("input", { id: "unit-strength", type: "number", min: 0, max: 99, value: shown.strength, onchange: set("strength", (v) => parseInt(v, 10) || 0) })),
    field("Designation", h("input", { id: "unit-designation", value: shown.designation, placeholder: "1/II", onchange: set("designation") })),
    field("Arrives on Game-Turn (0: deployed at start; the hex clicked is its entry hex)", h("input", { id: "unit-arrives", type: "number", min: 0, max: 99, value: shown.arrives, onchange: set("arrives", (v) => parseInt(v, 10) || 0) })),
    h("table", { class: "units" }, h("tbody", {}, rows)),
  ];
}

function scenarioPanel() {
  const s = ed.doc.scenario;
  const edit = (fn) => (e) => change((d) => fn(d, e.target), "turns");
  return [
    field("Saved as (a-z 0-9 - _)", h("input", { id: "doc-name", value: ed.doc.name, onchange: edit((d, t) => { d.name = t.value.trim(); }) })),
    field("Title", h("input", { id: "doc-title", value: s.name || "", onchange: edit((d, t) => { d.scenario.name = t.value; }) })),
    field("Game-Turns", h("input", { id: "doc-turns", type: "number", min: 1, max: 99, value: s.turns, onchange: edit((d, t) => { d.scenario.turns = parseInt(t.value, 10) || 1; }) })),
    field("Night Game-Turns (e.g. 4, 5)", h("input", { id: "doc-nights", value: (s.night_turns || []).join(", "), onchange: edit((d, t) => { d.scenario.night_turns = t.value.split(/[ ,]+/).filter(Boolean).map((n) => parseInt(n, 10)).filter((n) => n > 0); }) })),
    field("First player", h("select", { id: "doc-first", onchange: edit((d, t) => { d.scenario.first_player = t.value; }) }, ["union", "confederate"].map((v) => h("option", { value: v, selected: v === s.first_player }, v)))),
    h("div", {}, ["classic", "revised"].map((r) => h("label", { class: "field" }, h("input", { type: "checkbox", id: `ruleset-${r}`, checked: (s.rulesets || []).includes(r),
      onchange: edit((d, t) => { const set = new Set(d.scenario.rulesets || []); if (t.checked) set.add(r); else set.delete(r); d.scenario.rulesets = ["classic", "revised"].filter((x) => set.has(x)); }) }), ` ${r} rules`))),
    h("p", { class: "muted" }, ed.doc.derived_from ? `Derived from ${ed.doc.derived_from}.` : ""),
  ];
}

// -- acting on the map -------------------------------------------------------------------------------
function act(hex, e) {
  if (ed.tool === "terrain") change((d) => { d.map.hexes[hex] = ed.terrain; });
  else if (ed.tool === "hexside") {
    const toward = nearestNeighbour(hex, e);
    if (toward) change((d) => D.toggleFeature(d, hex, toward, ed.feature));
  } else if (ed.tool === "victory") change((d) => D.toggleArea(d, ed.area, hex));
  else if (ed.tool === "units") placeUnit(hex);
}

function nearestNeighbour(hex, e) {
  const [px, py] = ed.map._toSvg(e.clientX, e.clientY);
  let best = null, bestD = Infinity;
  for (const n of neighbours(ed.map.layout, hex)) {
    const [x, y] = ed.map.layout.centre(n);
    const d = (x - px) ** 2 + (y - py) ** 2;
    if (d < bestD) [best, bestD] = [n, d];
  }
  return best;
}

function placeUnit(hex) {
  const u = ed.unit;
  if (ed.selected) {
    const id = ed.selected;
    ed.selected = null;
    change((d) => {
      const x = d.oob.unit.find((y) => y.id === id);
      if (!x) return;
      if (x.arrives) x.entry = [hex];
      else x.hex = hex;
    }, "units");
    return;
  }
  change((d) => {
    const id = D.newUnitId(d, u.side);
    const unit = { id, side: u.side, type: u.type, strength: u.strength, designation: u.designation || id };
    if (u.arrives > 0) Object.assign(unit, { arrives: u.arrives, entry: [hex] });
    else unit.hex = hex;
    d.oob.unit.push(unit);
  }, "units");
}

// -- the server's validator --------------------------------------------------------------------------
async function check() {
  const state = root.querySelector("#check-state");
  const sent = ed.history.current;
  let problems;
  try {
    const r = await fetch("/api/scenarios/check", { method: "POST", headers: { "Content-Type": "application/json", ...csrfHeader() }, body: JSON.stringify(D.toSend(ed.doc)) });
    const body = await r.json();
    problems = r.ok ? body.problems || [] : [{ location: "file", message: body.error?.message || `HTTP ${r.status}`, hexes: [] }];
  } catch (err) {
    problems = [{ location: "server", message: `could not check: ${err.message}`, hexes: [] }];
  }
  if (sent !== ed.history.current) return; // a later change is checked in its turn
  ed.problems = problems;
  state.textContent = problems.length ? `${problems.length} problem${problems.length > 1 ? "s" : ""}` : "No problem: this scenario may be played.";
  state.className = problems.length ? "error" : "ok";
  root.querySelector("#problems").replaceChildren(...problems.map((p) => h("li", { "data-location": p.location, "data-hexes": (p.hexes || []).join(" "), onclick: () => p.hexes?.[0] && ed.map.centreOn(p.hexes[0]) },
    h("b", {}, p.location), `: ${p.message}`)));
  drawProblems();
  ed.checks += 1;
  document.body.dataset.checks = String(ed.checks);
}

// -- files -------------------------------------------------------------------------------------------
async function save() {
  const note = root.querySelector("#saved-note");
  note.textContent = "Saving…";
  const r = await fetch("/api/scenarios", { method: "POST", headers: { "Content-Type": "application/json", ...csrfHeader() }, body: JSON.stringify(D.toSend(ed.doc)) });
  const body = await r.json().catch(() => ({}));
  if (r.status === 201) {
    note.replaceChildren(h("span", { class: "ok", id: "saved-ref", "data-name": body.name }, `Saved as ${body.name}`),
      body.variant ? ` (a variant of ${body.derived_from}: a shipped battle is never overwritten)` : "", ". ",
      h("a", { href: `/?scenario=${encodeURIComponent(body.name)}`, id: "play-saved" }, "Play it from the lobby"));
    return;
  }
  note.replaceChildren(h("span", { class: "error", id: "save-error" }, body.error?.message || `HTTP ${r.status}`));
}

function download() {
  const blob = new Blob([JSON.stringify(D.toSend(ed.doc), null, 1)], { type: "application/json" });
  const a = h("a", { href: URL.createObjectURL(blob), download: `${ed.doc.name}.json` });
  document.body.append(a);
  a.click();
  a.remove();
}

async function upload(file) {
  if (!file) return;
  const r = await fetch("/api/scenarios/check?echo=1", { method: "POST", headers: csrfHeader(), body: await file.arrayBuffer() });
  const body = await r.json().catch(() => ({}));
  if (!r.ok || !body.document) {
    alert(`${file.name}: ${body.error?.message || `HTTP ${r.status}`}`);
    return;
  }
  open(body.document);
}

// -- keys --------------------------------------------------------------------------------------------
document.addEventListener("keydown", (e) => {
  if (!ed.doc || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  const key = e.key.toLowerCase();
  if ((e.ctrlKey || e.metaKey) && key === "z") {
    e.preventDefault();
    if (e.shiftKey) redo();
    else undo();
  } else if ((e.ctrlKey || e.metaKey) && key === "y") {
    e.preventDefault();
    redo();
  } else if (!e.ctrlKey && !e.metaKey && !e.altKey) {
    const tool = TOOLS.find(([, , k]) => k === key);
    if (tool) {
      ed.tool = tool[0];
      drawTools();
    } else if (ed.tool === "terrain" && /^[0-9]$/.test(key)) {
      const t = D.TERRAINS[(parseInt(key, 10) + 9) % 10];
      if (t) {
        ed.terrain = t;
        drawTools();
      }
    } else if (key === "n") ed.map.showNumbers(!ed.map.numbersShown);
    else if (key.startsWith("arrow")) {
      e.preventDefault();
      moveCursor(key);
    } else if ((key === "enter" || key === " ") && ed.cursor && ed.tool !== "hexside") {
      e.preventDefault();
      act(ed.cursor, null);
    }
  }
});

ed.open = open;
start();
