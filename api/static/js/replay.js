// The replay bar (the server's cursor: api/replaying.py), a what-if fork and the hot seat of a
// sandbox game.
// Methods of the game page (GameView, game.js), mixed into it there: `this` is the page.

import { csrfHeader, h, saveSeat, seatOf } from "./api.js";
import { Board, SIDE_NAME } from "./model.js";

export const Replay = {
  startReplay() {
    if (this.conn?.state !== "live") return;
    this.replay = { asked: true, board: null, frame: null };
    this.selection = null;
    this.map.setPath(null);
    this.$("#replay-bar").classList.remove("hidden");
    this.$("#game").classList.add("replaying");
    this.replaySend({ type: "replay_seek", version: this.board.version });
    this.render();
  },

  replaySend(message) {
    if (!this.conn?.ws || this.conn.state !== "live") return;
    this.conn.ws.send(JSON.stringify(message));
  },

  replayStep(by, count) {
    if (!this.replay) this.startReplay();
    this.replaySend({ type: "replay_step", by, count });
  },

  replayToggle() {
    if (!this.replay) return this.startReplay();
    if (this.replay.frame?.playing) this.replaySend({ type: "replay_pause" });
    else this.replaySend({ type: "replay_play", by: "event", speed: parseFloat(this.$("#replay-speed").value) });
  },

  replayFrame(f) {
    if (!this.replay) {
      this.replay = { asked: true };
      this.$("#replay-bar").classList.remove("hidden");
      this.$("#game").classList.add("replaying");
    }
    const board = new Board(this.scenario);
    board.applyFrame(f);
    this.replay.board = board;
    this.replay.frame = f;
    const slider = this.$("#replay-slider");
    slider.max = String(Math.max(1, f.last));
    slider.value = String(f.version);
    this.$("#replay-play").textContent = f.playing ? "Pause" : "Play";
    this.$("#replay-where").textContent = `v${f.version} of ${f.last} · Turn ${f.turn}, ${SIDE_NAME[f.side] || f.side} ${f.phase}${f.undone ? " · taken back later" : ""}`;
    const marks = this.$("#replay-marks");
    const span = Math.max(1, f.last - 1);
    marks.replaceChildren(...(f.markers || []).map((mk) => {
      const left = ((mk.first - 1) / span) * 100;
      const width = mk.kind === "undone" ? Math.max(0.6, ((mk.last - mk.first + 1) / span) * 100) : 0;
      return h("span", { class: `mark ${mk.kind}`, style: `left:${left.toFixed(2)}%;${width ? `width:${width.toFixed(2)}%` : ""}`, title: mk.kind === "undone" ? `versions ${mk.first}-${mk.last} taken back (undo at ${mk.at})` : mk.label || mk.kind });
    }));
  },

  /** A sandbox game from the replay's position (the server's fork); this browser holds both seats. */
  async fork() {
    const version = this.replay?.frame?.version;
    if (!version) return;
    const headers = { "Content-Type": "application/json", ...this.authHeaders(), ...csrfHeader() };
    let r;
    try {
      r = await fetch(`/api/games/${encodeURIComponent(this.gameId)}/fork`, { method: "POST", headers, body: JSON.stringify({ version }) });
    } catch (e) {
      this.toast(`Could not fork: ${e.message}`, "error");
      return;
    }
    const body = await r.json().catch(() => ({}));
    if (r.status === 404 || r.status === 405) {
      this.toast("This server cannot fork games yet.", "info");
      return;
    }
    if (!r.ok) {
      this.toast(`Could not fork: ${body?.error?.message || r.status}`, "error");
      return;
    }
    const side = this.replay.board.toAct() || this.replay.board.state.phasing || "union";
    saveSeat(body.game_id, { seat: side, token: body.tokens[side], tokens: body.tokens, sandbox: true, parent: this.gameId, scenario: this.scenario.id });
    location.assign(`/play/${body.game_id}`);
  },

  /** In a sandbox this browser holds both seats: take the one the game waits for. */
  hotSeat() {
    const held = seatOf(this.gameId);
    // Never while an action is in flight: it is resent after a reconnect, and must go as its own seat.
    if (!held?.tokens || !this.welcome || this.conn?.state !== "live" || this.busy || this.conn.pending.size) return;
    const want = this.board.toAct();
    if (!want || want === this.seat || !held.tokens[want]) return;
    this.seat = want;
    this.token = held.tokens[want];
    saveSeat(this.gameId, { seat: want, token: held.tokens[want] });
    const badge = this.$("#seat-badge");
    badge.className = `seat-badge ${want}`;
    badge.textContent = `Sandbox: you play ${SIDE_NAME[want]}`;
    this.choices = null;
    this.conn.drop(); // hello again with that seat's token
  },
};
