"""A scenario described for people and programs: ``as_dict`` (the JSON of ``bluegray scenario show
--json`` and of the API) and ``summary`` (a readable text)."""

from __future__ import annotations

from collections import Counter

from rules.core.scenario import Scenario

TYPE_LETTER = {"infantry": "", "artillery": "a", "cavalry": "c"}  # the charts' notation (14.0)


def as_dict(scenario: Scenario) -> dict:
    """Plain JSON-ready data. ``map.hexes`` is ``{"XXYY": {"terrain": ...}}``, ``map.hexsides`` is
    ``{"AAAA|BBBB": {"features": [...], "barbed": hex or null}}`` (roads and trails included), and each
    unit has ``hex`` null when it is not on the map at start and ``arrives`` null when it is."""
    m = scenario.map
    return {
        "id": scenario.id,
        "name": scenario.name,
        "rulesets": list(scenario.rulesets),
        "turns": scenario.turns,
        "night_turns": list(scenario.night_turns),
        "first_player": scenario.first_player,
        "map": {
            "lower_columns": m.lower_columns,
            "hexes": {h: {"terrain": t} for h, t in sorted(m.hexes.items())},
            "hexsides": {k: {"features": sorted(s.features), "barbed": s.barbed} for k, s in sorted(m.hexsides.items())},
            "areas": {k: list(v) for k, v in sorted(m.areas.items())},
        },
        "units": [
            {
                "id": u.id,
                "side": u.side,
                "type": u.type,
                "strength": u.strength,
                "designation": u.designation,
                "hex": u.hex,
                "arrives": u.arrives,
                "entry": list(u.entry),
                "movement_allowance": u.movement_allowance,
            }
            for u in scenario.units
        ],
        "exclusive": scenario.exclusive,
        "cases": scenario.cases,
        "provenance": scenario.provenance,
    }


def battle_and_date(name: str) -> tuple[str, str]:
    """A scenario's name is "<battle>, <date>" (docs/SCENARIOS.md): "Chickamauga, Sept. 19-20, 1863" is
    ("Chickamauga", "Sept. 19-20, 1863"); a name without a comma is all battle."""
    battle, _, date = name.partition(", ")
    return battle, date


def map_size(scenario: Scenario) -> tuple[int, int]:
    """(columns, rows): the highest column and row numbers of the map's hexes (hex XXYY)."""
    hexes = scenario.map.hexes
    return max(int(h[:2]) for h in hexes), max(int(h[2:]) for h in hexes)


def listing(scenario: Scenario) -> dict:
    """One line of the scenario list (``GET /api/scenarios``, the lobby): what a player picks a battle by."""
    battle, date = battle_and_date(scenario.name)
    columns, rows = map_size(scenario)
    return {
        "id": scenario.id,
        "name": scenario.name,
        "battle": battle,
        "date": date,
        "turns": scenario.turns,
        "columns": columns,
        "rows": rows,
        "rulesets": list(scenario.rulesets),
        # the battle's optional rules, chosen at game creation (``rules: {name: true}``)
        "options": [{"name": n, "title": o.title, "case": o.case} for n, o in scenario.options.items()],
    }


def summary(scenario: Scenario) -> str:
    """A page a person reads: the sequence of play, the map in numbers, the order of battle."""
    m = scenario.map
    lines = [
        f"{scenario.name}  [{scenario.id}]",
        f"rule sets: {', '.join(scenario.rulesets)};  {scenario.turns} Game-Turns;  night: "
        f"{', '.join(map(str, scenario.night_turns)) or 'none'};  first player: {scenario.first_player}",
    ]
    if "map" in scenario.provenance:
        lines.append(f"map: {scenario.provenance['map']}")
    terrains = Counter(m.hexes.values())
    features = Counter(f for s in m.hexsides.values() for f in s.features)
    lines += [
        "",
        f"Map: {len(m.hexes)} hexes ({m.lower_columns} columns lower): "
        + ", ".join(f"{n} {t}" for t, n in terrains.most_common()),
        "Hexsides: " + (", ".join(f"{n} {f}" for f, n in sorted(features.items())) or "none"),
    ]
    for name, hexes in sorted(m.areas.items()):
        shown = ", ".join(hexes[:12]) + (f", ... ({len(hexes)})" if len(hexes) > 12 else "")
        lines.append(f"  {name}: {shown}")
    for side in ("union", "confederate"):
        units = [u for u in scenario.units if u.side == side]
        if not units:
            continue
        start = [u for u in units if u.hex is not None]
        late = [u for u in units if u.hex is None]
        lines += ["", f"{side.title()}: {len(start)} unit{'s' if len(start) != 1 else ''} on the map"
                  + (f", {len(late)} reinforcement{'s' if len(late) != 1 else ''}" if late else "")]
        for u in start:
            lines.append(f"  {u.hex}  {u.strength}{TYPE_LETTER[u.type]:<2} {u.designation:<12} {u.id}")
        for u in late:
            lines.append(f"  T{u.arrives:<4} {u.strength}{TYPE_LETTER[u.type]:<2} {u.designation:<12} {u.id}  at {', '.join(u.entry)}")
    if scenario.exclusive:
        lines += ["", "Exclusive rules: " + ", ".join(scenario.exclusive)]
    return "\n".join(lines)
