"""Imitating a teacher bot's nullo calls along the network's own auctions (DAgger).

Why: a network that never bids a nullo never sees one pay in its own play, so neither PPO nor
the deal branches teach it to bid one; ``mcfast`` bids open nullos where its rollouts say they
make, and beat the three-handed network by about 20 a deal.  Session 21 (docs/research-log.md,
"Three players: mcfast's nullo calls learned by imitation") had the network copy only the
teacher's nullo-type calls and its discards in nullo contracts, everything else held where it
was by a soft anchor: +14.6 against ``rule`` where the base made +7.4.  Copying every call of
the teacher made it pass far more, and lose.

Two steps, as in :mod:`train.distill`, so that the slow one runs in pieces and is kept:

* :func:`collect`: the network plays every seat (greedy).  At each call with more than one
  legal action the teacher is asked too and its call is stored as the label; with probability
  ``mix`` the teacher's call is the one played, so that the states after a nullo call (which
  the network never makes) are in the data.  The discards of a nullo contract are the teacher's
  too (the network's wrecked the contract: 14% of open nullos made, 54% with ``mcfast``'s), also
  played with probability ``mix``.  Anchor rows, labelled with the network's own choice: half of
  the other discards and ``card_anchor_share`` of the card decisions outside nullo contracts.
* :func:`fit`: hard cross-entropy on the rows ``labels`` names, ``anchor_weight`` times the
  cross-entropy to the starting network's own distribution on the others; the nullo branch
  (the nullo contracts' card play, :class:`agents.neural.PolicyNet`) frozen and checked
  unchanged, since no row here says anything about that play.

That is ``labels = "nullo"``.  ``labels = "nullo-cards"`` (:mod:`train.nullo_play`) teaches
the nullo branch the teacher's card play instead, in pieces of this module's format; the
pipeline picks the module by the stage's labels (:func:`train.pipeline.imitate_recipe`).

Not :mod:`train.imitation`, the warm start before PPO, where a new network copies every
decision of a teacher.
"""

from __future__ import annotations

import copy
import json
import math
import random
import sys
import zipfile
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import torch

from agents.neural import NeuralBot, PolicyNet, masked_logits
from arena.duplicate import progress_bar
from fh_env import actions as A
from fh_env.engine import Phase, State
from fh_env.envs.vector import game_seed
from fh_env.rules import Rules
from fh_env.view import seat_view

from .checkpoint import save_atomic

#: The seed stream of imitation deals (PPO 1 << 20, the warm start 1 << 21, distill 1 << 22).
STREAM = 1 << 23
FORMAT = "fivehundred-rl/imitate-data"
#: A stored row's role: a call with the teacher's label, a nullo contract's discard with the
#: teacher's label, an anchor (the network's own choice) among the other discards and the cards;
#: ``nullo-cards``: a card of a nullo contract's declarer, of a defender, and of the declarer's
#: partner (double nullo, where both partners play), each with the teacher's label.
(CALL, NULLO_DISCARD, DISCARD_ANCHOR, CARD_ANCHOR, NULLO_DECLARER, NULLO_DEFENDER,
 NULLO_PARTNER) = range(7)
#: The share of the discards outside nullo contracts kept as anchors (session 21's).
DISCARD_ANCHOR_SHARE = 0.5
#: Every tenth hand of a piece is held out of the fit, to measure it.
HOLDOUT_EVERY = 10
BATCH = 512
COUNTS = ("hands", "calls", "calls_differ", "teacher_nullo_calls", "network_nullo_calls",
          "teacher_calls_played", "nullo_discards", "thrown_in", "nullo_contracts", "nullo_made")
COLUMNS = ("codes", "mask", "label", "greedy", "role", "hand")


# ---------------------------------------------------------------------- collecting
class Streams:
    """One hand's random streams, apart so that each draw depends only on its own kind: the
    teacher's, the mix's (whose call or discard is played) and the anchors' sampling."""

    def __init__(self, deal_seed: int) -> None:
        self.teacher = random.Random(f"{deal_seed}/teacher")
        self.mix = random.Random(f"{deal_seed}/mix")
        self.anchor = random.Random(f"{deal_seed}/anchor")


