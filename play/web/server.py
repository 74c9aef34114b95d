"""The local web server of ``fh-play --web``: a Starlette app over the game being played.

The page (``static/index.html``, ``app.js``, ``style.css``; no build step, nothing fetched from
outside) talks to a small JSON API; every handler takes the game's lock, lets the session check
the request against the engine, and answers with the person's snapshot or a 4xx and the reason:

=========================  ================================================================
``GET  /api/state``        the snapshot (``?since=N``: only the events after number N)
``POST /api/act``          ``{"action": id}`` (a call) or ``{"card": "QS", "suit": "H"?}``
``POST /api/discard``      ``{"cards": ["4S", "5C", "6D"]}``: the whole discard, confirmed
``POST /api/advance``      one bot move (the page calls it at its own pace); with
                           ``{"after": N}`` only when N events have been logged (two tabs
                           asking for the same move make one)
``POST /api/claim``        the person claims the remaining tricks (§5.11)
``POST /api/next``         deal the next hand
``POST /api/aids``         ``{"name": "hint", "on": true}``
``GET  /api/aid/NAME``     ``hint``, ``estimate``, ``counter``; ``POST /api/aid/analyse``
                           ``{"bid": id}``
``GET  /api/setup``        the start screen: presets, the difficulty ladder, the statistics
``POST /api/new``          a new game: ``{"preset" | "rules_toml", "target", "level",
                           "partner"}``; answers with the new game's token
``GET  /api/record``       the game record of the finished hands (what fh-replay reads)
``POST /api/replay``       a record (JSON body) as the frames of the replay page;
                           ``GET /api/replay/game`` this game's, ``/api/replay/file`` the
                           file given to ``fh-replay --web``
=========================  ================================================================

What it refuses before a handler runs (:mod:`play.web.guard`): a ``Host`` outside the
allow-list (400), a state-changing request from another origin (403), a body over the limit
(413); and every POST must carry the game's token (header ``X-FH-Token``, from the page's
``<meta name="fh-token">``), else 403.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import secrets
import socket
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from fh_env.records import RecordMismatch, check_header
from fh_env.rules import rules_name
from fh_env.engine import side_of

from . import ladder
from .guard import (MAX_BODY, TOKEN_HEADER, BodyLimitMiddleware, SameOriginMiddleware,
                    allowed_hosts)
from .session import Refused, WebGame, replay_json
from .stats import Stats

STATIC = Path(__file__).parent / "static"
Body = dict[str, Any]


class Host:
    """What the server serves: the game in progress (None before the first one), the token
    its page's POSTs carry, what it was started with, and the statistics file."""

    def __init__(self, game: WebGame | None, setup: ladder.Setup | None = None,
                 stats: Stats | None = None, save_dir: str | Path = "fh-games",
                 pace_ms: int = 700, replay_record: dict[str, Any] | None = None,
                 level: str = "custom") -> None:
        self.lock = threading.RLock()
        self.game: WebGame | None = None
        self.setup: ladder.Setup | None = None
        self.stats, self.save_dir, self.pace_ms = stats, save_dir, pace_ms
        self.replay_record = replay_record
        self.token = secrets.token_urlsafe(24)
        self.game_no = 0
        self.stats_game: int | None = None
        self.recorded: set[int] = set()  # the hands whose statistics are written
        if game is not None:
            self.start(game, setup or ladder.Setup(level, None, game.rules, []))

    def start(self, game: WebGame, setup: ladder.Setup) -> None:
        """Serve ``game`` from now on, under a new token."""
        with self.lock:
            self.game, self.setup = game, setup
            self.game_no += 1
            self.token = secrets.token_urlsafe(24)
            self.recorded = set()
            self.stats_game = None
            if self.stats is not None:
                self.stats_game = self.stats.start_game(
                    setup.level, setup.partner, rules_name(game.rules), game.players,
                    game.seed)

    def note_progress(self) -> None:
        """Write the statistics of a hand just finished (and of the game, when it is over)."""
        g = self.game
        if g is None or self.stats is None or self.stats_game is None:
            return
        state = g.state
        if not state.is_terminal or g.hand_no in self.recorded:
            return
        self.recorded.add(g.hand_no)
        r = state.result
        side = side_of(g.players, g.person)
        nullo = r.contract_name in ("nullo", "open nullo", "double nullo") \
            if r.contract_name else False
        self.stats.hand(self.stats_game, g.hand_no, r.contract_name, nullo,
                        r.declarer == g.person, r.made, r.hand_points[side])
        if state.game_over:
            self.stats.finish_game(self.stats_game, state.winner == side)


