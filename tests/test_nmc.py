"""``nmc``: the network's calls and discards, Monte Carlo card play with the network's tie-break."""

from __future__ import annotations

import random

import numpy as np
import pytest

from arena.match import play_hand
from agents.neural import NeuralBot
from agents.nmc import NetworkMCBot
from agents.registry import check_spec, make_bot
from fh_env.engine import Phase, State
from fh_env.view import SeatView, seat_view


class Recorder:
    """A bot wrapper keeping every view it was asked about and its answer."""

    def __init__(self, bot) -> None:
        self.bot, self.seen = bot, []

    def act(self, view: SeatView, rng: random.Random) -> int:
        action = self.bot.act(view, rng)
        self.seen.append((view, action))
        return action


def true_deal(state: State, repeat: int) -> np.ndarray:
    """The state itself as the one world of a search, as fast-core records, ``repeat`` times."""
    from fh_env.compiled.games import FastGames

    loader = FastGames(1, state.rules)
    loader.set_state(0, state)
    return np.repeat(loader.games, repeat)


def engine_scores(state: State, team: int, actions: list[int], play_out) -> list[float]:
    """Each action's team score on the reference engine, ``play_out`` finishing the hand."""
    from agents.mc import team_score

    out = []
    for action in actions:
        world = state.clone()
        world.apply(action)
        play_out(world)
        out.append(team_score(world, team))
    return out


@pytest.fixture(scope="module")
def nmc() -> NetworkMCBot:
    return make_bot("nmc:ppo-selfplay,samples=20")


def test_preferences_rank_the_greedy_action_first() -> None:
    bot = NeuralBot.load("ppo-selfplay")
    state = State(seed=4)
    while state.phase != Phase.HAND_OVER:
        view = seat_view(state, state.turn)
        ranks = bot.preferences(view)
        action = bot.act(view, random.Random(0))
        assert ranks[action] == 0
        legal = [a for a in range(len(ranks)) if view.legal >> a & 1]
        assert sorted(ranks[legal]) == list(range(len(legal)))  # the legal actions come first
        state.apply(action)


def seat0_decisions(bot, network: NeuralBot, hands: int) -> list[tuple[SeatView, int]]:
    """Every (view, action) of ``bot`` at seat 0 in ``hands`` hands (deal seeds 0, 1, ...)
    with ``network`` at the other seats."""
    seen = []
    for seed in range(hands):
        seat0 = Recorder(bot)
        play_hand(State(seed=seed), [seat0, network, network, network],
                  [random.Random(seed * 10 + s) for s in range(4)])
        seen += seat0.seen
    return seen


def test_calls_and_discards_are_the_networks_and_every_action_is_legal(nmc) -> None:
    network = NeuralBot.load("ppo-selfplay")
    plays = 0
    for view, action in seat0_decisions(nmc, network, 4):
        assert view.legal >> action & 1
        if view.phase == Phase.PLAY:
            plays += 1
        else:
            assert action == network.act(view, random.Random(0))
    assert plays > 0


def three_card_choice(bot: NetworkMCBot) -> SeatView:
    """The first card decision with three or more distinct cards to search, the network
    playing every seat until then (deal seed 11)."""
    state = State(seed=11)
    while not (state.phase == Phase.PLAY and len(bot.search._mc.candidates(
            seat_view(state, state.turn))) >= 3):
        state.apply(bot.network.act(seat_view(state, state.turn), random.Random(0)))
    return seat_view(state, state.turn)


def test_cards_are_the_searchs_best_and_ties_go_to_the_network(nmc, monkeypatch) -> None:
    network = nmc.network
    view = three_card_choice(nmc)
    candidates = nmc.search._mc.candidates(view)
    ranks = network.preferences(view)
    favourite = min(candidates, key=lambda a: ranks[a])
    others = [a for a in candidates if a != favourite]

    def scores(means):
        monkeypatch.setattr(nmc.search, "score", lambda v, c, g, w=None: np.array(
            [means.get(a, 0.0) for a in c]))

    scores({others[0]: 5.0})  # one best card: the search's, not the network's favourite
    assert nmc.act(view, random.Random(1)) == others[0]
    scores({others[0]: 5.0, favourite: 5.0})  # a tie: the network's favourite of the best
    assert nmc.act(view, random.Random(1)) == favourite
    scores({others[0]: 5.0, others[1]: 5.0})
    assert nmc.act(view, random.Random(1)) == min(others[:2], key=lambda a: ranks[a])


