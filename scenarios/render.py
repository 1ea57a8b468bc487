"""A scenario's map drawn as SVG, so that a person can compare it with the printed map: every hex with
its number, its terrain as a colour AND a pattern (readable without colour vision), the hexside features
(creeks, bridges, fords, roads, trails, redoubts with their barbs, ferry arrows), the named areas and
the units at start (side colour, strength, designation, a NATO-style type symbol).

``render(scenario, ruleset) -> str``: the legend gives the movement costs and combat effects of the
rule set in force (its Terrain Effects Chart). Pure: no I/O; the same scenario always gives the same
text.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from rules.core import terrain
from rules.core.components import battle
from rules.core.hexes import hexside_hexes, parse_hex
from rules.core.ruleset import Ruleset
from rules.core.scenario import Scenario, Unit

R = 30.0  # corner radius of a hex, px
H = math.sqrt(3) * R  # height of a flat-topped hex (flat side to flat side)
MARGIN = 24.0
TITLE = 56.0

# Fill colour and pattern of each hex terrain (9.0). The patterns carry the distinction on their own.
TERRAIN_STYLE = {
    terrain.CLEAR: ("#f3eed8", None),
    terrain.FOREST: ("#a9cf8f", "forest"),
    terrain.ROUGH: ("#d7b98a", "rough"),
    terrain.FOREST_ROUGH: ("#93a86a", "forest_rough"),
    terrain.TOWN: ("#c9c2bb", "town"),
    terrain.RIVER: ("#5b9bd5", "river"),
    terrain.FERRY: ("#a8cdee", "ferry"),
    terrain.SWAMP: ("#c6dccf", "swamp"),  # revised 10.1
    terrain.LAKE: ("#5b9bd5", "river"),
    terrain.POND: ("#5b9bd5", "river"),
}
TERRAIN_NAME = {
    terrain.CLEAR: "Clear",
    terrain.FOREST: "Forest",
    terrain.ROUGH: "Rough",
    terrain.FOREST_ROUGH: "Forest & Rough",
    terrain.TOWN: "Town",
    terrain.RIVER: "River",
    terrain.FERRY: "River Ferry",
    terrain.SWAMP: "Swamp",
    terrain.LAKE: "Lake",
    terrain.POND: "Pond",
}
SIDE_STYLE = {"union": ("#1f3f8f", "#ffffff"), "confederate": ("#d9d9d9", "#111111")}  # fill, ink
CREEK = "#1a5fb4"
ROAD = "#8b2e16"
TRAIL = "#3d2a12"
CASING = "#fffbe8"  # a pale edge under roads and trails so they read on every terrain
REDOUBT = "#222222"

PATTERNS = """
<pattern id="forest" width="12" height="12" patternUnits="userSpaceOnUse">
  <circle cx="3" cy="3" r="2.2" fill="#3d7a2a"/><circle cx="9" cy="9" r="2.2" fill="#3d7a2a"/>
</pattern>
<pattern id="rough" width="14" height="10" patternUnits="userSpaceOnUse">
  <path d="M1 8 L4 3 L7 8 M8 8 L11 3 L14 8" fill="none" stroke="#7a5524" stroke-width="1.2"/>
</pattern>
<pattern id="forest_rough" width="14" height="14" patternUnits="userSpaceOnUse">
  <circle cx="3.5" cy="3.5" r="2.2" fill="#2f5f20"/>
  <path d="M7 13 L10.5 8 L14 13" fill="none" stroke="#5a3d14" stroke-width="1.4"/>
</pattern>
<pattern id="town" width="10" height="10" patternUnits="userSpaceOnUse">
  <rect x="1" y="1" width="4" height="4" fill="#6d6259"/><rect x="6" y="6" width="3" height="3" fill="#6d6259"/>
</pattern>
<pattern id="river" width="16" height="8" patternUnits="userSpaceOnUse">
  <path d="M0 4 Q4 0 8 4 T16 4" fill="none" stroke="#ffffff" stroke-width="1.2" opacity="0.8"/>
