// HTTP helpers and this browser's seats (tokens are kept in localStorage, per game).

export async function getJSON(url) {
  const r = await fetch(url, { headers: { Accept: "application/json" } });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body?.error?.message || `${url}: HTTP ${r.status}`);
  return body;
}

export async function postJSON(url, data) {
  return sendJSON("POST", url, data);
}

/** A changing request: JSON in and out, with the session's CSRF token when signed in. */
export async function sendJSON(method, url, data) {
  const r = await fetch(url, { method, headers: { "Content-Type": "application/json", ...csrfHeader() }, body: data === undefined ? undefined : JSON.stringify(data) });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body?.error?.message || `${url}: HTTP ${r.status}`);
  return body;
}

// The signed-in account (GET /api/session): {id, name, kind, csrf}, or null. Every changing request of
// a signed-in browser carries its csrf as X-CSRF-Token (docs/PROTOCOL.md "Accounts").
let account = null;

export async function signedIn() {
  account = (await getJSON("/api/session")).account; // 200 whether or not signed in
  return account;
}

export function setAccount(found) {
  account = found;
}

export function csrfHeader() {
  return account ? { "X-CSRF-Token": account.csrf } : {};
}

const KEY = "bluegray.seats";

/** {game_id: {seat, token, invite_url?, scenario, at}} */
export function seats() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

export function seatOf(gameId) {
  return seats()[gameId] || null;
}

export function saveSeat(gameId, seat) {
  const all = seats();
  all[gameId] = { ...(all[gameId] || {}), ...seat, at: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function forgetSeat(gameId) {
  const all = seats();
  delete all[gameId];
  localStorage.setItem(KEY, JSON.stringify(all));
}

const scenarioCache = new Map();
export function scenario(id) {
  if (!scenarioCache.has(id)) scenarioCache.set(id, getJSON(`/api/scenarios/${encodeURIComponent(id)}`));
  return scenarioCache.get(id);
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "html") el.innerHTML = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}
