"""The layers of the packages and of ``rules``, and no import cycle in it (pyproject.toml
``[tool.importlinter]``, DESIGN.md "Rule sets and battles"): the same contracts .ci/run checks with
``lint-imports``, every one of them kept."""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_are_kept():
    run = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert len(contracts) >= 6  # the packages' layers, eventstore and ratings apart, rules' own three, tournaments
    assert f"Contracts: {len(contracts)} kept, 0 broken." in run.stdout, run.stdout + run.stderr
    assert run.returncode == 0
