"""Bounded uploads (issue 37, defect 4; api/editor.py, scenarios/library.py): each save is its owner's
(the signed-in account, else the client's address, behind a trusted proxy its X-Forwarded-For), an
owner saves at most so many versions and bytes, the library at most so many bytes; a save past a
quota is refused `quota` (429) naming the limit and the use, and nothing saved before is lost; a
name is its first owner's."""

from __future__ import annotations

import dataclasses
import json

import pytest
from aiohttp.test_utils import TestClient, TestServer
from test_editor_api import small

from api.accounts import CSRF_HEADER
from api.app import library_games, make_app
from scenarios import document
from scenarios.library import Library, LibraryError, Quota, Usage


def at(address: str) -> dict:
    return {"X-Forwarded-For": f"203.0.113.9, {address}"}


@pytest.fixture
async def uploads(config, tmp_path):
    """A server behind a trusted proxy that allows uploads: 2 versions and 64 KB per owner."""
    root = tmp_path / "scenarios"
    changed = dataclasses.replace(config, scenarios_dir=root, allow_uploads=True, trust_forwarded_for=True,
                                  saves_per_owner=2, bytes_per_owner=64 * 1024)
    async with TestClient(TestServer(make_app(changed, games=library_games(Library(root))))) as client:
        yield client


async def test_one_client_past_its_quota_is_refused_while_another_still_saves(uploads):
    for n in range(2):
        assert (await uploads.post("/api/scenarios", json=small(f"a{n}"), headers=at("198.51.100.1"))).status == 201
    refused = await uploads.post("/api/scenarios", json=small("a2"), headers=at("198.51.100.1"))
    assert refused.status == 429
    error = (await refused.json())["error"]
    assert error["code"] == "quota" and "saved 2 scenario versions" in error["message"] and "is 2" in error["message"]
    assert (await uploads.post("/api/scenarios", json=small("b0"), headers=at("198.51.100.2"))).status == 201
    for kept in ("a0", "a1", "b0"):  # nothing saved before is lost
        downloaded = await uploads.get(f"/api/scenarios/{kept}/document")
        assert downloaded.status == 200 and document.decode(await downloaded.read()).name == kept
    assert (await uploads.get("/api/scenarios/a2/document")).status == 404


async def test_a_signed_in_account_has_its_own_quota_and_its_names(uploads):
    for n in range(2):
        assert (await uploads.post("/api/scenarios", json=small(f"c{n}"), headers=at("198.51.100.3"))).status == 201
    me = await (await uploads.post("/api/accounts", json={"name": "Hardee", "password": "correct horse battery"},
                                   headers=at("198.51.100.3"))).json()
    signed = {CSRF_HEADER: me["csrf"], **at("198.51.100.3")}
    saved = await uploads.post("/api/scenarios", json=small("mine"), headers=signed)
    assert saved.status == 201, await saved.text()  # the account's quota, not the address's
    taken = await uploads.post("/api/scenarios", json=small("c0"), headers=signed)
    assert taken.status == 403 and (await taken.json())["error"]["code"] == "forbidden"
    assert "c0" in (await taken.json())["error"]["message"]
    again = await uploads.post("/api/scenarios", json=small("mine"), headers=signed)  # the same version: no new use
    assert again.status == 201


def doc_named(name: str) -> document.Document:
    return document.decode(json.dumps(small(name)).encode(), "x.json")


def test_the_byte_budgets_of_an_owner_and_of_the_library(tmp_path):
    probe = Library(tmp_path / "probe")
    probe.save(doc_named("p0"), owner="address:probe")
    one = probe.usage("address:probe").bytes  # every name below is as long: every version as large
    assert one > 0
    library = Library(tmp_path / "s", quota=Quota(saves_per_owner=100, bytes_per_owner=2 * one, library_bytes=3 * one))
    library.save(doc_named("p0"), owner="address:a")
    library.save(doc_named("p1"), owner="address:a")
    with pytest.raises(LibraryError) as refused:
        library.save(doc_named("p2"), owner="address:a")
    assert refused.value.code == "quota" and "past the" in refused.value.message and "one owner may save" in refused.value.message
    library.save(doc_named("q0"), owner="address:b")
    with pytest.raises(LibraryError) as full:
        library.save(doc_named("q1"), owner="address:b")
    assert full.value.code == "quota" and "this server keeps in all" in full.value.message
    assert library.usage("address:a") == Usage(saves=2, bytes=2 * one, library_bytes=3 * one)
    assert library.owner_of("p0") == "address:a" and library.owner_of("q0") == "address:b"
    assert {s.name for s in library.saved()} == {"p0", "p1", "q0"}
