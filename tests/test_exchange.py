"""The kitty exchange (docs/rules.md §4) on hand-built deals."""

from __future__ import annotations

import pytest

from fh_env.engine import Phase
from fh_env.rules import Rules
from fh_env.view import seat_view

from conftest import do, legal, legal_cards, mask, names, new_state

NULLO_RULES = Rules(nullo="anytime", open_nullo="anytime", double_nullo="anytime",
                    nullo_ranking="points")


def test_declarer_takes_the_kitty_and_discards_one_at_a_time() -> None:
    """§4.1: kitty into the hand, then as many discards as the kitty held, any card."""
    state = new_state(Rules(), {1: "JS JC AS KS QS 10S 9S 8S 7S 6S"}, kitty="4H 5H 6H")
    do(state, "pass", "7S", "pass", "pass")
    assert state.phase == Phase.EXCHANGE and state.turn == 1
    assert state.hands[1] == mask("JS JC AS KS QS 10S 9S 8S 7S 6S 4H 5H 6H")
    assert state.kitty == 0 and state.discards_left == 3
    assert legal_cards(state) == names(state.hands[1])  # kitty cards too
    do(state, "6S")
    assert state.phase == Phase.EXCHANGE and state.turn == 1 and state.discards_left == 2
    assert "discard 6S" not in legal(state)
    do(state, "4H", "5H")
    assert state.phase == Phase.PLAY and state.turn == 1  # the declarer leads (§5.1)
    assert state.hands[1] == mask("JS JC AS KS QS 10S 9S 8S 7S 6H")
    assert state.kitty == mask("6S 4H 5H")
    assert state.exchanges == [[1, mask("4H 5H 6H"), mask("6S 4H 5H")]]


def test_discarding_the_kitty_back() -> None:
    """§4.1: the declarer may discard exactly the cards picked up."""
    state = new_state(Rules(), {0: "JK"}, kitty="4H 5H 6H")
    hand = state.hands[0]
    do(state, "7NT", "pass", "pass", "pass", "4H 5H 6H")
    assert state.hands[0] == hand and state.kitty == mask("4H 5H 6H")


@pytest.mark.parametrize("deck,size", [("41", 1), ("42", 2), ("44", 4), ("45", 5), ("46", 6)])
def test_discards_as_many_as_the_kitty_held(deck: str, size: int) -> None:
    """§4.1 with §1.2: the number of discards is the kitty size."""
    state = new_state(Rules(deck=deck))
    do(state, "8H", "pass", "pass", "pass")
    assert state.hands[0].bit_count() == 10 + size
    for _ in range(size):
        assert state.phase == Phase.EXCHANGE
        state.apply(state.legal_actions()[0])
    assert state.phase == Phase.PLAY and state.hands[0].bit_count() == 10


def test_nobody_else_sees_the_kitty_or_the_discards() -> None:
    """§4.1: the kitty and the discards are seen only by the declarer."""
    state = new_state(Rules(), {}, kitty="4H 5H 6H")
    do(state, "7S", "pass", "pass", "pass")
    do(state, "4H")
    mine = seat_view(state, 0)
    assert mine.exchanges == ((0, mask("4H 5H 6H"), mask("4H")),)
    for seat in (1, 2, 3):
        view = seat_view(state, seat)
        assert view.exchanges == () and view.exchanging == (0,)
        assert view.unseen & mask("4H 5H 6H") == mask("4H 5H 6H")
        assert view.hand_sizes[0] == 12


@pytest.mark.parametrize("nullo_kitty,contract,exchanges", [
    ("always", "nullo", True), ("always", "open nullo", True), ("always", "double nullo", True),
    ("never", "nullo", False), ("never", "open nullo", False), ("never", "double nullo", False),
    ("nullo_only", "nullo", True), ("nullo_only", "open nullo", False),
    ("nullo_only", "double nullo", True)])
def test_nullo_kitty(nullo_kitty: str, contract: str, exchanges: bool) -> None:
    """§4.2: always / never / nullo_only (nullo and double nullo exchange; open nullo does not)."""
    state = new_state(NULLO_RULES.replace(nullo_kitty=nullo_kitty), {}, kitty="4H 5H 6H")
    hand = state.hands[0]
    do(state, contract, "pass", "pass", "pass")
    assert state.phase == (Phase.EXCHANGE if exchanges else Phase.PLAY)
    if exchanges:
        assert state.turn == 0 and state.hands[0] == hand | mask("4H 5H 6H")
    else:
        assert state.hands[0] == hand and state.kitty == mask("4H 5H 6H")
        assert state.exchanges == []


def test_ordinary_contracts_always_exchange_whatever_nullo_kitty() -> None:
    """§4.2 concerns nullo-type contracts only."""
    state = new_state(NULLO_RULES.replace(nullo_kitty="never"))
    do(state, "7S", "pass", "pass", "pass")
    assert state.phase == Phase.EXCHANGE


def test_double_nullo_partner_picks_up_the_declarers_discards() -> None:
    """§4.3: the declarer exchanges first; the partner then exchanges with the discards."""
    state = new_state(NULLO_RULES, {0: "4D 5D 6D 7D 8D 9D 10D 5S 6S 7S",
                                    2: "AS KS QS JS 10S 9S 8S AC KC QC"},
                      kitty="JK AH KH")
    do(state, "double nullo", "pass", "pass", "pass")
    assert (state.phase, state.turn) == (Phase.EXCHANGE, 0)
    assert state.hands[0] == mask("4D 5D 6D 7D 8D 9D 10D 5S 6S 7S JK AH KH")
    do(state, "JK", "AH", "10D")
    assert (state.phase, state.turn) == (Phase.EXCHANGE, 2)
    assert state.hands[2] == mask("AS KS QS JS 10S 9S 8S AC KC QC JK AH 10D")
    assert state.discards_left == 3
    assert legal_cards(state) == names(state.hands[2])
    do(state, "AS", "JK", "KS")
    assert state.phase == Phase.PLAY and state.turn == 0
    assert state.hands[0] == mask("4D 5D 6D 7D 8D 9D 5S 6S 7S KH")
    assert state.hands[2] == mask("QS JS 10S 9S 8S AC KC QC AH 10D")
    assert state.kitty == mask("AS JK KS")
    assert state.exchanges == [[0, mask("JK AH KH"), mask("JK AH 10D")],
                               [2, mask("JK AH 10D"), mask("AS JK KS")]]
    assert state.sitting_out == -1  # both partners play (§2.2)
    # each partner sees only its own exchange; the declarer no longer knows where its discards are
    assert seat_view(state, 2).exchanges == ((2, mask("JK AH 10D"), mask("AS JK KS")),)
    assert seat_view(state, 1).exchanges == () and seat_view(state, 1).exchanging == (0, 2)


def test_double_nullo_with_nullo_kitty_never_has_no_exchange() -> None:
    state = new_state(NULLO_RULES.replace(nullo_kitty="never"))
    do(state, "pass", "double nullo", "pass", "pass")
    assert state.phase == Phase.PLAY and state.turn == 1 and state.exchanges == []
