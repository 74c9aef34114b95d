"""Where the game meets the person: a rich console to show things on and a ``read(prompt)``
callable to ask with.

:class:`Terminal` wraps the two (with readline tab completion when it is the real terminal);
:func:`scripted` is a ``read`` that answers from a list of lines, so tests and demos drive the
same game loop without a keyboard.  :class:`Quit` is how a person's wish to stop (``quit``, end
of input, Ctrl-C) travels up to the game loop.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from rich.console import Console, RenderableType
from rich.text import Text


class Quit(Exception):
    """The person asked to stop (quit, end of input, Ctrl-C)."""


class Terminal:
    """Where the game talks to the person: a rich console and a ``read(prompt)`` callable.

    ``read`` raises EOFError when input ends.  :meth:`interactive` builds the real one, with
    tab completion of the names offered at each prompt when readline is available.
    """

    def __init__(self, console: Console, read: Callable[[str], str]) -> None:
        self.console = console
        self.read = read
        self.completions: list[str] = []

    @classmethod
    def interactive(cls, no_color: bool = False) -> "Terminal":
        console = Console(highlight=False, no_color=no_color or None)
        term = cls(console, input)
        try:
            import readline
        except ImportError:  # pragma: no cover - platform without readline
            return term

        def complete(text: str, index: int) -> str | None:
            hits = [c for c in term.completions if c.lower().startswith(text.lower())]
            return hits[index] if index < len(hits) else None

        readline.set_completer(complete)
        readline.set_completer_delims(" ")
        readline.parse_and_bind("tab: complete")
        return term

    def show(self, *things: RenderableType) -> None:
        for thing in things:
            self.console.print(thing)

    def ask(self, prompt: str, completions: Sequence[str] = ()) -> str:
        self.completions = list(completions)
        try:
            return self.read(prompt)
        except (EOFError, KeyboardInterrupt):
            raise Quit() from None


def scripted(console: Console, lines: Iterable[str]) -> Callable[[str], str]:
    """A ``read`` that answers prompts from ``lines`` and echoes both to ``console``."""
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            line = next(it)
        except StopIteration:
            raise EOFError from None
        console.print(Text(prompt + line))
        return line

    return read
