"""Questions about a position, asked by every procedure: zones of control, stacking, control of
hexes, artillery range and line of sight, trenches. Imports only ``rules.core``."""
