// The player's account in the lobby: sign up or log in; once signed in, his ratings, his games with
// the ones waiting for him ("your move", also in the page title), the open seeks to accept, his
// challenges (received: accept or decline; sent: withdraw), a seek or a challenge to post (to a
// player or to the computer: Computer-easy, -normal, -hard), and how he is notified.
// docs/PROTOCOL.md "Accounts", "Lobby", "Ratings", "Notifications".

import { getJSON, h, sendJSON, setAccount, signedIn } from "./api.js";
import { SIDE_NAME } from "./model.js";

export async function accountCard(card, scenarios) {
  const me = await signedIn().catch(() => null);
  if (!me) return signInForms(card);
  card.replaceChildren(
    h("h2", {}, "Signed in as ", h("span", { id: "me-name" }, me.name)),
    h("p", {}, h("a", { href: `/players/${encodeURIComponent(me.name)}`, id: "my-page" }, "Your page: ratings and games")),
    h("div", { class: "actions" }, h("button", { type: "button", id: "log-out", onclick: logOut }, "Log out")),
    h("p", { id: "me-rating", class: "muted" }, "Rating: …"),
    h("h3", {}, "Your move ", h("span", { class: "badge", id: "your-move-count" }, "…")),
    h("ul", { class: "games", id: "account-games" }),
    h("h3", {}, "Open seeks"),
    h("ul", { class: "games", id: "seeks" }),
    h("h3", {}, "Challenges"),
    h("ul", { class: "games", id: "challenges" }),
    seekForm(scenarios),
    notificationsForm(),
  );
  await Promise.all([refreshRating(card, me), refreshGames(card), refreshSeeks(card, me)]);
}

async function refreshRating(card, me) {
  const { ratings } = await getJSON(`/api/players/${encodeURIComponent(me.name)}`);
  const books = Object.entries(ratings).filter(([which]) => !which.includes(":"));  // per rule set
  card.querySelector("#me-rating").textContent = books.length
    ? `Rating: ${books.map(([which, r]) => `${which} ${Math.round(r.rating)} ± ${Math.round(r.deviation)} (${r.games} game${r.games === 1 ? "" : "s"})`).join(" · ")}`
    : "Rating: none yet (play a rated game)";
}

function signInForms(card) {
  const say = h("p", { class: "error", id: "account-error", role: "alert" });
  const form = (id, title, button, url) => {
    const f = h("form", { id, class: "account-form" }, h("h3", {}, title),
      h("label", { class: "field" }, h("span", {}, "Name"), h("input", { name: "name", autocomplete: "username", required: true, minlength: "3", maxlength: "20" })),
      h("label", { class: "field" }, h("span", {}, "Password"), h("input", { name: "password", type: "password", autocomplete: id === "sign-up" ? "new-password" : "current-password", required: true, minlength: "8" })),
      h("div", { class: "actions" }, h("button", { type: "submit", class: "primary" }, button)));
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      const data = new FormData(f);
      try {
        setAccount(await sendJSON("POST", url, { name: data.get("name"), password: data.get("password") }));
        location.reload();
      } catch (err) {
        say.textContent = err.message;
      }
    });
    return f;
  };
  card.replaceChildren(h("h2", {}, "Your account"),
    h("p", { class: "muted" }, "An account keeps your games, finds you opponents and tells you when it is your move. Playing by invite link needs none."),
    form("log-in", "Log in", "Log in", "/api/session"), form("sign-up", "Sign up", "Create account", "/api/accounts"), say);
}

async function logOut() {
  await sendJSON("DELETE", "/api/session").catch(() => null);
  setAccount(null);
  location.reload();
}

function outcome(g) {  // a finished game, for the player: won, lost or drawn, and how
  if (g.winner === null || g.winner === undefined) return g.status;
  if (g.winner === "" && g.result === "aborted") return "aborted by an admin";
  return `${g.winner === "" ? "drawn" : g.winner === g.seat ? "won" : "lost"}${g.result ? ` (${g.result})` : ""}`;
}

