// What the client knows of a game: the render-ready state the server sends (a `snapshot`), kept up
// to date by applying each event's visible effect (who is where, turn and phase, pending decisions,
// markers, victory points) and the session records (seats, undo requests, draw offers, the end).
// It decides nothing: what a player may do comes from the server's `choices`. An accepted undo is
// always followed by a snapshot from the server; until it arrives the board says it is stale.

export const SIDES = ["union", "confederate"];
export const SIDE_NAME = { union: "Union", confederate: "Confederate" };
export const RESULT_TEXT = {
  Ae: "Attacker eliminated",
  Ar: "Attacker retreats",
  Dr: "Defender retreats",
  De: "Defender eliminated",
  Ex: "Exchange",
  "Ae*": "Attacker loses one unit (the defender picks it)",
  "Ex*": "Exchange: one defending unit, then attackers of at least its strength",
};

export const MORALE_NAME = { disordered: "Disordered", shaken: "Shaken", routed: "Routed", "": "in good order" };

export class Board {
  constructor(scenario) {
    this.scenario = scenario;
    this.units = Object.fromEntries(scenario.units.map((u) => [u.id, u]));
    this.version = 0;
    this.head = null;
    this.stale = false; // an undo was accepted: wait for the snapshot
    this.staleFrom = 0; // the version of that undo_accepted
    this.state = {
      turn: 1,
      phasing: scenario.first_player,
      phase: "movement",
      positions: Object.fromEntries(scenario.units.filter((u) => u.hex).map((u) => [u.id, u.hex])),
      eliminated: [],
      moved: [],
      pending: [],
      attacked: [],
      advanced: [],
      ineffective: [],
      morale: {}, // revised 12.0: unit -> "disordered" | "shaken" | "routed"
      rallying: [], // revised 12.41: units with a Rally marker
      breastworks: {}, // revised 10.3: hex -> {status, side, unit, turn, facing}
      vp: { union: 0, confederate: 0 },
      game_over: false,
      result: null,
    };
    this.session = { seats: [], started: false, undo: null, draw: null, reverted: [], finished: null, created: null, to_act: null, waiting_since: 0 };
    this.commands = []; // effective command records: {version, seat, rolls, command}
    this.lastMove = null; // {unit, path} of the latest move, retreat or advance
    this.lastCombat = null; // the latest combat_resolved event's data
  }

  name(unit) {
    return this.units[unit]?.designation || unit;
  }

  toAct() {
    const s = this.session;
    if (s.finished || !s.started || this.state.game_over) return null;
    if (this.state.pending.length) return this.state.pending[0].side;
    return this.state.phasing;
  }

  /** A render-ready snapshot from the server (rules state + session at `version`). */
  applySnapshot(msg) {
    const st = msg.state;
    this.state = {
      ...st,
      moved: st.moved || [],
      attacked: st.attacked || [],
      advanced: st.advanced || [],
      ineffective: st.ineffective || [],
      pending: st.pending || [],
      morale: st.morale || {},
      rallying: st.rallying || [],
      breastworks: st.breastworks || {},
      vp: st.vp || { union: 0, confederate: 0 },
    };
    const s = msg.session;
    this.session = {
      ...this.session,
      seats: s.seats,
      started: s.started,
      undo: s.undo,
      draw: s.draw,
      reverted: s.reverted,
      finished: s.finished,
      to_act: s.to_act,
      waiting_since: s.waiting_since,
    };
    const reverted = (v) => s.reverted.some(([b, a]) => v > b && v < a);
    this.commands = this.commands.filter((c) => c.version <= msg.version && !reverted(c.version));
    this.version = msg.version;
    this.head = msg.head;
    this.stale = false;
    this.lastMove = null;
  }

  /** Apply one event (`EventOut`); returns a line for the game's record, or null. */
  applyEvent(ev) {
    const line = this.fold(ev);
    this.waiting(ev);
    return line;
  }

  /** Since when the seat to act has been awaited (as replay/history.py `_waiting`): a change of the
   * seat to act, or an act of that seat, starts the clock again. A claim (api: `claim`) is possible
   * once it has run past the game's `silence_seconds`. */
  waiting(ev) {
    const s = this.session;
    const now = this.toAct();
    if (now !== s.to_act || (now && ev.actor === now)) s.waiting_since = ev.time;
    s.to_act = now;
  }

