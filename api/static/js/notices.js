// Telling the player: toasts, a refusal with its rule, the news a record line brings, the tab's
// title and icon, the opt-in tone and browser notification.
// Methods of the game page (GameView, game.js), mixed into it there: `this` is the page.

import { h } from "./api.js";
import { finishText, SIDE_NAME } from "./model.js";

export const Notices = {
  /** News a new record line brings (never on a load: only lines that came as a change). */
  announce(kind, seat) {
    if (kind === "chat" && seat !== this.seat && document.hidden) this.unread += 1;
    if (kind === "undo_requested" && this.seat && seat !== this.seat) this.tell("Undo asked", `${SIDE_NAME[seat]} asks to take back an action.`);
    if (kind === "game_finished") this.tell("Game over", this.board.session.finished ? finishText(this.board.session.finished) : "The game is over.");
    if (kind === "undo_accepted") this.toast("Undo accepted: the board is back as it was.", "info");
    else if (kind === "undo_declined" && this.seat && seat !== this.seat) this.toast("Your undo request was declined.", "info");
    else if (kind === "draw_declined" && this.seat && seat !== this.seat) this.toast("Your draw offer was declined.", "info");
  },

  toast(text, kind = "info", ms = 4500) {
    const t = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
    const box = this.$("#toasts");
    box.append(t);
    this.placeToasts();
    setTimeout(() => t.remove(), ms);
  },

  /** Opt in or out of being told (a sound and a browser notification) when it matters. */
  setNotify(on) {
    localStorage.setItem("bluegray.notify", on ? "1" : "0");
    if (on && "Notification" in window && Notification.permission === "default") Notification.requestPermission?.();
  },

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
  },

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
  },

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
  },

  showError(m) {
    if (m.code === "illegal") this.toast(`Rule ${m.case || "?"}: ${m.message}`, "error illegal", 8000);
    else if (m.code === "conflict") this.toast("The game moved on meanwhile: the board is up to date now, look again.", "info");
    else if (m.code === "not_your_turn") this.toast(`Not your turn: ${m.message}`, "error");
    else this.toast(`${m.code}: ${m.message}`, "error");
  },
};
