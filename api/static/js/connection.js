// The websocket to /ws: hello (seat token or spectate, with the last version the board has), then
// events, snapshots, choices, reach replies, acks and errors. It reconnects by itself after a drop (backing off),
// asking for what it missed; actions in flight are sent again with the same command_id, which the
// server answers with the original outcome. `onState` hears "connecting", "live", "reconnecting",
// "offline" and "gone" (the server will not serve this game any more).

export function randomId(n = 20) {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  return Array.from(bytes, (b) => abc[b % abc.length]).join("");
}

export class Connection {
  /** `hello()` returns the hello fields (game_id, token or spectate, last_version). */
  constructor({ hello, onMessage, onState }) {
    this.hello = hello;
    this.onMessage = onMessage;
    this.onState = onState;
    this.ws = null;
    this.state = "connecting";
    this.attempt = 0;
    this.closed = false;
    this.pending = new Map(); // command_id -> {message, resolve}
    this.timer = null;
    window.addEventListener("online", () => this._soon(0));
    window.addEventListener("offline", () => this._setState("offline"));
  }

  open() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this._setState(this.attempt ? "reconnecting" : "connecting");
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this._retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", choices: true, ...this.hello() }));
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        this.attempt = 0;
        this._setState("live");
        for (const p of this.pending.values()) ws.send(JSON.stringify(p.message)); // same command_id
      }
      if ((msg.type === "ack" || msg.type === "error") && msg.command_id && this.pending.has(msg.command_id)) {
        const p = this.pending.get(msg.command_id);
        this.pending.delete(msg.command_id);
        p.resolve(msg);
      }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (e.code === 4004) {
        this._setState("gone", e.reason);
        return;
      }
      this._retry(e.code === 4009 ? 5000 : null);
    };
    ws.onerror = () => {};
  }

  _retry(delay = null) {
    this.attempt += 1;
    const wait = delay ?? Math.min(8000, 400 * 2 ** Math.min(this.attempt - 1, 5)) * (0.75 + Math.random() * 0.5);
    this._setState(navigator.onLine === false ? "offline" : "reconnecting");
    this._soon(wait);
  }

  _soon(ms) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), ms);
  }

  /** Drop the socket now (as a network failure would); it reconnects by itself. */
  drop() {
    if (this.ws) this.ws.close(4000, "dropped by the client");
  }

  /** The server will not serve this game (not_found, unauthorized): stop for good, say why. */
  gone(reason) {
    this.close();
    this._setState("gone", reason);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close(1000, "bye");
  }

  /** Send a message that is not an action (no command_id, never resent): true if it went out now. */
  send(message) {
    if (this.state !== "live" || !this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Ask where `unit` may go now (`how`: "move", "enter", "strategic"): the server answers with a
   * `reach` message for the version of the choices it computed it for. */
  reach(unit, how = "move") {
    return this.send({ type: "reach", unit, how });
  }

  /** Ask how the odds of declaring `attackers` against `defenders` now are built: the server answers
   * with a `combat` message (the breakdown, or the refusal) for the version of its choices. */
  combat(attackers, defenders) {
    return this.send({ type: "combat", attackers, defenders });
  }

  /** Send an action; resolves with its ack or error (after reconnects if need be). */
  act(message) {
    const command_id = message.command_id || randomId();
    const full = { ...message, command_id };
    return new Promise((resolve) => {
      this.pending.set(command_id, { message: full, resolve });
      if (this.state === "live" && this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(full));
    });
  }

  _setState(state, detail = "") {
    this.state = state;
    this.onState(state, detail);
  }
}
