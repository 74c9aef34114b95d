"""The rules engine: one game of Five Hundred as a mutable state with legal actions.

Plain Python, no numpy, no torch, no PettingZoo.  Hands are ``int`` bitmasks of card ids
(:mod:`fh_env.cards`); actions are the ids of :mod:`fh_env.actions`.  The state moves through
the phases of one hand (``AUCTION``, ``EXCHANGE``, ``PLAY``) to ``HAND_OVER`` (or ``GAME_OVER``);
:meth:`State.next_hand` deals the next one.  Legal actions are cached as a bitmask over action
ids, so ``apply`` checks legality in O(1).

Decisions where the specification is silent, written down here once:

* The deal of hand ``k`` of a game is a pure function of ``(seed, k)``, so a state carries no
  random generator and copies, saves and restores exactly.
* Bids (§2.5): a bid must outrank every bid made before it in the auction, not only the current
  high bid.  The two are the same wherever the ranking is transitive; under ``scoring=original``
  with point-ranked nullo it is not (8H < 9S < nullo < 8H), and this keeps such an auction from
  cycling for ever.
* Auction (§3): the call slots go round the table clockwise from the dealer's left; a seat that
  may not call (it passed and may not re-enter, or it holds the high bid) is skipped but its slot
  still counts towards ``bidding_rounds``.  The high bidder's extra call of §3.5 is its own slot
  when the turn comes back to it, so a round limit can end the auction before it.  An inkle is a
  6-level bid made by the first two callers as their first call.
* With ``joker_lead=not_led`` a suit named by a joker lead counts as led.  A joker lead that was
  only legal because the player held nothing but jokers shows that player void in every suit;
  under ``nullo_must_play_joker`` a player who fails to follow without playing a joker shows that
  they hold no joker (void bit 4).
* ``notrump_ranking=j5`` applies to notrump contracts and to no-contract play, never to nullo-type
  contracts (§5.4).
* ``finish_early`` (§5.10) stops play once the hand's points are the same for every number of
  the remaining tricks the declaring side could take.
* ``game_over=hands`` counts hands that were played (a hand thrown in is not a hand played).
* "The first round" of the auction (§3.9 misdeal) is the first call slot of each player, and
  §3.5/§3.7's "the others" are all the other players, at every table size (§9.3).
* Six players (§9.2): ``sitting_out`` holds the first partner who sits out in nullo and open
  nullo (the declarer's left partner, two seats on); the other sits two seats further on.
  :func:`trick_order` knows both; the first leader is the first seat from the declarer (or
  the dealer's left) that plays.  Three players (§9.1): nobody sits out; each player is a
  side of their own, so results and scores have three entries; each defender scores in full
  what the defence earns (see :func:`fh_env.contracts.hand_points`).  Who reached the target
  first (§9.1) is decided by the tricks that earned their takers 10 points, in playing order
  (see :func:`fh_env.contracts.end_of_hand`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Iterable, Sequence

from . import actions as A
from .actions import action_table
from .cards import (HONOURS, JOKER, JOKER_BITS, NO_SUIT, NT_J5, NT_JOKERS_LOW, NT_STANDARD,
                    TABLES, card_name, cards_of, is_joker, mask_of, parse_card)
from .contracts import NUM_TRICKS, Bidding, contract_made, end_of_hand, hand_points
from .rules import Rules


class Phase(IntEnum):
    AUCTION = 0
    EXCHANGE = 1
    PLAY = 2
    HAND_OVER = 3
    GAME_OVER = 4


NO_CONTRACT = -1  # the "contract" of no-contract play (§3.3 all_pass=play)
# Hot-path constants as module globals (one lookup instead of an attribute chain).
_AUCTION, _EXCHANGE, _PLAY, _HAND_OVER = (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY,
                                        Phase.HAND_OVER)
_DISCARD_BASE = A.DISCARD_BASE
_SUIT, _SUIT_MASK, _STRENGTH = TABLES.suit, TABLES.suit_mask, TABLES.strength


def sitting_out_seats(players: int, sitting_out: int) -> tuple[int, ...]:
    """The seats that sit out a hand whose ``sitting_out`` field is given: none (-1), the
    declarer's partner (four players), or both partners (six players, §9.2)."""
    if sitting_out < 0:
        return ()
    return (sitting_out, (sitting_out + 2) % 6) if players == 6 else (sitting_out,)