</pattern>
<pattern id="ferry" width="16" height="8" patternUnits="userSpaceOnUse">
  <path d="M0 4 Q4 1 8 4 T16 4" fill="none" stroke="#2a6fb0" stroke-width="1" stroke-dasharray="3 2"/>
</pattern>
<pattern id="swamp" width="14" height="10" patternUnits="userSpaceOnUse">
  <path d="M1 7 H6 M8 4 H13 M4 7 V4 M11 4 V1" fill="none" stroke="#3b6b58" stroke-width="1.1"/>
</pattern>
<marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">
  <path d="M0 0 L10 5 L0 10 z" fill="#0b3d91"/>
</marker>
"""


class Layout:
    """Where each hex of a map is drawn."""

    def __init__(self, scenario: Scenario):
        m = scenario.map
        self.lower = 0 if m.lower_columns == "even" else 1
        cols = [parse_hex(h)[0] for h in m.hexes]
        rows = [parse_hex(h)[1] for h in m.hexes]
        self.c0, self.c1, self.r0, self.r1 = min(cols), max(cols), min(rows), max(rows)
        self.width = 2 * MARGIN + (self.c1 - self.c0) * 1.5 * R + 2 * R
        self.map_height = (self.r1 - self.r0 + 1.5) * H
        self.top = TITLE

    def centre(self, number: str) -> tuple[float, float]:
        c, r = parse_hex(number)
        x = MARGIN + R + (c - self.c0) * 1.5 * R
        y = self.top + H / 2 + (r - self.r0) * H + (H / 2 if (c + self.lower) % 2 == 0 else 0)
        return x, y

    def corners(self, number: str) -> list[tuple[float, float]]:
        x, y = self.centre(number)
        return [(x + R * math.cos(math.radians(a)), y + R * math.sin(math.radians(a))) for a in range(0, 360, 60)]

    def edge(self, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corners of the hexside between adjacent hexes a and b."""
        bx, by = self.centre(b)
        near = sorted(self.corners(a), key=lambda p: (p[0] - bx) ** 2 + (p[1] - by) ** 2)
        return near[0], near[1]


def _pts(points) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _text(x, y, s, size, fill="#222", anchor="middle", weight="normal") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" fill="{fill}" text-anchor="{anchor}" '
        f'font-weight="{weight}">{escape(s)}</text>'
    )


def render(scenario: Scenario, ruleset: Ruleset) -> str:
    """The whole map as an SVG document, its legend from ``ruleset``'s Terrain Effects Chart."""
    lay = Layout(scenario)
    legend_top = lay.top + lay.map_height + 16
    height = legend_top + 250
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {lay.width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<title>{escape(scenario.name)}</title>",
        f"<defs>{PATTERNS}</defs>",
        f'<rect width="{lay.width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
        _text(MARGIN, 26, scenario.name, 18, anchor="start", weight="bold"),
        _text(MARGIN, 46, _subtitle(scenario), 11.5, fill="#7a1f1f", anchor="start"),
    ]
    out += _hexes(scenario, lay)
    out += _areas(scenario, lay)
    out += _hexsides(scenario, lay)
    out += _numbers(scenario, lay)
    out += _units(scenario, lay)
    out += _legend(scenario, lay, legend_top, ruleset)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _subtitle(scenario: Scenario) -> str:
    status = scenario.provenance.get("map", "")
    bits = [f"{scenario.turns} Game-Turns", f"night: {', '.join(map(str, scenario.night_turns)) or 'none'}",
            f"first player: {scenario.first_player}"]
    if status:
        bits.insert(0, f"Map {status}")
    return " · ".join(bits)


def _hexes(scenario: Scenario, lay: Layout) -> list[str]:
    out = ['<g id="hexes" stroke="#8a8577" stroke-width="0.6">']
    for number in sorted(scenario.map.hexes):
        kind = scenario.map.hexes[number]
        fill, pattern = TERRAIN_STYLE.get(kind, ("#ff00ff", None))
        pts = _pts(lay.corners(number))
        out.append(f'<polygon points="{pts}" fill="{fill}"><title>{number} {kind}</title></polygon>')
        if pattern:
            out.append(f'<polygon points="{pts}" fill="url(#{pattern})" stroke="none"/>')
    out.append("</g>")
    return out


