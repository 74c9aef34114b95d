"""Bots by name: ``make_bot("rule")``, ``make_bot("mc:samples=50,infer=1")``, ``neural:PATH``.

A spec is a registered name, optionally followed by ``:`` and an argument string (everything
after the first colon)::

    name[:key=value,key=value,...]          e.g. mc:samples=50,infer=1   rule:nt_risk=0.5
    neural:PATH[,key=value,...]             e.g. neural:ppo-selfplay,strict_rules=0

:data:`BOTS` is the one table of bots: for each name a :class:`BotInfo` with a one-line
description, the options it takes (each with its type and range) and its factory.  Options are
checked before a bot is built: an unknown option is refused naming the accepted ones, and a
bad value naming the option, the value and what is accepted.  ``fh-eval --help`` is generated
from this table (:func:`bot_help`).  :data:`REGISTRY` is the same table seen as
``name -> factory(arg: str | None) -> Bot``.  To add a bot::

    from agents.registry import register
    register("mybot", lambda arg: MyBot(**parse_options(arg)))

or, with checked options, ``register("mybot", make, "what it does", options=(Option(...),))``
where ``make(**options)`` receives the converted values.

=================  ==============================================================
name               bot
=================  ==============================================================
``random``         uniform over legal actions (:mod:`agents.random_bot`)
``rule``           the rule-based player (:mod:`agents.rule`); options: the fields of
                   :class:`agents.rule.BidParams` (numbers), as in ``rule:nt_risk=0.5``
``mc``             Monte Carlo, level 4 (:mod:`agents.mc`); options ``samples``,
                   ``bid_samples``, ``infer``, ``discard_candidates``, ``rollout``
                   (``rule`` or ``random``), ``infer_eps``, ``max_draws``, ``level``
``mc4`` … ``mc6``  Monte Carlo at the commercial app's levels: 20, 50, 100 worlds
``mc-infer``       ``mc`` that reads the auction (``infer=1``)
``mcfast``         Monte Carlo play with compiled rollouts (:mod:`agents.mc_fast`, imported
                   lazily); option ``samples`` (default 100)
``neural``         the trained policy, ``neural:PATH[,greedy=0][,strict_rules=0]``
                   (:mod:`agents.neural`, imported lazily); ``neural:best`` is the strongest
                   shipped agent for the default rules (:data:`agents.shipped.BEST_AGENTS`)
``nmc``            a trained policy's calls and discards, Monte Carlo card play
                   (:mod:`agents.nmc`), ``nmc:PATH[,samples=N][,infer=X][,rollout=net]``
                   ``[,calls=N][,discards=N][,belief=X][,top=K][,margin=P][,cards=leads|...]``
                   ``[,time=S]``
``search``         the strongest player measured: ``nmc:best`` with each lead searched in
                   100 worlds of the belief model, played out by the network (the options
                   of ``nmc``, as ``search:samples=200``)
``ismcts``         OpenSpiel's IS-MCTS (:mod:`agents.ismcts`, imported lazily: the
                   ``openspiel`` extra); options ``sims``, ``uct_c``, ``rollouts``, ``rollout``
=================  ==============================================================

Bots that were trained under one rule set (``neural``) are checked against the rules of the
game when :func:`make_bot` is given them (``make_bot(spec, rules)``): a mismatch is refused
at once, unless the spec says ``strict_rules=0``.
"""

from __future__ import annotations

import math
from collections.abc import MutableMapping
from dataclasses import dataclass, fields
from typing import Any, Callable, Iterator

from fh_env.rules import Rules

from .base import Bot
from .mc import LEVELS, MCBot
from .random_bot import RandomBot
from .rule import BidParams, RuleBot
from .shipped import BEST_AGENTS, DEFAULT_PRESET, RENAMED, shipped_agents

BotFactory = Callable[[str | None], Bot]

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def parse_options(arg: str | None) -> dict[str, Any]:
    """``"samples=50,infer=1"`` -> ``{"samples": 50, "infer": 1}`` (ints, floats, else strings).

    Untyped: for bots registered without an option table.  Registered bots with options
    convert and check each value with their :class:`Option`.
    """
    out: dict[str, Any] = {}
    for key, value in _split_options(arg).items():
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