  fold(ev) {
    if (ev.version !== this.version + 1) throw new Error(`event ${ev.version} after ${this.version}`);
    this.version = ev.version;
    this.head = ev.hash;
    const d = ev.data;
    const st = this.state;
    const s = this.session;
    const add = (list, items) => Array.from(new Set([...list, ...items]));
    const gameAction = () => {
      s.undo = null;
      s.draw = null;
    };
    switch (ev.type) {
      // -- session records --------------------------------------------------------------------
      case "game_created":
        s.created = d;
        return `Game created: ${d.scenario}, ${d.ruleset} rules${d.dice === "insecure" ? " (fixed dice: not a fair game)" : ""}`;
      case "seat_joined":
        if (!s.seats.includes(d.seat)) s.seats.push(d.seat);
        s.started = s.seats.length >= 2;
        return `${SIDE_NAME[d.seat]} took a seat${s.started ? ": play begins" : ""}`;
      case "command":
        gameAction();
        this.commands.push({ version: ev.version, seat: d.seat, rolls: (d.rolls || []).length, command: d.command });
        return null;
      case "undo_requested":
        s.undo = { request: ev.version, seat: d.seat, back_to: d.back_to, takes_back: d.takes_back.map((t) => t.version) };
        s.undoDetail = d.takes_back;
        return `${SIDE_NAME[d.seat]} asks to take back ${d.takes_back.length} action(s)`;
      case "undo_accepted":
        gameAction();
        this.stale = true;
        this.staleFrom = ev.version;
        return d.seat ? `${SIDE_NAME[d.seat]} accepted the undo` : "Undo granted (free undo)";
      case "undo_declined":
        s.undo = null;
        return `${SIDE_NAME[d.seat]} declined the undo`;
      case "undo_withdrawn":
        s.undo = null;
        return `${SIDE_NAME[d.seat]} withdrew the undo request`;
      case "draw_offered":
        s.draw = { offer: ev.version, seat: d.seat };
        return `${SIDE_NAME[d.seat]} offers a draw`;
      case "draw_declined":
        s.draw = null;
        return `${SIDE_NAME[d.seat]} declined the draw`;
      case "chat":
        return `${SIDE_NAME[d.seat]}: ${d.text}`;
      case "game_finished":
        gameAction();
        s.finished = d;
        return `Game over: ${finishText(d)}`;
      // -- rules events ------------------------------------------------------------------------
      case "unit_moved":
      case "reinforcement_entered":
        st.positions[d.unit] = d.path[d.path.length - 1];
        st.moved = add(st.moved, [d.unit]);
        this.lastMove = { unit: d.unit, path: d.path };
        return `${this.name(d.unit)} ${ev.type === "unit_moved" ? "moved" : "entered"} ${d.path[0]} → ${d.path[d.path.length - 1]} (${d.cost} MP)`;
      case "unit_exited": // a battle's exits (Chickamauga 18.1-18.3): off the map for good
        delete st.positions[d.unit];
        st.moved = add(st.moved, [d.unit]);
        st.scored = add(st.scored || [], [`exited:${d.unit}`]);
        this.lastMove = { unit: d.unit, path: d.path };
        return `${this.name(d.unit)} exits the map at ${d.path[d.path.length - 1]} (${d.cost} MP)`;
      case "movement_restrictions_lifted": // Antietam 20.1: removed for good after a creek crossing
        st.released = add(st.released || [], [d.side]);
        return `${SIDE_NAME[d.side]} movement restrictions removed for good: ${this.name(d.unit)} crossed ${d.hexside} (${d.case})`;
      case "reinforcement_lost":
        st.eliminated = [...st.eliminated, d.unit];
        return `${this.name(d.unit)} did not enter and is lost`;
      case "phase_ended":
        st.moved = [];
        return null;
      case "phase_began":
        st.turn = d.turn;
        st.phasing = d.side;
        st.phase = d.phase;
        st.moved = [];
        st.attacked = [];
        st.advanced = [];
        st.silenced = [];
        st.engaged = [];
        this.lastMove = null;
        return `Turn ${d.turn}: ${SIDE_NAME[d.side]} ${d.phase} phase`;
      case "game_turn_advanced":
        st.turn = d.turn;
        return `Game-Turn ${d.turn}`;
      case "game_ended":
        st.game_over = true;
        st.result = d.result ?? st.result;
        return `The game ends${d.result ? `: ${d.result}` : ""}`;
      case "attack_declared": {
        const a = d.attack;
        st.attacked = add(st.attacked, [...a.attackers, ...(a.bombarding || []), ...a.defending]);
        st.pending = [...st.pending, a];
        return `Attack on ${a.defenders.join(", ")}: ${a.attack} vs ${a.defence}, odds ${a.odds}`;
      }
      case "odds_reduced":
        if (st.pending.length) st.pending = [{ ...st.pending[0], column: d.column }, ...st.pending.slice(1)];
        return `Odds reduced from ${d.odds} to ${d.column}`;
      case "combat_resolved":
        st.pending = st.pending.slice(1);
        this.lastCombat = d;
        return `Die ${d.die} on ${d.column}: ${d.result} (${RESULT_TEXT[d.result] || d.result})`;
      case "losses_taken":
        if (st.pending.length && st.pending[0].kind === "exchange_losses") st.pending = st.pending.slice(1);
        return `${SIDE_NAME[d.side] || d.side} loses ${d.units.map((u) => this.name(u)).join(", ")}`;
      case "unit_eliminated":
        delete st.positions[d.unit];
        st.eliminated = [...st.eliminated, d.unit];
        st.ineffective = st.ineffective.filter((u) => u !== d.unit);
        st.pending = st.pending.filter((p) => !(p.kind === "retreat" && p.unit === d.unit));
        return `${this.name(d.unit)} eliminated (${d.case})`;
      case "decisions_awaited":
        st.pending = d.first ? [...d.decisions, ...st.pending] : [...st.pending, ...d.decisions];
        return null;
      case "decision_declined":
        st.pending = st.pending.slice(1);
        return `${SIDE_NAME[d.side]} ${d.reason === "declined" ? "declines" : "passes"}: ${d.kind}${d.reason && d.reason !== "declined" ? ` (${d.reason})` : ""}`;
      case "unit_retreated":
        if (st.pending.length && st.pending[0].kind === "retreat" && st.pending[0].unit === d.unit) st.pending = st.pending.slice(1);
        st.positions[d.unit] = d.path[d.path.length - 1];
        this.lastMove = { unit: d.unit, path: d.path };
        return `${this.name(d.unit)} retreats ${d.path[0]} → ${d.path[1]}${d.displaces ? `, displacing ${this.name(d.displaces)}` : ""}`;
      case "unit_advanced":
        if (st.pending.length && st.pending[0].kind === "advance") st.pending = st.pending.slice(1);
        st.positions[d.unit] = d.path[d.path.length - 1];
        st.advanced = add(st.advanced, [d.unit]);
        this.lastMove = { unit: d.unit, path: d.path };
        return `${this.name(d.unit)} advances into ${d.path[1]}`;
      case "attack_effectiveness_lost":
        st.ineffective = add(st.ineffective, d.units);
        return `Ineffective: ${d.units.map((u) => this.name(u)).join(", ")} (11.1)`;
      case "attack_effectiveness_recovered":
        st.ineffective = st.ineffective.filter((u) => !d.units.includes(u));
        return `Effective again: ${d.units.map((u) => this.name(u)).join(", ")}`;
      case "ineffective_units_engaged":
        st.engaged = [...d.units];
        return null;
      case "victory_points_awarded":
        st.vp = { ...st.vp, [d.side]: (st.vp[d.side] || 0) + d.points };
        return `${SIDE_NAME[d.side]} +${d.points} VP (${d.kind.replaceAll("_", " ")}: ${this.units[d.subject] ? this.name(d.subject) : d.subject})`;
      case "victory_determined":
        st.result = d.level;
        return `Victory: ${d.level} (Union ${d.union}, Confederate ${d.confederate})`;
      // -- revised rules (2nd edition) ------------------------------------------------------------
      case "morale_changed": {
        const m = { ...(st.morale || {}) };
        const ie = new Set(st.ineffective);
        const said = [];
        for (const [u, lv] of d.changes) {
          if (!(u in st.positions)) continue;
          if (lv) m[u] = lv;
          else delete m[u];
          if (lv === "routed") ie.add(u);
          else ie.delete(u);
          said.push(`${this.name(u)} ${MORALE_NAME[lv] || lv}`);
        }
        st.morale = m;
        st.ineffective = [...ie];
        return said.length ? `Morale (${d.case}): ${said.join(", ")}` : null;
      }
      case "disorder_rolled":
        return d.rolls.length ? `Disorder dice: ${d.rolls.map(([u, r]) => `${this.name(u)} ${r}`).join(", ")}` : null;
      case "night_combat_die":
        return `Night combat die ${d.die}: attack strength ${d.attack}`;
      case "rally_markers_placed":
        st.rallying = add(st.rallying || [], d.units);
        return `Rally markers on ${d.units.map((u) => this.name(u)).join(", ")}`;
      case "rally_rolled": {
        if (st.pending.length && st.pending[0].kind === "rally") st.pending = st.pending.slice(1);
        const gone = new Set([...d.rolls.map(([u]) => u), ...(d.units || [])]);
        st.rallying = (st.rallying || []).filter((u) => !gone.has(u));
        return `Rally dice: ${d.rolls.map(([u, r]) => `${this.name(u)} ${r}`).join(", ") || "none needed"}`;
      }
      case "before_combat_chosen":
        if (st.pending.length && st.pending[0].kind === "before_combat") st.pending = st.pending.slice(1);
        return d.units.length
          ? `Retreat before combat (${d.kind}): ${d.units.map((u) => this.name(u)).join(", ")}${d.die ? `, die ${d.die}${d.die === 6 ? ": they stay" : ""}` : ""}`
          : `No retreat before combat (${d.kind})`;
      case "terrain_chosen":
        if (st.pending.length && st.pending[0].kind === "before_combat") st.pending = st.pending.slice(1);
        return `The defender chooses the ${d.option === "forest" ? "forest shift" : "other terrain benefits"} (8.45)`;
      case "attack_recomputed": {
        const i = st.pending.findIndex((p) => p.kind === "attack");
        if (i >= 0) st.pending = [...st.pending.slice(0, i), d.attack, ...st.pending.slice(i + 1)];
        return `The attack now: ${d.attack.attack} vs ${d.attack.defence}, odds ${d.attack.column}`;
      }
      case "attack_voided":
        if (st.pending.length && st.pending[0].kind === "attack") st.pending = st.pending.slice(1);
        return `Every defender retreated before combat: the attack on ${d.defenders.join(", ")} is over`;
      case "breastworks_begun":
        st.breastworks = { ...(st.breastworks || {}), [d.hex]: { status: "building", side: d.side, unit: d.unit, turn: d.turn, facing: [] } };
        st.moved = add(st.moved, [d.unit]);
        return `${this.name(d.unit)} begins breastworks in ${d.hex} (10.34)`;
      case "breastworks_completed": {
        const old = (st.breastworks || {})[d.hex] || { side: this.units[d.unit]?.side, unit: d.unit, turn: st.turn };
        st.breastworks = { ...st.breastworks, [d.hex]: { ...old, status: "breastworks", facing: d.facing } };
        st.moved = add(st.moved, [d.unit]);
        return `Breastworks completed in ${d.hex}, facing ${d.facing.join(", ")}`;
      }
      case "breastworks_removed": {
        const w = { ...(st.breastworks || {}) };
        delete w[d.hex];
        st.breastworks = w;
        return `Breastworks marker removed from ${d.hex}: ${d.reason}`;
      }
      default:
        return null;
    }
  }
}

