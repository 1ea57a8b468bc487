"""The layers of ``rules`` and no import cycle in it (pyproject.toml ``[tool.importlinter]``,
DESIGN.md "Rule sets and battles"): the same contracts .ci/run checks with ``lint-imports``."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_are_kept():
    run = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert "Contracts: 4 kept, 0 broken." in run.stdout, run.stdout + run.stderr
    assert run.returncode == 0
