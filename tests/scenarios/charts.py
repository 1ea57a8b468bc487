"""Reading a deployment or reinforcement chart as the rule book prints it, for the scenario tests:
"HEX STRENGTH[LETTER] DESIGNATION; ..." -> sorted (hex, strength, type, designation), the type from the
battle's chart letters (``types``: "" for infantry, "a" artillery, "c" cavalry, ...)."""


def read_chart(text: str, types: dict[str, str]) -> list[tuple[str, int, str, str]]:
    out = []
    for entry in text.replace("\n", " ").split(";"):
        where, strength, designation = entry.strip().split(maxsplit=2)
        kind = strength.lstrip("0123456789")
        out.append((where, int(strength[: len(strength) - len(kind)]), types[kind], designation.strip()))
    return sorted(out)


def chart_rows(scenario, side: str, at_start: bool) -> list[tuple[str, int, str, str]]:
    """A side's units as ``read_chart`` gives a chart: the units set up on the map (``at_start``) as
    (hex, ...), or the reinforcements as ("TURN/ENTRY+ENTRY", ...), sorted."""
    out = []
    for u in scenario.units:
        if u.side != side or (u.hex is not None) != at_start:
            continue
        where = u.hex if at_start else f"{u.arrives}/{'+'.join(u.entry)}"
        out.append((where, u.strength, u.type, u.designation))
    return sorted(out)
