"""The local web server of ``fh-play --web``: a Starlette app over one :class:`WebGame`.

The page (``static/index.html``, ``app.js``, ``style.css``; no build step, nothing fetched from
outside) talks to a small JSON API; every handler takes the game's lock, lets the session check
the request against the engine, and answers with the person's snapshot or a 4xx and the reason:

=========================  ================================================================
``GET  /api/state``        the snapshot (``?since=N``: only the events after number N)
``POST /api/act``          ``{"action": id}`` (a call) or ``{"card": "QS", "suit": "H"?}``
``POST /api/discard``      ``{"cards": ["4S", "5C", "6D"]}``: the whole discard, confirmed
``POST /api/advance``      one bot move (the page calls it at its own pace)
``POST /api/claim``        the person claims the remaining tricks (§5.11)
``POST /api/next``         deal the next hand
``POST /api/aids``         ``{"name": "hint", "on": true}``
``GET  /api/aid/NAME``     ``hint``, ``estimate``, ``counter``; ``POST /api/aid/analyse``
                           ``{"bid": id}``
``GET  /api/record``       the game record of the finished hands (what fh-replay reads)
``POST /api/replay``       a record (JSON body) as the frames of the replay page;
                           ``GET /api/replay/game`` this game's, ``/api/replay/file`` the
                           file given to ``fh-replay --web``
=========================  ================================================================
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from fh_env.records import RecordMismatch, check_header

from .session import Refused, WebGame, replay_json

STATIC = Path(__file__).parent / "static"


def create_app(game: WebGame | None, replay_record: dict[str, Any] | None = None) -> Starlette:
    """The app serving ``game`` (None: only the replay page, for ``fh-replay --web``)."""

    def guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
        """Run a handler under the game's lock; a refusal becomes a 4xx with its reason."""
        async def endpoint(request: Request) -> Response:
            body: Any = None
            if request.method == "POST":
                raw = await request.body()
                if raw:
                    try:
                        body = json.loads(raw)
                    except ValueError:
                        return JSONResponse({"error": "the body is not JSON"}, 400)
                if body is not None and not isinstance(body, dict):
                    return JSONResponse({"error": "the body must be a JSON object"}, 400)
            if game is None and handler not in (replay_post, replay_file):
                return JSONResponse({"error": "no game is being played"}, 404)
            try:
                result = await run_in_threadpool(locked, handler, request, body or {})
            except Refused as err:
                return JSONResponse({"error": str(err)}, err.status)
            return result if isinstance(result, Response) else JSONResponse(result)
        return endpoint

    def locked(handler: Callable[..., Any], request: Request, body: dict[str, Any]) -> Any:
        if game is None:
            return handler(request, body)
        with game.lock:
            return handler(request, body)

    def since(request: Request) -> int:
        try:
            return max(0, int(request.query_params.get("since", "0")))
        except ValueError:
            raise Refused("since must be a number", 400) from None

    def state(request: Request, body: dict[str, Any]) -> Any:
        return game.snapshot(since(request))  # type: ignore[union-attr]

    def act(request: Request, body: dict[str, Any]) -> Any:
        g = game
        assert g is not None
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
        return g.snapshot(since(request))

    def discard(request: Request, body: dict[str, Any]) -> Any:
        cards = body.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise Refused("send {\"cards\": [names]}", 400)
        game.discard(cards)  # type: ignore[union-attr]
        return game.snapshot(since(request))  # type: ignore[union-attr]

    def advance(request: Request, body: dict[str, Any]) -> Any:
        game.advance()  # type: ignore[union-attr]
        return game.snapshot(since(request))  # type: ignore[union-attr]

    def claim(request: Request, body: dict[str, Any]) -> Any:
        stood = game.claim_rest()  # type: ignore[union-attr]
        return {"stands": stood, **game.snapshot(since(request))}  # type: ignore[union-attr]

    def next_hand(request: Request, body: dict[str, Any]) -> Any:
        game.deal_next()  # type: ignore[union-attr]
        game.message = ""  # type: ignore[union-attr]
        return game.snapshot(since(request))  # type: ignore[union-attr]

    def aids(request: Request, body: dict[str, Any]) -> Any:
        name, on = body.get("name"), body.get("on")
        if not isinstance(name, str) or not isinstance(on, bool):
            raise Refused("send {\"name\": aid, \"on\": true|false}", 400)
        game.set_aid(name, on)  # type: ignore[union-attr]
        return game.snapshot(since(request))  # type: ignore[union-attr]

    def aid(request: Request, body: dict[str, Any]) -> Any:
        name = request.path_params["name"]
        g = game
        assert g is not None
        if name == "hint":
            return g.hint_json()
        if name == "estimate":
            return g.estimates_json()
        if name == "counter":
            return g.counter_json()
        if name == "analyse" and request.method == "POST":
            return g.analyse_json(body.get("bid"))  # type: ignore[arg-type]
        raise Refused(f"no aid {name!r} here", 404)

    def record(request: Request, body: dict[str, Any]) -> Any:
        return game.finished_record()  # type: ignore[union-attr]

    def replay_game(request: Request, body: dict[str, Any]) -> Any:
        return frames_of(game.finished_record())  # type: ignore[union-attr]

    def replay_post(request: Request, body: dict[str, Any]) -> Any:
        return frames_of(body)

    def replay_file(request: Request, body: dict[str, Any]) -> Any:
        if replay_record is None:
            raise Refused("no record file was given", 404)
        return frames_of(replay_record)

    def page(name: str) -> Callable[[Request], Response]:
        async def serve(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})
        return serve

    routes = [
        Route("/", page("index.html" if game is not None else "replay.html")),
        Route("/replay", page("replay.html")),
        Route("/api/state", guarded(state)),
        Route("/api/act", guarded(act), methods=["POST"]),
        Route("/api/discard", guarded(discard), methods=["POST"]),
        Route("/api/advance", guarded(advance), methods=["POST"]),
        Route("/api/claim", guarded(claim), methods=["POST"]),
        Route("/api/next", guarded(next_hand), methods=["POST"]),
        Route("/api/aids", guarded(aids), methods=["POST"]),
        Route("/api/aid/{name}", guarded(aid), methods=["GET", "POST"]),
        Route("/api/record", guarded(record)),
        Route("/api/replay/game", guarded(replay_game)),
        Route("/api/replay/file", guarded(replay_file)),
        Route("/api/replay", guarded(replay_post), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)


def frames_of(record: dict[str, Any]) -> dict[str, Any]:
    try:
        check_header(record)
        return replay_json(record)
    except (RecordMismatch, KeyError, TypeError, ValueError) as err:
        raise Refused(f"the record does not replay: {err}", 422) from None


def serve(app: Starlette, host: str, port: int, open_browser: bool, path: str = "/") -> None:
    """Run the app with uvicorn until Ctrl-C (opening the page in a browser when asked)."""
    import uvicorn

    url = f"http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{port}{path}"
    print(f"Five Hundred in the browser: {url}  (Ctrl-C stops the server)", flush=True)
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning")
