"""The after-action report as one self-contained HTML page: inline CSS, charts as inline SVG, the map
drawn by scenarios/render.py with where each unit fell; no script, no external asset."""

from __future__ import annotations

from html import escape

from replay.report import SIDES, Report
from replay.textrecord import RESULTS, side_name

COLOURS = {"union": "#1f3f8f", "confederate": "#8b1a1a"}
CSS = """
body{font-family:"DejaVu Sans",Arial,sans-serif;margin:0;background:#f7f5ef;color:#222}
main{max-width:1100px;margin:0 auto;padding:16px 24px 48px}
h1{font-size:24px;margin:8px 0 2px} h2{font-size:18px;margin:28px 0 8px;border-bottom:2px solid #c9c2b0;padding-bottom:3px}
.sub{color:#555;margin:0 0 10px} .badge{display:inline-block;background:#b8860b;color:#fff;border-radius:4px;padding:1px 8px;font-size:13px;margin-left:8px}
table{border-collapse:collapse;font-size:13px;background:#fff;margin:6px 0} th,td{border:1px solid #d6d0c0;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#ece6d6} td.n{text-align:right;font-variant-numeric:tabular-nums}
.union{color:#1f3f8f;font-weight:bold} .confederate{color:#8b1a1a;font-weight:bold}
.cards{display:flex;gap:14px;flex-wrap:wrap} .card{background:#fff;border:1px solid #d6d0c0;border-radius:6px;padding:10px 14px;min-width:220px}
.card b{font-size:20px} .chart{background:#fff;border:1px solid #d6d0c0;border-radius:6px;padding:6px;margin:6px 0}
pre{background:#fff;border:1px solid #d6d0c0;padding:8px;font-size:12px;overflow-x:auto;max-height:480px}
.note{color:#555;font-size:12.5px;max-width:900px} svg{display:block}
.chart svg{max-width:100%;height:auto} .map svg{width:100%;height:auto}
"""


def _side(side: str) -> str:
    return f'<span class="{escape(side)}">{escape(side_name(side))}</span>'


def _pct(p: float | None) -> str:
    return "-" if p is None else f"{round(p * 100)}%"


def _units(refs) -> str:
    return ", ".join(f"{escape(u.designation)} ({u.strength})" for u in refs) or "-"


# -- charts ------------------------------------------------------------------------------------------
def _axes(w: int, h: int, left: int, bottom: int, top: int, ymax: float, xlabels: list[str], ylabel: str,
          yfmt=lambda v: f"{v:g}") -> list[str]:
    out = [f'<line x1="{left}" y1="{h - bottom}" x2="{w - 10}" y2="{h - bottom}" stroke="#444"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{h - bottom}" stroke="#444"/>']
    for i in range(5):
        v = ymax * i / 4
        y = h - bottom - (h - bottom - top) * i / 4
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{w - 10}" y2="{y:.1f}" stroke="#e2ddd0"/>')
        out.append(f'<text x="{left - 5}" y="{y + 4:.1f}" font-size="11" text-anchor="end">{yfmt(v)}</text>')
    n = max(len(xlabels), 1)
    step = (w - 10 - left) / n
    for i, label in enumerate(xlabels):
        out.append(f'<text x="{left + step * (i + 0.5):.1f}" y="{h - bottom + 15}" font-size="11" '
                   f'text-anchor="middle">{escape(label)}</text>')
    out.append(f'<text x="12" y="{top + (h - bottom - top) / 2:.0f}" font-size="11" text-anchor="middle" '
               f'transform="rotate(-90 12 {top + (h - bottom - top) / 2:.0f})">{escape(ylabel)}</text>')
    return out


def _legend(w: int) -> str:
    parts = []
    x = w - 250
    for side in SIDES:
        parts.append(f'<rect x="{x}" y="6" width="12" height="12" fill="{COLOURS[side]}"/>'
                     f'<text x="{x + 16}" y="16" font-size="12">{side_name(side)}</text>')
        x += 110
    return "".join(parts)


