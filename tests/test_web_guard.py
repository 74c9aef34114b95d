"""What the server of fh-play --web refuses (play/web/guard.py, play/web/server.py): another
site's requests (403 by Origin, then Referer), a foreign Host (400), a body over the limit
(413, before it is read whole), a POST without the game's token (403), and a --host other
than loopback without --allow-remote."""

from __future__ import annotations

import asyncio
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")  # Starlette's TestClient (the test extra)
from starlette.testclient import TestClient  # noqa: E402

from play import cli  # noqa: E402
from play.web.guard import BodyLimitMiddleware, check_bind  # noqa: E402
from play.web.server import create_app  # noqa: E402
from web_helpers import SIX_NT, fixed_game  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ORIGIN = "http://127.0.0.1"


def served():
    game = fixed_game()
    app = create_app(game)
    token = app.state.host.token
    return game, TestClient(app, base_url=ORIGIN), token


def test_the_page_carries_the_token_and_posts_need_it():
    game, c, token = served()
    page = c.get("/").text
    assert re.search(r'<meta name="fh-token" content="([^"]+)">', page).group(1) == token
    r = c.post("/api/act", json={"action": SIX_NT})
    assert r.status_code == 403 and "token" in r.json()["error"]
    r = c.post("/api/act", json={"action": SIX_NT}, headers={"X-FH-Token": "x" + token})
    assert r.status_code == 403
    assert len(game.state.calls) == 0  # neither took effect
    r = c.post("/api/act", json={"action": SIX_NT}, headers={"X-FH-Token": token})
    assert r.status_code == 200 and len(game.state.calls) == 1


def test_cross_origin_posts_are_refused_by_origin_then_referer():
    game, c, token = served()
    bid = {"X-FH-Token": token, "Content-Type": "text/plain"}
    body = '{"action": %d}' % SIX_NT
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Origin": "http://127.0.0.1:9999"},
                    {"Referer": "http://evil.example/page.html"},
                    {"Origin": "http://evil.example", "Referer": ORIGIN + "/"}):
        r = c.post("/api/act", content=body, headers={**bid, **headers})
        assert r.status_code == 403, headers
        assert "cross-origin" in r.json()["error"]
    assert len(game.state.calls) == 0
    # The game's own page: Origin, or Referer alone, of this server.
    r = c.post("/api/aids", json={"name": "hint", "on": False},
               headers={"X-FH-Token": token, "Origin": ORIGIN})
    assert r.status_code == 200
    r = c.post("/api/act", content=body, headers={**bid, "Referer": ORIGIN + "/"})
    assert r.status_code == 200 and len(game.state.calls) == 1
    # Reading is not state-changing: a GET passes the origin check (the browser keeps
    # another site from reading the answer).
    assert c.get("/api/state", headers={"Origin": "http://evil.example"}).status_code == 200


def test_a_foreign_host_is_refused():
    game = fixed_game()
    app = create_app(game)
    evil = TestClient(app, base_url="http://evil.example")
    assert evil.get("/api/state").status_code == 400
    assert evil.get("/").status_code == 400
    for name in ("127.0.0.1:8500", "localhost:8500", "localhost"):
        assert TestClient(app).get("/api/state", headers={"Host": name}).status_code == 200
    # A server listening on another address answers that address too.
    other = create_app(fixed_game(), bind="192.168.1.5")
    assert TestClient(other, base_url="http://192.168.1.5:8500").get("/api/state").status_code == 200
    assert TestClient(other, base_url="http://evil.example").get("/api/state").status_code == 400


def test_a_body_over_the_limit_is_refused_413():
    game, c, token = served()
    big = b"x" * (2 << 20)
    r = c.post("/api/replay", content=big, headers={"X-FH-Token": token})
    assert r.status_code == 413 and "limit" in r.json()["error"]
    small = create_app(fixed_game(), max_body=100)
    sc = TestClient(small, base_url=ORIGIN, headers={"X-FH-Token": small.state.host.token})
    assert sc.post("/api/act", content=b'{"action": %d}' % SIX_NT + b" " * 200).status_code == 413
    assert sc.post("/api/act", json={"action": SIX_NT}).status_code == 200


def test_the_limit_stops_reading_a_stream_without_a_length():
    """A chunked body with no Content-Length: the middleware reads chunks only until they pass
    the limit, answers 413 and never asks for the rest (nor calls the app)."""
    reached = []

    async def app(scope, receive, send):  # pragma: no cover - must not run
        reached.append(True)

    chunks_read = 0
    total_chunks = 10_000  # 10,000 chunks of 64 KiB: 640 MiB if it were read whole

    async def receive():
        nonlocal chunks_read
        chunks_read += 1
        return {"type": "http.request", "body": b"j" * 65536,
                "more_body": chunks_read < total_chunks}

    sent = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "headers": [(b"host", b"127.0.0.1")]}
    asyncio.run(BodyLimitMiddleware(app, limit=1 << 20)(scope, receive, send))
    assert sent[0]["status"] == 413 and not reached
    assert chunks_read == (1 << 20) // 65536 + 1  # 17 of the 10,000


def test_a_body_within_the_limit_reaches_the_app_whole():
    seen = []

    async def app(scope, receive, send):
        message = await receive()
        seen.append(message["body"])
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    parts = [b"ab", b"cd", b"ef"]

    async def receive():
        body = parts.pop(0)
        return {"type": "http.request", "body": body, "more_body": bool(parts)}

    async def send(message):
        pass

    scope = {"type": "http", "method": "POST", "headers": []}
    asyncio.run(BodyLimitMiddleware(app, limit=10)(scope, receive, send))
    assert seen == [b"abcdef"]


def test_remote_host_needs_allow_remote_and_warns(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert check_bind("127.0.0.1", False) is None and check_bind("::1", False) is None
    assert check_bind("localhost", False) is None
    with pytest.raises(ValueError, match="--allow-remote"):
        check_bind("0.0.0.0", False)
    assert "warning" in check_bind("0.0.0.0", True)
    assert cli.main(["--web", "--host", "0.0.0.0", "--no-browser"]) == 2
    assert "--allow-remote" in capsys.readouterr().err
    import play.web.server as server

    served_apps = []
    monkeypatch.setattr(server, "serve", lambda app, *a, **k: served_apps.append(app))
    assert cli.main(["--web", "--host", "0.0.0.0", "--allow-remote", "--no-browser"]) == 0
    err = capsys.readouterr().err
    assert "warning: listening on 0.0.0.0" in err and served_apps
    assert cli.replay_main(["nothing.json", "--web"]) == 2  # (the file is checked first)