def _trick_orders(players: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    return tuple(tuple(tuple(s for s in ((leader + i) % players for i in range(players))
                             if s not in sitting_out_seats(players, out))
                       for out in range(-1, players)) for leader in range(players))


_TRICK_ORDER = {n: _trick_orders(n) for n in (3, 4, 6)}  # [players][leader][sitting_out + 1]


def trick_order(leader: int, sitting_out: int = -1, players: int = 4) -> tuple[int, ...]:
    """The seats in playing order for a trick led by ``leader``, clockwise, skipping the seats
    that sit out (``sitting_out`` as in :func:`sitting_out_seats`).  The one place that knows
    the order; everything else reads it."""
    return _TRICK_ORDER[players][leader][sitting_out + 1]


def side_of(players: int, seat: int) -> int:
    """The side a seat scores for: its team (seat parity, four or six players) or itself."""
    return seat if players == 3 else seat % 2


class IllegalActionError(ValueError):
    """An action that is not legal in the current state (the state is left unchanged)."""


@dataclass(frozen=True)
class HandResult:
    """What one hand came to; ``contract`` is None for a hand thrown in."""

    contract: int | None
    declarer: int | None
    tricks: tuple[int, ...]  # per side: two teams, or three players (§9.1)
    hand_points: tuple[int, ...]
    game_points: tuple[int, ...]
    made: bool | None
    thrown_in: str | None  # "all_pass", "inkle", "misdeal" or None

    @property
    def contract_name(self) -> str | None:
        if self.contract is None:
            return None
        return "no contract" if self.contract == NO_CONTRACT else A.action_to_str(self.contract)


class _RuleTables:
    """What the engine derives once from a rule set."""

    def __init__(self, rules: Rules) -> None:
        self.deck = rules.cards
        self.players = rules.players
        self.sides = rules.sides
        self.actions = action_table(rules.players)
        self.play_base = self.actions.play_base
        self.joker_lead_base = self.actions.joker_lead_base
        self.num_actions = self.actions.num_actions
        self.trick_orders = _TRICK_ORDER[rules.players]
        self.bidding = Bidding(rules)
        self.kitty_size = rules.kitty_size
        self.rounds = 0 if rules.bidding_rounds == "unlimited" else int(rules.bidding_rounds)
        self.no_trump_context = NT_J5 if rules.notrump_ranking == "j5" else NT_STANDARD
        self.nullo_context = NT_JOKERS_LOW if rules.jokers_low_in_nullo else NT_STANDARD
        bids = [A.bid_action(level, strain) for level in range(6, 11) for strain in range(5)
                if strain != A.NT or rules.notrump_ranking != "off"]
        # The bids a call may make are those that outrank EVERY bid made so far in the auction
        # (State.open_bids, the intersection of outranking[b] over the bids b made).  Where the
        # ranking is transitive that is exactly "outranks the current high bid" (§2.5); where it
        # is not (point-ranked nullo under scoring=original: 8H < 9S < nullo < 8H) it stops the
        # auction from cycling for ever, since no bid can then be made twice.
        self.outranking = [0] * (A.DOUBLE_NULLO + 1)
        for old in range(A.BID_BASE, A.DOUBLE_NULLO + 1):
            for bid in range(A.BID_BASE, A.DOUBLE_NULLO + 1):
                if self.bidding.outranks(bid, old):
                    self.outranking[old] |= 1 << bid
        # ordinary_mask: ordinary bids at or above min_bid_level; inkle_mask: level-6 bids below it
        self.ordinary_mask = mask_of(b for b in bids if A.bid_level(b) >= rules.min_bid_level)
        self.inkle_mask = mask_of(b for b in bids if A.bid_level(b) == 6 < rules.min_bid_level)


ALL_BIDS = mask_of(range(A.BID_BASE, A.DOUBLE_NULLO + 1))
_TABLE_CACHE: dict[Rules, _RuleTables] = {}


_LAST_TABLES: tuple[Rules | None, _RuleTables | None] = (None, None)


def rule_tables(rules: Rules) -> _RuleTables:
    global _LAST_TABLES
    last_rules, last_tables = _LAST_TABLES
    if rules is last_rules:  # the usual case: skips hashing and comparing 38 options
        return last_tables  # type: ignore[return-value]
    tables = _TABLE_CACHE.get(rules)
    if tables is None:
        tables = _TABLE_CACHE[rules] = _RuleTables(rules)
    _LAST_TABLES = (rules, tables)
    return tables


def deal_cards(rules: Rules, seed: int, deal_index: int) -> tuple[list[int], int]:
    """The deal of one hand: a 10-card hand per player and the kitty, as bitmasks (§1.3, §1.4)."""
    rng = random.Random(f"{seed}/{deal_index}")
    deck = list(rule_tables(rules).deck)
    kitty: list[int] = []
    if rules.highest_joker_in_kitty:
        deck.remove(JOKER)
        kitty.append(JOKER)
    rng.shuffle(deck)
    n = rules.players
    hands = [mask_of(deck[10 * i: 10 * i + 10]) for i in range(n)]
    return hands, mask_of(kitty + deck[10 * n:])


class State:
    """A whole game: the current hand in progress plus the game score."""

    __slots__ = (
        "rules", "_t", "seed", "deal_index", "hands_played", "dealer", "phase", "turn",
        "dealt", "hands", "kitty",
        "calls", "open_bids", "high_bid", "high_bidder", "passed", "passed_since", "position", "max_level",
        "nullo_bidders", "reopened", "shows_joker",
        "contract", "declarer", "context", "sitting_out",
        "discards_left", "exchanges",
        "leader", "trick", "led", "tricks", "tricks_won", "suits_led", "first_led", "voids",
        "exposed", "scores", "result", "winner", "_legal",
    )
    #: The fields that make up a state (all but the caches ``_t`` and ``_legal``): what
    #: :meth:`to_dict` saves and :meth:`from_fields` needs, e.g. from the compiled core.
    FIELDS: tuple[str, ...] = tuple(n for n in __slots__ if not n.startswith("_"))

    # ------------------------------------------------------------------ creation
    def __init__(self, rules: Rules | None = None, seed: int = 0, dealer: int | None = None,
                 deal: tuple[Sequence[int], int] | None = None) -> None:
        """A new game: the first dealer from the seed (§1.4) unless given, then the first deal."""
        self.rules = rules if rules is not None else Rules()
        self._t = rule_tables(self.rules)
        self.seed = int(seed)
        self.deal_index = 0
        self.hands_played = 0
        self.scores = [0] * self._t.sides
        self.winner: int | None = None
        n = self._t.players
        if dealer is None:
            dealer = random.Random(f"{self.seed}/dealer").randrange(n)
        if dealer not in range(n):
            raise ValueError(f"dealer must be a seat 0..{n - 1}, not {dealer!r}")
        self._start_hand(dealer, deal)

    @classmethod
    def from_deal(cls, rules: Rules | None, hands: Sequence[Iterable[int | str]],
                  kitty: Iterable[int | str], dealer: int = 0, seed: int = 0) -> "State":
        """A game whose first hand is dealt as given (cards as ids or names)."""
        rules = rules if rules is not None else Rules()
        hand_masks = [mask_of(_card_id(c) for c in hand) for hand in hands]
        kitty_mask = mask_of(_card_id(c) for c in kitty)
        check_deal(rules, hand_masks, kitty_mask)
        return cls(rules, seed=seed, dealer=dealer, deal=(hand_masks, kitty_mask))

    def _start_hand(self, dealer: int, deal: tuple[Sequence[int], int] | None) -> None:
        if deal is None:
            hands, kitty = deal_cards(self.rules, self.seed, self.deal_index)
        else:
            hands, kitty = list(deal[0]), deal[1]
        self.deal_index += 1
        self.dealer = dealer
        self.dealt = (tuple(hands), kitty)
        self.hands = list(hands)
        self.kitty = kitty
        self.phase = Phase.AUCTION
        n = self._t.players
        self.turn = (dealer + 1) % n
        self.calls: list[tuple[int, int]] = []
        self.open_bids = ALL_BIDS
        self.high_bid = -1
        self.high_bidder = -1
        self.passed = 0
        self.passed_since = 0
        self.position = 0
        self.max_level = 0
        self.nullo_bidders = 0
        self.reopened = False
        self.shows_joker = 0
        self.contract: int | None = None
        self.declarer = -1
        self.context = NT_STANDARD
        self.sitting_out = -1
        self.discards_left = 0
        self.exchanges: list[list[int]] = []  # [seat, picked-up mask, discards mask]
        self.leader = -1
        self.trick: list[int] = []
        self.led = -1
        self.tricks: list[tuple[int, tuple[int, ...], int, int]] = []
        self.tricks_won = [0] * n
        self.suits_led = 0
        self.first_led = [-1, -1, -1, -1, -1]
        self.voids = [0] * n
        self.exposed = False
        self.result: HandResult | None = None
        self._legal = -1

    def next_hand(self, deal: tuple[Sequence[int], int] | None = None) -> None:
        """Deal the next hand of the game; the deal passes left except after a misdeal (§3.9)."""
        if self.phase != Phase.HAND_OVER:
            raise IllegalActionError(
                f"next_hand() is only possible when a hand is over, not in phase {self.phase.name}")
        same = self.result is not None and self.result.thrown_in == "misdeal"
        self._start_hand(self.dealer if same else (self.dealer + 1) % self._t.players, deal)

    # ------------------------------------------------------------------ copying, saving
    def clone(self) -> "State":
        """A deep copy, cheap enough for search (tuples and ints are shared)."""
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = self.hands[:]
        new.calls = self.calls[:]
        new.exchanges = [e[:] for e in self.exchanges]
        new.trick = self.trick[:]
        new.tricks = self.tricks[:]
        new.tricks_won = self.tricks_won[:]
        new.first_led = self.first_led[:]
        new.voids = self.voids[:]
        new.scores = self.scores[:]
        return new

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to restore this state exactly, as JSON-compatible values."""
        data: dict[str, Any] = {}
        for name in State.FIELDS:
            value = getattr(self, name)
            if name == "rules":
                value = value.to_dict()
            elif name == "phase":
                value = int(value)
            elif name == "result" and value is not None:
                value = {k: getattr(value, k) for k in HandResult.__dataclass_fields__}
            data[name] = _jsonable(value)
        return data

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> "State":
        """A state from a value for every name of :data:`FIELDS` (as Python values, e.g.
        ``phase`` a :class:`Phase`), the caches derived here; nothing is checked."""
        missing = [name for name in cls.FIELDS if name not in fields]
        if missing:
            raise ValueError(f"from_fields() needs every field; missing: {', '.join(missing)}")
        new = cls.__new__(cls)
        for name in cls.FIELDS:
            setattr(new, name, fields[name])
        new._t = rule_tables(new.rules)
        new._legal = -1
        return new

    def replace_hidden(self, hands: list[int], kitty: int, dealt: tuple[tuple[int, ...], int],
                       exchanges: list[list[int]]) -> None:
        """Put other hidden cards in this state (a sampled world of the same public history):
        the hands, the kitty, the deal as dealt and the kitty exchanges.  Nothing is checked;
        the legal actions are derived again."""
        self.hands, self.kitty, self.dealt, self.exchanges = hands, kitty, dealt, exchanges
        self._legal = -1

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "State":
        fields: dict[str, Any] = {}
        for name in cls.FIELDS:
            value = data[name]
            if name == "rules":
                value = Rules.from_dict(value)
            elif name == "phase":
                value = Phase(value)
            elif name == "result" and value is not None:
                value = HandResult(**{k: _tupled(v) for k, v in value.items()})
            elif name in ("dealt",):
                value = (tuple(value[0]), value[1])
            elif name == "calls":
                value = [tuple(c) for c in value]
            elif name == "tricks":
                value = [(t[0], tuple(t[1]), t[2], t[3]) for t in value]
            fields[name] = value
        return cls.from_fields(fields)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    # ------------------------------------------------------------------ queries
    @property
    def is_terminal(self) -> bool:
        """True once the hand is over (or the game)."""
        return self.phase >= _HAND_OVER

    @property
    def game_over(self) -> bool:
        return self.phase == Phase.GAME_OVER

    def team_tricks(self) -> tuple[int, ...]:
        """Tricks taken so far by each side: the two teams, or each of three players."""
        w = self.tricks_won
        if len(w) == 3:
            return tuple(w)
        return (sum(w[0::2]), sum(w[1::2]))

    def active_seats(self) -> int:
        """How many seats play to each trick this hand."""
        return len(self._t.trick_orders[0][self.sitting_out + 1])

    def legal_mask(self) -> int:
        """The legal actions as a bitmask over action ids (bit ``a`` set when ``a`` is legal)."""
        if self._legal < 0:
            phase = self.phase
            if phase == _PLAY:
                self._legal = self._legal_plays()
            elif phase == _AUCTION:
                self._legal = self._legal_calls()
            elif phase == _EXCHANGE:
                self._legal = self.hands[self.turn] << _DISCARD_BASE
            else:
                self._legal = 0
        return self._legal

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat on turn, in increasing id order."""
        m = self._legal
        if m < 0:
            m = self.legal_mask()
        out: list[int] = []
        append = out.append
        while m:
            low = m & -m
            append(low.bit_length() - 1)
            m ^= low
        return out

    def is_legal(self, action: int) -> bool:
        return 0 <= action < self._t.num_actions and (self.legal_mask() >> action) & 1 == 1

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: int) -> None:
        """Apply the action of the seat on turn, or raise IllegalActionError (state unchanged)."""
        legal = self._legal
        if legal < 0:
            legal = self.legal_mask()
        if not (isinstance(action, int) and 0 <= action < self._t.num_actions
                and legal >> action & 1):
            raise IllegalActionError(self.illegal_message(action))
        self._legal = -1
        phase = self.phase
        if phase == _PLAY:
            self._play(action)
        elif phase == _AUCTION:
            self._call(action)
        else:
            self._discard(action - _DISCARD_BASE)

    def apply_str(self, name: str) -> None:
        self.apply(self._t.actions.from_str(name))

    def illegal_message(self, action: object) -> str:
        """Why ``action`` cannot be applied now: the action, the phase, the seat on turn and the
        legal actions (the text of :class:`IllegalActionError`)."""
        try:
            name = self.action_name(action)  # type: ignore[arg-type]
        except ValueError:
            name = "not an action id"
        legal = ", ".join(self.action_name(a) for a in self.legal_actions())
        who = f"seat {self.turn}" if not self.is_terminal else "nobody (the hand is over)"
        return (f"illegal action {action!r} ({name}) in phase {self.phase.name} for {who}; "
                f"legal actions: {legal or 'none'}")

    # ------------------------------------------------------------------ auction (§3)
    def _legal_calls(self) -> int:
        r, seat = self.rules, self.turn
        legal = 1 << A.PASS
        if (r.stick_the_dealer and seat == self.dealer
                and len(self.calls) == self._t.players - 1 and self.high_bid < 0):
            legal = 0
        t = self._t
        open_bids = self.open_bids
        legal |= open_bids & t.ordinary_mask
        if r.inkle and len(self.calls) < 2:  # §3.4: the first two callers may bid at level 6
            legal |= open_bids & t.inkle_mask
        if r.six_nt_shows_joker and not self.hands[seat] & JOKER_BITS:
            legal &= ~(1 << A.bid_action(6, A.NT))
        if r.nullo != "off" and (r.nullo == "anytime" or self.max_level >= 7):
            legal |= open_bids & (1 << A.NULLO)
        if r.open_nullo != "off" and (
                r.open_nullo == "anytime" or self.max_level >= int(r.open_nullo[-1])):
            legal |= open_bids & (1 << A.OPEN_NULLO)
        if r.double_nullo != "off" and (
                r.double_nullo == "anytime" or self.nullo_bidders >> ((seat + 2) % 4) & 1):
            legal |= open_bids & (1 << A.DOUBLE_NULLO)
        if r.misdeal and self.position < self._t.players and not self.hands[seat] & HONOURS:
            legal |= 1 << A.MISDEAL
        return legal

    def _call(self, action: int) -> None:
        seat = self.turn
        self.calls.append((seat, action))
        if action == A.MISDEAL:
            self._throw_in("misdeal")
            return
        extra_call = seat == self.high_bidder
        if action == A.PASS:
            self.passed |= 1 << seat
            self.passed_since |= 1 << seat
            if extra_call:
                self._end_auction()
                return
        else:
            if extra_call and (A.is_ordinary_bid(action) != A.is_ordinary_bid(self.high_bid)
                               or A.bid_strain(action) != A.bid_strain(self.high_bid)):
                self.reopened = True  # §3.6 after_change: a change of strain reopens
            if A.is_ordinary_bid(action):
                self.max_level = max(self.max_level, A.bid_level(action))
                if action == A.bid_action(6, A.NT) and self.rules.six_nt_shows_joker:
                    self.shows_joker |= 1 << seat
            elif action in (A.NULLO, A.OPEN_NULLO):
                self.nullo_bidders |= 1 << seat
            self.high_bid, self.high_bidder = action, seat
            self.open_bids &= self._t.outranking[action]
            self.passed &= ~(1 << seat)
            self.passed_since = 0
            if extra_call and self.rules.reenter == "never":
                self._end_auction()
                return
        self._next_caller(seat)

    def _may_call(self, seat: int) -> bool:
        bit = 1 << seat
        if self.passed_since & bit:
            return False
        if self.passed & bit:
            reenter = self.rules.reenter
            return reenter == "always" or (reenter == "after_change" and self.reopened)
        return True

    def _next_caller(self, seat: int) -> None:
        """Pass the turn clockwise to the next seat that may call, or end the auction."""
        rounds, high, n = self._t.rounds, self.high_bidder, self._t.players
        for distance in range(1, n + 1):
            nxt = (seat + distance) % n
            if nxt == high:
                others_done = not any(self._may_call(s) for s in range(n) if s != high)
                if not (others_done and self.rules.raise_own_bid and nxt != seat):
                    continue
            elif not self._may_call(nxt):
                continue
            if rounds and self.position + distance >= n * rounds:
                break
            self.position += distance
            self.turn = nxt
            return
        self._end_auction()

    def _end_auction(self) -> None:
        r, high = self.rules, self.high_bid
        if high < 0:
            if r.all_pass == "redeal":
                self._throw_in("all_pass")
                return
            self.contract = NO_CONTRACT
            self.context = self._t.no_trump_context
            self._start_play((self.dealer + 1) % self._t.players)
            return
        if A.is_ordinary_bid(high) and A.bid_level(high) < r.min_bid_level:
            self._throw_in("inkle")
            return
        self.contract, self.declarer = high, self.high_bidder
        if high in A.NULLO_TYPES:
            self.context = self._t.nullo_context
            if high != A.DOUBLE_NULLO and self._t.players != 3:  # §2.2, §9.1, §9.2
                self.sitting_out = (self.declarer + 2) % self._t.players
            exchange = r.nullo_kitty == "always" or (r.nullo_kitty == "nullo_only"
                                                     and high != A.OPEN_NULLO)
        else:
            strain = A.bid_strain(high)
            self.context = self._t.no_trump_context if strain == A.NT else strain
            exchange = True
        if exchange:
            self._start_exchange(self.declarer)
        else:
            self._start_play(self._first_leader())

    def _throw_in(self, reason: str) -> None:
        zeros = (0,) * self._t.sides
        self.result = HandResult(None, None, zeros, zeros, tuple(self.scores), None, reason)
        self.phase = Phase.HAND_OVER
        self.turn = -1

    # ------------------------------------------------------------------ kitty exchange (§4)
    def _start_exchange(self, seat: int) -> None:
        self.exchanges.append([seat, self.kitty, 0])
        self.hands[seat] |= self.kitty
        self.kitty = 0
        self.discards_left = self._t.kitty_size
        self.phase = Phase.EXCHANGE
        self.turn = seat

    def _discard(self, c: int) -> None:
        bit = 1 << c
        self.hands[self.turn] ^= bit
        self.kitty |= bit
        self.exchanges[-1][2] |= bit
        self.discards_left -= 1
        if self.discards_left:
            return
        if self.contract == A.DOUBLE_NULLO and len(self.exchanges) == 1:
            self._start_exchange((self.declarer + 2) % 4)  # §4.3: the partner exchanges next
        else:
            self._start_play(self._first_leader())

    # ------------------------------------------------------------------ play (§5)
    def _first_leader(self) -> int:
        """§5.1: the declarer or the dealer's left, or the next seat that plays."""
        n = self._t.players
        leader = self.declarer if self.rules.first_leader == "declarer" else (self.dealer + 1) % n
        return self._t.trick_orders[leader][self.sitting_out + 1][0]

    def _start_play(self, leader: int) -> None:
        self.phase = Phase.PLAY
        self.leader = self.turn = leader
        self.exposed = (self.contract == A.OPEN_NULLO
                        and self.rules.open_nullo_exposed == "at_first_lead")

    def _legal_plays(self) -> int:
        hand = self.hands[self.turn]
        ctx = self.context
        r = self.rules
        play_base = self._t.play_base
        if not self.trick:
            if ctx < NT_STANDARD or not hand & JOKER_BITS:
                return hand << play_base
            plain = hand & ~JOKER_BITS
            legal = plain << play_base
            suits = self._nameable_suits()
            if not suits and not plain:
                suits = 0b1111
            if suits:
                for j in cards_of(hand & JOKER_BITS):
                    legal |= suits << self._t.actions.joker_lead_action(j, 0)
            return legal
        led = self.led
        follow = hand & _SUIT_MASK[ctx][led]
        if ctx < NT_STANDARD:
            return (follow or hand) << play_base
        jokers = hand & JOKER_BITS
        if follow:
            if jokers and (r.joker_follow == "anytime" or (
                    r.joker_follow == "first_or_last" and self.first_led[led] == len(self.tricks))):
                follow |= jokers
            return follow << play_base
        if jokers and r.nullo_must_play_joker and self.contract in A.NULLO_TYPES:
            return jokers << play_base
        return hand << play_base

    def _nameable_suits(self) -> int:
        """The suits a joker lead may name under ``joker_lead`` (§5.5), as a 4-bit mask."""
        rule = self.rules.joker_lead
        if rule == "any":
            return 0b1111
        if rule == "not_led":
            return ~self.suits_led & 0b1111
        if rule == "not_shown_void":
            return ~self.voids[self.turn] & 0b1111
        return 0  # last_card

    def _play(self, action: int) -> None:
        seat, t = self.turn, self._t
        if action >= t.joker_lead_base:
            c = JOKER + (action - t.joker_lead_base) // 4
            named = (action - t.joker_lead_base) % 4
            if not self._nameable_suits():
                self.voids[seat] |= 0b1111  # only legal because it held nothing but jokers
        else:
            c = action - t.play_base
            named = -1
        bit = 1 << c
        trick = self.trick
        if not trick:
            led = named if named >= 0 else _SUIT[self.context][c]
            self.led = led
            self.suits_led |= 1 << led
            if self.first_led[led] < 0:
                self.first_led[led] = len(self.tricks)
        elif not bit & _SUIT_MASK[self.context][self.led]:
            self._note_void(seat, c)
        self.hands[seat] ^= bit
        trick.append(c)
        order = t.trick_orders[self.leader][self.sitting_out + 1]
        if len(trick) < len(order):
            self.turn = order[len(trick)]
            return
        self._finish_trick()

    def _note_void(self, seat: int, c: int) -> None:
        """Record what a card that does not follow the led suit shows about the hand."""
        led, ctx, r = self.led, self.context, self.rules
        if not is_joker(c) or ctx < NT_STANDARD:
            self.voids[seat] |= 1 << led
            if ctx >= NT_STANDARD and r.nullo_must_play_joker and self.contract in A.NULLO_TYPES:
                self.voids[seat] |= 1 << NO_SUIT  # void and no joker played: it holds none
            return
        if r.joker_follow == "void_only" or (
                r.joker_follow == "first_or_last" and self.first_led[led] != len(self.tricks)):
            self.voids[seat] |= 1 << led

    def _finish_trick(self) -> None:
        trick = self.trick
        strength = _STRENGTH[self.context][self.led]
        best, best_i = -2, 0
        for i, c in enumerate(trick):
            s = strength[c]
            if s > best:
                best, best_i = s, i
        winner = self._t.trick_orders[self.leader][self.sitting_out + 1][best_i]
        self.tricks.append((self.leader, tuple(trick), winner, self.led))
        self.tricks_won[winner] += 1
        self.trick = []
        self.led = -1
        self.leader = self.turn = winner
        if self.contract == A.OPEN_NULLO:
            self.exposed = True
        if len(self.tricks) == NUM_TRICKS or (self.rules.finish_early and self._determined()):
            self._score_hand()

    def _determined(self) -> bool:
        """§5.10: the hand's points no longer depend on who takes the remaining tricks."""
        side = side_of(self._t.players, self.declarer) if self.declarer >= 0 else 0
        taken = self.team_tricks()
        remaining = NUM_TRICKS - len(self.tricks)
        outcomes = set()
        for extra in _splits(remaining, len(taken)):
            tricks = tuple(a + b for a, b in zip(taken, extra))
            outcomes.add(hand_points(self.rules, self._scored_contract(), side, tricks))
            if len(outcomes) > 1:
                return False
        return True

    def _scored_contract(self) -> int:
        return NO_CONTRACT if self.contract == NO_CONTRACT else int(self.contract)  # type: ignore

    # ------------------------------------------------------------------ scoring (§6, §7)
    def _score_hand(self) -> None:
        contract = self._scored_contract()
        side = side_of(self._t.players, self.declarer) if self.declarer >= 0 else -1
        tricks = self.team_tricks()
        points = hand_points(self.rules, contract, max(side, 0), tricks)
        made = contract_made(contract, tricks[side]) if side >= 0 else None
        self.hands_played += 1
        # §9.1: who reached the target first is decided by the tricks that earned their takers
        # 10 points each: every trick in no-contract play, the defenders' tricks of an ordinary
        # contract under defender_scoring tricks*; none in a nullo-type contract.
        takers: tuple[int, ...] = ()
        if contract == NO_CONTRACT or (contract not in A.NULLO_TYPES
                                       and self.rules.defender_scoring != "none"):
            takers = tuple(side_of(self._t.players, w) for _, _, w, _ in self.tricks)
        new_scores, winner = end_of_hand(self.rules, tuple(self.scores), points, side,
                                         bool(made), self.hands_played, takers)
        self.scores = list(new_scores)
        self.result = HandResult(contract, self.declarer if side >= 0 else None, tricks, points,
                                 new_scores, made, None)
        self.turn = -1
        if winner is None:
            self.phase = Phase.HAND_OVER
        else:
            self.winner = winner
            self.phase = Phase.GAME_OVER

    # ------------------------------------------------------------------ display
    def card_name(self, c: int) -> str:
        return card_name(c, self.rules.jokers)

    def action_name(self, action: int) -> str:
        """The name of an action in this table size's action table."""
        return self._t.actions.to_str(action, self.rules.jokers)

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(self.card_name(c) for c in cards_of(h)) for h in self.hands)
        return (f"<State {self.phase.name} turn={self.turn} dealer={self.dealer} "
                f"contract={self.contract} scores={self.scores} hands=[{hands}]>")


