"""The start screen's choices: the difficulty ladder, the rules presets, and a new game built
from them.

Each level is a bot of the leaderboard (README and docs/bots.md, ratings on the Elo scale,
mean 0, seed 2025): the top level is the strongest bot there is, ``search`` (``neural:best``
with its leads searched), for the default rules; the level below it is ``neural:best`` alone.
A network plays only the rules it was trained for (the shipped agents: one per preset,
:data:`agents.shipped.BEST_AGENTS`); where a level's bot does not play the game's rules (a rules
file that is no preset) the level falls back down the ladder to the first bot that does, and
the start screen says so.
"""

from __future__ import annotations

import secrets
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fh_env.rules import PRESETS, Rules, rules_name

from ..render import DEFAULT_SEAT


@dataclass(frozen=True)
class Level:
    key: str
    title: str
    spec: str        # the bot under the default rules
    rating: int      # on the leaderboard
    about: str


LEVELS = (
    Level("beginner", "Beginner", "random", -888, "plays any legal card, bids at random"),
    Level("easy", "Easy", "rule", 29, "the rule bot: counts its tricks, plays by the book"),
    Level("normal", "Normal", "mcfast", 111, "Monte Carlo search, 100 deals a decision"),
    Level("hard", "Hard", "nmc:best", 147, "the network's calls, Monte Carlo card play"),
    Level("strongest", "Strongest", "neural:best", 178, "the trained network"),
    Level("master", "Master", "search", 207, "the trained network, each lead searched "
          "(a fifth of a second a lead)"),
)
LEVEL_KEYS = tuple(level.key for level in LEVELS)
DEFAULT_PRESET = "australian-no-nullo"


def level(key: str) -> Level:
    for lv in LEVELS:
        if lv.key == key:
            return lv
    raise ValueError(f"unknown level {key!r}; levels: {', '.join(LEVEL_KEYS)}")


def spec_for(lv: Level, rules: Rules) -> str:
    """The level's bot under ``rules``: the network of the preset for ``best``."""
    name = rules_name(rules)
    if lv.spec.endswith(":best") and name not in ("custom", DEFAULT_PRESET):
        return f"{lv.spec}-{name}"
    return lv.spec


def build_level(key: str, rules: Rules) -> tuple[str, str]:
    """The bot spec of level ``key`` for ``rules`` (built once, to know that it plays them)
    and a note when it had to fall back down the ladder (empty when it plays as named)."""
    from agents.registry import make_bot

    index = LEVEL_KEYS.index(level(key).key)
    reasons = []
    for lv in reversed(LEVELS[:index + 1]):
        spec = spec_for(lv, rules)
        try:
            make_bot(spec, rules)
        except Exception as err:  # a network for other rules, a missing checkpoint
            reasons.append(f"{spec}: {str(err).splitlines()[0]}")
            continue
        note = "" if lv.key == key else (f"{level(key).title} plays {spec} here: "
                                         + "; ".join(reasons))
        return spec, note
    raise ValueError("no bot of the ladder plays these rules: " + "; ".join(reasons))


def ladder_json() -> list[dict[str, Any]]:
    return [{"key": lv.key, "title": lv.title, "bot": lv.spec, "rating": lv.rating,
             "about": lv.about} for lv in LEVELS]


def presets_json() -> list[dict[str, Any]]:
    """Every preset of rules §8 and §9 with what the start screen shows of it."""
    out = []
    for name in PRESETS:
        rules = Rules.preset(name)
        out.append({"name": name, "players": rules.players, "target": rules.target,
                    "floor": rules.floor})
    return out


def rules_from(settings: dict[str, Any]) -> Rules:
    """The rules of the start screen: a preset, or the text of a rules file (TOML, as
    ``--rules FILE`` reads), with the target score changed when asked."""
    text = settings.get("rules_toml")
    if text:
        if not isinstance(text, str):
            raise ValueError("rules_toml must be the text of a rules file")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise ValueError(f"the rules file is not valid TOML: {err}") from None
        if isinstance(data.get("rules"), dict):
            data = data["rules"]
        try:
            rules = Rules.from_dict(data)
        except (TypeError, KeyError) as err:
            raise ValueError(f"the rules file: {err}") from None
    else:
        name = settings.get("preset", DEFAULT_PRESET)
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
        rules = Rules.preset(name)
    target = settings.get("target")
    if target not in (None, "", rules.target):
        if not isinstance(target, int) or isinstance(target, bool):
            raise ValueError("the target score must be a whole number")
        if not 50 <= target <= 5000:
            raise ValueError("the target score must be between 50 and 5000")
        rules = rules.replace(target=target)
    return rules


@dataclass
class Setup:
    """What a game was started with (its statistics are kept under ``level``)."""

    level: str
    partner: str | None
    rules: Rules
    notes: list[str]


def new_game(settings: dict[str, Any], save_dir: str | Path = "fh-games",
             seed: int | None = None, pace_ms: int = 700):
    """A :class:`~play.web.session.WebGame` from the start screen's settings: ``preset`` or
    ``rules_toml``, ``target``, ``level`` (the opponents), ``partner`` (the partners' level;
    the opponents' by default), and its :class:`Setup`."""
    from ..aids import Helper
    from .session import WebGame

    rules = rules_from(settings)
    key = settings.get("level", "normal")
    partner_key = settings.get("partner") or key
    for k in (key, partner_key):
        if not isinstance(k, str) or k not in LEVEL_KEYS:
            raise ValueError(f"unknown level {k!r}; levels: {', '.join(LEVEL_KEYS)}")
    n = rules.players
    person = DEFAULT_SEAT[n]
    from agents.registry import make_bot

    spec, note = build_level(key, rules)
    notes = [note] if note else []
    partners = [] if n == 3 else [(person + k) % n for k in range(2, n, 2)]
    mate = spec
    if partners:
        mate, mate_note = build_level(partner_key, rules)
        if mate_note:
            notes.append("Partner: " + mate_note)
    bots = {seat: make_bot(mate if seat in partners else spec, rules)
            for seat in range(n) if seat != person}
    seed = seed if seed is not None else secrets.randbelow(10**6)
    helper = Helper(rules, hint_bot="mc", seed=seed)
    game = WebGame(rules, person, bots, seed=seed, save=Path(save_dir) / f"web-seed{seed}.json",
                   helper=helper, pace_ms=pace_ms)
    return game, Setup(key, partner_key if partners else None, rules, notes)
