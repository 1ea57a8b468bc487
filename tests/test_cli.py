"""The `bluegray` command line: every subcommand has help, and --version names both versions."""

import subprocess
import sys

import pytest

from api.cli import build_parser, command_modules, main
from rules import RULES_VERSION


def test_version_names_package_and_rules_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("bluegray ")
    assert f"rules {RULES_VERSION}" in out


def test_no_command_prints_help_and_fails(capsys):
    assert main([]) == 1
    assert "usage: bluegray" in capsys.readouterr().out


def test_unknown_command_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["no-such-command"])
    assert exit_info.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith("bluegray: ") and "invalid choice" in err and len(err.splitlines()) == 1


def test_every_command_module_is_complete():
    for module in command_modules():
        assert isinstance(module.NAME, str) and module.NAME
        assert isinstance(module.HELP, str) and module.HELP
        assert callable(module.add_arguments) and callable(module.run)


@pytest.mark.parametrize("name", [m.NAME for m in command_modules()])
def test_every_subcommand_has_help(name):
    # A real process, as a user would run it: `python -m api NAME --help`.
    done = subprocess.run([sys.executable, "-m", "api", name, "--help"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"usage: bluegray {name}" in done.stdout


def test_help_lists_every_subcommand():
    text = build_parser().format_help()
    for module in command_modules():
        assert module.NAME in text


def test_a_command_loads_its_own_module_alone(tmp_path):
    """`bluegray verify FILE` builds the parser of verify alone: the benchmarks (and the other
    commands) are not imported for it; a command's refusal of a bad argument is the same."""
    probe = (
        "import sys\n"
        "from api.cli import main\n"
        f"code = main(['verify', {str(tmp_path / 'none.jsonl')!r}])\n"
        "print(code, 'bench.benchmarks' in sys.modules, 'api.commands.serve' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["1", "False", "False"], done.stdout + done.stderr
    assert "none.jsonl" in done.stderr  # the file named in the one-line refusal
    bad = subprocess.run([sys.executable, "-m", "api", "upgrade-check", "--redis-url"], capture_output=True, text=True)
    assert bad.returncode == 1 and "bluegray upgrade-check: argument --redis-url: expected one argument" in bad.stderr
