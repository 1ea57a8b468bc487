// Tournaments (docs/PROTOCOL.md "Tournaments"): /tournaments lists them (GET /api/tournaments), newest
// first, with a form for a signed-in player to create one (POST /api/tournaments); /tournaments/{id}
// shows one (GET /api/tournaments/{id}): its terms, its entries, an Enter button for a signed-in player
// while it is open (POST /api/tournaments/{id}/enter), a Start button for its creator (POST
// /api/tournaments/{id}/start), its rounds with their pairings and games (a player's own to play, the
// others to watch), and its standings with their tiebreaks.

import { getJSON, h, sendJSON, signedIn } from "./api.js";
import { randomId } from "./connection.js";
import { clockFields, clockOption, field, fillRulesets, scenarioSelect, select } from "./forms.js";
import { SIDE_NAME } from "./model.js";

const KIND = { round_robin: "round robin", swiss: "Swiss" };

function header(title) {
  return h("header", { class: "site-header" }, h("h1", {}, title), h("p", {}, h("a", { href: "/" }, "← the lobby"), " · ", h("a", { href: "/tournaments" }, "all tournaments")));
}

function kindText(t) {
  return `${KIND[t.kind] || t.kind}${t.duplicate ? ", duplicate pairs" : ""}`;
}

export async function showTournaments(root) {
  document.title = "Tournaments · Blue & Gray";
  root.replaceChildren(header("Tournaments"), h("main", { class: "lobby" },
    h("section", { class: "card", id: "tournaments" }, h("p", { class: "muted" }, "Loading…")),
    h("section", { class: "card", id: "new-tournament" }, h("h2", {}, "New tournament"), h("p", { class: "muted" }, "Loading…"))));
  newTournament(root.querySelector("#new-tournament"));
  const card = root.querySelector("#tournaments");
  try {
    const { tournaments } = await getJSON("/api/tournaments?limit=50");
    card.replaceChildren(h("h2", {}, "Tournaments"), tournaments.length
      ? h("ul", { class: "games", id: "tournament-list" }, ...tournaments.map((t) => h("li", { "data-tournament": t.id },
        h("a", { href: `/tournaments/${encodeURIComponent(t.id)}` }, t.name),
        ` — ${t.scenario}, ${kindText(t)} · ${t.status} · ${t.entries} of ${t.max_players} players`)))
      : h("p", { class: "muted", id: "tournament-list" }, "No tournament yet."));
  } catch (e) {
    card.replaceChildren(h("p", { class: "error", role: "alert" }, e.message));
  }
}

const DAY = 24 * 3600;

/** The form of a new tournament, for a signed-in player: its name, battle and rule set, round robin or
 * Swiss (with its rounds), duplicate pairs, the most players, each round's days, rated, the games'
 * clock. The server checks every term and its refusal is shown as it words it. */