# ---------------------------------------------------------------------- helpers
def _card_id(c: int | str) -> int:
    return parse_card(c) if isinstance(c, str) else int(c)


def _splits(total: int, parts: int) -> Iterable[tuple[int, ...]]:
    """Every way to share ``total`` tricks among ``parts`` sides."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _splits(total - first, parts - 1):
            yield (first,) + rest


def check_deal(rules: Rules, hands: Sequence[int], kitty: int) -> None:
    """Raise ValueError unless the 10-card hands (one per player) and the kitty are exactly the
    rules' pack."""
    if len(hands) != rules.players:
        raise ValueError(f"a deal needs {rules.players} hands, got {len(hands)}")
    names = lambda m: " ".join(card_name(c, rules.jokers) for c in cards_of(m))  # noqa: E731
    for seat, hand in enumerate(hands):
        if hand.bit_count() != 10:
            raise ValueError(f"hand {seat} has {hand.bit_count()} cards, not 10: {names(hand)}")
    seen = 0
    for m in list(hands) + [kitty]:
        if seen & m:
            raise ValueError(f"cards dealt twice: {names(seen & m)}")
        seen |= m
    deck = mask_of(rules.cards)
    if seen != deck:
        missing, extra = deck & ~seen, seen & ~deck
        pack = f"deck {rules.deck!r}" if rules.players == 4 else f"the {rules.players}-player pack"
        raise ValueError(f"the deal does not match {pack}: "
                         f"missing {names(missing) or 'nothing'}; not in the deck "
                         f"{names(extra) or 'nothing'}")
    if rules.highest_joker_in_kitty and not kitty >> JOKER & 1:
        raise ValueError("highest_joker_in_kitty is on, so the highest joker must be in the kitty")


def _jsonable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def _tupled(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value
