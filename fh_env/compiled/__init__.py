"""The compiled (numba) twin of the reference engine, for batched self-play and rollouts.

One module per reference module it mirrors, so that a rule is found in the same-named file on
both sides: :mod:`.engine` mirrors :mod:`fh_env.engine` (its phase methods, one kernel each),
:mod:`.observe` mirrors :mod:`fh_env.observe`, :mod:`.layout` holds the records the kernels work
on; :mod:`.games` is the batched front, :class:`~fh_env.compiled.games.FastGames`.  The
reference is the specification: ``tests/test_compiled.py`` holds the two to identical results.
"""
