"""Game records: every hand of a game as a readable JSON file that replays to the same scores.

A record holds the rules, the seed, and for each hand the deal (a hand per player and the kitty,
by card name), the dealer, every action in the order it was applied (by action name, in the
action table of the rules' table size: :func:`fh_env.actions.action_table`) and the result.
Scores and results have one entry per side: two teams (four or six players) or each of three
players (§9).  Replaying it rebuilds each hand with :meth:`State.from_deal` / :meth:`State.next_hand`
and applies the actions, so a record checks itself: :func:`replay` raises
:class:`RecordMismatch` when a result or the final score does not come out as recorded.

Two kinds of record:

* ``"game"``: the hands of one game in order; each hand continues the previous one (scores,
  dealer rotation, game end), as :class:`Recorder` writes them;
* ``"hands"``: independent hands, each the first hand of a fresh game at 0-0 (what an
  evaluation over fixed deals plays).

Build a record while playing with :class:`Recorder` (it sees every action, so the discards of
an exchange keep their order), or after the fact from a finished state with
:func:`hand_from_state` (discards are then listed in card order, which replays identically:
the order of discards within one exchange changes nothing in the game).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Iterator, NamedTuple, Sequence

from .actions import DISCARD_BASE, action_table
from .cards import NT_STANDARD, card_name, cards_of, is_joker, parse_card
from .contracts import DRAW
from .engine import HandResult, State
from .rules import Rules

FORMAT = "fivehundred-record"
VERSION = 1
KINDS = ("game", "hands")


class RecordMismatch(ValueError):
    """A record whose replay does not give what it says (or that is not a record at all)."""


# ---------------------------------------------------------------------- building


def result_to_dict(result: HandResult | None) -> dict[str, Any] | None:
    """A hand result as readable JSON values (the contract by name)."""
    if result is None:
        return None
    return {
        "contract": result.contract_name,
        "declarer": result.declarer,
        "tricks": list(result.tricks),
        "hand_points": list(result.hand_points),
        "game_points": list(result.game_points),
        "made": result.made,
        "thrown_in": result.thrown_in,
    }


def hand_entry(rules: Rules, dealer: int, dealt: tuple[Sequence[int], int],
               actions: Iterable[int], result: HandResult | None,
               scores_before: Sequence[int] | None = None,
               players: Sequence[str] | None = None) -> dict[str, Any]:
    """One hand of a record from its deal (as ``State.dealt``), dealer, actions and result;
    ``scores_before`` is the game score when it was dealt (0 for every side if left out);
    ``players`` names who sat in each seat for this hand when it differs between hands."""
    jokers = rules.jokers
    table = action_table(rules.players)
    if scores_before is None:
        scores_before = (0,) * rules.sides
    hands, kitty = dealt
    entry: dict[str, Any] = {"players": list(players)} if players is not None else {}
    return entry | {
        "dealer": dealer,
        "scores_before": list(scores_before),
        "hands": [[card_name(c, jokers) for c in cards_of(h)] for h in hands],
        "kitty": [card_name(c, jokers) for c in cards_of(kitty)],
        "actions": [table.to_str(a, jokers) for a in actions],
        "result": result_to_dict(result),
    }


def hand_actions(state: State) -> list[int]:
    """The actions of the current hand so far, read back from the state's history.

    Calls and plays come out in order; the discards of an exchange in card order (the state
    keeps them as a set).  A joker led without a trump suit is the naming action of the suit
    that was led.
    """
    table = action_table(state.rules.players)
    out = [a for _, a in state.calls]
    for _, _, discarded in state.exchanges:
        out.extend(DISCARD_BASE + c for c in cards_of(discarded))
    ctx = state.context
    tricks = [(cards, led) for _, cards, _, led in state.tricks]
    if state.trick:
        tricks.append((tuple(state.trick), state.led))
    for cards, led in tricks:
        for i, c in enumerate(cards):
            if i == 0 and is_joker(c) and ctx >= NT_STANDARD:
                out.append(table.joker_lead_action(c, led))
            else:
                out.append(table.play_base + c)
    return out


def hand_from_state(state: State, scores_before: Sequence[int] | None = None,
                    players: Sequence[str] | None = None) -> dict[str, Any]:
    """The record entry of the state's current hand (finished or not), from its history.

    ``scores_before`` (the game score when the hand was dealt) may be left out for the first
    hand of a game (0 for every side) and for a hand still in progress.
    """
    if scores_before is None:
        if not state.is_terminal:
            scores_before = state.scores
        elif state.deal_index == 1:
            scores_before = (0,) * state.rules.sides
        else:
            raise ValueError("a finished hand after the first of a game needs scores_before: "
                             "the state no longer knows the score it started from")
    return hand_entry(state.rules, state.dealer, state.dealt, hand_actions(state), state.result,
                      scores_before, players)


def make_record(rules: Rules, hands: Sequence[dict[str, Any]], seed: int = 0,
                kind: str = "game", players: Sequence[str] | None = None,
                final_scores: Sequence[int] | None = None, winner: int | None | str = "unknown",
                **meta: Any) -> dict[str, Any]:
    """A whole record from its hand entries; ``meta`` adds free-form fields (``event=...``).

    ``winner`` is the game's winner (a side: a team 0 or 1, or with three players a seat 0..2;
    ``DRAW`` (-2) for a draw; None while it goes on); left out, the record does not say.
    """
    if kind not in KINDS:
        raise ValueError(f"record kind {kind!r} must be one of {', '.join(KINDS)}")
    record: dict[str, Any] = {"format": FORMAT, "version": VERSION, "kind": kind,
                              "rules": rules.to_dict(), "seed": seed}
    if players is not None:
        record["players"] = list(players)
    record.update(meta)
    record["hands"] = list(hands)
    if final_scores is None and hands and kind == "game":
        last = hands[-1]["result"]
        final_scores = last["game_points"] if last else last_scores(hands)
    record["final_scores"] = list(final_scores) if final_scores is not None else None
    if winner != "unknown":
        record["winner"] = winner
    return record


def last_scores(hands: Sequence[dict[str, Any]]) -> list[int]:
    return list(hands[-1]["scores_before"]) if hands else [0, 0]


class Recorder:
    """Plays a game through :meth:`apply` / :meth:`next_hand` and records it as it goes.

    Use it in place of the state's own methods: ``rec.apply(a)`` applies ``a`` to ``rec.state``
    and notes it.  :meth:`record` gives the record so far (a hand in progress has no result).
    """

    def __init__(self, state: State, players: Sequence[str] | None = None,
                 **meta: Any) -> None:
        self.state = state
        self.players = list(players) if players is not None else None
        self.meta = meta
        self.finished: list[dict[str, Any]] = []
        self._begin()

    def _begin(self) -> None:
        s = self.state
        self._start = (s.dealer, s.dealt, tuple(s.scores))
        self.actions: list[int] = []

    def apply(self, action: int) -> None:
        self.state.apply(action)  # raises on an illegal action, recording nothing
        self.actions.append(action)
        if self.state.is_terminal:
            self.finished.append(self._entry())

    def next_hand(self) -> None:
        self.state.next_hand()
        self._begin()

    def _entry(self) -> dict[str, Any]:
        dealer, dealt, scores = self._start
        return hand_entry(self.state.rules, dealer, dealt, self.actions, self.state.result,
                          scores)

    def record(self) -> dict[str, Any]:
        """The record of every hand so far, the one in progress included (if it has begun)."""
        s = self.state
        hands = list(self.finished)
        if not s.is_terminal and self.actions:
            hands.append(self._entry())
        return make_record(s.rules, hands, seed=s.seed, kind="game", players=self.players,
                           final_scores=s.scores, winner=s.winner, **self.meta)

    def save(self, path: str | Path) -> Path:
        return save_record(self.record(), path)


# ---------------------------------------------------------------------- files


def dumps(record: dict[str, Any]) -> str:
    """JSON text with one line per list of plain values (a hand, the actions), for reading."""
    def write(value: Any, indent: int) -> str:
        pad = "  " * (indent + 1)
        if isinstance(value, dict) and value:
            items = [f"{pad}{json.dumps(k)}: {write(v, indent + 1)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
        if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
            items = [pad + write(v, indent + 1) for v in value]
            return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
        return json.dumps(value, ensure_ascii=False)
    return write(record, 0) + "\n"


def save_record(record: dict[str, Any], path: str | Path) -> Path:
    """Write a record as readable JSON (parent folders are created)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(record), encoding="utf-8")
    return path


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and check the header of a record file."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"record file {path} does not exist") from None
    except json.JSONDecodeError as err:
        raise RecordMismatch(f"record file {path} is not valid JSON: {err}") from None
    check_header(data, str(path))
    return data


