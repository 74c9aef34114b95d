"""``nmc``: a trained network for the auction and the kitty, Monte Carlo search for the cards.

The shipped agent wins by its bidding (docs/training.md: its calls with the rule bot's card
play score about as much against ``rule`` as the whole agent), while its card play is no better
than the rule bot's; Monte Carlo search (``mc``, ``mcfast``) plays cards better than either,
but bids by rollouts of the rule bot.  ``nmc`` takes the better half of each: the network
(:class:`agents.neural.NeuralBot`, greedy) makes every call and the kitty discard, and each
card is chosen by :class:`agents.mc_fast.FastMCBot` (``samples`` worlds drawn exactly from the
seat's view, every distinct card rolled out by the compiled rule bot on each).  Where the search
finds several cards equally good (say, two equal cards), the network's favourite among them is
played, so that the search only overrides the network where it sees a difference.

With ``infer`` above 0 the worlds are also weighted by what the network makes of the auction
(inference): each world's weight is ``p ** infer``, where ``p`` is the probability the network
gives, with that world's cards, to every call the other seats made.  The worlds are replayed
through the auction in one compiled batch (:meth:`NetworkMCBot.call_weights`) and the search
averages each card's rollouts with those weights.  Off by default: the network is a model of
its own calls, and against other players it may not be a good one (see docs/training.md).

With ``rollout="net"`` each world is played out by the network itself at every seat (greedy,
each seat reading its own cards in that world, batched over the worlds and candidates) instead
of by the compiled rule bot.  The scores are then those of the network's own continuation
(Q of the network), the quantity a policy-improvement step from the network needs; with rule-bot
rollouts they are Q of the rule bot.  A rollout step costs a forward pass of the network over
the batch (:class:`agents.net_rollouts.RolloutNet`: sparse, compiled, the derived card-play
inputs of :mod:`agents.features` too), many times the rule bot's rollouts at equal worlds.
Measured (docs/research-log.md, "Network rollouts"): for every card, level with rule-bot
rollouts at equal worlds and behind them at equal time; for the leads alone, in the belief
model's worlds, the strongest player measured (the registry's ``search``, session 39).

With ``calls`` above 0 the network's calls are searched too (call search): each of the
network's ``CALL_CANDIDATES`` favourite calls is tried in ``calls`` worlds drawn exactly from
the seat's view, the rest of the auction and the kitty are played by the network at every
seat (greedy, batched), and the cards by the compiled rule bot; the call with the best mean
team score is made, ties going to the network's favourite.  With ``rollout=net`` the cards
after a searched call are the network's too (the search then values a call by the network's
own continuation, as a deal branch does on the dealt cards); with ``belief`` its worlds are
resampled by the belief model, as the card search's are.  With ``infer`` the worlds are
weighted by the calls seen, as for the cards (the partner's calls are the network's own, so
for them the model is exact).  ``discards`` searches the kitty discards the same way.  Both
off by default; search distillation (:mod:`train.distill`) can fit the call scores.

With ``belief`` above 0 the card search's worlds follow the learned belief model
(:mod:`agents.belief`, ``agents/checkpoints/belief/belief-best.pt``): ``BELIEF_POOL`` times
``samples`` worlds are drawn exactly (uniform, consistent with the view), each weighted by
``prod_c q_c(location of c) ** belief`` over the hidden cards, and ``samples`` of them are
resampled by those weights (systematic resampling): about the model's distribution restricted
to the consistent worlds, with equal weights (weighting 100 worlds directly left a median
effective sample size of 7, docs/research-log.md).

``top=K`` searches only the network's ``K`` favourite cards (fewer candidates, so fewer chances
for the noise of a few worlds to pick a worse card), and ``margin=P`` keeps the network's
favourite card unless the search's best scores more than ``P`` points a hand above it: the
search overrides the network only where it sees a clear difference (for a searched call,
likewise against the network's favourite call).  Both off by default.

``cards=leads`` searches only the first card of each trick (``cards=follows`` only the others)
and plays the network's card elsewhere: with the shipped network the search's follows lose to
the network's, while its leads, with the belief model's worlds (``cards=leads,samples=1000,
belief=0.5``), gain about 3 points a deal (docs/research-log.md, "Search at the leads
only").  ``cards=nullo`` searches only the cards of nullo-type contracts (declarer's and
defenders'), where a preset agent is furthest behind a search (docs/research-log.md, "The
nullo cards"), and lets the network play the suit and notrump contracts;
``cards=nullo-declarer`` only the declarer's cards there, the decisions whose search choices a
network learns by a fit (search distillation's ``cards = "nullo-declarer"``), and
``cards=nullo-defenders`` only the other side's (the defence: under american it gains +20.5
points a deal over the network alone, which a fit of the network to its choices does not learn:
docs/research-log.md, "The nullo defence").  ``cards=all``, the default, searches
every card.

``time=S`` is a time control: each searched decision repeats rounds of ``samples`` worlds
(``calls`` or ``discards`` for a searched call or discard) until ``S`` seconds have passed since
it began, at least one round, and averages the rounds.  The number of rounds depends on the
machine's speed, so with ``time`` the same seed no longer gives the same games; ``samples``
alone is the reproducible control.

Spec: ``nmc:PATH[,samples=N][,infer=X][,rollout=rule|net][,calls=N][,discards=N][,belief=X]
[,top=K][,margin=P][,cards=all|leads|follows|nullo|nullo-declarer|nullo-defenders][,time=S]``
(``PATH`` as for ``neural``: a checkpoint, a run directory, a shipped name or ``best``).  It plays the
table sizes and rules both halves play (the network's rules, ``mcfast``'s compiled core).
"""

