"""fh-play --web's start screen and statistics (play/web/ladder.py, play/web/stats.py): the
difficulty ladder, a new game from every preset, the statistics per level written per hand in
SQLite (surviving a restart and a kill -9), and a corrupt or foreign file refused unchanged."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")  # Starlette's TestClient (the test extra)
from starlette.testclient import TestClient  # noqa: E402

from fh_env.rules import PRESETS  # noqa: E402
from play import cli  # noqa: E402
from play.web import ladder  # noqa: E402
from play.web.server import Host, create_app  # noqa: E402
from play.web.stats import APPLICATION_ID, Stats, StatsError  # noqa: E402
from web_helpers import SIX_NT, fixed_game  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ROOT = Path(__file__).resolve().parent.parent


def client_of(host: Host) -> TestClient:
    app = create_app(host=host)
    c = TestClient(app, base_url="http://127.0.0.1")
    c.headers["X-FH-Token"] = host.token
    return c


def test_the_ladder_is_four_levels_or_more_of_the_leaderboard_up_to_the_search():
    assert len(ladder.LEVELS) >= 4
    assert [lv.spec for lv in ladder.LEVELS[-2:]] == ["neural:best", "search"]
    ratings = [lv.rating for lv in ladder.LEVELS]
    assert ratings == sorted(ratings)
    docs = (ROOT / "docs" / "play.md").read_text()
    for lv in ladder.LEVELS:  # each named in the docs with its bot and rating
        assert f"`{lv.spec}`" in docs and f"{lv.rating:+d}" in docs.replace("−", "-")


def test_a_new_game_from_every_preset(tmp_path):
    host = Host(None, save_dir=tmp_path)
    c = client_of(host)
    assert c.get("/api/state").status_code == 404  # the page opens on the start screen
    setup = c.get("/api/setup").json()
    assert [p["name"] for p in setup["presets"]] == list(PRESETS)
    for preset in PRESETS:
        r = c.post("/api/new", json={"preset": preset, "level": "beginner", "target": 300})
        assert r.status_code == 200, r.text
        data = r.json()
        assert data["table_size"] == PRESETS[preset].get("players", 4)
        assert host.game.rules.target == 300
        assert all(s["player"] == "random" for s in data["seats"] if not s["you"])
        old = c.headers["X-FH-Token"]
        assert data["token"] != old and data["token"] == host.token
        assert c.post("/api/next").status_code == 403  # the old game's token: refused
        c.headers["X-FH-Token"] = data["token"]
    assert c.post("/api/new", json={"preset": "nope"}).status_code == 400
    assert c.post("/api/new", json={"level": "godlike"}).status_code == 400
    assert c.post("/api/new", json={"target": 10}).status_code == 400
    r = c.post("/api/new", json={"rules_toml": 'preset = "american"\ntarget = 250\n',
                                 "level": "easy", "partner": "beginner"})
    assert r.status_code == 200 and host.game.rules.min_bid_level == 7
    assert host.game.rules.target == 250
    players = {s["player"] for s in r.json()["seats"] if not s["you"]}
    assert players == {"rule", "random"}
    c.headers["X-FH-Token"] = host.token
    assert c.post("/api/new", json={"rules_toml": "players = 5"}).status_code == 400


def test_the_strongest_level_falls_back_where_no_network_plays():
    custom = ladder.rules_from({"rules_toml": 'preset = "american"\ntarget = 250\n'})
    spec, note = ladder.build_level("strongest", custom)  # no network was trained for it
    assert spec == "mcfast" and "neural:best" in note and "Strongest plays mcfast" in note
    spec, note = ladder.build_level("strongest", ladder.rules_from({"preset": "six-handed"}))
    assert spec == "neural:best-six-handed" and note == ""
    spec, note = ladder.build_level("strongest", ladder.rules_from({"preset": "three-handed"}))
    assert spec == "neural:best-three-handed" and note == ""
    spec, note = ladder.build_level("strongest", ladder.rules_from({}))
    assert spec == "neural:best" and note == ""
    spec, _ = ladder.build_level("hard", ladder.rules_from({"preset": "australian"}))
    assert spec == "nmc:best-australian"


def test_the_master_level_is_the_search_and_falls_back_to_the_network_elsewhere():
    """The search was measured under the default rules only: under another preset Master
    plays that preset's network, and says so."""
    assert ladder.build_level("master", ladder.rules_from({})) == ("search", "")
    spec, note = ladder.build_level("master", ladder.rules_from({"preset": "australian"}))
    assert spec == "neural:best-australian" and note.startswith(
        "Master plays neural:best-australian here: search:")