def _split_options(arg: str | None) -> dict[str, str]:
    """``"a=1,b=x"`` -> ``{"a": "1", "b": "x"}`` (raw strings); refuses items without ``=``."""
    out: dict[str, str] = {}
    if not arg:
        return out
    for item in arg.split(","):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"bad bot option {item!r}: expected key=value, as in 'samples=50'")
        if key in out:
            raise ValueError(f"bot option {key!r} given twice")
        out[key] = value.strip()
    return out


# ---------------------------------------------------------------------------- the table
@dataclass(frozen=True)
class Option:
    """One option of a bot: ``kind`` is ``"int"``, ``"float"``, ``"bool"`` or ``"choice"``."""

    name: str
    kind: str
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()
    default: Any = None

    def expected(self) -> str:
        """What the option accepts, in words (for errors and help)."""
        if self.kind == "bool":
            return "a boolean: 1 or 0 (also true/false, yes/no, on/off)"
        if self.kind == "choice":
            return "one of " + ", ".join(str(c) for c in self.choices)
        what = "an integer" if self.kind == "int" else "a number"
        if self.minimum is not None and self.maximum is not None:
            return f"{what} from {self.minimum:g} to {self.maximum:g}"
        if self.minimum is not None:
            return f"{what} at least {self.minimum:g}"
        if self.maximum is not None:
            return f"{what} at most {self.maximum:g}"
        return what

    def short(self) -> str:
        """``name=default (kind)`` for help texts."""
        if self.kind == "bool":
            kind = "0/1"
        elif self.kind == "choice":
            kind = "|".join(str(c) for c in self.choices)
        else:
            kind = "integer" if self.kind == "int" else "number"
            if self.minimum is not None and self.maximum is not None:
                kind += f" {self.minimum:g}..{self.maximum:g}"
            elif self.minimum is not None:
                kind += f" >= {self.minimum:g}"
        default = "" if self.default is None else f"={int(self.default) if self.kind == 'bool' else self.default}"
        return f"{self.name}{default} ({kind})"

    def convert(self, raw: str, bot: str) -> Any:
        """The value of ``raw`` (a string from a spec), or ValueError naming everything."""
        value: Any = None
        text = raw.strip()
        if self.kind == "bool":
            if text.lower() in _TRUE:
                value = True
            elif text.lower() in _FALSE:
                value = False
        elif self.kind == "int":
            try:
                value = int(text)
            except ValueError:
                value = None
        elif self.kind == "float":
            try:
                value = float(text)
            except ValueError:
                value = None
            if value is not None and not math.isfinite(value):
                value = None
        elif self.kind == "choice":
            for choice in self.choices:
                if text == str(choice):
                    value = choice
        else:
            raise AssertionError(f"option kind {self.kind!r}")
        if value is not None and self.kind in ("int", "float"):
            if ((self.minimum is not None and value < self.minimum)
                    or (self.maximum is not None and value > self.maximum)):
                value = None
        if value is None:
            raise ValueError(f"bot {bot!r}: option {self.name}={raw!r} is invalid; expected "
                             f"{self.expected()}")
        return value


@dataclass
class BotInfo:
    """A row of :data:`BOTS`.

    ``make(**options)`` builds the bot from converted options (with ``positional``, e.g.
    ``"PATH"``, the text before the first comma of the argument is passed as ``arg``).  A bot
    registered with a bare ``factory(arg)`` instead gets the argument string unchecked.
    """

    name: str
    description: str = ""
    options: tuple[Option, ...] = ()
    make: Callable[..., Bot] | None = None
    factory_fn: BotFactory | None = None
    positional: str | None = None
    positional_help: str = ""  # what the positional argument is, for errors
    defaults: dict[str, Any] | None = None  # preset options (mc4 = mc with level=4)
    base: str | None = None  # the bot it presets (mc4: mc): its kind, and its options

    def parse(self, arg: str | None) -> dict[str, Any]:
        """The converted options of an argument string (checked; nothing built)."""
        out: dict[str, Any] = {}
        if self.positional:
            head, _, rest = (arg or "").partition(",")
            if not head.strip():
                what = self.positional_help or self.positional
                raise ValueError(f"bot {self.name!r} needs {what}: "
                                 f"{self.name}:{self.positional}[,key=value...]")
            out["arg"] = head.strip()
            arg = rest
        known = {o.name: o for o in self.options}
        for key, raw in _split_options(arg).items():
            option = known.get(key)
            if option is None:
                accepted = ", ".join(known) or "none"
                raise ValueError(f"bot {self.name!r} has no option {key!r}; accepted options: "
                                 f"{accepted}")
            out[key] = option.convert(raw, self.name)
        return out

    def factory(self, arg: str | None) -> Bot:
        if self.factory_fn is not None:
            return self.factory_fn(arg)
        assert self.make is not None
        options = dict(self.defaults or {}, **self.parse(arg))
        name = self.name + (":" + arg if arg else "")
        return self.make(name=name, **options)

    def usage(self) -> str:
        """``name`` or ``name:PATH[,key=value...]`` as written in a spec."""
        if self.positional:
            return f"{self.name}:{self.positional}" + ("[,key=value...]" if self.options else "")
        return self.name + ("[:key=value,...]" if self.options else "")


