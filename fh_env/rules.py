"""The rules configuration: one immutable value holding every option of docs/rules.md §§1-7.

Field names and values are those of docs/rules.md.  Where the specification gives no default
the choice is documented on the field.  ``Rules.preset(name)`` builds the presets of §8,
``from_toml`` / ``to_toml`` read and write one table of ``option = value`` lines
(``configs/rules/``), and :func:`resolve_rules` is the one reader of the "rules" argument that
every environment, evaluation and training entry point takes.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
import os
from typing import Any, Union

from .cards import DECKS, TABLE_DECKS, is_joker

_CHOICES: dict[str, tuple[Any, ...]] = {
    "deck": tuple(DECKS),
    "min_bid_level": (6, 7, 8),
    "nullo": ("off", "after7", "anytime"),
    "open_nullo": ("off", "after7", "after8", "anytime"),
    "double_nullo": ("off", "after_partner_nullo", "anytime"),
    "nullo_ranking": ("fixed", "points"),
    "open_nullo_ties": ("higher", "lower", "equal"),
    "all_pass": ("redeal", "play"),
    "reenter": ("never", "always", "after_change"),
    "nullo_kitty": ("always", "never", "nullo_only"),
    "first_leader": ("declarer", "left_of_dealer"),
    "notrump_ranking": ("standard", "j5", "off"),
    "joker_lead": ("any", "not_led", "not_shown_void", "last_card"),
    "joker_follow": ("anytime", "void_only", "first_or_last"),
    "open_nullo_exposed": ("at_first_lead", "after_first_trick"),
    "scoring": ("avondale", "original", "perfect"),
    "slam": ("bonus", "bid_value"),
    "when_set": ("subtract", "to_defenders"),
    "defender_scoring": ("none", "tricks", "tricks_and_nullo"),
    "game_over": ("points", "hands"),
    "on_target": ("highest", "must_bid", "declarers_win_both", "defenders_stop_10",
                  "defenders_stop_40"),
    "players": (4, 3, 6),
}


@dataclass(frozen=True)
class Rules:
    """Every rule option, with the defaults of docs/rules.md (the `australian-no-nullo` preset)."""

    # §1 cards
    deck: str = "43"
    highest_joker_in_kitty: bool = False
    # §2 contracts
    min_bid_level: int = 6
    nullo: str = "off"
    open_nullo: str = "off"
    double_nullo: str = "off"
    #: the specification gives no default; the presets that use fixed ranking say so, so points it is.
    nullo_ranking: str = "points"
    #: §2.4: a nullo-type bid against an equal-valued bid.  Between two nullo-type bids of equal
    #: value neither outranks the other.
    open_nullo_ties: str = "higher"
    nullo_value: int = 250
    open_nullo_value: int = 500
    double_nullo_value: int = 500
    # §3 auction
    bidding_rounds: Union[int, str] = "unlimited"
    all_pass: str = "redeal"
    inkle: bool = False
    raise_own_bid: bool = False
    reenter: str = "never"
    stick_the_dealer: bool = False
    six_nt_shows_joker: bool = False
    misdeal: bool = False
    # §4 kitty
    nullo_kitty: str = "always"
    # §5 play
    first_leader: str = "declarer"
    notrump_ranking: str = "standard"
    joker_lead: str = "not_led"
    joker_follow: str = "void_only"
    nullo_must_play_joker: bool = False
    jokers_low_in_nullo: bool = False
    open_nullo_exposed: str = "at_first_lead"
    finish_early: bool = False
    #: §5.11: a nullo declarer's claim means taking none of the remaining tricks (claims are
    #: for human players only, so no environment or observation reads this option).
    nullo_claims: bool = False
    # §6 scoring
    scoring: str = "avondale"
    slam: str = "bonus"
    when_set: str = "subtract"
    defender_scoring: str = "tricks"
    # §7 end of the game
    game_over: str = "points"
    #: the specification gives no default for the number of hands; 10 is a short session.
    hands_to_play: int = 10
    target: int = 500
    floor: int = -500
    on_target: str = "defenders_stop_10"
    #: §9 table size: 3, 4 or 6 players.  With 3 or 6 the pack is the table size's own, so
    #: ``deck`` must stay at its default, and ``double_nullo`` must be off (§9.3); every other
    #: option applies, "the others" meaning all the other players.
    players: int = 4

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _CHOICES:
                if value not in _CHOICES[f.name] or isinstance(value, bool):
                    raise ValueError(
                        f"rule option {f.name}={value!r} is not allowed; choose one of "
                        + ", ".join(repr(v) for v in _CHOICES[f.name]))
            elif f.type in ("bool",) and not isinstance(value, bool):
                raise ValueError(f"rule option {f.name}={value!r} must be true or false")
        rounds = self.bidding_rounds
        if not (rounds == "unlimited" or (type(rounds) is int and rounds >= 1)):
            raise ValueError(
                f"rule option bidding_rounds={rounds!r} must be 'unlimited' or a positive integer")
        for name in ("nullo_value", "open_nullo_value", "double_nullo_value", "hands_to_play",
                     "target", "floor"):
            if type(getattr(self, name)) is not int:
                raise ValueError(f"rule option {name}={getattr(self, name)!r} must be an integer")
        if self.hands_to_play < 1:
            raise ValueError(f"rule option hands_to_play={self.hands_to_play} must be at least 1")
        if self.floor >= self.target:
            raise ValueError(f"rule options floor={self.floor} and target={self.target}: "
                             "the floor must be below the target")
        if self.players != 4:
            # §9.3: the pack is the table size's; double nullo needs the one partner.
            odd = []
            if self.deck != Rules.deck:
                odd.append(f"deck={self.deck!r}")
            if self.double_nullo != "off":
                odd.append(f"double_nullo={self.double_nullo!r}")
            if odd:
                raise ValueError(f"rule option players={self.players} does not combine with "
                                 f"{' and '.join(odd)}: the {self.players}-player pack is fixed "
                                 "and double nullo needs a single partner (§9.3)")
        jokers = self.jokers
        if jokers == 0:
            for name in ("highest_joker_in_kitty", "six_nt_shows_joker"):
                if getattr(self, name):
                    raise ValueError(f"rule option {name}=true needs a joker, but "
                                     f"deck={self.deck!r} has none")
        if self.inkle and self.min_bid_level == 6:
            raise ValueError("rule option inkle=true allows 6-level bids below min_bid_level, "
                             "so it needs min_bid_level=7 or 8, not 6")

    # ------------------------------------------------------------------ derived facts
    @property
    def cards(self) -> tuple[int, ...]:
        """The card ids of the pack: the ``deck`` option's with four players, the table size's
        own with three or six (§9.1, §9.2)."""
        return TABLE_DECKS.get(self.players) or DECKS[self.deck]

    @property
    def jokers(self) -> int:
        """How many jokers the pack holds (0, 1 or 2)."""
        return sum(1 for c in self.cards if is_joker(c))

    @property
    def kitty_size(self) -> int:
        """Every player gets 10 cards; the rest is the kitty (§1.2, §9)."""
        return len(self.cards) - 10 * self.players

    @property
    def sides(self) -> int:
        """Who scores: two teams (4 or 6 players) or each of three players (§9.1)."""
        return 3 if self.players == 3 else 2

    def replace(self, **changes: Any) -> "Rules":
        """A copy with some options changed (validated like any other)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(sorted(unknown))}; "
                             f"known options: {', '.join(f.name for f in fields(self))}")
        return dataclasses.replace(self, **changes)

    @property
    def has_nullo_calls(self) -> bool:
        """Whether any nullo-type call (nullo, open nullo, double nullo) may be bid."""
        return any(getattr(self, name) != "off" for name in NULLO_BIDS)

    def same_game(self, other: "Rules") -> bool:
        """True when the two rule sets play the same game: equal but for the options of
        nullo-type contracts where neither allows one (so a policy trained under one plays
        exactly as well under the other)."""
        if self == other:
            return True
        if self.has_nullo_calls or other.has_nullo_calls:
            return False
        neutral = {name: getattr(Rules, name) for name in _NULLO_ONLY}
        return self.replace(**neutral) == other.replace(**neutral)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Rules":
        """Options over the defaults; ``preset = "name"`` starts from that preset instead."""
        data = dict(data)
        base = cls.preset(data.pop("preset")) if "preset" in data else cls()
        return base.replace(**data)

    # ------------------------------------------------------------------ presets
    @classmethod
    def preset(cls, name: str) -> "Rules":
        """One of the named rule sets of docs/rules.md §8."""
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
        return cls().replace(**PRESETS[name])

    # ------------------------------------------------------------------ TOML
    def to_toml(self) -> str:
        """Every option, one ``name = value`` line each, readable by :meth:`from_toml`."""
        lines = []
        for key, value in self.to_dict().items():
            if isinstance(value, bool):
                text = "true" if value else "false"
            elif isinstance(value, int):
                text = str(value)
            else:
                text = '"' + str(value) + '"'
            lines.append(f"{key} = {text}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_toml(cls, path: str | Path) -> "Rules":
        """Read a rules file: options over the defaults, or over ``preset = "name"``."""
        path = Path(path)
        data = read_toml(path, "rules file")
        if "rules" in data and isinstance(data["rules"], dict):
            data = data["rules"]
        try:
            return cls.from_dict(data)
        except ValueError as err:
            raise ValueError(f"rules file {path}: {err}") from None


#: The options of the nullo-type calls (§2.4): "off", or when each may be bid.
NULLO_BIDS = ("nullo", "open_nullo", "double_nullo")
# Options that only act in a nullo-type contract (§2.4, §4.2, §5.7-5.9).
_NULLO_ONLY = ("nullo_ranking", "open_nullo_ties", "nullo_value", "open_nullo_value",
               "double_nullo_value", "nullo_kitty", "nullo_must_play_joker",
               "jokers_low_in_nullo", "open_nullo_exposed")

RulesSpec = Union["Rules", str, os.PathLike, None]


def resolve_rules(spec: RulesSpec) -> Rules:
    """A :class:`Rules` from what a user may pass as ``rules``: a ``Rules``, a preset name
    (§8), the path of a TOML rules file, or None (the defaults)."""
    if spec is None:
        return Rules()
    if isinstance(spec, Rules):
        return spec
    if isinstance(spec, str) and spec in PRESETS:
        return Rules.preset(spec)
    if isinstance(spec, (str, os.PathLike)) and (Path(spec).suffix == ".toml"
                                                or Path(spec).exists()):
        return Rules.from_toml(spec)
    raise ValueError(f"rules={spec!r} is neither a Rules, a preset ({', '.join(PRESETS)}) "
                     "nor the path of a .toml rules file")


def load_rules(spec: str) -> Rules:
    """:func:`resolve_rules` for a command line: every failure (a missing, unreadable, non-text
    or invalid rules file, an unknown preset) is a ValueError naming the file, so that each
    command can print it as one line and exit with status 2."""
    try:
        return resolve_rules(spec)
    except UnicodeDecodeError:
        raise ValueError(f"rules file {spec} is not a text (TOML) file") from None
    except IsADirectoryError:
        raise ValueError(f"rules file {spec} is a directory, not a TOML file") from None
    except FileNotFoundError as err:
        raise ValueError(str(err)) from None
    except OSError as err:
        raise ValueError(f"rules file {spec} cannot be read: {err.strerror or err}") from None
    except (TypeError, KeyError) as err:
        raise ValueError(f"rules file {spec}: {err}") from None


def rules_name(rules: Rules) -> str:
    """The preset ``rules`` equals, or ``"custom"`` (for tables and logs)."""
    return next((name for name in PRESETS if Rules.preset(name) == rules), "custom")


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """The table of a TOML file, with errors that name ``what`` and the path."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"{what} {path} does not exist") from None
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{what} {path} is not valid TOML: {err}") from None


_AUSTRALIAN = dict(nullo="after7", nullo_ranking="fixed", open_nullo="anytime",
                   open_nullo_ties="higher")
_AMERICAN = dict(_AUSTRALIAN, bidding_rounds=1, min_bid_level=7, inkle=True)
PRESETS: dict[str, dict[str, Any]] = {
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
# §9.4: the variants of seed 003 are avondale-classic at the other table sizes.
PRESETS["three-handed"] = dict(PRESETS["avondale-classic"], players=3)
PRESETS["six-handed"] = dict(PRESETS["avondale-classic"], players=6)
