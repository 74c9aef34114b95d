"""Teaching a network's nullo branch a teacher bot's card play along its own play (DAgger):
the imitate stage's ``labels = "nullo-cards"`` (the pipeline calls :func:`collect_piece` and
:func:`fit_agent` here, :mod:`train.imitate`'s for ``labels = "nullo"``).

Why: the network's card play in nullo contracts loses them.  At six players it made 35% of
``mcfast``'s open nullos as declarer where ``mcfast`` itself makes 74%, so a network taught to
bid them (``labels = "nullo"``) would bid contracts it then goes down in.  Sessions 21 (three
players) and 25 (six players) ran this recipe as hand-run scripts (``state/session21/branch/``);
at six players two rounds lifted the open nullos made as declarer from 35% to 74%
(docs/research-log.md).

* :func:`collect`: the teacher makes every call and kitty exchange at every seat, so that the
  contracts are the ones it bids; hands thrown in or of another contract are dropped (and
  counted).  In a nullo contract every seat that plays asks the teacher at each card decision
  with more than one legal card, and its card is the row's label; the card played is the
  teacher's with probability ``mix``, else the network's greedy card (its nullo branch's), so
  that the positions the network's own play reaches are in the data.
  With ``roles = "defenders"`` the teacher plays the defence alone: the network makes the
  calls and the exchange and plays the declarer's side, whose rows are labelled with its own
  card (anchors: the branch keeps its play there).  Why: under american the rule bot's
  defence of nullos beats the network's by +15.8 points a deal, while the network's declarer
  play, taught by search, is the better one; the copy gained +9.5 head to head there, and was
  level under american-double-nullo and three-handed (docs/research-log.md, "The nullo
  defence", and its session 36 section).
* :func:`fit`: the nullo branch alone, on hard labels (declarer rows weighted
  ``declarer_weight``: the declarer's cards decide the contract), everything else frozen and
  checked unchanged.  A network without a branch is first joined with a copy of itself
  (:meth:`agents.neural.PolicyNet.with_nullo_branch`), so that the branch starts from the
  network's own play and nothing else it plays changes.

The pieces are :mod:`train.imitate`'s format (its :class:`~train.imitate.Rows`,
:func:`~train.imitate.save_piece` and :func:`~train.imitate.load_pieces`) under a format name
of their own, so that neither recipe's fit reads the other's rows.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import torch

from agents.neural import NeuralBot, PolicyNet, masked_logits
from arena.duplicate import progress_bar
from fh_env import actions as A
from fh_env.engine import Phase, State, side_of
from fh_env.envs.vector import game_seed
from fh_env.rules import Rules
from fh_env.view import seat_view

from . import imitate
from .checkpoint import save_atomic
from .imitate import NULLO_DECLARER, NULLO_DEFENDER, NULLO_PARTNER, STREAM

FORMAT = "fivehundred-rl/imitate-nullo-cards-data"
#: A piece's counts: hands dealt, dropped (thrown in, another contract) and played (nullo
#: contracts, made in the mixed play; open nullos among them), the stored decisions and how
#: often the network's greedy card was the teacher's, by role, and whose cards were played.
COUNTS = ("hands", "thrown_in", "other_contracts", "nullo_contracts", "nullo_made",
          "open_nullo_contracts", "open_nullo_made", "declarer_decisions",
          "defender_decisions", "partner_decisions", "declarer_agree", "defender_agree",
          "partner_agree", "cards_differ", "teacher_cards_played")
ROLE_NAMES = {NULLO_DECLARER: "declarer", NULLO_DEFENDER: "defender", NULLO_PARTNER: "partner"}
#: Whose cards the teacher labels and plays: every seat's (``all``: the teacher's calls too), or
#: the defenders' alone (``defenders``: the network calls and plays the declarer's side).
ROLES = ("all", "defenders")


# ---------------------------------------------------------------------- collecting
def role_of(state: State) -> int:
    """The role of the seat on turn in ``state``'s nullo contract: the declarer, its partner
    (double nullo, where both partners play) or a defender."""
    seat, declarer, players = state.turn, state.declarer, state.rules.players
    if seat == declarer:
        return NULLO_DECLARER
    partner = side_of(players, seat) == side_of(players, declarer)
    return NULLO_PARTNER if partner else NULLO_DEFENDER


class _CardCollector:
    """The rows and counts of one piece as its hands are played (why a class: every card of
    every hand appends to the same columns and counts)."""

    def __init__(self, bot: NeuralBot, teacher: Any, mix: float, roles: str = "all") -> None:
        if roles not in ROLES:
            raise ValueError(f"roles={roles!r} must be one of {', '.join(ROLES)}")
        self.bot, self.teacher, self.mix, self.roles = bot, teacher, mix, roles
        self.rows = imitate.Rows()
        self.counts = dict.fromkeys(COUNTS, 0)

    def play_hand(self, state: State, hand: int) -> None:
        """The teacher's auction and exchange (the network's with ``roles = "defenders"``),
        then (a nullo contract only) the mixed card play to the end, storing its card rows."""
        streams = imitate.Streams(state.seed)
        self.counts["hands"] += 1
        while not state.is_terminal and state.phase == Phase.AUCTION:
            state.apply(self._call(state, streams))
        if state.is_terminal:
            self.counts["thrown_in"] += 1
            return
        contract = state.contract
        if contract not in A.NULLO_TYPES:  # not asked of the teacher's exchange: dropped now
            self.counts["other_contracts"] += 1
            return
        while not state.is_terminal and state.phase != Phase.PLAY:
            state.apply(self._call(state, streams))
        while not state.is_terminal:
            state.apply(self._card(state, streams, hand))
        made = int(bool(state.result.made))
        self.counts["nullo_contracts"] += 1
        self.counts["nullo_made"] += made
        if contract == A.OPEN_NULLO:
            self.counts["open_nullo_contracts"] += 1
            self.counts["open_nullo_made"] += made

    def _call(self, state: State, streams: imitate.Streams) -> int:
        """A call or a kitty exchange: the teacher's, or with ``roles = "defenders"`` the
        network's (greedy), so that the contracts defended are the network's own."""
        caller = self.bot if self.roles == "defenders" else self.teacher
        return int(caller.act(seat_view(state, state.turn), streams.teacher))

    def _card(self, state: State, streams: imitate.Streams, hand: int) -> int:
        """The card played at this decision; a non-forced one is stored with the teacher's
        card as its label (with ``roles = "defenders"``, on the declarer's side the network's
        own card, which it plays)."""
        view = seat_view(state, state.turn)
        obs, mask, logits = self.bot.seen(view)
        greedy = int(torch.argmax(logits))
        if mask.sum() < 2:
            return greedy
        role = role_of(state)
        if self.roles == "defenders" and role != NULLO_DEFENDER:
            label = played = greedy
        else:
            label = int(self.teacher.act(view, streams.teacher))
            played = label if streams.mix.random() < self.mix else greedy
        self.rows.store(obs, mask, label, greedy, role, hand)
        name = ROLE_NAMES[role]
        self.counts[f"{name}_decisions"] += 1
        self.counts[f"{name}_agree"] += greedy == label
        self.counts["cards_differ"] += label != greedy
        self.counts["teacher_cards_played"] += played == label != greedy
        return played


def collect(bot: NeuralBot, teacher: Any, hands: int, seed: int, mix: float = 0.5,
            progress: bool = False, roles: str = "all") -> dict[str, np.ndarray]:
    """``hands`` hands dealt as :func:`train.imitate.collect` deals them, ``teacher`` calling
    and ``bot`` (greedy) or ``teacher`` playing the cards of the nullo contracts (module
    docstring; ``roles``: :data:`ROLES`); the same seed gives the same rows.  A piece may hold
    no row (no nullo)."""
    if bot.rules is None:
        raise ValueError(f"{bot.name} names no rules")
    collector = _CardCollector(bot, teacher, mix, roles)
    bar = progress_bar(hands, "hands", progress)
    for k in range(hands):
        collector.play_hand(State(bot.rules, seed=game_seed(seed, STREAM, k)), k)
        bar.update(1)
    bar.close()
    return collector.rows.arrays(collector.counts, (bot.net.obs_size, bot.net.num_actions))


def collect_piece(agent: str, stage: dict[str, Any], hands: int, seed: int, path: str,
                  progress: bool = False) -> None:
    """One piece of a ``nullo-cards`` imitate stage (:class:`train.pipeline.ImitateStage` as
    a dict), written to ``path`` atomically."""
    from agents.registry import make_bot

    bot = NeuralBot.load(agent, greedy=True)
    teacher = make_bot(stage["teacher"], bot.rules)
    data = collect(bot, teacher, hands, seed, stage["mix"], progress, stage.get("roles", "all"))
    imitate.save_piece(data, bot.rules, path, FORMAT)


# ---------------------------------------------------------------------- fitting
#: The held-out groups the fit reports (name -> the rows it takes); ``partner`` too where
#: there are such rows (:func:`groups_of`).
GROUPS: dict[str, Callable[[dict[str, Any]], np.ndarray]] = {
    "declarer": lambda d: d["role"] == NULLO_DECLARER,
    "defender": lambda d: d["role"] == NULLO_DEFENDER,
}


def groups_of(data: dict[str, Any]) -> dict[str, Callable[[dict[str, Any]], np.ndarray]]:
    """:data:`GROUPS`, with the double nullo partner's rows where ``data`` has some."""
    if not (data["role"] == NULLO_PARTNER).any():
        return GROUPS
    return dict(GROUPS, partner=lambda d: d["role"] == NULLO_PARTNER)