# ---------------------------------------------------------------------------- factories
def _make_rule(name: str, **options: float) -> Bot:
    return RuleBot(BidParams(**options), name=name)


def _make_mc(name: str, **options: Any) -> Bot:
    if "level" in options:
        options.setdefault("samples", LEVELS[options.pop("level")])
    options.setdefault("samples", LEVELS[4])
    return MCBot(name=name, **options)


def _make_mcfast(name: str, **options: Any) -> Bot:
    from .mc_fast import FastMCBot  # numba only when asked for

    return FastMCBot(name=name, **{"samples": LEVELS[6], **options})


def _make_neural(name: str, arg: str, **options: Any) -> Bot:
    from .neural import make_neural_bot  # torch only when asked for

    return make_neural_bot(arg, **options)  # aliases: agents.shipped.resolve_alias


def _make_nmc(name: str, arg: str, **options: Any) -> Bot:
    from .nmc import make_nmc  # torch and numba only when asked for

    return make_nmc(name, arg, **options)


def _make_ismcts(name: str, **options: Any) -> Bot:
    from .ismcts import ISMCTSBot  # pyspiel (the openspiel extra) only when asked for

    return ISMCTSBot(name=name, **options)


_RULE_OPTIONS = tuple(Option(f.name, "float", "a bidding constant (tricks)", default=f.default)
                      for f in fields(BidParams))
_MC_OPTIONS = (
    Option("samples", "int", "worlds per decision", minimum=1, default=LEVELS[4]),
    Option("bid_samples", "int", "worlds per auction decision (default: samples)", minimum=1),
    Option("infer", "bool", "read the auction when drawing worlds", default=False),
    Option("discard_candidates", "int", "discards tried", minimum=1, default=4),
    Option("rollout", "choice", "rollout policy", choices=("rule", "random"), default="rule"),
    Option("infer_eps", "float", "weight of a world per call it contradicts", minimum=0,
           maximum=1, default=0.1),
    Option("max_draws", "int", "worlds drawn per world kept (infer)", minimum=1, default=10),
    Option("level", "choice", "20, 50 or 100 worlds", choices=tuple(sorted(LEVELS))),
)
_NEURAL_OPTIONS = (
    Option("greedy", "bool", "play the most likely action (0: sample)", default=True),
    Option("strict_rules", "bool", "refuse rules other than those it was trained under",
           default=True),
)

_NMC_OPTIONS = (
    Option("samples", "int", "worlds per card decision", minimum=1, default=LEVELS[6]),
    Option("infer", "float", "weight worlds by the network's probability of the calls seen, "
           "to this power (0: off)", minimum=0, default=0.0),
    Option("rollout", "choice", "who plays the worlds out: the compiled rule bot or the "
           "network itself", choices=("rule", "net"), default="rule"),
    Option("calls", "int", "worlds per call decision: search the network's favourite calls "
           "too (0: the network's call)", minimum=0, default=0),
    Option("discards", "int", "worlds per kitty discard: search the network's favourite "
           "discards too (0: the network's)", minimum=0, default=0),
    Option("belief", "float", "resample the search's worlds by the learned belief model "
           "(agents.belief), its weights to this power (0: off)", minimum=0, default=0.0),
    Option("top", "int", "search only the network's K favourite cards (0: every card)",
           minimum=0, default=0),
    Option("margin", "float", "keep the network's card (or searched call) unless the "
           "search's best is more than this many points a hand better (0: off)", minimum=0,
           default=0.0),
    Option("cards", "choice", "which cards are searched: every card, the first of each trick "
           "(leads), the others (follows), those of nullo-type contracts (nullo), their "
           "declarer's (nullo-declarer) or the defenders' (nullo-defenders); the network "
           "plays the rest", choices=("all", "leads", "follows", "nullo", "nullo-declarer",
                                      "nullo-defenders"), default="all"),
    Option("time", "float", "seconds a searched decision: repeat rounds of samples worlds "
           "until they pass (0: one round; not reproducible across machines)", minimum=0,
           default=0.0),
)
#: The strongest player measured (issue 30): neural:best's calls and follows, each lead searched
#: in 100 worlds of the learned belief model played out by the network (research log, session 39).
SEARCH_DEFAULTS: dict[str, Any] = {"arg": "best", "cards": "leads", "samples": 100,
                                   "rollout": "net", "belief": 0.5}


