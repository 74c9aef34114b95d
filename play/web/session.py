"""One game in the browser: the engine-driving :class:`play.game.Table` plus what the page is
sent, as plain JSON values.

Everything the page receives about the game comes from :meth:`WebGame.snapshot`, which is built
from the person's :class:`fh_env.SeatView` (and, once a hand is over, the finished hand), so a
response can never hold another hand's hidden card.  Cards travel as their names (``10H``,
``JK``); the page draws them.  Every move the page asks for is checked by the engine here
(:meth:`State.is_legal`); a refused one raises :class:`Refused` with the reason in words
(:func:`play.explain.explain_illegal`), which the server sends as a 4xx.  The bots move one at a
time, when the page asks (:meth:`advance`), so the page sets the pace and a reload simply asks
for the snapshot again.

Every table size of rules §9 is served: three players (North, East, West, each scoring for
themselves), four, and six (two teams of three in alternate seats, the larger action table of
:func:`fh_env.actions.action_table`).  The snapshot names the seats and the sides, so the page
draws the table from it; action ids are read through the table size's action table only.
"""

from __future__ import annotations

import threading
from typing import Any, Iterable, Mapping

from fh_env import actions as A
from fh_env.cards import JOKER, NO_SUIT, NT_STANDARD, SUITS, card_name, cards_of, parse_card
from fh_env.claims import ClaimError
from fh_env.engine import NO_CONTRACT, Phase, State, side_of, sitting_out_seats, trick_order
from fh_env.records import replay
from fh_env.rules import Rules
from fh_env.view import SeatView, seat_view

from agents.base import Bot

from ..aids import AidUnavailable
from ..explain import explain_illegal
from ..game import AIDS, Table, winner_text
from ..render import (DEFAULT_SEAT, SEATS, SHORT, action_label, action_line, contract_line,
                      decode, result_text, seat_label, side_names, suit_groups)

PHASES = {Phase.AUCTION: "auction", Phase.EXCHANGE: "exchange", Phase.PLAY: "play",
          Phase.HAND_OVER: "hand_over", Phase.GAME_OVER: "game_over"}
SUIT_KEYS = SUITS + "J"  # a group of the hand: S C D H, or J for jokers without trumps


class Refused(ValueError):
    """A request the game cannot honour now, with the reason (sent as a 4xx)."""

    def __init__(self, reason: str, status: int = 409) -> None:
        super().__init__(reason)
        self.status = status


def code(c: int, jokers: int) -> str:
    return card_name(c, jokers)


def hand_groups(hand: int, context: int, jokers: int) -> list[dict[str, Any]]:
    """A hand sorted as the terminal shows it: side suits, then trumps (bowers and jokers
    with them), each high card first."""
    return [{"suit": SUIT_KEYS[min(suit, NO_SUIT)], "trumps": suit == context < 4,
             "cards": [code(c, jokers) for c in cards]}
            for suit, cards in suit_groups(hand, context)]


def trick_json(leader: int, cards: Iterable[int], sitting_out: int,
               jokers: int, players: int = 4) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": code(c, jokers)}
            for seat, c in zip(trick_order(leader, sitting_out, players), cards)]


def side_sums(per_seat: Iterable[int], players: int) -> list[int]:
    """Per-seat numbers (tricks) added up per side: two teams, or each of three players."""
    sums = [0] * (3 if players == 3 else 2)
    for seat, value in enumerate(per_seat):
        sums[side_of(players, seat)] += value
    return sums


def auction_grid(view: SeatView) -> dict[str, Any]:
    """The calls as rows of one column per seat (3, 4 or 6), from the dealer's left (as the
    terminal draws it)."""
    n = view.rules.players
    order = [(view.dealer + k) % n for k in range(1, n + 1)]
    rows: list[list[str]] = []
    column = n
    for seat, action in view.calls:
        index = order.index(seat)
        if index <= column:
            rows.append([""] * n)
        rows[-1][index] = action_label(action, view.rules.jokers, n)
        column = index
    return {"columns": order, "rows": rows}


def calls_by_seat(view: SeatView) -> list[list[str]]:
    """Each seat's calls this hand, in order (what its box on the table shows)."""
    n = view.rules.players
    calls: list[list[str]] = [[] for _ in range(n)]
    for seat, action in view.calls:
        calls[seat].append(action_label(action, view.rules.jokers, n))
    return calls


