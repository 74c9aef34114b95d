"""A learned belief model of the hidden cards, and a sampler of exact worlds weighted by it.

Why: the search's worlds (:mod:`fh_env.sampler`) are uniform among those consistent with what a
seat saw, so they ignore what the calls and plays say about who holds what.  A small network
(:class:`BeliefNet`) reads one seat's observation (:func:`fh_env.observe.encode`) and gives, for
every card the seat cannot see, a softmax over where it lies now: each other seat's hand
(seat-relative, 1 = left) or the kitty (the discards once the kitty was exchanged).  The hard
facts the exact sampler knows (voids, hand sizes of zero, a kitty known to the declarer, ...)
mask the softmax: a location the exact sampler rules out for a card gets no probability.

:class:`BeliefSampler` turns the per-card predictions ``q_c`` into worlds that are still exactly
consistent with the view: it draws worlds from the exact uniform sampler
(:class:`fh_env.sampler.Determinizer`) and gives each the importance weight
``prod_c q_c(location of c)`` (times a constant).  Self-normalised, the weighted worlds follow
``P(world) ∝ prod_c q_c(loc_c)`` restricted to the consistent worlds, which is the model's
distribution conditioned on everything seen (``tests/test_belief.py`` checks this against
exhaustive enumeration).  ``power`` tempers the weights (``q ** power``) when the effective
sample size matters more than sharpness.

Training data are deals of ``neural:best`` (greedy, every seat) in the compiled core: at random
decisions the seat on turn's observation, the exact sampler's allowed locations and the true
location of every hidden card are recorded.  CLI::

    python -m agents.belief train --hands N --seed S --out PATH
    python -m agents.belief eval --model PATH --hands N --seed S

``eval`` reports the held-out log-loss per hidden card of the model and of the uniform
consistent sampler's exact marginals (counted by the sampler's dynamic programme).

Four players only for now (the observation and the location count are those of that size).
Layer rule: this module imports ``fh_env`` and ``agents`` only (not ``train``), so it has its
own atomic save.
"""

from __future__ import annotations

import argparse
import copy
import math
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from fh_env import observe
from fh_env.cards import NUM_CARDS, cards_of
from fh_env.engine import State
from fh_env.rules import Rules
from fh_env.view import SeatView, seat_view

from fh_env.sampler import Determinizer

#: Checkpoint format version of :func:`save_belief`.
FORMAT = 1
#: The shipped belief model (``nmc:...,belief=X``; in a folder of its own, so that it is not
#: listed as a policy by agents.shipped): trained by the command in
#: docs/research-log.md, "Belief model".
BELIEF_PATH = Path(__file__).resolve().parent / "checkpoints" / "belief" / "belief-best.pt"


# ---------------------------------------------------------------------- locations
def n_locations(players: int) -> int:
    """Where a hidden card may be: the other ``players - 1`` seats, then the kitty."""
    return players


def location_of_slot(slot: int, me: int, players: int) -> int:
    """The model's location index of a sampler slot (a seat, or ``players`` for the kitty):
    seat ``me + r`` is location ``r - 1``; the kitty is ``players - 1``."""
    if slot == players:
        return players - 1
    return (slot - me) % players - 1


def slot_of_location(loc: int, me: int, players: int) -> int:
    """Inverse of :func:`location_of_slot`."""
    if loc == players - 1:
        return players
    return (me + loc + 1) % players


def allowed_locations(det: Determinizer) -> np.ndarray:
    """bool ``[NUM_CARDS, players]``: the locations the exact sampler allows each unseen card
    (all False for a card the seat has seen)."""
    n = det.players
    me = det.view.seat
    out = np.zeros((NUM_CARDS, n_locations(n)), dtype=bool)
    for slots, cards in det.classes:
        for s in slots:
            loc = location_of_slot(s, me, n)
            for c in cards:
                out[c, loc] = True
    return out


