"""Cards, decks and the deal (docs/rules.md §1)."""

from __future__ import annotations

from collections import Counter

import pytest

from fh_env.cards import (C, D, DECKS, H, JOKER, NT_STANDARD, RED_JOKER, S, card_name,
                          card_strength, cards_of, effective_suit, parse_card)
from fh_env.engine import Phase, State, deal_cards
from fh_env.rules import Rules

from conftest import cards, names, new_state


def _suit(suit: str, low: str) -> list[str]:
    ranks = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    return [r + suit for r in ranks[ranks.index(low):]]


# §1.2, written out from the table.
DECK_TABLE = {
    "41": (_suit("S", "5") + _suit("C", "5") + _suit("D", "5") + _suit("H", "5") + ["JK"], 1),
    "42": (_suit("H", "4") + _suit("D", "4") + _suit("S", "5") + _suit("C", "5"), 2),
    "43": (_suit("H", "4") + _suit("D", "4") + _suit("S", "5") + _suit("C", "5") + ["JK"], 3),
    "44": (_suit("H", "4") + _suit("D", "4") + _suit("S", "5") + _suit("C", "4") + ["JK"], 4),
    "44-nojoker": (_suit("S", "4") + _suit("C", "4") + _suit("D", "4") + _suit("H", "4"), 4),
    "45": (_suit("S", "4") + _suit("C", "4") + _suit("D", "4") + _suit("H", "4") + ["JK"], 5),
    "46": (_suit("S", "4") + _suit("C", "4") + _suit("D", "4") + _suit("H", "4")
           + ["BJ", "RJ"], 6),
}


@pytest.mark.parametrize("deck", list(DECK_TABLE))
def test_deck_cards_and_kitty_size(deck: str) -> None:
    """§1.2: the cards of every deck value, 10 cards each and the rest in the kitty."""
    expected, kitty = DECK_TABLE[deck]
    rules = Rules(deck=deck)
    assert len(expected) == 40 + kitty
    assert {card_name(c, rules.jokers) for c in DECKS[deck]} == set(expected)
    assert rules.kitty_size == kitty
    for seed in range(5):
        state = State(rules, seed=seed)
        assert [h.bit_count() for h in state.hands] == [10, 10, 10, 10]
        assert state.kitty.bit_count() == kitty
        everything = state.kitty
        for hand in state.hands:
            assert not everything & hand
            everything |= hand
        assert names(everything, rules.jokers) == set(expected)


def test_two_jokers_black_above_red_everywhere() -> None:
    """§1.2: with two jokers the black joker ranks above the red joker in every context."""
    for context in range(7):
        for led in range(5):
            assert card_strength(JOKER, context, led) > card_strength(RED_JOKER, context, led)
    assert card_name(JOKER, 2) == "BJ" and card_name(RED_JOKER, 2) == "RJ"
    assert card_name(JOKER, 1) == "JK"