# ---------------------------------------------------------------------- the handlers
# Each takes the host, the request and its JSON body, runs under the game's lock and returns
# a JSON value (or a Response); a Refused becomes a 4xx with its reason.


def since(request: Request) -> int:
    try:
        return max(0, int(request.query_params.get("since", "0")))
    except ValueError:
        raise Refused("since must be a number", 400) from None


def game_of(host: Host) -> WebGame:
    if host.game is None:
        raise Refused("no game is being played: start one", 404)
    return host.game


def snap(host: Host, request: Request) -> dict[str, Any]:
    out = game_of(host).snapshot(since(request))
    out["game_no"] = host.game_no
    out["notes"] = host.setup.notes if host.setup else []
    out["level"] = host.setup.level if host.setup else None
    return out


def state(host: Host, request: Request, body: Body) -> Any:
    return snap(host, request)


def act(host: Host, request: Request, body: Body) -> Any:
    g = game_of(host)
    if "action" in body:
        g.act(body["action"])
    elif isinstance(body.get("card"), str):
        g.person_on_turn()
        suit = body.get("suit")
        if suit is not None and not isinstance(suit, str):
            raise Refused("suit must be S, C, D or H", 400)
        g.act(g.card_action(body["card"], suit))
    else:
        raise Refused("send {\"action\": id} or {\"card\": name}", 400)
    g.message = ""
    return snap(host, request)


def discard(host: Host, request: Request, body: Body) -> Any:
    cards = body.get("cards")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise Refused("send {\"cards\": [names]}", 400)
    game_of(host).discard(cards)
    return snap(host, request)


def advance(host: Host, request: Request, body: Body) -> Any:
    g = game_of(host)
    after = body.get("after")
    if after is not None and not isinstance(after, int):
        raise Refused("after must be a number of events", 400)
    if after is None or after == len(g.events):
        g.advance()
    return snap(host, request)


def claim(host: Host, request: Request, body: Body) -> Any:
    stood = game_of(host).claim_rest()
    return {"stands": stood, **snap(host, request)}


def next_hand(host: Host, request: Request, body: Body) -> Any:
    g = game_of(host)
    g.deal_next()
    g.message = ""
    return snap(host, request)


def aids(host: Host, request: Request, body: Body) -> Any:
    name, on = body.get("name"), body.get("on")
    if not isinstance(name, str) or not isinstance(on, bool):
        raise Refused("send {\"name\": aid, \"on\": true|false}", 400)
    game_of(host).set_aid(name, on)
    return snap(host, request)


def aid(host: Host, request: Request, body: Body) -> Any:
    name, g = request.path_params["name"], game_of(host)
    if name == "hint":
        return g.hint_json()
    if name == "estimate":
        return g.estimates_json()
    if name == "counter":
        return g.counter_json()
    if name == "analyse" and request.method == "POST":
        return g.analyse_json(body.get("bid"))  # type: ignore[arg-type]
    raise Refused(f"no aid {name!r} here", 404)


def setup(host: Host, request: Request, body: Body) -> Any:
    summary = {}
    if host.stats is not None:
        summary = host.stats.summary()
    g = host.game
    current = None
    if g is not None and host.setup is not None:
        current = {"level": host.setup.level, "partner": host.setup.partner,
                   "preset": rules_name(g.rules), "target": g.rules.target,
                   "over": g.state.game_over}
    return {"presets": ladder.presets_json(), "levels": ladder.ladder_json(),
            "stats": summary, "stats_file": str(host.stats.path) if host.stats else None,
            "current": current, "game_no": host.game_no}


def new(host: Host, request: Request, body: Body) -> Any:
    try:
        game, made = ladder.new_game(body, host.save_dir, pace_ms=host.pace_ms)
    except ValueError as err:
        raise Refused(str(err), 400) from None
    old = host.game
    if old is not None:
        old.write_record()
        game.aids = set(old.aids)  # the aids stay as they were
    host.start(game, made)
    return {"token": host.token, **snap(host, request)}


def record(host: Host, request: Request, body: Body) -> Any:
    return game_of(host).finished_record()


def replay_game(host: Host, request: Request, body: Body) -> Any:
    return frames_of(game_of(host).finished_record())


def replay_post(host: Host, request: Request, body: Body) -> Any:
    return frames_of(body)


def replay_file(host: Host, request: Request, body: Body) -> Any:
    if host.replay_record is None:
        raise Refused("no record file was given", 404)
    return frames_of(host.replay_record)


def frames_of(record: dict[str, Any]) -> dict[str, Any]:
    try:
        check_header(record)
        return replay_json(record)
    except (RecordMismatch, KeyError, TypeError, ValueError) as err:
        raise Refused(f"the record does not replay: {err}", 422) from None