def test_top_searches_the_networks_favourites_and_margin_keeps_its_card(monkeypatch) -> None:
    bot = make_bot("nmc:ppo-selfplay,samples=20,top=2,margin=4")
    network = bot.network
    view = three_card_choice(bot)
    ranks = network.preferences(view)
    by_rank = sorted(bot.search._mc.candidates(view), key=lambda a: ranks[a])
    searched = []

    def scores(means):
        def score(v, c, g, w=None):
            searched.append(list(c))
            return np.array([means.get(a, 0.0) for a in c])
        monkeypatch.setattr(bot.search, "score", score)

    scores({by_rank[1]: 4.0, by_rank[2]: 50.0})  # the third card is not searched ...
    assert bot.act(view, random.Random(1)) == by_rank[0]  # ... and 4 points is no margin
    assert searched[-1] == by_rank[:2]
    scores({by_rank[1]: 4.5})
    assert bot.act(view, random.Random(1)) == by_rank[1]  # more than the margin: overridden
    for bad in ("top=-2", "margin=-1"):
        with pytest.raises(ValueError, match=bad.split("=")[0]):
            check_spec(f"nmc:ppo-selfplay,{bad}")
    with pytest.raises(ValueError, match="top=1"):
        make_bot("nmc:ppo-selfplay,top=1")


@pytest.mark.parametrize("part", ["leads", "follows"])
def test_cards_searches_only_that_part_of_the_tricks(part: str, monkeypatch) -> None:
    bot = make_bot(f"nmc:ppo-selfplay,samples=5,cards={part}")
    network = bot.network
    searched: list[bool] = []  # for each searched card: was it a follow?
    decide = bot.decide

    def recording(view, rng):
        searched.append(bool(view.trick))
        return decide(view, rng)

    monkeypatch.setattr(bot, "decide", recording)
    views = []
    for view, action in seat0_decisions(bot, network, 3):
        if view.phase == Phase.PLAY:
            views.append(view)
            if bool(view.trick) != (part == "follows"):  # not searched: the network's
                assert action == network.act(view, random.Random(0))
    assert searched and set(searched) == {part == "follows"}
    # the batched path (arena.batched) decides alike: the network's card where not searched,
    # the search's (the same worlds, from the same generator) where searched
    batched = bot.decide_cards(views, [random.Random(7) for _ in views])
    for view, card in zip(views, batched):
        assert card == bot.act(view, random.Random(7))


@pytest.mark.parametrize("part", ["nullo", "nullo-declarer", "nullo-defenders"])
def test_cards_nullo_searches_only_the_cards_of_nullo_contracts(part: str, monkeypatch) -> None:
    """``cards=nullo``: the declarer's and the defenders' cards of a nullo-type contract are
    searched (``nullo-declarer``: the declarer's alone, ``nullo-defenders``: the defenders'
    alone), every card of a suit contract is the network's."""
    from fh_env.actions import NULLO_TYPES
    from fh_env.rules import Rules

    bot = make_bot(f"nmc:best-australian,samples=5,cards={part}")
    network = bot.network
    searched: list[int] = []  # the contract of each searched card
    declarers: set[bool] = set()  # whether each searched card was the declarer's
    decide = bot.decide

    def recording(view, rng):
        searched.append(view.contract)
        declarers.add(view.seat == view.declarer)
        return decide(view, rng)

    monkeypatch.setattr(bot, "decide", recording)
    nullo_cards = suit_cards = 0
    for seed in range(60):
        seen = Recorder(bot)
        state = State(Rules.preset("australian"), seed=seed)
        play_hand(state, [seen, seen, seen, seen], [random.Random(seed * 10 + s) for s in range(4)])
        for view, action in seen.seen:
            if view.phase != Phase.PLAY:
                continue
            if view.contract in NULLO_TYPES:
                nullo_cards += 1
            else:
                suit_cards += 1
                assert action == network.act(view, random.Random(0))
        if nullo_cards and suit_cards:
            break
    assert nullo_cards and suit_cards  # both kinds of contract were played
    assert searched and set(searched) <= set(NULLO_TYPES)
    assert declarers == {"nullo": {True, False}, "nullo-declarer": {True},
                         "nullo-defenders": {False}}[part]