def check_header(data: Any, where: str = "record") -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordMismatch(f"{where} is not a Five Hundred record (no \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise RecordMismatch(f"{where} has record version {data.get('version')!r}; "
                             f"this program reads version {VERSION}")
    if data.get("kind", "game") not in KINDS:
        raise RecordMismatch(f"{where} has kind {data.get('kind')!r}, not one of {KINDS}")


def save_states(states: Iterable[State], path: str | Path,
                players: Sequence[Sequence[str]] | None = None, **meta: Any) -> Path:
    """Save finished hands of independent games (each a fresh game) as one ``hands`` record.

    The hook for evaluations: keep the final state of each hand played, then save them all;
    ``players[i]`` names the seats of hand ``i``.
    """
    states = list(states)
    if not states:
        raise ValueError("no hands to save")
    seats = list(players) if players is not None else [None] * len(states)
    entries = [hand_from_state(s, players=p) for s, p in zip(states, seats)]
    return save_record(make_record(states[0].rules, entries, kind="hands", seed=states[0].seed,
                                   **meta), path)


# ---------------------------------------------------------------------- replay


class Step(NamedTuple):
    """One step of a replay: the hand's index, the seat that acted, the action and the state
    after it; each hand starts with a step whose action is None (seat -1): the deal."""

    hand: int
    seat: int
    action: int | None
    state: State


