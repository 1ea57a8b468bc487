"""The vocabulary of terrain: kinds of hex and features of hexsides, as the Terrain Effects Charts name
them (1975: 9.0; revised: 10.1). What each costs or does is the rule set's business (rules/rulesets/).
"""

from __future__ import annotations

# Kinds of hex. One per hex; roads and trails are hexside features (5.22, 5.23: a road is followed
# "through a road hexside"), so "road hex" is any hex with a road hexside.
CLEAR = "clear"
FOREST = "forest"
ROUGH = "rough"
FOREST_ROUGH = "forest_rough"  # "Forest & Rough Hex"
TOWN = "town"
RIVER = "river"  # may not enter (5.24)
FERRY = "ferry"  # "River Ferry Hex" (5.24, Chattanooga 19.0)
# Revised 10.1 only (the 1975 chart has none of these).
SWAMP = "swamp"
LAKE = "lake"  # may not enter (revised 6.27), like a river hex
POND = "pond"  # may not enter (revised 10.1)
PONTOON = "pontoon"  # crossed like a ferry hex, never ended in (revised 6.28)

HEX_TERRAIN = frozenset({CLEAR, FOREST, ROUGH, FOREST_ROUGH, TOWN, RIVER, FERRY, SWAMP, LAKE, POND, PONTOON})

# Revised 2.4, 6.21, 6.26, 10.1: clear terrain has a level (1, 2 or 3; a map's ``levels``, default 1).
LEVELS = (1, 2, 3)
DEFAULT_LEVEL = 1

# Features of a hexside. A hexside may have several: a road over a creek at a bridge is
# {"creek", "bridge", "road"}.
CREEK = "creek"  # may be crossed only at a bridge or ford (5.25)
BRIDGE = "bridge"
FORD = "ford"
ROAD = "road"
TRAIL = "trail"
REDOUBT = "redoubt"  # with its barbed side (Chattanooga 18.0)
FERRY_CROSSING = "ferry_crossing"  # a ferry hex's arrow: the hexsides through which it is entered and left
# Revised 10.1 only.
TURNPIKE = "turnpike"  # 6.22: 2/3 MP along it
RAILWAY = "railway"  # 6.23: as a road
STREAM = "stream"  # +2 MP (10.1); zones of control extend across it (7.6)
RIVER_SIDE = "river_side"  # a river hexside: may not be crossed (10.1)
SLOPE = "slope"  # 6.26: +1 MP up (toward the hexside's ``high`` hex), nothing down
RIDGE = "ridge"  # +2 MP either way (10.1)
TRENCH = "trench"  # a Breastworks Marker placed at set-up (10.33, 10.39); ``barbed``: the outside hex
SUNKEN_ROAD = "sunken_road"

HEXSIDE_FEATURES = frozenset(
    {CREEK, BRIDGE, FORD, ROAD, TRAIL, REDOUBT, FERRY_CROSSING, TURNPIKE, RAILWAY, STREAM, RIVER_SIDE, SLOPE, RIDGE, TRENCH, SUNKEN_ROAD}
)
# Hexside features along which a unit follows a route (6.22-6.24; strategic movement 6.45).
ROUTES = frozenset({TURNPIKE, ROAD, RAILWAY, TRAIL})

# Hexside features that need another one beside them.
REQUIRES = {BRIDGE: CREEK, FORD: CREEK}

