"""The imitate stage (train/imitate.py, ``kind = "imitate"`` in a pipeline) at toy scale: its
refusals, a run end to end at three and four players, the same piece from the same seed, what
the fit moves (the base, not the nullo branch) and a resume after a kill between pieces; and
``labels = "nullo-cards"`` (train/nullo_play.py): the teacher's cards of nullo contracts at
four and six players, a fit that moves the nullo branch alone, and a refused routing."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.neural import NeuralBot, masked_logits  # noqa: E402
from agents.registry import make_bot  # noqa: E402
from fh_env import actions as A  # noqa: E402
from fh_env import observe  # noqa: E402
from fh_env.engine import Phase, State  # noqa: E402
from fh_env.envs.vector import game_seed  # noqa: E402
from fh_env.view import seat_view  # noqa: E402
from train import imitate, nullo_play  # noqa: E402
from train.cli import main  # noqa: E402
from train.pipeline import (ImitateStage, PipelineConfig, imitate_recipe,  # noqa: E402
                            run_pipeline)
from conftest import imitate_config  # noqa: E402

THREE = "distill-three-handed-nullo"  # a shipped three-handed agent with a nullo branch
FOUR = "distill-australian-nullo"  # the same at four players (australian rules)
SIX = "distill-six-handed"  # a shipped six-player agent without a nullo branch
TEACHER = "mcfast:samples=2"

def toy(tmp_path: Path, rules: str = "three-handed", init: str = THREE) -> Path:
    return imitate_config(tmp_path / "toy.toml", rules, init, TEACHER,
                          "hands = 6\npieces = 2\nworkers = 1\nepochs = 1")


def weights(path: Path) -> dict:
    return torch.load(path, weights_only=True)["policy"]["state_dict"]


def shipped(name: str) -> Path:
    from agents.neural import resolve_checkpoint

    return resolve_checkpoint(name)


@pytest.fixture(scope="module")
def whole_run(tmp_path_factory) -> Path:
    """One uninterrupted three-handed toy run through the command line."""
    tmp = tmp_path_factory.mktemp("whole")
    run = tmp / "run"
    assert main(["--config", str(toy(tmp)), "--run-dir", str(run), "--no-progress"]) == 0
    return run


# ---------------------------------------------------------------------- refusals
@pytest.mark.parametrize("rules, init, table, message", [
    ("three-handed", THREE, "labels = 'all'", "labels='all' must be one of nullo"),
    ("three-handed", THREE, "mix = 1.5", "mix=1.5 must be in [0, 1]"),
    ("three-handed", THREE, "card_anchor_share = -0.1", "card_anchor_share=-0.1 must be in"),
    ("three-handed", THREE, "anchor_weight = -1", "anchor_weight=-1.0 must be at least 0"),
    ("three-handed", THREE, "hands = 0", "hands=0 must be at least 1"),
    ("three-handed", THREE, "hands = 2\npieces = 3", "pieces=3 is more than hands=2"),
    ("three-handed", THREE, "mix = true", "mix=True must be a float"),
    ("three-handed", THREE, "samples = 3", "unknown key(s) samples; an imitate stage takes"),
    ("three-handed", THREE, "teacher = 'nobody'", "teacher='nobody': unknown bot 'nobody'"),
    ("three-handed", THREE, "teacher = 'mcfast:rollout=policy'", "plays four players only"),
    ("australian-no-nullo", "ppo-selfplay", "", "copies the teacher's nullo-type calls, which "
                                                "these rules do not have"),
    ("three-handed", "", "", "the first stage is kind='imitate', which improves an agent"),
    ("three-handed", THREE, "double_nullo_calls = 'drop'",
     "double_nullo_calls='drop' must be one of copy, pass"),
    ("three-handed", THREE, "double_nullo_calls = 'pass'",
     "double_nullo_calls='pass', but these rules have no double nullo"),
    ("three-handed", THREE, "double_nullo_calls = 'pass'\nlabels = 'nullo-cards'",
     "double_nullo_calls='pass' is for labels='nullo'; labels='nullo-cards' copies no call"),
])
def test_a_bad_imitate_stage_is_refused_in_one_line(tmp_path: Path, capsys, rules: str,
                                                    init: str, table: str,
                                                    message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(f"rules = '{rules}'\ninit = '{init}'\n[[stages]]\nkind = 'imitate'\n"
                    f"{table}\n", encoding="utf-8")
    assert main(["--config", str(path), "--run-dir", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("fh-train: error:") and "\n" not in err and message in err, err
    assert not (tmp_path / "r").exists()  # nothing written


def test_the_defaults_are_the_shipped_recipe() -> None:
    """session 21's settings (state/session21/calls/README.md), which the preset repeats."""
    stage = ImitateStage()
    assert (stage.teacher, stage.labels, stage.mix, stage.anchor_weight,
            stage.card_anchor_share, stage.epochs, stage.learning_rate) == (
        "mcfast:samples=30", "nullo", 0.5, 3.0, 0.15, 3, 3e-4)
    root = Path(__file__).resolve().parent.parent
    cfg = PipelineConfig.from_toml(root / "configs/train/presets/three-handed-calls.toml")
    assert cfg.init == THREE and cfg.rules == "three-handed"
    assert cfg.stage(0) == ImitateStage(hands=60_000, pieces=12)