def _deal(entry: dict[str, Any]) -> tuple[list[int], int]:
    hands = [sum(1 << parse_card(c) for c in hand) for hand in entry["hands"]]
    return hands, sum(1 << parse_card(c) for c in entry["kitty"])


def hand_start(record: dict[str, Any], index: int, previous: State | None = None) -> State:
    """The state at the start of hand ``index``: the next hand of ``previous`` in a game
    record (``previous`` must be the finished hand ``index - 1``), a fresh game otherwise."""
    rules = Rules.from_dict(record["rules"])
    entry = record["hands"][index]
    hands, kitty = _deal(entry)
    where = f"hand {index + 1}"
    if record.get("kind", "game") == "game" and index > 0:
        if previous is None:
            raise ValueError("a game record's later hands start from the previous hand's end")
        state = previous
        try:
            state.next_hand(deal=(hands, kitty))
        except ValueError as err:
            raise RecordMismatch(f"{where}: {err}") from None
        if state.dealer != entry["dealer"]:
            raise RecordMismatch(f"{where}: recorded dealer {entry['dealer']}, but after the "
                                 f"previous hand the deal passes to {state.dealer}")
    else:
        try:
            state = State.from_deal(rules, [list(cards_of(h)) for h in hands],
                                    list(cards_of(kitty)), dealer=entry["dealer"],
                                    seed=record.get("seed", 0))
        except ValueError as err:
            raise RecordMismatch(f"{where}: {err}") from None
        state.scores = list(entry.get("scores_before", [0] * rules.sides))
    if list(state.scores) != list(entry.get("scores_before", state.scores)):
        raise RecordMismatch(f"{where}: recorded scores before it {entry['scores_before']}, "
                             f"replayed {state.scores}")
    return state


def replay(record: dict[str, Any]) -> Iterator[Step]:
    """Each hand's deal, then every action of the record applied in turn, checking each result
    and the final score.

    Raises :class:`RecordMismatch` on an illegal action or a result that differs from the one
    recorded.  The states yielded are the replay's own: copy one (``clone``) to keep it.
    """
    check_header(record)
    state: State | None = None
    table = _action_table(record)
    for index, entry in enumerate(record["hands"]):
        state = hand_start(record, index, state)
        yield Step(index, -1, None, state)
        for name in entry["actions"]:
            seat = state.turn
            try:
                action = table.from_str(name)
                state.apply(action)
            except ValueError as err:
                raise RecordMismatch(f"hand {index + 1}, action {name!r}: {err}") from None
            yield Step(index, seat, action, state)
        got = result_to_dict(state.result)
        if got != entry.get("result"):
            raise RecordMismatch(f"hand {index + 1}: recorded result {entry.get('result')}, "
                                 f"replayed {got}")
    final = record.get("final_scores")
    if state is not None and final is not None and record.get("kind", "game") == "game" \
            and list(state.scores) != list(final):
        raise RecordMismatch(f"recorded final scores {final}, replayed {state.scores}")
    if state is not None and record.get("kind", "game") == "game" and "winner" in record \
            and _recorded_winner(record) != state.winner:
        raise RecordMismatch(f"recorded winner {record.get('winner')}, replayed {state.winner}")


def _action_table(record: dict[str, Any]):
    """The action table the record's action names belong to (that of its table size)."""
    try:
        players = Rules.from_dict(record["rules"]).players
    except (KeyError, TypeError, ValueError) as err:
        raise RecordMismatch(f"record rules are not valid: {err}") from None
    return action_table(players)


def _recorded_winner(record: dict[str, Any]) -> Any:
    """The record's winner; a draw of a 4-player record written before ``DRAW`` became -2 said
    2 (no team has that number, so it can only mean a draw)."""
    winner = record["winner"]
    if winner == 2 and Rules.from_dict(record["rules"]).players == 4:
        return DRAW
    return winner


def replay_states(record: dict[str, Any]) -> list[State]:
    """The state after the last action of each hand (checked as :func:`replay` does)."""
    ends: dict[int, State] = {}
    for step in replay(record):
        ends[step.hand] = step.state.clone()
    return [ends[i] for i in sorted(ends)]
