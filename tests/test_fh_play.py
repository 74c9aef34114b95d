"""fh-play and fh-replay (play.cli, play.game) as a person drives them: typed entries, a transcript.

The game loop takes its input from a scripted stream and writes to a rich console recording
plain text; one test runs the real command in a pseudo-terminal.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Sequence

import pexpect
import pytest
from rich.console import Console

from conftest import deal
from fh_env import actions as A
from fh_env.cards import TABLES, cards_of, mask_of, parse_card
from fh_env.engine import Phase, State
from fh_env.records import load_record, replay_states
from fh_env.rules import Rules
from play import cli
from play.entries import Command, EntryError, NeedSuit, parse_entry
from play.explain import explain_illegal
from play.game import Game
from play.render import SEAT_NAMES, card_label, suit_groups
from play.terminal import Terminal, scripted


ROOT = Path(__file__).resolve().parent.parent


class ScriptBot:
    """Plays the named actions in order, then passes in the auction and plays its first
    legal action."""

    def __init__(self, *names: str) -> None:
        self.name = "script"
        self.script = [A.str_to_action(n) for n in names]

    def act(self, view, rng: random.Random) -> int:
        if self.script:
            return self.script.pop(0)
        legal = view.legal_actions()
        return A.PASS if legal[0] == A.PASS else legal[0]


def run_game(state: State, person: int, lines: Sequence[str], bots=None, **kwargs):
    """Play ``state`` with the person at ``person`` typing ``lines``: (game, transcript)."""
    console = Console(width=110, color_system=None, highlight=False, record=True,
                      file=open("/dev/null", "w"))
    term = Terminal(console, scripted(console, lines))
    bots = bots or {s: ScriptBot() for s in range(4) if s != person}
    game = Game(state.rules, person, bots, term, state=state, hands=1, **kwargs)
    game.run()
    return game, console.export_text()


def from_deal(rules: Rules, hands, kitty: str, dealer: int) -> State:
    h, k = deal(rules, hands, kitty)
    return State.from_deal(rules, h, k, dealer=dealer)


def test_bid_discard_lead_the_joker_and_finish_the_hand(tmp_path):
    rules = Rules()
    # South (the person, seat 2) calls first and bids 6NT with the joker.
    state = from_deal(rules, {2: "JK AS KS QS AC KC QC AD KD QD"}, "4H 5H 6H", dealer=1)
    lines = ["6NT",           # bid
             "4H 5H", "6H",   # discard two at once, then the third
             "JK", "X", "H"]  # lead the joker: asked for its suit, a bad answer, then hearts
    lines += ["1"] * 9        # then the first card of the menu each trick
    save = tmp_path / "game.json"
    game, out = run_game(state, 2, lines, save=save)
    assert "Your call> 6NT" in out and "South (you) calls 6NT" in out
    assert "Discard 3 cards> 4H 5H" in out and "Discard 1 card> 6H" in out
    assert "South (you) discards 4♥" in out and "South (you) discards 6♥" in out
    assert "The JK names which suit?" in out and "'X' is not a suit" in out
    assert "South (you) plays JK (names ♥)" in out
    assert game.state.phase == Phase.HAND_OVER and len(game.state.tricks) == 10
    assert "South (you)'s 6NT: N/S took" in out and "Points N/S" in out
    # The record replays to the same hand.
    record = load_record(save)
    assert record["hands"][0]["actions"][4:8] == ["discard 4H", "discard 5H", "discard 6H",
                                                  "play JK H"]
    assert replay_states(record)[-1] == game.state


def test_an_illegal_entry_is_refused_with_the_reason():
    rules = Rules()
    # West declares 7H and leads AH; South's only "heart" is the left bower JD.
    state = from_deal(rules, {3: "AH KH QH 10H 9H 8H 7H 6H 5H 4H",
                              2: "JD AS KS QS AC KC QC AD KD QD"}, "5S 6S 7S", dealer=2)
    bots = {3: ScriptBot("7H", "discard 5S", "discard 6S", "discard 7S", "play AH"),
            0: ScriptBot(), 1: ScriptBot()}
    lines = ["7S", "pass", "AS", "JD"] + ["1"] * 9
    game, out = run_game(state, 2, lines, bots=bots)
    flat = " ".join(out.split())  # long reasons wrap in the transcript
    assert ("Not allowed: 7♠ does not outrank the bids made so far (the high bid is 7♥); "
            "legal calls: pass, 7NT, 8♠, 8♣," in flat)
    assert "Not allowed: you must follow hearts: you hold J♦; J♦ is a heart this hand." in flat
    assert "South (you) plays J♦" in out
    assert game.state.phase == Phase.HAND_OVER


def test_the_table_shows_the_hand_sorted_by_suit_with_trumps_last():
    rules = Rules()
    state = from_deal(rules, {3: "AH KH QH 10H 9H 8H 7H 6H 5H 4H",
                              2: "JD AS KS QS AC KC QC AD KD QD"}, "5S 6S 7S", dealer=2)
    bots = {3: ScriptBot("7H", "discard 5S", "discard 6S", "discard 7S", "play AH"),
            0: ScriptBot(), 1: ScriptBot()}
    _, out = run_game(state, 2, ["pass", "q"], bots=bots)
    # In the auction the cards sort by printed suit; in the play J♦ joins the trumps.
    assert "A♠ K♠ Q♠   A♣ K♣ Q♣   A♦ K♦ Q♦ J♦" in out
    assert "A♠ K♠ Q♠   A♣ K♣ Q♣   A♦ K♦ Q♦   J♦ (trumps)" in out
    assert "Trick 1      West A♥" in out
    assert "Goodbye." in out


def test_help_aid_toggle_unknown_entries_and_menu_numbers():
    rules = Rules()
    state = from_deal(rules, {2: "JK AS KS QS AC KC QC AD KD QD"}, "4H 5H 6H", dealer=1)
    lines = ["help", "", "blah", "99", "aid counter on", "aid", "hint", "1", "q"]
    _, out = run_game(state, 2, lines)
    assert "Commands: hint" in out
    assert "type a call or card" in out
    assert "'blah' is not a call" in out
    assert "choose a number from 1 to" in out
    assert "Aids: hint off, estimate off, counter on" in out
    assert "The hint aid is off; turn it on with 'aid hint on'." in out
    assert "South (you) passes" in out  # menu entry 1 in the auction is pass


# ---------------------------------------------------------------------- parsing and reasons


def _state(rules=None, hands=None, kitty=None, dealer=3, calls=()):
    rules = rules or Rules()
    s = from_deal(rules, hands or {}, kitty, dealer)
    for name in calls:
        s.apply(A.str_to_action(name))
    return s


def test_parse_entry():
    s = _state(hands={0: "JK AS KS QS AC KC QC AD KD QD"}, kitty="4H 5H 6H")
    assert parse_entry("7h", s) == [A.str_to_action("7H")]
    assert parse_entry("7♥", s) == [A.str_to_action("7H")]
    assert parse_entry("p", s) == [A.PASS]
    assert parse_entry("open nullo", s) == [A.OPEN_NULLO]
    assert parse_entry("hint", s) == Command("hint")
    assert parse_entry("a 7H", s) == Command("analyse", "7H")
    with pytest.raises(EntryError, match="'7Z' is not a call"):
        parse_entry("7Z", s)
    for name in ("6NT", "pass", "pass", "pass"):
        s.apply(A.str_to_action(name))
    assert parse_entry("discard 4h 5h", s) == [A.DISCARD_BASE + 33, A.DISCARD_BASE + 34]
    for _ in range(3):
        s.apply(A.DISCARD_BASE + next(iter(cards_of(s.hands[0] & (0b111 << 33)))))
    assert parse_entry("JK", s) == NeedSuit(44)
    assert parse_entry("jk h", s) == parse_entry("JK:♥", s) == [A.joker_lead_action(44, 3)]
    assert parse_entry("AS", s) == parse_entry("play as", s) == [A.PLAY_BASE + 10]
    assert parse_entry("AC", s) == [A.PLAY_BASE + 21]  # "a"-prefixed cards are not commands
    with pytest.raises(EntryError, match="only a joker names a suit"):
        parse_entry("AS H", s)


def _legal_part(reason: str) -> list[str]:
    """The legal actions a reason lists (after ``legal calls:`` or ``legal actions:``)."""
    assert "legal " in reason
    return reason.split(": ")[-1].split(", ")


def test_reasons_in_the_auction():
    r = Rules.preset("australian")  # nullo after7 (fixed ranking), open nullo anytime
    s = _state(r, calls=["7H"])
    why = explain_illegal(s, A.str_to_action("7S"))
    assert why.startswith("7♠ does not outrank the bids made so far (the high bid is 7♥); "
                          "legal calls: pass, 7NT, 8♠")
    assert "7♠" not in _legal_part(why) and "7♥" not in _legal_part(why)
    s = _state(r, calls=["8S"])
    why = explain_illegal(s, A.NULLO)
    assert why.startswith("nullo does not outrank the bids made so far (the high bid is 8♠)")
    assert "nullo" not in _legal_part(why) and "open nullo" in _legal_part(why)
    # Anything else: the engine's own message, which names the action and the legal ones.
    s = _state(r)
    why = explain_illegal(s, A.NULLO)
    assert why == s.illegal_message(A.NULLO)
    assert "(nullo)" in why and "AUCTION" in why
    assert "nullo" not in _legal_part(why) and "open nullo" in _legal_part(why)
    s = _state(Rules.preset("american"), calls=["7H", "pass"])  # inkle: first two callers only
    assert explain_illegal(s, A.str_to_action("6NT")).startswith("6NT does not outrank")
    s = _state(Rules.preset("american"), calls=["pass", "pass"])
    assert explain_illegal(_state(Rules.preset("american")), A.str_to_action("6NT")) == \
        "6NT is legal"
    why = explain_illegal(s, A.str_to_action("6NT"))
    assert "(6NT)" in why and _legal_part(why)[:2] == ["pass", "7S"]
    for rules, action in ((Rules(), A.NULLO), (Rules(), A.MISDEAL)):
        s = _state(rules)
        why = explain_illegal(s, action)
        assert f"({A.action_to_str(action)})" in why and _legal_part(why)[-1] == "10NT"
    s = _state(Rules(stick_the_dealer=True), calls=["pass", "pass", "pass"])
    why = explain_illegal(s, A.PASS)
    assert "(pass)" in why and "pass" not in _legal_part(why) and "6S" in _legal_part(why)
    s = _state(Rules(six_nt_shows_joker=True), hands={0: "AS KS QS AC KC QC AD KD QD JD"})
    why = explain_illegal(s, A.str_to_action("6NT"))
    assert "(6NT)" in why and "6NT" not in _legal_part(why) and "7NT" in _legal_part(why)
    assert "this is the auction" in explain_illegal(s, A.PLAY_BASE)


def _to_play(rules, hands, kitty, contract, plays=()):
    """Seat 0 declares ``contract`` (dealer 3) and discards the kitty; then ``plays``, each
    ``play X`` by the seat on turn or ``*`` for its first legal card."""
    s = _state(rules, hands, kitty, calls=[contract, "pass", "pass", "pass"])
    for c in cards_of(s.exchanges[0][1]):
        s.apply(A.DISCARD_BASE + c)
    for name in plays:
        s.apply(s.legal_actions()[0] if name == "*" else A.str_to_action(name))
    return s


def test_reasons_in_the_play():
    hands = {0: "AH KH QH 10H 9H AS AC AD KS KC", 1: "JD 5D 6D 7D 5S 6S 7S 5C 6C 7C"}
    s = _to_play(Rules(), hands, "4D QD KD", "6H", ["play AH"])
    assert explain_illegal(s, A.str_to_action("play 5S")) == \
        "you must follow hearts: you hold J♦; J♦ is a heart this hand"
    assert explain_illegal(s, A.str_to_action("play AD")) == "you do not hold A♦"
    assert "this is the play" in explain_illegal(s, A.PASS)
    # Diamonds led: the left bower does not follow diamonds.
    hands = {0: "AD KH QH 10H 9H AS AC AH KS KC", 1: "JD 5D 6D 7D 5S 6S 7S 5C 6C 7C"}
    s = _to_play(Rules(), hands, "4D QD KD", "6H", ["play AD"])
    assert explain_illegal(s, A.str_to_action("play JD")) == \
        "you must follow diamonds: you hold 5♦ 6♦ 7♦; J♦ is a heart this hand"


def test_reasons_for_a_joker_lead():
    # 6NT: seat 0 wins a spade trick with AS (nobody else holds the joker), then is on lead.
    hands = {0: "AS 6S 5S AC KC QC AD KD QD JK"}
    s = _to_play(Rules(), hands, "4H 5H 6H", "6NT", ["play AS", "*", "*", "*"])
    assert s.turn == 0 and not s.trick
    assert explain_illegal(s, A.joker_lead_action(44, 0)) == (
        "the joker may not name spades now; it may name clubs, diamonds, hearts")
    assert explain_illegal(s, A.PLAY_BASE + 44) == (
        "a joker lead names a suit here: type JK followed by one of C D H")
    assert explain_illegal(s, A.joker_lead_action(44, 3)) == "JK (names ♥) is legal"
    s = _to_play(Rules(joker_lead="last_card"), hands, "4H 5H 6H", "6NT")
    for action in (A.joker_lead_action(44, 3), A.PLAY_BASE + 44):
        why = explain_illegal(s, action)
        assert why == s.illegal_message(action)
        assert "JK" not in why.split("legal actions:")[1] and "play AS" in why


def test_joker_follow_and_trump_joker_reasons():
    hands = {0: "AS KC QC AC 8S 5S AD KD QD 8D", 1: "JK 6S 7S 5C 6C 7C 5D 6D 7D 9D"}
    s = _to_play(Rules(), hands, "4H 5H 6H", "6NT", ["play AS"])
    assert explain_illegal(s, A.PLAY_BASE + 44) == "you must follow spades: you hold 6♠ 7♠"
    assert explain_illegal(s, A.joker_lead_action(44, 1)) == \
        "you must follow spades: you hold 6♠ 7♠"
    s = _to_play(Rules(joker_follow="anytime"), hands, "4H 5H 6H", "6NT", ["play AS"])
    assert explain_illegal(s, A.joker_lead_action(44, 1)) == \
        "only a joker that leads names a suit: play it as plain JK"
    hands = {0: "JK KC QC AC 6S 5S AD KD QD 8D"}
    s = _to_play(Rules(), hands, "4H 5H 6H", "6S")
    assert explain_illegal(s, A.joker_lead_action(44, 3)) == \
        "JK is a spade (a trump) this hand: lead it as plain JK, without naming a suit"


@pytest.mark.parametrize("preset", ["australian", "american", "australian-no-nullo"])
def test_every_action_is_explained_consistently_with_the_engine(preset):
    """Over whole hands: legal actions read "is legal", illegal ones get a reason that never
    claims a legal action, and a "must follow" reason lists exactly the cards that follow."""
    rules = Rules.preset(preset)
    rng = random.Random(preset)
    for seed in range(3):
        s = State(rules, seed=seed)
        while not s.is_terminal:
            legal = set(s.legal_actions())
            for action in range(A.NUM_ACTIONS):
                why = explain_illegal(s, action)
                assert (why.endswith(" is legal")) == (action in legal), (action, why)
                if why.startswith("you must follow"):
                    held = why.split("you hold ")[1].split(";")[0].split()
                    follow = s.hands[s.turn] & TABLES.suit_mask[s.context][s.led]
                    assert held == [card_label(c) for c in cards_of(follow)]
                    assert A.played_card(action) not in {A.played_card(a) for a in legal}
                if "does not outrank" in why:
                    assert action not in legal and s.high_bid >= 0
            s.apply(rng.choice(sorted(legal)))


def test_suit_groups_put_bowers_and_jokers_with_trumps():
    hand = mask_of([parse_card(c) for c in "JK JD JH AH 4H AD 5S".split()])
    groups = suit_groups(hand, 3)  # hearts trumps
    assert [(s, [card_label(c) for c in cs]) for s, cs in groups] == [
        (0, ["5♠"]), (2, ["A♦"]), (3, ["JK", "J♥", "J♦", "A♥", "4♥"])]
    groups = suit_groups(hand, 4)  # no trumps: the joker apart, jacks in their own suits
    assert [s for s, _ in groups] == [0, 2, 3, 4]


# ---------------------------------------------------------------------- the commands


def _terminal(lines):
    console = Console(width=110, color_system=None, highlight=False, record=True,
                      file=open("/dev/null", "w"))
    return Terminal(console, scripted(console, lines)), console


def test_fh_play_plays_a_whole_game_to_500_and_fh_replay_steps_through_it(tmp_path):
    save = tmp_path / "game.json"
    term, console = _terminal(["1"] * 3000)  # always the first choice of the menu; Enter
    assert cli.main(["--seed", "4", "--opponents", "rule", "--partner", "rule", "--save",
                   str(save)], term=term) == 0
    out = console.export_text()
    assert "Game over: " in out and f"Game record saved to {save}" in out
    record = load_record(save)
    final = replay_states(record)[-1]
    assert final.game_over and max(final.scores) >= 500 or min(final.scores) <= -500
    assert record["players"][2] == "you" and record["players"][0] == "rule"
    assert len(record["hands"]) > 1

    term, console = _terminal(["", "", "n", "q"])
    assert cli.replay_main([str(save)], term=term) == 0
    out = console.export_text()
    assert "Hand 1:" in out and "Enter: next step" in out
    term, console = _terminal([])
    assert cli.replay_main([str(save), "--no-pause", "--hand", "2"], term=term) == 0
    out = console.export_text()
    assert "Hand 2:" in out and "Hand 1:" not in out and "All hands as dealt" in out
    assert f"Final scores: N/S {final.scores[0]}, E/W {final.scores[1]}" in out


def test_bad_command_lines_are_refused(tmp_path, capsys):
    assert cli.main(["--rules", "nope"], term=_terminal([])[0]) == 2
    assert "'nope' is neither" in capsys.readouterr().err
    assert cli.main(["--opponents", "nobot"], term=_terminal([])[0]) == 2
    assert "unknown bot" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert cli.replay_main([str(bad)], term=_terminal([])[0]) == 2
    assert "not a Five Hundred record" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["--aids", "telepathy"])


def test_a_rules_file_a_seat_and_quitting(tmp_path):
    rules_file = tmp_path / "r.toml"
    rules_file.write_text('preset = "american"\ntarget = 300\nfloor = -2000\n')
    save = tmp_path / "g.json"
    term, console = _terminal(["pass"] + ["1"] * 60 + ["q"])
    assert cli.main(["--rules", str(rules_file), "--seed", "2", "--opponents", "rule,random",
                   "--partner", "rule", "--seat", "west", "--save", str(save)], term=term) == 0
    out = console.export_text()
    assert "you are West" in out and "playing to 300" in out and "Goodbye." in out
    record = load_record(save)
    assert record["rules"]["target"] == 300 and record["rules"]["inkle"] is True
    assert record["players"] == ["rule", "rule", "random", "you"]  # left opponent first
    replay_states(record)


def test_the_real_command_in_a_pseudo_terminal(tmp_path):
    save = tmp_path / "pty.json"
    child = pexpect.spawn(sys.executable, ["-m", "play.cli", "--seed", "3", "--opponents",
                                           "rule", "--partner", "rule", "--hands", "1",
                                           "--no-color", "--save", str(save)],
                          encoding="utf-8", timeout=60, dimensions=(50, 120), cwd=str(ROOT),
                          env={"PATH": "/usr/bin:/bin", "TERM": "xterm", "PYTHONPATH": str(ROOT)})
    prompts = [r"Your call> ", r"Discard \d cards?> ", r"Your (lead|play)> ",
               r"names which suit\? (\w)", r"Stopping after 1 hand", pexpect.EOF]
    child.expect(prompts[0])
    child.sendline("9Z")  # not a call at all
    child.expect("'9Z' is not a call")
    child.expect(prompts[0])
    child.send("pa\t")  # pass, completed with Tab by readline
    child.expect("pass")
    child.send("\r")
    child.expect("South \\(you\\) passes")
    seen = set()
    while True:
        i = child.expect(prompts)
        seen.add(i)
        if i == 3:
            child.sendline(child.match.group(1))
        elif i in (0, 1, 2):
            child.sendline("1")
        else:
            break
    assert {2, 4} <= seen  # played cards, reached the end
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert len(load_record(save)["hands"]) == 1


def test_fh_eval_save_writes_replayable_records_of_each_deal(tmp_path, capsys):
    from arena import cli as evaluate

    assert evaluate.main(["rule", "random", "--deals", "3", "--seed", "5", "--no-progress",
                          "--save", str(tmp_path)]) == 0
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["deal-00000.json", "deal-00001.json", "deal-00002.json"]
    record = load_record(tmp_path / "deal-00001.json")
    assert record["kind"] == "hands" and record["deal"] == 1
    first, second = record["hands"]
    assert first["hands"] == second["hands"] and first["kitty"] == second["kitty"]  # duplicate
    assert first["players"] == ["rule", "random", "rule", "random"]
    assert second["players"] == ["random", "rule", "random", "rule"]
    ends = replay_states(record)
    assert [list(s.result.hand_points) for s in ends] == \
        [h["result"]["hand_points"] for h in record["hands"]]
    # As one seat saw it: the others' discards stay hidden.
    declarer = ends[0].declarer
    assert declarer is not None
    watcher = (declarer + 1) % 4
    term, console = _terminal([])
    assert cli.replay_main([str(tmp_path / "deal-00001.json"), "--no-pause", "--hand", "1",
                          "--seat", str(watcher)], term=term) == 0
    out = console.export_text()
    assert f"{SEAT_NAMES[declarer]} discards" not in out and "Trick 10:" in out
    term, console = _terminal([])
    cli.replay_main([str(tmp_path / "deal-00001.json"), "--no-pause", "--hand", "1"], term=term)
    assert f"{SEAT_NAMES[declarer]} discards" in console.export_text()


def test_an_entry_for_the_wrong_phase_is_refused_with_the_reason():
    s = _state(hands={0: "JK AS KS QS AC KC QC AD KD QD"}, kitty="4H 5H 6H")
    assert parse_entry("AS", s) == [A.PLAY_BASE + parse_card("AS")]
    assert explain_illegal(s, A.PLAY_BASE + parse_card("AS")).startswith("this is the auction")
    for name in ("6NT", "pass", "pass", "pass"):
        s.apply(A.str_to_action(name))
    assert parse_entry("pass", s) == [A.PASS]
    assert explain_illegal(s, A.PASS).startswith("you are exchanging with the kitty")
    for c in cards_of(s.exchanges[0][1]):
        s.apply(A.DISCARD_BASE + c)
    assert parse_entry("7NT", s) == [A.str_to_action("7NT")]
    assert explain_illegal(s, A.str_to_action("7NT")).startswith("this is the play")
    assert parse_entry("7H", s) == [A.PLAY_BASE + parse_card("7H")]  # a card, not a bid
    with pytest.raises(EntryError, match="'zz' is not a card"):
        parse_entry("zz", s)


def test_a_bid_below_six_says_which_levels_there_are():
    """``5H`` in the auction used to be read as the card 5♥ ("this is the auction: bid or
    pass"), never saying that 6 is the lowest bid."""
    s = _state(hands={0: "JK AS KS QS AC KC QC AD KD QD"}, kitty="4H 5H 6H")
    for text in ("5nt", "1H", "0 D", "11 NT"):  # no card: refused at once
        with pytest.raises(EntryError, match="is not a bid: the lowest bid is 6 and the "
                                             "highest 10, as in 6S or 10NT"):
            parse_entry(text, s)
    five = parse_entry("5H", s)  # the card 5♥, which the engine refuses in the auction
    assert explain_illegal(s, five[0]) == (
        "this is the auction: bid or pass; the lowest bid is 6 and the highest 10, as in 6S "
        "or 10NT (cards are played after the auction)")
    assert parse_entry("6H", s) == [A.str_to_action("6H")]
    seven = _state(Rules().replace(min_bid_level=7), hands={0: "JK AS KS QS AC KC QC AD KD QD"},
                   kitty="4H 5H 6H")
    assert "the lowest bid is 7 " in explain_illegal(seven, parse_entry("5H", seven)[0])
    game, out = run_game(s, 0, ["5H", "quit"])
    assert "Not allowed: this is the auction: bid or pass; the lowest bid is 6" in " ".join(
        out.split())


def test_claim_in_the_terminal_refused_then_standing(tmp_path):
    from web_helpers import fixed_state

    save = tmp_path / "claim.json"
    lines = ["claim",                  # not during the auction
             "6NT", "4H 5S JS", "JK H",
             "claim",                  # refused: the 5♥ must lose a trick
             "5H", "AS",               # East leads a diamond: the spade is refused
             "KD", "claim"]            # every card left is a winner: the claim stands
    game, out = run_game(fixed_state(), 2, lines, save=save)
    flat = " ".join(out.split())
    assert "No claim now: claims are made during the play of the cards." in flat
    assert "Your claim does not stand" in flat
    assert "Not allowed: you must follow diamonds" in flat
    assert "Your claim stands: the remaining tricks are played out for you." in flat
    assert game.state.phase == Phase.HAND_OVER and game.state.result.tricks == (9, 1)
    assert replay_states(load_record(save))[-1] == game.state
    # every trick is shown once, the ones the claim played out included (trick 10 used to
    # come twice, and tricks 3-9 not at all)
    for k in range(1, 11):
        assert flat.count(f"Trick {k}: ") == 1, (k, flat.count(f"Trick {k}: "))


# ---------------------------------------------------------------------- three and six players


def deal_n(rules: Rules, hands: dict[int, str], kitty: str, dealer: int) -> State:
    """A deal of any table size: the named cards, the rest of the table size's pack in id
    order (hands first, then the kitty)."""
    given = {s: [parse_card(c) for c in hands.get(s, "").split()] for s in range(rules.players)}
    kitty_cards = [parse_card(c) for c in kitty.split()]
    named = {c for h in given.values() for c in h} | set(kitty_cards)
    rest = [c for c in rules.cards if c not in named]
    for s in range(rules.players):
        while len(given[s]) < 10:
            given[s].append(rest.pop(0))
    kitty_cards += rest
    return State.from_deal(rules, [given[s] for s in range(rules.players)], kitty_cards,
                           dealer=dealer)


def test_three_handed_a_whole_hand_typed_and_replayed(tmp_path):
    rules = Rules.preset("three-handed")
    # West (the person, seat 2) calls first: dealer East.
    state = deal_n(rules, {2: "JK JH JD AH KH QH 10H AS AC AD"}, "7S 8S 7C", dealer=1)
    save = tmp_path / "three.json"
    lines = ["AS", "8H", "7S 8S", "7C", "KD", "JK"] + ["1"] * 9
    game, out = run_game(state, 2, lines, bots={0: ScriptBot(), 1: ScriptBot()}, save=save)
    flat = " ".join(out.split())
    assert ("Five Hundred (3 players): you are West, playing for yourself; opponents "
            "North (script) and East (script).") in flat
    assert "Auction West (you) North East" in flat
    assert "Scores North 0 East 0 West (you) 0" in flat
    assert "Not allowed: this is the auction" in flat
    assert "West (you) calls 8♥" in out and "West (you) discards 7♣" in out
    assert "Not allowed: you do not hold K♦" in flat
    assert "Trick 1: West JK North " in flat and "→ West (you) wins it" in out
    assert len(out.split("Trick 1: ")[1].split("→")[0].split()) == 6  # three seats, three cards
    assert game.state.phase == Phase.HAND_OVER and len(game.state.result.tricks) == 3
    r = game.state.result
    assert (f"West (you)'s 8♥: West took {r.tricks[2]} tricks and made it. Points North "
            f"{r.hand_points[0]:+d}, East {r.hand_points[1]:+d}, West {r.hand_points[2]:+d}"
            in flat)
    record = load_record(save)
    assert record["players"] == ["script", "script", "you"]
    assert replay_states(record)[-1] == game.state
    term, console = _terminal([])
    assert cli.replay_main([str(save), "--no-pause"], term=term) == 0
    out = console.export_text()
    assert "1 hands (3 players)" in out and "Hand 1: East deals. North script, East script, " \
        "West you" in out
    assert "Final scores: North" in out and "All hands as dealt" in out
    term, console = _terminal([])
    assert cli.replay_main([str(save), "--no-pause", "--seat", "north"], term=term) == 0
    assert "West discards" not in console.export_text()
    assert cli.replay_main([str(save), "--seat", "south"], term=term) == 2
    # fh-replay --web serves 3- and 6-player records too: tests/test_web.py.


SIX = A.action_table(6)


def test_six_handed_cards_are_typed_discarded_and_played(tmp_path):
    rules = Rules.preset("six-handed")
    # South (the person, seat 3) calls first: dealer South-east.
    state = deal_n(rules, {3: "JK JH JD AH KH QH 13H 12H 11H 10H"}, "2S 12D 3C", dealer=2)
    assert parse_entry("13H", state) == [SIX.play_base + parse_card("13H")]  # refused later
    save = tmp_path / "six.json"
    lines = ["8H", "2S 12D", "13S", "3C", "2S", "JK", "13H"] + ["1"] * 8
    bots = {s: ScriptBot() for s in range(6) if s != 3}
    game, out = run_game(state, 3, lines, bots=bots, save=save)
    flat = " ".join(out.split())
    assert ("you are South, partners North-west (script) and North-east (script); opponents "
            "South-west (script), North (script) and South-east (script).") in flat
    assert "Scores N/SE/SW 0 NE/S/NW (you) 0" in flat
    assert "Auction South (you) South-west North-west North North-east South-east" in flat
    assert "South (you) discards 2♠" in out and "South (you) discards 12♦" in out
    assert "'13S' is not a card" in out
    assert "Not allowed: you do not hold 2♠" in flat
    assert "South (you) plays JK" in out and "South (you) plays 13♥" in out
    trick1 = out.split("Trick 1: ")[1].split("→")[0].split()
    assert len(trick1) == 12 and trick1[:2] == ["South", "JK"]  # six seats, six cards
    assert "Tricks N/SE/SW " in flat and "(N 0 NE 0 SE 0 S 1 SW 0 NW 0)" in flat
    assert game.state.phase == Phase.HAND_OVER
    assert "South (you)'s 8♥: NE/S/NW took" in flat and "Points N/SE/SW" in flat
    record = load_record(save)
    assert record["hands"][0]["actions"][6:10] == ["discard 2S", "discard 12D", "discard 3C",
                                                   "play JK"]
    assert len(record["players"]) == 6
    assert replay_states(record)[-1] == game.state
    term, console = _terminal([])
    assert cli.replay_main([str(save), "--no-pause", "--seat", "ne"], term=term) == 0
    out = console.export_text()
    assert "Hand 1: South-east deals." in out and "South plays 13♥" in out
    assert "South discards" not in out and "Final scores: N/SE/SW" in out


def test_six_handed_entries_use_the_six_handed_action_table():
    rules = Rules.preset("six-handed")
    s = deal_n(rules, {3: "JK JH JD AH KH QH 13H 12H 11H 10H"}, "2S 12D 3C", dealer=2)
    for name in ("8H", "pass", "pass", "pass", "pass", "pass"):
        s.apply(A.str_to_action(name))
    assert s.phase == Phase.EXCHANGE and s.turn == 3
    assert parse_entry("2s 12d 11h", s) == [A.DISCARD_BASE + parse_card(c)
                                           for c in ("2S", "12D", "11H")]
    for c in ("2S", "12D", "3C"):
        s.apply(SIX.from_str(f"discard {c}"))
    assert parse_entry("11H", s) == parse_entry("play 11h", s) == [SIX.play_base + parse_card("11H")]
    assert parse_entry("JK", s) == [SIX.play_base + 44]  # a trump contract: no suit named
    assert parse_entry("1", s)[0] in s.legal_actions()
    assert explain_illegal(s, SIX.play_base + parse_card("2S")) == "you do not hold 2♠"
    with pytest.raises(EntryError, match="'13S' is not a card"):
        parse_entry("13S", s)
    four = _state()
    with pytest.raises(EntryError, match="'2S' is a card of the six-handed pack only"):
        parse_entry("2S", four)


def test_six_handed_open_nullo_two_partners_sit_out():
    rules = Rules.preset("six-handed")
    state = deal_n(rules, {3: "2S 3S 4S 2C 3C 4C 2D 3D 4D 2H"}, "5S 5C 5D", dealer=2)
    lines = ["open nullo", "5S 5C 5D"] + ["1"] * 10
    bots = {s: ScriptBot() for s in range(6) if s != 3}
    game, out = run_game(state, 3, lines, bots=bots)
    flat = " ".join(out.split())
    assert "Contract open nullo by South (you); North-east and North-west sit out" in flat
    trick1 = out.split("Trick 1: ")[1].split("→")[0].split()
    assert len(trick1) == 8  # four seats play
    assert "North-east" not in trick1 and "North-west" not in trick1
    if game.state.result.made:  # open nullo is worth 500: the game is won
        assert "Game over: NE/S/NW win, 500 to 0. You win." in flat
    assert game.state.is_terminal


@pytest.mark.parametrize("preset", ["three-handed", "six-handed"])
def test_every_action_is_explained_at_three_and_six(preset):
    rules = Rules.preset(preset)
    table = A.action_table(rules.players)
    rng = random.Random(preset)
    for seed in range(2):
        s = State(rules, seed=seed)
        while not s.is_terminal:
            legal = set(s.legal_actions())
            for action in range(table.num_actions):
                why = explain_illegal(s, action)
                assert why.endswith(" is legal") == (action in legal), (action, why)
            s.apply(rng.choice(sorted(legal)))


@pytest.mark.parametrize("preset,players", [("three-handed", 3), ("six-handed", 6)])
def test_fh_play_three_and_six_handed_from_the_command_line(tmp_path, preset, players):
    save = tmp_path / "g.json"
    partner = [] if players == 3 else ["--partner", "rule,random"]
    term, console = _terminal(["aid estimate on", "estimate", "aid counter on"] + ["1"] * 200)
    assert cli.main(["--rules", preset, "--seed", "5", "--opponents", "rule", "--hands", "2",
                     "--samples", "2", "--save", str(save)] + partner, term=term) == 0
    out = console.export_text()
    assert f"Five Hundred ({players} players)" in out
    assert "Stopping after 2 hands" in out or "Game over" in out
    assert "Expected hand points, your side minus" in out and "Card counter" not in out[:50]
    record = load_record(save)
    you = 2 if players == 3 else 3
    assert record["players"][you] == "you" and len(record["players"]) == players
    if players == 6:
        assert record["players"] == ["rule", "random", "rule", "you", "rule", "rule"]
    replay_states(record)


def test_command_line_options_per_table_size(capsys):
    term = _terminal([])[0]
    assert cli.main(["--rules", "three-handed", "--partner", "rule"], term=term) == 2
    assert "there is no --partner" in capsys.readouterr().err
    assert cli.main(["--rules", "six-handed", "--opponents", "rule,rule"], term=term) == 2
    assert "--opponents takes one bot name or 3" in capsys.readouterr().err
    assert cli.main(["--rules", "three-handed", "--seat", "south"], term=term) == 2
    assert "'south' is not a seat at a table of 3" in capsys.readouterr().err
    assert cli.main(["--rules", "six-handed", "--opponents", "mcfast:rollout=policy"],
                    term=term) == 2
    err = capsys.readouterr().err
    assert "plays four players only" in err and len(err.strip().splitlines()) == 1
    # The browser plays every table size (tests/test_web.py); a bot that does not is refused
    # before any server starts.
    assert cli.main(["--rules", "six-handed", "--web", "--no-browser", "--opponents",
                     "mcfast:rollout=policy"], term=term) == 2
    err = capsys.readouterr().err
    assert "plays four players only" in err and len(err.strip().splitlines()) == 1
    args = cli.play_parser().parse_args(["--opponents", "a,b,c", "--partner", "d,e"])
    assert cli.bot_names(args, 3, 6) == {4: "a", 0: "b", 2: "c", 5: "d", 1: "e"}
    args = cli.play_parser().parse_args(["--opponents", "a,b"])
    assert cli.bot_names(args, 2, 3) == {0: "a", 1: "b"}
    assert cli.bot_names(args, 2, 4) == {3: "a", 1: "b", 0: "mc"}
    assert cli.parse_seat("se", 6) == 2 and cli.parse_seat("north-west", 6) == 5
    assert cli.parse_seat("west", 3) == 2 and cli.parse_seat("W") == 3


def test_an_aid_whose_bot_refuses_the_table_size_says_so_in_one_line():
    from play.aids import Helper

    rules = Rules.preset("six-handed")
    state = deal_n(rules, {}, "", dealer=2)
    bots = {s: ScriptBot() for s in range(6) if s != 3}
    helper = Helper(rules, hint_bot="mcfast:rollout=policy", samples=2, seed=1)
    _, out = run_game(state, 3, ["hint", "q"], bots=bots, aids=["hint", "counter"],
                      helper=helper)
    line = [x for x in out.splitlines() if "hint aid" in x]
    assert line and line[0].startswith("The hint aid is not available in this game: "
                                       "mcfast:rollout=policy does not play these rules "
                                       "(6 players)")


@pytest.mark.parametrize("preset,players", [("three-handed", 3), ("six-handed", 6)])
def test_the_real_command_in_a_pseudo_terminal_at_three_and_six(tmp_path, preset, players):
    save = tmp_path / "pty.json"
    extra = [] if players == 3 else ["--partner", "rule"]
    child = pexpect.spawn(sys.executable, ["-m", "play.cli", "--rules", preset, "--seed", "3",
                                           "--opponents", "rule", "--hands", "1",
                                           "--no-color", "--save", str(save)] + extra,
                          encoding="utf-8", timeout=60, dimensions=(50, 140), cwd=str(ROOT),
                          env={"PATH": "/usr/bin:/bin", "TERM": "xterm", "PYTHONPATH": str(ROOT)})
    child.expect(f"Five Hundred \\({players} players\\)")
    prompts = [r"Your call> ", r"Discard \d cards?> ", r"Your (lead|play)> ",
               r"names which suit\? (\w)", r"Stopping after 1 hand", pexpect.EOF]
    seen: set[int] = set()
    calls = 0
    while True:
        i = child.expect(prompts)
        seen.add(i)
        if i == 3:
            child.sendline(child.match.group(1))
        elif i == 0 and calls == 0:
            calls += 1
            child.sendline("11S")  # a card in the auction: refused with the reason
            child.expect("this is the auction" if players == 6 else
                         "'11S' is a card of the six-handed pack only")
        elif i in (0, 1, 2):
            child.sendline("1")
        else:
            break
    assert 4 in seen
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = load_record(save)
    assert len(record["players"]) == players and len(record["hands"]) == 1
    replay_states(record)