def test_the_declarers_partner_in_a_double_nullo_is_no_defender() -> None:
    """``cards=nullo-defenders`` searches the side against the declarer: in a double nullo the
    declarer's partner plays too, on the declarer's side, and is not searched (the network
    seldom bids a double nullo, so the views are built by hand: the part reads the contract
    and the seats alone)."""
    from types import SimpleNamespace

    from fh_env.actions import DOUBLE_NULLO, NT, OPEN_NULLO, bid_action
    from fh_env.rules import Rules

    rules = Rules.preset("american-double-nullo")
    bot = make_bot("nmc:best-american-double-nullo,samples=5,cards=nullo-defenders", rules)

    def searched(contract: int, seat: int) -> bool:
        return bot.searches(SimpleNamespace(contract=contract, seat=seat, declarer=1,
                                            rules=rules, trick=()))

    assert [searched(DOUBLE_NULLO, s) for s in range(4)] == [True, False, True, False]
    assert [searched(OPEN_NULLO, s) for s in (0, 1, 2)] == [True, False, True]
    assert not any(searched(bid_action(6, NT), s) for s in range(4))  # not a nullo: 6 NT


def test_cards_is_checked() -> None:
    assert make_bot("nmc:ppo-selfplay,cards=leads").cards == "leads"
    assert make_bot("nmc:ppo-selfplay,cards=nullo").cards == "nullo"
    assert make_bot("nmc:ppo-selfplay").cards == "all"
    with pytest.raises(ValueError, match="cards"):
        check_spec("nmc:ppo-selfplay,cards=middle")
    with pytest.raises(ValueError, match="cards"):
        NetworkMCBot(NeuralBot.load("ppo-selfplay"), cards="middle")


def test_same_seed_same_play(nmc) -> None:
    def hand() -> list[int]:
        state = State(seed=5)
        play_hand(state, [nmc, nmc, nmc, nmc], [random.Random(s) for s in range(4)])
        return [c for _, cards, _, _ in state.tricks for c in cards]

    assert hand() == hand()


def test_spec_checks() -> None:
    check_spec("nmc:ppo-selfplay,samples=50")
    assert make_bot("nmc:best,samples=7").search.samples == 7
    with pytest.raises(ValueError, match="checkpoint"):
        check_spec("nmc:no-such-agent")
    with pytest.raises(ValueError, match="samples"):
        check_spec("nmc:ppo-selfplay,samples=0")
    assert make_bot("nmc:best,infer=0.5").infer == 0.5
    with pytest.raises(ValueError, match="infer"):
        check_spec("nmc:ppo-selfplay,infer=-1")
    with pytest.raises(ValueError, match="PATH|checkpoint"):
        check_spec("nmc")


def test_search_is_the_measured_lead_search_on_best() -> None:
    """``search`` names issue 30's player; its options are nmc's and override its presets, and
    it plays the hand the long spec plays (same seed, same cards)."""
    from agents.registry import bot_help, bot_kind

    long = "nmc:best,cards=leads,samples=3,rollout=net,belief=0.5"
    short = make_bot("search:samples=3")
    assert (short.cards, short.rollout, short.belief) == ("leads", "net", 0.5)
    assert make_bot("search").search.samples == 100
    assert bot_kind("search") == "nmc" and bot_kind("mc6") == "mc"
    assert "options: as nmc" in bot_help()
    check_spec("search:belief=1")
    with pytest.raises(ValueError, match="'search' has no option 'greedy'"):
        check_spec("search:greedy=0")

    def hand(bot) -> list[int]:
        state = State(seed=11)
        play_hand(state, [bot, bot, bot, bot], [random.Random(s) for s in range(4)])
        return [c for _, cards, _, _ in state.tricks for c in cards]

    assert hand(short) == hand(make_bot(long))


