"""The compiled (numba) twins of the players, for batched play and Monte Carlo rollouts.

One module per Python module it mirrors, as :mod:`fh_env.compiled` does for the engine:

* :mod:`.rule`: the rule bot (:mod:`agents.rule`) over the compiled game records, seat by seat
  (``RuleSeats``) and as rollouts;
* :mod:`.rollout_policy`: a cheaper perfect-information policy for rollouts, which has no
  Python twin (it is only ever run compiled);
* :mod:`.features`: the derived card-play inputs (:mod:`agents.features`) of the network's
  rollouts in ``nmc``.

The Python module is the specification: ``tests/test_rule_compiled.py`` and
``tests/test_features.py`` hold the twins to it.  The exact sampler of the unseen cards is the game's (:mod:`fh_env.sampler`, its compiled
twin :mod:`fh_env.compiled.sampler`).
"""
