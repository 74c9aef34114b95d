"""The fixed deal and bots that the web tests (tests/test_web.py, tests/test_web_browser.py)
play: South (the person) bids 6NT with the joker, leads it naming hearts, loses a heart to
East, must follow East's diamond lead, then claims the rest.  And games at three and six
players (:func:`small_table_game`) with the same predictable bots, one of which may call open
nullo."""

from __future__ import annotations

import random

from fh_env import actions as A
from fh_env.engine import State
from fh_env.rules import Rules
from play.aids import Helper
from play.web.session import WebGame

HANDS = {
    2: "JK AS KS QS AC KC QC AD KD 5H",          # South, the person
    3: "6S 7S 8S 9S 10S 5C 6C 7C 8C 9C",          # West
    0: "10C JC QD JD 10D 9D 8D 7D 6D 5D",         # North
    1: "AH KH QH JH 10H 9H 8H 7H 6H 4D",          # East
}
KITTY = "4H JS 5S"
SIX_NT = A.bid_action(6, A.NT)


class PassBot:
    """Passes in the auction and plays its lowest legal card: a predictable table."""

    name = "pass"

    def act(self, view, rng: random.Random) -> int:
        legal = view.legal_actions()
        return A.PASS if legal[0] == A.PASS else legal[0]


class OpenNulloBot(PassBot):
    """Calls open nullo at its first call (six players: both its partners sit out), then plays
    as :class:`PassBot`."""

    name = "open-nullo"

    def act(self, view, rng: random.Random) -> int:
        if A.OPEN_NULLO in view.legal_actions():
            return A.OPEN_NULLO
        return super().act(view, rng)


def small_table_game(preset: str, person: int, nullo: int = -1, seed: int = 5,
                     pace_ms: int = 0, **kw) -> WebGame:
    """A game of ``preset`` (three-handed, six-handed) with :class:`PassBot` in the other
    seats, or :class:`OpenNulloBot` in seat ``nullo``."""
    rules = Rules.preset(preset)
    bots = {s: OpenNulloBot() if s == nullo else PassBot()
            for s in range(rules.players) if s != person}
    return WebGame(rules, person, bots, seed=seed, pace_ms=pace_ms, **kw)


def fixed_state(rules: Rules | None = None) -> State:
    rules = rules or Rules()
    hands = [HANDS[s].split() for s in range(4)]
    return State.from_deal(rules, hands, KITTY.split(), dealer=1)


def fixed_game(save=None, aids=("hint", "estimate", "counter", "analyse", "reveal"),
               pace_ms: int = 30) -> WebGame:
    rules = Rules()
    helper = Helper(rules, hint_bot="rule", samples=3, seed=11)
    return WebGame(rules, 2, {s: PassBot() for s in (0, 1, 3)}, seed=11, aids=aids,
                   save=save, helper=helper, state=fixed_state(rules), pace_ms=pace_ms)
