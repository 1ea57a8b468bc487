// The game page: play a seat, or watch. The board is the server's view of the game for this seat or
// for spectators (a `view` message, held by model.js's Board as it comes: the client folds no event),
// and the record beside it is the server's too, whole on every load. What the player
// may do is exactly the server's `choices` for the current state: the units that may move, enter or
// move strategically, the attacks that may be declared with their odds, the options of a pending
// decision (resolve and reduce the odds, retreat, exchange losses, advance), and whether the phase may
// end. Where one unit may go (each hex with its cost and path) is asked of the server when the unit
// is selected (a `reach`), and kept until the next choices. Anything refused comes back as a typed
// error or a reach's refusal, shown with the rule's case and sentence.

import { getJSON, h, saveSeat, scenario as loadScenario, seatOf } from "./api.js";
import { Connection } from "./connection.js";
import { MORALE_STYLE, RALLY_STYLE, SIDE_STYLE, counterIcon, esc } from "./counters.js";
import { neighbours } from "./geometry.js";
import { LEGEND_HEXSIDES, MapView, TERRAIN_STYLE } from "./map.js";
import { Board, MORALE_NAME, RESULT_TEXT, SIDE_NAME, finishText } from "./model.js";

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
  const view = new GameView(root, gameId, sc, seat, info);
  view.start();
  return view;
}