def table_json(rules: Rules) -> dict[str, Any]:
    """What the page draws the table from: the table size, the seats' names (clockwise from
    seat 0) and short names, the sides that score and who is on which, the kitty's size."""
    n = rules.players
    return {"table_size": n, "seat_names": list(SEATS[n]), "short_names": list(SHORT[n]),
            "sides": list(side_names(n)), "side_of": [side_of(n, s) for s in range(n)],
            "kitty_size": rules.kitty_size}


def call_box(state: State) -> list[dict[str, Any]]:
    """Every call of these rules with whether it is legal now: the page dims the others."""
    legal = state.legal_mask()
    rules = state.rules
    calls = [A.PASS] + [A.bid_action(level, strain) for level in range(6, 11)
                        for strain in range(5)
                        if level >= rules.min_bid_level or (rules.inkle and level == 6)]
    calls += [a for a, on in ((A.NULLO, rules.nullo), (A.OPEN_NULLO, rules.open_nullo),
                              (A.DOUBLE_NULLO, rules.double_nullo)) if on != "off"]
    if rules.misdeal:
        calls.append(A.MISDEAL)
    return [{"action": a, "label": action_label(a, rules.jokers), "legal": bool(legal >> a & 1)}
            for a in calls]


def tricks_needed(view: SeatView, me: int) -> dict[str, Any] | None:
    """The tricks-needed counter of the play: how many tricks the person's side needs (to
    make its contract, or to set the other's) and how many it has."""
    contract = view.contract
    if view.phase != Phase.PLAY or contract is None or contract == NO_CONTRACT:
        return None
    n = view.rules.players
    by_side = side_sums(view.tricks_won, n)
    declaring = side_of(n, view.declarer)
    ours = side_of(n, me) == declaring
    declared = by_side[declaring]
    defence = len(view.tricks) - declared
    label = action_label(contract, view.rules.jokers, n)
    if contract in A.NULLO_TYPES:
        if ours:
            return {"side": "declarer", "need": 0, "won": declared,
                    "text": f"{label}: take no trick ({declared} taken so far)"}
        return {"side": "defence", "need": 1, "won": defence,
                "text": f"To beat the {label}, make the declarer take a trick "
                        f"({declared} taken so far)"}
    level = A.bid_level(contract)
    if ours:
        left = max(0, level - declared)
        return {"side": "declarer", "need": level, "won": declared,
                "text": f"{label}: your side needs {level} tricks, has {declared}"
                        + (f", {left} to go" if left else ", made")}
    need = 11 - level
    left = max(0, need - defence)
    who = "the defence needs" if n == 3 else "your side needs"
    return {"side": "defence", "need": need, "won": defence,
            "text": f"To set the {label}, {who} {need} tricks, has {defence}"
                    + (f", {left} to go" if left else ", set")}