def true_locations(state: State, seat: int, unseen: int) -> np.ndarray:
    """int8 ``[NUM_CARDS]``: each unseen card's present location for ``seat`` (-1 elsewhere)."""
    n = state.rules.players
    out = np.full(NUM_CARDS, -1, dtype=np.int8)
    for s in range(n):
        if s == seat:
            continue
        for c in cards_of(state.hands[s] & unseen):
            out[c] = location_of_slot(s, seat, n)
    for c in cards_of(state.kitty & unseen):
        out[c] = n - 1
    return out


def uniform_marginals(det: Determinizer, rng: random.Random | None = None,
                      draws: int = 4000) -> np.ndarray:
    """float64 ``[NUM_CARDS, players]``: the probability, under the exact uniform sampler, that
    each unseen card lies in each location.

    Exact where the sampler has no global (rejection) constraint: cards of one class share
    their marginals, and ``P(card of class i in slot s)`` is the count of completions with one
    of its cards put in ``s`` over the total (the sampler's own dynamic programme).  With a
    dealt-joker constraint it is estimated from ``draws`` worlds."""
    n = det.players
    me = det.view.seat
    out = np.zeros((NUM_CARDS, n_locations(n)))
    if det.joker_seats or det.joker_in_kitty:
        rng = rng or random.Random(0)
        for _ in range(draws):
            hands, kitty, *_ = det._world(rng)  # rejection as in the sampler
            for s in range(n):
                if det.known[s] < 0:
                    for c in cards_of(hands[s]):
                        out[c, location_of_slot(s, me, n)] += 1
            if det.known_kitty is None:
                for c in cards_of(kitty):
                    out[c, n - 1] += 1
        return out / draws
    total = det.n_locations
    for i, (slots, cards) in enumerate(det.classes):
        for s in slots:
            other = copy.copy(det)
            classes = list(det.classes)
            classes[i] = (slots, cards[1:])
            other.classes = [cl for cl in classes if cl[1]]
            other._memo = {}
            caps = list(det.caps)
            caps[s] -= 1
            p = other._count(0, tuple(caps)) / total if caps[s] >= 0 else 0.0
            for c in cards:
                out[c, location_of_slot(s, me, n)] = p
    return out


# ---------------------------------------------------------------------- the network
class BeliefNet(nn.Module):
    """Observation -> per-card logits over locations (a small MLP; masked by the caller)."""

    def __init__(self, obs_size: int, players: int = 4, hidden: int = 256) -> None:
        super().__init__()
        self.obs_size, self.players, self.hidden = obs_size, players, hidden
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU(),
                                  nn.Linear(hidden, NUM_CARDS * n_locations(players)))
        nn.init.zeros_(self.body[-1].weight)
        nn.init.zeros_(self.body[-1].bias)

    def forward(self, obs: torch.Tensor, allowed: torch.Tensor,
                prior: torch.Tensor) -> torch.Tensor:
        """Log-probabilities ``[B, NUM_CARDS, players]``, 0 in every disallowed location (and
        for a card with no allowed location, a card the seat has seen).

        The network learns a correction to ``prior`` (the uniform sampler's exact marginals,
        :func:`uniform_marginals`): the counting of hand sizes is done exactly there, and the
        last layer starts at zero, so an untrained model is the uniform sampler."""
        logits = self.body(obs).view(-1, NUM_CARDS, n_locations(self.players))
        logits = logits + torch.log(prior.clamp(min=1e-30))
        none = ~allowed.any(-1, keepdim=True)
        ok = allowed | none
        logits = logits.masked_fill(~ok, -1e9)
        return torch.log_softmax(logits, -1).masked_fill(~ok, 0.0)

    def predict(self, view: SeatView, det: Determinizer | None = None) -> np.ndarray:
        """float64 ``[NUM_CARDS, players]``: the predicted distribution for ``view``."""
        det = det or Determinizer(view)
        allowed = allowed_locations(det)
        prior = uniform_marginals(det)
        obs = observe.encode(view)
        with torch.no_grad():
            logp = self(torch.from_numpy(np.asarray(obs, dtype=np.float32)).unsqueeze(0),
                        torch.from_numpy(allowed).unsqueeze(0),
                        torch.from_numpy(prior).float().unsqueeze(0))[0]
        return torch.exp(logp).double().numpy() * allowed


