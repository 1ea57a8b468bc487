"""docs/ARCHITECTURE.md cannot rot: every file it names in backticks exists, and every
``path/module.py:name`` (or ``path/module.py:Class.method``) it names is defined in that file, and
every ``Class.member`` written without its module belongs to a class the document names with its
module: all found by reading the modules' syntax trees (nothing is imported)."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "ARCHITECTURE.md"

#: A backticked path into the clone: folders and a file name with an extension, or a folder ending in "/".
PATH = re.compile(r"^(?:[\w.-]+/)+(?:[\w.-]+\.(?:py|md|toml|lua|json|txt|html|js|css)|)$")
#: A backticked ``module.py:name``, the name perhaps dotted (a class and one of its methods).
NAME = re.compile(r"^((?:[\w.-]+/)*[\w-]+\.py):([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)$")
#: A backticked ``Class.member`` written without its module (``LiveGame._advance``): the class must be
#: one that some ``module.py:Class...`` of the document names, and define the member.
MEMBER = re.compile(r"^([A-Z]\w*)\.([A-Za-z_]\w*)$")


def spans(text: str) -> list[str]:
    """The text of every inline code span."""
    return re.findall(r"`([^`\n]+)`", text)


@cache
def defined(path: Path) -> dict[str, set[str]]:
    """The names a module defines at its top level (functions, classes, assignments), each with the
    names its class body defines (methods, attributes) when it is a class."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names[node.name] = set()
        elif isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    members.add(item.name)
                    members.update(  # the attributes its methods set: self.name = ...
                        t.attr
                        for sub in ast.walk(item)
                        if isinstance(sub, (ast.Assign, ast.AnnAssign))
                        for t in (sub.targets if isinstance(sub, ast.Assign) else [sub.target])
                        if isinstance(t, ast.Attribute)
                        and isinstance(t.value, ast.Name)
                        and t.value.id == "self"
                    )
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    members.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    members.update(t.id for t in item.targets if isinstance(t, ast.Name))
            names[node.name] = members
        elif isinstance(node, ast.Assign):
            names.update({t.id: set() for t in node.targets if isinstance(t, ast.Name)})
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = set()
    return names


def classes(text: str) -> dict[str, Path]:
    """Each class the document names with its module (``api/live/room.py:LiveGame...``), and that module."""
    out = {}
    for span in spans(text):
        found = NAME.match(span)
        if found and found.group(2)[:1].isupper():
            out[found.group(2).partition(".")[0]] = ROOT / found.group(1)
    return out


def problem(span: str, known: dict[str, Path] | None = None) -> str | None:
    """What is wrong with one code span of the document (None: nothing, or not a reference).
    ``known``: the classes the document names with their modules, for a ``Class.member`` span."""
    member = MEMBER.match(span)
    if member and known is not None:
        owner, name = member.groups()
        if owner not in known:
            return f"{span}: {owner} is named nowhere in the document with its module (module.py:{owner})"
        if known[owner].is_file() and name not in defined(known[owner]).get(owner, set()):
            return f"{span}: {owner} in {known[owner].relative_to(ROOT)} has no {name}"
        return None
    found = NAME.match(span)
    if found:
        module, name = ROOT / found.group(1), found.group(2)
        if not module.is_file():
            return f"{span}: no file {found.group(1)}"
        owner, _, member = name.partition(".")
        names = defined(module)
        if owner not in names:
            return f"{span}: {found.group(1)} defines no {owner}"
        if member and member not in names[owner]:
            return f"{span}: {owner} in {found.group(1)} has no {member}"
        return None
    if PATH.match(span):
        return None if (ROOT / span).exists() else f"{span}: no such file or folder"
    return None


def test_the_checks_catch_what_does_not_exist():
    assert problem("rules/reducer.py:decide") is None
    assert problem("api/live/acting.py:Acting.act") is None
    assert problem("rules/rulesets/classic.py:HANDLERS") is None  # a module's value
    assert problem("rules/reducer.py:no_such_function") is not None
    assert problem("api/live/room.py:LiveGame.no_such_method") is not None
    assert problem("rules/no_such_module.py:decide") is not None
    assert problem("rules/no_such_module.py") is not None
    assert problem("rules/no_such_folder/") is not None
    assert problem("rules/core/components/") is None
    assert problem("move_unit") is None  # not a reference
    known = {"LiveGame": ROOT / "api" / "live" / "room.py", "Following": ROOT / "api" / "live" / "following.py"}
    assert problem("Following._advance", known) is None
    assert problem("LiveGame._advance", known) is not None  # defined by a mixin, not in room.py
    assert problem("LiveGame.history", known) is None  # set in __init__
    assert problem("LiveGame.no_such_method", known) is not None
    assert problem("Unnamed.method", known) is not None


def test_the_document_names_modules_and_functions():
    named = [s for s in spans(TEXT) if NAME.match(s)]
    assert len(named) >= 40, named  # the flow of a command names each function on the way


TEXT = DOC.read_text(encoding="utf-8")


@pytest.mark.parametrize("span", sorted(set(spans(TEXT))))
def test_every_file_and_name_in_the_document_exists(span):
    found = problem(span, classes(TEXT))
    assert found is None, found
