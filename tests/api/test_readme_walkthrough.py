"""The README's walk-through of a game from Python runs as printed, against the real server."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def walkthrough() -> str:
    text = README.read_text()
    start = text.index("A game from Python")
    code = re.search(r"```python\n(.*?)```", text[start:], re.S)
    assert code is not None, "README: no python block after 'A game from Python'"
    body = code.group(1)
    assert body.rstrip().endswith("asyncio.run(main())")
    return body.rstrip().removesuffix("asyncio.run(main())")


async def test_the_readme_game_from_python_runs_as_printed(client, capsys):
    namespace: dict = {}
    exec(compile(walkthrough(), str(README), "exec"), namespace)
    await namespace["main"](str(client.make_url("")).rstrip("/"))
    lines = capsys.readouterr().out.splitlines()
    kinds = [line.split()[0] for line in lines]
    # What the README says it prints: the welcome, the first three events, the Union's choices, the
    # reach of its first unit, the move as two events (command, unit_moved) and the ack (before the new
    # choices: the ack never waits for them).
    assert kinds[0] == "game" and kinds[1] == "welcome"
    events = [line.split()[1] for line in lines if line.startswith("   ")]
    assert events[:3] == ["game_created", "seat_joined", "seat_joined"]
    assert events[3:] == ["command", "unit_moved"]
    assert kinds.count("choices") == 1 and kinds.count("reach") == 1
    assert kinds.index("choices") < kinds.index("reach")
    assert kinds[-1] == "ack"
    assert "error" not in kinds
