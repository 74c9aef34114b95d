"""Players of Five Hundred behind one interface (:class:`agents.base.Bot`).

``random``, ``rule`` and ``mc`` bots (Monte Carlo drawing its worlds from the game's exact
sampler, :mod:`fh_env.sampler`), the trained network (:mod:`agents.neural`), and bots by name
(:func:`agents.registry.make_bot`).  Their compiled twins are in :mod:`agents.compiled`;
matches, ratings and ``fh-eval`` are in the :mod:`arena` package.  Nothing is imported here,
so ``import agents.neural`` stays as light as it can be.
"""