def losses_chart(report: Report, w: int = 1000, h: int = 240) -> str:
    turns = [t.turn for t in report.losses_by_turn]
    ymax = max([max(t.strength.values()) for t in report.losses_by_turn] + [1])
    ymax = float(max(4, -(-ymax // 4) * 4))
    left, bottom, top = 48, 26, 26
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
           f'aria-label="Strength points lost by Game-Turn">', _legend(w)]
    out += _axes(w, h, left, bottom, top, ymax, [f"GT{t}" for t in turns], "strength points lost")
    step = (w - 10 - left) / max(len(turns), 1)
    bar = min(22.0, step * 0.35)
    for i, t in enumerate(report.losses_by_turn):
        for j, side in enumerate(SIDES):
            v = t.strength[side]
            bh = (h - bottom - top) * v / ymax
            x = left + step * (i + 0.5) + (j - 1) * bar
            out.append(f'<rect x="{x:.1f}" y="{h - bottom - bh:.1f}" width="{bar - 2:.1f}" height="{bh:.1f}" '
                       f'fill="{COLOURS[side]}"><title>GT{t.turn} {side_name(side)}: {v} SP, {t.units[side]} units</title></rect>')
            if t.units[side]:
                out.append(f'<text x="{x + bar / 2 - 1:.1f}" y="{h - bottom - bh - 3:.1f}" font-size="10" '
                           f'text-anchor="middle">{t.units[side]}u</text>')
    out.append("</svg>")
    return "".join(out)


def vp_chart(report: Report, w: int = 1000, h: int = 240) -> str:
    points = report.vp_over_time
    last = max(report.version, 1)
    ymax = max([max(p.vp.values()) for p in points] + [1])
    ymax = float(max(4, -(-ymax // 4) * 4))
    left, bottom, top = 48, 26, 26
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
           f'aria-label="Victory points over time">', _legend(w)]
    out += _axes(w, h, left, bottom, top, ymax, [], "victory points")

    def xy(version: int, vp: float) -> tuple[float, float]:
        return left + (w - 10 - left) * version / last, h - bottom - (h - bottom - top) * vp / ymax

    # Game-Turn ticks along the bottom, at the first version of each turn
    seen: set[int] = set()
    for pt in report.player_turns:
        if pt.turn not in seen:
            seen.add(pt.turn)
            x, _ = xy(pt.first, 0)
            out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{h - bottom}" stroke="#eee8da"/>'
                       f'<text x="{x + 3:.1f}" y="{h - bottom + 15}" font-size="11">GT{pt.turn}</text>')
    for side in SIDES:
        path = []
        prev = None
        for p in points:
            x, y = xy(p.version, p.vp[side])
            if prev is not None:
                path.append(f"L{x:.1f} {prev:.1f}")
            path.append(("M" if not path else "L") + f"{x:.1f} {y:.1f}")
            prev = y
        if prev is not None:
            x, _ = xy(last, 0)
            path.append(f"L{x:.1f} {prev:.1f}")
        out.append(f'<path d="{" ".join(path)}" fill="none" stroke="{COLOURS[side]}" stroke-width="2.5"/>')
    out.append("</svg>")
    return "".join(out)


def luck_chart(report: Report, w: int = 1000, h: int = 220) -> str:
    turns = list(report.luck_by_turn)
    left, bottom, top = 48, 26, 26
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
           f'aria-label="Luck percentile by Game-Turn">', _legend(w)]
    out += _axes(w, h, left, bottom, top, 1.0, [f"GT{t}" for t in turns], "luck percentile",
                 yfmt=lambda v: f"{round(v * 100)}%")
    mid = h - bottom - (h - bottom - top) * 0.5
    out.append(f'<line x1="{left}" y1="{mid:.1f}" x2="{w - 10}" y2="{mid:.1f}" stroke="#999" stroke-dasharray="4 3"/>')
    step = (w - 10 - left) / max(len(turns), 1)
    bar = min(22.0, step * 0.35)
    for i, t in enumerate(turns):
        for j, side in enumerate(SIDES):
            luck = report.luck_by_turn[t][side]
            if luck.percentile is None:
                continue
            y = h - bottom - (h - bottom - top) * luck.percentile
            x = left + step * (i + 0.5) + (j - 1) * bar
            y0, y1 = sorted((y, mid))
            out.append(f'<rect x="{x:.1f}" y="{y0:.1f}" width="{bar - 2:.1f}" height="{max(y1 - y0, 1):.1f}" '
                       f'fill="{COLOURS[side]}"><title>GT{t} {side_name(side)}: {_pct(luck.percentile)} over '
                       f'{luck.combats} combats</title></rect>')
    out.append("</svg>")
    return "".join(out)


def fallen_map(report: Report, scenario) -> str:
    """The map (terrain, hexsides, numbers) with a marker where each unit fell."""
    from scenarios import render

    lay = render.Layout(scenario)
    height = lay.top + lay.map_height + 10
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {lay.width:.0f} {height:.0f}" '
        f'width="{lay.width:.0f}" height="{height:.0f}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<defs>{render.PATTERNS}</defs>",
        f'<rect width="{lay.width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
        render._text(render.MARGIN, 30, f"{scenario.name}: where units fell", 18, anchor="start", weight="bold"),
    ]
    out += render._hexes(scenario, lay)
    out += render._areas(scenario, lay)
    out += render._hexsides(scenario, lay)
    out += render._numbers(scenario, lay)
    by_hex: dict[str, list] = {}
    for loss in report.losses:
        if loss.hex:
            by_hex.setdefault(loss.hex, []).append(loss)
    out.append('<g id="fallen">')
    r = render.R
    for h, here in sorted(by_hex.items()):
        x, y = lay.centre(h)
        for i, loss in enumerate(here):
            cx = x + (i - (len(here) - 1) / 2) * r * 0.55
            colour = COLOURS[loss.unit.side]
            s = r * 0.3
            title = escape(f"{loss.unit.designation} ({loss.unit.strength}), {side_name(loss.unit.side)}: "
                           f"eliminated in {h}, Game-Turn {loss.turn} ({loss.case}), v{loss.version}")
            out.append(
                f'<g><title>{title}</title><circle cx="{cx:.1f}" cy="{y + 4:.1f}" r="{s + 3:.1f}" fill="#fff" '
                f'stroke="{colour}" stroke-width="2.5"/><path d="M{cx - s:.1f} {y + 4 - s:.1f} L{cx + s:.1f} {y + 4 + s:.1f} '
                f'M{cx + s:.1f} {y + 4 - s:.1f} L{cx - s:.1f} {y + 4 + s:.1f}" stroke="{colour}" stroke-width="3"/>'
                f'<text x="{cx:.1f}" y="{y + 4 + s + 13:.1f}" font-size="9" text-anchor="middle" fill="{colour}" '
                f'font-weight="bold">GT{loss.turn}</text></g>'
            )
    out.append("</g></svg>")
    return "\n".join(out)


# -- the page ----------------------------------------------------------------------------------------
def evaluation_chart(review, last: int, w: int = 1000, h: int = 240) -> str:
    """The engine's evaluation after every command (``review.points``: version, turn, the Union's
    score): above the middle line the Union is ahead, below it the Confederacy."""
    points = review.points
    ymax = max([abs(p.union) for p in points] + [1.0])
    left, bottom, top = 48, 26, 26
    mid = top + (h - bottom - top) / 2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
           f'aria-label="The engine\'s evaluation over the game" id="evaluation-chart">', _legend(w)]
    out.append(f'<line x1="{left}" y1="{mid:.1f}" x2="{w - 10}" y2="{mid:.1f}" stroke="#999"/>'
               f'<text x="4" y="{top + 10}" font-size="11">Union +{ymax:.0f}</text>'
               f'<text x="4" y="{h - bottom}" font-size="11">Conf. +{ymax:.0f}</text>')

    def xy(version: int, value: float) -> tuple[float, float]:
        return left + (w - 10 - left) * version / max(last, 1), mid - (mid - top) * value / ymax

    seen: set[int] = set()
    for p in points:
        if p.turn not in seen:
            seen.add(p.turn)
            x, _ = xy(p.version, 0)
            out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{h - bottom}" stroke="#eee8da"/>'
                       f'<text x="{x + 3:.1f}" y="{h - bottom + 15}" font-size="11">GT{p.turn}</text>')
    path = " ".join(("M" if i == 0 else "L") + "{:.1f} {:.1f}".format(*xy(p.version, p.union)) for i, p in enumerate(points))
    if path:
        out.append(f'<path d="{path}" fill="none" stroke="#333" stroke-width="2"/>')
    value_at = {p.version: p.union for p in points}
    for n, t in enumerate(getattr(review, "turning_points", []), start=1):  # the turning points, numbered
        x, y = xy(t.version, value_at.get(t.version, 0.0))
        out.append(f'<circle class="turning-point" cx="{x:.1f}" cy="{y:.1f}" r="7" fill="#b22" opacity="0.85"/>'
                   f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="10" fill="#fff" text-anchor="middle">{n}</text>')
    out.append("</svg>")
    return "".join(out)


#: "Try this turn again" on the report page: fork the game at the Player-Turn's start, the reviewed
#: side the player's, the computer the other's (POST /api/games/{id}/fork), and open the sandbox.
RETRY_SCRIPT = """<script type="module">
import { csrfHeader, saveSeat, signedIn } from "/static/js/api.js";
await signedIn().catch(() => null);
const game = location.pathname.split("/")[2];
for (const b of document.querySelectorAll("button.retry")) b.addEventListener("click", async () => {
  const said = document.querySelector("#retry-said");
  const body = { version: Number(b.dataset.version), computer: b.dataset.level, side: b.dataset.side };
  const r = await fetch(`/api/games/${game}/fork`, { method: "POST", headers: { "Content-Type": "application/json", ...csrfHeader() }, body: JSON.stringify(body) });
  const got = await r.json().catch(() => ({}));
  if (!r.ok) { said.textContent = got?.error?.message || `HTTP ${r.status}`; return; }
  saveSeat(got.game_id, { seat: body.side, token: got.tokens[body.side], sandbox: true, parent: game });
  location.assign(`/play/${got.game_id}`);
});
</script>"""


def _turning_points(review, retry_level: str | None) -> str:
    """The turning points as a list; with ``retry_level`` (the server's page), each with a button
    that plays its Player-Turn again against the computer at that level."""
    if not review.turning_points:
        return "<p>No command moved the evaluation against this side.</p>"
    items = []
    for n, t in enumerate(review.turning_points, start=1):
        button = (
            f' <button type="button" class="retry" data-version="{t.turn_start}" data-side="{escape(review.side)}" '
            f'data-level="{escape(retry_level)}">Try this turn again</button>' if retry_level else ""
        )
        items.append(
            f'<li data-version="{t.version}">{n}. v{t.version}, GT{t.turn} ({_side(t.phasing)} Player-Turn), by the '
            f"{_side(t.by)}: {t.change:+g} for the {_side(review.side)}; the Player-Turn starts after v{t.turn_start}"
            f"{button}</li>"
        )
    script = RETRY_SCRIPT if retry_level else ""
    return f'<ol id="turning-points">{"".join(items)}</ol><p class="note" id="retry-said" role="status"></p>{script}'


def review_section(review, last: int, text, retry_level: str | None = None) -> str:
    """The computer's eye: the evaluation chart with its turning points, and the reviewed side's
    decisions where the engine prefers another (``text(command_json)``: a command in words);
    ``retry_level``: "try this turn again" against the computer at that level (the server's page)."""
    differ = [d for d in review.decisions if d.best is not None]
    rows = "".join(
        f"<tr><td>v{d.version}</td><td>GT{d.turn} {escape(d.phase)}</td><td>{escape(text(d.played))} ({d.played_score:+g})</td>"
        f"<td>{escape(text(d.best))} ({d.best_score:+g})</td><td>{d.loss:g}</td></tr>"
        for d in sorted(differ, key=lambda d: -d.loss)[:40]
    )
    table = (
        "<table><tr><th>version</th><th>when</th><th>played (score)</th><th>the engine prefers (score)</th><th>difference</th></tr>"
        f"{rows}</table>" if rows else "<p>The engine agrees with every decision.</p>"
    )
    return "\n".join([
        f'<h2 id="engine">The computer\'s eye: {_side(review.side)}, engine {escape(review.level)}</h2>',
        '<p class="note">The engine\'s evaluation of the position after every command (Victory Points held and due '
        "if the game ended there, and the strength still on the map): above the line the Union is ahead. Below, "
        f"the {len(differ)} of {len(review.decisions)} decisions of the side where the engine prefers another, the "
        "costliest first; each command is scored by the position it leads to, averaged over the die where it rolls one.</p>",
        f'<div class="chart">{evaluation_chart(review, last)}</div>',
        '<h3 id="turning">Turning points</h3>',
        '<p class="note">The commands after which the evaluation fell most for this side (numbered on the chart).</p>',
        _turning_points(review, retry_level),
        table,
    ])


def render_page(report: Report, scenario, engine: str = "") -> str:
    """The report as one page; ``engine``: the computer's eye section (``review_section``), if any."""
    fin = report.finished
    if fin is not None:
        how = {"rules": "ended by the rules", "resignation": "ended by resignation", "draw": "drawn by agreement",
               "abandonment": "claimed after a long silence", "time": "claimed when the loser's clock ran out",
               "aborted": f"aborted by an admin ({fin.note or 'no reason given'})"}.get(fin.reason, fin.reason)
        outcome = escape(how) + (f": {escape(fin.result)}" if fin.result else "")
        if fin.winner:
            outcome += f" &mdash; {_side(fin.winner)} wins"
    else:
        outcome = f"in progress: Game-Turn {report.turn}, {escape(report.phase)} phase"
    badge = '<span class="badge">SANDBOX (what-if)</span>' if report.sandbox else ""
    fork = ""
    if report.fork:
        fork = (f'<p class="sub">Forked from game {escape(report.fork["game_id"])} at version {report.fork["version"]}; '
                "a sandbox is never counted as a result.</p>")
    total_units = {s: sum(t.units[s] for t in report.losses_by_turn) for s in SIDES}
    total_sp = {s: sum(t.strength[s] for t in report.losses_by_turn) for s in SIDES}
    cards = "".join(
        f'<div class="card">{_side(s)}<br><b>{report.vp[s]}</b> VP<br>lost {total_units[s]} unit{"" if total_units[s] == 1 else "s"}, {total_sp[s]} SP<br>'
        f'luck {_pct(report.luck[s].percentile)} over {report.luck[s].combats} combats<br>'
        f"expected losses {report.luck[s].expected_losses:g} SP, actual {report.luck[s].actual_losses} SP</div>"
        for s in SIDES
    )
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">',  # no favicon request
        f"<title>After-action report: {escape(report.scenario_name)} ({escape(report.game_id)})</title>",
        f"<style>{CSS}</style></head><body><main>",
        f"<h1>{escape(report.scenario_name)}{badge}</h1>",
        f'<p class="sub">Game {escape(report.game_id)} &middot; {escape(report.ruleset)} rules &middot; {outcome} '
        f"&middot; versions 1&ndash;{report.version}</p>",
        fork,
        f'<div class="cards">{cards}</div>',
        '<h2 id="losses">Losses by Game-Turn</h2>',
        '<p class="note">Strength points lost by each side in each Game-Turn (bars) and units lost (labels).</p>',
        f'<div class="chart">{losses_chart(report)}</div>',
        _losses_table(report),
        '<h2 id="vp">Victory points over time</h2>',
        f'<div class="chart">{vp_chart(report)}</div>',
        '<h2 id="luck">Luck</h2>',
        '<p class="note">For each combat, the attacker\'s luck percentile is the chance of a worse result on the '
        "column it was resolved on plus half the chance of the same result (50% is an average roll); the "
        "defender's is the rest. Results rank, for the attacker, Ae &lt; Ar &lt; Dr &lt; Ex &lt; De. Bars show "
        "each side's mean percentile per Game-Turn against the 50% line. Expected losses weigh what each result "
        "would cost (Ae: the attackers; De: the defenders; Ex: the defenders and as much of the attackers) by "
        "its probability; retreats count as no loss.</p>",
        f'<div class="chart">{luck_chart(report)}</div>',
        _luck_table(report),
        '<h2 id="map">Where units fell</h2>',
        f'<div class="chart map">{fallen_map(report, scenario)}</div>',
        '<h2 id="combats">Every combat</h2>',
        _combats_table(report),
        '<h2 id="undo">Undo requests</h2>',
        _undo_table(report),
        '<h2 id="times">Time per player-turn</h2>',
        _times_table(report),
        engine,
        '<h2 id="record">The record</h2>',
        f"<pre>{escape(chr(10).join(report.record))}</pre>",
        f'<p class="note">Head hash {escape(report.head)}. Undone ranges (left out of everything above but the '
        f'undo requests): {", ".join(f"v{b + 1}&ndash;v{a - 1}" for b, a in report.reverted if a - 1 > b) or "none"}.</p>',
        "</main></body></html>",
    ]
    return "\n".join(parts) + "\n"


