// The combat panel: the attack being built (the defender chosen for the player, the attacking hexes
// and units), how its odds are built (the server's `combat` answer), the chances on a column, and
// the decisions an attack brings (resolve, retreat, losses, advance, the revised choices before the
// die).
// Methods of the game page (GameView, game.js), mixed into it there: `this` is the page.

import { h } from "./api.js";
import { counterIcon, esc } from "./counters.js";
import { cap, RESULT_TEXT } from "./model.js";

export const Combat = {
  /** The attackers of the attack being built: the chosen adjacent units, then the bombarding ones. */
  attackersOf(sel) {
    return [...this.chosenUnits(sel, sel.hexes), ...this.chosenUnits(sel, sel.bombard)];
  },

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
  },

  /** A combat reply, kept as a reach's is (see onReach); the panel shows it if it is the selection's. */
  onCombat(m) {
    const key = combatKey(m.attackers, m.defenders);
    const at = this.questions.findIndex((q) => q.key === key);
    const asked = at >= 0 ? this.questions.splice(at, 1)[0] : null;
    if (!asked?.current && m.version !== this.choices?.version) return;
    this.breakdowns.set(key, { breakdown: m.breakdown || null, refused: m.refused || null });
    if (this.selection?.mode === "attack") this.render();
  },

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
  },

  startAttack(options, defenders) {
    this.beginAttack(options, defenders);
    this.render();
  },

  beginAttack(options, defenders, preselected = false) {
    const option = findOption(options, defenders);
    this.selection = { mode: "attack", defenders: [...defenders].sort(), option, hexes: new Set(), bombard: new Set(), left: new Set(), preselected };
    if (option) {
      // Start with the strongest adjacent units that may make the attack.
      const best = [...option.adjacent].sort((a, b) => b.attack - a.attack || b.hexes.length - a.hexes.length)[0];
      if (best) this.chooseAdjacent(this.selection, best);
    }
  },

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
  },

  /** The enemy hex the player last pointed at or clicked (for ``preselect``). */
  noteEnemy(hex) {
    if (hex && this.seat && this.unitsIn(hex).some((u) => this.board.units[u].side !== this.seat)) this.lastEnemy = hex;
  },

  /** Select an offered adjacent choice: its hexes, and (revised 8.22) only its units of them. */
  chooseAdjacent(sel, a) {
    sel.hexes = new Set(a.hexes);
    sel.left = new Set(a.hexes.flatMap((hx) => sel.option.groups[hx].units).filter((u) => a.units?.length && !a.units.includes(u)));
  },

  /** The units of the chosen hexes that attack: all of each group, but those left out (revised 8.22, 9.14). */
  chosenUnits(sel, hexes) {
    return [...hexes].flatMap((hx) => sel.option.groups[hx].units.filter((u) => !sel.left.has(u)));
  },

  /** A hex of the attack panel or the map, ticked or unticked: all its units. */
  toggleGroup(sel, hx) {
    const g = sel.option.groups[hx];
    const set = g.bombarding ? sel.bombard : sel.hexes;
    if (set.has(hx)) set.delete(hx);
    else set.add(hx);
    for (const u of g.units) sel.left.delete(u);
  },

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
  },

  attackMatch(sel) {
    if (!sel?.option) return null;
    const key = [...sel.hexes].sort().join(",");
    const units = this.chosenUnits(sel, sel.hexes).sort().join(",");
    const whole = (a) => a.hexes.flatMap((hx) => sel.option.groups[hx].units);
    return sel.option.adjacent.find((a) => [...a.hexes].sort().join(",") === key && [...(a.units?.length ? a.units : whole(a))].sort().join(",") === units) || null;
  },

  declareAttack() {
    const sel = this.selection;
    const match = this.attackMatch(sel);
    if (!sel || !match) return;
    const attackers = [...this.chosenUnits(sel, sel.hexes), ...this.chosenUnits(sel, sel.bombard)];
    this.selection = null;
    this.command({ type: "declare_attack", attackers, defenders: sel.option.defenders });
  },

  clickDecision(d, hex) {
    if (d.type === "retreat") {
      const opt = d.options.find((o) => o.to === hex);
      if (opt) this.command({ type: "retreat", unit: d.unit, to: opt.to, ...(opt.displace ? { displace: opt.displace } : {}) });
    } else if (d.type === "advance") {
      const opts = d.options.filter((o) => o.to === hex);
      if (opts.length === 1) this.command({ type: "advance", unit: opts[0].unit, to: hex });
    }
  },

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
  },

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
        this.declaredView(),
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
        this.declaredView(),
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
        this.declaredView(),
        ...this.pickUnits(`before:${b.version}`, d.units, { id: "retreat-before-combat", verb: "Retreat before combat", send: (units) => this.command({ type: "retreat_before_combat", units }), none }));
    }
    // Anything else the server offers: show what it is, so the player at least knows what is awaited.
    return h("div", { class: "decision", id: "generic-decision" }, h("h3", {}, `Decision: ${d.type}${d.kind ? ` (${d.kind})` : ""}`),
      h("pre", { class: "muted" }, JSON.stringify(d, null, 1).slice(0, 600)));
  },

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
  },

  /** How the odds of the declared attack waiting for its die were built (the server's view:
   * `declared`, read as at the declaration), for the players and the spectators alike; and the attack
   * as it now stands when something changed it since (8.45, 8.77, 12.34). */
  declaredView(b = this.board) {
    const bd = b.declared;
    const a = b.state.pending.find((p) => p.kind === "attack");
    if (!bd || !a) return "";
    const view = this.breakdownView({ breakdown: bd });
    view.classList.add("declared");
    if (bd.attack !== a.attack || bd.defence !== a.defence || bd.odds !== a.odds) {
      view.append(h("p", { class: "note", id: "declared-changed" }, `Recomputed since the declaration (the defender's terrain choice, 8.45, or a retreat before combat, 8.77, 12.34): the attack now stands at ${a.attack} to ${a.defence}, odds ${a.odds}.`));
    }
    return view;
  },

  /** The chance of each result on an odds column (the server's glance: the die rows of the table in
   * force out of six), worst for the attacker first. */
  chancesLine(column) {
    const dist = this.board.glance?.chances?.[column];
    if (!dist) return h("p", { class: "muted", id: "chances" });
    const parts = Object.entries(dist).map(([r, p]) => h("span", { class: "chance", "data-result": r, title: RESULT_TEXT[r] || r }, `${r} ${Math.round(p * 100)}%`));
    return h("p", { class: "chances", id: "chances", "data-column": column }, `On ${column}: `, ...parts.flatMap((x, i) => (i ? [" · ", x] : [x])));
  },

  pendingAttackLine() {
    const b = this.board;
    const a = b.state.pending.find((p) => p.kind === "attack");
    if (!a) return "";
    return h("p", { class: "muted" }, `${a.attackers.map((u) => b.name(u)).join(", ")} against ${a.defending.map((u) => b.name(u)).join(", ")} in ${a.defenders.join(", ")}: ${a.attack} vs ${a.defence}, odds ${a.column}`);
  },
};

export function combatKey(attackers, defenders) {
  return `combat|${attackers.join(",")}|${defenders.join(",")}`;
}

export function findOption(options, defenders) {
  const key = [...defenders].sort().join(",");
  return options.find((o) => [...o.defenders].sort().join(",") === key) || null;
}

export const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };

export function dieView(r, b) {
  const pips = (PIPS[r.die] || []).map(([x, y]) => `<circle cx="${x * 10}" cy="${y * 10}" r="3.6"/>`).join("");
  return h("div", { class: "combat-result", id: "combat-result" },
    h("span", { class: "die", title: `die ${r.die}`, html: `<svg width="40" height="40" viewBox="0 0 40 40"><rect x="1" y="1" width="38" height="38" rx="7" fill="#fff" stroke="#222" stroke-width="2"/>${pips}</svg>` }),
    h("div", {},
      h("b", { class: "result-code" }, `${r.result}`), ` ${RESULT_TEXT[r.result] || ""}`, h("br"),
      h("small", {}, `Die ${r.die} on ${r.column} (odds ${r.odds}); ${r.attackers.map((u) => b.name(u)).join(", ")} vs ${r.defending.map((u) => b.name(u)).join(", ")}`)));
}