class WebGame(Table):
    """A game for the browser: the table, an event log, and the JSON the page reads."""

    def __init__(self, rules: Rules, person: int, bots: Mapping[int, Bot], seed: int = 0,
                 aids: Iterable[str] = (), save: str | None = None,
                 helper: Any = None, state: State | None = None, pace_ms: int = 700) -> None:
        super().__init__(rules, person, bots, seed=seed, aids=aids, save=save, helper=helper,
                         state=state)
        self.lock = threading.RLock()  # the server answers requests on several threads
        self.pace_ms = pace_ms
        # how long the page leaves a completed trick on the table (a click ends it sooner)
        self.trick_pause_ms = max(1200, 2 * pace_ms)
        self.events: list[dict[str, Any]] = []
        self.message = ""
        self.table = A.action_table(self.players)  # the action ids of this table size
        self._evaluation: tuple[Any, list[Any], str] = (None, [], "")  # see evaluation()
        self.event(f"Hand 1: {self.names[self.state.dealer]} deals.")

    # ------------------------------------------------------------------ moves
    def event(self, text: str, seat: int = -1) -> None:
        self.events.append({"n": len(self.events) + 1, "seat": seat, "text": text})

    def apply(self, seat: int, action: int) -> None:
        """Apply one action (already checked) and log it as the person may see it."""
        state, n = self.state, self.players
        was_exchange = state.phase == Phase.EXCHANGE
        kind = decode(action, n)[0]
        self.recorder.apply(action)
        if kind == "discard" and seat != self.person:
            if state.phase != Phase.EXCHANGE or state.turn != seat:
                self.event(f"{self.names[seat]} takes the kitty and discards "
                           f"{self.rules.kitty_size} cards.", seat)
        else:
            self.event(action_line(seat_label(seat, self.person, n), action,
                                   self.rules.jokers, n).plain, seat)
        view = seat_view(state, self.person)
        if kind == "call" and state.phase != Phase.AUCTION and state.contract is not None:
            self.event(contract_line(view, self.person).plain)
        if was_exchange and state.phase == Phase.PLAY:
            self.event(f"{self.names[state.turn]} leads.")
        if view.tricks and (state.is_terminal or not state.trick) and kind == "play":
            leader, _, winner, _ = view.tricks[-1]
            self.event(f"Trick {len(view.tricks)} to {seat_label(winner, self.person, n)}.")
        if state.is_terminal:
            self.hand_over()

    def hand_over(self) -> None:
        self.event(result_text(self.state, self.person).plain)
        self.write_record()
        if self.state.game_over:
            self.event(self.winner_text())

    def winner_text(self) -> str:
        return winner_text(self.state, self.person)

    def person_on_turn(self) -> None:
        if self.state.is_terminal:
            raise Refused("the hand is over")
        if self.state.turn != self.person:
            raise Refused(f"it is {self.names[self.state.turn]}'s turn, not yours")

    def act(self, action: int) -> None:
        """A call, or a play, of the person: checked by the engine, refused with the reason."""
        self.person_on_turn()
        if not isinstance(action, int) or isinstance(action, bool):
            raise Refused("the action must be an action id", 400)
        if not self.state.is_legal(action):
            raise Refused(f"Not allowed: {explain_illegal(self.state, action)}.")
        self.apply(self.person, action)

    def card_action(self, name: str, suit: str | None = None) -> int:
        """The action of clicking a card of one's hand (with the suit a joker lead names)."""
        try:
            c = parse_card(name)
        except ValueError as err:
            raise Refused(str(err), 400) from None
        if c >= self.table.num_cards:  # 2S, 11H, 13D ...: only at a table of six
            raise Refused(f"{name} is a card of the six-handed pack only", 400)
        state = self.state
        if state.phase == Phase.EXCHANGE:
            return A.DISCARD_BASE + c
        if suit is not None:
            if suit not in SUITS or not suit:
                raise Refused(f"{suit!r} is not a suit: S, C, D or H", 400)
            if c < JOKER:
                raise Refused("only a joker led names a suit", 400)
            return self.table.joker_lead_action(c, SUITS.index(suit))
        return self.table.play_base + c

    def discard(self, names: list[str]) -> None:
        """The person's discards, all at once (selected, then confirmed)."""
        self.person_on_turn()
        state = self.state
        if state.phase != Phase.EXCHANGE:
            raise Refused("Not allowed: there is nothing to discard now.")
        actions = [self.card_action(n) for n in names]
        if len(set(actions)) != len(actions):
            raise Refused("a card is named twice", 400)
        if len(actions) != state.discards_left:
            raise Refused(f"Choose exactly {state.discards_left} cards to discard "
                          f"(you chose {len(actions)}).")
        for action in actions:
            if not state.hands[self.person] >> (action - A.DISCARD_BASE) & 1:
                raise Refused(f"Not allowed: {explain_illegal(state, action)}.")
        for action in actions:
            self.apply(self.person, action)

    def advance(self) -> bool:
        """One bot move, when a bot is on turn; False when it is nobody's or the person's."""
        state = self.state
        if state.is_terminal or state.turn == self.person:
            return False
        seat = state.turn
        self.apply(seat, self.bot_action(seat))
        return True

    def claim_rest(self) -> bool:
        """The person's claim (§5.11); the hand is played out when it stands."""
        stands = "Your claim stands: the remaining tricks are played out."
        said: list[bool] = []

        def step(action: int) -> None:  # the claim is logged before the tricks it plays
            if not said:
                said.append(True)
                self.event(stands, self.person)
            self.apply(self.state.turn, action)

        try:
            stood = self.claim(step)
        except ClaimError as err:
            raise Refused(f"No claim now: {err}.") from None
        if stood:
            self.message = stands
            return True
        self.message = ("Your claim does not stand: the other side can take a trick "
                        "(or, for a nullo claim, make you take one). Play on.")
        self.event(self.message, self.person)
        return False

    def deal_next(self) -> None:
        if not self.state.is_terminal:
            raise Refused("the hand is still being played")
        if self.state.game_over:
            raise Refused("the game is over")
        self.next_hand()
        self.event(f"Hand {self.hand_no}: {self.names[self.state.dealer]} deals.")

    def set_aid(self, name: str, on: bool) -> None:
        if name not in AIDS:
            raise Refused(f"unknown aid {name!r}; aids: {', '.join(AIDS)}", 400)
        (self.aids.add if on else self.aids.discard)(name)

    # ------------------------------------------------------------------ what the page sees
    def snapshot(self, since: int = 0) -> dict[str, Any]:
        """The table as the person's seat may know it (after a hand: the hand as dealt too,
        when the reveal aid is on), with the events after number ``since``."""
        state, me, n = self.state, self.person, self.players
        view = seat_view(state, me)
        jokers = self.rules.jokers
        ctx = view.context if view.contract is not None else NT_STANDARD
        out_seats = sitting_out_seats(n, view.sitting_out)
        out: dict[str, Any] = {
            "seat": me, "hand_no": self.hand_no, "seed": self.seed,
            **table_json(self.rules), "your_side": side_of(n, me),
            "seats": [{"name": self.names[s], "short": SHORT[n][s],
                       "player": self.seats[s].name, "you": s == me, "side": side_of(n, s)}
                      for s in range(n)],
            "phase": PHASES[view.phase], "turn": view.turn, "dealer": view.dealer,
            "your_turn": view.turn == me,
            "hand": hand_groups(view.hand, ctx, jokers),
            "hand_sizes": list(view.hand_sizes),
            "auction": auction_grid(view), "calls_by_seat": calls_by_seat(view),
            "contract_text": contract_line(view, me).plain,
            "contract": None if view.contract is None or view.contract == NO_CONTRACT
            else action_label(view.contract, jokers),
            "declarer": view.declarer, "sitting_out": view.sitting_out,
            "sitting_out_seats": list(out_seats),
            "trumps": SUITS[ctx] if ctx < 4 else None,
            "trick": trick_json(view.leader, view.trick, view.sitting_out, jokers, n)
            if view.phase == Phase.PLAY else [],
            "led": SUITS[view.led] if 0 <= view.led < 4 else None,
            "last_trick": None,
            "tricks_played": len(view.tricks),
            "tricks_won": side_sums(view.tricks_won, n),
            "tricks_by_seat": list(view.tricks_won),
            "scores": list(view.scores), "teams": list(side_names(n)),
            "exposed": hand_groups(view.exposed, ctx, jokers) if view.exposed else None,
            "kitty": None, "discards_left": view.discards_left, "discards": None,
            "aids": {a: a in self.aids for a in AIDS},
            "pace_ms": self.pace_ms, "trick_pause_ms": self.trick_pause_ms,
            "message": self.message,
            "events": self.events[since:], "event_count": len(self.events),
            "result": None, "reveal": None, "game_over": state.game_over, "winner": None,
            "can_claim": view.phase == Phase.PLAY and me not in out_seats,
        }
        if view.tricks:
            leader, cards, winner, _ = view.tricks[-1]
            out["last_trick"] = {"cards": trick_json(leader, cards, view.sitting_out,
                                                     jokers, n), "winner": winner}
        for seat, picked, _ in view.exchanges:
            if view.phase == Phase.EXCHANGE and seat == me == view.turn:
                out["kitty"] = [code(c, jokers) for c in cards_of(picked)]
        if view.turn == me:
            out["legal"] = self.legal_json(view)
        out["needed"] = tricks_needed(view, me)
        if "counter" in self.aids:  # in every snapshot: current after the last trick too
            out["counter"] = self.counter_json()
        if state.is_terminal:
            # after the hand: the person's own discards, and everyone's with the reveal aid
            out["discards"] = [
                {"seat": seat, "name": self.names[seat],
                 "cards": [code(c, jokers) for c in cards_of(d)]}
                for seat, _, d in state.exchanges if seat == me or "reveal" in self.aids]
            out["result"] = result_text(state, me).plain
            if "reveal" in self.aids:
                out["reveal"] = self.reveal_json()
            if state.game_over:
                out["winner"] = self.winner_text()
        return out

    def legal_json(self, view: SeatView) -> dict[str, Any]:
        """What the person may do now: the call box, or the playable cards (a joker lead with
        the suits it may name)."""
        state = self.state
        jokers = self.rules.jokers
        if view.phase == Phase.AUCTION:
            return {"calls": call_box(state)}
        cards: dict[str, list[str]] = {}
        for action in view.legal_actions():
            kind, c, named = decode(action, self.players)
            if kind != "call":
                names = cards.setdefault(code(c, jokers), [])
                if named >= 0:
                    names.append(SUITS[named])
        return {"cards": cards}

    def reveal_json(self) -> dict[str, Any]:
        """Every hand as dealt, the kitty and the discards: only once the hand is over."""
        state = self.state
        if not state.is_terminal:
            raise Refused("the hands are shown after the hand")
        jokers = self.rules.jokers
        ctx = state.context if state.contract is not None else NT_STANDARD
        hands, kitty = state.dealt
        return {"hands": [hand_groups(h, ctx, jokers) for h in hands],
                "kitty": hand_groups(kitty, ctx, jokers),
                "discards": [{"seat": seat, "cards": hand_groups(d, ctx, jokers)}
                             for seat, _, d in state.exchanges]}

    # ------------------------------------------------------------------ the aids
    def require(self, aid: str) -> Any:
        if aid not in self.aids:
            raise Refused(f"the {aid} aid is off", 409)
        if self.helper is None and aid != "counter":
            raise Refused("no bot is set up for the aids in this game")
        return self.helper

    def evaluation(self) -> tuple[list[Any], str]:
        """The mc evaluation of every legal action at this decision, best first, computed
        once per decision: the hint and the estimates both read it, so they agree."""
        key = (self.hand_no, len(self.events))
        if self._evaluation[0] != key:
            if self.helper is None:
                raise Refused("no bot is set up for the aids in this game")
            try:
                rows = self.helper.estimates(self.state, seat_view(self.state, self.person))
            except AidUnavailable as err:  # its bot does not play this table size
                raise Refused(f"The estimate aid is not available in this game: {err}") \
                    from None
            self._evaluation = (key, rows, self.helper.mc.name)
        return self._evaluation[1], self._evaluation[2]

    def hint_json(self) -> dict[str, Any]:
        """The best action of :meth:`evaluation` (when the mc bot cannot play this game:
        the hint bot's choice)."""
        helper = self.require("hint")
        self.person_on_turn()
        try:
            rows, bot = self.evaluation()
        except Refused:
            rows = []
        if rows:
            best = rows[0]
            return {"bot": bot, "n": best.n, "mean": best.mean, "from": "estimate",
                    **self.action_json(best.action)}
        try:
            action = helper.hint(self.state, seat_view(self.state, self.person))
            bot = helper.hint_bot.name
        except AidUnavailable as err:
            raise Refused(f"The hint aid is not available in this game: {err}") from None
        return {"bot": bot, "from": "bot", **self.action_json(action)}

    def estimates_json(self) -> dict[str, Any]:
        self.require("estimate")
        self.person_on_turn()
        estimates, bot = self.evaluation()
        return {"n": estimates[0].n if estimates else 0, "bot": bot,
                "rows": [{**self.action_json(e.action), "mean": e.mean,
                          "se": None if e.se != e.se else e.se} for e in estimates]}

    def counter_json(self) -> dict[str, Any]:
        from ..aids import card_count

        self.require("counter")
        view = seat_view(self.state, self.person)
        jokers = self.rules.jokers
        ctx = view.context if view.contract is not None else NT_STANDARD
        return {"rows": [{"suit": SUIT_KEYS[row.suit], "trumps": row.suit == ctx < 4,
                          "played": [code(c, jokers) for c in row.played],
                          "yours": [code(c, jokers) for _, group in suit_groups(row.held, ctx)
                                    for c in group],
                          "out": row.out, "void": [self.names[s] for s in row.void]}
                         for row in card_count(view)]}

    def analyse_json(self, bid: int) -> dict[str, Any]:
        helper = self.require("analyse")
        self.person_on_turn()
        state = self.state
        if state.phase != Phase.AUCTION:
            raise Refused("bids are analysed during the auction")
        if not isinstance(bid, int) or not state.is_legal(bid) or bid in (A.PASS, A.MISDEAL):
            reason = explain_illegal(state, bid) if isinstance(bid, int) else "not a bid"
            raise Refused(f"Not now: {reason}.")
        try:
            r = helper.analyse(state, seat_view(state, self.person), bid)
        except AidUnavailable as err:
            raise Refused(f"The analyse aid is not available in this game: {err}") from None
        except ValueError as err:
            raise Refused(str(err)) from None
        return {**self.action_json(bid), "n": r.n, "made": r.made, "p_make": r.p_make,
                "se_p": r.se_p, "points": r.points, "se": None if r.se != r.se else r.se,
                "net": r.net}

    def action_json(self, action: int) -> dict[str, Any]:
        jokers, n = self.rules.jokers, self.players
        out: dict[str, Any] = {"action": action, "label": action_label(action, jokers, n)}
        kind, c, named = decode(action, n)
        if kind != "call":
            out["card"] = code(c, jokers)
            if named >= 0:
                out["names"] = SUITS[named]
        return out

    # ------------------------------------------------------------------ records
    def finished_record(self) -> dict[str, Any]:
        """The record of the finished hands only: a hand in progress would show every hand."""
        record = self.recorder.record()
        record["hands"] = list(self.recorder.finished)
        return record