# ---------------------------------------------------------------------- collecting
def collect(seed: int, mix: float = 0.5, hands: int = 3) -> dict[str, np.ndarray]:
    bot = NeuralBot.load(THREE)
    return imitate.collect(bot, make_bot(TEACHER, bot.rules), hands, seed, mix, 0.15)


def test_the_same_seed_gives_the_same_piece(tmp_path: Path) -> None:
    stage = {"teacher": TEACHER, "mix": 0.5, "card_anchor_share": 0.15}
    paths = [tmp_path / f"{name}.npz" for name in ("a", "b", "c")]
    for path, seed in zip(paths, (7, 7, 8)):
        imitate.collect_piece(THREE, stage, 3, seed, str(path))
    a, b, c = (np.load(p) for p in paths)
    assert a.files == b.files and all(np.array_equal(a[k], b[k]) for k in a.files)
    assert not (a["codes"].shape == c["codes"].shape and np.array_equal(a["codes"], c["codes"]))


def test_the_rows_are_what_the_recipe_stores() -> None:
    """Calls and nullo discards labelled by the teacher, anchors labelled by the network;
    the stored observation is the one the network reads."""
    data = collect(11, hands=6)
    role, label, greedy = data["role"], data["label"], data["greedy"]
    anchors = (role == imitate.DISCARD_ANCHOR) | (role == imitate.CARD_ANCHOR)
    assert (label[anchors] == greedy[anchors]).all()
    assert (label[role == imitate.CALL] < A.DISCARD_BASE).all()  # calls
    assert (label[role == imitate.NULLO_DISCARD] >= A.DISCARD_BASE).all()
    assert (label[role == imitate.NULLO_DISCARD] < A.PLAY_BASE).all()  # discards
    assert (label[role == imitate.CARD_ANCHOR] >= A.PLAY_BASE).all()  # cards
    assert data["mask"][np.arange(len(label)), label].all()  # every label legal
    net = NeuralBot.load(THREE).net
    with torch.no_grad():
        logits = net(torch.from_numpy(data["values"][data["codes"]]))[0]
    picked = masked_logits(logits, torch.from_numpy(data["mask"])).argmax(1).numpy()
    assert (picked == greedy).all()
    counts = json.loads(str(data["counts"]))
    assert counts["hands"] == 6 and counts["calls"] == (role == imitate.CALL).sum()
    assert counts["teacher_nullo_calls"] > 0 and counts["network_nullo_calls"] == 0


