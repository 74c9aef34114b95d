"""The human front ends: a game at the terminal (``fh-play``), replays of records (``fh-replay``)
and the learning aids, over the engine and the bots (nothing below imports from here)."""
