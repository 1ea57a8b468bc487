// What the client knows of a game: the server's view of it (a `view` message: api/views.py
// position_view), held as the server sends it. The client folds no event and decides nothing: the
// board, the session, the last move and combat, and the record are the server's; what a player may do
// comes from the server's `choices`.

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
    this.digest = null;
    this.state = {
      turn: 1, phasing: scenario.first_player, phase: "movement",
      positions: Object.fromEntries(scenario.units.filter((u) => u.hex).map((u) => [u.id, u.hex])),
      eliminated: [], moved: [], pending: [], attacked: [], advanced: [], ineffective: [], morale: {}, rallying: [],
      breastworks: {}, vp: { union: 0, confederate: 0 }, game_over: false, result: null,
    };
    this.session = { seats: [], started: false, undo: null, draw: null, reverted: [], finished: null, to_act: null, waiting_since: 0 };
    this.undoable = []; // a seat's view: the latest effective commands, oldest first ({version, seat, rolls, text})
    this.undoDetail = []; // the actions an open undo request takes back, in words
    this.lastMove = null; // {unit, path} of the latest move, retreat or advance of this phase
    this.lastCombat = null; // the latest combat_resolved of this phase
    this.declared = null;
    this.glance = null; // the battle at a glance (api/glance.py): turn track, points, objectives, losses
    this.writtenDown = {}; // Road to Richmond 17.62 (the view's written_down): unit -> the Game-Turn it arrives with
    this.leaders = []; // Grand Chancellorsville 23.5 (the view's leaders): {id, name, side, stars, hex, unit, alone}
  }

  /** The Leader `id` on the map (the server's word), or null. */
  leader(id) {
    return this.leaders.find((x) => x.id === id) || null;
  }

  /** The Leaders on the map in `hex`. */
  leadersIn(hex) {
    return this.leaders.filter((x) => x.hex === hex);
  }

  name(unit) {
    return this.units[unit]?.designation || unit;
  }

  /** The seat the game waits for (the server's word; null before both seats joined and after the end). */
  toAct() {
    return this.session.to_act;
  }

  /** The server's view (a `view` message's `view`). */
  applyView(v) {
    this.setState(v.state, v.session, v.version, v.head);
    this.digest = v.digest;
    this.undoable = v.undoable || [];
    this.undoDetail = v.undo_detail || [];
    this.lastMove = v.last_move || null;
    this.lastCombat = v.last_combat || null;
    this.glance = v.glance || null;
    this.declared = v.declared || null; // how the odds of the declared attack waiting for its die are built
    this.writtenDown = v.written_down || {}; // Road to Richmond 17.62: the units written down to arrive later (to their player)
    this.leaders = v.leaders || []; // Grand Chancellorsville 23.5: the Leaders on the map
  }

  /** A replay frame's position (the rules state and the session at its version). */
  applyFrame(f) {
    this.setState(typeof f.state === "string" ? JSON.parse(f.state) : f.state, f.session, f.version, f.head);
    this.declared = f.declared || null;
    this.leaders = f.leaders || [];
  }

  setState(st, session, version, head) {
    this.state = {
      result: null,
      ...st,
      moved: st.moved || [], attacked: st.attacked || [], advanced: st.advanced || [], ineffective: st.ineffective || [],
      pending: st.pending || [], morale: st.morale || {}, rallying: st.rallying || [], breastworks: st.breastworks || {},
      vp: st.vp || { union: 0, confederate: 0 },
    };
    // (A patch of the view removes a member that became null: absent reads as null here.)
    this.session = { undo: null, draw: null, finished: null, to_act: null, ...session };
    this.version = version;
    this.head = head;
  }
}

export function finishText(f) {
  const why = { rules: "the last Game-Turn", resignation: "resignation", draw: "a draw agreed", abandonment: "abandonment", time: "time (the loser's clock ran out)" }[f.reason] || f.reason;
  const winner = f.winner ? `${SIDE_NAME[f.winner]} wins` : "no winner";
  return `${f.result || winner} — by ${why}${f.by ? ` (${SIDE_NAME[f.by]})` : ""}`;
}

/** The word with its first letter capital ("combat" -> "Combat"). */
export function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