def _losses_table(report: Report) -> str:
    rows = "".join(
        f"<tr><td>GT{t.turn}</td>" + "".join(f'<td class="n">{t.units[s]}</td><td class="n">{t.strength[s]}</td>' for s in SIDES)
        + "</tr>"
        for t in report.losses_by_turn
    )
    head = "".join(f"<th>{side_name(s)} units</th><th>{side_name(s)} SP</th>" for s in SIDES)
    return f"<table><tr><th>Game-Turn</th>{head}</tr>{rows}</table>"


def _luck_table(report: Report) -> str:
    rows = []
    for t, by_side in report.luck_by_turn.items():
        cells = "".join(
            f'<td class="n">{_pct(by_side[s].percentile)}</td><td class="n">{by_side[s].expected_losses:g}</td>'
            f'<td class="n">{by_side[s].actual_losses}</td>'
            for s in SIDES
        )
        rows.append(f"<tr><td>GT{t}</td>{cells}</tr>")
    cells = "".join(
        f'<td class="n"><b>{_pct(report.luck[s].percentile)}</b></td><td class="n">{report.luck[s].expected_losses:g}</td>'
        f'<td class="n">{report.luck[s].actual_losses}</td>'
        for s in SIDES
    )
    rows.append(f"<tr><td><b>Game</b></td>{cells}</tr>")
    head = "".join(f"<th>{side_name(s)} luck</th><th>expected SP lost</th><th>actual SP lost</th>" for s in SIDES)
    return f"<table><tr><th>Game-Turn</th>{head}</tr>{''.join(rows)}</table>"


