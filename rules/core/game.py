"""The static context of one game: the scenario, the rule set and the options, with the map's movement
and zone-of-control tables computed once.

The state (rules/core/state.py) holds only what changes; it reaches its ``Game`` through ``state.game``, an
attribute that is never encoded, so a state's canonical encoding and digest stay small and cheap. A
state decoded from a snapshot is given its ``Game`` again by ``rules.core.state.decode(data, game)``.
"""

from __future__ import annotations

from typing import Any

from rules.core import gunboats, terrain
from rules.core.battle_rule import BattleRules
from rules.core.components import battle
from rules.core.errors import RuleViolation
from rules.core.hexes import hexside
from rules.core.ruleset import Ruleset
from rules.core.scenario import SIDES, Scenario, Unit


class Game:
    """One scenario played under one rule set with some options; immutable, shared by every state
    of that game."""

    def __init__(self, scenario: Scenario, ruleset: Ruleset, options: dict | None = None):
        self.options: dict[str, Any] = dict(options or {})
        # The battle's own optional rules (scenario.toml [options]): their units and blocks, as chosen.
        scenario = scenario.played_with(self.options)
        self.scenario = scenario
        self.ruleset = ruleset  # rules/rulesets: get("classic") or get("revised")
        refused = gunboats.unplayable(scenario, self.ruleset)
        if refused is not None:
            raise ValueError(refused)
        m = scenario.map
        self.grid = m.grid
        self.terrain: dict[str, str] = dict(m.hexes)
        self.units: dict[str, Unit] = {u.id: u for u in scenario.units}
        # each side's unit ids, for the questions asked of one side's units (5.12, 5.32)
        self.side_units: dict[str, tuple[str, ...]] = {
            s: tuple(u.id for u in scenario.units if u.side == s) for s in SIDES
        }
        self.gunboats = frozenset(u.id for u in scenario.units if u.type == gunboats.GUNBOAT)  # revised 9.6
        # The units that arrive during play by the chart (15.11) or as a group a table brings (Savage's
        # Station 17.1), in scenario order: rules/procedures/reinforcements.py ``waiting`` asks of these.
        self.scheduled = tuple(u for u in scenario.units if u.arrives is not None or u.group is not None)
        # The battle's exclusive rules under this rule set (rules/core/components; raises BattleError).
        self.battle: battle.Battle = battle.decode(
            scenario.exclusive, scenario.exclusive_overrides.get(self.ruleset.name)
        )
        # The battle's rules (rules/core/battle_rule.py): one per mechanism its exclusive rules set.
        self.rules = BattleRules(self.ruleset.mechanisms, self.battle, self.ruleset.name)
        # The rule set's handler table without the hooks of battle rules this battle lacks (only_with),
        # with the battle's rules' hooks, commands and events put in.
        self.handlers = self.ruleset.handlers.for_battle(self.battle, self.rules)
        # Who may not start a move beyond the standard rules: the battle's exclusive rules (16.11, 17.2,
        # 17.11, in that order), then the rule set's (revised 12.41 b) with the battle's rules in it.
        self.movement_restrictions = (
            *self.battle.movement_restrictions(),
            *self.handlers.movement_restrictions,
        )
        self._cases = dict(self.ruleset.cases)
        self._step_problems: dict[tuple[str, str], tuple[str, str] | None] = {}  # step_problem's answers
        self._cases.update(scenario.cases.get(self.ruleset.name, {}))
        self.neighbours: dict[str, tuple[str, ...]] = {
            h: tuple(n for n in self.grid.neighbours(h) if n in self.terrain) for h in self.terrain
        }
        # steps[a]: every (b, movement points) a unit may move from a into b, units aside (5.2, 9.0).
        # The rule set's ``movement_costs`` procedure: 1975, one table for all (rules/procedures/movement.py);
        # revised, each unit type its own and a cost for steps into an enemy-controlled hex (10.1, 7.2).
        self.steps_by_type, self.zoc_cost_by_type = self.ruleset.procedures.movement_costs(self)
        self.steps = self.steps_by_type["infantry"]
        if self.ruleset.gunboat_range:  # revised 9.62: river hexes (and the scenario's own) only
            self.steps_by_type = {**self.steps_by_type, gunboats.GUNBOAT: gunboats.steps(self)}
        if self.rules.barred_steps:  # the steps the battle's rules bar to a unit type in a move
            barred = {t: frozenset().union(*(h(scenario.map, t) for h in self.rules.barred_steps)) for t in self.steps_by_type}
            self.steps_by_type = {
                t: {a: tuple((b, c) for b, c in s if (a, b) not in barred[t]) for a, s in steps.items()} if barred[t] else steps
                for t, steps in self.steps_by_type.items()
            }
        # ... and in a retreat too, by unit type (only the types with some)
        self.crossing_barred = {
            t: b for t in self.steps_by_type if self.rules.barred_retreat_steps
            and (b := frozenset().union(*(h(scenario.map, t) for h in self.rules.barred_retreat_steps)))
        }
        # the hexsides across which the battle's rules make attacks optional
        self.optional_attack_hexsides = frozenset().union(*(h(scenario.map) for h in self.rules.optional_attack_hexsides))
        self.step_cost_by_type = {
            t: {(a, b): c for a, s in steps.items() for b, c in s} for t, steps in self.steps_by_type.items()
        }
        self.step_cost: dict[tuple[str, str], int] = self.step_cost_by_type["infantry"]
        # Wilderness 18.13, 18.21: a side's own costs (the battle's ``terrain_costs``), by (side, type).
        self.side_steps: dict[tuple[str, str], dict[str, tuple]] = {}
        self.side_zoc_cost: dict[tuple[str, str], dict[tuple[str, str], int]] = {}
        if self.battle.terrain_costs is not None:
            for side in self.battle.terrain_costs.sides():
                steps, zoc = self.ruleset.procedures.movement_costs(self, side)
                for t, table in steps.items():
                    self.side_steps[side, t] = table
                    if t in zoc:
                        self.side_zoc_cost[side, t] = zoc[t]
        self.side_step_cost = {
            k: {(a, b): c for a, s in steps.items() for b, c in s} for k, steps in self.side_steps.items()
        }
        # Chickamauga 19.23: a train moves only along roads and trails: its type's steps through a road
        # or trail hexside, by unit type (empty in a battle without trains).
        self.train_steps: dict[str, dict[str, tuple]] = {}
        self.train_step_cost: dict[str, dict[tuple[str, str], int]] = {}
        if self.battle.trains is not None:
            # Road to Vicksburg 18.4 (``trails = false``): "can only move along roads"
            routes = (terrain.ROAD, terrain.TRAIL) if self.battle.trains.trails else (terrain.ROAD,)
            bound = [u for u in (*self.battle.trains.units, *self.battle.trains.road_only) if u in self.units]
            for t in {self.units[u].type for u in bound}:
                side = next(self.units[u].side for u in bound if self.units[u].type == t)
                self.train_steps[t] = {
                    a: tuple((b, c) for b, c in s if any(r in m.features(a, b) for r in routes))
                    for a, s in self.steps_of(side, t).items()
                }
                self.train_step_cost[t] = {(a, b): c for a, s in self.train_steps[t].items() for b, c in s}
        # Olustee 19.2: the Rail Gun moves only along railway hexsides (its type's steps through them).
        self.rail_steps: dict[str, dict[str, tuple]] = {}
        self.rail_step_cost: dict[str, dict[tuple[str, str], int]] = {}
        gun = self.battle.train_artillery
        if gun is not None and gun.railway_movement:
            for t in {self.units[u].type for u in gun.units if u in self.units}:
                self.rail_steps[t] = {
                    a: tuple((b, c) for b, c in s if terrain.RAILWAY in m.features(a, b))
                    for a, s in self.steps_by_type[t].items()
                }
                self.rail_step_cost[t] = {(a, b): c for a, s in self.rail_steps[t].items() for b, c in s}
        # zoc_into[h]: the hexes a unit in h exerts its zone of control into (6.0, 6.6).
        self.zoc_into: dict[str, tuple[str, ...]] = {
            h: tuple(n for n in around if self._zoc_extends(h, n)) for h, around in self.neighbours.items()
        }
        # zoc_from[n]: the hexes whose units exert a zone of control into n (zoc_into turned around).
        zoc_from: dict[str, list[str]] = {}
        for h, into in self.zoc_into.items():
            for n in into:
                zoc_from.setdefault(n, []).append(h)
        self.zoc_from: dict[str, tuple[str, ...]] = {n: tuple(hs) for n, hs in zoc_from.items()}
        # Each side's units with a zone of control: not gunboats (revised 9.64), nor trains without one
        # (Chickamauga 19.3), nor symbolic units (Road to Vicksburg 18.3); the side's own tuple when all.
        t = self.battle.trains
        without = {*(t.units if t is not None and not t.zone_of_control else ())}
        if self.battle.symbolic_units is not None:
            without |= {*self.battle.symbolic_units.units}
        without |= self.gunboats
        self.zone_units: dict[str, tuple[str, ...]] = {
            s: us if without.isdisjoint(us) else tuple(u for u in us if u not in without)
            for s, us in self.side_units.items()
        }
        # 5.24, 19.12; revised 6.28: river ferry and pontoon hexes, never ended in.
        self.ferry_hexes = frozenset(
            h for h, t in self.terrain.items() if t in (terrain.FERRY, terrain.PONTOON)
        )
        # ... and those no move ends in: all of them, but the River ferry hexes when the battle lets
        # units end their Movement Phase there (Grand Chancellorsville 22.11: ``ferries.may_end``).
        may_end = self.battle.ferries is not None and self.battle.ferries.may_end
        self.no_end_hexes = frozenset(h for h in self.ferry_hexes if not (may_end and self.terrain[h] == terrain.FERRY))
        # 17.15: the hexes whose control the battle's rules ask about; only these are tracked.
        self.control_hexes = frozenset(h for h in self.battle.tracked_hexes() if h in self.terrain)
        # What blocks the line of sight from one hex to another (rules/queries/artillery.py), by
        # (firer, target), filled as it is asked: it depends on the map and the rule set only.
        self.sight_blockers: dict[tuple[str, str], str | None] = {}
        # rules/queries/artillery.py may_bombard's answers, by (firer, target, reach).
        self.bombard_pairs: dict[tuple[str, str, int | None], bool] = {}
        # What rules.core.state.kept computed for a position, by (question, the state's encoding).
        self.positions_seen: dict[tuple[str, bytes], Any] = {}
        # The units' hexes last found with every hex within the stacking limit (5.32), or None
        # (rules/queries/stacking.py ``known_within_limit``).
        self.within_limit: dict[str, str] | None = None

    # -- names ---------------------------------------------------------------------------------
    def case(self, name: str) -> str:
        """The case number of the rule called ``name`` in the rule set in force (the scenario's own
        numbering of its exclusive rules wins)."""
        if name in self._cases:
            return self._cases[name]
        head = name.split(".", 1)[0]
        return self._cases.get(head, self.ruleset.cases["movement"])

    def case_named(self, name: str, default: str = "") -> str:
        """The case number of the rule ``name`` if the rule set or the scenario numbers it, else
        ``default`` (no fall-back to the movement rules, unlike ``case``)."""
        return self._cases.get(name, default)

    def violation(self, name: str, message: str) -> RuleViolation:
        return RuleViolation(self.case(name), message)

    def designation(self, unit_id: str) -> str:
        return self.units[unit_id].designation

    def movement_allowance(self, unit_id: str) -> int:
        """The unit's printed allowance, else the rule set's for its type (revised 2.4: cavalry 8), never
        below the rule set's minimum for the type (2.4: cavalry at least 8)."""
        u = self.units[unit_id]
        rs = self.ruleset
        if u.type == gunboats.GUNBOAT or self.rail_bound(unit_id):
            return gunboats.ALLOWANCE  # 9.62: unlimited; Olustee 19.2: "unlimited ... on railway hexes"
        if u.movement_allowance is not None:
            n = u.movement_allowance
        else:
            n = rs.movement_allowance_by_type.get(u.type, rs.movement_allowance)
        return max(n, rs.minimum_allowance_by_type.get(u.type, 0))

    def steps_for(self, unit_id: str) -> dict[str, tuple]:
        """The step table of the unit's type (Game.steps for every type in the 1975 book); a train's
        roads and trails only (Chickamauga 19.23)."""
        u = self.units[unit_id]
        if self.rail_bound(unit_id):
            return self.rail_steps[u.type]  # Olustee 19.2
        if self.road_bound(unit_id):
            return self.train_steps[u.type]
        return self.steps_of(u.side, u.type)

    def steps_of(self, side: str, type_: str) -> dict[str, tuple]:
        """The step table of a unit of ``side`` and ``type_`` (neither rail- nor road-bound): its side's own
        (Wilderness 18.13, 18.21: the battle's ``terrain_costs``), else its type's."""
        own = self.side_steps.get((side, type_)) if self.side_steps else None
        return self.steps_by_type[type_] if own is None else own

    def step_cost_for(self, unit_id: str) -> dict[tuple[str, str], int]:
        u = self.units[unit_id]
        if self.rail_bound(unit_id):
            return self.rail_step_cost[u.type]  # Olustee 19.2
        if self.road_bound(unit_id):
            return self.train_step_cost[u.type]  # Chickamauga 19.23
        return self.step_cost_of(u.side, u.type)

    def step_cost_of(self, side: str, type_: str) -> dict[tuple[str, str], int]:
        """What each step costs a unit of ``side`` and ``type_`` (as ``steps_of``)."""
        own = self.side_step_cost.get((side, type_)) if self.side_step_cost else None
        return self.step_cost_by_type[type_] if own is None else own

    def road_bound(self, unit_id: str) -> bool:
        """Chickamauga 19.23, Road to Richmond 21.15, 21.23: a unit that moves and retreats only along
        roads and trails: a train, or a unit of the trains component's ``road_only`` (the Siege Train)."""
        t = self.battle.trains
        return t is not None and (t.is_train(unit_id) or unit_id in t.road_only)

    def rail_bound(self, unit_id: str) -> bool:
        """Olustee 19.2: a Train that moves only on railway hexes, with an unlimited Movement Allowance
        (``train_artillery`` with ``railway_movement``)."""
        gun = self.battle.train_artillery
        return gun is not None and gun.railway_movement and gun.binds(unit_id)

    def stacking_barred(self, positions: dict[str, str], unit: str) -> frozenset[str]:
        """The hexes ``unit`` may not end a move, a retreat, a displacement or an entry in: First Bull Run
        17.2 (no unit stacks with Runyon's), Road to Vicksburg 19.4 (no more than one brigade-sized unit)."""
        barred = self.battle.alone_barred(positions, unit)
        rule = self.battle.stacking
        if rule is not None and rule.at_most_one:
            sizes = self.__dict__.get("_sizes")
            if sizes is None:
                sizes = self.__dict__["_sizes"] = {u: v.size for u, v in self.units.items()}
            barred = barred | rule.sized_barred(positions, sizes, unit)
        return barred

    def is_train(self, unit_id: str) -> bool:
        """Chickamauga 19.0: a train of the battle's (rules/core/components/trains.py)."""
        return self.battle.trains is not None and self.battle.trains.is_train(unit_id)

    def zoc_cost_for(self, unit_id: str) -> dict[tuple[str, str], int] | None:
        """Revised 7.2: what a step into an enemy-controlled hex costs this unit's type, or None when
        it costs what any step costs (1975)."""
        u = self.units[unit_id]
        return self.zoc_cost_of(u.side, u.type)

    def zoc_cost_of(self, side: str, type_: str) -> dict[tuple[str, str], int] | None:
        """Revised 7.2 for a unit of ``side`` and ``type_``: its side's own (Wilderness 18.13), else its type's."""
        if self.side_zoc_cost and (side, type_) in self.side_zoc_cost:
            return self.side_zoc_cost[side, type_]
        return self.zoc_cost_by_type.get(type_)

    def bombard_range(self, unit_id: str) -> int:
        """How far the unit bombards: the rule set's artillery range (8.11, 9.12), six for a gunboat
        (revised 9.65), the battle's for its rifled artillery (Antietam 18.2: seven)."""
        unit = self.units[unit_id]
        if unit.type == gunboats.GUNBOAT:
            return self.ruleset.gunboat_range
        rifled = self.battle.rifled(unit)
        return self.ruleset.bombard_range if rifled is None else rifled.range

    # -- terrain ---------------------------------------------------------------------------------
    def step_cost_1975(self, a: str, b: str) -> int | None:
        """5.2, 9.0: the movement points to move from a into adjacent b, or None where no unit may."""
        return None if self.step_problem(a, b) else self._cost(a, b)

    def _cost(self, a: str, b: str) -> int:
        rs = self.ruleset
        kind = self.terrain[b]
        features = self.scenario.map.features(a, b)
        base = rs.terrain_cost[kind]
        if kind == terrain.FERRY:
            cost = base  # Ruling (19.11): entering a ferry hex costs 3 MP even along a road.
        elif terrain.ROAD in features:
            cost = rs.road_cost  # 5.22
        elif terrain.TRAIL in features:
            cost = min(base, rs.trail_cost)  # 5.23; 9.0 "Ignore Trails in Clear Terrain"
        else:
            cost = base  # 5.21, 9.0
        if terrain.FORD in features:
            cost += rs.ford_extra  # 5.25; Ruling: a road does not negate the ford's extra point
        return cost

    def step_problem(self, a: str, b: str) -> tuple[str, str] | None:
        """Why no unit may move from a into adjacent b, whatever the units (rule name, sentence), or
        None when it may. The map never changes: each answer is kept."""
        key = (a, b)
        if key not in self._step_problems:
            self._step_problems[key] = self._step_problem(a, b)
        return self._step_problems[key]

    def _step_problem(self, a: str, b: str) -> tuple[str, str] | None:
        if b not in self.terrain:
            return "movement", f"{b} is not on the map"
        kind = self.terrain[b]
        if self.ruleset.terrain_cost.get(kind) is None:
            if kind == terrain.RIVER:
                return "river", f"{b} is a river hex; units may never enter river hexes"
            return "terrain", f"{b} ({kind}) may not be entered"
        features = self.scenario.map.features(a, b)
        if terrain.CREEK in features and not (features & {terrain.BRIDGE, terrain.FORD}):
            return "creek", f"the hexside {a}-{b} is a creek; creeks may be crossed only at bridges or fords"
        if terrain.RIVER_SIDE in features:
            return "river", f"the hexside {a}-{b} is a river hexside and may not be crossed"
        if kind in (terrain.FERRY, terrain.PONTOON) and terrain.FERRY_CROSSING not in features:
            return "river", f"the ferry hex {b} may be entered only through the hexsides its arrows show"
        if self.terrain[a] in (terrain.FERRY, terrain.PONTOON) and terrain.FERRY_CROSSING not in features:
            return "river", f"the ferry hex {a} may be left only through the hexsides its arrows show"
        ferries = self.battle.ferries
        one_way = ferries.step_problem(a, b) if ferries is not None else None  # Shiloh 20.0
        if one_way is not None:
            return "ferries.one_way", one_way
        return None

    def _zoc_extends(self, a: str, b: str) -> bool:
        # 6.6: never through non-bridge, non-ford creek hexsides, never into river ferry hexes;
        # revised 7.6: nor into river or pontoon hexes (where gunboats sail, 9.6), nor into a trench hex
        # across its trench hexside (10.39).
        side = self.scenario.map.hexsides.get(hexside(a, b))
        features = side.features if side else frozenset()
        ferries = self.battle.ferries
        if ferries is not None and ferries.zoc_through_arrows and terrain.FERRY in (self.terrain[a], self.terrain[b]):
            # Grand Chancellorsville 22.11: "Zones of Control extend into and out of River ferry hexes
            # solely through the entry hex sides of that hex"
            return terrain.FERRY_CROSSING in features and self.terrain[b] not in (terrain.PONTOON, terrain.RIVER, terrain.LAKE)
        if self.terrain[b] in (terrain.FERRY, terrain.PONTOON, terrain.RIVER, terrain.LAKE):
            return False
        if terrain.TRENCH in features and side.barbed == a:
            return False
        return not (terrain.CREEK in features and not (features & {terrain.BRIDGE, terrain.FORD}))

