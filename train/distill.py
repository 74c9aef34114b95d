"""Search distillation: the network learns the card play of ``nmc`` from the search's scores.

Why: ``nmc`` (the network's calls, Monte Carlo search for the cards) beats ``rule`` by about
+41 a deal where the network alone makes +17, and the difference is all card play.  Imitating
only the card the search chose (``bc_teacher = "nmc:..."``; docs/research-log.md) made
the network worse: a cross-entropy on one label per decision treats a card the search scores 2
points below the best like one it scores 200 below.  Here every legal card of every searched
decision carries the search's mean team score (the cards of a run with no unseen card between
them share their run's score, :func:`agents.mc.play_groups`), and the network is fitted to
``softmax(score / temperature)``: it learns which mistakes are expensive.  Calls and discards
keep the teacher network's own choices as labels, so the auction stays the one it plays
(unless the teacher searches its calls too, ``nmc:...,calls=N`` with ``collect --search``;
the searched calls played worse than the network's own: docs/training.md).

Two steps, so that the slow one runs in parallel and is kept:

* ``collect``: games of the teacher on every seat (or of a ``--player`` network, for a DAgger
  round in the states the student reaches), each decision stored as its compiled game record
  (548 bytes; the observation and the legal mask are recomputed from it exactly at fitting
  time), the label and the scores.  One ``.npz`` file per call, written atomically.  With
  ``--search deal`` the scores come from playing the network's favourite actions out on the
  dealt cards instead of from the search (:mod:`train.branches`).
* ``fit``: start from an agent (``--init``), fit on some files for some epochs, hold a share
  of them out, and report the agreement with the teacher and the *regret* on held-out card
  decisions: the points a deal the network's greedy card gives up against the search's best,
  by the search's own scores.  Writes an agent checkpoint like ``fh-train``'s ``agent.pt``.

    python -m train.distill collect --teacher nmc:ppo-selfplay --hands 20000 --seed 401 --out d.npz
    python -m train.distill fit --init ppo-selfplay --data d.npz --out runs/distill/agent.pt
"""

from __future__ import annotations

import argparse
import copy
import math
import random
import signal
import sys
import zipfile
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import torch

from arena.duplicate import progress_bar
from agents.mc import play_groups
from agents.neural import NeuralBot, PolicyNet, masked_logits
from agents.nmc import NetworkMCBot
from fh_env import observe
from fh_env.compiled import observe as fastobs
from fh_env.compiled.engine import AUCTION, PLAY
from fh_env.compiled.games import FastGames
from fh_env.engine import side_of
from fh_env.envs.vector import VectorEnv, game_seed
from fh_env.rules import Rules
from fh_env.view import seat_view

from .branches import DealBranches
from .checkpoint import save_atomic
from .model import widen

#: The seed stream of distillation deals (PPO rollouts use 1 << 20, imitation 1 << 21).
STREAM = 1 << 22
FORMAT = "fivehundred-rl/distill-data"
#: ``collect --search``: what is scored, and by what (see ``--help``).
SEARCHES = ("cards", "calls", "both", "deal-calls", "deal")


# ---------------------------------------------------------------------- collecting
#: One step's stored decisions: (game records, labels, scores), appended whole.
_Step = tuple[np.ndarray, np.ndarray, np.ndarray]


