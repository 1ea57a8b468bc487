"""The web client's files as the server serves them (no browser needed): every page is index.html,
every module it imports exists and is served as JavaScript, and nothing is fetched from elsewhere."""

from __future__ import annotations

import re

import aiohttp
import pytest

from api.webclient import STATIC

MODULES = sorted(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*.js"))


@pytest.mark.parametrize("path", ["/", "/join/abc", "/play/abc", "/watch/abc", "/tournaments", "/tournaments/abc"])
async def test_every_page_is_the_client(server, path):
    async with aiohttp.ClientSession() as http, http.get(f"{server}{path}") as r:
        assert r.status == 200
        assert r.headers["Content-Type"].startswith("text/html")
        assert '<script type="module" src="/static/js/app.js">' in await r.text()


async def test_modules_are_served_as_javascript(server):
    async with aiohttp.ClientSession() as http:
        for name in MODULES + ["app.css"]:
            async with http.get(f"{server}/static/{name}") as r:
                assert r.status == 200, name
                kind = "css" if name.endswith(".css") else "javascript"
                assert kind in r.headers["Content-Type"], (name, r.headers["Content-Type"])


def test_imports_resolve_and_nothing_comes_from_elsewhere():
    for name in MODULES:
        text = (STATIC / name).read_text()
        for target in re.findall(r'from\s+"([^"]+)"', text):
            assert target.startswith("./"), f"{name} imports {target}: only local modules (no CDN)"
            assert (STATIC / name).parent.joinpath(target).resolve().is_file(), f"{name} imports a missing {target}"
    for path in STATIC.rglob("*"):
        if path.is_file():
            assert not re.search(r"(src|href)=\"https?://", path.read_text()), f"{path} loads something from the network"