def save_belief(net: BeliefNet, path: str | Path, meta: dict | None = None) -> None:
    """Atomic save (temp file in the same folder, then ``os.replace``): a killed run never
    leaves a torn checkpoint."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": FORMAT, "obs_size": net.obs_size, "players": net.players,
            "hidden": net.hidden, "state_dict": net.state_dict(), "meta": meta or {}}
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        torch.save(data, tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def load_belief(path: str | Path) -> BeliefNet:
    """A :class:`BeliefNet` from :func:`save_belief` (``weights_only``: no code is run)."""
    data = torch.load(path, map_location="cpu", weights_only=True)
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a belief checkpoint of format {FORMAT}")
    net = BeliefNet(int(data["obs_size"]), int(data["players"]), int(data["hidden"]))
    net.load_state_dict(data["state_dict"])
    return net.eval()


# ---------------------------------------------------------------------- the sampler
class BeliefSampler:
    """Worlds exactly consistent with ``view``, importance-weighted towards a belief.

    ``probs``: ``[NUM_CARDS, players]`` per-card location probabilities (the model's, or any
    other; locations as :func:`location_of_slot`).  Each world comes from the exact uniform
    sampler with weight ``prod_c probs[c, loc_c] ** power`` over the unseen cards; the weights
    are exact up to one constant, so self-normalised they give the belief restricted to the
    consistent worlds.
    """

    def __init__(self, view: SeatView, probs: np.ndarray, power: float = 1.0,
                 det: Determinizer | None = None) -> None:
        self.view = view
        self.det = det or Determinizer(view)
        self.power = float(power)
        with np.errstate(divide="ignore"):
            self.logq = np.log(np.asarray(probs, dtype=np.float64))

    @classmethod
    def from_model(cls, view: SeatView, net: BeliefNet, power: float = 1.0) -> "BeliefSampler":
        det = Determinizer(view)
        return cls(view, net.predict(view, det), power, det)

    def log_weight(self, hands: list[int], kitty: int) -> float:
        """``power * sum_c log probs[c, loc_c]`` of a world's present hands and kitty."""
        n = self.det.players
        me = self.view.seat
        unseen = self.view.unseen
        total = 0.0
        for s in range(n):
            if s != me:
                loc = location_of_slot(s, me, n)
                for c in cards_of(hands[s] & unseen):
                    total += self.logq[c, loc]
        for c in cards_of(kitty & unseen):
            total += self.logq[c, n - 1]
        return self.power * total

    def sample(self, rng: random.Random, count: int) -> tuple[list[State], np.ndarray]:
        """``count`` worlds and their normalised weights (summing to 1)."""
        states = [self.det.sample(rng) for _ in range(count)]
        logw = np.array([self.log_weight(s.hands, s.kitty) for s in states])
        return states, normalise(logw)

    def resample(self, rng: random.Random, count: int, proposals: int) -> list[State]:
        """``count`` unweighted worlds by sampling-importance-resampling from ``proposals``
        weighted ones (exact as ``proposals`` grows)."""
        states, w = self.sample(rng, proposals)
        return [states[i] for i in rng.choices(range(proposals), weights=w.tolist(), k=count)]


def normalise(logw: np.ndarray) -> np.ndarray:
    """Weights from log-weights, summing to 1 (all-impossible worlds: uniform)."""
    if not np.isfinite(logw).any():
        return np.full(len(logw), 1.0 / len(logw))
    w = np.exp(logw - logw.max())
    return w / w.sum()