class _Registry(MutableMapping):
    """:data:`BOTS` seen as ``name -> factory(arg)`` (the historical interface)."""

    def __getitem__(self, name: str) -> BotFactory:
        return BOTS[name].factory

    def __setitem__(self, name: str, factory: BotFactory) -> None:
        BOTS[name] = BotInfo(name, factory_fn=factory)

    def __delitem__(self, name: str) -> None:
        del BOTS[name]

    def __iter__(self) -> Iterator[str]:
        return iter(BOTS)

    def __len__(self) -> int:
        return len(BOTS)


BOTS: dict[str, BotInfo] = {
    "random": BotInfo("random", "uniform over the legal actions",
                      make=lambda name: RandomBot()),
    "rule": BotInfo("rule", "the rule-based player; options: its bidding constants "
                    "(agents.rule.BidParams)", _RULE_OPTIONS, _make_rule),
    "mc": BotInfo("mc", "Monte Carlo (level 4: 20 worlds a decision)", _MC_OPTIONS, _make_mc),
    "mc4": BotInfo("mc4", "mc at level 4: 20 worlds", _MC_OPTIONS, _make_mc,
                   defaults={"level": 4}, base="mc"),
    "mc5": BotInfo("mc5", "mc at level 5: 50 worlds", _MC_OPTIONS, _make_mc,
                   defaults={"level": 5}, base="mc"),
    "mc6": BotInfo("mc6", "mc at level 6: 100 worlds", _MC_OPTIONS, _make_mc,
                   defaults={"level": 6}, base="mc"),
    "mc-infer": BotInfo("mc-infer", "mc that reads the auction (infer=1)", _MC_OPTIONS,
                        _make_mc, defaults={"infer": True}, base="mc"),
    "mcfast": BotInfo("mcfast", "Monte Carlo card play with compiled rollouts (100 worlds)",
                      (Option("samples", "int", "worlds per decision", minimum=1,
                              default=LEVELS[6]),
                       Option("rollout", "choice", "rollouts by the rule bot (as mc) or the "
                              "faster compiled policy", choices=("rule", "policy"),
                              default="rule")), _make_mcfast),
    "neural": BotInfo("neural", "a trained policy: PATH is a checkpoint file, a run "
                      "directory or a shipped name", _NEURAL_OPTIONS, _make_neural,
                      positional="PATH",
                      positional_help="a checkpoint (a file, a run directory or a shipped "
                                      "name)"),
    "nmc": BotInfo("nmc", "a trained policy's calls and discards with Monte Carlo card play "
                   "(mcfast's worlds and rollouts; ties to the network's favourite)",
                   _NMC_OPTIONS, _make_nmc, positional="PATH",
                   positional_help="a checkpoint (a file, a run directory or a shipped name)"),
    "search": BotInfo("search", "the strongest measured: neural:best, each lead searched "
                      "(nmc:best,cards=leads,samples=100,rollout=net,belief=0.5)",
                      _NMC_OPTIONS, _make_nmc, defaults=SEARCH_DEFAULTS, base="nmc"),
    "ismcts": BotInfo("ismcts", "OpenSpiel's IS-MCTS on python_five_hundred (needs the "
                      "openspiel extra)",
                      (Option("sims", "int", "simulations per decision", minimum=1, default=200),
                       Option("uct_c", "float", "UCT exploration, in hand points", minimum=0,
                              default=150.0),
                       Option("rollouts", "int", "playouts per leaf", minimum=1, default=1),
                       Option("rollout", "choice", "who plays the leaves out",
                              choices=("random", "rule"), default="random")), _make_ismcts),
}
REGISTRY: MutableMapping[str, BotFactory] = _Registry()


