"""What the server of ``fh-play --web`` refuses before any handler runs.

A page open in the player's browser on another site must not be able to play their moves or
read their hand, and no request may make the server read or hold an unbounded body:

- :class:`TrustedHostMiddleware` (Starlette's) answers 400 to a ``Host`` header outside the
  allow-list (:func:`allowed_hosts`): a DNS-rebinding page reaches the server under its own
  name, so it is refused before it can read the state;
- :class:`SameOriginMiddleware` answers 403 to a state-changing request (POST, PUT, PATCH,
  DELETE) whose ``Origin`` header (or, when there is none, ``Referer``) is another site's;
- :class:`BodyLimitMiddleware` answers 413 to a body above the limit: at once when
  ``Content-Length`` says so, else as soon as the streamed chunks pass it (the rest is never
  read);
- the per-game token that every POST must carry (``X-FH-Token``) is checked by the handlers
  (:mod:`play.web.server`): the page gets it in a ``<meta>`` tag that only a same-origin
  reader can see.

:func:`check_bind` says whether an address may be listened on: loopback only, unless the
person says ``--allow-remote`` (and then with a warning).
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any, Awaitable, Callable
from urllib.parse import urlsplit

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
TOKEN_HEADER = "x-fh-token"
MAX_BODY = 1 << 20  # 1 MiB: a game record of many hands fits; junk does not


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, allow_remote: bool) -> str | None:
    """None for a loopback address; for another one a warning to print when ``allow_remote``
    (else ValueError with what to do)."""
    if is_loopback(host):
        return None
    if not allow_remote:
        raise ValueError(f"--host {host} would serve the game to other machines on the "
                         "network, and the server has no passwords; add --allow-remote to "
                         "do it anyway")
    return (f"warning: listening on {host}: anyone who can reach this machine on the network "
            "can open the game (the page, its moves and its hands are not protected by a "
            "password)")


def allowed_hosts(bind: str = "127.0.0.1") -> list[str]:
    """The ``Host`` names the server answers: the loopback names, and the address it listens
    on (any name at all for the wildcard addresses 0.0.0.0 and ::)."""
    hosts = ["127.0.0.1", "localhost", "[::1]", "::1"]
    if bind in ("0.0.0.0", "::", ""):
        return ["*"]
    if bind not in hosts:
        hosts.append(f"[{bind}]" if ":" in bind else bind)
    return hosts


async def refuse(send: Send, status: int, reason: str) -> None:
    body = json.dumps({"error": reason}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of a URL (None for ``null`` or anything unreadable)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


class SameOriginMiddleware:
    """403 for a state-changing request from another origin: its ``Origin`` (or ``Referer``
    when a browser sent no ``Origin``) must be this server's own (``http://`` + the ``Host``
    the request came to).  A request with neither header is no browser page's, and passes on
    to the token check."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in UNSAFE_METHODS:
            return await self.app(scope, receive, send)
        own = f"{scope.get('scheme', 'http')}://{header(scope, b'host') or ''}".lower()
        origin = header(scope, b"origin")
        if origin is not None:
            if origin_of(origin) != own:
                return await refuse(send, 403, f"cross-origin request refused: Origin "
                                               f"{origin!r} is not this server ({own})")
        else:
            referer = header(scope, b"referer")
            if referer is not None and origin_of(referer) != own:
                return await refuse(send, 403, "cross-origin request refused: Referer "
                                               f"{referer!r} is not this server ({own})")
        await self.app(scope, receive, send)


class BodyLimitMiddleware:
    """413 for a request body above ``limit`` bytes, before the body is read whole: a
    ``Content-Length`` above it is refused unread; otherwise the chunks are read as they come
    (never more than the limit held) and the request is refused as soon as they pass it.  A
    body within the limit is handed on to the app as it came."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        too_big = f"the request body is over the limit of {self.limit} bytes"
        length = header(scope, b"content-length")
        if length is not None:
            try:
                if int(length) > self.limit:
                    return await refuse(send, 413, too_big)
            except ValueError:
                return await refuse(send, 400, "Content-Length is not a number")
        if scope["method"] in ("GET", "HEAD") and length is None:
            return await self.app(scope, receive, send)
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return await refuse(send, 413, too_big)
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
