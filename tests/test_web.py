"""fh-play --web, server side (play/web): the request handlers through Starlette's TestClient,
on the fixed deal of tests/web_helpers.py and on random games with real bots."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")  # Starlette's TestClient (the test extra)
from starlette.testclient import TestClient  # noqa: E402

from agents.registry import make_bot  # noqa: E402
from fh_env import actions as A  # noqa: E402
from fh_env.cards import card_name, cards_of, parse_card  # noqa: E402
from fh_env.engine import Phase, side_of, sitting_out_seats, trick_order  # noqa: E402
from fh_env.records import load_record, replay, replay_states  # noqa: E402
from fh_env.rules import Rules  # noqa: E402
from fh_env.view import seat_view  # noqa: E402
from play import cli  # noqa: E402
from play.aids import Helper  # noqa: E402
from play.render import DEFAULT_SEAT, SEATS, decode, side_names  # noqa: E402
from play.web.server import create_app  # noqa: E402
from play.web.session import WebGame  # noqa: E402
from web_helpers import SIX_NT, fixed_game, small_table_game  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    """fh-play --web keeps its statistics under the user's data folder: a temporary one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def tc(app) -> TestClient:
    """A client of the app as the page is one: a loopback Host and the game's token."""
    return TestClient(app, base_url="http://127.0.0.1",
                      headers={"X-FH-Token": app.state.host.token})


def client(game: WebGame) -> TestClient:
    return tc(create_app(game))


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
    # The hint is the best action of the same evaluation: the two aids agree.
    hint = c.get("/api/aid/hint").json()
    assert hint["action"] == est["rows"][0]["action"] and hint["mean"] == est["rows"][0]["mean"]
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
    replay_only = tc(create_app(None, replay_record=load_record(tmp_path / "g.json")))
    assert "replay.js" in replay_only.get("/").text
    frames = replay_only.get("/api/replay/file").json()["frames"]
    assert frames[0]["text"] == "Hand 1: East deals." and frames[-1]["result"]
    assert replay_only.get("/api/state").status_code == 404


# ---------------------------------------------------------------------- three and six players


def check_table(game: WebGame, data: dict) -> None:
    """A snapshot of a 3- or 6-player game against the state: the seats and sides, the trick
    (only the seats that play, in playing order), the person's legal cards, and no hidden card."""
    state, n = game.state, game.players
    assert data["table_size"] == n and len(data["seats"]) == n == len(data["hand_sizes"])
    assert data["seat_names"] == list(SEATS[n]) and data["teams"] == list(side_names(n))
    assert len(data["scores"]) == len(data["tricks_won"]) == state.rules.sides
    assert data["scores"] == list(state.scores) and data["kitty_size"] == 3
    assert sum(data["tricks_won"]) == data["tricks_played"] == len(state.tricks)
    out = set(data["sitting_out_seats"])
    assert out == set(sitting_out_seats(n, state.sitting_out))
    assert len(data["trick"]) < n - len(out) or not data["trick"]
    assert [t["seat"] for t in data["trick"]] == \
        list(trick_order(state.leader, state.sitting_out, n))[:len(data["trick"])]
    if data["last_trick"]:
        assert len(data["last_trick"]["cards"]) == n - len(out)
        assert not {t["seat"] for t in data["last_trick"]["cards"]} & out
    if data["your_turn"] and state.phase != Phase.AUCTION:
        names = {decode(a, n)[1] for a in state.legal_actions()}
        assert set(data["legal"]["cards"]) == {card_name(c, 1) for c in names}
    if not state.is_terminal:
        leaked = strings(data) & hidden_cards(game)
        assert not leaked, leaked


