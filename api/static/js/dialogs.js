// The dialogs of a game: undo (ask, answer, withdraw), draw, resignation, the claim of a game whose
// opponent is silent or out of time.
// Methods of the game page (GameView, game.js), mixed into it there: `this` is the page.

import { h } from "./api.js";
import { finishText, SIDE_NAME } from "./model.js";

export const Dialogs = {
  undoDialog() {
    if (!this.seat || !this.live() || this.replay) return;
    const s = this.board.session;
    if (s.finished) return;
    if (s.undo) {
      this.toast("An undo request is already waiting for an answer.", "info");
      return;
    }
    if (this.undoPolicy() === "none") {
      this.toast("This game is played without undo (tournament).", "info");
      return;
    }
    const cmds = this.board.undoable.slice().reverse();
    if (!cmds.length) {
      this.toast("No action to take back yet.", "info");
      return;
    }
    let chosen = cmds[0].version;
    const list = h("ol", { class: "undo-list" },
      cmds.map((c, i) =>
        h("li", {},
          h("label", {},
            h("input", { type: "radio", name: "undo-back", value: c.version, checked: i === 0, onchange: () => { chosen = c.version; } }),
            ` ${SIDE_NAME[c.seat]}: ${c.text}`,
            c.rolls ? h("span", { class: "warn" }, " (a die was thrown)") : null,
          ),
        ),
      ),
    );
    this.dialog("undo-ask", h("h3", {}, "Take back actions"),
      h("p", {}, "Take back this action and every one after it. Your opponent must agree (5.17); a thrown die is final (5.14) unless the game allows it."),
      list,
      h("div", { class: "actions" },
        h("button", { class: "primary", id: "undo-send", onclick: () => { this.closeDialog(); this.act({ type: "undo_request", back_to: chosen - 1 }); } }, "Ask to undo"),
        h("button", { onclick: () => this.closeDialog() }, "Cancel"),
      ));
  },

  undoPolicy() {
    return this.welcome?.options?.undo || this.info.options?.undo;
  },

  /** A pause of a correspondence game (docs/PROTOCOL.md "Pause"): ask the opponent for some days. */
  pauseDialog() {
    if (!this.seat || !this.live() || this.replay) return;
    const left = this.board.session.pause_days_left?.[this.seat] ?? 30;
    if (left < 1) {
      this.toast("You have used your 30 days of pause in this game.", "info");
      return;
    }
    const days = h("input", { type: "number", id: "pause-days", min: "1", max: String(Math.min(30, left)), value: String(Math.min(7, left)), "aria-label": "Days" });
    this.dialog("pause-ask", h("h3", {}, "Pause the game"),
      h("p", {}, `Stop both clocks for some days; your opponent must agree. You may ask for ${left} more day(s) in this game; either player may resume early.`),
      h("label", { class: "field" }, h("span", {}, "Days"), days),
      h("div", { class: "actions" },
        h("button", { class: "primary", id: "pause-send", onclick: () => { this.closeDialog(); this.act({ type: "pause_request", days: Number(days.value) }); } }, "Ask to pause"),
        h("button", { onclick: () => this.closeDialog() }, "Cancel")));
  },

  offerDraw() {
    if (!this.seat || !this.live()) return;
    this.act({ type: "draw_offer" }).then((r) => r?.type === "ack" && this.toast("Draw offered.", "info"));
  },

  resignDialog() {
    if (!this.seat || !this.live()) return;
    this.dialog("resign", h("h3", {}, "Resign?"), h("p", {}, "The game ends and your opponent wins."),
      h("div", { class: "actions" },
        h("button", { class: "danger", id: "resign-confirm", onclick: () => { this.closeDialog(); this.act({ type: "resign" }); } }, "Resign"),
        h("button", { onclick: () => this.closeDialog() }, "Cancel")));
  },

  /** The opponent, whom the game waits for, has been silent past the game's limit (ms left; <= 0: now). */
  silenceLeft() {
    const s = this.board.session;
    const limit = this.welcome?.options?.silence_seconds ?? this.info.options?.silence_seconds;
    const waited = this.board.toAct();
    if (!this.seat || !waited || waited === this.seat || limit == null || !s.waiting_since) return Infinity;
    return s.waiting_since + limit * 1000 - Date.now();
  },

  claimDialog() {
    if (!this.seat || !this.live()) return;
    this.dialog("claim", h("h3", {}, "Claim the game?"),
      h("p", {}, this.flagLeft() <= 0
        ? `${SIDE_NAME[this.board.toAct()]}'s time has run out on the game's clock: the game ends and you win it on time.`
        : `${SIDE_NAME[this.board.toAct()]} has been silent longer than this game allows: the game ends and you win it.`),
      h("div", { class: "actions" },
        h("button", { class: "danger", id: "claim-confirm", onclick: () => { this.closeDialog(); this.act({ type: "claim" }); } }, "Claim"),
        h("button", { onclick: () => this.closeDialog() }, "Cancel")));
  },

  dialog(key, ...content) {
    this.dialogKey = key;
    this.$("#dialog").replaceChildren(...content);
    this.$("#dialog").dataset.key = key;
    this.$("#dialog-backdrop").classList.remove("hidden");
  },

  closeDialog() {
    this.dialogKey = null;
    this.$("#dialog-backdrop").classList.add("hidden");
  },

  /** Dialogs the game itself opens: an undo or draw to answer, the end of the game. */
  gameDialogs() {
    const s = this.board.session;
    if (s.finished) {
      const key = `finished`;
      if (this.dialogKey !== key && !this.finishedShown) {
        this.finishedShown = true;
        const vp = s.finished.vp || this.board.state.vp || {};
        this.dialog(key, h("h3", {}, "The game is over"),
          h("p", { class: "result", id: "result" }, finishText(s.finished)),
          h("p", {}, `Victory points: Union ${vp.union ?? 0} · Confederate ${vp.confederate ?? 0}`),
          h("p", { class: "muted" }, s.finished.seed
            ? `Dice seed revealed: ${s.finished.seed.slice(0, 16)}… — every roll can be checked with bluegray verify.`
            : "Dice seed withheld until the pair's other game ends (the other game of this duplicate pair rolls the same dice)."),
          h("div", { class: "actions" }, h("button", { class: "primary", onclick: () => this.closeDialog() }, "Close")));
      }
      return;
    }
    if (!this.seat) return;
    const u = s.undo;
    if (u && u.seat !== this.seat) {
      const key = `undo-answer:${u.request}`;
      if (this.dialogKey !== key) {
        const what = this.board.undoDetail.map((t) => h("li", {}, t));
        this.dialog(key, h("h3", {}, `${SIDE_NAME[u.seat]} asks to take back`),
          what.length ? h("ul", {}, what) : h("p", {}, `${u.takes_back.length} action(s), back to version ${u.back_to}.`),
          h("div", { class: "actions" },
            h("button", { class: "primary", id: "undo-accept", onclick: () => { this.closeDialog(); this.act({ type: "undo_accept", request: u.request }); } }, "Accept"),
            h("button", { id: "undo-decline", onclick: () => { this.closeDialog(); this.act({ type: "undo_decline", request: u.request }); } }, "Decline")));
      }
      return;
    }
    const dr = s.draw;
    if (dr && dr.seat !== this.seat) {
      const key = `draw:${dr.offer}`;
      if (this.dialogKey !== key) {
        this.dialog(key, h("h3", {}, `${SIDE_NAME[dr.seat]} offers a draw`),
          h("div", { class: "actions" },
            h("button", { class: "primary", id: "draw-accept", onclick: () => { this.closeDialog(); this.act({ type: "draw_accept" }); } }, "Accept the draw"),
            h("button", { id: "draw-decline", onclick: () => { this.closeDialog(); this.act({ type: "draw_decline" }); } }, "Decline")));
      }
      return;
    }
    if (this.dialogKey && (this.dialogKey.startsWith("undo-answer") || this.dialogKey.startsWith("draw:"))) this.closeDialog();
  },
};