def test_mix_says_whose_call_is_played() -> None:
    never, always = (json.loads(str(collect(5, mix)["counts"])) for mix in (0.0, 1.0))
    assert never["teacher_calls_played"] == 0 and never["calls_differ"] > 0
    assert always["teacher_calls_played"] == always["calls_differ"] > 0


def test_pieces_join_into_one_table_of_values(tmp_path: Path) -> None:
    """Each piece has its own table of values; joined, every row reads what it stored."""
    a, b = collect(1, hands=1), collect(2, hands=1)
    order = np.arange(len(b["values"]))[::-1]  # b's table in another order than a's
    b = dict(b, values=b["values"][order], codes=np.argsort(order).astype(np.uint8)[b["codes"]])
    rules = NeuralBot.load(THREE).rules
    paths = [imitate.save_piece(d, rules, tmp_path / f"{k}.npz") for k, d in enumerate((a, b))]
    data = imitate.load_pieces(paths, rules)
    stored = np.concatenate([d["values"][d["codes"]] for d in (a, b)])
    assert np.array_equal(data["values"][data["codes"]], stored)
    assert data["hand"].tolist() == [0] * len(a["label"]) + [1] * len(b["label"])
    assert data["counts"]["hands"] == 2


def test_hard_rows_are_the_teachers_nullo_calls_and_nullo_discards() -> None:
    data = {"role": np.array([imitate.CALL, imitate.CALL, imitate.CALL, imitate.NULLO_DISCARD,
                              imitate.DISCARD_ANCHOR, imitate.CARD_ANCHOR]),
            "label": np.array([A.PASS, A.OPEN_NULLO, A.bid_action(6, 0), 40, 41, 80])}
    assert imitate.hard_rows(data, "nullo").tolist() == [False, True, False, True, False, False]
    for labels in ("all", "nullo-cards"):  # nullo-cards rows are train.nullo_play's to fit
        with pytest.raises(ValueError, match=f"labels='{labels}': this module fits the nullo"):
            imitate.hard_rows(data, labels)
    with pytest.raises(ValueError, match="labels='all' must be one of nullo, nullo-cards"):
        imitate_recipe("all")
    assert imitate_recipe("nullo") is imitate and imitate_recipe("nullo-cards") is nullo_play


def test_double_nullo_calls_pass_teaches_no_double_nullo() -> None:
    """The teacher's double nullos become passes (still fitted), the network's own double
    nullos are fitted to the teacher's call, pass where that is a double nullo too; with
    ``copy`` the teacher's double nullo is copied and the network's own is anchored."""
    legal = np.ones((6, A.NUM_ACTIONS), dtype=bool)
    legal[5, A.PASS] = False  # where pass is not legal, nothing is relabelled
    data = {"role": np.array([imitate.CALL] * 6),
            "label": np.array([A.DOUBLE_NULLO, A.OPEN_NULLO, A.bid_action(7, 1), A.DOUBLE_NULLO,
                               A.PASS, A.DOUBLE_NULLO]),
            "greedy": np.array([A.PASS, A.DOUBLE_NULLO, A.DOUBLE_NULLO, A.DOUBLE_NULLO,
                                A.PASS, A.PASS]),
            "mask": legal}
    assert imitate.hard_rows(data, "nullo").tolist() == [True, True, False, True, False, True]
    assert imitate.hard_rows(data, "nullo", "pass").tolist() == [True, True, True, True, False,
                                                                 True]
    passed = imitate.pass_double_nullos(data)
    assert passed["label"].tolist() == [A.PASS, A.OPEN_NULLO, A.bid_action(7, 1), A.PASS,
                                        A.PASS, A.DOUBLE_NULLO]
    assert data["label"][0] == A.DOUBLE_NULLO  # the collection itself is unchanged