def person_request(game: WebGame, bot, rng: random.Random) -> tuple[str, dict]:
    """The person's move (the bot's choice; a random discard) as the page sends it."""
    state, n = game.state, game.players
    if state.phase == Phase.EXCHANGE:
        view = seat_view(state, game.person)
        cards = [card_name(c, 1) for c in cards_of(view.hand)]
        return "/api/discard", {"cards": rng.sample(cards, state.discards_left)}
    action = bot.act(seat_view(state, game.person), rng)
    kind, c, named = decode(action, n)
    if kind == "call":
        return "/api/act", {"action": action}
    body = {"card": card_name(c, 1)}
    if named >= 0:
        body["suit"] = "SCDH"[named]
    return "/api/act", body


@pytest.mark.parametrize("preset, person", [("three-handed", 2), ("six-handed", 3),
                                            ("six-handed", 0)])
def test_three_and_six_handed_games_to_the_end_through_the_api(tmp_path, preset, person):
    """A whole game to the end: the person's seat acts with legal moves through the API, rule
    bots on the others; every snapshot draws the table size's seats, sides and tricks, and the
    saved record replays to the game's last state, on the replay page too."""
    rules = Rules.preset(preset)
    n = rules.players
    bots = {s: make_bot("rule", rules) for s in range(n) if s != person}
    game = WebGame(rules, person, bots, seed=3, save=tmp_path / "g.json", pace_ms=0)
    c = client(game)
    me, rng = make_bot("rule", rules), random.Random(7)
    data = c.get("/api/state").json()
    assert [s["you"] for s in data["seats"]] == [s == person for s in range(n)]
    assert data["your_side"] == side_of(n, person)
    seen_phases, contracts = set(), 0
    while not data["game_over"]:
        assert game.hand_no < 60
        check_table(game, data)
        seen_phases.add(data["phase"])
        if data["phase"] == "hand_over":
            assert data["result"]
            contracts += game.state.result.contract is not None
            data = c.post("/api/next").json()
        elif data["your_turn"]:
            url, body = person_request(game, me, rng)
            r = c.post(url, json=body)
            assert r.status_code == 200, (body, r.json())
            data = r.json()
        else:
            data = c.post("/api/advance").json()
    check_table(game, data)
    assert seen_phases == {"auction", "exchange", "play", "hand_over"} and contracts
    assert data["winner"] and data["winner"].startswith("Game over")
    if n == 3:
        assert " wins with " in data["winner"]
    record = load_record(tmp_path / "g.json")
    assert record["players"] == [game.seats[s].name for s in range(n)]
    assert replay_states(record)[-1] == game.state
    replayed = c.get("/api/replay/game").json()
    assert replayed["table_size"] == n and replayed["seat_names"] == list(SEATS[n])
    assert replayed["bottom"] == DEFAULT_SEAT[n] and replayed["sides"] == list(side_names(n))
    frames = replayed["frames"]
    assert len(frames) == sum(len(h["actions"]) + 1 for h in record["hands"])
    assert frames[-1]["scores"] == list(game.state.scores) and frames[-1]["result"]
    assert all(len(f["hands"]) == n and len(f["tricks_won"]) == rules.sides for f in frames)


def six_handed_nullo(declarer: int, person: int) -> tuple[WebGame, TestClient]:
    game = small_table_game("six-handed", person, nullo=declarer)
    return game, client(game)