def test_call_likelihood_is_the_networks_on_the_engine() -> None:
    """The compiled replay of the auction scores each world as the network does on the engine."""
    import dataclasses

    import torch

    from agents.neural import masked_logits
    from fh_env import observe
    from fh_env.compiled.games import FastGames

    bot = make_bot("nmc:ppo-selfplay,samples=20,infer=1")
    network, rules = bot.network, State().rules
    for seed in (3, 8, 21):
        state, history = State(seed=seed), []
        while state.phase != Phase.PLAY:
            view = seat_view(state, state.turn)
            if state.phase == Phase.AUCTION:
                history.append(view)
            state.apply(network.act(view, random.Random(0)))
        me = state.turn
        expected = 0.0
        for view in history:
            if view.seat == me:
                continue
            # encoded as NeuralBot.act encodes: under the network's rules (the same game)
            seen = dataclasses.replace(view, rules=network.rules)
            with torch.no_grad():
                logits, _ = network.net(torch.from_numpy(observe.encode(seen)).unsqueeze(0))
                logp = torch.log_softmax(masked_logits(logits[0], torch.from_numpy(
                    observe.action_mask(view))), 0)
            seat, action = state.calls[len(view.calls)]  # the call made from this view
            assert seat == view.seat
            expected += float(logp[action])
        fast = FastGames(1, rules)
        fast.set_state(0, state)  # the true world
        got = bot.call_loglik(seat_view(state, me), fast.games)
        assert got[0] == pytest.approx(expected, abs=1e-4)
        assert expected < 0  # the network was not certain of every call
    # weights: 1 for the likeliest world, and the exponent sharpens them
    view = seat_view(state, me)
    worlds = bot.search.draw_worlds(view, 1, random.Random(5))
    weights = bot.call_weights(view, worlds)
    assert weights.max() == pytest.approx(1.0) and (weights >= 0).all()
    assert weights.min() < 1.0  # the worlds differ in how well they explain the auction


@pytest.mark.parametrize("net", ["ppo-selfplay", "best"])  # best reads the derived inputs
def test_network_rollouts_are_the_network_playing_on_the_engine(net: str) -> None:
    """``rollout=net`` on the true deal scores each card as the greedy network playing the rest
    of the hand at every seat on the reference engine (a differential test of the batch)."""
    bot = make_bot(f"nmc:{net},samples=1,rollout=net")
    network = bot.network
    checked = 0
    for seed in range(40):
        state = State(seed=seed)
        tricks = seed % 6  # decisions from the first lead to late in the hand
        while state.phase != Phase.HAND_OVER and not (
                state.phase == Phase.PLAY and sum(state.tricks_won) >= tricks
                and len(bot.search._mc.candidates(seat_view(state, state.turn))) > 1):
            state.apply(network.act(seat_view(state, state.turn), random.Random(0)))
        if state.phase != Phase.PLAY:
            continue
        view = seat_view(state, state.turn)
        candidates = bot.search._mc.candidates(view)
        scores = bot.network_scores(view, candidates, true_deal(state, len(candidates)))

        def play_out(world: State) -> None:
            while world.phase == Phase.PLAY:
                world.apply(network.act(seat_view(world, world.turn), random.Random(0)))

        assert scores.tolist() == engine_scores(state, view.team, candidates, play_out), seed
        checked += 1
    assert checked >= 20


def test_network_rollouts_are_named_in_the_spec() -> None:
    assert make_bot("nmc:distill-search-2,samples=5,rollout=net").rollout == "net"
    assert make_bot("nmc:best").rollout == "rule"
    with pytest.raises(ValueError, match="rollout"):
        check_spec("nmc:best,rollout=mc")


