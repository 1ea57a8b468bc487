// The game page: play a seat, or watch. The board is the server's view of the game for this seat or
// for spectators (a `view` message, held by model.js's Board as it comes: the client folds no event),
// and the record beside it is the server's too, whole on every load. What the player
// may do is exactly the server's `choices` for the current state: the units that may move, enter or
// move strategically, the attacks that may be declared with their odds, the options of a pending
// decision (resolve and reduce the odds, retreat, exchange losses, advance), and whether the phase may
// end. Where one unit may go (each hex with its cost and path) is asked of the server when the unit
// is selected (a `reach`), and kept until the next choices. Anything refused comes back as a typed
// error or a reach's refusal, shown with the rule's case and sentence.
//
// This module holds the page (GameView: its layout, the connection's messages, actions, keys and the
// rendering of the status, the panel and the controls); each other concern is a module of methods
// mixed into GameView below: board.js (the map's overlays, the hex info, reinforcements, the key),
// movement.js (a unit's reach and the Movement Phase panel), combat.js (the combat panel and the
// decisions of an attack), replay.js (the replay bar and what-if forks), dialogs.js (undo, draw,
// resign, claim), glance.js (the turn track and points), notices.js (toasts, notifications, the tab),
// clock.js (the game's clock, when it has one), writedown.js (Road to Richmond 17.6: the reinforcements
// written down before play), chatreport.js (a chat line reported to the admins).

import { getJSON, h, scenario as loadScenario, seatOf, signedIn } from "./api.js";
import { BoardView } from "./board.js";
import { ChatReport } from "./chatreport.js";
import { Clock } from "./clock.js";
import { Combat, combatKey, dieView } from "./combat.js";
import { Connection } from "./connection.js";
import { counterIcon, SIDE_STYLE } from "./counters.js";
import { Dialogs } from "./dialogs.js";
import { neighbours } from "./geometry.js";
import { Glance } from "./glance.js";
import { MapView } from "./map.js";
import { Board, cap, finishText, RESULT_TEXT, SIDE_NAME } from "./model.js";
import { isMove, Movement, reachKey } from "./movement.js";
import { Notices } from "./notices.js";
import { Replay } from "./replay.js";
import { WriteDown } from "./writedown.js";

export const RULESET_NAME = { classic: "classic (1975 Standard Rules)", revised: "revised (2nd edition)" };

const CONN_TEXT = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  offline: "Offline",
  gone: "Unavailable",
};

