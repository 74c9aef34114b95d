"""The rules configuration (docs/rules.md §§1-8): defaults, presets, validation, TOML files."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from fh_env.rules import PRESETS, Rules

from conftest import BOOLS, CHOICES

CONFIGS = Path(__file__).resolve().parent.parent / "configs" / "rules"

# The defaults exactly as the specification states them (section in the comment).
STATED_DEFAULTS = {
    "deck": "43",  # §1.2
    "highest_joker_in_kitty": False,  # §1.3
    "min_bid_level": 6,  # §2.1
    "nullo": "off",  # §8 australian-no-nullo: nullo off
    "open_nullo": "off",
    "double_nullo": "off",
    "nullo_value": 250,  # §2.4
    "open_nullo_value": 500,
    "double_nullo_value": 500,
    "bidding_rounds": "unlimited",  # §3.2
    "all_pass": "redeal",  # §3.3
    "inkle": False,  # §3.4
    "raise_own_bid": False,  # §3.5
    "reenter": "never",  # §3.6
    "stick_the_dealer": False,  # §3.7
    "six_nt_shows_joker": False,  # §3.8
    "misdeal": False,  # §3.9
    "nullo_kitty": "always",  # §4.2
    "first_leader": "declarer",  # §5.1
    "joker_lead": "not_led",  # §5.5
    "joker_follow": "void_only",  # §5.6
    "nullo_must_play_joker": False,  # §5.7
    "jokers_low_in_nullo": False,  # §5.8
    "open_nullo_exposed": "at_first_lead",  # §5.9
    "finish_early": False,  # §5.10
    "scoring": "avondale",  # §6.1
    "slam": "bonus",  # §6.3
    "when_set": "subtract",  # §6.4
    "defender_scoring": "tricks",  # §6.5
    "game_over": "points",  # §7.1
    "target": 500,  # §7.2
    "floor": -500,
    "on_target": "defenders_stop_10",
    "players": 4,  # §9
    "open_nullo_ties": "higher",  # §2.4
    "nullo_claims": False,  # §5.11
}

# Options whose default the specification does not state, with the values it allows.
UNSTATED = {
    "nullo_ranking": ("fixed", "points"),
    "notrump_ranking": ("standard", "j5", "off"),
}

# docs/rules.md §8, row by row.
_AUSTRALIAN = dict(nullo="after7", nullo_ranking="fixed", open_nullo="anytime",
                   open_nullo_ties="higher")
_AMERICAN = dict(_AUSTRALIAN, bidding_rounds=1, min_bid_level=7, inkle=True)
PRESET_TABLE = {
    "australian-no-nullo": {},
    "australian": _AUSTRALIAN,
    "american": _AMERICAN,
    "american-double-nullo": dict(_AMERICAN, deck="45", nullo="anytime", open_nullo="anytime",
                                  open_nullo_value=350, double_nullo="after_partner_nullo",
                                  double_nullo_value=500),
    "canadian": dict(bidding_rounds=1, min_bid_level=7, deck="46", nullo="off",
                     open_nullo="anytime", defender_scoring="none", when_set="to_defenders",
                     target=1000, floor=-1000, on_target="highest"),
    "avondale-classic": dict(nullo="after7", nullo_ranking="fixed", open_nullo="anytime",
                             open_nullo_ties="lower", open_nullo_exposed="after_first_trick",
                             nullo_must_play_joker=True, joker_lead="not_led",
                             on_target="must_bid"),
    "american-45": dict(deck="45", bidding_rounds=3, min_bid_level=7, inkle=True,
                        slam="bid_value", on_target="must_bid"),
}
# §9.4: avondale-classic at the other table sizes.
PRESET_TABLE["three-handed"] = dict(PRESET_TABLE["avondale-classic"], players=3)
PRESET_TABLE["six-handed"] = dict(PRESET_TABLE["avondale-classic"], players=6)

def test_defaults_are_those_rules_md_states() -> None:
    """§§1-7: every stated default, and the default is the australian-no-nullo preset (§8)."""
    rules = Rules()
    for name, value in STATED_DEFAULTS.items():
        assert getattr(rules, name) == value, name
        assert type(getattr(rules, name)) is type(value), name
    for name, allowed in UNSTATED.items():
        assert getattr(rules, name) in allowed
    assert rules.hands_to_play >= 1
    assert rules == Rules.preset("australian-no-nullo")
    assert {f.name for f in fields(Rules)} == set(STATED_DEFAULTS) | set(UNSTATED) | {
        "hands_to_play"}


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_preset_differs_from_defaults_exactly_as_section_8_says(name: str) -> None:
    """§8: the options a preset sets have its values; every other option keeps its default."""
    preset, default = Rules.preset(name).to_dict(), Rules().to_dict()
    for option, value in PRESET_TABLE[name].items():
        assert preset[option] == value, option
    differing = {k for k in preset if preset[k] != default[k]}
    assert differing == {k for k, v in PRESET_TABLE[name].items() if v != default[k]}


def test_preset_names_are_those_of_section_8() -> None:
    assert set(PRESETS) == set(PRESET_TABLE)
    with pytest.raises(ValueError, match="unknown preset 'bogus'.*australian"):
        Rules.preset("bogus")


@pytest.mark.parametrize("option", list(CHOICES))
def test_every_allowed_value_is_accepted_and_a_bad_one_rejected_naming_the_option(
        option: str) -> None:
    for value in CHOICES[option]:
        base = Rules(min_bid_level=7) if option == "inkle" else Rules()
        assert getattr(base.replace(**{option: value}), option) == value
    for bad in ("bogus", 5, None, True):
        with pytest.raises(ValueError, match=option):
            Rules().replace(**{option: bad})


@pytest.mark.parametrize("option", BOOLS)
def test_bool_option_rejects_non_bools_naming_the_option(option: str) -> None:
    for bad in ("yes", 1, None):
        with pytest.raises(ValueError, match=option):
            Rules().replace(**{option: bad})


@pytest.mark.parametrize("option,bad", [
    ("bidding_rounds", 0), ("bidding_rounds", -2), ("bidding_rounds", "two"),
    ("bidding_rounds", 1.5), ("bidding_rounds", True),
    ("nullo_value", "250"), ("open_nullo_value", 3.5), ("double_nullo_value", None),
    ("hands_to_play", 0), ("target", "500"), ("floor", 1.0),
])
def test_bad_numbers_rejected_naming_the_option(option: str, bad: object) -> None:
    with pytest.raises(ValueError, match=option):
        Rules().replace(**{option: bad})


def test_bidding_rounds_accepts_any_positive_integer() -> None:
    """§3.2: 1, unlimited, or any positive integer."""
    for rounds in (1, 2, 3, 7, "unlimited"):
        assert Rules(bidding_rounds=rounds).bidding_rounds == rounds


def test_floor_must_be_below_target() -> None:
    with pytest.raises(ValueError, match="floor"):
        Rules(target=500, floor=500)


@pytest.mark.parametrize("deck", ["42", "44-nojoker"])
@pytest.mark.parametrize("option", ["highest_joker_in_kitty", "six_nt_shows_joker"])
def test_joker_options_rejected_with_a_jokerless_deck(deck: str, option: str) -> None:
    """§1.3 and §3.8: invalid with a deck that has no joker."""
    with pytest.raises(ValueError, match=f"{option}.*{deck}|{deck}.*{option}"):
        Rules(deck=deck, **{option: True})
    for with_joker in ("41", "43", "44", "45", "46"):
        assert getattr(Rules(deck=with_joker, **{option: True}), option) is True


def test_unknown_option_is_an_error_naming_it() -> None:
    with pytest.raises(ValueError, match="unknown rule option.*bogus"):
        Rules().replace(bogus=1)
    with pytest.raises(ValueError, match="bogus"):
        Rules.from_dict({"bogus": 1})


def test_unknown_option_in_a_toml_file_is_an_error_naming_it_and_the_file(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text('deck = "45"\nnulo = "anytime"\n')
    with pytest.raises(ValueError, match=r"x\.toml.*nulo"):
        Rules.from_toml(path)
    path.write_text('deck = "47"\n')
    with pytest.raises(ValueError, match=r"x\.toml.*deck"):
        Rules.from_toml(path)
    path.write_text('deck = \n')
    with pytest.raises(ValueError, match="not valid TOML"):
        Rules.from_toml(path)
    with pytest.raises(FileNotFoundError):
        Rules.from_toml(tmp_path / "missing.toml")


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_toml_round_trip(name: str, tmp_path: Path) -> None:
    rules = Rules.preset(name)
    path = tmp_path / "r.toml"
    path.write_text(rules.to_toml())
    assert Rules.from_toml(path) == rules
    odd = rules.replace(bidding_rounds=4, reenter="after_change", raise_own_bid=True,
                        target=750, floor=-250, nullo_value=300)
    path.write_text(odd.to_toml())
    assert Rules.from_toml(path) == odd
    assert Rules.from_dict(odd.to_dict()) == odd


def test_toml_options_over_a_preset_and_in_a_rules_table(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text('preset = "american"\ntarget = 300\n')
    assert Rules.from_toml(path) == Rules.preset("american").replace(target=300)
    path.write_text('[rules]\ndeck = "45"\n')
    assert Rules.from_toml(path) == Rules(deck="45")


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_config_file_of_every_preset_loads_back_to_the_preset(name: str) -> None:
    """configs/rules/<preset>.toml (§8), with a header comment naming the preset."""
    path = CONFIGS / f"{name}.toml"
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("#") and name in first
    assert Rules.from_toml(path) == Rules.preset(name)


def test_every_config_file_is_valid() -> None:
    files = sorted(CONFIGS.glob("*.toml"))
    assert {p.stem for p in files} >= set(PRESET_TABLE)
    for path in files:
        Rules.from_toml(path)


def test_derived_facts() -> None:
    """§1.2: jokers and kitty size per deck."""
    expected = {"41": (1, 1), "42": (0, 2), "43": (1, 3), "44": (1, 4), "44-nojoker": (0, 4),
                "45": (1, 5), "46": (2, 6)}
    for deck, (jokers, kitty) in expected.items():
        assert (Rules(deck=deck).jokers, Rules(deck=deck).kitty_size) == (jokers, kitty)


def test_rules_are_immutable_and_hashable() -> None:
    rules = Rules()
    with pytest.raises(AttributeError):
        rules.deck = "45"  # type: ignore[misc]
    assert hash(rules) == hash(Rules()) and rules.replace(deck="45") != rules