class _Collector:
    """The rows and counts of one piece as its hands are played (why a class: every decision
    of every hand appends to the same columns and counts)."""

    def __init__(self, bot: NeuralBot, teacher: Any, mix: float, card_share: float) -> None:
        self.bot, self.teacher, self.mix, self.card_share = bot, teacher, mix, card_share
        self.rows = Rows()
        self.counts = dict.fromkeys(COUNTS, 0)

    def play_hand(self, state: State, hand: int) -> None:
        """Play one hand to its end, the network at every seat, storing its rows."""
        streams = Streams(state.seed)
        self.counts["hands"] += 1
        while not state.is_terminal:
            view = seat_view(state, state.turn)
            obs, mask, logits = self.bot.seen(view)
            greedy = int(torch.argmax(logits))
            action, label, role = self._decide(state, view, mask, greedy, streams)
            if role is not None:
                self.rows.store(obs, mask, label, greedy, role, hand)
            state.apply(action)
        result = state.result
        if result.contract is None:
            self.counts["thrown_in"] += 1
        elif result.contract in A.NULLO_TYPES:
            self.counts["nullo_contracts"] += 1
            self.counts["nullo_made"] += int(bool(result.made))

    def _decide(self, state: State, view: Any, mask: np.ndarray, greedy: int,
                streams: Streams) -> tuple[int, int, int | None]:
        """The action played, the row's label and its role (None: not stored)."""
        if mask.sum() < 2:
            return greedy, greedy, None
        nullo = state.contract in A.NULLO_TYPES
        if state.phase == Phase.AUCTION or (state.phase == Phase.EXCHANGE and nullo):
            label = int(self.teacher.act(view, streams.teacher))
            played = label if streams.mix.random() < self.mix else greedy
            self._count_teacher(state.phase == Phase.AUCTION, label, greedy, played)
            return played, label, CALL if state.phase == Phase.AUCTION else NULLO_DISCARD
        if state.phase == Phase.EXCHANGE:
            keep = streams.anchor.random() < DISCARD_ANCHOR_SHARE
            return greedy, greedy, DISCARD_ANCHOR if keep else None
        # nullo card play is the nullo branch's, which the fit leaves alone
        keep = not nullo and streams.anchor.random() < self.card_share
        return greedy, greedy, CARD_ANCHOR if keep else None

    def _count_teacher(self, call: bool, label: int, greedy: int, played: int) -> None:
        if not call:
            self.counts["nullo_discards"] += 1
            return
        self.counts["calls"] += 1
        self.counts["calls_differ"] += label != greedy
        self.counts["teacher_nullo_calls"] += label in A.NULLO_TYPES
        self.counts["network_nullo_calls"] += greedy in A.NULLO_TYPES
        self.counts["teacher_calls_played"] += played == label != greedy

    def arrays(self) -> dict[str, np.ndarray]:
        """The piece: its columns, the table of values its codes index, and its counts."""
        if not self.rows.columns["label"]:
            raise ValueError("the hands stored no decision: nothing to fit")
        return self.rows.arrays(self.counts)


class Rows:
    """The stored decisions of one piece, in the columns :data:`COLUMNS` (shared by every
    ``labels``' collector, so that all pieces are one format)."""

    def __init__(self) -> None:
        self.values: dict[float, int] = {}  # observation value -> its code
        self.columns: dict[str, list] = {k: [] for k in COLUMNS}

    def store(self, obs: np.ndarray, mask: np.ndarray, label: int, greedy: int, role: int,
              hand: int) -> None:
        """One row; the observation as codes into the piece's table of values (exact, and a
        fraction of the size: an observation holds few distinct values)."""
        values, index = np.unique(obs, return_inverse=True)
        table = np.array([self.values.setdefault(float(v), len(self.values)) for v in values],
                         dtype=np.uint16)
        for key, value in zip(COLUMNS, (table[index], mask.astype(bool), label, greedy, role,
                                        hand)):
            self.columns[key].append(value)

    def arrays(self, counts: dict[str, int],
               shape: tuple[int, int] | None = None) -> dict[str, np.ndarray]:
        """The columns, the table of values the codes index, and ``counts``; ``shape``
        (observation size, actions) lets a piece without rows keep its columns' widths."""
        values = np.zeros(len(self.values), dtype=np.float32)
        values[list(self.values.values())] = list(self.values)
        dtypes = {"codes": np.uint8 if len(values) <= 256 else np.uint16, "mask": bool,
                  "label": np.int16, "greedy": np.int16, "role": np.uint8, "hand": np.int32}
        data = {k: np.array(v, dtype=dtypes[k]) for k, v in self.columns.items()}
        if shape is not None and not self.columns["label"]:
            data["codes"] = data["codes"].reshape(0, shape[0])
            data["mask"] = data["mask"].reshape(0, shape[1])
        return dict(data, values=values, counts=np.array(json.dumps(counts)))