# ---------------------------------------------------------------------- fitting
def nullo_play_rows(data: dict, players: int) -> dict:
    """``data``'s rows made to look like nullo card play (phase PLAY, an open nullo contract):
    rows the nullo branch plays, which only its freezing keeps from moving it."""
    lay = observe.layout(players)
    obs = data["values"][data["codes"]]
    phase, bid = lay.slices["phase"], lay.slices["bid"]
    obs[:, phase] = 0.0
    obs[:, phase.start + int(Phase.PLAY)] = 1.0
    obs[:, bid] = 0.0
    obs[:, bid.start + A.OPEN_NULLO - 1] = 1.0
    values = np.unique(obs)
    return dict(data, values=values, codes=np.searchsorted(values, obs).astype(np.uint8))


def join(a: dict, b: dict) -> dict:
    """Two collections as one fit's data, every row fitted (none held out)."""
    values = np.union1d(a["values"], b["values"]).astype(np.float32)
    data = {k: np.concatenate([a[k], b[k]]) for k in imitate.COLUMNS if k != "codes"}
    data["codes"] = np.concatenate([np.searchsorted(values, d["values"]).astype(np.uint8)[
        d["codes"]] for d in (a, b)])
    return dict(data, values=values, hand=np.ones(len(data["label"]), dtype=np.int32))


def test_the_fit_moves_the_base_and_never_the_nullo_branch() -> None:
    plain = collect(3)
    plain["role"][:] = imitate.NULLO_DISCARD  # every row a hard label: the base must move
    nullo = nullo_play_rows(plain, 3)
    net = NeuralBot.load(THREE).net
    start = {k: v.clone() for k, v in net.state_dict().items()}
    # the made-up rows do reach the branch: unfrozen, its weights would get a gradient
    obs, mask, label = imitate.rows_batch(nullo, np.arange(len(nullo["label"])))
    imitate.loss(net, net, obs, mask, label, torch.ones(len(label), dtype=torch.bool),
                 3.0).backward()
    assert any(p.grad is not None and p.grad.abs().sum() > 0 for p in net.nullo.parameters())
    net.zero_grad()
    imitate.fit(net, join(plain, nullo), epochs=2, learning_rate=1e-3)
    after = net.state_dict()
    branch = [k for k in after if k.startswith("nullo.")]
    assert branch and all(torch.equal(after[k], start[k]) for k in branch)
    assert not all(torch.equal(after[k], start[k]) for k in after if k not in branch)


def test_a_moved_nullo_branch_is_caught() -> None:
    net = NeuralBot.load(THREE).net
    before = imitate.freeze_nullo(net)
    imitate.check_frozen(net, before)
    with torch.no_grad():
        next(net.nullo.parameters()).add_(1e-3)
    with pytest.raises(RuntimeError, match="moved the nullo branch"):
        imitate.check_frozen(net, before)


# ---------------------------------------------------------------------- the pipeline
def check_run(run: Path, init: str) -> None:
    stages = json.loads((run / "stages.json").read_text())
    assert [s["kind"] for s in stages] == ["imitate"]
    assert set(stages[0]["results"]) == {"random"}
    assert sorted(p.name for p in (run / "stage-1-imitate").glob("piece-*.npz")) == [
        "piece-1.npz", "piece-2.npz"]
    bot = make_bot(f"neural:{run / 'best.pt'}", NeuralBot.load(init).rules)
    assert bot.net.nullo is not None
    start, end = weights(shipped(init)), weights(run / "best.pt")
    assert start.keys() == end.keys()
    nullo = [k for k in end if k.startswith("nullo.")]
    assert all(torch.equal(start[k], end[k]) for k in nullo)
    assert not all(torch.equal(start[k], end[k]) for k in end if k not in nullo)
    record = torch.load(run / "best.pt", weights_only=True)["imitate"]
    assert record["counts"]["hands"] == 6 and len(record["history"]) == 2


def test_a_three_handed_run_ends_with_a_loadable_agent(whole_run: Path) -> None:
    check_run(whole_run, THREE)