async function refreshGames(card) {
  const ul = card.querySelector("#account-games");
  const { games } = await getJSON("/api/me/games?limit=50");
  const waiting = games.filter((g) => g.your_move).length;
  card.querySelector("#your-move-count").textContent = String(waiting);
  document.title = waiting ? `(${waiting}) Blue & Gray` : "Blue & Gray";
  ul.replaceChildren(...(games.length ? games.map((g) =>
    h("li", { class: g.your_move ? "yours" : "" }, h("a", { href: `/play/${g.game_id}`, class: "account-game" }, `${g.scenario} ${g.game_id}`),
      ` — you play ${SIDE_NAME[g.seat] || g.seat} · ${g.your_move ? "your move" : g.to_act ? `${SIDE_NAME[g.to_act]} to act` : outcome(g)}`)) :
    [h("li", { class: "muted" }, "No games yet: post a seek or accept one.")]));
}

function terms(p) {
  return `${p.scenario}, ${p.ruleset}, ${p.side === "random" ? "sides drawn" : `${p.by} plays ${SIDE_NAME[p.side]}`}${p.rated ? ", rated" : ""}${p.clock ? `, ${p.clock.mode}` : ""} `;
}

async function answer(card, me, url, method = "POST") {
  try {
    const started = await sendJSON(method, url, method === "POST" ? {} : undefined);
    if (started && started.game_id) return location.assign(`/play/${started.game_id}`);
  } catch (err) {
    card.querySelector("#seek-error").textContent = err.message;
  }
  refreshSeeks(card, me);
}

async function refreshSeeks(card, me) {
  const ul = card.querySelector("#seeks");
  const { seeks, challenges } = await getJSON("/api/lobby");
  card.querySelector("#challenges").replaceChildren(...(challenges.length ? challenges.map((c) =>
    h("li", { "data-challenge": c.id }, c.by === me.name ? `To ${c.opponent}: ${terms(c)}` : `From ${c.by}: ${terms(c)}`,
      ...(c.by === me.name
        ? [h("button", { type: "button", class: "withdraw", onclick: () => answer(card, me, `/api/lobby/${c.id}`, "DELETE") }, "Withdraw")]
        : [h("button", { type: "button", class: "accept primary", onclick: () => answer(card, me, `/api/lobby/${c.id}/accept`) }, "Accept"), " ",
          h("button", { type: "button", class: "decline", onclick: () => answer(card, me, `/api/lobby/${c.id}/decline`) }, "Decline")]))) :
    [h("li", { class: "muted" }, "No challenges.")]));
  ul.replaceChildren(...(seeks.length ? seeks.map((s) =>
    h("li", { "data-seek": s.id }, `${s.by}: ${terms(s)}`,
      s.by === me.name
        ? h("button", { type: "button", class: "withdraw", onclick: () => answer(card, me, `/api/lobby/${s.id}`, "DELETE") }, "Withdraw")
        : h("button", { type: "button", class: "accept primary", onclick: () => answer(card, me, `/api/lobby/${s.id}/accept`) }, "Accept"))) :
    [h("li", { class: "muted" }, "No open seeks.")]));
}

function seekForm(scenarios) {
  const f = h("form", { id: "seek-form", class: "account-form" }, h("h3", {}, "Propose a game"),
    h("label", { class: "field" }, h("span", {}, "Opponent"), h("input", { name: "opponent", list: "opponents", maxlength: "20", placeholder: "anyone (a seek), a player, or the computer" })),
    h("datalist", { id: "opponents" }, ["Computer-easy", "Computer-normal", "Computer-hard"].map((n) => h("option", { value: n }))),
    h("label", { class: "field" }, h("span", {}, "Battle"), h("select", { name: "scenario" }, scenarios.map((s) => h("option", { value: s.id }, s.battle || s.name)))),
    h("label", { class: "field" }, h("span", {}, "Your side"), h("select", { name: "side" }, [["random", "drawn when accepted"], ["union", "Union"], ["confederate", "Confederate"]].map(([v, t]) => h("option", { value: v }, t)))),
    h("label", { class: "field" }, h("span", {}, "Pace"), h("select", { name: "pace" }, [["", "no clock"], ["3", "correspondence: 3 days a turn"], ["7", "correspondence: 7 days a turn"]].map(([v, t]) => h("option", { value: v }, t)))),
    h("label", { class: "field" }, h("span", {}, "Rated"), h("input", { type: "checkbox", name: "rated", checked: true })),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary", id: "post-seek" }, "Propose")),
    h("p", { class: "error", id: "seek-error", role: "alert" }));
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(f);
    const pace = data.get("pace"), opponent = data.get("opponent").trim();
    try {
      const made = await sendJSON("POST", opponent ? "/api/challenges" : "/api/seeks", { scenario: data.get("scenario"), side: data.get("side"), rated: data.get("rated") === "on",
        ...(opponent ? { opponent } : {}), ...(pace ? { clock: { mode: "correspondence", days_per_turn: Number(pace) } } : {}) });
      if (made.game_id) return location.assign(`/play/${made.game_id}`);  // the computer accepted at once
      location.reload();
    } catch (err) {
      f.querySelector("#seek-error").textContent = err.message;
    }
  });
  return f;
}