def with_branch(net: PolicyNet) -> tuple[PolicyNet, bool]:
    """``net`` with a nullo branch, and whether it was joined here: a network without one
    gets a copy of itself, so that the branch starts from the network's own play and every
    other decision stays exactly what it was."""
    if net.nullo is not None:
        return net, False
    return net.with_nullo_branch(copy.deepcopy(net)).eval(), True


def branch_rows(net: PolicyNet, data: dict[str, Any]) -> np.ndarray:
    """Whether each stored row is one the nullo branch plays (the routing of
    :meth:`agents.neural.PolicyNet.forward`: the play phase, a nullo-type contract)."""
    codes, values = data["codes"], data["values"]
    chunks = [net.nullo_rows(values[codes[i:i + 4096]]) for i in range(0, len(codes), 4096)]
    return np.concatenate(chunks) if chunks else np.zeros(0, dtype=bool)


def check_routing(net: PolicyNet, data: dict[str, Any]) -> None:
    """Refuse rows the branch does not play: fitted, they would teach it nothing it plays
    (and say the pieces are not what this recipe collects)."""
    bad = np.flatnonzero(~branch_rows(net, data))
    if len(bad):
        raise ValueError(f"{len(bad)} of {len(data['label'])} stored rows (the first: row "
                         f"{bad[0]}) are not card play of a nullo contract, which is all the "
                         "nullo branch plays: not nullo-cards data")