def games_log_weights(view: SeatView, probs: np.ndarray, games: np.ndarray,
                      power: float = 1.0) -> np.ndarray:
    """As :meth:`BeliefSampler.log_weight` for fast-core records (``hands``, ``kitty``
    fields), vectorised: for the compiled sampler's worlds in :mod:`agents.nmc`."""
    n = view.rules.players
    me = view.seat
    unseen = view.unseen
    with np.errstate(divide="ignore"):
        logq = np.log(np.asarray(probs, dtype=np.float64))
    bits = np.uint64(1) << np.arange(NUM_CARDS, dtype=np.uint64)
    total = np.zeros(len(games))
    ids = np.array([c for c in cards_of(unseen)], dtype=np.int64)
    if not len(ids):
        return total
    sel = bits[ids]
    for s in range(n + 1):
        if s == me:
            continue
        masks = games["kitty"] if s == n else games["hands"][:, s]
        held = (masks.astype(np.uint64)[:, None] & sel[None, :]) != 0
        loc = location_of_slot(s, me, n)
        total += np.where(held, logq[ids, loc][None, :], 0.0).sum(1)
    return power * total


# ---------------------------------------------------------------------- data
def collect(hands: int, seed: int, policy: str = "best", rate: float = 0.25,
            batch: int = 256, log: bool = False) -> dict[str, np.ndarray]:
    """Deals of the network (greedy, every seat, default 4-player rules) in the compiled core:
    at each decision, with probability ``rate``, the seat on turn's observation (float16),
    its allowed locations and the true location of every hidden card; plus the exact uniform
    marginals (for evaluation).  Seeded: a pure function of ``hands``, ``seed`` and the
    policy."""
    from fh_env.compiled.engine import HAND_OVER
    from fh_env.compiled.games import FastGames

    from .net_rollouts import GreedySteps
    from .neural import NeuralBot

    network = NeuralBot.load(policy, greedy=True)
    rules = Rules()
    network.check_rules(rules)
    encode = network.encoding_rules(rules)
    net = network.net
    rng = np.random.default_rng(seed)
    obs_out, allowed_out, target_out, uniform_out, phase_out = [], [], [], [], []
    done = 0
    t0 = time.time()
    while done < hands:
        size = min(batch, hands - done)
        fast = FastGames(size, rules, seed=int(rng.integers(2**62)))
        conv = FastGames(1, rules)
        network = GreedySteps(net, fast, encode)
        while (rows := np.flatnonzero(fast.games["phase"] < HAND_OVER)).size:
            rec = rows[rng.random(len(rows)) < rate]
            for i in rec:
                conv.games[0] = fast.games[i]
                state = conv.to_state(0)
                seat = int(state.turn)
                view = seat_view(state, seat)
                det = Determinizer(view)
                allowed = allowed_locations(det)
                if not allowed.any():
                    continue
                obs_out.append(observe.encode(view).astype(np.float16))
                allowed_out.append(allowed)
                target_out.append(true_locations(state, seat, view.unseen))
                uniform_out.append(uniform_marginals(det).astype(np.float32))
                phase_out.append(int(view.phase))
            network.step(rows)
        done += size
        if log:
            print(f"  {done} hands, {len(obs_out)} positions, {time.time() - t0:.0f}s",
                  file=sys.stderr, flush=True)
    return {"obs": np.stack(obs_out), "allowed": np.stack(allowed_out),
            "target": np.stack(target_out), "uniform": np.stack(uniform_out),
            "phase": np.array(phase_out, dtype=np.int8)}


def log_losses(net: BeliefNet, data: dict[str, np.ndarray]) -> dict[str, float]:
    """Mean log-loss per hidden card (nats) of the model and of the uniform marginals, overall
    and in the play phase."""
    obs = torch.from_numpy(data["obs"].astype(np.float32))
    allowed = torch.from_numpy(data["allowed"])
    target = torch.from_numpy(data["target"].astype(np.int64))
    prior = torch.from_numpy(data["uniform"])
    with torch.no_grad():
        logp = torch.cat([net(obs[i:i + 4096], allowed[i:i + 4096], prior[i:i + 4096])
                          for i in range(0, len(obs), 4096)])
    hidden = target >= 0
    t = target.clamp(min=0)
    model = -logp.gather(2, t.unsqueeze(-1)).squeeze(-1)
    uni = -torch.log(torch.from_numpy(data["uniform"].astype(np.float64))
                     .gather(2, t.unsqueeze(-1)).squeeze(-1))
    play = torch.from_numpy(data["phase"] == 2).unsqueeze(-1) & hidden
    return {"positions": len(obs), "cards": int(hidden.sum()),
            "model": float(model[hidden].mean()), "uniform": float(uni[hidden].mean()),
            "model_play": float(model[play].mean()), "uniform_play": float(uni[play].mean())}


