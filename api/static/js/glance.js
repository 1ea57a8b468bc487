// The battle at a glance (the server's `glance`): the turn track, the Victory Points, losses, the
// schedule and the levels of victory.
// Methods of the game page (GameView, game.js), mixed into it there: `this` is the page.

import { h } from "./api.js";
import { SIDE_NAME } from "./model.js";

export const Glance = {
  /** The battle at a glance, as the server's view gives it: the turn track (night turns, the
   * reinforcements due, the current Game-Turn and phase), each side's Victory Points and losses, the
   * level of victory the points would give now, the schedule and the levels; the objective hexes on
   * the map with their value and holder. */
  renderGlance() {
    const g = this.board.glance;
    const el = this.$("#battle");
    this.map.setObjectives(g?.objectives || []);
    if (!g) {
      el.replaceChildren();
      return;
    }
    const st = this.shown.state;
    const count = (list, side) => list.filter((a) => a.side === side).length;
    const track = h("ol", { class: "turn-track", id: "turn-track", "aria-label": "Turn track" }, g.turns.map((t) => {
      const due = t.reinforcements;
      const cls = [t.night ? "night" : "", t.turn < st.turn ? "past" : "", t.turn === st.turn ? "current" : ""].filter(Boolean).join(" ");
      const title = `Game-Turn ${t.turn}${t.night ? " (night)" : ""}${due.length ? `: ${due.map((a) => `${this.board.name(a.unit)} (${SIDE_NAME[a.side]}) at ${a.entry.join(", ")}`).join("; ")}` : ""}`;
      return h("li", { class: cls, "data-turn": t.turn, title },
        `${t.turn}${t.night ? " ☾" : ""}`,
        t.turn === st.turn ? h("small", { class: "phase-now" }, `${SIDE_NAME[st.phasing]?.[0] || ""} ${st.phase}`) : "",
        ...["union", "confederate"].filter((sd) => count(due, sd)).map((sd) => h("small", { class: `due ${sd}` }, `+${count(due, sd)} ${SIDE_NAME[sd][0]}`)));
    }));
    const lost = (sd) => `${g.eliminated[sd]?.units ?? 0} units (${g.eliminated[sd]?.strength ?? 0} SP)`;
    const now = g.level_now;
    el.replaceChildren(
      h("h3", {}, "Turn track"), track,
      h("h3", {}, "Victory"),
      h("div", { class: "vp-board" },
        h("span", {}, "Union ", h("b", { id: "vp-union" }, String(g.vp.union ?? 0))),
        h("span", {}, "Confederate ", h("b", { id: "vp-confederate" }, String(g.vp.confederate ?? 0)))),
      now ? h("p", { id: "level-now" }, st.game_over ? "Result: " : "If the game ended now: ", h("b", {}, now)) : "",
      h("p", { class: "muted", id: "losses" }, `Eliminated: Union ${lost("union")} · Confederate ${lost("confederate")}`),
      g.objectives.length ? h("p", { class: "muted", id: "objectives-note" }, `${g.objectives.length} objective hex(es) starred on the map, filled with the holder's colour.`) : "",
      h("details", { id: "schedule" }, h("summary", {}, "Victory Point schedule and levels"),
        h("ul", {}, g.schedule.map((line) => h("li", {}, line))),
        h("ol", { class: "levels" }, g.levels.map((line) => h("li", { class: now && line.startsWith(`${now}:`) ? "now" : "" }, line)))),
    );
  },
};