export class GameView {
  constructor(root, gameId, scenario, seat, info) {
    this.root = root;
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
          h("section", { id: "battle" }),
          h("section", { id: "action" }),
          h("section", { id: "controls" },
            h("button", { id: "end-phase", onclick: () => this.endPhase() }, "End phase ", h("kbd", {}, "E")),
            h("button", { id: "undo-request", onclick: () => this.undoDialog() }, "Undo… ", h("kbd", {}, "U")),
            h("button", { id: "draw-offer", onclick: () => this.offerDraw() }, "Offer draw"),
            h("button", { id: "resign", class: "danger", onclick: () => this.resignDialog() }, "Resign"),
            h("button", { id: "claim", class: "danger hidden", onclick: () => this.claimDialog() }, "Claim the game"),
          ),
          h("form", { id: "chat", class: "chat", onsubmit: (e) => this.sendChat(e) },
            h("input", { type: "text", name: "text", maxlength: "500", placeholder: "Say something to your opponent", "aria-label": "Chat" }),
            h("button", { type: "submit" }, "Send")),
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
    if (!this.seat) for (const id of ["#end-phase", "#undo-request", "#draw-offer", "#resign", "#chat"]) this.$(id).classList.add("hidden");
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
  }

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
        h("li", {}, "Dashed ring: victory hex; gold ring: movement-quota bonus hex; “T2 entry”: reinforcements enter here"),
      ),
      h("p", { class: "keys" }, "Keys: ", h("kbd", {}, "E"), " end phase · ", h("kbd", {}, "U"), " undo request · ", h("kbd", {}, "Esc"),
        " clear selection · ", h("kbd", {}, "R"), " replay: ", h("kbd", {}, "←"), h("kbd", {}, "→"), " step (with ", h("kbd", {}, "Shift"), " a phase; ",
        h("kbd", {}, "PgUp"), h("kbd", {}, "PgDn"), " a Game-Turn), ", h("kbd", {}, "Space"), " play/pause, ", h("kbd", {}, "L"), " back to live · ", h("kbd", {}, "N"), " hex numbers · ", h("kbd", {}, "+"), h("kbd", {}, "−"), " zoom · ", h("kbd", {}, "0"), " whole map · drag to pan, wheel or pinch to zoom"),
    );
  }

  start() {
    this.conn = new Connection({
      hello: () => ({
        game_id: this.gameId,
        ...(this.token ? { token: this.token } : { spectate: true }),
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
        if (!m.seat) {
          const badge = this.$("#seat-badge");
          badge.className = "seat-badge watcher";
          badge.textContent = "Watching";
          for (const id of ["#end-phase", "#undo-request", "#draw-offer", "#resign", "#chat"]) this.$(id).classList.add("hidden");
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
          if (this.token && m.code === "unauthorized") {
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

  /** News a new record line brings (never on a load: only lines that came as a change). */
  announce(kind, seat) {
    if (kind === "chat" && seat !== this.seat && document.hidden) this.unread += 1;
    if (kind === "undo_requested" && this.seat && seat !== this.seat) this.tell("Undo asked", `${SIDE_NAME[seat]} asks to take back an action.`);
    if (kind === "game_finished") this.tell("Game over", this.board.session.finished ? finishText(this.board.session.finished) : "The game is over.");
    if (kind === "undo_accepted") this.toast("Undo accepted: the board is back as it was.", "info");
    else if (kind === "undo_declined" && this.seat && seat !== this.seat) this.toast("Your undo request was declined.", "info");
    else if (kind === "draw_declined" && this.seat && seat !== this.seat) this.toast("Your draw offer was declined.", "info");
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
    const shown = this.record.slice(-300).reverse();
    this.$("#log").replaceChildren(...shown.map(([version, kind, , text]) =>
      h("li", { value: version, class: `ev-${kind}` }, h("span", { class: "v" }, `v${version}`), " ", text)));
    return lines;
  }

  toast(text, kind = "info", ms = 4500) {
    const t = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
    const box = this.$("#toasts");
    box.append(t);
    this.placeToasts();
    setTimeout(() => t.remove(), ms);
  }

  /** Opt in or out of being told (a sound and a browser notification) when it matters. */
  setNotify(on) {
    localStorage.setItem("bluegray.notify", on ? "1" : "0");
    if (on && "Notification" in window && Notification.permission === "default") Notification.requestPermission?.();
  }

  /** Tell the player something that matters while the tab is hidden, if he opted in: a short tone
   * and a browser notification (when he allowed them). `this.told` keeps what was told, for tests. */
  tell(title, body) {
    if (!this.seat || localStorage.getItem("bluegray.notify") !== "1" || !document.hidden) return;
    (this.told ||= []).push(title);
    try {
      const audio = new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      gain.gain.value = 0.08;
      tone.frequency.value = 660;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.25);
    } catch {
      // no sound here: the notification still says it
    }
    if ("Notification" in window && Notification.permission === "granted") new Notification(`Blue & Gray — ${title}`, { body, tag: `bluegray-${this.gameId}` });
  }

  /** The tab's title and icon say whose move it is and how many chat lines came unread. */
  tellTab() {
    const mine = !!this.seat && this.board.session.to_act === this.seat && this.viewed;
    const title = `${mine ? "▶ Your move · " : ""}${this.unread ? `(${this.unread}) ` : ""}${this.scenario.name} — Blue & Gray`;
    if (document.title !== title) document.title = title;
    const key = `${mine}:${this.unread > 0}`;
    if (this.iconKey === key) return;
    this.iconKey = key;
    const fill = mine ? "#1a8a3a" : "#23324f";
    const dot = this.unread ? '<circle cx="25" cy="7" r="6" fill="#d02020"/>' : "";
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="2" width="28" height="28" rx="6" fill="${fill}"/><text x="16" y="22" font-size="16" font-family="sans-serif" font-weight="bold" fill="#fff" text-anchor="middle">${mine ? "▶" : "B"}</text>${dot}</svg>`;
    let link = document.querySelector("link[rel=icon]");
    if (!link) {
      link = document.createElement("link");
      link.rel = "icon";
      document.head.append(link);
    }
    link.href = `data:image/svg+xml,${encodeURIComponent(svg)}`;
    link.dataset.state = key;
  }

  /** Toasts stand at the bottom of the window, but never over the replay bar: above it (or, when
   * the bar is near the top of the window, as on a scrolled phone, below it). */
  placeToasts() {
    const box = this.$("#toasts");
    const bar = this.$("#replay-bar");
    box.style.top = "";
    box.style.bottom = "";
    if (bar.classList.contains("hidden")) return;
    const r = bar.getBoundingClientRect();
    if (r.bottom < 0 || r.top > window.innerHeight) return;
    if (r.top > 120) box.style.bottom = `${Math.round(window.innerHeight - r.top + 8)}px`;
    else box.style.top = `${Math.round(r.bottom + 8)}px`;
  }

  showError(m) {
    if (m.code === "illegal") this.toast(`Rule ${m.case || "?"}: ${m.message}`, "error illegal", 8000);
    else if (m.code === "conflict") this.toast("The game moved on meanwhile: the board is up to date now, look again.", "info");
    else if (m.code === "not_your_turn") this.toast(`Not your turn: ${m.message}`, "error");
    else this.toast(`${m.code}: ${m.message}`, "error");
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

  // -- the map -----------------------------------------------------------------------------------
  /** The destinations of the selected unit while choices `c` hold (a normal move, an entry, or a
   * strategic move, 6.4): the server's reach for it; null while it has not answered. */
  dests(sel, c) {
    if (!isMove(sel) || !c) return null;
    return this.reaches.get(reachKey(sel.mode, sel.unit))?.destinations || null;
  }

  /** Ask the server where `unit` may go (`how`: "move", "enter", "strategic"), unless it has told
   * this client already at this version or is being asked. Only the seat to act may ask. */
  askReach(unit, how = "move") {
    const key = reachKey(how, unit);
    if (!this.seat || !this.choices || this.reaches.has(key) || this.questions.some((q) => q.key === key && q.current)) return;
    this.reachFailed.delete(key);
    if (this.conn?.reach(unit, how)) this.questions.push({ key, current: true });
  }

  /** New choices dropped what the server had said: ask again for the selection and any test waiting. */
  askAgain() {
    if (isMove(this.selection)) this.askReach(this.selection.unit, this.selection.mode);
    for (const key of this.reachWaiters.keys()) {
      const [how, unit] = splitReachKey(key);
      this.askReach(unit, how);
    }
  }

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
  }

  /** The attackers of the attack being built: the chosen adjacent units, then the bombarding ones. */
  attackersOf(sel) {
    return [...this.chosenUnits(sel, sel.hexes), ...this.chosenUnits(sel, sel.bombard)];
  }

  /** How the odds of the attack being built are made (the server's `combat` reply: {breakdown,
   * refused}); asked when not known yet at these choices. null while it has not answered. */
  breakdownOf(sel) {
    if (!sel?.option || !this.seat || !this.choices) return null;
    const attackers = this.attackersOf(sel);
    if (!attackers.length) return null;
    const key = combatKey(attackers, sel.option.defenders);
    const got = this.breakdowns.get(key);
    if (got) return got;
    if (!this.questions.some((q) => q.key === key && q.current) && this.conn?.combat(attackers, sel.option.defenders)) this.questions.push({ key, current: true });
    return null;
  }

  /** A combat reply, kept as a reach's is (see onReach); the panel shows it if it is the selection's. */
  onCombat(m) {
    const key = combatKey(m.attackers, m.defenders);
    const at = this.questions.findIndex((q) => q.key === key);
    const asked = at >= 0 ? this.questions.splice(at, 1)[0] : null;
    if (!asked?.current && m.version !== this.choices?.version) return;
    this.breakdowns.set(key, { breakdown: m.breakdown || null, refused: m.refused || null });
    if (this.selection?.mode === "attack") this.render();
  }

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
  }

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
  }

  /** Select `unit` to move it (`mode`: "move", "enter", "strategic") and ask where it may go. */
  choose(unit, mode = "move", { centre = false } = {}) {
    const sel = { mode, unit, fresh: true, centre };
    this.selection = sel;
    this.askReach(unit, mode);
    this.reachArrived(sel);
  }

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
  }

  reachOf(unit, how = "move") {
    return this.reaches.get(reachKey(how, unit)) || null;
  }

  unitsIn(hex) {
    return Object.entries(this.shown.state.positions).filter(([, h]) => h === hex).map(([u]) => u).sort();
  }

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
        this.command({ type: { move: "move", enter: "enter_reinforcement", strategic: "strategic_move" }[sel.mode], unit: sel.unit, path: d.path });
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

  selectUnitAt(hex, c) {
    const mine = this.unitsIn(hex).filter((u) => this.board.units[u].side === this.seat);
    if (!mine.length || this.board.state.phase !== "movement" || !c) {
      this.selection = null;
      return;
    }
    const movable = mine.filter((u) => c.may_move?.includes(u));
    const pool = movable.length ? movable : mine;
    const cur = this.selection?.mode === "move" ? pool.indexOf(this.selection.unit) : -1;
    this.choose(pool[(cur + 1) % pool.length], "move");
  }

  selectUnit(unit, mode = "move") {
    const hex = this.board.state.positions[unit];
    // A reinforcement: the map shows where it may go when its reach comes.
    this.choose(unit, mode, { centre: !hex });
    if (hex) {
      this.selectedHex = hex;
      this.map.centreOn(hex);
    }
    this.render();
  }

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
    const units = this.unitsIn(hex).map((u) => `${this.shown.name(u)} (${this.shown.units[u].strength})`);
    info.textContent = `${hex} · ${TERRAIN_STYLE[t]?.[2] || t}${units.length ? " · " + units.join(", ") : ""}`;
    info.classList.remove("hidden");
  }

  // -- combat ------------------------------------------------------------------------------------
  clickAttack(c, hex) {
    const options = c.attacks;
    let sel = this.selection?.mode === "attack" ? this.selection : null;
    const isTarget = options.some((o) => o.defenders.includes(hex));
    if (sel && sel.option && hex in sel.option.groups) {
      this.toggleGroup(sel, hex);
      return;
    }
    if (sel?.preselected) {
      sel.preselected = false;
      if (sel.defenders.includes(hex)) return; // a click on the defender chosen for him: it stays chosen
      sel = null; // another hex: an attack of its own, not added to the one chosen for him
    }
    if (isTarget) {
      let defenders;
      if (sel && sel.defenders.includes(hex)) defenders = sel.defenders.filter((d) => d !== hex);
      else if (sel && findOption(options, [...sel.defenders, hex])) defenders = [...sel.defenders, hex];
      else defenders = [hex];
      if (!defenders.length) {
        this.selection = null;
        return;
      }
      this.startAttack(options, defenders);
      return;
    }
    this.selection = null;
  }

  startAttack(options, defenders) {
    this.beginAttack(options, defenders);
    this.render();
  }

  beginAttack(options, defenders, preselected = false) {
    const option = findOption(options, defenders);
    this.selection = { mode: "attack", defenders: [...defenders].sort(), option, hexes: new Set(), bombard: new Set(), left: new Set(), preselected };
    if (option) {
      // Start with the strongest adjacent units that may make the attack.
      const best = [...option.adjacent].sort((a, b) => b.attack - a.attack || b.hexes.length - a.hexes.length)[0];
      if (best) this.chooseAdjacent(this.selection, best);
    }
  }

  /** With no attack being built, the defender chosen for the player: the only attack the choices
   * offer (the only adjacent enemy, or a two-hex defender that may only be attacked whole), else the
   * enemy hex last pointed at or clicked, if it may be attacked (alone, or in the smallest attack
   * offered that includes it). Once per choices: a selection cancelled stays cancelled. */
  preselect(c) {
    if (!c?.attacks?.length || c.decision || this.selection || this.preselectedAt === this.choices.version) return;
    this.preselectedAt = this.choices.version;
    const options = c.attacks;
    let pick = options.length === 1 ? options[0].defenders : null;
    const last = this.lastEnemy;
    if (!pick && last) {
      const with_ = options.filter((o) => o.defenders.includes(last)).sort((a, b) => a.defenders.length - b.defenders.length);
      pick = with_[0]?.defenders || null;
    }
    if (pick) this.beginAttack(options, pick, true);
  }

  /** The enemy hex the player last pointed at or clicked (for ``preselect``). */
  noteEnemy(hex) {
    if (hex && this.seat && this.unitsIn(hex).some((u) => this.board.units[u].side !== this.seat)) this.lastEnemy = hex;
  }

  /** Select an offered adjacent choice: its hexes, and (revised 8.22) only its units of them. */
  chooseAdjacent(sel, a) {
    sel.hexes = new Set(a.hexes);
    sel.left = new Set(a.hexes.flatMap((hx) => sel.option.groups[hx].units).filter((u) => a.units?.length && !a.units.includes(u)));
  }

  /** The units of the chosen hexes that attack: all of each group, but those left out (revised 8.22, 9.14). */
  chosenUnits(sel, hexes) {
    return [...hexes].flatMap((hx) => sel.option.groups[hx].units.filter((u) => !sel.left.has(u)));
  }

  /** A hex of the attack panel or the map, ticked or unticked: all its units. */
  toggleGroup(sel, hx) {
    const g = sel.option.groups[hx];
    const set = g.bombarding ? sel.bombard : sel.hexes;
    if (set.has(hx)) set.delete(hx);
    else set.add(hx);
    for (const u of g.units) sel.left.delete(u);
  }

  /** One unit of a stack ticked or unticked (revised 8.22, 9.14: stacked units may attack separately). */
  toggleUnit(sel, hx, u) {
    const g = sel.option.groups[hx];
    const set = g.bombarding ? sel.bombard : sel.hexes;
    if (!set.has(hx)) {
      set.add(hx);
      for (const v of g.units) if (v !== u) sel.left.add(v);
    } else if (sel.left.has(u)) sel.left.delete(u);
    else {
      sel.left.add(u);
      if (g.units.every((v) => sel.left.has(v))) this.toggleGroup(sel, hx);
    }
  }

  attackMatch(sel) {
    if (!sel?.option) return null;
    const key = [...sel.hexes].sort().join(",");
    const units = this.chosenUnits(sel, sel.hexes).sort().join(",");
    const whole = (a) => a.hexes.flatMap((hx) => sel.option.groups[hx].units);
    return sel.option.adjacent.find((a) => [...a.hexes].sort().join(",") === key && [...(a.units?.length ? a.units : whole(a))].sort().join(",") === units) || null;
  }

  declareAttack() {
    const sel = this.selection;
    const match = this.attackMatch(sel);
    if (!sel || !match) return;
    const attackers = [...this.chosenUnits(sel, sel.hexes), ...this.chosenUnits(sel, sel.bombard)];
    this.selection = null;
    this.command({ type: "declare_attack", attackers, defenders: sel.option.defenders });
  }

  clickDecision(d, hex) {
    if (d.type === "retreat") {
      const opt = d.options.find((o) => o.to === hex);
      if (opt) this.command({ type: "retreat", unit: d.unit, to: opt.to, ...(opt.displace ? { displace: opt.displace } : {}) });
    } else if (d.type === "advance") {
      const opts = d.options.filter((o) => o.to === hex);
      if (opts.length === 1) this.command({ type: "advance", unit: opts[0].unit, to: hex });
    }
  }

  // -- replay (the server's cursor: api/replaying.py) --------------------------------------------
  startReplay() {
    if (this.conn?.state !== "live") return;
    this.replay = { asked: true, board: null, frame: null };
    this.selection = null;
    this.map.setPath(null);
    this.$("#replay-bar").classList.remove("hidden");
    this.$("#game").classList.add("replaying");
    this.replaySend({ type: "replay_seek", version: this.board.version });
    this.render();
  }

  replaySend(message) {
    if (!this.conn?.ws || this.conn.state !== "live") return;
    this.conn.ws.send(JSON.stringify(message));
  }

  replayStep(by, count) {
    if (!this.replay) this.startReplay();
    this.replaySend({ type: "replay_step", by, count });
  }

  replayToggle() {
    if (!this.replay) return this.startReplay();
    if (this.replay.frame?.playing) this.replaySend({ type: "replay_pause" });
    else this.replaySend({ type: "replay_play", by: "event", speed: parseFloat(this.$("#replay-speed").value) });
  }

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
  }

  /** A sandbox game from the replay's position (the server's fork); this browser holds both seats. */
  async fork() {
    const version = this.replay?.frame?.version;
    if (!version) return;
    const headers = { "Content-Type": "application/json", ...this.authHeaders() };
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
  }

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
  }

  // -- undo, draw, resign ----------------------------------------------------------------------
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
  }

  undoPolicy() {
    return this.welcome?.options?.undo || this.info.options?.undo;
  }

  async sendChat(e) {
    e.preventDefault();
    const input = e.target.querySelector("input");
    const text = input.value.trim();
    if (!text || !this.seat || !this.live()) return;
    const reply = await this.act({ type: "chat", text });
    if (reply?.type === "ack") input.value = "";
  }

  offerDraw() {
    if (!this.seat || !this.live()) return;
    this.act({ type: "draw_offer" }).then((r) => r?.type === "ack" && this.toast("Draw offered.", "info"));
  }

  resignDialog() {
    if (!this.seat || !this.live()) return;
    this.dialog("resign", h("h3", {}, "Resign?"), h("p", {}, "The game ends and your opponent wins."),
      h("div", { class: "actions" },
        h("button", { class: "danger", id: "resign-confirm", onclick: () => { this.closeDialog(); this.act({ type: "resign" }); } }, "Resign"),
        h("button", { onclick: () => this.closeDialog() }, "Cancel")));
  }

  /** The opponent, whom the game waits for, has been silent past the game's limit (ms left; <= 0: now). */
  silenceLeft() {
    const s = this.board.session;
    const limit = this.welcome?.options?.silence_seconds ?? this.info.options?.silence_seconds;
    const waited = this.board.toAct();
    if (!this.seat || !waited || waited === this.seat || limit == null || !s.waiting_since) return Infinity;
    return s.waiting_since + limit * 1000 - Date.now();
  }

  claimDialog() {
    if (!this.seat || !this.live()) return;
    this.dialog("claim", h("h3", {}, "Claim the game?"),
      h("p", {}, `${SIDE_NAME[this.board.toAct()]} has been silent longer than this game allows: the game ends and you win it.`),
      h("div", { class: "actions" },
        h("button", { class: "danger", id: "claim-confirm", onclick: () => { this.closeDialog(); this.act({ type: "claim" }); } }, "Claim"),
        h("button", { onclick: () => this.closeDialog() }, "Cancel")));
  }

  dialog(key, ...content) {
    this.dialogKey = key;
    this.$("#dialog").replaceChildren(...content);
    this.$("#dialog").dataset.key = key;
    this.$("#dialog-backdrop").classList.remove("hidden");
  }

  closeDialog() {
    this.dialogKey = null;
    this.$("#dialog-backdrop").classList.add("hidden");
  }

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
          h("p", { class: "muted" }, `Dice seed revealed: ${s.finished.seed?.slice(0, 16)}… — every roll can be checked with bluegray verify.`),
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

  toggleNumbers() {
    this.map.showNumbers(!this.map.numbersShown);
    this.$("#numbers-toggle").classList.toggle("on", this.map.numbersShown);
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
      if (w.options.spectator_delay) bits.push(`spectators ${w.options.spectator_delay} events behind`);
      if (w.options.spectator_delay_phases) bits.push(`spectators ${w.options.spectator_delay_phases} phase(s) behind`);
      rows.push(h("div", { class: "options muted", id: "options" }, bits.join(" · ")));
      if (w.dice === "insecure") rows.push(h("div", { class: "warn" }, "Fixed dice seed: a test game, its rolls are predictable."));
    }
    rows.push(h("div", { class: "vp", id: "vp" }, `VP: Union ${st.vp.union ?? 0} · Confederate ${st.vp.confederate ?? 0}`, st.result ? h("b", {}, ` · ${st.result}`) : ""));
    if (s.undo) rows.push(h("div", { class: "note", id: "undo-note" }, `${SIDE_NAME[s.undo.seat]} asked to take back ${s.undo.takes_back.length} action(s)`,
      s.undo.seat === this.seat ? h("button", { id: "undo-withdraw", onclick: () => this.act({ type: "undo_withdraw", request: s.undo.request }) }, "Withdraw") : " — waiting for an answer"));
    if (s.draw) rows.push(h("div", { class: "note" }, `${SIDE_NAME[s.draw.seat]} offered a draw`));
    this.$("#status").replaceChildren(...rows);
  }

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
      const from = b.state.positions[sel.unit];
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
  }

  renderAction(c) {
    const b = this.board;
    const el = this.$("#action");
    const out = [];
    const s = b.session;
    if (this.replay) {
      el.replaceChildren(h("p", { class: "note", id: "replaying" }, "Replaying: the map shows the game at the replay's position; live events keep arriving. Press Back to live (L) to play on."));
      return;
    }
    if (b.lastCombat && b.state.phase === "combat") out.push(dieView(b.lastCombat, b));
    if (!this.seat) {
      const p = b.state.pending[0];
      if (p) out.push(h("p", { class: "muted" }, pendingText(p, b)));
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
      el.replaceChildren(...out);
      return;
    }
    if (!c) {
      out.push(h("p", { class: "muted" }, this.live() ? "Your move — receiving your choices…" : "Your move — waiting for the connection."));
      el.replaceChildren(...out);
      return;
    }
    if (c.decision) out.push(this.decisionView(c.decision));
    else if (b.state.phase === "movement") out.push(this.movementView(c));
    else if (b.state.phase === "combat") out.push(this.combatView(c));
    el.replaceChildren(...out);
  }

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
      out.push(h("p", { class: `selected-unit${loading ? " loading" : ""}`, id: "selected-unit", html: `${counterIcon(u, 30, this.marksOf(sel.unit))} <b>${esc(u.designation)}</b> ${u.strength} ${u.type}${sel.mode === "strategic" ? " — <b>strategic movement (6.4)</b>" : ""}` }));
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
    }
    if (!sel) out.push(...this.revisedMovement(c));
    if (!c.may_end_phase && c.end_phase_refused) out.push(h("p", { class: "warn" }, `The phase may not end yet (${c.end_phase_refused.case}): ${c.end_phase_refused.message}`));
    return h("div", {}, out);
  }

  /** The marks a unit's counter shows (for icons in the panel). */
  marksOf(u) {
    const st = this.shown.state;
    return { moved: st.moved.includes(u), ineffective: st.ineffective.includes(u), attacked: st.attacked.includes(u), morale: st.morale?.[u] || "", rally: (st.rallying || []).includes(u) };
  }

  unitLabel(u) {
    const b = this.board;
    const lv = b.state.morale?.[u];
    return `${b.name(u)} (${b.units[u]?.strength}${lv ? `, ${MORALE_NAME[lv]}` : ""}) in ${b.state.positions[u] || "—"}`;
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

  /** The exits `unit` may make now (a battle's exits, Chickamauga 18.0): one button per exit hex. */
  exitButtons(c, unit) {
    const found = c.exits?.[unit] || {};
    return Object.keys(found).sort().map((hex) => h("button", {
      class: "small exit", id: `exit-${unit}-${hex}`, "data-unit": unit, "data-hex": hex, disabled: this.busy,
      onclick: () => { this.selection = null; this.command({ type: "exit_map", unit, path: found[hex].path }); },
    }, `Exit the map at ${hex} (${found[hex].cost} MP)`));
  }

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
  }

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
  }

  /** Show a facing on the map while the pointer is on its button. */
  previewFacing(hex, facing) {
    if (!hex) return;
    const works = { ...(this.board.state.breastworks || {}), [hex]: { status: "breastworks", side: this.seat, facing } };
    this.map.drawWorks(works);
  }

  combatView(c) {
    const b = this.board;
    const sel = this.selection?.mode === "attack" ? this.selection : null;
    const out = [h("h3", {}, "Combat")];
    if (c.rout?.length && !sel) {
      out.push(h("details", { class: "revised-choice", id: "rout-choice" },
        h("summary", {}, `Voluntary rout (12.16): ${c.rout.length} Shaken unit(s)`),
        h("p", { class: "muted" }, "Shaken units that did not move may be turned Routed now, before any attack (they then owe no attack)."),
        ...this.pickUnits(`rout:${b.version}`, c.rout, { id: "voluntary-rout", verb: "Rout these units", send: (units) => this.command({ type: "voluntary_rout", units }) })));
    }
    if (c.remove_breastworks?.length && !sel) out.push(this.removeBreastworksChoice(c.remove_breastworks));
    if (!c.attacks?.length) {
      out.push(h("p", {}, "No attack may be declared now."));
    } else if (!sel) {
      out.push(h("p", {}, `${new Set(c.attacks.flatMap((o) => o.defenders)).size} enemy hex(es) may be attacked (red rings; “must”: an attack owed). Click one to plan an attack.`));
    } else if (!sel.option) {
      const wider = c.attacks.filter((o) => sel.defenders.every((d) => o.defenders.includes(d)));
      out.push(h("p", {}, `${sel.defenders.join(" + ")} may not be attacked alone. Attack it together with:`),
        h("ul", {}, wider.map((o) => h("li", {}, h("button", { onclick: () => this.startAttack(c.attacks, o.defenders) }, o.defenders.join(" + "))))));
    } else {
      const o = sel.option;
      const match = this.attackMatch(sel);
      out.push(h("p", {}, h("b", {}, "Defending: "), o.defending.map((u) => `${b.name(u)} (${b.units[u].strength})`).join(", "), ` in ${o.defenders.join(", ")}`, o.owed ? h("span", { class: "warn" }, " — must be attacked") : ""));
      const groups = Object.entries(o.groups).map(([hx, g]) => {
        const on = g.bombarding ? sel.bombard.has(hx) : sel.hexes.has(hx);
        // Revised 8.22, 9.14: a stack's units may attack separately: a box for each
        const each = o.separate && g.units.length > 1 ? h("ul", { class: "stack-units" }, g.units.map((u) =>
          h("li", {}, h("label", {},
            h("input", { type: "checkbox", class: "attack-unit", checked: on && !sel.left.has(u), "data-unit": u, onchange: () => { this.toggleUnit(sel, hx, u); this.render(); } }),
            ` ${b.name(u)} (${b.units[u].strength})`)))) : "";
        return h("li", {},
          h("label", {},
            h("input", { type: "checkbox", checked: on, "data-hex": hx, onchange: () => { this.toggleGroup(sel, hx); this.render(); } }),
            ` ${hx}: ${g.units.map((u) => b.name(u)).join(", ")} — ${g.strength}${g.bombarding ? " (bombarding)" : ""}`), each);
      });
      out.push(h("p", {}, h("b", {}, o.separate ? "Attacking (click hexes on the map, or tick hexes or single units: 8.22):" : "Attacking (click hexes on the map, or tick):")), h("ul", { class: "groups" }, groups));
      const built = this.breakdownOf(sel);
      if (match) {
        const allBombard = o.bombard.length && o.bombard.every((x) => sel.bombard.has(x)) && !o.bombard.some((x) => o.groups[x].units.some((u) => sel.left.has(u)));
        // a part of the bombardment: the server's breakdown gives its odds
        const odds = sel.bombard.size === 0 ? match.odds : allBombard ? match.odds_with_bombardment : built?.breakdown?.odds || null;
        out.push(h("div", { class: "odds", id: "odds" },
          h("span", {}, `${match.attack}${sel.bombard.size ? " + bombardment" : ""} against ${match.defence} (terrain included)`),
          h("b", {}, odds ? `Odds ${odds}` : "Odds: computed on declaring")));
        if (odds) out.push(this.chancesLine(odds));
        out.push(h("button", { class: "primary", id: "declare", disabled: this.busy, onclick: () => this.declareAttack() }, "Declare attack"));
      } else {
        out.push(h("p", { class: "warn" }, "These units may not make this attack together (every unit that must join, or a feasible set). Ready-made choices:"));
      }
      if (this.attackersOf(sel).length) out.push(this.breakdownView(built));
      out.push(h("ul", { class: "adjacent" }, o.adjacent.map((a) =>
        h("li", {}, h("button", { class: "link", onclick: () => { this.chooseAdjacent(sel, a); this.render(); } }, a.units?.length ? a.units.map((u) => b.name(u)).join(" + ") : a.hexes.length ? a.hexes.join(" + ") : "bombardment only"), ` ${a.attack} vs ${a.defence}: ${a.odds || "—"}${a.odds_with_bombardment ? ` (with all bombardment ${a.odds_with_bombardment})` : ""}`))));
      out.push(h("button", { onclick: () => { this.selection = null; this.render(); } }, "Cancel ", h("kbd", {}, "Esc")));
    }
    if (!c.may_end_phase && c.end_phase_refused) out.push(h("p", { class: "warn" }, `The phase may not end yet (${c.end_phase_refused.case}): ${c.end_phase_refused.message}`));
    return h("div", {}, out);
  }

  decisionView(d) {
    const b = this.board;
    if (d.type === "resolve") {
      const a = d.attack;
      const column = h("select", { id: "column", onchange: () => this.$("#chances").replaceWith(this.chancesLine(column.value)) },
        d.columns.map((col, i) => h("option", { value: col }, i ? `${col} (reduced, 7.9)` : `${col} (the odds)`)));
      return h("div", { class: "decision" }, h("h3", {}, "Resolve the attack"),
        h("p", {}, `${a.attackers.map((u) => b.name(u)).join(", ")}${a.bombarding?.length ? ` with ${a.bombarding.map((u) => b.name(u)).join(", ")} bombarding` : ""} against ${a.defending.map((u) => b.name(u)).join(", ")} in ${a.defenders.join(", ")}.`),
        h("div", { class: "odds", id: "odds" }, h("span", {}, `${a.attack} against ${a.defence}`), h("b", {}, `Odds ${a.odds}`)),
        h("label", { class: "field" }, h("span", {}, "Resolve on the column"), column),
        this.chancesLine(d.columns[0]),
        h("button", { class: "primary", id: "roll", disabled: this.busy, onclick: () => { const col = column.value; this.command({ type: "resolve_attack", ...(col !== a.odds ? { odds: col } : {}) }); } }, "🎲 Roll the die"));
    }
    if (d.type === "retreat") {
      return h("div", { class: "decision" }, h("h3", {}, `Retreat ${b.name(d.unit)}`),
        h("p", {}, `From ${d.hex}: click a shaded hex on the map, or choose:`),
        h("ul", {}, d.options.map((o) => h("li", {}, h("button", { class: "retreat-option", "data-to": o.to, onclick: () => this.command({ type: "retreat", unit: d.unit, to: o.to, ...(o.displace ? { displace: o.displace } : {}) }) },
          `${o.to}${o.displace ? ` (displacing ${b.name(o.displace)}, 7.8)` : ""}${o.eliminated ? " (eliminated)" : ""}`)))),
        d.optional ? h("button", { id: "decline", onclick: () => this.command({ type: "decline" }) }, "Stay (decline the retreat)") : "");
    }
    if (d.type === "exchange_losses") {
      const head = b.state.pending[0];
      const result = b.lastCombat?.result;
      let title = "Exchange: choose your losses";
      let text = `Lose units whose printed strengths total at least ${d.at_least} (7.6 Ex):`;
      if (head?.kind === "exchange_losses" && head.then_lose?.length) {
        title = "Ex*: choose the defending unit eliminated";
        text = "Pick one defending unit (8.6 Ex*); then your attackers lose at least its printed strength:";
      } else if (head?.kind === "exchange_losses" && head.side !== b.state.phasing) {
        title = "Ae*: the attacker loses one unit — you choose it";
        text = "Pick the attacking unit that is eliminated (8.6 Ae*):";
      } else if (result === "Ex*") {
        title = "Ex*: now your own losses";
        text = `Lose attacking units whose printed strengths total at least ${d.at_least} (8.6 Ex*, 12.26):`;
      }
      return h("div", { class: "decision", id: "losses-decision" }, h("h3", {}, title),
        h("p", {}, text),
        h("ul", {}, d.options.map((set) => h("li", {}, h("button", { class: "loss-option", onclick: () => this.command({ type: "exchange_losses", units: set }) }, set.map((u) => `${b.name(u)} (${b.units[u].strength})`).join(" + "))))));
    }
    if (d.type === "advance") {
      return h("div", { class: "decision" }, h("h3", {}, "Advance after combat (7.75)"),
        h("ul", {}, d.options.map((o) => h("li", {}, h("button", { class: "advance-option", onclick: () => this.command({ type: "advance", unit: o.unit, to: o.to }) }, `${b.name(o.unit)} → ${o.to}`)))),
        h("button", { id: "decline", onclick: () => this.command({ type: "decline" }) }, "Do not advance"));
    }
    if (d.type === "rally") {
      return h("div", { class: "decision", id: "rally-decision" }, h("h3", {}, "Rally (12.41)"),
        h("p", {}, "Before any attack, the rally die is rolled for each unit with a Rally marker:"),
        h("ul", {}, d.units.map((u) => h("li", { html: `${counterIcon(b.units[u], 26, this.marksOf(u))} ${esc(this.unitLabel(u))}` }))),
        h("button", { class: "primary", id: "roll-rally", disabled: this.busy, onclick: () => this.command({ type: "roll_rally" }) }, "🎲 Roll the rally dice"));
    }
    if (d.type === "before_combat" && d.kind === "terrain") {
      const words = { forest: "the forest shift alone (one column left)", terrain: "the other terrain benefits (halving and shifts)" };
      return h("div", { class: "decision", id: "terrain-decision" }, h("h3", {}, "Your terrain (8.45)"),
        h("p", {}, "You are attacked in a hex where the forest shift and the other terrain benefits give different odds: choose one."),
        this.pendingAttackLine(),
        h("ul", {}, d.options.map((o) => h("li", {}, h("button", { class: "terrain-option", "data-option": o, disabled: this.busy, onclick: () => this.command({ type: "choose_terrain", option: o }) }, words[o] ? `${cap(o)}: ${words[o]}` : o)))));
    }
    if (d.type === "before_combat") {
      const cavalry = d.kind === "cavalry";
      const none = () => this.command({ type: "retreat_before_combat", units: [] });
      none.label = cavalry ? "Stand and defend" : "Retreat none";
      return h("div", { class: "decision", id: "before-combat-decision" },
        h("h3", {}, cavalry ? "Cavalry retreat before combat (8.77)" : "Routed defenders: retreat before combat (12.34)"),
        h("p", {}, cavalry ? "Your cavalry is attacked: name any of it to retreat two hexes before the die (a die of 1-5: they go; 6: they stay and defend)." : "Name any of the defender's Routed units to retreat two hexes before the die."),
        this.pendingAttackLine(),
        ...this.pickUnits(`before:${b.version}`, d.units, { id: "retreat-before-combat", verb: "Retreat before combat", send: (units) => this.command({ type: "retreat_before_combat", units }), none }));
    }
    // Anything else the server offers: show what it is, so the player at least knows what is awaited.
    return h("div", { class: "decision", id: "generic-decision" }, h("h3", {}, `Decision: ${d.type}${d.kind ? ` (${d.kind})` : ""}`),
      h("pre", { class: "muted" }, JSON.stringify(d, null, 1).slice(0, 600)));
  }

  /** How the odds of the attack being built are made (the server's `combat` reply): each unit's
   * printed strength and each modifier with its case, the totals, the column of the ratio, the column
   * shifts, the odds and the die modifier, and what is still to come. The client computes none of it. */
  breakdownView(got) {
    if (!got) return h("div", { class: "breakdown muted", id: "breakdown" }, "Working out how the odds are built…");
    if (got.refused) return h("p", { class: "warn breakdown", id: "breakdown" }, `Not as it stands (${got.refused.case}): ${got.refused.message}`);
    const bd = got.breakdown;
    const b = this.board;
    const ROLE = { adjacent: "", bombarding: " bombarding", defending: "", passive: " attacked before: adds nothing" };
    const line = (x) => h("li", { class: `unit-strength ${x.role}`, "data-unit": x.unit, "data-strength": x.strength },
      h("span", { class: "who" }, `${b.name(x.unit)} (${x.hex})${ROLE[x.role] || ""}: `),
      h("span", { class: "printed" }, `${x.printed}`),
      ...(x.modifiers || []).map((m) => h("span", { class: "modifier", "data-case": m.case, title: `${m.before} ${m.factor} = ${m.after}` },
        ` ${m.factor.replace("x", "×")} ${m.what} `, h("span", { class: "case" }, `(${m.case})`), ` → ${m.after}`)),
      (x.modifiers || []).length || x.role === "passive" ? h("b", {}, ` = ${x.strength}`) : "");
    const shifts = bd.shifts || [];
    return h("details", { class: "breakdown", id: "breakdown", open: true, "data-odds": bd.odds },
      h("summary", {}, `How the odds are built: ${bd.attack} to ${bd.defence}, ${bd.odds}`),
      h("p", { class: "side-total" }, h("b", {}, `Attack ${bd.attack}`)),
      h("ul", { class: "strengths attack" }, bd.attackers.map(line)),
      h("p", { class: "side-total" }, h("b", {}, `Defence ${bd.defence}`)),
      h("ul", { class: "strengths defence" }, bd.defenders.map(line)),
      h("p", { class: "ratio" }, `${bd.attack} to ${bd.defence} reads ${bd.ratio} on the table (${bd.table_case})`),
      shifts.length ? h("ul", { class: "shifts" }, shifts.map((x) => h("li", { class: "shift", "data-case": x.case, "data-columns": x.columns },
        `${Math.abs(x.columns)} column${Math.abs(x.columns) > 1 ? "s" : ""} ${x.columns < 0 ? "left" : "right"}: ${x.what} `, h("span", { class: "case" }, `(${x.case})`)))) : "",
      h("p", { class: "final" }, h("b", {}, `Odds ${bd.odds}`), bd.die_modifier ? `, ${bd.die_modifier} subtracted from the die (8.61)` : ""),
      (bd.later || []).length ? h("ul", { class: "later" }, bd.later.map((n) => h("li", { "data-case": n.case }, `Then: ${n.what} `, h("span", { class: "case" }, `(${n.case})`)))) : "");
  }

  /** The chance of each result on an odds column (the server's glance: the die rows of the table in
   * force out of six), worst for the attacker first. */
  chancesLine(column) {
    const dist = this.board.glance?.chances?.[column];
    if (!dist) return h("p", { class: "muted", id: "chances" });
    const parts = Object.entries(dist).map(([r, p]) => h("span", { class: "chance", "data-result": r, title: RESULT_TEXT[r] || r }, `${r} ${Math.round(p * 100)}%`));
    return h("p", { class: "chances", id: "chances", "data-column": column }, `On ${column}: `, ...parts.flatMap((x, i) => (i ? [" · ", x] : [x])));
  }

  pendingAttackLine() {
    const b = this.board;
    const a = b.state.pending.find((p) => p.kind === "attack");
    if (!a) return "";
    return h("p", { class: "muted" }, `${a.attackers.map((u) => b.name(u)).join(", ")} against ${a.defending.map((u) => b.name(u)).join(", ")} in ${a.defenders.join(", ")}: ${a.attack} vs ${a.defence}, odds ${a.column}`);
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
    this.$("#resign").disabled = off;
    const left = this.silenceLeft();
    const claimable = !off && left <= 0;
    this.$("#claim").classList.toggle("hidden", !claimable);
    // The silence runs out with no event to say so: look again when it will have.
    clearTimeout(this.claimTimer);
    if (!claimable && left < 2 ** 31 - 1) this.claimTimer = setTimeout(() => this.renderControls(this.validChoices()), Math.max(left, 0) + 500);
  }

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
  }

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
      works ? h("p", { id: "hex-works" }, works.status === "building" ? "Breastworks under construction (10.34)" : `${works.status === "trench" ? "Trench" : "Breastworks"} facing ${works.facing.join(", ")}`) : "",
    );
  }

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
      else status = `turn ${u.arrives} at ${u.entry.join(", ")}`;
      return h("li", {},
        h("span", { html: counterIcon(u, 26) }), ` ${u.designation} `,
        status ? h("small", { class: "muted" }, status) : h("button", { class: "small enter", "data-unit": u.id, onclick: () => this.selectUnit(u.id, "enter") }, "Enter"));
    });
    const sides = [...new Set(late.map((u) => u.side))];
    el.replaceChildren(h("h3", {}, sides.length === 1 ? `${SIDE_NAME[sides[0]]} reinforcements` : "Reinforcements"), h("ul", { class: "reinf" }, items));
  }
}

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

/** A selection that moves a unit (as opposed to planning an attack). */
function isMove(sel) {
  return !!sel && (sel.mode === "move" || sel.mode === "enter" || sel.mode === "strategic");
}

/** The reach cache's key of a unit and how it goes ("move", "enter", "strategic"), and back. */
function reachKey(how, unit) {
  return `${how} ${unit}`;
}

function splitReachKey(key) {
  const at = key.indexOf(" ");
  return [key.slice(0, at), key.slice(at + 1)];
}

function combatKey(attackers, defenders) {
  return `combat|${attackers.join(",")}|${defenders.join(",")}`;
}

function findOption(options, defenders) {
  const key = [...defenders].sort().join(",");
  return options.find((o) => [...o.defenders].sort().join(",") === key) || null;
}

/** A cost in movement points as the server sends it: a whole number, or an exact fraction "n/d"
 * (revised 6.22: turnpike hexes cost 2/3). Its value, for sorting and shading; shown as sent. */
export function mpValue(cost) {
  if (typeof cost === "number") return cost;
  const [n, d] = String(cost).split("/").map(Number);
  return d ? n / d : n;
}

function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
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
    case "rally":
      return `${who} rolls the rally dice (12.41).`;
    case "before_combat":
      return p.what === "terrain" ? `${who} chooses his terrain benefit (8.45).` : p.what === "cavalry" ? `${who} decides whether his cavalry retreats before combat (8.77).` : `${who} decides whether Routed defenders retreat before combat (12.34).`;
    default:
      return `Waiting for ${who}.`;
  }
}

const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };

function dieView(r, b) {
  const pips = (PIPS[r.die] || []).map(([x, y]) => `<circle cx="${x * 10}" cy="${y * 10}" r="3.6"/>`).join("");
  return h("div", { class: "combat-result", id: "combat-result" },
    h("span", { class: "die", title: `die ${r.die}`, html: `<svg width="40" height="40" viewBox="0 0 40 40"><rect x="1" y="1" width="38" height="38" rx="7" fill="#fff" stroke="#222" stroke-width="2"/>${pips}</svg>` }),
    h("div", {},
      h("b", { class: "result-code" }, `${r.result}`), ` ${RESULT_TEXT[r.result] || ""}`, h("br"),
      h("small", {}, `Die ${r.die} on ${r.column} (odds ${r.odds}); ${r.attackers.map((u) => b.name(u)).join(", ")} vs ${r.defending.map((u) => b.name(u)).join(", ")}`)));
}

export { SIDE_STYLE };