def _areas(scenario: Scenario, lay: Layout) -> list[str]:
    """Victory hexes ringed in the colour of the side that scores them; the other areas by name."""
    out = ['<g id="areas" fill="none">']
    colours = {"union_victory_hexes": SIDE_STYLE["union"][0], "confederate_victory_hexes": "#8b0000"}
    for name, hexes in sorted(scenario.map.areas.items()):
        colour = colours.get(name)
        if colour is None:
            continue
        for h in hexes:
            x, y = lay.centre(h)
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R * 0.78:.1f}" stroke="{colour}" stroke-width="2.4" stroke-dasharray="5 3"/>')
    quota = battle.decode(scenario.exclusive).movement_quota  # 17.14: the quota's bonus hex
    bonus = quota.bonus_hex if quota else None
    if bonus in scenario.map.hexes:
        x, y = lay.centre(bonus)
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R * 0.84:.1f}" stroke="#b8860b" stroke-width="2.4"/>')
    out.append("</g>")
    return out


def _hexsides(scenario: Scenario, lay: Layout) -> list[str]:
    """Creeks and streams first, then roads and trails (centre to centre), bridges and fords across the creek,
    redoubts with barbs towards the barbed hex, ferry arrows."""
    creeks, streams, paths, crossings, redoubts, arrows = [], [], [], [], [], []
    for name in sorted(scenario.map.hexsides):
        side = scenario.map.hexsides[name]
        a, b = hexside_hexes(name)
        (x1, y1), (x2, y2) = lay.edge(a, b)
        (ax, ay), (bx, by) = lay.centre(a), lay.centre(b)
        f = side.features
        if terrain.CREEK in f:
            creeks.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
        elif terrain.STREAM in f:  # revised 10.1: a stream hexside, drawn thinner than a creek
            streams.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
        if terrain.ROAD in f or terrain.TRAIL in f:
            paths.append(_path_step(ax, ay, bx, by, terrain.ROAD if terrain.ROAD in f else terrain.TRAIL))
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        ux, uy = (bx - ax) / H, (by - ay) / H  # unit vector a -> b
        if terrain.BRIDGE in f:
            crossings.append(_bridge(mx, my, ux, uy))
        if terrain.FORD in f:
            crossings.append(_ford(mx, my, ux, uy))
        if terrain.REDOUBT in f:
            redoubts.append(_redoubt((x1, y1), (x2, y2), lay.centre(side.barbed or b)))
        if terrain.FERRY_CROSSING in f:
            ferry, bank = (a, b) if scenario.map.hexes.get(a) == terrain.FERRY else (b, a)
            (fx, fy), (kx, ky) = lay.centre(ferry), lay.centre(bank)
            arrows.append(
                f'<line x1="{fx + (kx - fx) * 0.15:.1f}" y1="{fy + (ky - fy) * 0.15:.1f}" x2="{fx + (kx - fx) * 0.78:.1f}" '
                f'y2="{fy + (ky - fy) * 0.78:.1f}" stroke="#0b3d91" stroke-width="2.2" marker-end="url(#arrow)"/>'
            )
    return (
        [f'<g id="creeks" stroke="{CREEK}" stroke-width="4" stroke-linecap="round">', *creeks, "</g>"]
        + [f'<g id="streams" stroke="{CREEK}" stroke-width="2.4" stroke-linecap="round">', *streams, "</g>"]
        + ['<g id="roads" stroke-linecap="round">', *paths, "</g>"]
        + ['<g id="crossings">', *crossings, "</g>"]
        + ['<g id="redoubts">', *redoubts, "</g>"]
        + ['<g id="ferries">', *arrows, "</g>"]
    )


def _path_step(ax, ay, bx, by, kind) -> str:
    """One step of a road (solid) or trail (dashed), centre to centre, on a pale casing."""
    line = f'x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}"'
    if kind == terrain.ROAD:
        return f'<line {line} stroke="{CASING}" stroke-width="5.4"/><line {line} stroke="{ROAD}" stroke-width="3.2"/>'
    return (f'<line {line} stroke="{CASING}" stroke-width="4.4"/>'
            f'<line {line} stroke="{TRAIL}" stroke-width="2.2" stroke-dasharray="5 3"/>')


