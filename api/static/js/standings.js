// A player's page (/players/{name}: his ratings by rule set, battle and side; his games in progress,
// whose move, and finished, with the outcome; for a signed-in visitor, the block control, blocks.js)
// and a battle's leaderboard (/leaderboard/{ruleset}/{scenario}). docs/PROTOCOL.md "Ratings".

import { getJSON, h, signedIn } from "./api.js";
import { blockControl } from "./blocks.js";
import { SIDE_NAME } from "./model.js";

function header(title) {
  return h("header", { class: "site-header" }, h("h1", {}, title), h("p", {}, h("a", { href: "/" }, "← the lobby")));
}

function ratingRows(ratings) {
  return Object.entries(ratings).sort(([a], [b]) => a.localeCompare(b)).map(([which, r]) => {
    const [ruleset, scenario, side] = which.split(":");
    const board = scenario ? h("a", { href: `/leaderboard/${encodeURIComponent(ruleset)}/${encodeURIComponent(scenario)}` }, scenario) : "all battles";
    return h("tr", { "data-rating": which }, h("td", {}, ruleset), h("td", {}, board), h("td", {}, side ? SIDE_NAME[side] : "either"),
      h("td", { class: "n" }, String(Math.round(r.rating))), h("td", { class: "n" }, `± ${Math.round(r.deviation)}`), h("td", { class: "n" }, String(r.games)));
  });
}

function gameItem(g) {
  const how = g.outcome ? `${g.outcome}${g.result ? ` (${g.result})` : ""}` : g.to_act ? `${SIDE_NAME[g.to_act]} to act` : g.status;
  return h("li", { "data-game": g.game_id }, h("a", { href: `/watch/${g.game_id}` }, `${g.scenario} ${g.game_id}`), ` — as the ${SIDE_NAME[g.seat] || g.seat} · ${how}`);
}

export async function showPlayer(root, name) {
  document.title = `${name} · Blue & Gray`;
  root.replaceChildren(header(name), h("main", { class: "lobby" }, h("section", { class: "card", id: "player" }, h("p", { class: "muted" }, "Loading…"))));
  const card = root.querySelector("#player");
  let p;
  try {
    p = await getJSON(`/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    card.replaceChildren(h("p", { class: "error", role: "alert" }, e.message));
    return;
  }
  const rows = ratingRows(p.ratings);
  const playing = p.games.filter((g) => !g.outcome), done = p.games.filter((g) => g.outcome);
  const me = await signedIn().catch(() => null);
  const block = await blockControl(me, p.name).catch(() => null);
  card.replaceChildren(
    h("h2", {}, h("span", { id: "player-name" }, p.name), p.kind !== "player" ? ` (${p.kind})` : ""),
    block,
    h("h3", {}, "Ratings"),
    rows.length
      ? h("table", { id: "player-ratings" }, h("caption", { class: "muted" }, "Glicko-2: rating ± deviation, rated games"),
        h("tr", {}, ...["Rule set", "Battle", "Side", "Rating", "Deviation", "Games"].map((t) => h("th", { scope: "col" }, t))), ...rows)
      : h("p", { class: "muted", id: "player-ratings" }, "No rated game yet."),
    h("h3", {}, "Games in progress"),
    h("ul", { class: "games", id: "player-playing" }, ...(playing.length ? playing.map(gameItem) : [h("li", { class: "muted" }, "None.")])),
    h("h3", {}, "Finished games"),
    h("ul", { class: "games", id: "player-finished" }, ...(done.length ? done.map(gameItem) : [h("li", { class: "muted" }, "None.")])),
  );
}

export async function showLeaderboard(root, ruleset, scenario) {
  document.title = `Leaderboard: ${scenario} · Blue & Gray`;
  root.replaceChildren(header(`Leaderboard: ${scenario}, ${ruleset} rules`), h("main", { class: "lobby" }, h("section", { class: "card", id: "board" }, h("p", { class: "muted" }, "Loading…"))));
  const card = root.querySelector("#board");
  try {
    const leaders = await getJSON(`/api/leaderboard/${encodeURIComponent(ruleset)}/${encodeURIComponent(scenario)}`);
    card.replaceChildren(leaders.length
      ? h("ol", { id: "leaders" }, ...leaders.map((l) => h("li", { "data-player": l.name }, h("a", { href: `/players/${encodeURIComponent(l.name)}` }, l.name),
        ` ${Math.round(l.standing.rating)} ± ${Math.round(l.standing.deviation)} (${l.standing.games} game${l.standing.games === 1 ? "" : "s"})`)))
      : h("p", { class: "muted", id: "leaders" }, "No rated game on this battle yet."));
  } catch (e) {
    card.replaceChildren(h("p", { class: "error", role: "alert" }, e.message));
  }
}