def collect(teacher: NetworkMCBot, hands: int, seed: int, num_envs: int = 64,
            player: NeuralBot | None = None, progress: bool = True,
            opponent: str | None = None, cards: bool = True, deal: str | None = None,
            nullo_calls: bool = False) -> dict[str, np.ndarray]:
    """``hands`` hands of ``teacher`` (or of ``player``, labelled by ``teacher``) on every
    seat: each decision's game record, the teacher's action and, where the search ran, the
    score of every legal action (NaN elsewhere).

    With ``opponent`` (a bot spec, e.g. ``rule`` or ``mcfast:samples=20``), the network holds
    one side of each table (a partnership, or one seat of three) and that bot every other
    seat, the network's side moving on at every hand of a table; only the network's
    decisions are searched and stored.  Why: self-play states are those of the network
    against itself, and the steps learn to play against it; these are the states of the
    network against another player.

    The teacher searches the cards and, with its ``calls`` above 0, the calls; with ``cards``
    false only the calls, and only the auction's decisions are stored.  With ``deal`` the
    network's decisions are scored by branches on the dealt cards instead
    (:mod:`train.branches`; the teacher's ``calls`` must be 0, ``cards`` false): ``"calls"``
    its calls and kitty discards (only they are stored), ``"all"`` every decision; with
    ``nullo_calls`` a call's branches try the favourite nullo-type call too
    (:meth:`train.branches.DealBranches.choose`).

    Interrupted (Ctrl-C; ``main`` turns SIGTERM into the same), it returns what it has: every
    decision stands alone, so a long collection can be cut short without losing its work."""
    rules = _check_collect(teacher, player, cards, deal, nullo_calls)
    tables = _Tables(teacher, player, rules, min(num_envs, hands), seed, opponent, cards, deal,
                     nullo_calls)
    steps: list[_Step] = []
    started, active = tables.n, np.ones(tables.n, dtype=bool)
    bar = progress_bar(hands, "hands", progress)
    try:
        while active.any():
            step, actions = tables.decide(np.flatnonzero(active))
            steps.append(step)  # one append per step: an interruption keeps whole steps only
            for i in tables.play(actions):
                bar.update(1)
                if started < hands:
                    started += 1
                else:
                    active[i] = False
    except KeyboardInterrupt:
        print(f"\ninterrupted: keeping the {sum(len(x[1]) for x in steps)} decisions so far",
              file=sys.stderr)
    bar.close()
    if not steps:
        raise ValueError("interrupted before the first decision: nothing to keep")
    records, labels, scores = zip(*steps)
    return {"records": np.concatenate(records), "labels": np.concatenate(labels),
            "scores": np.concatenate(scores)}


def _check_collect(teacher: NetworkMCBot, player: NeuralBot | None, cards: bool,
                   deal: str | None, nullo_calls: bool = False) -> Rules:
    """The teacher's rules, once :func:`collect`'s options are known to agree: refused before
    any table is dealt, so a bad collection fails at once rather than after its first step."""
    network = teacher.network
    rules = network.rules
    if rules is None:
        raise ValueError("the teacher's network names no rules")
    if not cards and not teacher.calls and not deal:
        raise ValueError("nothing to search: the cards are skipped and the teacher's calls=0")
    if deal is not None and (teacher.calls or cards or deal not in ("calls", "all")):
        raise ValueError(f"deal={deal!r}: deal branches score the calls (and discards) or "
                         "every decision, alone (no calls=N in the teacher, cards false)")
    if nullo_calls and deal is None:
        raise ValueError("nullo calls are candidates of deal branches only (--search deal or "
                         "deal-calls)")
    for bot in (network, player):
        if bot is not None and bot.rules != rules:
            raise ValueError(f"{bot.name} plays other rules than the teacher's network")
    return rules


