// The board as the player sees it: the map's overlays (the selection, the reach and its costs, the
// attack rings, the last move, objectives), the hex pointed at or selected with its units, the
// reinforcements waiting, the map key.
// Methods of the game page (GameView, game.js), mixed into it there: `this` is the page.

import { h } from "./api.js";
import { counterIcon, leaderIcon, MORALE_STYLE, RALLY_STYLE } from "./counters.js";
import { LEGEND_HEXSIDES, TERRAIN_STYLE } from "./map.js";
import { MORALE_NAME, SIDE_NAME } from "./model.js";
import { isMove, mpValue, reachKey } from "./movement.js";

export const BoardView = {
  /** Centre the map on this seat's units (everyone's, for a watcher). */
  centreOnForces() {
    const pts = Object.entries(this.board.state.positions)
      .filter(([u]) => !this.seat || this.board.units[u]?.side === this.seat)
      .map(([, hx]) => this.map.layout.centre(hx));
    if (!pts.length) return;
    const x = pts.reduce((a, p) => a + p[0], 0) / pts.length;
    const y = pts.reduce((a, p) => a + p[1], 0) / pts.length;
    this.map.view.x = x - this.map.view.w / 2;
    this.map.view.y = y - this.map.view.h / 2;
    this.map._apply();
  },

  legend() {
    const terr = Object.entries(TERRAIN_STYLE).map(([, [fill, pattern, label]]) =>
      h("li", {}, h("span", { class: "swatch", html: `<svg width="30" height="18"><rect width="30" height="18" fill="${fill}" stroke="#8a8577"/>${pattern ? `<rect width="30" height="18" fill="url(#${pattern})"/>` : ""}</svg>` }), label));
    const sides = LEGEND_HEXSIDES.map(([svg, label]) => h("li", {}, h("span", { class: "swatch", html: `<svg width="36" height="22">${svg}</svg>` }), label));
    const demo = { id: "demo", side: "union", type: "infantry", strength: 5, designation: "1/2/XV" };
    const demoC = { id: "demo2", side: "confederate", type: "artillery", strength: 2, designation: "Corput" };
    return h("div", { class: "legend" },
      h("ul", {}, terr), h("ul", {}, sides),
      h("ul", {},
        h("li", { html: `${counterIcon(demo)} Union (blue) — box: ✕ infantry, / cavalry, • artillery, a hull: gunboat (revised 9.6)` }),
        h("li", { html: `${counterIcon(demoC)} Confederate (grey)` }),
        h("li", { html: `${counterIcon(demo, 34, { moved: true })} black corner: moved this phase` }),
        h("li", { html: `${counterIcon(demo, 34, { ineffective: true })} hatched, IE: ineffective (11.0)` }),
        h("li", { html: `${counterIcon(demo, 34, { attacked: true })} red dot: in combat this phase` }),
        ...Object.entries(MORALE_STYLE).map(([lv, m]) => h("li", { class: "legend-morale", html: `${counterIcon(demo, 34, { morale: lv, ineffective: lv === "routed" })} ${m.letter}: ${m.label} (revised 12.0)` })),
        h("li", { html: `${counterIcon(demo, 34, { morale: "shaken", rally: true })} Ry: ${RALLY_STYLE.label} (revised 12.41)` }),
        h("li", { html: `${leaderIcon({ id: "demo-l", name: "Lee", side: "confederate", stars: 4 }, false)} a Leader riding with the unit under him; ${leaderIcon({ id: "demo-l2", name: "Couch", side: "union", stars: 1 })} a Leader on his own (Grand Chancellorsville 23.5: gold rim, his stars)` }),
        h("li", {}, "Dashed ring: victory hex; gold ring: movement-quota bonus hex; “T2 entry”: reinforcements enter here"),
      ),
      h("p", { class: "keys" }, "Keys: ", h("kbd", {}, "E"), " end phase · ", h("kbd", {}, "U"), " undo request · ", h("kbd", {}, "Esc"),
        " clear selection · ", h("kbd", {}, "R"), " replay: ", h("kbd", {}, "←"), h("kbd", {}, "→"), " step (with ", h("kbd", {}, "Shift"), " a phase; ",
        h("kbd", {}, "PgUp"), h("kbd", {}, "PgDn"), " a Game-Turn), ", h("kbd", {}, "Space"), " play/pause, ", h("kbd", {}, "L"), " back to live · ", h("kbd", {}, "N"), " hex numbers · ", h("kbd", {}, "+"), h("kbd", {}, "−"), " zoom · ", h("kbd", {}, "0"), " whole map · drag to pan, wheel or pinch to zoom"),
    );
  },

  toggleNumbers() {
    this.map.showNumbers(!this.map.numbersShown);
    this.$("#numbers-toggle").classList.toggle("on", this.map.numbersShown);
  },

  unitsIn(hex) {
    return Object.entries(this.shown.state.positions).filter(([, h]) => h === hex).map(([u]) => u).sort();
  },

  hoverHex(hex) {
    const c = this.validChoices();
    const sel = this.selection;
    const info = this.$("#hover");
    this.noteEnemy(hex);
    if (isMove(sel)) {
      const d = this.dests(sel, c)?.[hex];
      if (d) this.map.setPath(d.path, "preview", `${d.cost} MP`);
      else this.map.setPath(null);
    }
    if (!hex) {
      info.classList.add("hidden");
      return;
    }
    const t = this.scenario.map.hexes[hex]?.terrain;
    const units = [...this.unitsIn(hex).map((u) => `${this.shown.name(u)} (${this.shown.units[u].strength})`),
      ...this.shown.leadersIn(hex).map((x) => `${x.name} (${"★".repeat(x.stars)})`)];
    info.textContent = `${hex} · ${TERRAIN_STYLE[t]?.[2] || t}${units.length ? " · " + units.join(", ") : ""}`;
    info.classList.remove("hidden");
  },

  /** The marks a unit's counter shows (for icons in the panel). */
  marksOf(u) {
    const st = this.shown.state;
    return { moved: st.moved.includes(u), ineffective: st.ineffective.includes(u), attacked: st.attacked.includes(u), morale: st.morale?.[u] || "", rally: (st.rallying || []).includes(u) };
  },

  unitLabel(u) {
    const b = this.board;
    const lv = b.state.morale?.[u];
    return `${b.name(u)} (${b.units[u]?.strength}${lv ? `, ${MORALE_NAME[lv]}` : ""}) in ${b.state.positions[u] || "—"}`;
  },

  renderMap(c) {
    const b = this.shown;
    const sel = this.selection;
    const shades = {};
    const rings = [];
    let selUnit = null;
    if (isMove(sel)) {
      selUnit = sel.unit;
      const dests = this.dests(sel, c) || {};
      const reply = this.reaches.get(reachKey(sel.mode, sel.unit));
      const max = Math.max(1, ...Object.values(dests).map((d) => mpValue(d.cost)));
      for (const [hx, d] of Object.entries(dests)) {
        const t = mpValue(d.cost) / max;
        const zoc = reply?.stops.has(hx);
        shades[hx] = { cls: zoc ? "reach zoc" : "reach", label: d.cost, style: `fill: rgba(255, 170, 0, ${(0.55 - 0.35 * t).toFixed(2)})`, hatch: t > 0.66,
          title: `${hx}: ${d.cost} MP${zoc ? ` — an enemy zone of control: it stops here (${reply.stopsCase})` : ""}` };
      }
      const from = sel.mode === "leader" ? b.leader(sel.unit)?.hex : b.state.positions[sel.unit];
      if (from) rings.push({ hex: from, cls: "from" });
    }
    if (c?.decision) {
      const d = c.decision;
      if (d.type === "resolve") {
        for (const u of [...d.attack.attackers, ...(d.attack.bombarding || [])]) if (b.state.positions[u]) rings.push({ hex: b.state.positions[u], cls: "attacker" });
        for (const hx of d.attack.defenders) rings.push({ hex: hx, cls: "defender" });
      } else if (d.type === "retreat") {
        rings.push({ hex: d.hex, cls: "from", label: "retreat" });
        for (const o of d.options) shades[o.to] = { cls: "choice retreat-to", label: o.eliminated ? "✕ elim." : o.displace ? "displace" : "↩", title: o.displace ? `displaces ${b.name(o.displace)}` : o.eliminated ? "the unit is eliminated" : "retreat here" };
      } else if (d.type === "advance") {
        for (const o of d.options) shades[o.to] = { cls: "choice advance-to", label: "advance", title: `${b.name(o.unit)} may advance here` };
      } else if (d.units?.length) {
        for (const u of d.units) if (b.state.positions[u]) rings.push({ hex: b.state.positions[u], cls: "from", label: d.type === "rally" ? "rally" : "?" });
      }
    } else if (c?.attacks?.length) {
      const targets = new Set(c.attacks.flatMap((o) => o.defenders));
      const owed = new Set(c.attacks.filter((o) => o.owed).flatMap((o) => o.defenders));
      for (const hx of targets) rings.push({ hex: hx, cls: `target${owed.has(hx) ? " owed" : ""}`, label: owed.has(hx) ? "must" : "" });
      if (sel?.mode === "attack") {
        for (const hx of sel.defenders) rings.push({ hex: hx, cls: "defender" });
        if (sel.option) {
          for (const [hx, g] of Object.entries(sel.option.groups)) {
            const on = g.bombarding ? sel.bombard.has(hx) : sel.hexes.has(hx);
            const strength = this.chosenUnits(sel, [hx]).reduce((n, u) => n + b.units[u].strength, 0);
            rings.push({ hex: hx, cls: `${g.bombarding ? "bombard" : "attacker"}${on ? " on" : " off"}`, label: on ? String(strength) : "" });
          }
        }
      }
    }
    if (this.selectedHex && !rings.some((r) => r.hex === this.selectedHex)) rings.push({ hex: this.selectedHex, cls: "selected" });
    this.map.drawUnits(b, selUnit);
    this.map.setOverlay({ shades, rings });
    if (!sel && !this.replay && b.lastMove && b.lastMove.path.length > 1) this.map.setPath(b.lastMove.path, "trail");
    else if (!sel) this.map.setPath(null);
  },

  renderHexInfo(c) {
    const el = this.$("#hexinfo");
    const hex = this.selectedHex;
    if (!hex) {
      el.replaceChildren();
      return;
    }
    const t = this.scenario.map.hexes[hex]?.terrain;
    const units = this.unitsIn(hex);
    const st = this.shown.state;
    const marks = (u) => ({ moved: st.moved.includes(u), ineffective: st.ineffective.includes(u), attacked: st.attacked.includes(u), morale: st.morale?.[u] || "", rally: (st.rallying || []).includes(u) });
    const works = st.breastworks?.[hex];
    el.replaceChildren(
      h("h3", {}, `Hex ${hex}`, h("small", { class: "muted" }, ` ${TERRAIN_STYLE[t]?.[2] || t}`)),
      units.length
        ? h("ul", { class: "stack-list" }, units.map((u) => {
            const unit = this.shown.units[u];
            const can = c?.may_move?.includes(u);
            return h("li", { "data-unit": u },
              h("span", { html: counterIcon(unit, 30, marks(u)) }),
              h("span", {}, h("b", {}, unit.designation), ` ${unit.strength} ${unit.type}`, marks(u).moved ? " · moved" : "", marks(u).ineffective ? " · ineffective" : "",
                marks(u).morale ? h("b", { class: `morale-text ${marks(u).morale}` }, ` · ${MORALE_NAME[marks(u).morale]}`) : "", marks(u).rally ? " · rallying" : ""),
              can ? h("button", { class: "small", onclick: () => this.selectUnit(u) }, "Move") : "");
          }))
        : h("p", { class: "muted" }, "No unit."),
      ...this.shown.leadersIn(hex).map((x) => h("p", { class: "hex-leader", "data-leader": x.id },
        h("span", { html: leaderIcon(x, false) }), ` ${x.name}, ${x.stars}-star Leader${x.alone ? ", on his own (23.54)" : x.unit ? ` with ${this.shown.name(x.unit)}` : ""} `,
        c?.may_move_leader?.includes(x.id) ? h("button", { class: "small", onclick: () => this.selectLeader(x.id) }, "Move") : "")),
      works ? h("p", { id: "hex-works" }, works.status === "building" ? "Breastworks under construction (10.34)" : `${works.status === "trench" ? "Trench" : "Breastworks"} facing ${works.facing.join(", ")}`) : "",
    );
  },

  renderReinforcements(c) {
    const el = this.$("#reinforcements");
    const b = this.shown;
    const late = this.scenario.units.filter((u) => u.hex === null && u.arrives !== null);
    if (!late.length) {
      el.replaceChildren();
      return;
    }
    const items = late.map((u) => {
      let status;
      if (b.state.positions[u.id]) status = `on the map (${b.state.positions[u.id]})`;
      else if (b.state.eliminated.includes(u.id)) status = "eliminated";
      else if (c?.may_enter?.includes(u.id)) status = null;
      else if (this.board.writtenDown?.[u.id]) status = `written down for turn ${this.board.writtenDown[u.id]}${this.arrivalHexes(this.board.writtenDown[u.id])} (17.62)`;
      else status = `turn ${u.arrives} at ${u.entry.join(", ")}`;
      return h("li", {},
        h("span", { html: counterIcon(u, 26) }), ` ${u.designation} `,
        status ? h("small", { class: "muted" }, status) : h("button", { class: "small enter", "data-unit": u.id, onclick: () => this.selectUnit(u.id, "enter") }, "Enter"));
    });
    const sides = [...new Set(late.map((u) => u.side))];
    el.replaceChildren(h("h3", {}, sides.length === 1 ? `${SIDE_NAME[sides[0]]} reinforcements` : "Reinforcements"), h("ul", { class: "reinf" }, items));
  },
};
