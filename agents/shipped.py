"""The shipped agents (``agents/checkpoints/NAME.pt``): their names, older names, and the best
agent of each rules preset.

Every name a user may write after ``neural:`` or ``nmc:`` is resolved here, once
(:func:`resolve_alias`, called by :func:`agents.neural.resolve_checkpoint`, which every loader
goes through): ``best`` and ``best-PRESET`` name the strongest agent of a preset, and the names
the checkpoints were first shipped under (their lineage, as ``ppo-distilled-b2``) still load.
"""

from __future__ import annotations

from pathlib import Path

CHECKPOINT_DIR = Path(__file__).resolve().parent / "checkpoints"

#: Older shipped names -> the names that say what each agent is.
RENAMED: dict[str, str] = {
    "ppo-long": "ppo-selfplay",                # imitation, then PPO self-play (long.toml)
    "ppo-distilled": "distill-search-2",       # two steps of Monte Carlo search distillation
    "ppo-distilled-5": "distill-search-5",     # five such steps
    "ppo-distilled-f3": "distill-features-3",  # three more, with the derived card features
    "ppo-distilled-f6": "distill-vs-rule-6",   # one more on its own play, two at rule tables
    "ppo-distilled-b2": "distill-branches-2",  # two steps scored by deal branches
}

#: The strongest shipped agent for each rules preset that has one: ``neural:best`` is the
#: default rules' (``australian-no-nullo``), ``neural:best-PRESET`` another preset's.  Chosen by
#: the leaderboard of docs/bots.md (duplicate deals that neither training nor selection used);
#: update it when a stronger agent is shipped.
BEST_AGENTS: dict[str, str] = {"australian-no-nullo": "distill-branches-2",
                               "australian": "distill-australian-nullo-declarer",
                               "canadian": "distill-canadian-calls-steps-4",
                               "avondale-classic": "distill-avondale-classic-nullo-declarer-2",
                               "american-double-nullo": "distill-american-double-nullo-calls-steps-3",
                               "american-45": "distill-american-45-4",
                               "american": "distill-american-calls-steps-5",
                               "three-handed": "distill-three-handed-features",
                               "six-handed": "distill-six-handed-calls-steps"}
DEFAULT_PRESET = "australian-no-nullo"  # the preset equal to Rules(), fh-eval's default


def shipped_agents() -> list[str]:
    """The names of the checkpoints shipped in agents/checkpoints/ (``neural:NAME``)."""
    return sorted(p.stem for p in CHECKPOINT_DIR.glob("*.pt")) if CHECKPOINT_DIR.is_dir() else []


def resolve_alias(name: str) -> str:
    """``best`` -> the shipped name of the strongest agent for the default rules, ``best-PRESET``
    -> the one for PRESET, an older shipped name -> its current one; any other name unchanged.

    A file or a run directory of that name comes first (as for every ``neural:PATH``).  A preset
    without a best agent, or no preset at all, is a ValueError listing the presets that have one.
    """
    if Path(name).exists():
        return name
    if name in RENAMED:
        return RENAMED[name]
    if name != "best" and not name.startswith("best-"):
        return name
    preset = DEFAULT_PRESET if name == "best" else name[len("best-"):]
    if preset in BEST_AGENTS:
        return BEST_AGENTS[preset]
    from fh_env.rules import PRESETS

    have = ", ".join(f"neural:best-{p} (= neural:{agent}"
                     + (", also neural:best" if p == DEFAULT_PRESET else "") + ")"
                     for p, agent in BEST_AGENTS.items())
    what = ("is not a preset (presets: " + ", ".join(PRESETS) + ")" if preset not in PRESETS
            else "has no shipped agent")
    raise ValueError(f"no best agent for neural:{name}: {preset!r} {what}; best agents exist "
                     f"for: {have or 'none'}")
