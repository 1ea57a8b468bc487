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

HEX_TERRAIN = frozenset({CLEAR, FOREST, ROUGH, FOREST_ROUGH, TOWN, RIVER, FERRY})

# Features of a hexside. A hexside may have several: a road over a creek at a bridge is
# {"creek", "bridge", "road"}.
CREEK = "creek"  # may be crossed only at a bridge or ford (5.25)
BRIDGE = "bridge"
FORD = "ford"
ROAD = "road"
TRAIL = "trail"
REDOUBT = "redoubt"  # with its barbed side (Chattanooga 18.0)
FERRY_CROSSING = "ferry_crossing"  # a ferry hex's arrow: the hexsides through which it is entered and left

HEXSIDE_FEATURES = frozenset({CREEK, BRIDGE, FORD, ROAD, TRAIL, REDOUBT, FERRY_CROSSING})

# Hexside features that need another one beside them.
REQUIRES = {BRIDGE: CREEK, FORD: CREEK}

