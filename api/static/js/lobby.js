// The lobby: scenarios, a new game with its options and the invite link to send, this browser's
// games (and whether they wait for you), running games to watch, finished games to look at.

import { getJSON, h, postJSON, saveSeat, seats } from "./api.js";
import { accountCard } from "./account.js";
import { randomId } from "./connection.js";
import { clockFields, clockOption, field, fillRulesets, scenarioSelect, select } from "./forms.js";
import { SIDE_NAME } from "./model.js";

export async function showLobby(root) {
  document.title = "Blue & Gray";
  root.replaceChildren(
    h("header", { class: "site-header" }, h("h1", {}, "Blue & Gray"), h("p", {}, "SPI's Civil War battles, every rule enforced. Play, watch, review."),
      h("a", { href: "/tournaments", id: "tournaments-link", class: "button" }, "Tournaments"), " ",
      h("a", { href: "/editor", id: "editor-link", class: "button" }, "Scenario editor")),
    h("main", { class: "lobby" },
      h("section", { class: "card", id: "account" }, h("h2", {}, "Your account"), h("p", { class: "muted" }, "Loading…")),
      h("section", { class: "card", id: "new-game" }, h("h2", {}, "New game"), h("p", { class: "muted" }, "Loading scenarios…")),
      h("section", { class: "card", id: "my-games" }, h("h2", {}, "Your games")),
      h("section", { class: "card", id: "running" }, h("h2", {}, "Games being played"), h("p", { class: "muted" }, "Loading…")),
      h("section", { class: "card", id: "finished" }, h("h2", {}, "Finished games"), h("p", { class: "muted" }, "Loading…")),
    ),
  );
  const list = await getJSON("/api/scenarios").catch((e) => ({ error: e }));
  await accountCard(root.querySelector("#account"), Array.isArray(list) ? list : []).catch((e) => root.querySelector("#account").append(h("p", { class: "error" }, e.message)));
  newGameForm(root.querySelector("#new-game"), Array.isArray(list) ? list : []);
  myGames(root.querySelector("#my-games"));
  gameList(root.querySelector("#running"), ["active", "open"], "Watch", "/watch/");
  gameList(root.querySelector("#finished"), ["finished"], "View and replay", "/watch/");
}