def _combats_table(report: Report) -> str:
    if not report.combats:
        return "<p>No combat.</p>"
    rows = []
    for i, c in enumerate(report.combats, start=1):
        odds = escape(c.odds_before_terrain)
        if c.odds != c.odds_before_terrain:
            odds += f" &rarr; {escape(c.odds)} (terrain)"
        if c.reduced:
            odds += f" &rarr; {escape(c.column)} (reduced, 7.9)"
        attackers = "; ".join(
            part for part in (_units(c.attackers) if c.attackers else "",
                              f"bombarding {_units(c.bombarding)}" if c.bombarding else "") if part
        )
        after = []
        if c.eliminated:
            after.append("eliminated " + _units(c.eliminated))
        if c.retreats:
            after.append("retreated " + ", ".join(f"{escape(r['unit'].designation)} {escape('-'.join(r['path']))}" for r in c.retreats))
        if c.advances:
            after.append("advanced " + ", ".join(f"{escape(a['unit'].designation)} {escape('-'.join(a['path']))}" for a in c.advances))
        lk = c.luck
        rows.append(
            f'<tr><td class="n">{i}</td><td>GT{c.turn}<br>v{c.version}</td><td>{_side(c.attacker)}: {attackers} '
            f'({c.attack})</td><td>{escape(", ".join(c.defender_hexes))}: {_units(c.defending)} ({c.defence_printed}'
            f'{"" if c.defence == c.defence_printed else f" &rarr; {c.defence}"})</td><td>{odds}</td>'
            f'<td class="n">{c.die}</td><td><b>{escape(c.result)}</b> {escape(RESULTS.get(c.result, ""))}'
            f'{"<br>" + "; ".join(after) if after else ""}</td><td class="n">{_pct(lk.p_result)}</td>'
            f'<td class="n">{_pct(lk.p_result_or_better)}</td><td class="n">{_pct(lk.percentile)}</td></tr>'
        )
    return (
        "<table><tr><th>#</th><th>when</th><th>attackers (strength)</th><th>defenders (strength, after terrain)</th>"
        "<th>odds</th><th>die</th><th>result</th><th>P(result)</th><th>P(it or better)</th><th>attacker's luck</th></tr>"
        + "".join(rows) + "</table>"
    )