def play_hand_by_claim(c: TestClient) -> dict:
    """The fixed deal: 6NT by the person, the discards, then a claim once it stands."""
    c.post("/api/act", json={"action": SIX_NT}).raise_for_status()
    data = c.get("/api/state").json()
    while data["phase"] != "hand_over":
        if not data["your_turn"]:
            data = c.post("/api/advance").json()
        elif data["phase"] == "exchange":
            data = c.post("/api/discard", json={"cards": ["4H", "5S", "JS"]}).json()
        else:
            claim = c.post("/api/claim").json()
            data = claim if claim["stands"] else c.post(
                "/api/act", json={"card": next(iter(data["legal"]["cards"]))}).json()
    return data


def test_statistics_per_level_survive_a_restart(tmp_path):
    path = tmp_path / "s" / "stats.sqlite3"
    stats = Stats(path)
    game = fixed_game()
    host = Host(game, ladder.Setup("hard", "easy", game.rules, []), stats=stats)
    c = client_of(host)
    data = play_hand_by_claim(c)
    result = game.state.result
    assert result.made and result.declarer == 2
    c.get("/api/state")  # reading again records nothing twice
    expected = {"played": 0, "won": 0, "unfinished": 1, "hands": 1, "bid": 1, "made": 1,
                "points_per_deal": float(result.hand_points[0]), "nullo_made": 0,
                "nullo_failed": 0}
    assert stats.summary() == {"hard": expected}
    assert c.get("/api/setup").json()["stats"] == {"hard": expected}
    stats.close()
    again = Stats(path)  # a restart
    assert again.summary() == {"hard": expected}
    assert again.con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    gid = again.start_game("hard", None, "australian-no-nullo", 4, 1)
    again.finish_game(gid, True)
    assert again.summary()["hard"]["played"] == 1 and again.summary()["hard"]["won"] == 1
    assert data["phase"] == "hand_over"


KILLED = """
import os, signal, sys
from play.web.stats import Stats
s = Stats(sys.argv[1])
g = s.start_game("easy", None, "australian-no-nullo", 4, 7)
s.hand(g, 1, "7H", False, True, True, 270)
s.hand(g, 2, "nullo", True, True, False, -250)
s.con.execute("BEGIN IMMEDIATE")           # a hand being written when the kill comes
s.con.execute("INSERT INTO hands VALUES (?, 3, '8S', 0, 1, 1, 280)", (g,))
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_kill_9_mid_game_keeps_every_finished_hand(tmp_path):
    path = tmp_path / "stats.sqlite3"
    proc = subprocess.run([sys.executable, "-c", KILLED, str(path)], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    stats = Stats(path)
    assert stats.con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    easy = stats.summary()["easy"]
    assert (easy["hands"], easy["bid"], easy["made"]) == (2, 1, 1)
    assert (easy["nullo_made"], easy["nullo_failed"], easy["unfinished"]) == (0, 1, 1)
    assert easy["points_per_deal"] == 10.0


def test_a_corrupt_or_foreign_file_is_refused_and_left_alone(tmp_path, capsys):
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database at all\n" * 100)
    before = junk.read_bytes()
    with pytest.raises(StatsError, match="is not an SQLite database"):
        Stats(junk)
    assert junk.read_bytes() == before
    foreign = tmp_path / "foreign.sqlite3"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE photos (id INTEGER)")
    con.commit()
    con.close()
    before = foreign.read_bytes()
    with pytest.raises(StatsError, match="another program's SQLite database"):
        Stats(foreign)
    assert foreign.read_bytes() == before
    ours = tmp_path / "later.sqlite3"
    Stats(ours).close()
    con = sqlite3.connect(ours)
    con.execute("PRAGMA user_version = 99")
    con.close()
    with pytest.raises(StatsError, match="schema version 99"):
        Stats(ours)
    assert cli.main(["--web", "--no-browser", "--stats", str(junk)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fh-play: statistics file") and str(junk) in err
    assert junk.read_bytes() == before or junk.read_bytes()[:4] == b"this"
    assert sqlite3.connect(ours).execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_the_default_file_is_under_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    import play.web.server as server

    apps = []
    monkeypatch.setattr(server, "serve", lambda app, *a, **k: apps.append(app))
    assert cli.main(["--web", "--no-browser"]) == 0
    assert (tmp_path / "fivehundred-rl" / "stats.sqlite3").exists()
    assert apps[0].state.host.game is None  # no bots named: the start screen first
    assert os.environ["XDG_DATA_HOME"] == str(tmp_path)
