// The fields of a form, as the lobby's new game and the tournaments' new tournament both draw them: a
// labelled control with a hint, a select, and the clock's fields (none, live, correspondence).

import { h, scenario } from "./api.js";

/** A rule set's name as a player reads it. */
export function rulesetName(r) {
  return r === "classic" ? "classic (1975 Standard Rules)" : r === "revised" ? "revised (2nd edition)" : r;
}

/** The select of the battles the server offers (GET /api/scenarios), each by its name and date. */
export function scenarioSelect(scenarios, value) {
  return select("scenario", scenarios.map((s) => [s.id, `${s.battle || s.name}${s.date ? `, ${s.date}` : ""}${s.saved ? " (saved)" : ""}`]), value);
}

/** Fill a rule-set select with the rule sets the scenario `id` is played under. */
export async function fillRulesets(ruleset, id) {
  const sc = await scenario(id);
  ruleset.replaceChildren(...sc.rulesets.map((r) => h("option", { value: r }, rulesetName(r))));
}

export function field(label, control, hint = null) {
  return h("label", { class: "field" }, h("span", {}, label), control, hint ? h("small", { class: "muted" }, hint) : null);
}

export function select(name, options, value) {
  return h("select", { name }, options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
}

/** The "Clock" option: none, a live clock (a bank of minutes per player and an increment in seconds
 * at each of his Player-Turns) or a correspondence clock (days per Player-Turn); only the fields of
 * the chosen kind are shown. */
export function clockFields() {
  const kind = select("clock", [["", "none"], ["live", "live: minutes per player"], ["correspondence", "correspondence: days per Player-Turn"]], "");
  const live = [
    field("Minutes per player", h("input", { type: "number", name: "clock_minutes", min: "0.02", max: "1440", value: "30", step: "any" }), "each player's bank"),
    field("Increment (seconds)", h("input", { type: "number", name: "clock_increment", min: "0", max: "3600", value: "10", step: "1" }), "added at each of his Player-Turns"),
  ];
  const post = [field("Days per Player-Turn", h("input", { type: "number", name: "clock_days", min: "1", max: "60", value: "3", step: "1" }), "correspondence play")];
  const show = () => {
    for (const f of live) f.classList.toggle("hidden", kind.value !== "live");
    for (const f of post) f.classList.toggle("hidden", kind.value !== "correspondence");
  };
  kind.addEventListener("change", show);
  show();
  return [field("Clock", kind, "time controls; a player out of time may be claimed against"), ...live, ...post];
}

export function clockOption(data) {
  const kind = data.get("clock");
  if (kind === "live") {
    return { mode: "live", bank_seconds: Math.max(1, Math.round(parseFloat(data.get("clock_minutes")) * 60) || 1),
      increment_seconds: Math.max(0, parseInt(data.get("clock_increment") || "0", 10) || 0) };
  }
  if (kind === "correspondence") return { mode: "correspondence", days_per_turn: Math.max(1, parseInt(data.get("clock_days") || "1", 10) || 1) };
  return null;
}
