// Road to Richmond 17.6, the Variable Confederate Reinforcements (a game option chosen in the lobby):
// before play the Confederate Player secretly writes down which of his Game-Turn One reinforcements
// arrive instead with a later Game-Turn's (17.61-17.64). The server's choices offer it (`write_down`:
// the units, and the arrivals each may be written down for, its own first); the page sends the
// `write_down` message (docs/PROTOCOL.md) and the server keeps the choice: the player's own view
// shows it back (`written_down`), nobody else's does until a unit enters. The page decides nothing:
// it offers the server's arrivals and shows the server's answer.
// Methods of the game page (GameView, game.js), mixed into it there: `this` is the page.

import { h } from "./api.js";
import { counterIcon } from "./counters.js";
import { SIDE_NAME } from "./model.js";

const WRITTEN = "variable_written:"; // the commitments in the rules state (public: they show no choice)

export const WriteDown = {
  /** The panel before play: one choice per unit (its own Game-Turn, or a later one), then *Write down*. */
  writeDownView(w) {
    if (!this.writing) this.writing = new Map(); // unit -> the chart Game-Turn chosen (absent: its own)
    this.arrivals = w.arrivals;
    const own = w.arrivals[0];
    const label = (a) => `Game-Turn ${a.turn} at ${a.entry.join(a === own ? ", " : "/")}${a === own ? " (chart)" : ""}`;
    const title = (a) => (a === own
      ? `Game-Turn ${a.turn} at ${a.entry.join(", ")}, as the chart says (or later, held back: 17.62)`
      : `With the Game-Turn ${a.turn} reinforcements, at ${a.entry.join(" or ")} (17.61, 17.63, 17.64)`);
    const rows = w.units.map((u) => h("li", { "data-unit": u },
      h("span", { html: counterIcon(this.board.units[u], 26) }),
      h("span", { class: "wd-name" }, ` ${this.board.name(u)} `),
      h("select", { "data-unit": u, "aria-label": `When ${this.board.name(u)} arrives`,
        onchange: (e) => { const t = parseInt(e.target.value, 10); if (t === own.turn) this.writing.delete(u); else this.writing.set(u, t); this.render(); } },
        w.arrivals.map((a) => h("option", { value: a.turn, title: title(a), selected: (this.writing.get(u) ?? own.turn) === a.turn }, label(a))))));
    const later = [...this.writing.entries()].filter(([u]) => w.units.includes(u));
    return h("div", { class: "write-down", id: "write-down" },
      h("h3", {}, "Variable Confederate Reinforcements (17.6)"),
      h("p", {}, `Before the game starts, write down in secret which of your ${w.units.length} Game-Turn One reinforcements of ${own.entry.join(", ")} arrive instead with a later Game-Turn's reinforcements (17.61-17.64; early arrival, 17.5, applies to them). The others arrive as the chart says, or later if you hold them back (17.62).`),
      h("p", { class: "muted" }, "The server keeps your choice: the Union Player learns of a unit's only when it enters."),
      h("ul", { class: "pick-units write-down-units", id: "write-down-units" }, rows),
      h("p", { id: "write-down-count" }, later.length ? `${later.length} of ${w.units.length} arrive later.` : `All ${w.units.length} arrive on Game-Turn ${own.turn} (none written down for later).`),
      h("div", { class: "actions" },
        h("button", { class: "primary", id: "write-down-send", disabled: this.busy, onclick: () => this.sendWriteDown(w) }, "Write down"),
        later.length ? h("button", { id: "write-down-reset", disabled: this.busy, onclick: () => { this.writing.clear(); this.render(); } }, "All as the chart says") : ""));
  },

  async sendWriteDown(w) {
    const later = Object.fromEntries([...this.writing.entries()].filter(([u]) => w.units.includes(u)));
    const reply = await this.act({ type: "write_down", later });
    if (reply?.type === "ack") {
      this.writing = null;
      const n = Object.keys(later).length;
      this.toast(`Written down (17.62): ${n ? `${n} unit(s) arrive later` : "all arrive as the chart says"}. Only you can see it.`, "info", 6000);
    }
  },

  /** Has the choice been written down (the rules state holds its commitments)? */
  isWrittenDown() {
    return (this.board.state.scored || []).some((m) => m.startsWith(WRITTEN));
  },

  /** Where the written-down Game-Turn `turn`'s reinforcements enter, when this page was told (its
   * choices before play); else "". */
  arrivalHexes(turn) {
    const a = this.arrivals?.find((x) => x.turn === turn);
    return a ? ` at ${a.entry.join(" or ")}` : "";
  },

  /** Once written down: the player's own choice as the server shows it back (everyone's once the game
   * is over); to the others only that it was written down. */
  writtenDownView() {
    if (!this.isWrittenDown()) return null;
    const mine = this.board.writtenDown || {};
    const units = Object.keys(mine);
    // Written down before the game starts, so by the side that moves first (the rules refuse anyone else).
    const side = this.scenario.first_player;
    if (!units.length) {
      const text = this.seat === side || this.board.session.finished
        ? `${this.seat === side ? "Your" : `The ${SIDE_NAME[side]}`} reinforcements were written down (17.62): none arrive later, all come as the chart says.`
        : `The ${SIDE_NAME[side]} Player has written down his reinforcements (17.62): secret until a unit enters.`;
      return h("div", { class: "written-down muted", id: "written-down" }, text);
    }
    return h("div", { class: "written-down", id: "written-down" },
      h("span", {}, this.board.session.finished ? "Written down (17.62): " : "Your choice, written down in secret (17.62): "),
      h("ul", { class: "written-down-units" }, units.map((u) => h("li", { "data-unit": u, "data-turn": mine[u] },
        `${this.board.name(u)}: with the Game-Turn ${mine[u]} reinforcements${this.arrivalHexes(mine[u])}`))));
  },
};
