"""The player's statistics per difficulty, as the apps keep them, in a local SQLite file.

Games played and won, contracts bid and made, points a deal, the nullo record: one row per
game (its level, rules and result) and one per hand (the contract, who bid it, whether it was
made, the person's side's hand points), each written in its own transaction, so that a game
cut off (Ctrl-C, a kill -9 mid-game) keeps every finished hand and the file stays whole (the
journal is SQLite's write-ahead log).

The file lives under the user's data folder (``$XDG_DATA_HOME/fivehundred-rl/stats.sqlite3``,
by default ``~/.local/share/fivehundred-rl/stats.sqlite3``; ``fh-play --web --stats PATH``
chooses another).  It is marked as ours by SQLite's ``application_id`` and its schema version
by ``user_version``: a file that is not an SQLite database, another program's database or a
later schema is refused with :class:`StatsError` naming the file, and never written to.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

APPLICATION_ID = 0x46483530  # "FH50"
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    level TEXT NOT NULL,          -- the opponents' level (play.web.ladder)
    partner TEXT,                 -- the partners' level (None: no partner)
    rules TEXT NOT NULL,          -- a preset name or 'custom'
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    started REAL NOT NULL,
    finished REAL,                -- None while the game is not over
    won INTEGER                   -- 1 won, 0 lost or drawn, None while not over
);
CREATE TABLE hands (
    game_id INTEGER NOT NULL REFERENCES games(id),
    hand_no INTEGER NOT NULL,
    contract TEXT,                -- '7H', 'nullo', ...; None for a hand thrown in
    nullo INTEGER NOT NULL,       -- 1 for a nullo-type contract
    by_person INTEGER NOT NULL,   -- 1 when the person declared it
    made INTEGER,                 -- 1 made, 0 failed, None thrown in
    points INTEGER NOT NULL,      -- the person's side's hand points
    PRIMARY KEY (game_id, hand_no)
);
"""


class StatsError(Exception):
    """A statistics file that cannot be used (the message names the file and why)."""


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return Path(base) / "fivehundred-rl" / "stats.sqlite3"


def _check(path: Path) -> bool:
    """True when ``path`` is our statistics file, False when it does not exist or is empty
    (a new one may be made there); StatsError for anything else."""
    if not path.exists():
        return False
    if path.is_dir():
        raise StatsError(f"statistics file {path} is a directory")
    if path.stat().st_size == 0:
        return False
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            app_id = con.execute("PRAGMA application_id").fetchone()[0]
            version = con.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
        finally:
            con.close()
    except sqlite3.DatabaseError as err:
        raise StatsError(f"statistics file {path} is not an SQLite database ({err}); it is "
                         "left as it is: move it away or choose another file with --stats "
                         "PATH") from None
    if app_id != APPLICATION_ID:
        raise StatsError(f"statistics file {path} is another program's SQLite database "
                         f"(application_id {app_id:#x}, not {APPLICATION_ID:#x}); it is left "
                         "as it is: choose another file with --stats PATH")
    if version > SCHEMA_VERSION or not {"games", "hands"} <= tables:
        raise StatsError(f"statistics file {path} has schema version {version}, which this "
                         f"version ({SCHEMA_VERSION}) does not read; it is left as it is")
    return True


class Stats:
    """The statistics file, open for the life of the server (one connection, used under a
    lock from the server's threads)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        exists = _check(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        self.con = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=FULL")
        self.con.execute("PRAGMA foreign_keys=ON")
        if not exists:
            with self.lock:
                self.con.executescript(
                    f"BEGIN IMMEDIATE; PRAGMA application_id={APPLICATION_ID}; "
                    f"PRAGMA user_version={SCHEMA_VERSION};" + SCHEMA + "COMMIT;")

    def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        with self.lock:
            cur = self.con.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                cur.execute(sql, params)
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            return cur.lastrowid or 0

    def close(self) -> None:
        with self.lock:
            self.con.close()

    # ------------------------------------------------------------------ writing
    def start_game(self, level: str, partner: str | None, rules: str, players: int,
                   seed: int) -> int:
        return self._write("INSERT INTO games (level, partner, rules, players, seed, started) "
                           "VALUES (?, ?, ?, ?, ?, ?)",
                           (level, partner, rules, players, seed, time.time()))

    def hand(self, game_id: int, hand_no: int, contract: str | None, nullo: bool,
             by_person: bool, made: bool | None, points: int) -> None:
        self._write("INSERT OR REPLACE INTO hands VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, hand_no, contract, int(nullo), int(by_person),
                     None if made is None else int(made), points))

    def finish_game(self, game_id: int, won: bool) -> None:
        self._write("UPDATE games SET finished = ?, won = ? WHERE id = ?",
                    (time.time(), int(won), game_id))

    # ------------------------------------------------------------------ reading
    def summary(self) -> dict[str, dict[str, Any]]:
        """Per level: games played (finished) and won, games left unfinished, hands, the
        person's contracts bid and made, points a deal, the person's nullo contracts made and
        failed."""
        with self.lock:
            games = self.con.execute(
                "SELECT level, COUNT(finished), COALESCE(SUM(won), 0), "
                "SUM(finished IS NULL) FROM games GROUP BY level").fetchall()
            hands = self.con.execute(
                "SELECT g.level, COUNT(*), AVG(h.points), "
                "SUM(h.by_person AND NOT h.nullo), SUM(h.by_person AND NOT h.nullo AND h.made), "
                "SUM(h.by_person AND h.nullo AND h.made), "
                "SUM(h.by_person AND h.nullo AND NOT h.made) "
                "FROM hands h JOIN games g ON g.id = h.game_id GROUP BY g.level").fetchall()
        out: dict[str, dict[str, Any]] = {}
        for level, played, won, unfinished in games:
            out[level] = {"played": played, "won": won, "unfinished": unfinished or 0,
                          "hands": 0, "bid": 0, "made": 0, "points_per_deal": None,
                          "nullo_made": 0, "nullo_failed": 0}
        for level, count, points, bid, made, n_made, n_failed in hands:
            out.setdefault(level, {"played": 0, "won": 0, "unfinished": 0})
            out[level].update(hands=count, points_per_deal=round(points, 1),
                              bid=bid or 0, made=made or 0, nullo_made=n_made or 0,
                              nullo_failed=n_failed or 0)
        return out