function newGameForm(card, scenarios) {
  if (!scenarios.length) {
    card.replaceChildren(h("h2", {}, "New game"), h("p", { class: "error" }, "No scenarios could be loaded."));
    return;
  }
  const ruleset = select("ruleset", [["classic", "classic (1975)"]], "classic");
  const asked = new URLSearchParams(location.search).get("scenario"); // the editor's "play it" link
  const first = scenarios.some((s) => s.id === asked) ? asked : scenarios[0].id;
  const scen = scenarioSelect(scenarios, first);
  // The battle's own game options (scenario.toml [options.*], e.g. Road to Richmond 17.6, the Variable
  // Confederate Reinforcements): a box each, off by default, sent as the game's rules options.
  const battleOptions = h("fieldset", { class: "battle-options hidden", id: "battle-options" });
  const updateOptions = () => {
    const offered = scenarios.find((s) => s.id === scen.value)?.options || [];
    battleOptions.classList.toggle("hidden", !offered.length);
    battleOptions.replaceChildren(h("legend", {}, "Optional rules of this battle"),
      ...offered.map((o) => field(`${o.title}${o.case ? ` (${o.case})` : ""}`, h("input", { type: "checkbox", name: `rule:${o.name}`, "data-option": o.name }), "a variant: off unless ticked")));
  };
  const updateRulesets = async () => {
    updateOptions();
    await fillRulesets(ruleset, scen.value);
  };
  scen.addEventListener("change", updateRulesets);
  updateRulesets();
  const form = h("form", { class: "new-game" },
    battleTable(scenarios, scen, updateRulesets),
    field("Scenario", scen),
    field("Rule set", ruleset),
    battleOptions,
    field("Your side", select("side", [["union", "Union (blue)"], ["confederate", "Confederate (grey)"]], "union")),
    field("Opponent", select("computer", [["", "a person (send the invite)"], ["easy", "the computer: easy"], ["normal", "the computer: normal"], ["hard", "the computer: hard"], ["expert", "the computer: expert"]], ""), "the computer accepts your undos"),
    field("Undo", select("undo", [["consent", "with the opponent's consent (5.17)"], ["free-until-dice", "casual: free until a die is thrown"], ["none", "tournament: never"]], "consent")),
    field("Undo across a die roll", h("input", { type: "checkbox", name: "undo_dice" }), "house rule: by consent only"),
    field("Attack effectiveness (11.0)", select("attack_effectiveness", [["", "as the scenario says"], ["true", "on"], ["false", "off"]], "")),
    field("Spectator delay", h("input", { type: "number", name: "spectator_delay", min: "0", value: "0", step: "1" }), "events behind for watchers"),
    field("Spectator delay in phases", h("input", { type: "number", name: "spectator_delay_phases", min: "0", max: "20", value: "0", step: "1" }), "phases behind for watchers"),
    ...clockFields(),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary", id: "create" }, "Create game")),
    h("div", { class: "invite", id: "invite" }),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const options = {
      undo: data.get("undo"),
      undo_dice: data.get("undo_dice") === "on",
      spectator_delay: Math.max(0, parseInt(data.get("spectator_delay") || "0", 10) || 0),
      spectator_delay_phases: Math.max(0, parseInt(data.get("spectator_delay_phases") || "0", 10) || 0),
    };
    const clock = clockOption(data);
    if (clock) options.clock = clock;
    if (data.get("attack_effectiveness")) options.attack_effectiveness = data.get("attack_effectiveness") === "true";
    const rules = Object.fromEntries([...form.querySelectorAll("#battle-options input[data-option]")].filter((i) => i.checked).map((i) => [i.dataset.option, true]));
    if (Object.keys(rules).length) options.rules = rules;
    const body = { scenario: data.get("scenario"), ruleset: data.get("ruleset"), side: data.get("side"), options, dice_nonce: randomId(24) };
    if (data.get("computer")) body.computer = data.get("computer");
    const out = form.querySelector("#invite");
    const button = form.querySelector("#create");
    button.disabled = true;
    try {
      const game = await postJSON("/api/games", body);
      const invite = new URL(game.invite_url, location.origin).href;
      saveSeat(game.game_id, { seat: game.seat, token: game.token, invite_url: invite, scenario: body.scenario });
      const mine = document.querySelector("#my-games");
      if (mine) {
        mine.replaceChildren(h("h2", {}, "Your games"));
        myGames(mine);
      }
      if (body.computer) {
        out.replaceChildren(
          h("p", {}, `Game ${game.game_id} created: you play ${SIDE_NAME[game.seat]} against the computer (${body.computer}).`),
          h("p", {}, h("a", { class: "button primary", href: `/play/${game.game_id}`, id: "open-game" }, "Go to the game →")),
        );
        return;
      }
      out.replaceChildren(
        h("p", {}, `Game ${game.game_id} created: you play ${SIDE_NAME[game.seat]}. Send this link to your opponent (it works once):`),
        h("div", { class: "copy" },
          h("input", { type: "text", readonly: true, value: invite, id: "invite-link", onfocus: (ev) => ev.target.select() }),
          h("button", { type: "button", onclick: () => copy(invite, out) }, "Copy")),
        h("p", {}, h("a", { class: "button primary", href: `/play/${game.game_id}`, id: "open-game" }, "Go to the game →")),
      );
    } catch (err) {
      out.replaceChildren(h("p", { class: "error" }, `Could not create the game: ${err.message}`));
    } finally {
      button.disabled = false;
    }
  });
  card.replaceChildren(h("h2", {}, "New game"), form);
}

/** Every battle the server offers: its name, date, Game-Turns and map size (columns x rows); a click on a
 * row picks it in `scen`. */