def collect(bot: NeuralBot, teacher: Any, hands: int, seed: int, mix: float = 0.5,
            card_anchor_share: float = 0.15, progress: bool = False) -> dict[str, np.ndarray]:
    """``hands`` hands of ``bot`` at every seat under its rules, ``teacher`` asked at its
    calls and nullo discards (module docstring); the same seed gives the same rows."""
    if bot.rules is None:
        raise ValueError(f"{bot.name} names no rules")
    collector = _Collector(bot, teacher, mix, card_anchor_share)
    bar = progress_bar(hands, "hands", progress)
    for k in range(hands):
        collector.play_hand(State(bot.rules, seed=game_seed(seed, STREAM, k)), k)
        bar.update(1)
    bar.close()
    return collector.arrays()


def collect_piece(agent: str, stage: dict[str, Any], hands: int, seed: int, path: str,
                  progress: bool = False) -> None:
    """One piece of an imitate stage (:class:`train.pipeline.ImitateStage` as a dict):
    ``agent`` plays, ``stage``'s teacher labels, written to ``path`` atomically (``labels = "nullo"``)."""
    from agents.registry import make_bot

    bot = NeuralBot.load(agent, greedy=True)
    teacher = make_bot(stage["teacher"], bot.rules)
    data = collect(bot, teacher, hands, seed, stage["mix"], stage["card_anchor_share"],
                   progress)
    save_piece(data, bot.rules, path)


def save_piece(data: dict[str, np.ndarray], rules: Rules, path: str | Path,
               format: str = FORMAT) -> Path:
    """Write a piece with its rules to ``path`` atomically (compressed ``.npz``, no pickles:
    the codes are mostly zeros); ``format`` names what its rows are, so that one recipe's fit
    refuses the other's pieces."""
    arrays = dict(format=np.array(format), rules=np.array(repr(rules.to_dict())), **data)
    return save_atomic(arrays, path, lambda a, f: np.savez_compressed(f, **a))


def load_pieces(paths: Sequence[str | Path], rules: Rules, format: str = FORMAT,
                count_keys: Sequence[str] = COUNTS) -> dict[str, Any]:
    """Join pieces of ``rules``' decisions (written as ``format``): their codes remapped into
    one table of values, their counts (``count_keys`` first) summed."""
    parts: dict[str, list[np.ndarray]] = {k: [] for k in COLUMNS}
    tables, counts = [], dict.fromkeys(count_keys, 0)
    # hands numbered across the pieces, so that every tenth is held out of a small run too
    for path in paths:
        try:
            with np.load(path, allow_pickle=False) as f:
                if str(f["format"]) != format:
                    raise ValueError(f"{path} is not imitation data"
                                     + ("" if format == FORMAT else f" of {format}"))
                if str(f["rules"]) != repr(rules.to_dict()):
                    raise ValueError(f"{path} holds decisions of other rules than the network's")
                for key in COLUMNS:
                    parts[key].append(f[key])
                parts["hand"][-1] = parts["hand"][-1] + counts["hands"]
                tables.append(f["values"])
                for key, n in json.loads(str(f["counts"])).items():
                    counts[key] = counts.get(key, 0) + n
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as err:
            raise ValueError(f"cannot read {path}: {err}") from None
    values = np.unique(np.concatenate(tables))
    dtype = np.uint8 if len(values) <= 256 else np.uint16
    parts["codes"] = [np.searchsorted(values, t).astype(dtype)[c]
                      for t, c in zip(tables, parts["codes"])]
    return dict({k: np.concatenate(v) for k, v in parts.items()}, values=values,
                counts=counts)


# ---------------------------------------------------------------------- fitting
def hard_rows(data: dict[str, Any], labels: str,
              double_nullo_calls: str = "copy") -> np.ndarray:
    """The rows fitted to the teacher's label; every other row is anchored to the starting
    network.  ``nullo``: the calls where the teacher calls a nullo type and the discards of
    nullo contracts (its other calls made the network pass far more, and lose).  With
    ``double_nullo_calls="pass"`` also the calls where the network's own greedy call is a
    double nullo (their labels: :func:`pass_double_nullos`)."""
    if labels != "nullo":
        raise ValueError(f"labels={labels!r}: this module fits the nullo calls, labels='nullo' "
                         "(nullo-cards: train.nullo_play)")
    role = data["role"]
    hard = ((role == CALL) & np.isin(data["label"], A.NULLO_TYPES)) | (role == NULLO_DISCARD)
    if double_nullo_calls == "pass":
        hard |= (role == CALL) & (data["greedy"] == A.DOUBLE_NULLO)
    return hard