def replay_json(record: dict[str, Any]) -> dict[str, Any]:
    """A record as the replay page reads it: the table (seats, sides, the seat drawn at the
    bottom: South, or West with three players) and every step (:func:`replay_frames`)."""
    rules = Rules.from_dict(record["rules"])
    return {"players": record.get("players"), **table_json(rules),
            "bottom": DEFAULT_SEAT[rules.players], "frames": replay_frames(record)}


def replay_frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step of a record (checked by :func:`fh_env.records.replay`) as the replay page
    shows it: all hands open (a record is of finished hands), the trick, the scores."""
    rules = Rules.from_dict(record["rules"])
    n = rules.players
    names = SEATS[n]
    jokers = rules.jokers
    frames = []
    for step in replay(record):
        state = step.state
        ctx = state.context if state.contract is not None else NT_STANDARD
        view = seat_view(state, 0)
        if step.action is None:
            text = f"Hand {step.hand + 1}: {names[state.dealer]} deals."
        else:
            text = action_line(names[step.seat], step.action, jokers, n).plain
        frame = {
            "hand": step.hand + 1, "seat": step.seat, "text": text,
            "hands": [hand_groups(h, ctx, jokers) for h in state.hands],
            "kitty": hand_groups(state.kitty, ctx, jokers),
            "auction": auction_grid(view), "dealer": state.dealer,
            "contract_text": contract_line(view, -1).plain,
            "sitting_out": list(sitting_out_seats(n, state.sitting_out)),
            "trick": trick_json(state.leader, state.trick, state.sitting_out, jokers, n),
            "last_trick": None, "tricks_won": list(state.team_tricks()),
            "tricks_by_seat": list(state.tricks_won),
            "scores": list(state.scores), "turn": state.turn,
            "result": result_text(state, -1).plain if state.is_terminal else None,
        }
        frame["kitty_dealt"] = [code(c, jokers) for c in cards_of(state.dealt[1])]
        frame["discards"] = [{"seat": seat, "cards": [code(c, jokers) for c in cards_of(d)]}
                             for seat, _, d in state.exchanges]
        if state.tricks:
            leader, cards, winner, _ = state.tricks[-1]
            frame["last_trick"] = {"cards": trick_json(leader, cards, state.sitting_out,
                                                       jokers, n), "winner": winner}
        frames.append(frame)
    return frames
