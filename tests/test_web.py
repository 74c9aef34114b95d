"""fh-play --web, server side (play/web): the request handlers through Starlette's TestClient,
on the fixed deal of tests/web_helpers.py and on random games with real bots."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from agents.registry import make_bot  # noqa: E402
from fh_env.cards import card_name, cards_of  # noqa: E402
from fh_env.engine import Phase  # noqa: E402
from fh_env.records import load_record, replay_states  # noqa: E402
from fh_env.rules import Rules  # noqa: E402
from fh_env.view import seat_view  # noqa: E402
from play import cli  # noqa: E402
from play.aids import Helper  # noqa: E402
from play.web.server import create_app  # noqa: E402
from play.web.session import WebGame  # noqa: E402
from web_helpers import SIX_NT, fixed_game  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def client(game: WebGame) -> TestClient:
    return TestClient(create_app(game))


def strings(value: Any) -> set[str]:
    """Every string in a JSON value (keys too)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | {s for v in value.values() for s in strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in strings(v)}
    return set()


def hidden_cards(game: WebGame) -> set[str]:
    """The names of the cards the person may not see now: the other hands, the kitty."""
    state, me = game.state, game.person
    view = seat_view(state, me)
    mask = view.unseen & ~view.exposed
    return {card_name(c, state.rules.jokers) for c in cards_of(mask)}


def play_to_exchange(c: TestClient) -> dict:
    c.post("/api/act", json={"action": SIX_NT}).raise_for_status()
    data = c.get("/api/state").json()
    while not data["your_turn"]:
        data = c.post("/api/advance").json()
    return data


def test_the_page_and_its_assets_come_from_the_repository():
    c = client(fixed_game())
    page = c.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    for asset in ("app.js", "cards.js", "style.css", "replay.js"):
        text = c.get(f"/static/{asset}").text
        assert "http://" not in text and "https://" not in text  # nothing from outside
    assert "http" not in page.text.replace("http-equiv", "")


def test_a_hand_through_the_handlers(tmp_path):
    game = fixed_game(save=tmp_path / "g.json")
    c = client(game)
    state = c.get("/api/state").json()
    assert state["phase"] == "auction" and state["your_turn"]
    assert [g["suit"] for g in state["hand"]] == ["S", "C", "D", "H", "J"]
    data = play_to_exchange(c)
    assert data["phase"] == "exchange" and data["kitty"] == ["5S", "JS", "4H"]
    r = c.post("/api/discard", json={"cards": ["4H", "5S"]})
    assert r.status_code == 409 and "exactly 3" in r.json()["error"]
    r = c.post("/api/discard", json={"cards": ["4H", "5S", "7S"]})
    assert r.status_code == 409 and "you do not hold 7♠" in r.json()["error"]
    data = c.post("/api/discard", json={"cards": ["4H", "5S", "JS"]}).json()
    assert data["phase"] == "play" and data["legal"]["cards"]["JK"] == ["S", "C", "D", "H"]
    # The joker named a suit: its lead, then the bots at their pace.
    data = c.post("/api/act", json={"card": "JK", "suit": "H"}).json()
    assert data["trick"] == [{"seat": 2, "card": "JK"}] and data["led"] == "H"
    r = c.post("/api/act", json={"card": "AS"})
    assert r.status_code == 409 and "West's turn" in r.json()["error"]
    while not data["your_turn"]:
        data = c.post("/api/advance").json()
    refused = c.post("/api/claim").json()
    assert refused["stands"] is False and game.state.phase == Phase.PLAY
    c.post("/api/act", json={"card": "5H"})
    data = c.get("/api/state").json()
    while not data["your_turn"]:
        data = c.post("/api/advance").json()
    r = c.post("/api/act", json={"card": "AS"})
    assert r.status_code == 409
    assert r.json()["error"].startswith("Not allowed: you must follow diamonds")
    c.post("/api/act", json={"card": "KD"})
    data = c.get("/api/state").json()
    stood = c.post("/api/claim").json()
    assert stood["stands"] and stood["phase"] == "hand_over" and stood["result"]
    assert replay_states(load_record(tmp_path / "g.json"))[-1] == game.state
    # A reload asks for the state again: the same game.
    again = c.get("/api/state").json()
    assert again["phase"] == "hand_over" and again["reveal"]["kitty"]
    assert "6NT: N/S took 9 tricks and made it" in c.get("/api/replay/game").json()["frames"][-1]["result"]
    assert c.post("/api/next").json()["hand_no"] == 2