def freeze_base(net: PolicyNet) -> dict[str, torch.Tensor]:
    """Freeze every parameter outside the nullo branch; return a copy of the network's other
    weights to check against (the mirror of :func:`train.imitate.freeze_nullo`)."""
    for name, p in net.named_parameters():
        p.requires_grad_(name.startswith("nullo."))
    return {k: v.clone() for k, v in net.state_dict().items() if not k.startswith("nullo.")}


def check_base(net: PolicyNet, before: dict[str, torch.Tensor]) -> None:
    after = net.state_dict()
    moved = [k for k, v in before.items() if not torch.equal(after[k], v)]
    if moved:
        raise RuntimeError(f"the fit moved {moved[0]}, outside the nullo branch, which it "
                           "keeps frozen")


def loss(branch: PolicyNet, obs: torch.Tensor, mask: torch.Tensor, label: torch.Tensor,
         weight: torch.Tensor) -> torch.Tensor:
    """The ``weight``-weighted mean over rows of the cross-entropy of the teacher's card
    among the legal ones."""
    logp = torch.log_softmax(masked_logits(branch(obs)[0], mask), dim=1)
    nll = -logp.gather(1, label[:, None]).squeeze(1)
    return (weight * nll).sum() / weight.sum().clamp_min(1e-12)


