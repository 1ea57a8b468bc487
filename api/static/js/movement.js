// A unit selected and where it may go: the server's reach, asked once per position and kept until
// the next choices; the Movement Phase's panel (moves, exits, the revised strategic movement and
// breastworks).
// Methods of the game page (GameView, game.js), mixed into it there: `this` is the page.

import { h } from "./api.js";
import { counterIcon, esc, leaderIcon } from "./counters.js";
import { SIDE_NAME } from "./model.js";

export const Movement = {
  /** The destinations of the selected unit while choices `c` hold (a normal move, an entry, or a
   * strategic move, 6.4): the server's reach for it; null while it has not answered. */
  dests(sel, c) {
    if (!isMove(sel) || !c) return null;
    return this.reaches.get(reachKey(sel.mode, sel.unit))?.destinations || null;
  },

  /** Ask the server where `unit` may go (`how`: "move", "enter", "strategic", "leader": `unit` a Leader's id), unless it has told
   * this client already at this version or is being asked. Only the seat to act may ask. */
  askReach(unit, how = "move") {
    const key = reachKey(how, unit);
    if (!this.seat || !this.choices || this.reaches.has(key) || this.questions.some((q) => q.key === key && q.current)) return;
    this.reachFailed.delete(key);
    if (this.conn?.reach(unit, how)) this.questions.push({ key, current: true });
  },

  /** New choices dropped what the server had said: ask again for the selection and any test waiting. */
  askAgain() {
    if (isMove(this.selection)) this.askReach(this.selection.unit, this.selection.mode);
    for (const key of this.reachWaiters.keys()) {
      const [how, unit] = splitReachKey(key);
      this.askReach(unit, how);
    }
  },

  /** A reach reply. The server stamps the choices and every reach of one position with the same
   * version (the position's, which chat or an undo request do not change). The answer to a question
   * asked before the current choices is kept only if its version is theirs (else it is about another
   * position; the question was asked again). The answer to a question asked under them is about the
   * server's position now: theirs, or new choices are on their way and drop it. */
  onReach(m) {
    const key = reachKey(m.how, m.unit);
    const at = this.questions.findIndex((q) => q.key === key);
    const asked = at >= 0 ? this.questions.splice(at, 1)[0] : null;
    if (!asked?.current && m.version !== this.choices?.version) return;
    const reply = { destinations: m.destinations || {}, refused: m.refused || null, stops: new Set(m.stops || []), stopsCase: m.stops_case || "" };
    this.reaches.set(key, reply);
    for (const resolve of this.reachWaiters.get(key) || []) resolve(reply.destinations);
    this.reachWaiters.delete(key);
    const sel = this.selection;
    if (isMove(sel) && sel.unit === m.unit && sel.mode === m.how) this.reachArrived(sel);
  },

  /** An error that is no command's answer while reaches are asked: the oldest question's (the server
   * answers one socket's messages in order), e.g. not_your_turn or rate_limited; not shown when that
   * question was asked before the current choices (it is moot, or asked again). */
  onReachError(m) {
    const { key, current } = this.questions.shift();
    if (!current) return;
    this.reachFailed.set(key, m);
    for (const resolve of this.reachWaiters.get(key) || []) resolve(null);
    this.reachWaiters.delete(key);
    this.showError(m);
  },

  /** The reach of a fresh selection is known: a refusal is shown as an illegal command's would be
   * (the rule's case and sentence); a reinforcement's entry is brought into view. */
  reachArrived(sel) {
    const got = this.reaches.get(reachKey(sel.mode, sel.unit));
    if (!got || !sel.fresh) return;
    sel.fresh = false;
    if (got.refused) this.showError({ code: "illegal", case: got.refused.case, message: got.refused.message });
    const dests = Object.values(got.destinations);
    // A reinforcement: its cheapest destination is next to its entry hex.
    if (sel.centre && dests.length) this.map.centreOn(dests.sort((a, b) => mpValue(a.cost) - mpValue(b.cost))[0].path[0]);
  },

  /** Select `unit` to move it (`mode`: "move", "enter", "strategic"; "leader": a Leader's own move,
   * Grand Chancellorsville 23.51) and ask where it may go. */
  choose(unit, mode = "move", { centre = false } = {}) {
    const sel = { mode, unit, fresh: true, centre };
    this.selection = sel;
    this.askReach(unit, mode);
    this.reachArrived(sel);
  },

  /** For tests and the curious: `await bluegray.reach(unit, how)` is the unit's destinations at the
   * current choices (asked for if need be; {} with a refusal), or null if the server answered with
   * an error. `bluegray.reachOf(unit, how)`: the reply kept, {destinations, refused}, if any. */
  reach(unit, how = "move") {
    const key = reachKey(how, unit);
    const got = this.reaches.get(key);
    if (got) return Promise.resolve(got.destinations);
    return new Promise((resolve) => {
      this.reachWaiters.set(key, [...(this.reachWaiters.get(key) || []), resolve]);
      this.askReach(unit, how);
    });
  },

  reachOf(unit, how = "move") {
    return this.reaches.get(reachKey(how, unit)) || null;
  },

  /** A click on `hex` in a Movement Phase selects one of this seat's units there, the next one on
   * each click; then (Grand Chancellorsville 23.51) each of his Leaders there. */
  selectUnitAt(hex, c) {
    const mine = this.unitsIn(hex).filter((u) => this.board.units[u].side === this.seat);
    const chiefs = this.board.leadersIn(hex).filter((x) => x.side === this.seat).map((x) => x.id);
    if ((!mine.length && !chiefs.length) || this.board.state.phase !== "movement" || !c) {
      this.selection = null;
      return;
    }
    // Those that may move first; none may: each in turn (his reach tells why not, as for a unit).
    const movable = mine.filter((u) => c.may_move?.includes(u));
    const leaders = chiefs.filter((x) => c.may_move_leader?.includes(x));
    const any = movable.length || leaders.length;
    const pool = [...(any ? movable : mine).map((u) => ["move", u]), ...(any ? leaders : chiefs).map((x) => ["leader", x])];
    const sel = this.selection;
    const cur = sel ? pool.findIndex(([mode, id]) => mode === sel.mode && id === sel.unit) : -1;
    const [mode, id] = pool[(cur + 1) % pool.length];
    this.choose(id, mode);
  },

  /** Select the Leader `id` to move him on his own (Grand Chancellorsville 23.51). */
  selectLeader(id) {
    this.choose(id, "leader");
    const hex = this.board.leader(id)?.hex;
    if (hex) {
      this.selectedHex = hex;
      this.map.centreOn(hex);
    }
    this.render();
  },

  /** Grand Chancellorsville 23.51: the Leaders who may move on their own now (`may_move_leader`), each with
   * a button that selects him. */
  leaderChoice(c) {
    const ids = c.may_move_leader || [];
    if (!ids.length) return [];
    const b = this.board;
    return [h("details", { class: "revised-choice", id: "leader-choice", open: true },
      h("summary", {}, `Leaders (23.51): ${ids.length} may move on their own`),
      h("p", { class: "muted" }, "A Leader moves once a Movement Phase, up to 12 Movement Points (24 by Forced March); he leaves his unit and stands in the hex he ends in until a unit he may ride with is there as the phase ends."),
      h("ul", { class: "pick-units" }, ids.map((id) => {
        const x = b.leader(id);
        return h("li", {},
          h("button", { class: "small move-leader", "data-leader": id, id: `leader-move-${id}`, onclick: () => this.selectLeader(id) }, "Move"), " ",
          x ? h("span", { html: leaderIcon(x, false), title: x.name }) : id, x ? ` in ${x.hex}${x.unit ? ` with ${b.name(x.unit)}` : ", on his own"}` : "");
      })))];
  },

  selectUnit(unit, mode = "move") {
    const hex = this.board.state.positions[unit];
    // A reinforcement: the map shows where it may go when its reach comes.
    this.choose(unit, mode, { centre: !hex });
    if (hex) {
      this.selectedHex = hex;
      this.map.centreOn(hex);
    }
    this.render();
  },

  movementView(c) {
    const sel = this.selection;
    const n = (c.may_move || []).length;
    const r = (c.may_enter || []).length;
    const out = [h("h3", {}, "Movement")];
    if (isMove(sel)) {
      const u = this.board.units[sel.unit];
      const key = reachKey(sel.mode, sel.unit);
      const got = this.reaches.get(key);
      const failed = this.reachFailed.get(key);
      const loading = !got && !failed;
      if (sel.mode === "leader") {
        const x = this.board.leader(sel.unit);
        out.push(h("p", { class: `selected-unit selected-leader${loading ? " loading" : ""}`, id: "selected-unit", html: `${x ? leaderIcon(x) : ""} <b>${esc(x?.name || sel.unit)}</b> — a Leader's own move (23.51)` }));
      } else out.push(h("p", { class: `selected-unit${loading ? " loading" : ""}`, id: "selected-unit", html: `${counterIcon(u, 30, this.marksOf(sel.unit))} <b>${esc(u.designation)}</b> ${u.strength} ${u.type}${sel.mode === "strategic" ? " — <b>strategic movement (6.4)</b>" : ""}` }));
      const count = got ? Object.keys(got.destinations).length : 0;
      if (loading) out.push(h("p", { class: "muted", id: "reach-loading" }, "Asking the server where it may go…"));
      else if (failed) out.push(h("p", { class: "warn", id: "reach-failed" }, `Where it may go is not known (${failed.code}): ${failed.message}`));
      else if (got.refused) out.push(h("p", { class: "warn", id: "reach-refused" }, `It may not ${sel.mode === "enter" ? "enter" : "move"} now (${got.refused.case}): ${got.refused.message}`));
      else if (count) {
        out.push(h("p", {}, `${count} hexes in reach, shaded with their cost in movement points. Point at one for the path; click to move there.`));
        if (got.stops.size) out.push(h("p", { class: "muted", id: "reach-zoc" }, `${got.stops.size} of them in an enemy zone of control (red dashes): it must stop there (${got.stopsCase}).`));
      }
      else out.push(h("p", {}, "No hex in reach now."));
      if (sel.mode === "move" && c.may_move_strategically?.includes(sel.unit)) out.push(h("button", { id: "strategic-toggle", onclick: () => { this.choose(sel.unit, "strategic"); this.render(); } }, "Strategic movement instead (6.4)"));
      if (sel.mode === "strategic") out.push(h("button", { id: "strategic-toggle", onclick: () => { this.choose(sel.unit, "move"); this.render(); } }, "Normal movement instead"));
      if (sel.mode === "move") out.push(...this.exitButtons(c, sel.unit));
      out.push(h("button", { onclick: () => { this.selection = null; this.render(); } }, "Cancel ", h("kbd", {}, "Esc")));
    } else {
      out.push(h("p", {}, n ? `${n} unit(s) may move: click one on the map.` : "No unit may move now."), r ? h("p", {}, `${r} reinforcement(s) may enter: see Reinforcements below.`) : "");
      out.push(...this.leaderChoice(c));
    }
    if (!sel) out.push(...this.revisedMovement(c));
    if (!c.may_end_phase && c.end_phase_refused) out.push(h("p", { class: "warn" }, `The phase may not end yet (${c.end_phase_refused.case}): ${c.end_phase_refused.message}`));
    return h("div", {}, out);
  },

  /** The exits `unit` may make now (a battle's exits, Chickamauga 18.0): one button per exit hex. */
  exitButtons(c, unit) {
    const found = c.exits?.[unit] || {};
    return Object.keys(found).sort().map((hex) => h("button", {
      class: "small exit", id: `exit-${unit}-${hex}`, "data-unit": unit, "data-hex": hex, disabled: this.busy,
      onclick: () => { this.selection = null; this.command({ type: "exit_map", unit, path: found[hex].path }); },
    }, `Exit the map at ${hex} (${found[hex].cost} MP)`));
  },

  /** Revised movement-phase choices the server offers: rally (12.41), strategic movement (6.4), breastworks (10.34);
   * and a battle's exits (Chickamauga 18.0). */
  revisedMovement(c) {
    const b = this.board;
    const out = [];
    const exits = Object.keys(c.exits || {}).sort();
    if (exits.length) {
      out.push(h("details", { class: "revised-choice", id: "exit-choice" },
        h("summary", {}, `Exit the map (18.0): ${exits.length} unit(s)`),
        h("p", { class: "muted" }, "A unit that leaves the map is removed from play and never returns; it scores as the battle's victory conditions say."),
        h("ul", { class: "pick-units" }, exits.map((u) => h("li", {}, ...this.exitButtons(c, u), " ", this.unitLabel(u))))));
    }
    if (c.rally?.length) {
      out.push(h("div", { class: "revised-choice", id: "rally-choice" },
        h("h4", {}, "Rally (12.41)"),
        h("p", { class: "muted" }, "Before any unit moves: put Rally markers on units in poor order. They may not move this phase; the rally die is rolled at the start of your Combat Phase."),
        ...this.pickUnits(`rally:${b.version}`, c.rally, { id: "place-rally", verb: "Place Rally markers", send: (units) => this.command({ type: "place_rally", units }) })));
    }
    const strategic = c.may_move_strategically || [];
    if (strategic.length) {
      out.push(h("details", { class: "revised-choice", id: "strategic-choice" },
        h("summary", {}, `Strategic movement (6.4): ${strategic.length} unit(s)`),
        h("p", { class: "muted" }, "Further than the allowance, along roads only, never within two hexes of an enemy unit."),
        h("ul", { class: "pick-units" }, strategic.map((u) => h("li", {},
          h("button", { class: "small strategic", "data-unit": u, onclick: () => this.selectUnit(u, "strategic") }, "Move"), " ", this.unitLabel(u))))));
    }
    const build = c.build_breastworks || [];
    if (build.length) {
      out.push(h("details", { class: "revised-choice", id: "build-choice" },
        h("summary", {}, `Begin breastworks (10.34): ${build.length} unit(s)`),
        h("p", { class: "muted" }, "The unit stays in its hex this turn and the next; then the marker is flipped, facing three hexsides."),
        h("ul", { class: "pick-units" }, build.map((u) => h("li", {},
          h("button", { class: "small build-breastworks", "data-unit": u, disabled: this.busy, onclick: () => this.command({ type: "build_breastworks", unit: u }) }, "Begin"), " ", this.unitLabel(u))))));
    }
    const complete = Object.entries(c.complete_breastworks || {});
    if (complete.length) {
      out.push(h("div", { class: "revised-choice", id: "complete-choice" },
        h("h4", {}, "Complete breastworks (10.34)"),
        h("p", { class: "muted" }, "Choose the three hexsides it faces (the hexes beyond them):"),
        h("ul", { class: "pick-units" }, complete.map(([u, facings]) => h("li", {}, this.unitLabel(u),
          h("div", { class: "facings" }, facings.map((fc) => h("button", { class: "small complete-breastworks", "data-unit": u, "data-facing": fc.join(","), disabled: this.busy,
            onmouseenter: () => this.previewFacing(b.state.positions[u], fc), onmouseleave: () => this.render(),
            onclick: () => this.command({ type: "complete_breastworks", unit: u, facing: fc }) }, `facing ${fc.join(" · ")}`))))))));
    }
    return out;
  },

  /** Revised 10.37: the Breastworks Markers (of either side) the phasing player may remove now, at the
   * end of his Combat Phase, each in a hex holding one of his infantry or cavalry units. */
  removeBreastworksChoice(hexes) {
    const works = this.board.state.breastworks || {};
    const kind = (m) => (m?.status === "trench" ? "trench" : m?.status === "building" ? "under construction" : "breastworks");
    return h("details", { class: "revised-choice", id: "remove-choice" },
      h("summary", {}, `Remove breastworks (10.37): ${hexes.length} marker(s)`),
      h("p", { class: "muted" }, "At the end of your Combat Phase you may remove a Breastworks Marker where one of your infantry or cavalry units is."),
      h("ul", { class: "pick-units" }, hexes.map((hx) => h("li", {},
        h("button", { class: "small remove-breastworks", "data-hex": hx, disabled: this.busy, onclick: () => this.command({ type: "remove_breastworks", hex: hx }) }, "Remove"),
        ` ${hx}: ${SIDE_NAME[works[hx]?.side] || ""} ${kind(works[hx])} `,
        h("button", { class: "link small", title: "Show it on the map", onclick: (e) => { e.preventDefault(); this.selectedHex = hx; this.map.centreOn(hx); this.render(); } }, "show")))));
  },

  /** Show a facing on the map while the pointer is on its button: drawn as a preview (map.drawWorks), never
   * as the server's marker, and not while an action is in flight (the buttons are disabled then, and the
   * pointer resting on one after the click must not draw a completed marker before the server's view). */
  previewFacing(hex, facing) {
    if (!hex || this.busy) return;
    const works = { ...(this.board.state.breastworks || {}), [hex]: { status: "breastworks", side: this.seat, facing } };
    this.map.drawWorks(works, hex);
  },
};

/** A selection that moves a unit or a Leader (as opposed to planning an attack). */
export function isMove(sel) {
  return !!sel && (sel.mode === "move" || sel.mode === "enter" || sel.mode === "strategic" || sel.mode === "leader");
}

/** The reach cache's key of a unit and how it goes ("move", "enter", "strategic", "leader"), and back. */
export function reachKey(how, unit) {
  return `${how} ${unit}`;
}

export function splitReachKey(key) {
  const at = key.indexOf(" ");
  return [key.slice(0, at), key.slice(at + 1)];
}

/** A cost in movement points as the server sends it: a whole number, or an exact fraction "n/d"
 * (revised 6.22: turnpike hexes cost 2/3). Its value, for sorting and shading; shown as sent. */
export function mpValue(cost) {
  if (typeof cost === "number") return cost;
  const [n, d] = String(cost).split("/").map(Number);
  return d ? n / d : n;
}
