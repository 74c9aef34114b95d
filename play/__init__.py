"""The human front ends: a game at the terminal (``fh-play``), replays of records (``fh-replay``)
and the learning aids, over the engine and the bots (nothing below imports from here).

Modules, each importing only those listed before it: :mod:`~play.render` (drawing with rich),
:mod:`~play.entries` (reading what the person types), :mod:`~play.explain` (why an entry is
illegal, from the engine's answer), :mod:`~play.terminal` (console input and output),
:mod:`~play.game` (the game loop), :mod:`~play.cli` (the two command lines); :mod:`~play.aids`
(the learning aids) imports nothing from here and is used lazily.
"""