/** Web Push on this device (docs/PROTOCOL.md "Web Push"): the service worker, a subscription to
 * the server's VAPID key, kept by the server for this account. */
async function pushSubscribe(f) {
  const said = f.querySelector("#notify-said");
  try {
    const { public_key } = await getJSON("/api/push-key");
    const raw = atob(public_key.replaceAll("-", "+").replaceAll("_", "/") + "=".repeat((4 - (public_key.length % 4)) % 4));
    const key = Uint8Array.from(raw, (c) => c.charCodeAt(0));
    const worker = await navigator.serviceWorker.register("/sw.js");
    if ((await Notification.requestPermission()) !== "granted") throw new Error("notifications are not allowed for this site");
    let sub;
    try {
      sub = await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    } catch (err) { // e.g. headless Chromium: "Registration failed - permission denied"
      throw new Error(`this browser could not subscribe to its push service (${err.message})`);
    }
    await sendJSON("POST", "/api/me/push", sub.toJSON());
    said.textContent = "This device will be notified.";
  } catch (err) {
    said.textContent = `Push not set up: ${err.message}.`;
  }
}

/** The "Notify me on this device" button, enabled only when the server has a VAPID key and this
 * browser has push; otherwise disabled, with the sentence saying why. */
async function offerPush(f) {
  const button = f.querySelector("#push-subscribe"), said = f.querySelector("#push-said");
  let why = null;
  try {
    await getJSON("/api/push-key");
    if (!("serviceWorker" in navigator && "PushManager" in window)) why = "This browser cannot receive push notifications: e-mail or a webhook can tell you instead.";
  } catch {
    why = "This server sends no push notifications (it has no VAPID key): e-mail or a webhook can tell you instead.";
  }
  button.disabled = !!why;
  said.textContent = why || "Push notifications reach this device even when no tab of the game is open.";
}

function notificationsForm() {
  const f = h("form", { id: "notify-form", class: "account-form" }, h("h3", {}, "Tell me it is my move"),
    h("label", { class: "field" }, h("span", {}, "E-mail"), h("input", { type: "email", name: "email", autocomplete: "email" })),
    h("label", { class: "field" }, h("span", {}, "Mail"), h("select", { name: "email_mode" }, [["digest", "one digest a day"], ["each", "at every move"], ["off", "never"]].map(([v, t]) => h("option", { value: v }, t)))),
    h("label", { class: "field" }, h("span", {}, "Webhook (Discord, Slack)"), h("input", { type: "url", name: "webhook" })),
    h("label", { class: "field" }, h("span", {}, "Remind me when my clock has less than this many hours left (correspondence; 0: never)"), h("input", { type: "number", name: "remind_hours", min: "0", max: "336", value: "24" })),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Save"),
      h("button", { type: "button", id: "push-subscribe", disabled: true, "aria-describedby": "push-said", onclick: () => pushSubscribe(f) }, "Notify me on this device")),
    h("p", { class: "muted", id: "push-said" }),
    h("p", { class: "muted", id: "notify-said", role: "status" }));
  offerPush(f);
  getJSON("/api/me/notifications").then((s) => {
    f.elements.email.value = s.email || "";
    f.elements.email_mode.value = s.email_mode || "digest";
    f.elements.webhook.value = s.webhook || "";
    f.elements.remind_hours.value = String(s.remind_hours ?? 24);
  }).catch(() => null);
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(f);
    try {
      const kept = await sendJSON("PUT", "/api/me/notifications", { email: data.get("email") || null, email_mode: data.get("email_mode"), webhook: data.get("webhook") || null, remind_hours: Number(data.get("remind_hours") || 0) });
      f.querySelector("#notify-said").textContent = kept.webhook_secret ? `Saved. Webhook signing secret: ${kept.webhook_secret}` : "Saved.";
    } catch (err) {
      f.querySelector("#notify-said").textContent = err.message;
    }
  });
  return f;
}