class _Tables:
    """:func:`collect`'s ``n`` tables side by side and who plays them, one decision a step.

    Why a class: each step reads the same state (the tables, the opponent's side per table,
    the random streams), and the random numbers must be drawn in one fixed order (the
    opponent's per-table streams, then the teacher's one stream row by row) for a seed to
    give the same data; each helper below does one part of a step, in that order."""

    def __init__(self, teacher: NetworkMCBot, player: NeuralBot | None, rules: Rules, n: int,
                 seed: int, opponent: str | None, cards: bool, deal: str | None,
                 nullo_calls: bool = False) -> None:
        self.teacher, self.network, self.player = teacher, teacher.network, player
        self.cards, self.deal, self.n = cards, deal, n
        self.venv = VectorEnv(n, rules, seed=game_seed(seed, STREAM, 0))
        self.other: Callable[..., np.ndarray] | None = (
            _opponent(opponent, rules) if opponent else None)
        self.branches = (DealBranches(self.network, rules, self.other, nullo_calls=nullo_calls,
                                      rng=random.Random(f"{seed}/branches")) if deal else None)
        # the side the network holds, by table (the next side every hand); with two sides
        # the opponent's partnership is seat parity 0 on even tables, as it always was
        self.ours = (np.arange(n) + 1) % rules.sides
        self.their_rngs = [random.Random(f"{seed}/opponent/{i}") for i in range(n)]
        self.rng = random.Random(seed)

    def decide(self, rows: np.ndarray) -> tuple[_Step, np.ndarray]:
        """This step's stored decisions of the active tables ``rows``, and every table's
        action (-1 where a table is done)."""
        games = self.venv.fast.games
        actions = np.full(self.n, -1, dtype=np.int64)
        rows = self._their_moves(rows, actions)
        obs, mask = self.venv.obs[rows], self.venv.mask[rows]
        labels = _greedy(self.network.net, obs, mask)
        # without a player, played is labels itself: the search's choices are played
        played = labels if self.player is None else _greedy(self.player.net, obs, mask)
        q = np.full((len(rows), self.venv.num_actions), np.nan, dtype=np.float32)
        phase = games["phase"][rows]
        searched = self._search(rows, phase, labels, played, q)
        self._branch_scores(games, rows, phase, q)
        step = self._store(games, rows, phase, labels, q, searched)
        actions[rows] = played
        return step, actions

    def play(self, actions: np.ndarray) -> list[int]:
        """Step the tables; the ones whose hand ended, the network moved to the next side."""
        *_, infos = self.venv.step(actions)
        over = np.flatnonzero(infos["hand_over"]).tolist()
        for i in over:
            self.ours[i] = (self.ours[i] + 1) % self.venv.rules.sides
        return over

    def _their_moves(self, rows: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """Fill in the opponent's actions on its seats of ``rows`` (its own per-table random
        streams, so the teacher's stream is untouched); the rows left to the network."""
        if self.other is None:
            return rows
        mine = side_of(self.venv.players, self.venv.seat[rows]) == self.ours[rows]
        actions[rows[~mine]] = self.other(self.venv.fast, rows[~mine], self.venv.mask,
                                          self.their_rngs.__getitem__)
        return rows[mine]

    def _search(self, rows: np.ndarray, phase: np.ndarray, labels: np.ndarray,
                played: np.ndarray, q: np.ndarray) -> np.ndarray:
        """The teacher's search on the decisions it scores (cards if ``cards``, those its
        ``cards=`` names; calls with its ``calls`` above 0), row by row from its one random
        stream: its choice becomes the label (and the move, without a player) and its means
        the scores.  Returns which rows were searched."""
        searched = ((phase == PLAY) & self.cards) | ((phase == AUCTION) & bool(self.teacher.calls))
        for k in np.flatnonzero(searched).tolist():
            view = seat_view(self.venv.states[int(rows[k])], int(self.venv.seat[rows[k]]))
            card = phase[k] == PLAY
            if card and not self.teacher.searches(view):
                searched[k] = False
                continue
            decide = self.teacher.decide if card else self.teacher.decide_call
            action, candidates, means = decide(view, self.rng)
            labels[k] = action
            if means is not None:
                value = dict(zip(candidates, means.tolist()))
                # a card's score goes to every card of its run; a call's to itself
                for group in (play_groups(view) if card else [[c] for c in candidates]):
                    q[k, group] = value[group[0]]
            if self.player is None:
                played[k] = action
        return searched

    def _branch_scores(self, games: np.ndarray, rows: np.ndarray, phase: np.ndarray,
                       q: np.ndarray) -> None:
        """With ``deal``, the scores of the network's favourite actions played out on the dealt
        cards (:mod:`train.branches`): the calls and discards, or every decision."""
        if self.branches is None:
            return
        b = np.flatnonzero(phase < PLAY if self.deal == "calls" else phase <= PLAY)
        if not b.size:
            return
        with torch.no_grad():
            logits = self.network.net(torch.from_numpy(self.venv.obs[rows[b]]))[0].numpy()
        q[b] = self.branches.scores(games[rows[b]],
                                    self.ours[rows[b]] if self.other is not None else None,
                                    logits, self.venv.mask[rows[b]])

    def _store(self, games: np.ndarray, rows: np.ndarray, phase: np.ndarray,
               labels: np.ndarray, q: np.ndarray, searched: np.ndarray) -> _Step:
        """The step's kept decisions, copied and narrowed for storage: all of them where
        every card is searched or every decision branched, else only what was scored (the
        cards the teacher's ``cards=`` names, the calls and discards of ``deal="calls"``,
        the auction of a calls-only search)."""
        if self.cards and self.teacher.cards != "all":
            keep = searched
        else:
            keep = slice(None) if self.cards or self.deal == "all" else (
                phase < PLAY if self.deal else phase == AUCTION)
        return (games[rows][keep].copy(), labels[keep].astype(np.int16),
                q[keep].astype(np.float16))


def _opponent(spec: str, rules: Rules):
    """The batched player of the bot ``spec`` (:func:`arena.batched.batch_player`), or for a
    bot with none (``mcfast``) the row-by-row player of :func:`arena.batched.view_player`."""
    from arena.batched import batch_player, view_player
    from agents.registry import make_bot

    bot = make_bot(spec, rules)
    return batch_player(bot, rules) or view_player(bot)


def _greedy(net: PolicyNet, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(obs))
        return masked_logits(logits, torch.from_numpy(mask)).argmax(1).numpy().astype(np.int64)


def save_data(data: dict[str, np.ndarray], rules: Rules, path: str | Path) -> Path:
    """Write ``data`` with its rules to ``path`` atomically (``.npz``, no pickles)."""
    arrays = dict(format=np.array(FORMAT), rules=np.array(repr(rules.to_dict())), **data)
    return save_atomic(arrays, path, lambda a, f: np.savez(f, **a))


def load_data(paths: Sequence[str | Path], rules: Rules) -> dict[str, np.ndarray]:
    """Read and join collected files; each must hold ``rules``' decisions."""
    parts: dict[str, list[np.ndarray]] = {"records": [], "labels": [], "scores": []}
    for path in paths:
        try:
            with np.load(path, allow_pickle=False) as f:
                if str(f["format"]) != FORMAT:
                    raise ValueError(f"{path} is not distillation data")
                if str(f["rules"]) != repr(rules.to_dict()):
                    raise ValueError(f"{path} holds decisions of other rules than the network's")
                for key in parts:
                    parts[key].append(f[key])
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as err:
            raise ValueError(f"cannot read {path}: {err}") from None
    return {k: np.concatenate(v) for k, v in parts.items()}


# ---------------------------------------------------------------------- fitting
class Batches:
    """Observations and legal masks of stored decisions, recomputed from their game records."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.obs_size = observe.layout(rules.players).size
        self._fast: dict[int, FastGames] = {}  # one batch of records per batch size

    def __call__(self, records: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        size = len(records)
        fast = self._fast.get(size)
        if fast is None:
            fast = self._fast[size] = FastGames(size, self.rules)
        fast.games[:] = records
        obs = np.zeros((size, self.obs_size), dtype=np.float32)
        fastobs.observe_turn(fast, np.arange(size, dtype=np.int64), obs,
                             np.zeros(size, dtype=np.int64))
        return torch.from_numpy(obs), torch.from_numpy(fastobs.action_masks(fast))


def targets(labels: torch.Tensor, scores: torch.Tensor, mask: torch.Tensor,
            temperature: float | torch.Tensor, prior: torch.Tensor | None = None
            ) -> torch.Tensor:
    """Per decision, the distribution to fit: ``softmax(score / temperature)`` over the legal
    actions where the search scored them (``temperature`` 0: all on the teacher's card), the
    teacher's label elsewhere.

    With ``prior`` (log-probabilities of the starting network, ``--anchor``), the fit is a
    step from that network rather than a copy of the search: ``prior * exp(score /
    temperature)`` where the search ran, ``prior`` itself elsewhere (the policy-improvement
    target of MPO and AWR).  Where the search's scores are within the noise of each other the
    network keeps its own choice; only differences large against ``temperature`` move it.
    ``temperature`` may be one per decision (a tensor, all above 0): calls and cards apart."""
    out = torch.zeros(mask.shape, dtype=torch.float32)
    out[torch.arange(len(labels)), labels.long()] = 1.0
    if prior is not None:
        out = prior.exp()
    searched = ~torch.isnan(scores).all(1)
    per_row = isinstance(temperature, torch.Tensor)
    if (per_row or temperature > 0) and searched.any():
        s = scores[searched].float()
        t = temperature[searched][:, None] if per_row else temperature
        s = torch.where(torch.isnan(s) | (mask[searched] == 0), torch.full_like(s, -math.inf),
                        s / t)
        if prior is not None:
            s = s + prior[searched]
        out[searched] = torch.softmax(s, dim=1)
    return out


def regret(logits: torch.Tensor, scores: torch.Tensor) -> tuple[float, int]:
    """The summed points (by the search's scores) that the greedy action gives up against the
    best, over searched decisions where the greedy action was scored, and their number.  (A
    deal branch scores a few favourite actions only; a fitted network may come to prefer one
    it did not score, and that decision then says nothing about its regret.)"""
    s = scores.float()
    pick = logits.argmax(1)
    chosen = s.gather(1, pick[:, None]).squeeze(1)
    counted = ~torch.isnan(chosen)
    if not counted.any():
        return 0.0, 0
    best = torch.nan_to_num(s[counted], nan=-math.inf).max(1).values
    return float((best - chosen[counted]).sum()), int(counted.sum())


def fit(net: PolicyNet, data: dict[str, np.ndarray], rules: Rules, epochs: int = 2,
        learning_rate: float = 2e-4, temperature: float = 5.0, batch: int = 1024,
        holdout: float = 0.05, seed: int = 0, progress: bool = True,
        anchor: bool = False, call_temperature: float | None = None
        ) -> list[dict[str, float]]:
    """Fit ``net`` to the teacher's targets (Adam, the learning rate decaying linearly to 0);
    return the held-out agreement and regret before fitting and after each epoch.  ``anchor``:
    targets relative to ``net`` as it starts (:func:`targets`).  ``call_temperature``: the
    temperature of scored calls and discards (``nmc``'s ``calls``, deal branches), whose
    scores are whole hands apart and noisier than a card's; default ``temperature``."""
    if call_temperature is not None and (call_temperature <= 0 or temperature <= 0):
        raise ValueError("a call temperature needs both temperatures above 0")
    prior_net = copy.deepcopy(net).eval() if anchor else None
    gen = np.random.default_rng(seed)
    size = len(data["labels"])
    order = gen.permutation(size)
    n_out = int(size * holdout)
    held, train_idx = order[:n_out], order[n_out:]
    batches = Batches(rules)
    opt = torch.optim.Adam(net.parameters(), lr=learning_rate)
    steps = epochs * math.ceil(len(train_idx) / batch)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: max(0.0, 1 - i / max(1, steps)))
    history = [dict(epoch=0, **evaluate(net, data, held, batches, batch))]
    _report(history[-1], progress)
    for epoch in range(1, epochs + 1):
        net.train()
        gen.shuffle(train_idx)
        bar = progress_bar(len(train_idx), f"epoch {epoch}", progress)
        for start in range(0, len(train_idx), batch):
            idx = np.sort(train_idx[start:start + batch])
            obs, mask = batches(data["records"][idx])
            labels = torch.from_numpy(data["labels"][idx].astype(np.int64))
            scores = torch.from_numpy(data["scores"][idx].astype(np.float32))
            logits, _ = net(obs)
            logp = torch.log_softmax(masked_logits(logits, mask), dim=1)
            prior = None
            if prior_net is not None:
                with torch.no_grad():
                    prior = torch.log_softmax(masked_logits(prior_net(obs)[0], mask), dim=1)
            temp: float | torch.Tensor = temperature
            if call_temperature is not None:
                calls = torch.from_numpy(data["records"]["phase"][idx] < PLAY)
                temp = torch.where(calls, call_temperature, temperature)
            target = targets(labels, scores, mask, temp, prior)
            loss = -(target * logp).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
            sched.step()
            bar.update(len(idx))
        bar.close()
        history.append(dict(epoch=epoch, **evaluate(net, data, held, batches, batch)))
        _report(history[-1], progress)
    net.eval()
    return history


def evaluate(net: PolicyNet, data: dict[str, np.ndarray], idx: np.ndarray, batches: Batches,
             batch: int = 2048) -> dict[str, float]:
    """Agreement with the teacher's labels (calls and cards apart) and the mean regret a
    searched card decision, and a searched call, on ``idx``."""
    net.eval()
    agree = {True: [0, 0], False: [0, 0]}
    lost, searched = 0.0, 0
    call_lost, calls_searched = 0.0, 0
    with torch.no_grad():
        for start in range(0, len(idx), batch):
            part = np.sort(idx[start:start + batch])
            records = data["records"][part]
            obs, mask = batches(records)
            logits = masked_logits(net(obs)[0], mask)
            labels = torch.from_numpy(data["labels"][part].astype(np.int64))
            scores = torch.from_numpy(data["scores"][part].astype(np.float32))
            hit = (logits.argmax(1) == labels).numpy()
            play = records["phase"] == PLAY
            for kind in (True, False):
                agree[kind][0] += int(hit[play == kind].sum())
                agree[kind][1] += int((play == kind).sum())
            r, k = regret(logits[play], scores[play])
            lost, searched = lost + r, searched + k
            r, k = regret(logits[~play], scores[~play])
            call_lost, calls_searched = call_lost + r, calls_searched + k
    net.train()
    return {"card_agreement": agree[True][0] / max(1, agree[True][1]),
            "call_agreement": agree[False][0] / max(1, agree[False][1]),
            "regret": lost / max(1, searched), "searched": searched,
            "call_regret": call_lost / max(1, calls_searched), "calls_searched": calls_searched}


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(w) for w in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1:
        raise ValueError(f"--hidden wants widths like 1024,1024, not {text!r}")
    return sizes


def _report(row: dict[str, float], progress: bool) -> None:
    if progress:
        print(f"epoch {row['epoch']}: cards agree {row['card_agreement']:.1%}, calls agree "
              f"{row['call_agreement']:.1%}, regret {row['regret']:.3f} points a searched "
              f"card ({row['searched']} held out)"
              + (f", call regret {row['call_regret']:.3f} ({row['calls_searched']})"
                 if row["calls_searched"] else ""), file=sys.stderr, flush=True)


# ---------------------------------------------------------------------- one step, as a function
def check_fit_options(epochs: int, temperature: float, learning_rate: float, holdout: float,
                      call_temperature: float | None) -> None:
    """ValueError naming the first bad option of a fit."""
    if epochs < 1:
        raise ValueError(f"--epochs must be at least 1, not {epochs}")
    if temperature < 0:
        raise ValueError(f"--temperature must be at least 0, not {temperature}")
    if learning_rate <= 0:
        raise ValueError(f"--learning-rate must be above 0, not {learning_rate}")
    if not 0 <= holdout < 1:
        raise ValueError(f"--holdout must be in [0, 1), not {holdout}")
    if call_temperature is not None and min(call_temperature, temperature) <= 0:
        raise ValueError("--call-temperature must be above 0, with --temperature above 0 too")


def fit_agent(init: str | Path, data_paths: Sequence[str | Path], out: str | Path,
              epochs: int = 2, learning_rate: float = 2e-4, temperature: float = 5.0,
              call_temperature: float | None = None, anchor: bool = False,
              features: bool = False, hidden: list[int] | None = None, holdout: float = 0.05,
              seed: int = 0, progress: bool = True) -> list[dict[str, float]]:
    """Fit the agent ``init`` (a name or file) on collected files and write the result to
    ``out`` atomically, as an agent checkpoint; return the fit's held-out history."""
    from agents.neural import resolve_checkpoint
    from train.checkpoint import read_checkpoint

    check_fit_options(epochs, temperature, learning_rate, holdout, call_temperature)
    torch.manual_seed(seed)
    path = resolve_checkpoint(init)
    agent = read_checkpoint(path)
    bot = NeuralBot.load(path, greedy=True)
    data = load_data(data_paths, bot.rules)
    if features:
        bot.net = bot.net.with_features()
        agent["policy"]["features"] = True
    if hidden:
        bot.net = widen(bot.net, hidden)
        agent["policy"]["hidden_sizes"] = list(hidden)
    history = fit(bot.net, data, bot.rules, epochs, learning_rate, temperature,
                  holdout=holdout, seed=seed, anchor=anchor,
                  call_temperature=call_temperature, progress=progress)
    agent["policy"]["state_dict"] = {k: v.detach().clone() for k, v in
                                     bot.net.state_dict().items()}
    agent["distill"] = {"data": [Path(p).name for p in data_paths], "history": history,
                        "temperature": temperature, "epochs": epochs, "anchor": anchor,
                        "call_temperature": call_temperature}
    save_atomic(agent, out)
    return history


def join_nullo_branch(base: str | Path, nullo: str | Path, out: str | Path) -> Path:
    """Write ``base`` with ``nullo``'s network as its nullo branch (``PolicyNet.nullo``): the
    nullo contracts' card play from ``nullo``, everything else from ``base``, atomically to
    ``out``.  Both agents must play the same rules with networks of the same shape.

    Why: a network fitted on nullo play gives up suit play (docs/research-log.md, "Nullo card
    play learned by imitation"); joined, each part plays what it plays best."""
    from agents.neural import CheckpointError, resolve_checkpoint
    from train.checkpoint import read_checkpoint

    agent = read_checkpoint(resolve_checkpoint(base))
    main_bot, nullo_bot = NeuralBot.load(base), NeuralBot.load(nullo)
    if main_bot.rules != nullo_bot.rules:
        raise CheckpointError(f"{base} and {nullo} play other rules")
    try:
        joined = main_bot.net.with_nullo_branch(nullo_bot.net)
    except ValueError as err:
        raise CheckpointError(f"{base} and {nullo}: {err}") from None
    agent["policy"]["nullo_branch"] = True
    agent["policy"]["state_dict"] = {k: v.detach().clone() for k, v in
                                     joined.state_dict().items()}
    agent["nullo_branch"] = {"base": str(base), "nullo": str(nullo)}
    return save_atomic(agent, out)


def make_teacher(spec: str, search: str) -> NetworkMCBot:
    """The ``nmc`` bot of a collection, checked against what ``search`` scores."""
    from agents.registry import make_bot

    teacher = make_bot(spec)
    if not isinstance(teacher, NetworkMCBot):
        raise ValueError(f"--teacher {spec!r} is not an nmc bot")
    if (search in ("calls", "both")) != (teacher.calls > 0):
        raise ValueError(f"--search {search} and --teacher {spec!r}: searching calls takes "
                         "calls=N in the teacher, and only then")
    return teacher


#: ``--search`` -> (cards searched, what deal branches score).
SEARCH_PARTS = {"cards": (True, None), "calls": (False, None), "both": (True, None),
                "deal-calls": (False, "calls"), "deal": (False, "all")}


# ---------------------------------------------------------------------- command line
def build_parser() -> argparse.ArgumentParser:
    """``python -m train.distill collect|fit|join``'s options."""
    parser = argparse.ArgumentParser(prog="python -m train.distill", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play the teacher and store its decisions and scores")
    c.add_argument("--teacher", default="nmc:ppo-selfplay", help="an nmc bot spec")
    c.add_argument("--player", help="a neural agent whose moves are played (DAgger); "
                                    "default: the teacher's")
    c.add_argument("--hands", type=int, required=True,
                   help="hands to play (Ctrl-C stops early and keeps what was collected)")
    c.add_argument("--seed", type=int, required=True, help="the deals' and the search's seed")
    c.add_argument("--num-envs", type=int, default=64, help="games played side by side")
    c.add_argument("--search", choices=SEARCHES, default="cards",
                   help="which decisions are scored: cards, calls or both by the teacher's "
                        "search (calls: the teacher needs calls=N, worlds a call); "
                        "deal-calls: the network's calls and kitty discards by branches on "
                        "the dealt cards (train/branches.py), deal: its every decision so")
    c.add_argument("--opponent", metavar="BOT",
                   help="a bot (rule, neural:..., mcfast:samples=20, any spec) holding every "
                        "seat but the network's side (a partnership, or one seat of three), "
                        "which moves on every hand, and playing those seats in the deal "
                        "branches; only the network's decisions are stored (rule, random and "
                        "neural play batched; another bot is asked row by row, at its own "
                        "speed)")
    c.add_argument("--nullo-calls", action="store_true",
                   help="deal branches of a call try the network's favourite nullo-type call "
                        "too, so a network that never bids one can learn where it scores")
    c.add_argument("--out", required=True, help="the .npz file to write")
    f = sub.add_parser("fit", help="fit an agent to collected decisions")
    f.add_argument("--init", required=True, help="the agent to start from (name or file)")
    f.add_argument("--data", nargs="+", required=True, help="collected .npz files")
    f.add_argument("--epochs", type=int, default=2)
    f.add_argument("--learning-rate", type=float, default=2e-4)
    f.add_argument("--temperature", type=float, default=5.0,
                   help="points; 0 fits the teacher's chosen card only")
    f.add_argument("--call-temperature", type=float,
                   help="points; the temperature of scored calls and discards (collected "
                        "with nmc's calls=N or --search deal-calls), default --temperature")
    f.add_argument("--anchor", action="store_true",
                   help="fit the starting network's policy times exp(score / temperature), "
                        "a step from it, instead of the search's scores alone")
    f.add_argument("--hidden", metavar="W,W,...",
                   help="widen the starting network to these hidden layers first (as wide or "
                        "wider, as many or more; it starts computing exactly what it did)")
    f.add_argument("--features", action="store_true",
                   help="let the network read the derived card-play inputs of agents.features "
                        "(cards gone, masters, who is winning the trick); they start with zero "
                        "weights, so it starts computing exactly what it did")
    f.add_argument("--holdout", type=float, default=0.05)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--out", required=True, help="the agent checkpoint to write")
    j = sub.add_parser("join", help="give an agent another agent's network as its nullo "
                                    "branch (the card play of nullo contracts)")
    j.add_argument("--base", required=True, help="the agent that plays everything else")
    j.add_argument("--nullo", required=True, help="the agent that plays the nullos' cards")
    j.add_argument("--out", required=True, help="the agent checkpoint to write")
    return parser


def _collect_command(args: argparse.Namespace) -> None:
    if args.hands < 1:
        raise ValueError(f"--hands must be at least 1, not {args.hands}")
    teacher = make_teacher(args.teacher, args.search)
    # SIGINT and SIGTERM (even in a background job, where SIGINT starts ignored) end the
    # collection early, keeping what it has (collect's docstring)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    player = NeuralBot.load(args.player, greedy=True) if args.player else None
    cards, deal = SEARCH_PARTS[args.search]
    data = collect(teacher, args.hands, args.seed, args.num_envs, player,
                   opponent=args.opponent, cards=cards, deal=deal,
                   nullo_calls=args.nullo_calls)
    path = save_data(data, teacher.network.rules, args.out)
    print(f"{len(data['labels'])} decisions -> {path}")


def _join_command(args: argparse.Namespace) -> None:
    print(f"-> {join_nullo_branch(args.base, args.nullo, args.out)}")


def _fit_command(args: argparse.Namespace) -> None:
    fit_agent(args.init, args.data, args.out, epochs=args.epochs,
              learning_rate=args.learning_rate, temperature=args.temperature,
              call_temperature=args.call_temperature, anchor=args.anchor,
              features=args.features, hidden=_sizes(args.hidden) if args.hidden else None,
              holdout=args.holdout, seed=args.seed)
    print(f"-> {args.out}")


def main(argv: Sequence[str] | None = None) -> int:
    from agents.neural import CheckpointError

    args = build_parser().parse_args(argv)
    try:
        {"collect": _collect_command, "fit": _fit_command, "join": _join_command}[
            args.command](args)
    except (ValueError, CheckpointError) as err:
        print(f"python -m train.distill: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