export function finishText(f) {
  const why = { rules: "the last Game-Turn", resignation: "resignation", draw: "a draw agreed", abandonment: "abandonment" }[f.reason] || f.reason;
  const winner = f.winner ? `${SIDE_NAME[f.winner]} wins` : "no winner";
  return `${f.result || winner} — by ${why}${f.by ? ` (${SIDE_NAME[f.by]})` : ""}`;
}

/** A rules command in words (for undo requests). */
export function commandText(board, command) {
  const c = typeof command === "string" ? JSON.parse(command) : command;
  switch (c.type) {
    case "move":
      return `move ${board.name(c.unit)} to ${c.path[c.path.length - 1]}`;
    case "enter_reinforcement":
      return `bring ${board.name(c.unit)} on at ${c.path[0]}`;
    case "end_phase":
      return "end the phase";
    case "declare_attack":
      return `attack ${c.defenders.join(", ")}`;
    case "resolve_attack":
      return "roll for the attack";
    case "retreat":
      return `retreat ${board.name(c.unit)} to ${c.to}`;
    case "advance":
      return `advance ${board.name(c.unit)} to ${c.to}`;
    case "exchange_losses":
      return `lose ${c.units.map((u) => board.name(u)).join(", ")}`;
    case "decline":
      return "decline";
    case "exit_map":
      return `${board.name(c.unit)} exits the map at ${c.path[c.path.length - 1]}`;
    case "strategic_move":
      return `strategic move of ${board.name(c.unit)} to ${c.path[c.path.length - 1]}`;
    case "build_breastworks":
      return `begin breastworks with ${board.name(c.unit)}`;
    case "complete_breastworks":
      return `complete the breastworks of ${board.name(c.unit)}`;
    case "place_rally":
      return `rally ${c.units.map((u) => board.name(u)).join(", ")}`;
    case "roll_rally":
      return "roll the rally dice";
    case "voluntary_rout":
      return `rout ${c.units.map((u) => board.name(u)).join(", ")}`;
    case "retreat_before_combat":
      return c.units.length ? `retreat ${c.units.map((u) => board.name(u)).join(", ")} before combat` : "no retreat before combat";
    case "choose_terrain":
      return `choose ${c.option}`;
    default:
      return c.type;
  }
}