def test_six_handed_open_nullo_of_the_person_both_partners_sit_out():
    """South calls open nullo through the API: North-east and North-west sit out, the tricks
    have four cards, and the six-handed pack's cards are played by name."""
    game, c = six_handed_nullo(declarer=-1, person=3)
    data = c.get("/api/state").json()
    while not data["your_turn"]:
        data = c.post("/api/advance").json()
    calls = {x["label"]: x for x in data["legal"]["calls"]}
    assert calls["open nullo"]["legal"] and "double nullo" not in calls
    assert [x["label"] for x in data["legal"]["calls"] if x["action"] in range(1, 26)][-1] \
        == "10NT"
    data = c.post("/api/act", json={"action": A.OPEN_NULLO}).json()
    while not data["your_turn"]:
        data = c.post("/api/advance").json()
    assert data["phase"] == "exchange" and len(data["kitty"]) == 3
    assert data["contract_text"] == ("Contract open nullo by South (you); North-east and "
                                     "North-west sit out")
    assert sorted(data["sitting_out_seats"]) == [1, 5] and data["can_claim"] is False
    hand = [x for g in data["hand"] for x in g["cards"]]  # the kitty's cards among them
    data = c.post("/api/discard", json={"cards": hand[:3]}).json()
    assert data["phase"] == "play"
    six_pack_played = set()
    while data["phase"] == "play":
        check_table(game, data)
        assert data["can_claim"] == (data["phase"] == "play")
        if data["your_turn"]:
            name = sorted(data["legal"]["cards"])[0]
            data = c.post("/api/act", json={"card": name}).json()
            six_pack_played.add(name)
        else:
            data = c.post("/api/advance").json()
    check_table(game, data)
    assert all(len(t[1]) == 4 for t in game.state.tricks) and len(game.state.tricks) == 10
    assert data["phase"] in ("hand_over", "game_over") and "open nullo" in data["result"]
    assert game.state.tricks_won[1] == game.state.tricks_won[5] == 0
    assert six_pack_played == set(hand[3:])  # the hand and kitty but the discards, by name
    assert {x for x in six_pack_played if parse_card(x) >= 46} == {"12H", "13H"}
    assert data["last_trick"] and len(data["last_trick"]["cards"]) == 4
    frames = c.get("/api/replay/game").json()["frames"]
    assert any(sorted(f["sitting_out"]) == [1, 5] for f in frames)
    assert all(len(f["trick"]) <= 4 for f in frames if f["sitting_out"])


def test_six_handed_the_person_sits_out_a_partners_nullo():
    """North-east (the person's partner) declares open nullo: the person sits the hand out,
    is never on turn in the play and cannot claim; the bots play the hand to its end."""
    game, c = six_handed_nullo(declarer=1, person=3)
    data = c.get("/api/state").json()
    while data["phase"] == "auction":
        if data["your_turn"]:
            data = c.post("/api/act", json={"action": A.PASS}).json()
        else:
            data = c.post("/api/advance").json()
    assert data["declarer"] == 1 and sorted(data["sitting_out_seats"]) == [3, 5]
    while data["phase"] in ("exchange", "play"):
        check_table(game, data)
        assert not data["your_turn"] and not data["can_claim"]
        assert c.post("/api/claim").status_code == 409
        data = c.post("/api/advance").json()
    assert data["phase"] in ("hand_over", "game_over") and data["result"]
    assert game.state.tricks_won[3] == game.state.tricks_won[5] == 0
    assert all(len(t[1]) == 4 for t in game.state.tricks)


@pytest.mark.parametrize("preset, person", [("three-handed", 2), ("six-handed", 3)])
def test_the_aids_at_three_and_six_players(preset, person):
    """The aids' numbers at the person's first call and first play are those of the functions
    they call, at the table size; the counter names the table's seats."""
    rules = Rules.preset(preset)
    helper = Helper(rules, hint_bot="rule", samples=2, seed=3)
    game = small_table_game(preset, person, seed=2, helper=helper,
                            aids=("hint", "estimate", "counter", "analyse"))
    c = client(game)
    data = c.get("/api/state").json()
    checked = []  # the phases whose aids were checked
    while data["phase"] in ("auction", "exchange", "play") and "play" not in checked:
        if not data["your_turn"]:
            data = c.post("/api/advance").json()
            continue
        if data["phase"] == "exchange":
            data = c.post("/api/discard", json={"cards": list(data["legal"]["cards"])[:3]}).json()
            continue
        view = seat_view(game.state, person)
        est = c.get("/api/aid/estimate").json()
        assert [(r["action"], r["mean"]) for r in est["rows"]] == \
            [(e.action, e.mean) for e in helper.estimates(game.state, view)]
        # The hint is the best action of the same evaluation: the two aids agree.
        assert c.get("/api/aid/hint").json()["action"] == est["rows"][0]["action"]
        counter = c.get("/api/aid/counter").json()
        assert {name for r in counter["rows"] for name in r["void"]} <= set(SEATS[rules.players])
        checked.append(data["phase"])
        if data["phase"] == "auction":
            bid = A.bid_action(6, A.NT)
            got = c.post("/api/aid/analyse", json={"bid": bid}).json()
            assert got["points"] == helper.analyse(game.state, view, bid).points
            data = c.post("/api/act", json={"action": bid}).json()
        else:
            assert {r["card"] for r in est["rows"]} <= set(data["legal"]["cards"])
            data = c.post("/api/act", json={"action": est["rows"][0]["action"]}).json()
    assert checked[0] == "auction" and checked[-1] == "play"


