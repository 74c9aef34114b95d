"""Bots by name: ``make_bot("rule")``, ``make_bot("mc:samples=50,infer=1")``, ``neural:PATH``.

A spec is a registered name, optionally followed by ``:`` and an argument string that is handed
to the name's factory unchanged (everything after the first colon).  :data:`REGISTRY` maps a
name to its factory, a callable ``factory(arg: str | None) -> Bot``.  To add a bot::

    from agents.registry import register
    register("mybot", lambda arg: MyBot(**parse_options(arg)))

=================  ==============================================================
name               bot
=================  ==============================================================
``random``         uniform over legal actions (:mod:`agents.random_bot`)
``rule``           the rule-based player (:mod:`agents.rule`); options: the fields of
                   :class:`agents.rule.BidParams`, as in ``rule:nt_risk=0.5``
``mc``             Monte Carlo, level 4 (:mod:`agents.mc`); options ``samples``,
                   ``bid_samples``, ``infer``, ``discard_candidates``, ``rollout``
                   (``rule`` or ``random``), ``infer_eps``, ``max_draws``, ``level``
``mc4`` … ``mc6``  Monte Carlo at the commercial app's levels: 20, 50, 100 worlds
``mc-infer``       ``mc`` that reads the auction (``infer=1``)
``mcfast``         Monte Carlo play with compiled rollouts (:mod:`agents.mc_fast`, imported
                   lazily); option ``samples`` (default 100)
``neural``         the trained policy, ``neural:PATH`` (:mod:`agents.neural`, imported lazily)
=================  ==============================================================
"""

from __future__ import annotations

from typing import Any, Callable

from .base import Bot
from .mc import LEVELS, MCBot
from .random_bot import RandomBot
from .rule import BidParams, RuleBot

BotFactory = Callable[[str | None], Bot]


def parse_options(arg: str | None) -> dict[str, Any]:
    """``"samples=50,infer=1"`` -> ``{"samples": 50, "infer": 1}`` (ints, floats, else strings)."""
    out: dict[str, Any] = {}
    if not arg:
        return out
    for item in arg.split(","):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"bad bot option {item!r}: expected key=value, as in 'samples=50'")
        value = value.strip()
        parsed: Any = value
        for kind in (int, float):
            try:
                parsed = kind(value)
                break
            except ValueError:
                continue
        if isinstance(parsed, str) and value.lower() in ("true", "false", "yes", "no"):
            parsed = value.lower() in ("true", "yes")
        out[key] = parsed
    return out


def _no_options(name: str, factory: Callable[[], Bot]) -> BotFactory:
    def make(arg: str | None) -> Bot:
        if arg:
            raise ValueError(f"bot {name!r} takes no options (got {arg!r})")
        return factory()
    return make


def _rule(arg: str | None) -> Bot:
    options = parse_options(arg)
    try:
        params = BidParams(**{k: float(v) for k, v in options.items()})
    except TypeError as err:
        raise ValueError(f"bad option for 'rule': {err}") from None
    return RuleBot(params, name="rule" + (":" + arg if arg else ""))


def _mc(defaults: dict[str, Any], base_name: str) -> BotFactory:
    def make(arg: str | None) -> Bot:
        options = dict(defaults, **parse_options(arg))
        if "level" in options:
            level = options.pop("level")
            if level not in LEVELS:
                raise ValueError(f"mc level {level!r} unknown; levels: {sorted(LEVELS)}")
            options.setdefault("samples", LEVELS[level])
        options.setdefault("samples", LEVELS[4])
        if "infer" in options:
            options["infer"] = bool(options["infer"])
        name = base_name + (":" + arg if arg else "")
        try:
            return MCBot(name=name, **options)
        except TypeError as err:
            raise ValueError(f"bad option for {base_name!r}: {err}") from None
    return make


def _mcfast(arg: str | None) -> Bot:
    from .mc_fast import FastMCBot  # numba only when asked for

    options = parse_options(arg)
    try:
        return FastMCBot(name="mcfast" + (":" + arg if arg else ""),
                         **{"samples": LEVELS[6], **options})
    except TypeError as err:
        raise ValueError(f"bad option for 'mcfast': {err}") from None


def _neural(arg: str | None) -> Bot:
    from .neural import make_neural_bot  # torch only when a neural bot is asked for

    return make_neural_bot(arg)


REGISTRY: dict[str, BotFactory] = {
    "random": _no_options("random", RandomBot),
    "rule": _rule,
    "mc": _mc({}, "mc"),
    "mc4": _mc({"level": 4}, "mc4"),
    "mc5": _mc({"level": 5}, "mc5"),
    "mc6": _mc({"level": 6}, "mc6"),
    "mc-infer": _mc({"infer": True}, "mc-infer"),
    "mcfast": _mcfast,
    "neural": _neural,
}


def register(name: str, factory: BotFactory) -> None:
    """Make ``make_bot(name)`` / ``make_bot(name + ":" + arg)`` call ``factory(arg)``."""
    REGISTRY[name] = factory


def make_bot(spec: str) -> Bot:
    """The bot a spec names (see the module docstring)."""
    name, colon, arg = spec.strip().partition(":")
    factory = REGISTRY.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {spec!r}; known bots: {', '.join(sorted(REGISTRY))} "
                         "(options after a colon, as in 'mc:samples=50,infer=1')")
    return factory(arg if colon else None)
