"""The SVG map: every hex numbered (2.1), terrain with colour and pattern, hexside features, the units at
start; deterministic."""

import re
import xml.etree.ElementTree as ET

import pytest

from rules.rulesets import get as get_ruleset
from scenarios.loader import load
from scenarios.render import hexside_labels, render, terrain_label

CLASSIC, REVISED = get_ruleset("classic"), get_ruleset("revised")

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def chattanooga():
    return load("chattanooga")


@pytest.fixture(scope="module")
def svg(chattanooga):
    return render(chattanooga, CLASSIC)


def texts(svg_text):
    return [t.text for t in ET.fromstring(svg_text).iter(f"{SVG}text")]


def test_render_numbers_every_hex(chattanooga, svg):
    shown = set(texts(svg))
    missing = [h for h in chattanooga.map.hexes if h not in shown]
    assert missing == []


def test_render_draws_each_hex_with_terrain_colour_and_pattern(chattanooga, svg):
    polygons = list(ET.fromstring(svg).iter(f"{SVG}polygon"))
    titled = {p.find(f"{SVG}title").text for p in polygons if p.find(f"{SVG}title") is not None}
    assert titled == {f"{h} {t}" for h, t in chattanooga.map.hexes.items()}
    patterns = {p.get("fill") for p in polygons if (p.get("fill") or "").startswith("url(")}
    assert patterns == {"url(#forest)", "url(#rough)", "url(#forest_rough)", "url(#town)", "url(#river)", "url(#ferry)"}


def test_render_draws_hexside_features_and_units(chattanooga, svg):
    root = ET.fromstring(svg)
    groups = {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("id")}
    creeks = sum(1 for s in chattanooga.map.hexsides.values() if "creek" in s.features)
    assert len(list(groups["creeks"])) == creeks
    redoubts = sum(1 for s in chattanooga.map.hexsides.values() if "redoubt" in s.features)
    assert len(list(groups["redoubts"])) == redoubts
    assert len(list(groups["ferries"])) == 8  # two arrows for each of 19.11's four ferry hexes
    shown = texts(svg)
    on_map = [u for u in chattanooga.units if u.hex]
    for u in on_map:
        assert u.designation in shown
    titles = [t.text for t in groups["units"].iter(f"{SVG}title")]
    assert len(titles) == len(on_map) == 74
    assert "T2" in shown  # the entry hexes of the Game-Turn Two reinforcements (15.21)


def test_render_is_deterministic_and_says_the_map_is_reconstructed(chattanooga, svg):
    assert render(chattanooga, CLASSIC) == svg
    assert "reconstructed; not the printed map" in svg
    assert re.search(r'<svg [^>]*width="\d+" height="\d+"', svg)


def test_render_draws_a_gunboat_counter_9_6():
    # revised 9.6: a gunboat on its river hex, drawn with a hull in its type box
    from rules.core.scenario import Unit
    from tests.rules.test_gunboats import gunboat, scenario

    svg = render(scenario([gunboat("tyler", "0305", designation="Tyler"), Unit("r", "confederate", "infantry", 3, "R", hex="0909")]), REVISED)
    root = ET.fromstring(svg)
    hulls = [p for p in root.iter(f"{SVG}path") if p.get("class") == "gunboat"]
    assert len(hulls) == 1
    assert "tyler: Tyler, 2 gunboat, union" in [t.text for t in root.iter(f"{SVG}title")]
    assert any("hull gunboat" in (t.text or "") for t in root.iter(f"{SVG}text"))


def test_the_legend_is_the_chart_of_the_rule_set_in_force(chattanooga, svg):
    # 1975 9.0: forest 3 MP, rough doubles the defender; revised 10.1: forest 2 MP (artillery 3),
    # one column left; rough halves the attacker (8.41); fords +1 MP (6.29)
    assert terrain_label("forest", CLASSIC) == "Forest (3 MP)"
    assert terrain_label("rough", CLASSIC) == "Rough (3 MP, defender doubled)"
    assert terrain_label("forest", REVISED) == "Forest (2 MP, artillery 3, one column left)"
    assert terrain_label("rough", REVISED) == "Rough (3 MP, attacker halved)"
    assert terrain_label("river", REVISED) == "River (land units may not enter, gunboats sail it)"
    assert hexside_labels(CLASSIC)["ford"] == "Ford (+1 MP, defender doubled if every attacker attacks across it)"
    assert hexside_labels(REVISED)["ford"] == "Ford (+1 MP, attacker halved)"
    shown = texts(svg)
    assert "Rough (3 MP, defender doubled)" in shown
    revised = texts(render(chattanooga, REVISED))
    assert "Rough (3 MP, attacker halved)" in revised and "Rough (3 MP, defender doubled)" not in revised