function battleTable(scenarios, scen, changed) {
  const rows = scenarios.map((s) => h("tr", { "data-scenario": s.id, class: "battle", onclick: () => { scen.value = s.id; changed(); } },
    h("td", { class: "battle-name" }, s.battle || s.name),
    h("td", { class: "battle-date" }, s.date || ""),
    h("td", { class: "battle-turns" }, `${s.turns} Game-Turns`),
    h("td", { class: "battle-map" }, `${s.columns} x ${s.rows}`)));
  return h("table", { class: "battles", id: "battles" },
    h("thead", {}, h("tr", {}, h("th", {}, "Battle"), h("th", {}, "Date"), h("th", {}, "Length"), h("th", {}, "Map (columns x rows)"))),
    h("tbody", {}, rows));
}

async function copy(text, where) {
  try {
    await navigator.clipboard.writeText(text);
    where.append(h("p", { class: "muted" }, "Copied."));
  } catch {
    where.querySelector("input")?.select();
  }
}

async function myGames(card) {
  const mine = Object.entries(seats()).sort((a, b) => b[1].at - a[1].at).slice(0, 20);
  if (!mine.length) {
    card.append(h("p", { class: "muted" }, "None yet in this browser. Create one, or open an invite link."));
    return;
  }
  const ul = h("ul", { class: "games" });
  card.append(ul);
  for (const [id, seat] of mine) {
    const li = h("li", {}, h("a", { href: `/play/${id}` }, id), ` — you play ${SIDE_NAME[seat.seat] || seat.seat}`);
    ul.append(li);
    getJSON(`/api/games/${id}`)
      .then((g) => {
        let status = g.status === "open" ? "waiting for your opponent to join" : g.status;
        if (g.finished) status = "finished";
        else if (g.to_act === seat.seat) status = "your move";
        else if (g.to_act) status = `${SIDE_NAME[g.to_act]} to act`;
        li.append(h("span", { class: `status ${g.to_act === seat.seat && !g.finished ? "yours" : ""}` }, ` · ${g.ruleset ? `${g.ruleset} rules · ` : ""}turn ${g.turn}, ${g.phase} · ${status}`));
      })
      .catch(() => li.append(h("span", { class: "muted" }, " · not found on this server")));
  }
}

async function gameList(card, statuses, verb, prefix) {
  const found = [];
  for (const status of statuses) {
    try {
      const page = await getJSON(`/api/games?status=${status}&limit=30`);
      found.push(...page.games);
    } catch (e) {
      card.append(h("p", { class: "error" }, e.message));
    }
  }
  card.querySelector("p.muted")?.remove();
  if (!found.length) {
    card.append(h("p", { class: "muted" }, "None."));
    return;
  }
  found.sort((a, b) => b.created - a.created);
  card.append(
    h("ul", { class: "games" },
      found.map((g) =>
        h("li", {},
          h("a", { href: `${prefix}${g.game_id}`, class: "watch" }, `${verb} ${g.game_id}`),
          h("span", { class: "muted" }, ` · ${g.scenario} · ${g.status}${g.to_act ? `, ${SIDE_NAME[g.to_act]} to act` : ""} · ${g.version} events · ${new Date(g.created).toLocaleString()}`),
        ),
      ),
    ),
  );
}

/** /join/{id}#{invite}: take the invited seat, then play. */
export async function joinGame(root, gameId, invite) {
  root.replaceChildren(h("main", { class: "lobby" }, h("section", { class: "card" }, h("h2", {}, `Joining game ${gameId}…`))));
  const card = root.querySelector(".card");
  if (!invite) {
    card.append(h("p", { class: "error" }, "This link has no invite code (the part after #)."));
    return false;
  }
  try {
    const joined = await postJSON(`/api/games/${encodeURIComponent(gameId)}/join`, { invite, dice_nonce: randomId(24) });
    saveSeat(gameId, { seat: joined.seat, token: joined.token });
    history.replaceState(null, "", `/play/${gameId}`);
    return true;
  } catch (e) {
    const held = seats()[gameId];
    if (held) {
      history.replaceState(null, "", `/play/${gameId}`);
      return true;
    }
    card.append(h("p", { class: "error" }, `Could not join: ${e.message}`), h("p", {}, h("a", { href: `/watch/${gameId}` }, "Watch this game instead"), " · ", h("a", { href: "/" }, "Lobby")));
    return false;
  }
}