def test_a_four_player_nullo_preset_runs(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert main(["--config", str(toy(tmp_path, "australian", FOUR)), "--run-dir", str(run),
                 "--no-progress"]) == 0
    check_run(run, FOUR)
    assert torch.load(run / "best.pt", weights_only=True)["imitate"]["double_nullo_calls"] == (
        "copy")


def test_a_stage_that_teaches_no_double_nullo_runs(tmp_path: Path) -> None:
    adn = "distill-american-double-nullo-dagger"
    path = imitate_config(tmp_path / "toy.toml", "american-double-nullo", adn, TEACHER,
                          "hands = 6\npieces = 2\nworkers = 1\nepochs = 1\n"
                          "double_nullo_calls = 'pass'")
    assert PipelineConfig.from_toml(path).stage(0).double_nullo_calls == "pass"
    run = tmp_path / "run"
    assert main(["--config", str(path), "--run-dir", str(run), "--no-progress"]) == 0
    check_run(run, adn)
    assert torch.load(run / "best.pt", weights_only=True)["imitate"]["double_nullo_calls"] == (
        "pass")


def test_a_kill_between_pieces_keeps_the_written_ones(tmp_path: Path, whole_run: Path,
                                                      monkeypatch) -> None:
    cfg = PipelineConfig.from_toml(toy(tmp_path))
    run = tmp_path / "run"
    real_save, saved = imitate.save_piece, []

    def save(data, rules, path):
        saved.append(Path(path).name)
        if saved == ["piece-1.npz", "piece-2.npz"]:
            raise KeyboardInterrupt  # killed inside the collection, after one piece
        return real_save(data, rules, path)

    monkeypatch.setattr(imitate, "save_piece", save)
    with pytest.raises(KeyboardInterrupt):
        run_pipeline(cfg, run, progress=False)
    piece = run / "stage-1-imitate" / "piece-1.npz"
    kept = piece.stat().st_mtime_ns
    assert not (run / "stage-1-imitate" / "piece-2.npz").exists()
    assert not (run / "stage-1-imitate" / "agent.pt").exists()

    assert main(["--resume", str(run), "--no-progress"]) == 0
    assert piece.stat().st_mtime_ns == kept  # the finished piece was not collected again
    assert saved == ["piece-1.npz", "piece-2.npz", "piece-2.npz"]  # only the missing one
    a, b = weights(run / "best.pt"), weights(whole_run / "best.pt")
    assert all(torch.equal(a[k], b[k]) for k in a)  # the same agent as without the kill


# ---------------------------------------------------------------------- nullo-cards
class OpenNulloTeacher:
    """A stand-in teacher that makes a nullo contract of every hand: it calls an open nullo
    (else a nullo) whenever it may and passes otherwise; elsewhere it plays its lowest legal
    action.  It logs every card it is asked for (of more than one legal) with whether the
    seat asked is the declarer."""

    def __init__(self) -> None:
        self.cards: list[tuple[int, bool]] = []

    def act(self, view, rng: random.Random) -> int:
        legal = [a for a in range(view.legal.bit_length()) if view.legal >> a & 1]
        if view.phase == Phase.AUCTION:
            return next(a for a in (A.OPEN_NULLO, A.NULLO, A.PASS, legal[0]) if a in legal)
        if view.phase == Phase.PLAY and len(legal) > 1:
            self.cards.append((legal[0], view.seat == view.declarer))
        return legal[0]


NULLO_TEACHER = "open-nullo-teacher"


@pytest.fixture
def nullo_teacher(monkeypatch) -> str:
    """:class:`OpenNulloTeacher` as a bot spec, for what builds its teacher from one."""
    from agents.registry import BOTS, BotInfo

    monkeypatch.setitem(BOTS, NULLO_TEACHER, BotInfo(NULLO_TEACHER, "test",
                                                     factory_fn=lambda arg: OpenNulloTeacher()))
    return NULLO_TEACHER


def cards(agent: str, seed: int, mix: float = 0.5, hands: int = 4,
          teacher: OpenNulloTeacher | None = None) -> dict[str, np.ndarray]:
    bot = NeuralBot.load(agent)
    return nullo_play.collect(bot, teacher or OpenNulloTeacher(), hands, seed, mix)


@pytest.mark.parametrize("agent", [FOUR, SIX])
def test_a_nullo_cards_piece_holds_the_teachers_cards_of_nullo_contracts(agent: str) -> None:
    bot, teacher = NeuralBot.load(agent), OpenNulloTeacher()
    data = cards(agent, 7, teacher=teacher)
    counts = json.loads(str(data["counts"]))
    n = len(data["label"])
    assert counts["hands"] == 4 and counts["nullo_contracts"] == 4 - counts["thrown_in"] > 0
    assert counts["other_contracts"] == 0 and counts["open_nullo_contracts"] > 0
    assert n == counts["declarer_decisions"] + counts["defender_decisions"] > 0
    # only card decisions of nullo contracts (rows the nullo branch plays), none forced
    play_base = A.action_table(bot.rules.players).play_base
    assert (data["label"] >= play_base).all() and (data["greedy"] >= play_base).all()
    assert nullo_play.branch_rows(nullo_play.with_branch(bot.net)[0], data).all()
    assert data["mask"][np.arange(n), data["label"]].all() and (data["mask"].sum(1) > 1).all()
    # the teacher's card at each decision it was asked, in order, and the role of the seat
    assert data["label"].tolist() == [card for card, _ in teacher.cards]
    assert set(data["role"].tolist()) == {imitate.NULLO_DECLARER, imitate.NULLO_DEFENDER}
    assert (data["role"] == imitate.NULLO_DECLARER).tolist() == [d for _, d in teacher.cards]
    assert counts["declarer_decisions"] == (data["role"] == imitate.NULLO_DECLARER).sum()
    # greedy: the network's card on the stored observation, as the counts say
    with torch.no_grad():
        logits = bot.net(torch.from_numpy(data["values"][data["codes"]]))[0]
    picked = masked_logits(logits, torch.from_numpy(data["mask"])).argmax(1).numpy()
    assert (picked == data["greedy"]).all()
    assert counts["declarer_agree"] + counts["defender_agree"] == (
        data["greedy"] == data["label"]).sum()
    assert 0 < counts["teacher_cards_played"] < counts["cards_differ"]  # mix 0.5: some
    # the same seed gives the same arrays; another seed others
    again, other = cards(agent, 7), cards(agent, 8)
    assert data.keys() == again.keys() and all(np.array_equal(data[k], again[k]) for k in data)
    assert not np.array_equal(data["label"], other["label"][:n])


def test_with_mix_1_every_card_played_is_the_teachers() -> None:
    """The rows of mix = 1 are those of the same deals played by the teacher alone."""
    data = cards(SIX, 5, mix=1.0, hands=3)
    rules, teacher, made = NeuralBot.load(SIX).rules, OpenNulloTeacher(), 0
    for k in range(3):
        state = State(rules, seed=game_seed(5, imitate.STREAM, k))
        while not state.is_terminal:
            state.apply(teacher.act(seat_view(state, state.turn), random.Random(0)))
        made += bool(state.result.made)
    assert data["label"].tolist() == [card for card, _ in teacher.cards]
    assert (data["role"] == imitate.NULLO_DECLARER).tolist() == [d for _, d in teacher.cards]
    counts = json.loads(str(data["counts"]))
    assert counts["nullo_made"] == made
    assert counts["teacher_cards_played"] == counts["cards_differ"] > 0
    never = json.loads(str(cards(SIX, 5, mix=0.0, hands=3)["counts"]))
    assert never["teacher_cards_played"] == 0 and never["cards_differ"] > 0


def test_with_roles_defenders_the_teacher_plays_the_defence_alone() -> None:
    """``roles = "defenders"``: the network calls (so the contracts are its own, not the
    teacher's open nullos), the teacher is asked only for the defenders' cards, whose rows it
    labels in order, and the declarer's rows carry the network's own card."""
    # an agent that bids open nullos itself (about one hand in five)
    bot, teacher = NeuralBot.load("distill-australian-nullo-declarer"), OpenNulloTeacher()
    data = nullo_play.collect(bot, teacher, 40, 11, 0.5, roles="defenders")
    counts = json.loads(str(data["counts"]))
    assert counts["other_contracts"] > 0  # the network bid suits, where the teacher would not
    assert counts["nullo_contracts"] > 0 and counts["declarer_decisions"] > 0
    assert teacher.cards and not any(declarer for _, declarer in teacher.cards)
    defending = data["role"] == imitate.NULLO_DEFENDER
    assert data["label"][defending].tolist() == [card for card, _ in teacher.cards]
    assert (data["label"][~defending] == data["greedy"][~defending]).all()
    assert counts["declarer_agree"] == counts["declarer_decisions"]
    # the auction does not wait on the teacher: without its cards (mix 0) the contracts are the same
    plain = nullo_play.collect(bot, OpenNulloTeacher(), 40, 11, 0.0, roles="defenders")
    assert json.loads(str(plain["counts"]))["nullo_contracts"] == counts["nullo_contracts"]
    with pytest.raises(ValueError, match="roles='declarer' must be one of all, defenders"):
        nullo_play.collect(bot, teacher, 1, 11, roles="declarer")


@pytest.mark.parametrize("agent", [SIX, FOUR])
def test_the_nullo_cards_fit_moves_the_branch_alone(tmp_path: Path, nullo_teacher: str,
                                                    agent: str) -> None:
    """Through the pipeline's entry points: an agent without a branch comes out with one,
    started from its own network; every tensor outside the branch is unchanged."""
    stage = {"teacher": nullo_teacher, "labels": "nullo-cards", "mix": 0.5}
    paths = [tmp_path / f"piece-{k}.npz" for k in (1, 2)]
    for k, path in enumerate(paths):
        imitate_recipe("nullo-cards").collect_piece(agent, stage, 6, 20 + k, str(path))
    out = tmp_path / "agent.pt"
    history = imitate_recipe("nullo-cards").fit_agent(agent, paths, out, epochs=2,
                                                      learning_rate=1e-3)
    start, end = weights(shipped(agent)), weights(out)
    base = [k for k in end if not k.startswith("nullo.")]
    assert sorted(base) == sorted(k for k in start if not k.startswith("nullo."))
    assert all(torch.equal(start[k], end[k]) for k in base)
    had_branch = any(k.startswith("nullo.") for k in start)
    # the branch moved from where it started: the agent's branch, or a copy of its network
    origin = {k: start[k] if had_branch else start[k[len("nullo."):]] for k in end
              if k.startswith("nullo.")}
    assert origin and not all(torch.equal(origin[k], end[k]) for k in origin)
    saved = torch.load(out, weights_only=True)
    assert saved["policy"]["nullo_branch"] is True
    assert NeuralBot.load(out).net.nullo is not None
    record = saved["imitate"]
    assert record["labels"] == "nullo-cards" and record["joined"] == (not had_branch)
    assert record["counts"]["hands"] == 12 and record["declarer_weight"] == 2.0
    assert len(history) == 3 and {"declarer", "defender"} <= set(history[0])
    if not had_branch:  # recorded as `python -m train.distill join` records a join
        assert saved["nullo_branch"] == {"base": agent, "nullo": agent}


def test_the_nullo_cards_fit_learns_the_teachers_cards() -> None:
    data = cards(SIX, 3, hands=8)
    plain = NeuralBot.load(SIX).net
    net, joined = nullo_play.with_branch(plain)
    assert joined and not nullo_play.with_branch(net)[1]
    obs = imitate.rows_batch(data, np.arange(len(data["label"])))[0]
    with torch.no_grad():  # joined, the branch plays exactly as the network did
        assert torch.equal(net(obs)[0], plain(obs)[0])
    rows = np.flatnonzero(data["hand"] % imitate.HOLDOUT_EVERY != 0)  # the rows it fits
    before = imitate.agreement(net, data, rows, nullo_play.GROUPS)
    nullo_play.fit(net, data, epochs=4, learning_rate=1e-3)
    after = imitate.agreement(net, data, rows, nullo_play.GROUPS)
    for role in ("declarer", "defender"):
        assert after[role] > before[role] + 0.05, (role, before, after)


def test_the_declarer_weight_is_the_fits() -> None:
    data = cards(FOUR, 3, hands=4)

    def fitted(**weight: float) -> dict:
        net = NeuralBot.load(FOUR).net
        nullo_play.fit(net, data, epochs=1, learning_rate=1e-3, **weight)
        return net.nullo.state_dict()

    default, two, one = fitted(), fitted(declarer_weight=2.0), fitted(declarer_weight=1.0)
    assert all(torch.equal(default[k], two[k]) for k in two)
    assert not all(torch.equal(one[k], two[k]) for k in two)


def test_the_declarer_weight_weighs_the_declarers_rows() -> None:
    data = cards(FOUR, 3, hands=2)
    net = NeuralBot.load(FOUR).net
    idx = np.arange(len(data["label"]))
    obs, mask, label = imitate.rows_batch(data, idx)
    declarer = torch.from_numpy(data["role"] == imitate.NULLO_DECLARER)
    with torch.no_grad():
        alone = nullo_play.loss(net.nullo, obs[declarer], mask[declarer], label[declarer],
                                torch.ones(int(declarer.sum())))
        weighted = [nullo_play.loss(net.nullo, obs, mask, label,
                                    torch.where(declarer, w, 1.0)) for w in (1.0, 1e6)]
    assert abs(float(weighted[1]) - float(alone)) < 1e-3 * float(alone)
    assert abs(float(weighted[0]) - float(alone)) > 1e-3


def test_rows_the_branch_does_not_play_are_refused(tmp_path: Path) -> None:
    data = cards(FOUR, 7, hands=2)
    net = NeuralBot.load(FOUR).net
    lay = observe.layout(4)
    obs = data["values"][data["codes"]]
    phase = lay.slices["phase"]
    obs[3, phase] = 0.0
    obs[3, phase.start + int(Phase.EXCHANGE)] = 1.0  # row 3 is now a discard
    values = np.unique(obs)
    bad = dict(data, values=values, codes=np.searchsorted(values, obs).astype(np.uint8))
    with pytest.raises(ValueError, match=r"1 of \d+ stored rows \(the first: row 3\) are not "
                                         "card play of a nullo contract"):
        nullo_play.fit(net, bad, epochs=1)
    # nor are the pieces of the nullo calls' recipe read as nullo card play
    rules = NeuralBot.load(THREE).rules
    piece = imitate.save_piece(collect(1, hands=1), rules, tmp_path / "calls.npz")
    with pytest.raises(ValueError, match="is not imitation data of fivehundred-rl/imitate-"):
        nullo_play.fit_agent(THREE, [piece], tmp_path / "x.pt")
    with pytest.raises(ValueError, match="labels='nullo-cards': this module fits the nullo"):
        imitate.fit_agent(THREE, [piece], tmp_path / "x.pt", labels="nullo-cards")
    assert not (tmp_path / "x.pt").exists()


def test_a_moved_base_is_caught() -> None:
    net = nullo_play.with_branch(NeuralBot.load(SIX).net)[0]
    before = nullo_play.freeze_base(net)
    assert all(p.requires_grad == n.startswith("nullo.") for n, p in net.named_parameters())
    nullo_play.check_base(net, before)
    with torch.no_grad():
        net.policy_head.bias.add_(1e-3)
    with pytest.raises(RuntimeError, match="moved policy_head.bias, outside the nullo branch"):
        nullo_play.check_base(net, before)