def register(name: str, factory: BotFactory | Callable[..., Bot], description: str = "",
             options: tuple[Option, ...] | None = None) -> None:
    """Make ``make_bot(name)`` / ``make_bot(name + ":" + arg)`` build a bot.

    Without ``options`` ``factory(arg)`` gets the argument string as it is; with ``options``
    ``factory(name=spec, **converted_options)`` gets checked values.
    """
    if options is None:
        BOTS[name] = BotInfo(name, description, factory_fn=factory)
    else:
        BOTS[name] = BotInfo(name, description, tuple(options), make=factory)


def _lookup(spec: str) -> tuple[BotInfo, str | None]:
    if not isinstance(spec, str):
        raise ValueError(f"a bot spec must be a string, not {spec!r}")
    name, colon, arg = spec.strip().partition(":")
    info = BOTS.get(name)
    if info is None:
        raise ValueError(f"unknown bot {spec!r}; known bots: {', '.join(sorted(BOTS))} "
                         "(options after a colon, as in 'mc:samples=50,infer=1')")
    return info, (arg if colon else None)


def bot_kind(spec: str) -> str:
    """The kind of bot a spec names: its registered name (``"mc"`` for ``"mc:samples=5"``),
    or for a preset of another bot that bot's (``"mc"`` for ``"mc6"``, ``"nmc"`` for
    ``"search"``); ValueError for an unknown one; cheap: nothing is built or read."""
    info = _lookup(spec)[0]
    return info.base or info.name


def check_spec(spec: str) -> None:
    """Check a spec's name and options without building the bot (ValueError if bad).

    For ``neural`` and ``nmc`` the checkpoint must exist (it is not read).
    """
    info, arg = _lookup(spec)
    if info.factory_fn is not None:
        return  # a bare factory: its argument can only be checked by building it
    options = dict(info.defaults or {}, **info.parse(arg))
    if "arg" in options:  # neural, nmc and search name a checkpoint
        from .neural import resolve_checkpoint, split_legacy_suffix

        resolve_checkpoint(split_legacy_suffix(options["arg"])[0])


def make_bot(spec: str, rules: Rules | None = None) -> Bot:
    """The bot a spec names (see the module docstring).

    With ``rules`` a bot that knows what rules it was made for (a ``check_rules(rules)``
    method, as :class:`agents.neural.NeuralBot` has) is checked against them now.
    """
    info, arg = _lookup(spec)
    bot = info.factory(arg)
    if rules is not None:
        check = getattr(bot, "check_rules", None)
        if callable(check):
            check(rules)
    return bot


# ---------------------------------------------------------------------------- help
def bot_help(width: int = 88) -> str:
    """The bot list of ``fh-eval --help``, generated from :data:`BOTS`."""
    lines = ["bots (a spec is name[:key=value,...]; neural:PATH[,key=value,...]):"]
    for info in BOTS.values():
        lines.append(f"  {info.usage():<26} {info.description}".rstrip())
        if info.options and not info.defaults:
            opts = ", ".join(o.short() for o in info.options)
            lines.extend(_wrap(f"options: {opts}", width, " " * 29))
        elif info.defaults:
            lines.append(" " * 29 + f"options: as {info.base}")
    shipped = shipped_agents()
    lines.append("shipped agents (agents/checkpoints/): "
                 + (", ".join(f"neural:{n}" for n in shipped) or "none"))
    lines.append("older names, still loading: "
                 + ", ".join(f"{old} = {new}" for old, new in RENAMED.items()))
    lines.append("strongest shipped agent: "
                 + ", ".join(("neural:best" if p == DEFAULT_PRESET else f"neural:best-{p}")
                             + f" = neural:{n} ({p})" for p, n in BEST_AGENTS.items()))
    lines.append("examples: mc:samples=50,infer=1  rule:nt_risk=0.5  neural:ppo-selfplay,greedy=0  "
                 "neural:runs/x/agent.pt,strict_rules=0")
    return "\n".join(lines)


def _wrap(text: str, width: int, indent: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + "  ")