from __future__ import annotations

import random
import time
from typing import Callable

import numpy as np
import torch

from fh_env.actions import NULLO_TYPES, PASS
from fh_env.compiled import observe as fastobs
from fh_env.compiled.engine import HAND_OVER, PLAY
from fh_env.compiled.games import FastGames
from fh_env.engine import Phase, side_of
from fh_env.rules import Rules
from fh_env.view import SeatView

from .mc_fast import FastMCBot, candidate_means
from .net_rollouts import GreedySteps, RolloutNet
from .neural import NeuralBot, masked_logits
from .compiled.rule import play_seats


#: Who plays the rest of the hand in the search's worlds: ``rule``, the compiled rule bot
#: (``mcfast``'s rollouts); ``net``, the network itself at every seat.
ROLLOUTS = ("rule", "net")
#: Which card decisions are searched (the network plays the others): every card, the first card
#: of each trick, the other cards of a trick, the cards of nullo-type contracts, the declarer's
#: cards of nullo-type contracts, or the defenders' (the side against the declarer) there.
CARD_PARTS = ("all", "leads", "follows", "nullo", "nullo-declarer", "nullo-defenders")
#: How many of the network's favourite calls (or discards) a search of them tries, pass always
#: among them when legal: each costs a batch of rollouts.
CALL_CANDIDATES = 4
#: With ``belief``: how many exact worlds are drawn per world kept by the resampling.
BELIEF_POOL = 10
#: Most games the network plays out in one batch when many searches are scored together
#: (:meth:`NetworkMCBot.decide_cards`): the observations take 10 kB a game.
TOGETHER = 8192