def fit(net: PolicyNet, data: dict[str, Any], epochs: int = 3, learning_rate: float = 3e-4,
        declarer_weight: float = 2.0, seed: int = 0,
        progress: bool = False) -> list[dict[str, float]]:
    """Fit ``net``'s nullo branch (Adam, the learning rate decaying linearly to 0, gradients
    clipped at 0.5) on the rows of all but the held-out hands; return the held-out agreement
    by role before fitting and after each epoch."""
    if net.nullo is None:
        raise ValueError("the network has no nullo branch to fit (nullo_play.with_branch)")
    if not len(data["label"]):
        raise ValueError("the pieces hold no card decision of a nullo contract: nothing to fit "
                         "(does the teacher bid no nullo-type contract?)")
    check_routing(net, data)
    torch.manual_seed(seed)
    before = freeze_base(net)
    weight = np.where(data["role"] == NULLO_DECLARER, declarer_weight, 1.0).astype(np.float32)

    def batch_loss(idx: np.ndarray) -> torch.Tensor:
        obs, mask, label = imitate.rows_batch(data, idx)
        return loss(net.nullo, obs, mask, label, torch.from_numpy(weight[idx]))

    history = imitate.fit_rows(net, data, list(net.nullo.parameters()), batch_loss,
                               groups_of(data), epochs, learning_rate, seed, progress)
    check_base(net, before)
    return history


def fit_agent(init: str | Path, paths: Sequence[str | Path], out: str | Path,
              epochs: int = 3, learning_rate: float = 3e-4, declarer_weight: float = 2.0,
              seed: int = 0, progress: bool = False) -> list[dict[str, float]]:
    """Fit the nullo branch of the agent ``init`` (joined with a copy of itself first if it
    has none) on the pieces ``paths`` and write it to ``out`` atomically, as an agent
    checkpoint; return the fit's held-out history."""
    from agents.neural import policy_from_checkpoint, read_checkpoint, resolve_checkpoint

    path = resolve_checkpoint(init)
    agent = read_checkpoint(path)
    net, joined = with_branch(policy_from_checkpoint(agent, path))
    data = imitate.load_pieces(paths, Rules.from_dict(agent["rules"]), FORMAT, COUNTS)
    if progress:
        print(f"imitate (nullo-cards): {len(data['label'])} card decisions; {data['counts']}",
              file=sys.stderr, flush=True)
    history = fit(net, data, epochs, learning_rate, declarer_weight, seed, progress)
    agent["policy"]["nullo_branch"] = True
    agent["policy"]["state_dict"] = {k: v.detach().clone() for k, v in
                                     net.state_dict().items()}
    if joined:  # as `python -m train.distill join --base INIT --nullo INIT` records it
        agent["nullo_branch"] = {"base": str(init), "nullo": str(init)}
    agent["imitate"] = {"data": [Path(p).name for p in paths], "labels": "nullo-cards",
                        "epochs": epochs, "learning_rate": learning_rate,
                        "declarer_weight": declarer_weight, "joined": joined,
                        "counts": data["counts"], "history": history}
    save_atomic(agent, out)
    return history