export async function showGame(root, gameId, { watch = false } = {}) {
  root.replaceChildren(h("main", { class: "lobby" }, h("section", { class: "card" }, h("h2", {}, `Opening game ${gameId}…`))));
  let info;
  try {
    info = await getJSON(`/api/games/${encodeURIComponent(gameId)}`);
  } catch (e) {
    root.querySelector(".card").append(h("p", { class: "error" }, e.message), h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
    return null;
  }
  const sc = await loadScenario(info.scenario);
  const seat = watch ? null : seatOf(gameId);
  // Without a token here, a signed-in player takes the seat his account holds (docs/PROTOCOL.md "hello").
  const me = await signedIn().catch(() => null); // also who may report a chat line (chatreport.js)
  const account = watch || seat ? null : me;
  const view = new GameView(root, gameId, sc, seat, info, account);
  view.me = me;
  view.start();
  return view;
}

export class GameView {
  constructor(root, gameId, scenario, seat, info, account = null) {
    this.root = root;
    this.account = account;
    this.gameId = gameId;
    this.scenario = scenario;
    this.seat = seat ? seat.seat : null;
    this.token = seat ? seat.token : null;
    this.info = info;
    this.board = new Board(scenario);
    this.choices = null; // {version, side, choices, digest}
    this.digest = null; // the digest of the state the board shows (null after a snapshot)
    this.selection = null; // {mode: "move"|"enter"|"strategic", unit, fresh, centre} | {mode: "attack", ...}
    // Where units may go at this.choices, by reachKey(how, unit): the server's reach replies
    // ({destinations, refused}), those it answered with an error, and the tests' promises
    // (bluegray.reach) waiting for one. `questions`: the reaches asked on this socket and not
    // answered, oldest first ({key, current}: asked under the current choices or before them); the
    // server answers a socket's messages in order.
    this.reaches = new Map();
    this.questions = [];
    this.reachFailed = new Map();
    this.reachWaiters = new Map();
    // How the odds of an attack being built are made, by combatKey(attackers, defenders): the
    // server's combat replies at this.choices ({breakdown, refused}); asked on the same queue.
    this.breakdowns = new Map();
    this.selectedHex = null;
    this.busy = false;
    this.record = []; // the game's record as the server keeps it: [version, kind, seat, text] lines
    this.viewed = false; // this socket's first view came (it brings the whole record)
    this.dialogKey = null;
    this.picks = new Map(); // ticked units of a multi-unit choice (rally, rout, retreat before combat), by key
    this.build();
  }

  // -- the page ----------------------------------------------------------------------------------
  /** Who plays: each seat an account holds, linked to the player's page (his ratings, games, and the
   * Block button); a guest's seat is not named (GET /api/games/{id} `players`). */
  playersLine() {
    const names = this.info.players || {};
    const sides = ["union", "confederate"].filter((s) => names[s]);
    if (!sides.length) return null;
    return h("span", { class: "players muted", id: "players" }, ...sides.flatMap((s, i) => [i ? " v " : "",
      h("a", { href: `/players/${encodeURIComponent(names[s])}`, "data-side": s }, names[s]), ` (${SIDE_NAME[s]})`]));
  }

  build() {
    const sc = this.scenario;
    document.title = `${sc.name} — Blue & Gray`;
    const sandbox = seatOf(this.gameId)?.tokens ? "Sandbox: you play" : "You play";
    const you = this.seat
      ? h("span", { class: `seat-badge ${this.seat}`, id: "seat-badge" }, `${sandbox} ${SIDE_NAME[this.seat]}`)
      : h("span", { class: "seat-badge watcher", id: "seat-badge" }, "Watching");
    this.root.replaceChildren(
      h("div", { class: "game", id: "game" },
        h("header", { class: "bar" },
          h("a", { href: "/", class: "home", title: "Lobby" }, "Blue & Gray"),
          h("span", { class: "title" }, sc.name.split(":")[0], h("small", { class: "muted" }, ` · game ${this.gameId}`)),
          you,
          this.playersLine(),
          h("button", { id: "replay-open", class: "small", title: "Replay the game (R)", onclick: () => this.startReplay() }, "Replay"),
          h("a", { id: "report-link", class: "button small", href: `/games/${this.gameId}/report`, target: "_blank", rel: "noopener", title: "After-action report", onclick: (e) => this.openReport(e) }, "Report"),
          h("span", { class: "conn connecting", id: "conn", role: "status", "aria-live": "polite" }, h("i", {}), h("b", {}, CONN_TEXT.connecting)),
        ),
        h("div", { class: "board-wrap" },
          h("div", { id: "map" }),
          h("div", { class: "map-tools" },
            h("button", { id: "zoom-in", title: "Zoom in (+)", onclick: () => this.map.zoom(1.3) }, "+"),
            h("button", { id: "zoom-out", title: "Zoom out (−)", onclick: () => this.map.zoom(1 / 1.3) }, "−"),
            h("button", { id: "zoom-fit", title: "Whole map (0)", onclick: () => this.map.fit() }, "⤢"),
            h("button", { id: "numbers-toggle", title: "Hex numbers (N)", onclick: () => this.toggleNumbers() }, "#"),
          ),
          h("div", { id: "stale", class: "stale hidden", role: "alert" }),
          h("div", { id: "replay-bar", class: "replay-bar hidden", role: "toolbar", "aria-label": "Replay" },
            h("div", { class: "replay-line" },
              h("div", { id: "replay-marks", class: "replay-marks" }),
              h("input", { type: "range", id: "replay-slider", min: "1", max: "1", value: "1", "aria-label": "Version",
                onchange: (e) => this.replaySend({ type: "replay_seek", version: parseInt(e.target.value, 10) }) })),
            h("div", { class: "replay-buttons" },
              h("button", { title: "Back a Game-Turn (PageUp)", onclick: () => this.replayStep("game_turn", -1) }, "− Turn"),
              h("button", { title: "Back a phase (Shift+←)", onclick: () => this.replayStep("phase", -1) }, "− Phase"),
              h("button", { id: "replay-back", title: "Back an event (←)", onclick: () => this.replayStep("event", -1) }, "− 1"),
              h("button", { id: "replay-play", title: "Play / pause (Space)", onclick: () => this.replayToggle() }, "Play"),
              h("button", { id: "replay-forward", title: "Forward an event (→)", onclick: () => this.replayStep("event", 1) }, "+ 1"),
              h("button", { title: "Forward a phase (Shift+→)", onclick: () => this.replayStep("phase", 1) }, "+ Phase"),
              h("button", { title: "Forward a Game-Turn (PageDown)", onclick: () => this.replayStep("game_turn", 1) }, "+ Turn"),
              h("select", { id: "replay-speed", title: "Speed (events a second)" }, [0.5, 1, 2, 4, 8, 16].map((v) => h("option", { value: v, selected: v === 2 }, `${v}×`))),
              h("span", { id: "replay-where", class: "replay-where" }),
              h("button", { id: "replay-fork", title: "Start a sandbox game from this position (a what-if; fresh dice)", onclick: () => this.fork() }, "Fork what-if"),
              h("button", { id: "replay-live", class: "primary", title: "Back to live (L)", onclick: () => this.replaySend({ type: "replay_live" }) }, "Back to live"))),
          h("div", { id: "hover", class: "hover-info hidden" }),
        ),
        h("aside", { class: "panel" },
          h("section", { id: "status" }),
          h("section", { id: "clock", class: "hidden" }),
          h("section", { id: "battle" }),
          h("section", { id: "action" }),
          h("section", { id: "controls" },
            h("button", { id: "end-phase", onclick: () => this.endPhase() }, "End phase ", h("kbd", {}, "E")),
            h("button", { id: "undo-request", onclick: () => this.undoDialog() }, "Undo… ", h("kbd", {}, "U")),
            h("button", { id: "pause-request", class: "hidden", title: "Ask to stop the clocks for some days (correspondence games)", onclick: () => this.pauseDialog() }, "Pause…"),
            h("button", { id: "draw-offer", onclick: () => this.offerDraw() }, "Offer draw"),
            h("button", { id: "resign", class: "danger", onclick: () => this.resignDialog() }, "Resign"),
            h("button", { id: "claim", class: "danger hidden", onclick: () => this.claimDialog() }, "Claim the game"),
          ),
          h("form", { id: "chat", class: "chat", onsubmit: (e) => this.sendChat(e) },
            h("input", { type: "text", name: "text", maxlength: "500", placeholder: "Say something to your opponent", "aria-label": "Chat" }),
            h("button", { type: "submit" }, "Send")),
          h("label", { id: "chat-consent", class: "chat-shown", title: "Spectators see a chat line only if both players show their chat when it is said" },
            h("input", { type: "checkbox", id: "chat-shown", onchange: (e) => this.showChat(e) }), " Spectators may read my chat"),
          h("section", { id: "hexinfo" }),
          h("section", { id: "reinforcements" }),
          h("label", { class: "notify-toggle", title: "A sound and a browser notification when it becomes your move, when an undo is asked of you and when the game ends, while this tab is hidden" },
            h("input", { type: "checkbox", id: "notify-toggle", checked: localStorage.getItem("bluegray.notify") === "1", onchange: (e) => this.setNotify(e.target.checked) }),
            " Tell me when it matters (sound and notification)"),
          h("details", { id: "legend" }, h("summary", {}, "Map key and shortcuts"), this.legend()),
          h("section", { id: "log-section" }, h("h3", {}, "Record"), h("ol", { id: "log", reversed: true })),
        ),
        h("div", { id: "dialog-backdrop", class: "hidden" }, h("div", { id: "dialog", role: "dialog", "aria-modal": "true" })),
        h("div", { id: "toasts", "aria-live": "assertive" }),
      ),
    );
    this.$ = (sel) => this.root.querySelector(sel);
    this.map = new MapView(this.$("#map"), sc);
    this.map.onHexClick = (hex) => this.clickHex(hex);
    this.map.onHexHover = (hex) => this.hoverHex(hex);
    this.map.zoom(1.6);
    this.centreOnForces();
    if (!this.seat) for (const id of ["#end-phase", "#undo-request", "#draw-offer", "#resign", "#chat", "#chat-consent"]) this.$(id).classList.add("hidden");
    this.unread = 0; // the opponent's chat lines that came while this tab was hidden
    this.seen = () => {
      if (document.hidden) return;
      this.unread = 0;
      this.tellTab();
    };
    document.addEventListener("visibilitychange", this.seen);
    window.addEventListener("focus", this.seen);
    this.keys = (e) => this.key(e);
    document.addEventListener("keydown", this.keys);
    window.bluegray = this; // for the browser tests and the curious
  }

  start() {
    this.conn = new Connection({
      hello: () => ({
        game_id: this.gameId,
        ...(this.token ? { token: this.token } : { spectate: !this.account }),
        last_version: this.board.version,
        view: true, // the server's view and record, rather than events to fold
      }),
      onMessage: (m) => this.message(m),
      onState: (s, detail) => this.connState(s, detail),
    });
    this.conn.open();
    this.render();
    // The after-action report is a page of the server (api/replaying.py); offer it where it exists.
    this.$("#report-link").classList.add("hidden");
    fetch(`/games/${encodeURIComponent(this.gameId)}/report`, { method: "HEAD", headers: this.authHeaders() })
      .then((r) => r.ok && this.$("#report-link").classList.remove("hidden"))
      .catch(() => {});
  }

  authHeaders() {
    return this.token ? { Authorization: `Bearer ${this.token}` } : {};
  }

  // A player's report is the whole game, not the spectators' delayed view (api/replaying.py): a link
  // cannot carry the seat token (never in a URL), so fetch the page with it and show it from a blob.
  openReport(event) {
    if (!this.token) return; // a spectator follows the plain link
    event.preventDefault();
    const tab = window.open("", "_blank");
    fetch(`/games/${encodeURIComponent(this.gameId)}/report`, { headers: this.authHeaders() })
      .then(async (r) => {
        if (!r.ok) throw new Error(await r.text());
        const url = URL.createObjectURL(new Blob([await r.text()], { type: "text/html" }));
        if (tab) tab.location.href = url;
        else window.location.href = url;
      })
      .catch((err) => {
        tab?.close();
        this.toast(`The report could not be opened: ${err.message}`, "error");
      });
  }

  destroy() {
    clearTimeout(this.claimTimer);
    clearTimeout(this.pauseTimer);
    clearInterval(this.clockTimer);
    document.removeEventListener("visibilitychange", this.seen);
    window.removeEventListener("focus", this.seen);
    document.removeEventListener("keydown", this.keys);
    this.conn?.close();
  }

  // -- messages --------------------------------------------------------------------------------
  message(m) {
    switch (m.type) {
      case "welcome":
        this.welcome = m;
        this.questions = []; // a new socket: what was asked on the last one is not answered
        if (this.token && m.seat === null) this.toast("This browser's seat token was not accepted: watching instead.", "error");
        this.seat = m.seat;
        this.viewed = false;
        if (m.seat && !this.token) {
          // the seat the signed-in account holds (no token in this browser): the page becomes his
          const badge = this.$("#seat-badge");
          badge.className = `seat-badge ${m.seat}`;
          badge.textContent = `You play ${SIDE_NAME[m.seat]}`;
          for (const id of ["#end-phase", "#undo-request", "#draw-offer", "#resign", "#chat", "#chat-consent"]) this.$(id).classList.remove("hidden");
        }
        if (!m.seat) {
          const badge = this.$("#seat-badge");
          badge.className = "seat-badge watcher";
          badge.textContent = "Watching";
          for (const id of ["#end-phase", "#undo-request", "#draw-offer", "#resign", "#chat", "#chat-consent"]) this.$(id).classList.add("hidden");
        }
        break;
      case "view":
        this.onView(m);
        break;
      case "choices":
        this.choices = { ...m, digest: this.digest };
        this.reaches = new Map();
        this.reachFailed = new Map();
        this.breakdowns = new Map();
        for (const q of this.questions) q.current = false;
        this.askAgain();
        break;
      case "reach":
        this.onReach(m);
        break;
      case "combat":
        this.onCombat(m);
        break;
      case "replay_frame":
        this.replayFrame(m);
        break;
      case "replay_following":
        this.replay = null;
        this.$("#replay-bar").classList.add("hidden");
        this.$("#game").classList.remove("replaying");
        break;
      case "ack":
        break;
      case "error":
        if (!m.command_id && (m.code === "unauthorized" || m.code === "not_found") && !this.welcome) {
          if (!this.token && this.account && m.code === "unauthorized") {
            this.account = null; // the account holds no seat of this game: watch
            this.conn.drop();
          } else if (this.token && m.code === "unauthorized") {
            // This browser's seat token was refused (another server's data, a reset store): watch.
            this.toast(`Your seat was not recognised (${m.message}): watching instead.`, "error", 8000);
            this.token = null;
            this.seat = null;
            this.conn.drop();
          } else {
            this.conn.gone(m.message); // render() then says the game cannot be served
          }
        } else if (!m.command_id && this.replay?.asked && m.code === "unknown_type") {
          this.replay = null;
          this.$("#replay-bar").classList.add("hidden");
          this.$("#game").classList.remove("replaying");
          this.toast("This server does not offer replays yet.", "info");
        } else if (!m.command_id && this.questions.length) this.onReachError(m);
        else if (!m.command_id) this.showError(m);
        break;
    }
    this.render();
  }

  /** The server's view: the board as it is now, and the record's change (the whole record on this
   * socket's first view: a load, a reload or a reconnection, which tells nothing as news). */
  onView(m) {
    const first = !this.viewed;
    let view = m.view;
    if (!view) {
      // A patch of the view this socket has: never applied to another (reconnect: the whole view comes).
      if (first || this.plainView?.version !== m.base) {
        this.conn.drop();
        return;
      }
      view = mergePatch(this.plainView, m.patch);
    }
    this.plainView = view;
    this.viewed = true;
    const combat = this.board.lastCombat?.version;
    const wasMine = !!this.board.session.to_act && this.board.session.to_act === this.seat;
    const changed = view.digest !== this.digest;
    this.board.applyView(view);
    this.digest = view.digest;
    const added = this.setRecord(first ? 0 : m.record_keep, m.record);
    if (!first) {
      const c = view.last_combat;
      if (c && c.version !== combat) this.toast(`Die ${c.die} at ${c.column}: ${c.result} — ${RESULT_TEXT[c.result] || ""}`, "combat", 6000);
      for (const [, kind, seat] of added) this.announce(kind, seat);
      const mine = !!view.your_move;
      if (mine && !wasMine) this.tell("Your move", `${this.scenario.name.split(":")[0]}: it is your move.`);
    }
    if (changed) this.selectionStale();
  }

  selectionStale() {
    if (this.selection && this.selection.mode !== "attack") this.selection = null;
    if (this.selection?.mode === "attack" && !this.validChoices()?.attacks?.length) this.selection = null;
    this.map.setPath(null);
  }

  connState(state, detail) {
    const el = this.$("#conn");
    el.className = `conn ${state}`;
    el.querySelector("b").textContent = CONN_TEXT[state] || state;
    el.title = detail || "";
    this.render();
  }

  /** Keep the first `keep` lines of the record and append `lines` (the server's change); returns the
   * lines appended. The record is shown newest first. */
  setRecord(keep, lines) {
    this.record = [...this.record.slice(0, keep), ...lines];
    const consent = this.record.filter(([, kind, seat]) => kind === "chat_shown" && seat === this.seat).pop();
    const box = this.$("#chat-shown");
    if (box) box.checked = !!consent && !consent[3].includes("no longer");
    const shown = this.record.slice(-300).reverse();
    this.$("#log").replaceChildren(...shown.map(([version, kind, seat, text]) => {
      const report = this.reportLink(version, kind, seat); // chatreport.js: another's chat line
      return h("li", { value: version, class: `ev-${kind}` }, h("span", { class: "v" }, `v${version}`), " ", text, report ? " " : null, report);
    }));
    return lines;
  }

  // -- what the player may do --------------------------------------------------------------------
  live() {
    return this.conn?.state === "live" && this.viewed;
  }

  /** The board on the screen: the replay's position while replaying, else the live board. */
  get shown() {
    return this.replay?.board || this.board;
  }

  /** The server's choices for the board shown, when this seat is to act; else null. */
  validChoices() {
    const c = this.choices;
    if (!c || !this.seat || c.side !== this.seat || c.digest !== this.digest || !this.live() || this.replay) return null;
    if (c.version > this.board.version) return null;
    return c.choices;
  }

  async act(message) {
    if (!this.seat) return null;
    if (this.busy) return null;
    this.busy = true;
    this.render();
    try {
      const reply = await this.conn.act({ ...message, seen: this.board.version });
      if (reply.type === "error") this.showError(reply);
      return reply;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  command(command) {
    return this.act({ type: "command", command });
  }

  endPhase() {
    if (!this.seat) return;
    const c = this.validChoices();
    if (c && !c.may_end_phase && c.end_phase_refused) {
      this.showError({ code: "illegal", case: c.end_phase_refused.case, message: c.end_phase_refused.message });
      return;
    }
    this.selection = null;
    this.command({ type: "end_phase" });
  }

  // -- a click on the map -------------------------------------------------------------------------

  clickHex(hex) {
    const c = this.validChoices();
    const sel = this.selection;
    this.selectedHex = hex;
    this.noteEnemy(hex);
    if (c?.decision) {
      this.clickDecision(c.decision, hex);
    } else if (isMove(sel)) {
      const known = this.dests(sel, c);
      const dests = known || {};
      if (hex in dests) {
        const d = dests[hex];
        this.selection = null;
        this.map.setPath(null);
        if (sel.mode === "leader") this.command({ type: "move_leader", leader: sel.unit, path: d.path }); // 23.51
        else this.command({ type: { move: "move", enter: "enter_reinforcement", strategic: "strategic_move" }[sel.mode], unit: sel.unit, path: d.path });
      } else if (known && sel.mode === "move" && this.board.state.positions[sel.unit] !== hex && neighbours(this.map.layout, this.board.state.positions[sel.unit]).includes(hex) && !this.unitsIn(hex).some((u) => this.board.units[u].side === this.seat)) {
        // Not offered: let the rules say why (the server answers with the case and its sentence).
        this.command({ type: "move", unit: sel.unit, path: [this.board.state.positions[sel.unit], hex] });
      } else if (!known && !this.reachFailed.has(reachKey(sel.mode, sel.unit)) && !this.unitsIn(hex).some((u) => this.board.units[u].side === this.seat)) {
        // Still asking where it may go: a click on another hex waits for the answer.
      } else {
        this.selectUnitAt(hex, c);
      }
    } else if (c?.attacks?.length) {
      this.clickAttack(c, hex);
    } else {
      this.selectUnitAt(hex, c);
    }
    this.render();
  }

  // -- chat ---------------------------------------------------------------------------------------

  async sendChat(e) {
    e.preventDefault();
    const input = e.target.querySelector("input");
    const text = input.value.trim();
    if (!text || !this.seat || !this.live()) return;
    const reply = await this.act({ type: "chat", text });
    if (reply?.type === "ack") input.value = "";
  }

  /** The seat's consent to show its chat to spectators (an event of the game: the record says it). */
  async showChat(e) {
    const shown = e.target.checked;
    if (!this.seat || !this.live()) { e.target.checked = !shown; return; }
    const reply = await this.act({ type: "chat_shown", shown });
    if (reply?.type !== "ack") e.target.checked = !shown;
  }

  // -- keys ----------------------------------------------------------------------------------------
  key(e) {
    if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    if (k === "Escape") {
      if (this.dialogKey) this.closeDialog();
      this.selection = null;
      this.map.setPath(null);
      this.render();
    } else if (k === "ArrowLeft") this.replayStep(e.shiftKey ? "phase" : "event", -1);
    else if (k === "ArrowRight") this.replayStep(e.shiftKey ? "phase" : "event", 1);
    else if (k === "PageUp") this.replayStep("game_turn", -1);
    else if (k === "PageDown") this.replayStep("game_turn", 1);
    else if (k === " " && this.replay) this.replayToggle();
    else if ((k === "l" || k === "L") && this.replay) this.replaySend({ type: "replay_live" });
    else if (k === "r" || k === "R") this.startReplay();
    else if (k === "e" || k === "E") this.endPhase();
    else if (k === "u" || k === "U") this.undoDialog();
    else if (k === "n" || k === "N") this.toggleNumbers();
    else if (k === "+" || k === "=") this.map.zoom(1.3);
    else if (k === "-" || k === "_") this.map.zoom(1 / 1.3);
    else if (k === "0") this.map.fit();
    else return;
    e.preventDefault();
  }

  // -- rendering ---------------------------------------------------------------------------------
  render() {
    this.tellTab();
    const b = this.board;
    const c = this.validChoices();
    this.preselect(c);
    const live = this.live();
    this.$("#game").classList.toggle("not-live", !live);
    const stale = this.$("#stale");
    if (!live && this.conn) {
      stale.classList.remove("hidden");
      stale.textContent = this.conn.state === "gone"
        ? "This game cannot be served any more."
        : `${CONN_TEXT[this.conn.state]} The board shows version ${b.version} and may be behind; actions wait until the connection is back.`;
    } else stale.classList.add("hidden");
    this.renderStatus(c);
    this.renderClock();
    this.renderMap(c);
    this.renderAction(c);
    this.renderControls(c);
    this.renderHexInfo(c);
    this.renderReinforcements(c);
    this.renderGlance();
    this.gameDialogs();
    if (this.seat) setTimeout(() => this.hotSeat(), 0);
  }

  renderStatus() {
    const b = this.shown;
    const st = b.state;
    const sc = this.scenario;
    const night = sc.night_turns.includes(st.turn);
    const toAct = b.toAct();
    const s = b.session;
    const rows = [
      h("div", { class: "turn", id: "turn" }, `Turn ${st.turn} of ${sc.turns}`, night ? h("span", { class: "night" }, " · night") : ""),
      h("div", { class: "phase", id: "phase" }, h("span", { class: `side-chip ${st.phasing}` }, SIDE_NAME[st.phasing]), ` ${cap(st.phase)} Phase`),
    ];
    if (!s.started) rows.push(h("div", { class: "waiting", id: "to-act" }, "Waiting for the second player to join."));
    else if (s.finished) rows.push(h("div", { class: "over", id: "to-act" }, `Game over: ${finishText(s.finished)}`));
    else if (toAct) rows.push(h("div", { id: "to-act", class: toAct === this.seat ? "yours" : "" }, toAct === this.seat ? "Your move" : `${SIDE_NAME[toAct]} to act`));
    const q = sc.exclusive?.movement_quota;
    if (q && st.phase === "movement" && q.side === st.phasing) {
      rows.push(h("div", { class: "quota", id: "quota", title: "17.11 movement quota" },
        `Units moved this phase: ${st.moved.length} · ${SIDE_NAME[q.side]} quota ${q.units} units (17.11), ${q.units + (q.bonus_units || 0)} with the bonus hex ${q.bonus_hex} held (17.14)`));
    }
    const w = this.welcome;
    if (w) {
      const undo = { consent: "undo by consent", none: "no undo", "free-until-dice": "free undo until a die is thrown" }[w.options.undo] || w.options.undo;
      rows.push(h("div", { class: `ruleset ${w.ruleset}`, id: "ruleset" }, "Rule set: ", h("b", {}, RULESET_NAME[w.ruleset] || w.ruleset)));
      const bits = [undo + (w.options.undo_dice ? " (across dice too)" : "")];
      if ("attack_effectiveness" in w.rules_options) bits.push(`attack effectiveness ${w.rules_options.attack_effectiveness ? "on" : "off"}`);
      for (const [name, on] of Object.entries(w.rules_options)) if (name !== "attack_effectiveness" && on === true) bits.push(`variant: ${name.replaceAll("_", " ")}`);
      if (w.options.spectator_delay) bits.push(`spectators ${w.options.spectator_delay} events behind`);
      if (w.options.spectator_delay_phases) bits.push(`spectators ${w.options.spectator_delay_phases} phase(s) behind`);
      rows.push(h("div", { class: "options muted", id: "options" }, bits.join(" · ")));
      if (w.dice === "insecure") rows.push(h("div", { class: "warn" }, "Fixed dice seed: a test game, its rolls are predictable."));
    }
    const written = this.writtenDownView(); // Road to Richmond 17.62
    if (written) rows.push(written);
    rows.push(h("div", { class: "vp", id: "vp" }, `VP: Union ${st.vp.union ?? 0} · Confederate ${st.vp.confederate ?? 0}`, st.result ? h("b", {}, ` · ${st.result}`) : ""));
    if (s.undo) rows.push(h("div", { class: "note", id: "undo-note" }, `${SIDE_NAME[s.undo.seat]} asked to take back ${s.undo.takes_back.length} action(s)`,
      s.undo.seat === this.seat ? h("button", { id: "undo-withdraw", onclick: () => this.act({ type: "undo_withdraw", request: s.undo.request }) }, "Withdraw") : " — waiting for an answer"));
    if (s.pause_request) {
      const p = s.pause_request;
      rows.push(h("div", { class: "note", id: "pause-note" }, `${SIDE_NAME[p.seat]} asks to pause the game for ${p.days} day(s) `,
        !this.seat ? "" : p.seat === this.seat
          ? h("button", { id: "pause-withdraw", onclick: () => this.act({ type: "pause_withdraw", request: p.request }) }, "Withdraw")
          : h("span", {}, h("button", { id: "pause-accept", class: "primary", onclick: () => this.act({ type: "pause_accept", request: p.request }) }, "Accept"), " ",
            h("button", { id: "pause-decline", onclick: () => this.act({ type: "pause_decline", request: p.request }) }, "Decline"))));
    }
    if (s.paused && s.paused.until > Date.now()) {
      rows.push(h("div", { class: "note", id: "paused-note" }, `Paused: no clock runs until ${new Date(s.paused.until).toLocaleString()} `,
        this.seat ? h("button", { id: "pause-resume", onclick: () => this.act({ type: "pause_resume" }) }, "Resume now") : ""));
    }
    if (s.draw) rows.push(h("div", { class: "note" }, `${SIDE_NAME[s.draw.seat]} offered a draw`));
    this.$("#status").replaceChildren(...rows);
  }

  renderAction(c) {
    const b = this.board;
    const el = this.$("#action");
    const out = [];
    const s = b.session;
    if (this.replay) {
      el.replaceChildren(h("p", { class: "note", id: "replaying" }, "Replaying: the map shows the game at the replay's position; live events keep arriving. Press Back to live (L) to play on."),
        this.declaredView(this.shown));
      return;
    }
    if (b.lastCombat && b.state.phase === "combat") out.push(dieView(b.lastCombat, b));
    if (!this.seat) {
      const p = b.state.pending[0];
      if (p) out.push(h("p", { class: "muted" }, pendingText(p, b)), this.declaredView());
      el.replaceChildren(...out);
      return;
    }
    if (!s.started || s.finished) {
      if (!s.started && this.welcome) {
        const held = seatOf(this.gameId);
        if (held?.invite_url) out.push(h("p", {}, "Send your opponent the invite link:"), h("input", { type: "text", readonly: true, value: held.invite_url, class: "invite-link", onfocus: (e) => e.target.select() }));
      }
      el.replaceChildren(...out);
      return;
    }
    if (b.toAct() !== this.seat) {
      const p = b.state.pending[0];
      out.push(h("p", { class: "muted", id: "waiting" }, p ? pendingText(p, b) : `Waiting for ${SIDE_NAME[b.toAct()] || "the opponent"}.`));
      if (p) out.push(this.declaredView());
      el.replaceChildren(...out);
      return;
    }
    if (!c) {
      out.push(h("p", { class: "muted" }, this.live() ? "Your move — receiving your choices…" : "Your move — waiting for the connection."));
      el.replaceChildren(...out);
      return;
    }
    if (c.write_down) out.push(this.writeDownView(c.write_down)); // Road to Richmond 17.62: before play
    else if (c.decision) out.push(this.decisionView(c.decision));
    else if (b.state.phase === "movement") out.push(this.movementView(c));
    else if (b.state.phase === "combat") out.push(this.combatView(c));
    el.replaceChildren(...out);
  }

  /** Tick some of `units`, then one button sends them all (`send(list)`); `none` (optional) sends none. */
  pickUnits(key, units, { id, verb, send, none = null, all = false }) {
    if (!this.picks.has(key)) this.picks.set(key, new Set(all ? units : []));
    const chosen = this.picks.get(key);
    const items = units.map((u) => h("li", {},
      h("label", {},
        h("input", { type: "checkbox", checked: chosen.has(u), "data-unit": u, onchange: (e) => { if (e.target.checked) chosen.add(u); else chosen.delete(u); this.render(); } }),
        h("span", { html: counterIcon(this.board.units[u], 26, this.marksOf(u)) }),
        ` ${this.unitLabel(u)}`,
        h("button", { class: "link small", title: "Show it on the map", onclick: (e) => { e.preventDefault(); if (this.board.state.positions[u]) { this.selectedHex = this.board.state.positions[u]; this.map.centreOn(this.selectedHex); this.render(); } } }, "show"))));
    return [
      h("ul", { class: "pick-units", id: `${id}-units` }, items),
      h("div", { class: "actions" },
        h("button", { class: "primary", id, disabled: this.busy || !chosen.size, onclick: () => { const list = units.filter((u) => chosen.has(u)); this.picks.delete(key); send(list); } }, `${verb} (${chosen.size})`),
        none ? h("button", { id: `${id}-none`, disabled: this.busy, onclick: () => { this.picks.delete(key); none(); } }, none.label || "None") : ""),
    ];
  }

  renderControls(c) {
    if (!this.seat) return;
    const s = this.board.session;
    const mine = this.board.toAct() === this.seat;
    const over = !!s.finished || !s.started;
    const end = this.$("#end-phase");
    end.disabled = !c || !mine || this.busy || !!c.decision;
    end.classList.toggle("refused", !!c && !c.may_end_phase);
    end.title = c && !c.may_end_phase && c.end_phase_refused ? `${c.end_phase_refused.case}: ${c.end_phase_refused.message}` : "End this phase (E)";
    const off = over || !this.live() || this.busy || !!this.replay;
    this.$("#undo-request").disabled = off || !!s.undo || this.undoPolicy() === "none";
    this.$("#draw-offer").disabled = off || !!s.draw;
    const post = (this.welcome?.options?.clock || this.info.options?.clock)?.mode === "correspondence";
    this.$("#pause-request").classList.toggle("hidden", !this.seat || !post);
    this.$("#pause-request").disabled = off || !!s.pause_request || !!(s.paused && s.paused.until > Date.now());
    this.$("#resign").disabled = off;
    const left = Math.min(this.silenceLeft(), this.flagLeft());
    const claimable = !off && left <= 0;
    this.$("#claim").classList.toggle("hidden", !claimable);
    // The silence (or the opponent's clock) runs out with no event to say so: look again when it will have.
    clearTimeout(this.claimTimer);
    if (!claimable && left < 2 ** 31 - 1) this.claimTimer = setTimeout(() => this.renderControls(this.validChoices()), Math.max(left, 0) + 500);
  }

}

// The page's other concerns, each in its own module (see there).
Object.assign(GameView.prototype, Notices, Movement, Combat, Replay, Dialogs, BoardView, Glance, Clock, WriteDown, ChatReport);

/** `target` with the JSON merge patch `patch` applied (RFC 7386: members replaced, objects patched
 * recursively, null removes one); `target` is left as it was. */
export function mergePatch(target, patch) {
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) return patch;
  const out = target && typeof target === "object" && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

function pendingText(p, b) {
  const who = SIDE_NAME[p.side];
  switch (p.kind) {
    case "attack":
      return `${who} is resolving an attack on ${p.defenders.join(", ")} at ${p.column}.`;
    case "retreat":
      return `${who} retreats ${b.name(p.unit)}.`;
    case "exchange_losses":
      return `${who} chooses exchange losses (${p.at_least} strength).`;
    case "advance":
      return `${who} may advance after combat.`;
    case "counterattack_advance":
      return `${who} may advance ${b.name(p.units[0])} one more hex after the counterattack (up to four).`;
    case "rally":
      return `${who} rolls the rally dice (12.41).`;
    case "before_combat":
      return p.what === "terrain" ? `${who} chooses his terrain benefit (8.45).` : p.what === "cavalry" ? `${who} decides whether his cavalry retreats before combat (8.77).` : `${who} decides whether Routed defenders retreat before combat (12.34).`;
    default:
      return `Waiting for ${who}.`;
  }
}

export { SIDE_STYLE };
export { mpValue } from "./movement.js"; // (the module the tests and PROTOCOL.md name)
