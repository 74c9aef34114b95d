"""Five Hundred in the browser (``fh-play --web``): a local Starlette server and a page with no
build step.

:mod:`~play.web.session` is the game as the page sees it (the shared :class:`play.game.Table`,
the person's snapshot as JSON, every move checked by the engine); :mod:`~play.web.server` the
app and its JSON API; ``static/`` the page (``index.html``, ``app.js``, ``style.css``; the
cards are drawn by the page itself) and the replay page (``replay.html``, ``replay.js``).
Needs the ``web`` extra (starlette, uvicorn): :func:`missing_extra` says so in one line.
"""

from __future__ import annotations


def missing_extra() -> str | None:
    """None when the web extra is installed, else the one line that says how to get it."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as err:
        return (f"--web needs the web extra ({err.name} is missing): "
                "pip install 'fivehundred-rl[web]'")
    return None
