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
* :mod:`.games`: the batched front, :class:`~fh_env.compiled.games.FastGames`, which converts
  games to and from ``State``.

The reference is the specification: ``tests/test_compiled.py`` and
``tests/test_compiled_observe.py`` hold the two to identical results, ``tests/test_twins.py``
holds every rule method and scoring function of the reference to a twin here.
"""

import hashlib

from numba.core.types import npytypes as _npytypes


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