@pytest.mark.parametrize("chunk", [0, 37])
@pytest.mark.parametrize("net", ["ppo-selfplay", "best"])
def test_rollout_net_logits_are_the_networks(net: str, chunk: int, monkeypatch) -> None:
    """The sparse, folded forward pass (for a network with the derived inputs, those computed
    from the observation as it is and folded in too) gives the network's logits on observations of play, in one pass or in chunks of rows
    (``chunk`` 37: several chunks, the last one short)."""
    import dataclasses

    import torch

    from agents import net_rollouts
    from agents.net_rollouts import RolloutNet
    from fh_env import observe

    if chunk:
        monkeypatch.setattr(net_rollouts, "CHUNK", chunk)

    network = NeuralBot.load(net)
    fast = RolloutNet(network.net)
    views = []
    for seed in range(12):
        state = State(seed=seed)
        while state.phase != Phase.HAND_OVER:
            view = seat_view(state, state.turn)
            views.append(view)
            state.apply(network.act(view, random.Random(0)))
    # encoded as NeuralBot encodes: under the network's rules (the same game)
    obs = np.stack([observe.encode(dataclasses.replace(v, rules=network.rules)) for v in views])
    masks = np.stack([observe.action_mask(v) for v in views]).astype(np.int8)
    rows = np.arange(len(views), dtype=np.int64)
    with torch.no_grad():
        expected, _ = network.net(torch.from_numpy(obs))
    got, which = fast.logits(obs, rows)
    assert len(rows) > 3 * 37 and len(set(which.tolist())) >= 3  # several trump suits (and none)
    np.testing.assert_allclose(got, expected.numpy(), rtol=0, atol=2e-4)
    assert fast.act(obs, rows, masks).tolist() == [network.act(v, random.Random(0))
                                                    for v in views]
    if network.net.features:  # the derived inputs of a relabelled observation, moved
        net_ = network.net
        x = torch.from_numpy(obs)
        trump = x[:, observe.TRUMP_SLICE]
        row = torch.where(trump.sum(1) > 0, trump.argmax(1), 4)
        with torch.no_grad():
            relabelled = net_.card_features(x.gather(1, net_.obs_index[row]), row).numpy()
            as_is = net_.card_features(x, None).numpy()
        moved = np.take_along_axis(as_is, net_rollouts.derived_index(net_)[row.numpy()], 1)
        assert (as_is != relabelled).any()  # the relabelling does move them
        np.testing.assert_array_equal(moved, relabelled)


@pytest.mark.parametrize("rollout", ["rule", "net"])
def test_call_search_scores_are_the_network_then_the_rollout_on_the_engine(rollout) -> None:
    """``calls=N`` on the true deal scores each call as: the call, the greedy network at every
    seat through the auction and the kitty, then the rule bot (or with ``rollout=net`` the
    network) at every seat for the cards, all on the reference engine (a differential test of
    the batch)."""
    from agents.rule import RuleBot

    bot = make_bot(f"nmc:best,samples=1,calls=1,rollout={rollout}")
    network = bot.network
    rule = RuleBot() if rollout == "rule" else network
    checked = exchanges = 0
    for seed in range(30):
        state = State(seed=seed)
        # calls from the first to the fourth of the auction, and the kitty's discards
        goal = Phase.EXCHANGE if seed % 3 == 2 else Phase.AUCTION
        for _ in range(seed % 4 if goal == Phase.AUCTION else 60):
            if state.phase == goal or state.phase > goal:
                break
            state.apply(network.act(seat_view(state, state.turn), random.Random(0)))
        if state.phase != goal:
            continue
        view = seat_view(state, state.turn)
        candidates = sorted(view.legal_actions(), key=lambda a: network.preferences(view)[a])[:3]
        scores = bot.call_scores(view, candidates, true_deal(state, len(candidates)))

        def play_out(world: State) -> None:
            while world.phase in (Phase.AUCTION, Phase.EXCHANGE):
                world.apply(network.act(seat_view(world, world.turn), random.Random(0)))
            while world.phase == Phase.PLAY:
                world.apply(rule.act(seat_view(world, world.turn), random.Random(0)))

        assert scores.tolist() == engine_scores(state, view.team, candidates, play_out), seed
        checked += 1
        exchanges += state.phase == Phase.EXCHANGE
    assert checked >= 20 and exchanges >= 5