def _bridge(mx, my, ux, uy) -> str:
    """Two short rails across the creek, along the way over it."""
    px, py = -uy, ux
    half, gap = R * 0.32, 3.2
    rails = []
    for s in (-1, 1):
        ox, oy = px * gap * s, py * gap * s
        rails.append(f'<line x1="{mx - ux * half + ox:.1f}" y1="{my - uy * half + oy:.1f}" '
                     f'x2="{mx + ux * half + ox:.1f}" y2="{my + uy * half + oy:.1f}"/>')
    deck = (f'<line x1="{mx - ux * half:.1f}" y1="{my - uy * half:.1f}" x2="{mx + ux * half:.1f}" '
            f'y2="{my + uy * half:.1f}" stroke="#f3eed8" stroke-width="5"/>')
    return f'<g stroke="#222" stroke-width="1.6">{deck}{"".join(rails)}</g>'


def _ford(mx, my, ux, uy) -> str:
    """A row of stepping stones across the creek."""
    half = R * 0.3
    dots = [
        f'<circle cx="{mx + ux * half * t:.1f}" cy="{my + uy * half * t:.1f}" r="2.3"/>' for t in (-1, -0.33, 0.33, 1)
    ]
    return f'<g fill="#ffffff" stroke="#222" stroke-width="1">{"".join(dots)}</g>'