def fit(data: dict[str, np.ndarray], seed: int, epochs: int = 8, hidden: int = 256,
        lr: float = 1e-3, batch: int = 256, weight_decay: float = 1e-4,
        validation: float = 0.1, log: bool = False) -> BeliefNet:
    """Train a :class:`BeliefNet` on ``data`` by cross-entropy over the hidden cards.

    The last ``validation`` share of the positions (whole batches of hands, so the deals are
    not shared with training) picks the epoch kept: positions of one hand are alike, and the
    network overfits them quickly."""
    torch.manual_seed(seed)
    net = BeliefNet(data["obs"].shape[1], 4, hidden)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=weight_decay)
    cut = len(data["obs"]) - int(len(data["obs"]) * validation) if validation else None
    train = {k: v[:cut] for k, v in data.items()}
    held = {k: v[cut:] for k, v in data.items()} if cut else None
    obs = torch.from_numpy(train["obs"])
    allowed = torch.from_numpy(train["allowed"])
    prior = torch.from_numpy(train["uniform"])
    target = torch.from_numpy(train["target"].astype(np.int64))
    gen = torch.Generator().manual_seed(seed)
    best, best_state = math.inf, copy.deepcopy(net.state_dict())
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(obs), generator=gen)
        total, count = 0.0, 0
        for i in range(0, len(obs), batch):
            idx = order[i:i + batch]
            tgt = target[idx]
            hid = tgt >= 0
            logp = net(obs[idx].float(), allowed[idx], prior[idx])
            nll = -logp.gather(2, tgt.clamp(min=0).unsqueeze(-1)).squeeze(-1)
            loss = nll[hid].mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(nll[hid].detach().sum())
            count += int(hid.sum())
        net.eval()
        score = log_losses(net, held)["model"] if held else total / count
        if score < best:
            best, best_state = score, copy.deepcopy(net.state_dict())
        if log:
            print(f"  epoch {epoch + 1}: train log-loss {total / count:.4f}, validation "
                  f"{score:.4f}", file=sys.stderr, flush=True)
    net.load_state_dict(best_state)
    return net.eval()


# ---------------------------------------------------------------------- CLI
def main(argv: list[str] | None = None) -> int:
    """``train`` a belief model, or ``eval`` one on held-out deals."""
    parser = argparse.ArgumentParser(prog="python -m agents.belief", description=__doc__
                                     .split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="collect deals of the network and fit a belief model")
    tr.add_argument("--hands", type=int, required=True)
    tr.add_argument("--seed", type=int, required=True)
    tr.add_argument("--out", required=True)
    tr.add_argument("--epochs", type=int, default=8)
    tr.add_argument("--hidden", type=int, default=256)
    tr.add_argument("--policy", default="best")
    ev = sub.add_parser("eval", help="held-out log-loss per hidden card: model vs uniform")
    ev.add_argument("--model", required=True)
    ev.add_argument("--hands", type=int, required=True)
    ev.add_argument("--seed", type=int, required=True)
    ev.add_argument("--policy", default="best")
    args = parser.parse_args(argv)
    if args.command == "train":
        data = collect(args.hands, args.seed, args.policy, log=True)
        net = fit(data, args.seed, args.epochs, args.hidden, log=True)
        save_belief(net, args.out, {"hands": args.hands, "seed": args.seed,
                                    "policy": args.policy, "positions": len(data["obs"])})
        print(f"saved {args.out} ({len(data['obs'])} positions)")
    else:
        net = load_belief(args.model)
        res = log_losses(net, collect(args.hands, args.seed, args.policy, log=True))
        print(" ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in res.items()))
        print(f"gain per hidden card: {res['uniform'] - res['model']:.4f} nats "
              f"({math.exp(res['uniform'] - res['model']):.3f}x likelihood)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