async function newTournament(card) {
  const me = await signedIn().catch(() => null);
  if (!me) {
    card.replaceChildren(h("h2", {}, "New tournament"), h("p", { class: "muted", id: "new-tournament-said" }, "Sign in (in the lobby) to create a tournament."));
    return;
  }
  let scenarios;
  try {
    scenarios = await getJSON("/api/scenarios");
  } catch (e) {
    card.replaceChildren(h("h2", {}, "New tournament"), h("p", { class: "error", role: "alert" }, e.message));
    return;
  }
  const scen = scenarioSelect(scenarios, scenarios[0]?.id);
  const ruleset = select("ruleset", [], "");
  const updateRulesets = async () => {
    await fillRulesets(ruleset, scen.value);
  };
  scen.addEventListener("change", updateRulesets);
  updateRulesets();
  const kind = select("kind", [["round_robin", "round robin: everyone plays everyone"], ["swiss", "Swiss: a number of rounds"]], "round_robin");
  const rounds = field("Rounds", h("input", { type: "number", name: "rounds", min: "1", max: "20", value: "3", step: "1" }), "Swiss only");
  const showRounds = () => rounds.classList.toggle("hidden", kind.value !== "swiss");
  kind.addEventListener("change", showRounds);
  showRounds();
  const said = h("p", { class: "error", id: "new-tournament-error", role: "alert" });
  const form = h("form", { class: "new-game", id: "new-tournament-form" },
    field("Name", h("input", { type: "text", name: "name", required: true, maxlength: "80" })),
    field("Scenario", scen),
    field("Rule set", ruleset),
    field("Kind", kind),
    rounds,
    field("Duplicate pairs", h("input", { type: "checkbox", name: "duplicate" }), "each pairing two games, sides swapped, the same dice"),
    field("Most players", h("input", { type: "number", name: "max_players", min: "2", max: "64", value: "8", step: "1" })),
    field("Days a round", h("input", { type: "number", name: "round_days", min: "1", max: "365", value: "7", step: "1" }), "each round's deadline after it is paired"),
    field("Rated", h("input", { type: "checkbox", name: "rated" })),
    ...clockFields(),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary", id: "create-tournament" }, "Create tournament")),
    said,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const body = {
      name: data.get("name"), scenario: data.get("scenario"), ruleset: data.get("ruleset"), kind: data.get("kind"),
      duplicate: data.get("duplicate") === "on", rated: data.get("rated") === "on",
      max_players: parseInt(data.get("max_players"), 10) || 8,
      round_seconds: (parseInt(data.get("round_days"), 10) || 7) * DAY,
    };
    if (body.kind === "swiss") body.rounds = parseInt(data.get("rounds"), 10) || 0;
    const clock = clockOption(data);
    if (clock) body.clock = clock;
    const button = form.querySelector("#create-tournament");
    button.disabled = true;
    try {
      const t = await sendJSON("POST", "/api/tournaments", body);
      location.assign(`/tournaments/${encodeURIComponent(t.id)}`);
    } catch (err) {
      said.textContent = `Could not create the tournament: ${err.message}`;
      button.disabled = false;
    }
  });
  card.replaceChildren(h("h2", {}, "New tournament"), form);
}

function standingsTable(t) {
  if (!t.standings.length) return h("p", { class: "muted", id: "tournament-standings" }, "No standings before the first round is paired.");
  const cols = ["Place", "Player", "Points", "Games", ...(t.duplicate ? ["VP margin"] : []), "Sonneborn-Berger", ...(t.kind === "swiss" ? ["Buchholz"] : [])];
  return h("table", { id: "tournament-standings" }, h("caption", { class: "muted" }, t.status === "finished" ? "Final standings" : "Standings so far"),
    h("tr", {}, ...cols.map((c) => h("th", { scope: "col" }, c))),
    ...t.standings.map((s) => h("tr", { "data-player": s.player },
      h("td", { class: "n" }, String(s.place)), h("td", {}, h("a", { href: `/players/${encodeURIComponent(s.player)}` }, s.player)),
      h("td", { class: "n" }, String(s.points)), h("td", { class: "n" }, String(s.games)),
      ...(t.duplicate ? [h("td", { class: "n" }, String(s.vp_margin))] : []),
      h("td", { class: "n" }, String(s.sonneborn_berger)),
      ...(t.kind === "swiss" ? [h("td", { class: "n" }, String(s.buchholz))] : []))));
}

function resultText(r) {
  if (!r) return "playing";
  if (r.reason === "double_loss") return "double loss";
  return r.winner ? `${SIDE_NAME[r.winner]} won (${r.reason})` : `drawn (${r.reason})`;
}

/** A game's link: to play it for one of its players (his seat is his account's), else to watch it. */
function gameLink(g, me) {
  const mine = me && (g.union === me.name || g.confederate === me.name);
  return h("a", { href: `/${mine ? "play" : "watch"}/${encodeURIComponent(g.game_id)}` }, `${g.union} (Union) v ${g.confederate} (Confederate)`);
}