def test_cards_of_the_six_handed_pack_are_refused_at_three_players():
    c = client(small_table_game("three-handed", 2, seed=1))
    data = c.get("/api/state").json()
    while not data["your_turn"]:
        data = c.post("/api/advance").json()
    r = c.post("/api/act", json={"card": "2S"})
    assert r.status_code == 400 and "six-handed pack only" in r.json()["error"]
    r = c.post("/api/act", json={"card": "7S"})  # a card, but a call is due
    assert r.status_code == 409 and r.json()["error"].startswith("Not allowed")


def random_record(preset: str, seed: int = 1) -> dict:
    from fh_env.engine import State
    from fh_env.records import Recorder

    state = State(Rules.preset(preset), seed=seed)
    recorder = Recorder(state)
    rng = random.Random(seed)
    for _ in range(2):
        while not state.is_terminal:
            recorder.apply(rng.choice(state.legal_actions()))
        if state.game_over:
            break
        recorder.next_hand()
        state = recorder.state
    return recorder.record() | {"hands": list(recorder.finished)}


@pytest.mark.parametrize("preset", ["three-handed", "six-handed"])
def test_replays_of_three_and_six_player_records(tmp_path, preset, monkeypatch):
    """A 3- or 6-player record on the replay page (POST /api/replay, and fh-replay --web's
    file): the table size's seats and sides, every step; fh-play --web serves the table size."""
    import play.web.server as server

    rules = Rules.preset(preset)
    n = rules.players
    record = random_record(preset)
    data = client(fixed_game()).post("/api/replay", json=record).json()
    assert data["table_size"] == n and data["seat_names"] == list(SEATS[n])
    assert data["sides"] == list(side_names(n)) and data["bottom"] == DEFAULT_SEAT[n]
    states = [step.state.clone() for step in replay(record)]
    frames = data["frames"]
    assert len(frames) == len(states)
    for f, state in zip(frames, states):
        assert len(f["hands"]) == n and f["scores"] == list(state.scores)
        assert f["tricks_won"] == list(state.team_tricks()) and len(f["tricks_by_seat"]) == n
        assert [t["seat"] for t in f["trick"]] == \
            list(trick_order(state.leader, state.sitting_out, n))[:len(f["trick"])]
        assert sorted(f["sitting_out"]) == sorted(sitting_out_seats(n, state.sitting_out))
        assert len(f["auction"]["columns"]) == n
    assert frames[0]["text"].startswith("Hand 1: ") and frames[-1]["result"]
    served = []
    monkeypatch.setattr(server, "serve", lambda app, *a, **k: served.append(app))
    save = tmp_path / f"{preset}.json"
    save.write_text(json.dumps(record))
    assert cli.replay_main([str(save), "--web", "--no-browser"]) == 0
    replay_only = tc(served.pop())
    assert replay_only.get("/api/replay/file").json()["frames"] == frames
    assert cli.main(["--rules", preset, "--web", "--no-browser", "--opponents", "random",
                     "--seed", "4", "--save", str(tmp_path / "web.json")]
                    + (["--partner", "random"] if n == 6 else [])) == 0
    state = tc(served.pop()).get("/api/state").json()
    assert state["table_size"] == n and state["seat"] == DEFAULT_SEAT[n]
    assert [s["player"] for s in state["seats"]].count("random") == n - 1
