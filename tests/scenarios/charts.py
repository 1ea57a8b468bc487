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