function roundsList(t, me) {
  if (!t.round_list.length) return h("p", { class: "muted", id: "tournament-rounds" }, t.status === "open" ? "Not started: the rounds are paired when its creator starts it." : "No round yet.");
  return h("ol", { id: "tournament-rounds" }, ...t.round_list.map((r) => h("li", { "data-round": String(r.round) },
    `Round ${r.round}${r.finished ? " (finished)" : ` · deadline ${new Date(r.deadline).toLocaleString()}`}${r.bye ? ` · bye: ${r.bye}` : ""}`,
    h("ul", {}, ...r.pairings.map((p) => h("li", { "data-pair": p.pair_id }, `${p.first} – ${p.second}: `,
      ...p.games.flatMap((g, i) => [i ? "; " : "", gameLink(g, me), ` ${resultText(g.result)}`])))))));
}

export async function showTournament(root, id) {
  document.title = "Tournament · Blue & Gray";
  root.replaceChildren(header("Tournament"), h("main", { class: "lobby" }, h("section", { class: "card", id: "tournament" }, h("p", { class: "muted" }, "Loading…"))));
  const card = root.querySelector("#tournament");
  let t;
  try {
    t = await getJSON(`/api/tournaments/${encodeURIComponent(id)}`);
  } catch (e) {
    card.replaceChildren(h("p", { class: "error", role: "alert" }, e.message));
    return;
  }
  document.title = `${t.name} · Blue & Gray`;
  const me = await signedIn().catch(() => null);
  const said = h("p", { class: "error", id: "enter-error", role: "alert" });
  const entered = !!me && t.entries.some((e) => e.player === me.name);
  let enter = null;
  if (t.status === "open" && me && !entered) {
    enter = h("button", { type: "button", class: "primary", id: "tournament-enter", disabled: t.entries.length >= t.max_players, onclick: async () => {
      try {
        await sendJSON("POST", `/api/tournaments/${encodeURIComponent(id)}/enter`, { dice_nonce: randomId(24) }); // his share of the dice
        await showTournament(root, id);
      } catch (err) {
        said.textContent = err.message;
      }
    } }, "Enter");
  }
  let start = null; // its creator closes the entries and round 1 is paired
  if (t.status === "open" && me && me.name === t.creator) {
    start = h("button", { type: "button", id: "tournament-start", disabled: t.entries.length < 2, title: t.entries.length < 2 ? "at least two players must have entered" : "", onclick: async () => {
      try {
        await sendJSON("POST", `/api/tournaments/${encodeURIComponent(id)}/start`);
        await showTournament(root, id);
      } catch (err) {
        said.textContent = err.message;
      }
    } }, "Start: close the entries and pair round 1");
  }
  const why = t.status !== "open" ? `Entries are closed (${t.status}).`
    : !me ? "Sign in (in the lobby) to enter."
      : entered ? "You are entered." : t.entries.length >= t.max_players ? "It is full." : "";
  const clock = t.clock ? (t.clock.mode === "correspondence" ? `, ${t.clock.days_per_turn} day(s) a Player-Turn` : `, ${Math.round(t.clock.bank_seconds / 60)} min + ${t.clock.increment_seconds} s`) : "";
  card.replaceChildren(
    h("h2", { id: "tournament-name" }, t.name),
    h("p", { id: "tournament-terms" }, `${t.scenario}, ${t.ruleset} rules, ${kindText(t)}${t.kind === "swiss" ? `, ${t.rounds} rounds` : ""}${clock}${t.rated ? ", rated" : ""} · by ${t.creator} · `,
      h("b", { id: "tournament-status" }, t.status)),
    h("h3", {}, `Players (${t.entries.length} of ${t.max_players})`),
    h("ol", { id: "tournament-entries" }, ...(t.entries.length ? t.entries.map((e) => h("li", { "data-player": e.player }, e.player)) : [h("li", { class: "muted" }, "Nobody yet.")])),
    h("div", { class: "actions" }, enter, start, h("span", { class: "muted", id: "enter-said" }, why)), said,
    h("h3", {}, "Standings"), standingsTable(t),
    h("h3", {}, "Rounds"), roundsList(t, me),
    h("p", { class: "muted" }, `Dice commitment: ${t.seed_hash.slice(0, 16)}…${t.master_seed ? ` · master seed revealed: ${t.master_seed.slice(0, 16)}…` : ""}`),
  );
}
