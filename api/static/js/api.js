// HTTP helpers and this browser's seats (tokens are kept in localStorage, per game).

export async function getJSON(url) {
  const r = await fetch(url, { headers: { Accept: "application/json" } });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body?.error?.message || `${url}: HTTP ${r.status}`);
  return body;
}

export async function postJSON(url, data) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body?.error?.message || `${url}: HTTP ${r.status}`);
  return body;
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