# ---------------------------------------------------------------------- the plumbing

Handler = Callable[[Host, Request, Body], Any]


async def read_body(request: Request) -> Body:
    """The JSON object of a POST (an empty body is ``{}``); Refused 400 otherwise."""
    raw = await request.body()
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except ValueError:
        raise Refused("the body is not JSON", 400) from None
    if not isinstance(body, dict):
        raise Refused("the body must be a JSON object", 400)
    return body


def check_token(host: Host, request: Request) -> None:
    sent = request.headers.get(TOKEN_HEADER, "")
    if not hmac.compare_digest(sent.encode(), host.token.encode()):
        raise Refused("this request does not carry the token of the game being played: "
                      "reload the page", 403)


def locked(host: Host, handler: Handler, request: Request, body: Body) -> Any:
    with host.lock:
        game = host.game
        if game is None:
            return handler(host, request, body)
        with game.lock:
            result = handler(host, request, body)
            if request.method == "POST":
                host.note_progress()
            return result


def guarded(host: Host, handler: Handler) -> Callable[[Request], Any]:
    """The endpoint of a handler: the body read, the token checked (POST), the handler run in
    a thread under the locks; a refusal becomes a 4xx with its reason."""
    async def endpoint(request: Request) -> Response:
        try:
            body: Body = {}
            if request.method == "POST":
                check_token(host, request)
                body = await read_body(request)
            result = await run_in_threadpool(locked, host, handler, request, body)
        except Refused as err:
            return JSONResponse({"error": str(err)}, err.status)
        return result if isinstance(result, Response) else JSONResponse(result)
    return endpoint


def page(host: Host, name: str) -> Callable[[Request], Any]:
    """A page with the token of the game in its ``<meta name="fh-token">``."""
    async def serve(request: Request) -> Response:
        text = (STATIC / name).read_text(encoding="utf-8").replace("{{TOKEN}}", host.token)
        return HTMLResponse(text, headers={"Cache-Control": "no-store"})
    return serve


ROUTES: list[tuple[str, Handler, list[str]]] = [
    ("/api/state", state, ["GET"]),
    ("/api/act", act, ["POST"]),
    ("/api/discard", discard, ["POST"]),
    ("/api/advance", advance, ["POST"]),
    ("/api/claim", claim, ["POST"]),
    ("/api/next", next_hand, ["POST"]),
    ("/api/aids", aids, ["POST"]),
    ("/api/aid/{name}", aid, ["GET", "POST"]),
    ("/api/setup", setup, ["GET"]),
    ("/api/new", new, ["POST"]),
    ("/api/record", record, ["GET"]),
    ("/api/replay/game", replay_game, ["GET"]),
    ("/api/replay/file", replay_file, ["GET"]),
    ("/api/replay", replay_post, ["POST"]),
]


def create_app(game: WebGame | None = None, replay_record: dict[str, Any] | None = None, *,
               host: Host | None = None, bind: str = "127.0.0.1",
               max_body: int = MAX_BODY, replay_only: bool = False) -> Starlette:
    """The app serving ``game`` (or ``host``, which holds the game and the statistics);
    ``replay_only``: only the replay page, for ``fh-replay --web``."""
    host = host or Host(game, replay_record=replay_record)
    if replay_record is not None:
        host.replay_record = replay_record
    replay_only = replay_only or (game is None and host.game is None
                                  and replay_record is not None)
    front = "replay.html" if replay_only else "index.html"
    routes = [Route("/", page(host, front)), Route("/replay", page(host, "replay.html"))]
    routes += [Route(path, guarded(host, handler), methods=methods)
               for path, handler, methods in ROUTES]
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    app = Starlette(routes=routes, middleware=[
        Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(bind)),
        Middleware(SameOriginMiddleware),
        Middleware(BodyLimitMiddleware, limit=max_body),
    ])
    app.state.host = host
    return app


def serve(app: Starlette, host: str, port: int, open_browser: bool, path: str = "/") -> None:
    """Run the app with uvicorn until Ctrl-C (opening the page in a browser when asked)."""
    import uvicorn

    url = f"http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{port}{path}"
    print(f"Five Hundred in the browser: {url}  (Ctrl-C stops the server)", flush=True)
    if open_browser:
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning")


@contextlib.contextmanager
def serve_in_thread(app: Starlette, timeout: float = 20.0) -> Iterator[str]:
    """``app`` served by uvicorn on a free loopback port, in a thread of this process, for as
    long as the ``with`` lasts: its URL.  Why: the browser tests and the screenshot script
    drive a real server in the same process as the game they look at."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"the server did not start on port {port}")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