@pytest.mark.parametrize("option", ["calls", "discards"])
def test_a_searched_call_or_discard_is_the_best_of_the_networks_favourites(option) -> None:
    bot = make_bot(f"nmc:best,samples=5,{option}=24")
    assert getattr(make_bot("nmc:best"), option) == 0
    with pytest.raises(ValueError, match=option):
        check_spec(f"nmc:best,{option}=-1")
    phase = Phase.AUCTION if option == "calls" else Phase.EXCHANGE
    checked = overridden = 0
    for seed in range(40):
        state = State(seed=seed)
        while state.phase < phase:
            state.apply(bot.network.act(seat_view(state, state.turn), random.Random(0)))
        if state.phase != phase:
            continue
        view = seat_view(state, state.turn)
        action, candidates, means = bot.decide_call(view, random.Random(seed))
        ranks = bot.network.preferences(view)
        legal = view.legal_actions()
        assert len(candidates) == min(4, len(legal)) and set(candidates) <= set(legal)
        assert (0 in candidates) == (0 in legal), "pass is always tried where legal"
        assert set(candidates) - {0} <= {a for a in legal if ranks[a] < 4}
        assert means[candidates.index(action)] == means.max()
        assert bot.act(view, random.Random(seed)) == action
        checked += 1
        overridden += action != bot.network.act(view, random.Random(0))
        if checked == 12:
            break
    assert checked >= 10
    if option == "calls":
        assert overridden >= 1, "the search overrides the network somewhere"


def test_a_call_search_with_belief_worlds_and_a_margin() -> None:
    """``belief`` draws the call search's worlds too (``calls`` of them, each once per
    candidate), and a margin larger than any hand's score keeps every call the network's."""
    bot = make_bot("nmc:best,samples=1,calls=8,rollout=net,belief=1")
    kept = make_bot("nmc:best,samples=1,calls=8,rollout=net,belief=1,margin=100000")
    checked = 0
    for seed in range(8):
        state = State(seed=seed)
        view = seat_view(state, state.turn)
        worlds = bot.belief_worlds(view, 3, random.Random(seed), 8)
        assert len(worlds) == 24 and (worlds[::3] == worlds[1::3]).all()
        action, candidates, means = bot.decide_call(view, random.Random(seed))
        assert action in view.legal_actions() and len(means) == len(candidates)
        favourite = kept.network.act(view, random.Random(0))
        assert kept.decide_call(view, random.Random(seed))[0] == favourite
        checked += 1
    assert checked == 8


def test_time_repeats_rounds_of_worlds_until_the_seconds_pass(monkeypatch) -> None:
    """``time=S``: rounds of ``samples`` worlds until S seconds have passed (at least one),
    the decision's scores the mean of the rounds'; without it, one round."""
    import agents.nmc as nmc_module

    bot = make_bot("nmc:best,samples=4,time=0.5")
    assert make_bot("nmc:best").time == 0.0
    with pytest.raises(ValueError, match="time"):
        check_spec("nmc:best,time=-1")
    clock = iter(np.arange(0.0, 100.0, 0.2))  # each reading 0.2 s after the one before
    monkeypatch.setattr(nmc_module.time, "perf_counter", lambda: float(next(clock)))
    rounds = iter([np.array([1.0, 5.0]), np.array([3.0, -1.0]), np.array([2.0, 2.0])])
    means = bot._timed(lambda: next(rounds))
    # started at 0.0; a round at 0.2 (< 0.5), another at 0.4 (< 0.5), stop at 0.6
    assert bot.rounds == 3 and means.tolist() == [2.0, 2.0]
    once = make_bot("nmc:best,samples=4")
    assert once._timed(lambda: np.array([1.0, 2.0])).tolist() == [1.0, 2.0]
    assert once.rounds == 1


def test_a_timed_decision_searches_more_worlds_and_stays_legal() -> None:
    bot = make_bot("nmc:best,samples=4,time=0.05")
    state = State(seed=3)
    while state.phase != Phase.PLAY:
        state.apply(bot.act(seat_view(state, state.turn), random.Random(0)))
    while state.phase == Phase.PLAY:
        view = seat_view(state, state.turn)
        action = bot.act(view, random.Random(1))
        assert action in view.legal_actions()
        state.apply(action)
    assert bot.rounds > 8 * 2  # many rounds of 4 worlds a decision in 50 ms