def _undo_table(report: Report) -> str:
    if not report.undo:
        return "<p>No undo was asked for.</p>"
    rows = "".join(
        f'<tr><td>v{u.version}</td><td>{_side(u.seat)}</td><td>back to v{u.back_to} ({u.takes_back} action'
        f'{"s" if u.takes_back != 1 else ""})</td><td>{escape(u.answer)}'
        f'{f" at v{u.answered_at}" if u.answered_at else ""}{f" by {_side(u.by)}" if u.by else ""}</td></tr>'
        for u in report.undo
    )
    return f"<table><tr><th>asked</th><th>by</th><th>to take back</th><th>answer</th></tr>{rows}</table>"


def _times_table(report: Report) -> str:
    if not report.player_turns:
        return "<p>No player-turn yet.</p>"

    def fmt(s: float) -> str:
        s = int(round(s))
        return f"{s // 3600}h {s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m {s % 60:02d}s"

    rows = "".join(
        f'<tr><td>GT{p.turn}</td><td>{_side(p.side)}</td><td>v{p.first}&ndash;v{p.last}</td><td class="n">{fmt(p.seconds)}</td></tr>'
        for p in report.player_turns
    )
    return f"<table><tr><th>Game-Turn</th><th>player</th><th>versions</th><th>time</th></tr>{rows}</table>"