def _redoubt(p1, p2, barbed_centre) -> str:
    """A heavy line on the hexside with three barbs pointing into the barbed hex (18.12)."""
    (x1, y1), (x2, y2) = p1, p2
    bx, by = barbed_centre
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(bx - mx, by - my) or 1
    nx, ny = (bx - mx) / length, (by - my) / length
    barbs = []
    for t in (0.25, 0.5, 0.75):
        sx, sy = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        barbs.append(f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{sx + nx * 6:.1f}" y2="{sy + ny * 6:.1f}"/>')
    return (
        f'<g stroke="{REDOUBT}" stroke-linecap="round"><line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
        f'y2="{y2:.1f}" stroke-width="3"/><g stroke-width="2">{"".join(barbs)}</g></g>'
    )


def _numbers(scenario: Scenario, lay: Layout) -> list[str]:
    out = ['<g id="numbers" font-size="7.5" fill="#333" text-anchor="middle">']
    for number in sorted(scenario.map.hexes):
        x, y = lay.centre(number)
        ink = "#ffffff" if scenario.map.hexes[number] == terrain.RIVER else "#333"
        out.append(f'<text x="{x:.1f}" y="{y - H / 2 + 8.5:.1f}" fill="{ink}">{number}</text>')
    out.append("</g>")
    return out


def _units(scenario: Scenario, lay: Layout) -> list[str]:
    out = ['<g id="units">']
    by_hex: dict[str, list[Unit]] = {}
    for u in scenario.units:
        if u.hex is not None:
            by_hex.setdefault(u.hex, []).append(u)
    for h in sorted(by_hex):
        here = by_hex[h]
        x, y = lay.centre(h)
        n = len(here)
        w = R * (1.05 if n == 1 else 0.86)
        for i, u in enumerate(here):
            cx = x + (i - (n - 1) / 2) * (w + 1.5)
            out.append(counter(u, cx, y + 3, w))
    for u in scenario.units:
        if u.hex is None:
            for h in u.entry:
                if h in scenario.map.hexes:
                    x, y = lay.centre(h)
                    out.append(_text(x, y + 4, f"T{u.arrives}", 10, fill=SIDE_STYLE[u.side][0], weight="bold"))
    out.append("</g>")
    return list(dict.fromkeys(out))  # an entry hex shared by several reinforcements is marked once


def counter(u: Unit, cx: float, cy: float, w: float) -> str:
    """One counter: the designation on top, the NATO type box, the strength below (2.4)."""
    fill, ink = SIDE_STYLE[u.side]
    h = w * 1.0
    x0, y0 = cx - w / 2, cy - h / 2
    # The type box: infantry a cross, cavalry one diagonal, artillery a dot (2.4), a gunboat a hull (9.6).
    bw, bh = w * 0.62, h * 0.3
    bx, by = cx - bw / 2, y0 + h * 0.3
    box = f'<rect x="{bx:.1f}" y="{by:.1f}" width="{bw:.1f}" height="{bh:.1f}" fill="none" stroke="{ink}" stroke-width="1"/>'
    if u.type == "infantry":
        symbol = (f'<path d="M{bx:.1f} {by:.1f} L{bx + bw:.1f} {by + bh:.1f} M{bx + bw:.1f} {by:.1f} '
                  f'L{bx:.1f} {by + bh:.1f}" stroke="{ink}" stroke-width="1"/>')
    elif u.type == "cavalry":
        symbol = f'<path d="M{bx:.1f} {by + bh:.1f} L{bx + bw:.1f} {by:.1f}" stroke="{ink}" stroke-width="1"/>'
    elif u.type == "gunboat":  # revised 9.6: a hull (the game's "g")
        symbol = (f'<path class="gunboat" d="M{bx + bw * 0.12:.1f} {by + bh * 0.5:.1f} L{bx + bw * 0.88:.1f} {by + bh * 0.5:.1f} '
                  f'L{bx + bw * 0.72:.1f} {by + bh * 0.85:.1f} L{bx + bw * 0.28:.1f} {by + bh * 0.85:.1f} Z '
                  f'M{cx:.1f} {by + bh * 0.5:.1f} L{cx:.1f} {by + bh * 0.15:.1f}" fill="{ink}" stroke="{ink}" stroke-width="1"/>')
    else:
        symbol = f'<circle cx="{cx:.1f}" cy="{by + bh / 2:.1f}" r="{bh * 0.3:.1f}" fill="{ink}"/>'
    size = 6.2 if len(u.designation) <= 7 else 5.4
    return (
        f'<g><title>{escape(u.id)}: {escape(u.designation)}, {u.strength} {u.type}, {u.side}</title>'
        f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{w:.1f}" height="{h:.1f}" rx="2" fill="{fill}" stroke="#000" stroke-width="0.8"/>'
        f"{box}{symbol}"
        + _text(cx, y0 + h * 0.24, u.designation, size, fill=ink)
        + _text(cx, y0 + h * 0.93, str(u.strength), 9, fill=ink, weight="bold")
        + "</g>"
    )


def _mp(x) -> str:
    return str(x)  # an int, or an exact Fraction such as 2/3 (revised 6.22)


def terrain_label(kind: str, ruleset: Ruleset) -> str:
    """The Terrain Effects Chart's line for a hex terrain under ``ruleset``: its movement cost (the
    artillery's own where the book gives a second figure, revised 10.1) and its combat effect."""
    cost = ruleset.terrain_cost.get(kind)
    if cost is None:
        words = ["land units may not enter"] + (["gunboats sail it"] if ruleset.gunboat_range and kind == terrain.RIVER else [])
    else:
        artillery = ruleset.terrain_cost_by_type.get("artillery", {}).get(kind)
        words = [f"{_mp(cost)} MP" + (f", artillery {_mp(artillery)}" if artillery not in (None, cost) else "")]
        if kind == terrain.FERRY:
            words.append("through its arrows")
    effect = ruleset.combat_effects.get(kind)
    if effect:
        words.append(effect)
    return f"{TERRAIN_NAME[kind]} ({', '.join(words)})"


def hexside_labels(ruleset: Ruleset) -> dict[str, str]:
    """The legend's line for each hexside feature drawn, under ``ruleset``."""

    def extra(feature: str, base: str) -> str:
        more = ruleset.hexside_cost.get(feature, ruleset.ford_extra if feature == terrain.FORD else 0)
        effect = ruleset.combat_effects.get(feature)
        words = [w for w in (f"+{_mp(more)} MP" if more else "", effect or "") if w]
        return f"{base} ({', '.join(words)})" if words else base

    return {
        terrain.CREEK: "Creek (cross only at bridge or ford)",
        terrain.BRIDGE: extra(terrain.BRIDGE, "Bridge"),
        terrain.FORD: extra(terrain.FORD, "Ford"),
        terrain.ROAD: f"Road ({_mp(ruleset.road_cost)} MP along it)",
        terrain.TRAIL: f"Trail ({_mp(ruleset.trail_cost)} MP along it in forest or rough)",
        terrain.REDOUBT: extra(terrain.REDOUBT, "Redoubt; barbs point to the enemy side"),
        terrain.FERRY_CROSSING: "Ferry arrow: enter and leave only this way",
    }


def _legend(scenario: Scenario, lay: Layout, top: float, ruleset: Ruleset) -> list[str]:
    out = [f'<g id="legend" transform="translate({MARGIN:.0f},{top:.0f})">', _text(0, 12, "Terrain Key", 13, anchor="start", weight="bold")]
    for i, kind in enumerate(sorted(TERRAIN_STYLE, key=list(TERRAIN_STYLE).index)):
        fill, pattern = TERRAIN_STYLE[kind]
        x, y = (i % 2) * 250, 24 + (i // 2) * 26
        out.append(f'<rect x="{x}" y="{y}" width="34" height="20" fill="{fill}" stroke="#8a8577"/>')
        if pattern:
            out.append(f'<rect x="{x}" y="{y}" width="34" height="20" fill="url(#{pattern})"/>')
        out.append(_text(x + 42, y + 14, terrain_label(kind, ruleset), 11, anchor="start"))
    fx = 570
    out.append(_text(fx, 12, "Hexsides", 13, anchor="start", weight="bold"))
    label = hexside_labels(ruleset)
    samples = [
        (f'<line x1="0" y1="10" x2="34" y2="10" stroke="{CREEK}" stroke-width="4"/>', label[terrain.CREEK]),
        (f'<line x1="0" y1="10" x2="34" y2="10" stroke="{CREEK}" stroke-width="4"/>' + _bridge(17, 10, 0, 1), label[terrain.BRIDGE]),
        (f'<line x1="0" y1="10" x2="34" y2="10" stroke="{CREEK}" stroke-width="4"/>' + _ford(17, 10, 0, 1), label[terrain.FORD]),
        (_path_step(0, 10, 34, 10, terrain.ROAD), label[terrain.ROAD]),
        (_path_step(0, 10, 34, 10, terrain.TRAIL), label[terrain.TRAIL]),
        (_redoubt((0, 6), (34, 6), (17, 30)), label[terrain.REDOUBT]),
        ('<line x1="2" y1="10" x2="32" y2="10" stroke="#0b3d91" stroke-width="2.2" marker-end="url(#arrow)"/>', label[terrain.FERRY_CROSSING]),
    ]
    for i, (svg, label) in enumerate(samples):
        y = 22 + i * 24
        out.append(f'<g transform="translate({fx},{y})">{svg}</g>')
        out.append(_text(fx + 44, y + 14, label, 11, anchor="start"))
    ux = 940
    out.append(_text(ux, 12, "Units at start", 13, anchor="start", weight="bold"))
    demo = [
        Unit("u", "union", "infantry", 6, "1/2/XIV"),
        Unit("c", "union", "cavalry", 6, "2"),
        Unit("a", "confederate", "artillery", 1, "Corput"),
        Unit("i", "confederate", "infantry", 5, "Moore"),
    ]
    for i, u in enumerate(demo):
        out.append(counter(u, ux + 18 + i * 40, 46, R * 1.05))
    notes = ["Union blue, Confederate grey;", "box: X infantry, / cavalry, • artillery"
             + (", hull gunboat" if any(u.type == "gunboat" for u in scenario.units) else ""),
             "dashed ring: victory hex (blue Union, red Confederate)", "gold ring: the movement-quota bonus hex"]
    late = sorted({f"{u.designation}" for u in scenario.units if u.hex is None})
    if late:
        first = next(u for u in scenario.units if u.hex is None)
        notes.append(f"T{first.arrives}: reinforcements {', '.join(late)}")
        notes.append(f"enter at {', '.join(first.entry)}")
    for i, note in enumerate(notes):
        out.append(_text(ux, 90 + i * 16, note, 10.5, anchor="start"))
    out.append("</g>")
    return out
