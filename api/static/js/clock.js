// The game's clock (time controls: session/clock.py on the server), shown to both players and to
// spectators: the server's view says how much time each seat had left at the time of the last event
// (`session.clock`: {left, at, running, paused_until}); the page counts the running seat's time down
// from there, charging nothing while a pause of a correspondence game runs (docs/PROTOCOL.md "Pause":
// both faces then say "paused" until the pause's end), and offers the opponent the claim once it has
// run out (the server decides the claim).
// Methods of the game page (GameView, game.js), mixed into it there: `this` is the page.

import { h } from "./api.js";
import { SIDE_NAME, SIDES } from "./model.js";

/** Milliseconds as the clock shows them: h:mm:ss, m:ss, or days and hours for a long allowance. */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  if (days) return `${days} d ${hh} h`;
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

export const Clock = {
  /** The milliseconds left on `seat`'s clock now (negative: run out); null without a clock. Nothing
   * is charged before the running pause's end (ClockView: left - max(0, now - max(at, paused_until))). */
  clockLeft(seat) {
    const c = this.board.session.clock;
    if (!c || !(seat in c.left)) return null;
    const running = c.running && !this.board.session.finished && c.running === seat;
    return c.left[seat] - (running ? Math.max(0, Date.now() - Math.max(c.at, c.paused_until || 0)) : 0);
  },

  /** A pause runs now (no clock runs until c.paused_until). */
  clockPaused() {
    const until = this.board.session.clock?.paused_until;
    return !!until && until > Date.now();
  },

  /** The opponent, whom the game waits for, has run out of time (ms left; <= 0: claim now). */
  flagLeft() {
    const waited = this.board.toAct();
    if (!this.seat || !waited || waited === this.seat) return Infinity;
    const left = this.clockLeft(waited);
    return left === null ? Infinity : left;
  },

  /** The clock section: each side's time, the running one marked; ticks while a clock runs. */
  renderClock() {
    const el = this.$("#clock");
    const c = this.board.session.clock;
    clearInterval(this.clockTimer);
    if (!c) {
      el.replaceChildren();
      el.classList.add("hidden");
      return;
    }
    el.classList.remove("hidden");
    const options = (this.welcome || this.info).options?.clock;
    const how = options?.mode === "correspondence" ? `${options.days_per_turn} day(s) a Player-Turn`
      : options ? `${Math.round(options.bank_seconds / 60 * 10) / 10} min + ${options.increment_seconds} s a Player-Turn` : "";
    const paused = this.clockPaused();
    const face = (seat) => {
      const left = this.clockLeft(seat);
      const running = c.running === seat && !this.board.session.finished && !paused;
      const waits = c.running === seat && !this.board.session.finished && paused;
      return h("div", { class: `clock-face ${seat}${running ? " running" : ""}${waits ? " paused" : ""}${left <= 0 ? " flag" : ""}`, id: `clock-${seat}`, "data-left": String(left) },
        h("span", { class: "who" }, SIDE_NAME[seat]),
        h("b", { class: "time" }, left <= 0 ? "time is up" : `${clockText(left)}${waits ? " (paused)" : ""}`));
    };
    el.replaceChildren(h("div", { class: "clock-faces", role: "timer", "aria-label": "Game clock" }, ...SIDES.map(face)),
      how ? h("small", { class: "muted" }, `Clock: ${how}${paused ? ` · paused until ${new Date(c.paused_until).toLocaleString()}` : ""}`) : "");
    if (paused) {
      // The pause ends with no event to say so: render again then (the clock runs from that moment).
      clearTimeout(this.pauseTimer);
      const wait = c.paused_until - Date.now() + 250;
      if (wait < 2 ** 31 - 1) this.pauseTimer = setTimeout(() => this.render(), wait);
    } else if (c.running && !this.board.session.finished) {
      this.clockTimer = setInterval(() => {
        const seat = c.running;
        const left = this.clockLeft(seat);
        const face = this.$(`#clock-${seat}`);
        if (!face) return;
        face.dataset.left = String(left);
        face.classList.toggle("flag", left <= 0);
        face.querySelector(".time").textContent = left <= 0 ? "time is up" : clockText(left);
        if (left <= 0) {
          clearInterval(this.clockTimer);
          this.renderControls(this.validChoices()); // the claim may be offered now
        }
      }, 250);
    }
  },
};