def pass_double_nullos(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with the teacher's double-nullo calls labelled pass (where pass is legal): the
    partner's nullo is left to the partner.  Under ``american-double-nullo`` ``mcfast``'s
    double nullos, valued by rule-bot rollouts, went down three times in four once the network
    copied them; teaching none scored +12.8 a deal head to head (docs/research-log.md,
    session 27)."""
    label = data["label"].copy()
    label[(data["role"] == CALL) & (label == A.DOUBLE_NULLO) & data["mask"][:, A.PASS]] = A.PASS
    return dict(data, label=label)


def rows_batch(data: dict[str, Any], idx: np.ndarray) -> tuple[torch.Tensor, ...]:
    """Observations, legal masks and labels of rows ``idx``."""
    return (torch.from_numpy(data["values"][data["codes"][idx]]),
            torch.from_numpy(data["mask"][idx]),
            torch.from_numpy(data["label"][idx].astype(np.int64)))


def loss(net: PolicyNet, prior: PolicyNet, obs: torch.Tensor, mask: torch.Tensor,
         label: torch.Tensor, hard: torch.Tensor, anchor_weight: float) -> torch.Tensor:
    """The mean over rows of the hard cross-entropy (``hard`` rows) plus ``anchor_weight``
    times the cross-entropy to ``prior``'s distribution (the other rows)."""
    logp = torch.log_softmax(masked_logits(net(obs)[0], mask), dim=1)
    with torch.no_grad():
        target = torch.softmax(masked_logits(prior(obs[~hard])[0], mask[~hard]), dim=1)
    fitted = -logp[hard].gather(1, label[hard][:, None]).sum()
    anchored = -(target * logp[~hard]).sum()
    return (fitted + anchor_weight * anchored) / len(label)


def freeze_nullo(net: PolicyNet) -> dict[str, torch.Tensor]:
    """Freeze the nullo branch (if any); return a copy of its weights to check against."""
    if net.nullo is None:
        return {}
    for p in net.nullo.parameters():
        p.requires_grad_(False)
    return {k: v.clone() for k, v in net.nullo.state_dict().items()}


def check_frozen(net: PolicyNet, before: dict[str, torch.Tensor]) -> None:
    after = net.nullo.state_dict() if net.nullo is not None else {}
    if any(not torch.equal(after[k], v) for k, v in before.items()):
        raise RuntimeError("the fit moved the nullo branch, which it keeps frozen")


def fit(net: PolicyNet, data: dict[str, Any], labels: str = "nullo", epochs: int = 3,
        learning_rate: float = 3e-4, anchor_weight: float = 3.0, seed: int = 0,
        progress: bool = False, double_nullo_calls: str = "copy") -> list[dict[str, float]]:
    """Fit ``net`` (Adam, the learning rate decaying linearly to 0, gradients clipped at 0.5)
    on the rows of all but the held-out hands; return the held-out agreement before fitting
    and after each epoch.  ``double_nullo_calls``: ``copy`` the teacher's double nullos like
    its other nullo calls, or ``pass`` (teach none, :func:`pass_double_nullos`)."""
    torch.manual_seed(seed)
    hard = hard_rows(data, labels, double_nullo_calls)  # on the teacher's own labels, so its
    if double_nullo_calls == "pass":                    # double nullos stay fitted, as passes
        data = pass_double_nullos(data)
    before = freeze_nullo(net)
    prior = copy.deepcopy(net).eval()

    def batch_loss(idx: np.ndarray) -> torch.Tensor:
        obs, mask, label = rows_batch(data, idx)
        return loss(net, prior, obs, mask, label, torch.from_numpy(hard[idx]), anchor_weight)

    history = fit_rows(net, data, [p for p in net.parameters() if p.requires_grad], batch_loss,
                       GROUPS, epochs, learning_rate, seed, progress)
    check_frozen(net, before)
    return history


def fit_rows(net: PolicyNet, data: dict[str, Any], params: list[torch.Tensor],
             batch_loss: Callable[[np.ndarray], torch.Tensor], groups: dict[str, Any],
             epochs: int, learning_rate: float, seed: int,
             progress: bool) -> list[dict[str, float]]:
    """The loop both imitate recipes fit with: Adam on ``params``, the learning rate decaying
    linearly to 0, gradients clipped at 0.5, batches of ``batch_loss`` over the rows of all
    but the held-out hands; returns the held-out agreement (``groups``) before fitting and
    after each epoch, and leaves ``net`` in eval mode."""
    held = data["hand"] % HOLDOUT_EVERY == 0
    train_idx = np.flatnonzero(~held)
    opt = torch.optim.Adam(params, lr=learning_rate)
    steps = epochs * math.ceil(len(train_idx) / BATCH)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: max(0.0, 1 - i / max(1, steps)))
    gen = np.random.default_rng(seed)
    history = [dict(epoch=0, **agreement(net, data, np.flatnonzero(held), groups))]
    report(history[-1], progress, groups)
    for epoch in range(1, epochs + 1):
        net.train()
        gen.shuffle(train_idx)
        for start in range(0, len(train_idx), BATCH):
            value = batch_loss(np.sort(train_idx[start:start + BATCH]))
            opt.zero_grad()
            value.backward()
            torch.nn.utils.clip_grad_norm_(params, 0.5)
            opt.step()
            sched.step()
        history.append(dict(epoch=epoch, **agreement(net, data, np.flatnonzero(held), groups)))
        report(history[-1], progress, groups)
    net.eval()
    return history


