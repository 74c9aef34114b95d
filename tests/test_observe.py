"""The observation encoding (fh_env.observe): layout, seat rotation, perfect recall, masks."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys

import numpy as np
import pytest

import fh_env.observe as O
from fh_env import actions as A
from fh_env.cards import NUM_CARDS, mask_of, parse_card
from fh_env.engine import Phase, State
from fh_env.observe import (LAYOUT, OBS_SIZE, STATE_SIZE, action_mask, encode, encode_state,
                            rules_features)
from fh_env.rules import PRESETS, Rules
from fh_env.view import seat_view

from conftest import do, new_state


def block(obs: np.ndarray, name: str) -> np.ndarray:
    return obs[LAYOUT[name]]


def cards_in(obs: np.ndarray, name: str) -> int:
    """The card mask of a 46-entry card block."""
    return mask_of(int(c) for c in np.flatnonzero(block(obs, name)))


def random_views(count: int, seed: int = 0, rules_list=None):
    """Views of random seats in random positions of random play (every preset: all table
    sizes)."""
    rng = random.Random(seed)
    rules_list = rules_list or [Rules.preset(p) for p in PRESETS]
    out = []
    for i in range(count):
        state = State(rules_list[i % len(rules_list)], seed=rng.randrange(10**9))
        for _ in range(rng.randrange(60)):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        out.append((state, seat_view(state, rng.randrange(state.rules.players))))
    return out


# ---------------------------------------------------------------------- the layout
def test_docstring_table_is_the_layout() -> None:
    assert O.layout_table() in O.__doc__
    assert f"OBS_SIZE = {OBS_SIZE}" in O.__doc__


def test_blocks_tile_the_vector_and_cover_every_rule_option() -> None:
    pos = 0
    for name, s in LAYOUT.items():
        assert s.start == pos, name
        pos = s.stop
    assert pos == OBS_SIZE and STATE_SIZE == OBS_SIZE + 9 * NUM_CARDS
    assert LAYOUT["tricks"].stop - LAYOUT["tricks"].start == 10 * (4 + 4 * NUM_CARDS + 4)
    table = O.layout_table()
    for f in dataclasses.fields(Rules):
        if f.name not in O._NOT_OBSERVED:
            assert f"  {f.name} " in table, f.name
    assert rules_features(Rules()).size == O.RULES_SIZE


def test_binary_part_is_zero_one_and_scalars_are_finite() -> None:
    for _, view in random_views(200, seed=1):
        obs = encode(view)
        lay = O.layout(view.rules.players)
        assert obs.shape == (lay.size,) and obs.dtype == np.float32
        assert set(np.unique(obs[:lay.binary_size])) <= {0.0, 1.0}
        assert np.isfinite(obs).all()


def test_encode_fills_out_in_place() -> None:
    buf = np.full((3, OBS_SIZE), 7.0, np.float32)
    four = [Rules.preset("australian"), Rules(), Rules.preset("canadian")]
    for i, (_, view) in enumerate(random_views(3, seed=2, rules_list=four)):
        result = encode(view, buf[i])
        assert result is buf[i] or np.shares_memory(result, buf)
        assert np.array_equal(buf[i], encode(view))


def test_observe_module_imports_no_environment_nor_torch() -> None:
    """The encoding is plain numpy: no environment adapter (PettingZoo's AEC classes), no torch."""
    code = ("import sys, fh_env.observe; "
            "print('fh_env.envs.aec' in sys.modules, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


# ---------------------------------------------------------------------- seat-relative contents
NT_HANDS = {0: "JK AS KS QS JS 10S 9S 8S 7S 6S", 1: "5S 5C 6C 7C 8C 9C 10C JC QC KC",
            2: "AC 4D 5D 6D 7D 8D 9D 10D JD QD", 3: "KD AD 4H 5H 6H 7H 8H 9H 10H JH"}


def test_seats_are_relative_to_the_observer() -> None:
    state = new_state(Rules(), NT_HANDS, "QH KH AH", dealer=3)
    do(state, "pass", "7H")  # N passes, E bids 7H
    for seat in range(4):
        obs = encode(seat_view(state, seat))
        rel = lambda s: (s - seat) % 4  # noqa: E731
        assert np.flatnonzero(block(obs, "dealer")).tolist() == [rel(3)]
        assert np.flatnonzero(block(obs, "turn")).tolist() == [rel(2)]
        assert np.flatnonzero(block(obs, "bidder")).tolist() == [rel(1)]
        assert np.flatnonzero(block(obs, "bid")).tolist() == [A.str_to_action("7H") - 1]
        bids = block(obs, "auction_bids").reshape(28, 4)
        passes = block(obs, "auction_passes").reshape(29, 4)
        assert np.argwhere(bids).tolist() == [[A.str_to_action("7H") - 1, rel(1)]]
        assert np.argwhere(passes).tolist() == [[28, rel(0)]]  # passed before any bid
        assert cards_in(obs, "hand") == state.hands[seat]
        assert block(obs, "trump").sum() == 0  # no contract yet


def test_scores_are_ours_then_theirs() -> None:
    state = State(Rules(), seed=3)
    state.scores = [120, -40]
    for seat in range(4):
        ours, theirs = block(encode(seat_view(state, seat)), "scores")
        assert (ours, theirs) == ((120 / 500, -40 / 500) if seat % 2 == 0 else (-40 / 500, 120 / 500))


def test_exchange_is_seen_by_the_exchanger_only() -> None:
    state = new_state(Rules(), NT_HANDS, "QH KH AH", dealer=3)
    do(state, "8NT", "pass", "pass", "pass", "discard QH")
    declarer = encode(seat_view(state, 0))
    assert cards_in(declarer, "picked_up") == mask_of(parse_card(c) for c in "QH KH AH".split())
    assert cards_in(declarer, "discarded") == 1 << parse_card("QH")
    assert block(declarer, "discards_left")[0] == pytest.approx(2 / 3)
    assert block(declarer, "trump").sum() == 0 and block(declarer, "bid")[A.str_to_action("8NT") - 1]
    for seat in (1, 2, 3):
        obs = encode(seat_view(state, seat))
        assert cards_in(obs, "picked_up") == 0 and cards_in(obs, "discarded") == 0
        assert block(obs, "exchanged").tolist() == [0, 0, 0, 0][:(-seat) % 4] + [1] + \
            [0, 0, 0, 0][(-seat) % 4 + 1:]


def test_tricks_are_seat_aligned_with_led_suit_named_by_a_joker() -> None:
    state = new_state(Rules(), NT_HANDS, "QH KH AH", dealer=3)
    do(state, "8NT", "pass", "pass", "pass", "QH KH AH", "JK:H", "5S", "4D", "4H")
    # N led the joker naming hearts: E (void in hearts) and S (no hearts) show void
    for seat in range(4):
        obs = encode(seat_view(state, seat))
        slot = block(obs, "tricks")[:192]
        rel = lambda s: (s - seat) % 4  # noqa: E731
        assert np.flatnonzero(slot[:4]).tolist() == [rel(0)]  # the leader
        for player, card in ((0, "JK"), (1, "5S"), (2, "4D"), (3, "4H")):
            row = slot[4 + 46 * rel(player): 4 + 46 * (rel(player) + 1)]
            assert np.flatnonzero(row).tolist() == [parse_card(card)]
        assert np.flatnonzero(slot[188:]).tolist() == [3]  # led suit: hearts, as named
        voids = block(obs, "voids").reshape(4, 5)
        assert np.argwhere(voids).tolist() == sorted([[rel(1), 3], [rel(2), 3]])
        assert block(obs, "tricks_won")[rel(0)] == pytest.approx(0.1)
        assert block(obs, "tricks")[192:].sum() == 0  # the next trick has not started


def test_current_trick_sits_in_its_slot() -> None:
    state = new_state(Rules(), NT_HANDS, "QH KH AH", dealer=3)
    do(state, "8NT", "pass", "pass", "pass", "QH KH AH", "6S", "5S")
    obs = encode(seat_view(state, 2))
    slot = block(obs, "tricks")[:192]
    assert np.flatnonzero(slot[:4]).tolist() == [2]  # N led: two seats left of S
    assert slot[4 + 46 * 2 + parse_card("6S")] == 1 and slot[4 + 46 * 3 + parse_card("5S")] == 1
    assert np.flatnonzero(slot[188:]).tolist() == [0]  # spades led
    assert np.flatnonzero(block(obs, "turn")).tolist() == [0]  # S itself is on turn


NULLO_HANDS = {0: "8S 9S 10S JS 8C 9C 10C 6D 7D 6H", 1: "5S 6S 7S 5C 6C 7C 4D 5D 4H 5H",
               2: "QS KS AS JC QC KC 8D 9D 7H 8H", 3: "JK AC 10D JD QD KD AD 9H 10H JH"}


@pytest.mark.parametrize("exposed", ["at_first_lead", "after_first_trick"])
def test_open_nullo_hand_is_exposed_to_the_others(exposed: str) -> None:
    rules = Rules.preset("australian").replace(open_nullo_exposed=exposed)
    state = new_state(rules, NULLO_HANDS, "QH KH AH", dealer=3)
    do(state, "pass", "open nullo", "pass", "pass", "QH KH AH")
    assert state.phase == Phase.PLAY and state.exposed == (exposed == "at_first_lead")
    for trick in range(2):
        if trick:
            do(state, "5S", "QS", "8S")  # the first trick: E, S, N (W sits out)
            assert state.exposed
        for seat in range(4):
            obs = encode(seat_view(state, seat))
            shown = cards_in(obs, "exposed")
            if seat == 1 or not state.exposed:
                assert shown == 0
            else:
                assert shown == state.hands[1]
            assert np.flatnonzero(block(obs, "sitting_out")).tolist() == [(3 - seat) % 4]
    assert state.exposed


def test_action_mask_is_the_legal_actions_of_the_seat_on_turn() -> None:
    for state, _ in random_views(150, seed=4):
        for seat in range(state.rules.players):
            mask = action_mask(seat_view(state, seat))
            size = A.action_table(state.rules.players).num_actions
            assert mask.dtype == np.int8 and mask.shape == (size,)
            expected = state.legal_actions() if seat == state.turn else []
            assert np.flatnonzero(mask).tolist() == expected


def test_encode_state_holds_every_hidden_card() -> None:
    for state, view in random_views(100, seed=5):
        seat, n = view.seat, state.rules.players
        lay = O.layout(n)
        full = encode_state(state, seat)
        assert full.shape == (lay.state_size,)
        assert np.array_equal(full[:lay.size], encode(view))
        hidden = full[lay.size:].reshape(2 * n + 1, lay.num_cards)
        for r in range(1, n):
            assert mask_of(np.flatnonzero(hidden[r - 1]).tolist()) == state.hands[(seat + r) % n]
        assert mask_of(np.flatnonzero(hidden[n - 1]).tolist()) == state.kitty
        assert mask_of(np.flatnonzero(hidden[n]).tolist()) == state.dealt[1]
        for who, _, discarded in state.exchanges:
            assert mask_of(np.flatnonzero(hidden[n + 1 + (who - seat) % n]).tolist()) == discarded


def test_rules_features_one_hot_groups_and_cache() -> None:
    seen = {}
    for name in PRESETS:
        rules = Rules.preset(name)
        features = rules_features(rules)
        assert features is rules_features(rules) and not features.flags.writeable
        key = (rules.players, features.tobytes())  # a layout per table size
        assert key not in seen, (name, seen.get(key))
        seen[key] = name
        obs = encode(seat_view(State(rules, seed=1), 0))
        slices = O.layout(rules.players).slices
        width = slices["rules"].stop - slices["rules"].start
        assert np.array_equal(obs[slices["rules"]], features[:width])
        assert np.array_equal(obs[slices["rule_values"]], features[width:])
    assert np.array_equal(rules_features(Rules.preset("canadian")),
                          rules_features(Rules.preset("canadian")))
    assert rules_features(Rules(target=1000))[-2] == pytest.approx(2.0)


# ---------------------------------------------------------------------- perfect recall
AUCTION_RULES = [
    Rules.preset("australian"),
    Rules.preset("american-double-nullo"),
    Rules.preset("american-45"),
    Rules(raise_own_bid=True, reenter="always", misdeal=True),
    Rules(raise_own_bid=True, reenter="after_change", stick_the_dealer=True, bidding_rounds=4),
    Rules.preset("australian").replace(nullo_ranking="points", open_nullo_ties="lower"),
    # §6.8: point-ranked nullo bids under the original table make a non-transitive ranking
    Rules(scoring="original", nullo="anytime", nullo_ranking="points", open_nullo="anytime",
          raise_own_bid=True, reenter="always"),
]


def _auction_part(obs: np.ndarray) -> bytes:
    return b"".join(obs[LAYOUT[k]].tobytes() for k in ("auction_bids", "auction_passes",
                                                        "misdeal", "dealer"))


def test_auction_encoding_is_perfect_recall() -> None:
    """Different call histories never give the same auction blocks (so the blocks determine
    the whole history), for long multi-round auctions too."""
    rng = random.Random(9)
    longest = 0
    for rules in AUCTION_RULES:
        by_code: dict[bytes, tuple] = {}
        for _ in range(1500):
            state = State(rules, seed=rng.randrange(10**9), dealer=0)
            while state.phase == Phase.AUCTION:
                legal = state.legal_actions()
                # favour passes and cheap raises so that auctions run long
                state.apply(legal[0] if rng.random() < 0.4 else rng.choice(legal[:4]))
                obs = encode(seat_view(state, 1))
                code = _auction_part(obs)
                history = tuple(state.calls)
                assert by_code.setdefault(code, history) == history
                longest = max(longest, len(history))
    assert longest >= 12


def test_information_state_is_perfect_recall() -> None:
    """Two positions that differ in anything the observer knows get different observations."""
    rng = random.Random(10)
    rules = Rules.preset("australian")
    by_code: dict[bytes, tuple] = {}
    for _ in range(300):
        state = State(rules, seed=rng.randrange(50), dealer=3)  # few deals: histories collide
        while not state.is_terminal:
            view = seat_view(state, 0)
            key = (view.hand, view.calls, view.exchanges, view.exposed, view.tricks, view.trick,
                   view.turn, view.phase)
            code = encode(view).tobytes()
            assert by_code.setdefault(code, key) == key
            state.apply(rng.choice(state.legal_actions()))


def test_observation_is_encode_and_mask_in_one() -> None:
    for state, view in random_views(100, seed=12):
        obs = O.observation(view)
        assert np.array_equal(obs["observation"], encode(view))
        assert np.array_equal(obs["action_mask"], action_mask(view))
        size = A.action_table(view.rules.players).num_actions
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (size,)


def test_seat_view_sets_exactly_the_fields_of_seat_view() -> None:
    """seat_view fills the frozen dataclass's __dict__ directly, so check it misses none."""
    import dataclasses

    from fh_env import State, seat_view

    view = seat_view(State(seed=3), 1)
    assert set(vars(view)) == {f.name for f in dataclasses.fields(view)}
    assert view == dataclasses.replace(view)  # a normally constructed copy compares equal