@pytest.mark.parametrize("body, status", [
    ("not json", 400), ("[1, 2]", 400), ('{"action": "7H"}', 400), ('{"action": 999}', 409),
    ('{"action": true}', 400), ('{"card": "ZZ"}', 400), ('{"card": "JK", "suit": "X"}', 400),
    ("{}", 400),
])
def test_bad_requests_get_a_4xx_with_a_reason(body, status):
    c = client(fixed_game())
    r = c.post("/api/act", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == status and r.json()["error"]


def test_other_bad_requests():
    c = client(fixed_game())
    assert c.post("/api/discard", json={"cards": "4H"}).status_code == 400
    assert c.post("/api/aids", json={"name": "x", "on": True}).status_code == 400
    assert c.get("/api/state?since=x").status_code == 400
    assert c.post("/api/next").status_code == 409
    assert c.post("/api/claim").status_code == 409  # not during the auction
    assert c.get("/api/aid/nothing").status_code == 404
    assert c.post("/api/replay", json={"format": "nope"}).status_code == 422
    assert c.get("/api/replay/file").status_code == 404


def test_the_aids_give_the_numbers_of_the_functions_they_call():
    game = fixed_game()
    c = client(game)
    helper = Helper(game.rules, hint_bot="rule", samples=3, seed=11)
    view = seat_view(game.state, 2)
    analysis = c.post("/api/aid/analyse", json={"bid": SIX_NT}).json()
    expected = helper.analyse(game.state, view, SIX_NT)
    assert (analysis["made"], analysis["points"], analysis["net"]) == \
        (expected.made, expected.points, expected.net)
    assert c.post("/api/aid/analyse", json={"bid": 0}).status_code == 409
    est = c.get("/api/aid/estimate").json()
    assert [(r["action"], r["mean"]) for r in est["rows"]] == \
        [(e.action, e.mean) for e in helper.estimates(game.state, view)]
    assert c.get("/api/aid/hint").json()["action"] == helper.hint(game.state, view)
    c.post("/api/aids", json={"name": "hint", "on": False})
    assert c.get("/api/aid/hint").status_code == 409


def test_no_hidden_card_leaks_before_the_hand_is_over():
    """Random games with real bots: every response before the hand ends is free of the names
    of the cards the person may not see."""
    for seed in range(3):
        rules = Rules.preset("australian")
        bots = {s: make_bot("random") for s in (0, 1, 3)}
        helper = Helper(rules, hint_bot="random", samples=2, seed=seed)
        game = WebGame(rules, 2, bots, seed=seed, aids=["hint", "counter", "estimate"],
                       helper=helper)
        c = client(game)
        rng = random.Random(seed)
        def check(data: Any) -> None:
            """A response against what the person may not see now (after the request)."""
            if not game.state.is_terminal:
                leaked = strings(data) & hidden_cards(game)
                assert not leaked, (seed, leaked, json.dumps(data)[:300])

        for _ in range(200):
            if game.state.is_terminal:
                break
            for url in ("/api/state", "/api/aid/counter", "/api/record"):
                check(c.get(url).json())
            if game.state.turn == 2:
                check(c.get("/api/aid/hint").json())
                check(c.get("/api/aid/estimate").json())
                legal = game.state.legal_actions()
                if game.state.phase == Phase.EXCHANGE:
                    cards = [card_name(x - 30, 1) for x in
                             rng.sample(legal, game.state.discards_left)]
                    check(c.post("/api/discard", json={"cards": cards}).json())
                else:
                    check(c.post("/api/act", json={"action": rng.choice(legal)}).json())
            else:
                check(c.post("/api/advance").json())
        assert game.state.is_terminal


def test_missing_web_extra_is_one_line_and_status_2(monkeypatch, capsys):
    import play.web

    monkeypatch.setattr(play.web, "missing_extra", lambda: "--web needs the web extra")
    assert cli.main(["--web", "--seed", "1", "--opponents", "random", "--partner",
                     "random", "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "fh-play: --web needs the web extra"


def test_fh_replay_web_serves_a_record_file(tmp_path):
    game = fixed_game(save=tmp_path / "g.json")
    c = client(game)
    play_to_exchange(c)
    c.post("/api/discard", json={"cards": ["4H", "5S", "JS"]})
    c.post("/api/act", json={"card": "JK", "suit": "H"})
    while not game.state.is_terminal:  # the bots and the person's first legal cards
        if game.state.turn == 2:
            c.post("/api/act", json={"action": game.state.legal_actions()[0]})
        else:
            c.post("/api/advance")
    replay_only = TestClient(create_app(None, replay_record=load_record(tmp_path / "g.json")))
    assert "replay.js" in replay_only.get("/").text
    frames = replay_only.get("/api/replay/file").json()["frames"]
    assert frames[0]["text"] == "Hand 1: East deals." and frames[-1]["result"]
    assert replay_only.get("/api/state").status_code == 404


def test_three_and_six_players_are_refused_by_the_browser_in_one_line(tmp_path, capsys):
    from fh_env.engine import State
    from fh_env.records import Recorder

    for preset in ("three-handed", "six-handed"):
        rules = Rules.preset(preset)
        assert cli.main(["--rules", preset, "--web", "--no-browser", "--opponents",
                         "random"]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("fh-play: the browser draws four players only") and "\n" not in err
        with pytest.raises(ValueError, match="four players only"):
            WebGame(rules, 2, {s: make_bot("random") for s in range(rules.players) if s != 2})
        state = State(rules, seed=1)
        recorder = Recorder(state)
        rng = random.Random(1)
        while not state.is_terminal:
            recorder.apply(rng.choice(state.legal_actions()))
        save = recorder.save(tmp_path / f"{preset}.json")
        assert cli.replay_main([str(save), "--web", "--no-browser"]) == 2
        assert "the browser replays four players only" in capsys.readouterr().err
        r = client(fixed_game()).post("/api/replay", json=recorder.record())
        assert r.status_code == 422 and "four players only" in r.json()["error"]