class NetworkMCBot:
    """The network's calls and discards; card play by Monte Carlo search (module docstring)."""

    def __init__(self, network: NeuralBot, samples: int = 100, name: str | None = None,
                 infer: float = 0.0, rollout: str = "rule", calls: int = 0,
                 discards: int = 0, belief: float = 0.0, top: int = 0,
                 margin: float = 0.0, cards: str = "all", time: float = 0.0) -> None:
        if cards not in CARD_PARTS:
            raise ValueError(f"nmc cards={cards!r}: choose one of {', '.join(CARD_PARTS)}")
        self.cards = cards
        if time < 0:
            raise ValueError(f"nmc time={time}: seconds a decision are at least 0 (0: one "
                             "round of samples)")
        self.time = float(time)
        self.rounds = 0  # search rounds run so far (rounds a decision, with time)
        if top < 0 or top == 1:
            raise ValueError(f"nmc top={top}: search the network's 2 or more favourite cards, "
                             "or 0 for every card")
        if margin < 0:
            raise ValueError(f"nmc margin={margin}: a margin in points is at least 0")
        self.top, self.margin = int(top), float(margin)
        for option, worlds in (("calls", calls), ("discards", discards)):
            if worlds < 0:
                raise ValueError(f"nmc {option}={worlds}: the worlds of its search are 0 (off) "
                                 "or more")
        self.calls, self.discards = int(calls), int(discards)
        if infer < 0:
            raise ValueError(f"nmc infer={infer}: the exponent of the weights is at least 0")
        if rollout not in ROLLOUTS:
            raise ValueError(f"nmc rollout={rollout!r}: choose one of {', '.join(ROLLOUTS)}")
        if rollout == "net" and network.net.nullo_branch:
            raise ValueError(f"nmc rollout=net: {network.name} has a nullo branch, which network "
                             "rollouts do not compile; roll out with the agent it was joined "
                             "from")
        self.rollout = rollout
        self.network = network
        self.search = FastMCBot(samples=samples)
        self.samples = samples
        self.infer = float(infer)
        if belief < 0:
            raise ValueError(f"nmc belief={belief}: the exponent of the weights is at least 0")
        self.belief = float(belief)
        self._belief = None  # the belief model, loaded on first use
        self.name = name or f"nmc:{network.name},samples={samples}"
        self._replays: dict[tuple[Rules, int], FastGames] = {}  # auction replays
        self._rollouts: dict[tuple[Rules, int], FastGames] = {}  # network rollouts
        self._policy: RolloutNet | None = None  # the network as a rollout policy, when needed

    def check_rules(self, rules: Rules) -> None:
        """Refuse rules either half cannot play (the network's, the compiled core's)."""
        self.network.check_rules(rules)
        check = getattr(self.search, "check_rules", None)
        if callable(check):
            check(rules)

    def act(self, view: SeatView, rng: random.Random) -> int:
        if view.phase == Phase.PLAY and self.searches(view):
            return self.decide(view, rng)[0]
        if view.phase == Phase.AUCTION and self.calls:
            return self.decide_call(view, rng)[0]
        if view.phase == Phase.EXCHANGE and self.discards:
            return self.decide_call(view, rng)[0]
        return self.network.act(view, rng)

    def searches(self, view: SeatView) -> bool:
        """Whether this card decision is searched (``cards``): a lead is the first card of a
        trick, a follow any other; ``nullo``, a card of a nullo-type contract;
        ``nullo-declarer``, the declarer's card there; ``nullo-defenders``, a card of the side
        against the declarer (in a double nullo the declarer's partner is not a defender)."""
        if self.cards.startswith("nullo"):
            if view.contract not in NULLO_TYPES:
                return False
            if self.cards == "nullo-declarer":
                return view.seat == view.declarer
            if self.cards == "nullo-defenders":
                players = view.rules.players
                return side_of(players, view.seat) != side_of(players, view.declarer)
            return True
        return self.cards == "all" or (self.cards == "leads") == (not view.trick)

    def decide_call(self, view: SeatView, rng: random.Random
                    ) -> tuple[int, list[int], np.ndarray | None]:
        """A call, or a discard, searched (module docstring): (the action taken, those tried,
        each one's mean team score over the worlds; None when only one is legal)."""
        preferred = self.network.preferences(view)
        legal = view.legal_actions()
        candidates = sorted(legal, key=lambda a: preferred[a])[:CALL_CANDIDATES]
        if PASS in legal and PASS not in candidates:
            candidates[-1] = PASS
        if len(candidates) == 1:
            return candidates[0], candidates, None
        worlds = self.discards if view.phase == Phase.EXCHANGE else self.calls

        def search_round() -> np.ndarray:
            games = self._worlds(view, candidates, rng, worlds)
            weights = self.call_weights(view, games[::len(candidates)]) if self.infer else None
            return self.call_scores(view, candidates, games, weights)

        means = self._timed(search_round)
        return self._choose(view, candidates, preferred, means), candidates, means

    def call_scores(self, view: SeatView, candidates: list[int], games: np.ndarray,
                    weights: np.ndarray | None = None) -> np.ndarray:
        """Each call's (weighted) mean team score over ``games`` (each world once per
        candidate, in the order of ``candidates``): the call, then the network at every seat
        to the first card, then the cards by whoever ``rollout`` names (the compiled rule bot,
        or the network) to the end of the hand."""
        k = len(candidates)
        rules = view.rules
        fast = self._batch(rules, len(games))
        fast.games[:] = games
        fast.step(np.tile(np.asarray(candidates, dtype=np.int64), len(games) // k))
        self._network_until_play(fast, rules)
        if self.rollout == "net":
            self._network_plays(fast, rules)
        else:
            everyone = np.full(len(games), (1 << rules.players) - 1, dtype=np.uint64)
            rows = np.arange(len(games), dtype=np.int64)
            play_seats(fast.games, fast._rules, self.search.rule_twin(rules).record, rows,
                       everyone)
        self.search.rollouts += len(games)
        return candidate_means(fast.games, view.team, k, weights)

    def _network_until_play(self, fast: FastGames, rules: Rules) -> None:
        """Play the network (greedy, every seat) in every game of ``fast`` until its cards
        are played or its hand is over: the rest of the auction and the kitty."""
        network = GreedySteps(self.network.net, fast, self._encode_rules(rules))
        while (rows := np.flatnonzero(fast.games["phase"] < PLAY)).size:
            network.step(rows)

    def decide(self, view: SeatView, rng: random.Random
               ) -> tuple[int, list[int], np.ndarray | None]:
        """A card decision with what the search made of it: (the card played, the distinct
        cards searched, each one's mean team score over the worlds; None when only one card
        is worth searching).  Search distillation (:mod:`train.distill`) learns from the
        scores, not only from the card chosen."""
        candidates = self.search._mc.candidates(view)
        if len(candidates) == 1:
            return candidates[0], candidates, None
        candidates, preferred = self._narrowed(view, candidates)
        means = self._timed(lambda: self._card_round(view, candidates, rng))
        return self._choose(view, candidates, preferred, means), candidates, means

    def batchable(self) -> bool:
        """Whether :meth:`decide_cards` decides as :meth:`act` would: no time control (a
        decision's rounds depend on its own clock), no searched calls or discards, no
        inference."""
        return not (self.time or self.calls or self.discards or self.infer)

    def decide_cards(self, views: list[SeatView], rngs: list[random.Random]) -> list[int]:
        """The card of each view (all in card play, all under one rules), as :meth:`decide`
        would choose it with that generator, the searches of every view scored together:
        with ``rollout=net`` their worlds are played out as one batch, one forward pass a
        step for all of them (a match of many games at once, :mod:`arena.batched`)."""
        chosen: list[int | None] = [None] * len(views)
        searched = []  # (index, candidates, the network's order or None, worlds)
        for i, (view, rng) in enumerate(zip(views, rngs)):
            if not self.searches(view):
                chosen[i] = self.network.act(view, rng)
                continue
            candidates = self.search._mc.candidates(view)
            if len(candidates) == 1:
                chosen[i] = candidates[0]
                continue
            candidates, preferred = self._narrowed(view, candidates)
            searched.append((i, candidates, preferred, self._worlds(view, candidates, rng)))
        if self.rollout == "net":
            means = self._network_scores_together([(views[i], c, w)
                                                   for i, c, _, w in searched])
        else:
            means = [self.search.score(views[i], c, w) for i, c, _, w in searched]
        for (i, candidates, preferred, _), m in zip(searched, means):
            chosen[i] = self._choose(views[i], candidates, preferred, m)
        return [int(a) for a in chosen]

    def _narrowed(self, view: SeatView, candidates: list[int]
                  ) -> tuple[list[int], np.ndarray | None]:
        """The candidates ``top`` and ``margin`` leave, in the network's order where either is
        set (then also that order, else None)."""
        if not (self.top or self.margin):
            return candidates, None
        preferred = self.network.preferences(view)
        candidates = sorted(candidates, key=lambda a: preferred[a])
        return (candidates[:self.top] if self.top else candidates), preferred

    def _worlds(self, view: SeatView, candidates: list[int], rng: random.Random,
                count: int | None = None) -> np.ndarray:
        """``count`` worlds (``samples`` unless given) drawn exactly from the view, or
        resampled by the belief model with ``belief``, each once per candidate in a row."""
        if self.belief:
            return self.belief_worlds(view, len(candidates), rng, count)
        return self.search.draw_worlds(view, len(candidates), rng, count)

    def _choose(self, view: SeatView, candidates: list[int], preferred: np.ndarray | None,
                means: np.ndarray) -> int:
        """The searched card (or call): the network's where ``margin`` keeps it, else the
        best mean, ties to the network's favourite (``candidates[0]`` is it wherever
        ``preferred`` is given or ``margin`` set)."""
        if self.margin and means.max() - means[0] <= self.margin:
            return candidates[0]  # the network's favourite stands
        best = np.flatnonzero(means == means.max())
        if len(best) == 1:
            return candidates[int(best[0])]
        if preferred is None:
            preferred = self.network.preferences(view)  # the network's order over the actions
        return min((candidates[int(i)] for i in best), key=lambda a: preferred[a])

    def _network_scores_together(self, searches: list[tuple[SeatView, list[int], np.ndarray]]
                                 ) -> list[np.ndarray]:
        """:meth:`network_scores` of several searches (view, candidates, worlds) under one
        rules, their worlds played out in batches of up to ``TOGETHER`` games."""
        out: list[np.ndarray] = []
        start = 0
        while start < len(searches):
            stop, size = start, 0
            while stop < len(searches) and (size == 0 or size + len(searches[stop][2])
                                            <= TOGETHER):
                size += len(searches[stop][2])
                stop += 1
            part = searches[start:stop]
            rules = part[0][0].rules
            fast = self._batch(rules, -(-size // 1024) * 1024)  # a few sizes, reused
            fast.games[:size] = np.concatenate([w for _, _, w in part])
            fast.games["phase"][size:] = HAND_OVER  # the padding plays no step
            fast.step(np.concatenate(
                [np.tile(np.asarray(c, dtype=np.int64), len(w) // len(c)) for _, c, w in part]
                + [np.full(len(fast.games) - size, -1, dtype=np.int64)]), skip_negative=True)
            self._network_plays(fast, rules)
            self.search.rollouts += size
            offset = 0
            for view, candidates, worlds in part:
                games = fast.games[offset:offset + len(worlds)]
                out.append(candidate_means(games, view.team, len(candidates)))
                offset += len(worlds)
            start = stop
        return out

    def _card_round(self, view: SeatView, candidates: list[int], rng: random.Random
                    ) -> np.ndarray:
        """One round of the card search: ``samples`` worlds, each candidate's mean score."""
        games = self._worlds(view, candidates, rng)
        weights = self.call_weights(view, games[::len(candidates)]) if self.infer else None
        if self.rollout == "net":
            return self.network_scores(view, candidates, games, weights)
        return self.search.score(view, candidates, games, weights)

    def _timed(self, search_round: Callable[[], np.ndarray]) -> np.ndarray:
        """One round of a search, or with ``time`` rounds until that many seconds have passed
        since the decision began (at least one): the mean of the rounds' means, equal rounds
        of worlds weighing alike."""
        started = time.perf_counter()
        total, rounds = search_round(), 1
        while self.time and time.perf_counter() - started < self.time:
            total = total + search_round()
            rounds += 1
        self.rounds += rounds
        return total / rounds

    def belief_worlds(self, view: SeatView, repeat: int, rng: random.Random,
                      count: int | None = None) -> np.ndarray:
        """``count`` worlds (``samples`` unless given) resampled by the belief model's
        weights from a larger exact pool (module docstring), as fast-core records, each
        ``repeat`` times in a row."""
        from .belief import BELIEF_PATH, games_log_weights, load_belief

        count = self.samples if count is None else count
        if self._belief is None:
            self._belief = load_belief(BELIEF_PATH)
        pool = self.search.draw_worlds(view, 1, rng, count * BELIEF_POOL)
        logw = games_log_weights(view, self._belief.predict(view), pool, self.belief)
        cdf = np.cumsum(np.exp(logw - logw.max()))
        picks = np.searchsorted(cdf / cdf[-1], (rng.random() + np.arange(count)) / count)
        return np.repeat(pool[np.minimum(picks, len(pool) - 1)], repeat)

    def network_scores(self, view: SeatView, candidates: list[int], games: np.ndarray,
                       weights: np.ndarray | None = None) -> np.ndarray:
        """As :meth:`agents.mc_fast.FastMCBot.score`, with the rest of the hand played by the
        network (greedy, every seat) instead of the rule bot: ``games`` holds each world once
        per candidate, in the order of ``candidates``; returns each one's (weighted) mean team
        score."""
        k = len(candidates)
        fast = self._batch(view.rules, len(games))
        fast.games[:] = games
        fast.step(np.tile(np.asarray(candidates, dtype=np.int64), len(games) // k))
        self._network_plays(fast, view.rules)
        self.search.rollouts += len(games)
        return candidate_means(fast.games, view.team, k, weights)

    def _network_plays(self, fast: FastGames, rules: Rules) -> None:
        """Play the network (greedy, every seat) in every game of ``fast`` from its cards to
        the end of its hand, one batched forward pass a step (:class:`RolloutNet`)."""
        network = self.network
        if self._policy is None:
            self._policy = RolloutNet(network.net)
        policy = self._policy
        encode = self._encode_rules(rules)
        n = len(fast.games)
        obs = np.zeros((n, network.net.obs_size), dtype=np.float32)
        seats = np.zeros(n, dtype=np.int64)
        masks = np.zeros((n, fast.num_actions), dtype=np.int8)
        actions = np.full(n, -1, dtype=np.int64)
        while (rows := np.flatnonzero(fast.games["phase"] == PLAY)).size:
            fastobs.observe_turn(fast, rows, obs, seats, encode)
            fastobs.action_masks(fast, out=masks)
            actions.fill(-1)
            actions[rows] = policy.act(obs, rows, masks)
            fast.step(actions, skip_negative=True)

    def _encode_rules(self, rules: Rules) -> Rules | None:
        """As NeuralBot.act encodes (:meth:`agents.neural.NeuralBot.encoding_rules`)."""
        return self.network.encoding_rules(rules)

    def _batch(self, rules: Rules, size: int) -> FastGames:
        """A reusable batch of ``size`` games under ``rules`` for the network's rollouts."""
        fast = self._rollouts.get((rules, size))
        if fast is None:
            fast = self._rollouts[(rules, size)] = FastGames(size, rules)
        return fast

    def call_weights(self, view: SeatView, worlds: np.ndarray) -> np.ndarray | None:
        """``p ** infer`` for each world (fast-core records), ``p`` the network's probability
        of the calls the other seats made, given that world's dealt cards (scaled so that the
        largest weight is 1); None when no other seat has called yet."""
        if not any(seat != view.seat for seat, _ in view.calls):
            return None
        loglik = self.call_loglik(view, worlds)
        return np.exp(self.infer * (loglik - loglik.max()))

    def call_loglik(self, view: SeatView, worlds: np.ndarray) -> np.ndarray:
        """For each world, the log-probability the network gives to the calls of the other
        seats (``view.calls``), each seat seeing its cards in that world."""
        calls = list(view.calls)
        n = len(worlds)
        key = (view.rules, n)
        fast = self._replays.get(key)
        if fast is None:
            fast = self._replays[key] = FastGames(n, view.rules)
        # Each world back at the start of its auction: its dealt cards, this hand's dealer,
        # and the game so far (the scores and hands played that the observations show).
        fast.set_deals(worlds["dealt_hands"], worlds["dealt_kitty"], worlds["dealer"],
                       check=False)
        fast.games["scores"] = worlds["scores"]
        fast.games["hands_played"] = worlds["hands_played"]
        network = self.network
        network.check_rules(view.rules)
        encode = self._encode_rules(view.rules)
        rows = np.arange(n, dtype=np.int64)
        obs = np.zeros((n, network.net.obs_size), dtype=np.float32)
        seats = np.zeros(n, dtype=np.int64)
        masks = np.zeros((n, fast.num_actions), dtype=np.int8)
        loglik = np.zeros(n)
        for seat, action in calls:
            if seat != view.seat:
                fastobs.observe_turn(fast, rows, obs, seats, encode)
                fastobs.action_masks(fast, out=masks)
                with torch.no_grad():
                    logits, _ = network.net(torch.from_numpy(obs))
                    logp = torch.log_softmax(masked_logits(logits, torch.from_numpy(masks)), 1)
                loglik += logp[:, action].double().numpy()
            fast.step(np.full(n, action, dtype=np.int64))
        return loglik


def make_nmc(name: str, arg: str, samples: int = 100, infer: float = 0.0,
             rollout: str = "rule", calls: int = 0, discards: int = 0,
             belief: float = 0.0, top: int = 0, margin: float = 0.0, cards: str = "all",
             time: float = 0.0) -> NetworkMCBot:
    """Registry factory: ``nmc:PATH[,samples=N][,infer=X][,rollout=rule|net][,calls=N]
    [,discards=N][,belief=X][,top=K][,margin=P]
    [,cards=all|leads|follows|nullo|nullo-declarer|nullo-defenders][,time=S]``."""
    network = NeuralBot.load(arg, greedy=True)  # resolves best, best-PRESET, older names
    return NetworkMCBot(network, samples=samples, name=name, infer=infer, rollout=rollout,
                        calls=calls, discards=discards, belief=belief, top=top,
                        margin=margin, cards=cards, time=time)