@pytest.mark.parametrize("trump", [S, C, D, H])
def test_trump_order_joker_bowers_then_ace(trump: int) -> None:
    """§5.2: joker(s), right bower, left bower, A K Q 10 9 … of trumps; side suits A K Q J 10."""
    letter = "SCDH"[trump]
    partner = "SCDH"[trump ^ 1]
    order = ["BJ", "RJ", "J" + letter, "J" + partner] + [
        r + letter for r in ("A", "K", "Q", "10", "9", "8", "7", "6", "5", "4")]
    strengths = [card_strength(parse_card(n), trump, trump) for n in order]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(order)
    for n in order:
        assert effective_suit(parse_card(n), trump) == trump
    for side in "SCDH":
        if side in (letter, partner):
            continue
        side_order = [r + side for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")]
        values = [card_strength(parse_card(n), trump, "SCDH".index(side)) for n in side_order]
        assert values == sorted(values, reverse=True) and len(set(values)) == 11
        assert max(values) < min(strengths)
    partner_side = [r + partner for r in ("A", "K", "Q", "10", "9", "8", "7", "6", "5", "4")]
    values = [card_strength(parse_card(n), trump, trump ^ 1) for n in partner_side]
    assert values == sorted(values, reverse=True)


def test_without_trumps_a_joker_has_no_suit() -> None:
    """§5.5: a joker belongs to no suit and wins any trick it is played to."""
    for led in range(4):
        assert card_strength(JOKER, NT_STANDARD, led) > card_strength(
            parse_card("A" + "SCDH"[led]), NT_STANDARD, led)
    assert effective_suit(JOKER, NT_STANDARD) == 4
    assert effective_suit(parse_card("JD"), NT_STANDARD) == D


def test_highest_joker_in_kitty_with_one_joker() -> None:
    """§1.3: the joker is in the kitty on every deal."""
    rules = Rules(highest_joker_in_kitty=True)
    for seed in range(40):
        hands, kitty = deal_cards(rules, seed, 0)
        assert kitty >> JOKER & 1 and kitty.bit_count() == 3
        assert all(not h >> JOKER & 1 and h.bit_count() == 10 for h in hands)


def test_highest_joker_in_kitty_with_two_jokers_only_the_black_one() -> None:
    """§1.3 with deck 46: the black joker goes to the kitty; the red one is dealt at random."""
    rules = Rules(deck="46", highest_joker_in_kitty=True)
    red_in_a_hand = 0
    for seed in range(40):
        state = State(rules, seed=seed)
        assert state.kitty >> JOKER & 1 and state.kitty.bit_count() == 6
        red_in_a_hand += any(h >> RED_JOKER & 1 for h in state.hands)
    assert 20 <= red_in_a_hand < 40  # 34/46 of the deals, roughly


def test_from_deal_with_highest_joker_in_kitty_requires_it_there() -> None:
    rules = Rules(highest_joker_in_kitty=True)
    with pytest.raises(ValueError, match="kitty"):
        new_state(rules, {0: "JK"})
    assert new_state(rules, {}, kitty="JK 4H 5H").kitty >> JOKER & 1


def test_deal_is_uniform_enough() -> None:
    """§1.4: every card is equally likely to go to each seat and the kitty (43-card deck)."""
    rules = Rules()
    where: Counter[tuple[int, int]] = Counter()
    n = 1500
    for seed in range(n):
        hands, kitty = deal_cards(rules, seed, 0)
        for c in (JOKER, parse_card("AS"), parse_card("4H")):
            place = next((i for i, h in enumerate(hands) if h >> c & 1), 4)
            where[(c, place)] += 1
    for c in (JOKER, parse_card("AS"), parse_card("4H")):
        for seat in range(4):
            assert abs(where[(c, seat)] / n - 10 / 43) < 0.05
        assert abs(where[(c, 4)] / n - 3 / 43) < 0.03


def test_first_dealer_from_seed_and_dealing_reproducible() -> None:
    """§1.4: the first dealer is chosen at random from the seed; same seed, same deals."""
    dealers = {State(Rules(), seed=seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    for seed in range(5):
        a, b = State(Rules(), seed=seed), State(Rules(), seed=seed)
        assert (a.dealer, a.hands, a.kitty) == (b.dealer, b.hands, b.kitty)
        assert a.turn == (a.dealer + 1) % 4 and a.phase == Phase.AUCTION
    assert State(Rules(), seed=1).hands != State(Rules(), seed=2).hands
    assert State(Rules(), seed=3, dealer=2).dealer == 2
    with pytest.raises(ValueError, match="dealer"):
        State(Rules(), seed=0, dealer=4)
    assert deal_cards(Rules(), 7, 0) != deal_cards(Rules(), 7, 1)


def test_card_names_accepted_forms() -> None:
    assert parse_card("10S") == parse_card("TS") == parse_card("ts") == parse_card("10♠")
    assert parse_card("Q♥") == parse_card("QH") == 3 * 11 + 8
    assert parse_card("jd") == D * 11 + 7
    assert parse_card("JK") == parse_card("BJ") == parse_card("joker") == JOKER
    assert parse_card("RJ") == RED_JOKER
    assert cards("4S AH") == [0, 43]
    for c in range(44):
        assert parse_card(card_name(c)) == c


@pytest.mark.parametrize("bad", ["1S", "14H", "13S", "13C", "AX", "", "JKK", "K", "10"])
def test_bad_card_name_says_what_is_accepted(bad: str) -> None:
    with pytest.raises(ValueError, match=r"bad card name.*rank.*suit.*JK"):
        parse_card(bad)
    with pytest.raises(ValueError, match="no card has id"):
        card_name(64)


def test_from_deal_rejects_bad_deals() -> None:
    rules = Rules()
    hands, kitty = [list(range(0, 10)), list(range(10, 20)), list(range(20, 30)),
                    list(range(30, 40))], [40, 41, 42]
    with pytest.raises(ValueError, match="deck '43'"):
        State.from_deal(rules, hands, kitty)  # 4S and 4C are not in the 43-card deck
    with pytest.raises(ValueError, match="9 cards|not 10"):
        State.from_deal(rules, [hands[0][:9]] + hands[1:], kitty)
    with pytest.raises(ValueError, match="twice"):
        State.from_deal(Rules(deck="44-nojoker"), [hands[0], hands[0]] + hands[2:], kitty)
    assert list(cards_of(State.from_deal(Rules(deck="44-nojoker"), hands,
                                         [40, 41, 42, 43]).kitty)) == [40, 41, 42, 43]
