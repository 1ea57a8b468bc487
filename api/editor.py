"""The scenario editor's HTTP endpoints (the page is /editor, api/static/editor.html; docs/SCENARIOS.md
"The editor"):

- ``POST /api/scenarios/check``: a scenario document (scenarios/document.py, JSON or TOML: by its
  Content-Type, ``application/json`` or ``application/toml``, else by its first character) checked by
  the server's own validator: ``{"ok", "hash", "problems": [{"location", "message", "hexes"}]}``
  (with ``?echo=1`` also ``document``, the file decoded: the editor's upload);
- ``POST /api/scenarios``: save it (only when the server was started with ``--allow-uploads``): 201
  ``{"ref", "name", "hash", "variant", "derived_from"}``; a document with problems is refused (422);
  the save is its owner's (the signed-in account, else the client's address), within the owner's
  quota and the library's (429 ``quota``), under a name no other owner holds (403 ``forbidden``);
- ``GET /api/scenarios/{id}/document``: a shipped battle's or a saved scenario's document (the
  editor starts from it; also the download).

A body is read up to the document limit (``document.MAX_BYTES``), past it 413 ``too_large``."""

from __future__ import annotations

import asyncio

import msgspec
from aiohttp import web

from api.accounts import client_address
from api.app_keys import CONFIG, LIBRARY
from api.games import HttpError
from api.http import json
from api.sessions import account_of
from scenarios import document
from scenarios.library import Library, LibraryError, built, shipped_names
from scenarios.library import export as export_document
from scenarios.problem_hexes import hexes_of


class ProblemOut(msgspec.Struct, frozen=True, kw_only=True):
    location: str
    message: str
    hexes: list[str]


class Checked(msgspec.Struct, frozen=True, kw_only=True):
    ok: bool
    hash: str | None = None
    problems: list[ProblemOut] = []
    document: document.Document | None = None  # with ?echo=1: the file decoded (the editor's upload)


#: How a body is read, by its Content-Type: JSON, TOML, or (any other type, or none) JSON when it
#: starts with ``{`` and TOML otherwise (scenarios/document.py).
_UPLOAD_NAMES = {
    "application/json": "upload.json",
    "application/toml": "upload.toml",
    "text/toml": "upload.toml",
    "text/x-toml": "upload.toml",
}


async def _document(request: web.Request) -> document.Document:
    if (request.content_length or 0) > document.MAX_BYTES:
        raise HttpError(413, "too_large", f"a scenario file may be at most {document.MAX_BYTES} bytes")
    chunks, size = [], 0
    while size <= document.MAX_BYTES:
        chunk = await request.content.read(document.MAX_BYTES + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    data = b"".join(chunks)
    try:
        return document.decode(data, _UPLOAD_NAMES.get(request.content_type, ""))
    except document.DocumentError as exc:
        raise HttpError(413 if exc.code == "too_large" else 400, exc.code, exc.message) from None


def _checked(found: document.Document) -> Checked:
    """The validator's answer (a large map takes a tenth of a second: run in a thread, `_checking`)."""
    try:
        _, digest = built(found)
    except LibraryError as exc:
        return Checked(ok=False, problems=[
            ProblemOut(location=p.location, message=p.message, hexes=hexes_of(p, found)) for p in exc.problems
        ])
    return Checked(ok=True, hash=digest)


#: Checks run at once by one server, each in a thread, so that the games' event loop never waits on one.
CHECKS_AT_ONCE = 2
CHECKS = web.AppKey("scenario_checks", asyncio.Semaphore)


async def _checking(request: web.Request, found: document.Document) -> Checked:
    async with request.app[CHECKS]:
        return await asyncio.to_thread(_checked, found)


async def check(request: web.Request) -> web.Response:
    found = await _document(request)
    checked = await _checking(request, found)
    if request.query.get("echo") == "1":
        checked = msgspec.structs.replace(checked, document=found)
    return json(checked)


async def owner_of(request: web.Request) -> str:
    """Whose a save is: the signed-in account's, else the client address's (as the limit on failed
    log-ins finds it: behind a trusted proxy, its X-Forwarded-For)."""
    account = await account_of(request)
    return f"account:{account.id}" if account is not None else f"address:{client_address(request)}"


async def save(request: web.Request) -> web.Response:
    config = request.app[CONFIG]
    library: Library = request.app[LIBRARY]
    if not config.allow_uploads or library.root is None:
        raise HttpError(403, "unauthorized", "this server does not accept scenarios (its operator starts it with --allow-uploads to let them be saved)")
    found = await _document(request)
    checked = await _checking(request, found)
    if not checked.ok:
        body = {"error": {"code": "malformed", "message": f"the scenario has {len(checked.problems)} problem(s)"},
                "problems": msgspec.to_builtins(checked.problems)}
        return json(body, 422)
    owner = await owner_of(request)
    try:
        saved = await asyncio.to_thread(library.save, found, None, owner)
    except LibraryError as exc:
        status = {"bad_name": 400, "full": 507, "read_only": 403, "quota": 429, "not_yours": 403}.get(exc.code, 422)
        code = {"bad_name": "malformed", "full": "too_large", "read_only": "unauthorized", "quota": "quota",
                "not_yours": "forbidden"}.get(exc.code, "malformed")
        raise HttpError(status, code, exc.message) from None
    return json(saved, 201)


async def download(request: web.Request) -> web.Response:
    ref = request.match_info["scenario_id"]
    library: Library = request.app[LIBRARY]
    if not (ref in shipped_names() or library.is_saved(ref)):
        raise HttpError(404, "not_found", "no such scenario")
    try:
        found = export_document(ref, library)
    except (LibraryError, document.DocumentError) as exc:
        raise HttpError(404, "not_found", exc.message) from None
    return web.Response(body=document.encode(found), content_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{found.name}.json"'})


def setup_editor_routes(app: web.Application) -> None:
    app[CHECKS] = asyncio.Semaphore(CHECKS_AT_ONCE)
    app.router.add_post("/api/scenarios/check", check)
    app.router.add_post("/api/scenarios", save)
    app.router.add_get("/api/scenarios/{scenario_id}/document", download)
