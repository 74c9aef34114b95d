"""The compiled (numba) twin of the reference engine, for batched self-play and rollouts.

One module per reference module it mirrors, so that a rule is found in the same-named module on
both sides:

* :mod:`.cards`: card bitmask helpers (``bit``, ``popcount``, ``lowest_bit``, ``nth_bit``, the
  joker masks), as :mod:`fh_env.cards`;
* :mod:`.rules`: the rules record (``RULES_DTYPE``, ``encode_rules``) and the option codes, as
  :mod:`fh_env.rules` and what ``fh_env.engine.rule_tables`` derives from a rule set;
* :mod:`.contracts`: the score of a hand and of the game (``hand_points``, ``contract_made``,
  ``end_of_hand``, ``higher``), as :mod:`fh_env.contracts`;
* :mod:`.engine`: the game record (``GAME_DTYPE``) and one kernel per phase method of
  ``fh_env.engine.State`` (``TWINS`` names the ones not named after their method), dealing and
  the games' random generator, the batch kernels;
* :mod:`.observe`: observations and action masks, as :mod:`fh_env.observe`;
* :mod:`.sampler`: the exact sampler of the unseen cards, batched, as :mod:`fh_env.sampler`
  (``tests/test_sampler_compiled.py`` holds it to the reference's distribution);
* :mod:`.games`: the batched front, :class:`~fh_env.compiled.games.FastGames`, which converts
  games to and from ``State``.

The reference is the specification: ``tests/test_compiled.py`` and
``tests/test_compiled_observe.py`` hold the two to identical results, ``tests/test_twins.py``
holds every rule method and scoring function of the reference to a twin here.
"""

import hashlib
import os
import sys

from numba.core import event as _event
from numba.core.types import npytypes as _npytypes

#: About how long the first compile of the batched core takes (``fh-eval neural:best rule`` on
#: two busy cores: 35-45 s; numba caches the machine code, so later runs load it in about 1 s).
COMPILE_SECONDS = 40
#: The same with its three independent trees compiled in parallel processes (arena.warm).
COMPILE_SECONDS_PARALLEL = 25
#: The notice of the first compile, on stderr.
COMPILE_NOTICE = ("compiling the batched core, once, about {seconds} s (numba; later runs "
                  "load it from its cache)")
_COMPILED_MODULES = ("fh_env.compiled", "agents.compiled")


class _CompileNotice(_event.Listener):
    """Says on stderr, once a process, that a kernel of the batched core starts compiling: the
    first run of a fresh install (or after an edit of a kernel) compiles for tens of seconds,
    which would otherwise look like a hang.  Kernels loaded from numba's cache fire no event.
    ``FH_COMPILE_NOTICE=0`` silences it."""

    said = False

    def on_start(self, event: _event.Event) -> None:
        if self.said:
            return
        dispatcher = (event.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if not module.startswith(_COMPILED_MODULES):
            return
        type(self).said = True
        if os.environ.get("FH_COMPILE_NOTICE", "1") != "0":
            print(COMPILE_NOTICE.format(seconds=COMPILE_SECONDS), file=sys.stderr, flush=True)

    def on_end(self, event: _event.Event) -> None:
        pass


_event.register("numba:compile", _CompileNotice())


def _record_mangling_args(self):  # type: ignore[no-untyped-def]
    """A record type's symbol-name parameter from its layout, not from ``Type._code``.

    numba mangles a record type with ``_code``, a counter of the process that compiled it
    (numba issue #7654), so two different records (the game records of two table sizes) can
    get the same symbol names in kernels cached by different processes; loaded together, a
    kernel then calls the other record's code.  A digest of the record's description is the
    same in every process and differs between records.
    """
    digest = hashlib.sha1(self.name.encode()).hexdigest()[:15]
    return self.__class__.__name__, (int(digest, 16),)


if getattr(_npytypes.Record.mangling_args, "fget", None) is not None:
    _npytypes.Record.mangling_args = property(_record_mangling_args)