#: The held-out groups :func:`agreement` reports: name -> the rows it takes.
GROUPS = {
    "calls": lambda d: d["role"] == CALL,
    "teacher_nullo_calls": lambda d: (d["role"] == CALL) & np.isin(d["label"], A.NULLO_TYPES),
    "calls_teacher_differs": lambda d: (d["role"] == CALL) & (d["label"] != d["greedy"]),
    "nullo_discards": lambda d: d["role"] == NULLO_DISCARD,
    "discard_anchors": lambda d: d["role"] == DISCARD_ANCHOR,
    "card_anchors": lambda d: d["role"] == CARD_ANCHOR,
}


def agreement(net: PolicyNet, data: dict[str, Any], idx: np.ndarray,
              groups: dict[str, Any] = GROUPS) -> dict[str, float]:
    """The share of rows ``idx`` of each group (:data:`GROUPS` by default) whose label the
    network's greedy action is (an anchor's label is the starting network's own choice), and
    each group's size."""
    net.eval()
    hits = np.zeros(len(idx), dtype=bool)
    with torch.no_grad():
        for start in range(0, len(idx), 4096):
            obs, mask, label = rows_batch(data, idx[start:start + 4096])
            hits[start:start + 4096] = (masked_logits(net(obs)[0], mask).argmax(1)
                                        == label).numpy()
    out: dict[str, float] = {}
    for name, rows in groups.items():
        chosen = rows(data)[idx]
        out[name] = float(hits[chosen].mean()) if chosen.any() else float("nan")
        out[f"{name}_n"] = int(chosen.sum())
    return out


def report(row: dict[str, float], progress: bool, groups: dict[str, Any] = GROUPS) -> None:
    """Print one held-out agreement row of a fit (with a progress display only)."""
    if progress:
        print(f"epoch {row['epoch']}: agreement on held-out hands: " + ", ".join(
            f"{name.replace('_', ' ')} {row[name]:.3f} ({row[name + '_n']})" for name in groups),
            file=sys.stderr, flush=True)


def fit_agent(init: str | Path, paths: Sequence[str | Path], out: str | Path,
              labels: str = "nullo", epochs: int = 3, learning_rate: float = 3e-4,
              anchor_weight: float = 3.0, seed: int = 0, progress: bool = False,
              double_nullo_calls: str = "copy") -> list[dict[str, float]]:
    """Fit the agent ``init`` on the pieces ``paths`` and write it to ``out`` atomically, as
    an agent checkpoint; return the fit's held-out history.  ``anchor_weight`` is
    the weight of the rows held to the starting network; ``double_nullo_calls`` as in
    :func:`fit`."""
    from agents.neural import policy_from_checkpoint, read_checkpoint, resolve_checkpoint

    path = resolve_checkpoint(init)
    agent = read_checkpoint(path)
    net = policy_from_checkpoint(agent, path)
    data = load_pieces(paths, Rules.from_dict(agent["rules"]))
    if progress:
        print(f"imitate: {len(data['label'])} decisions; {data['counts']}", file=sys.stderr,
              flush=True)
    history = fit(net, data, labels, epochs, learning_rate, anchor_weight, seed, progress,
                  double_nullo_calls)
    agent["policy"]["state_dict"] = {k: v.detach().clone() for k, v in
                                     net.state_dict().items()}
    agent["imitate"] = {"data": [Path(p).name for p in paths], "labels": labels,
                        "epochs": epochs, "learning_rate": learning_rate,
                        "anchor_weight": anchor_weight,
                        "double_nullo_calls": double_nullo_calls, "counts": data["counts"],
                        "history": history}
    save_atomic(agent, out)
    return history
