"""Players of Five Hundred behind one interface (:class:`agents.base.Bot`).

``random``, ``rule`` and ``mc`` bots, the exact unseen-card sampler used by Monte Carlo
(:mod:`agents.sampler`), bots by name (:func:`agents.registry.make_bot`), playing bots seat by
seat (:mod:`agents.match`) and duplicate evaluation (:mod:`agents.evaluate`, ``fh-eval``).
Nothing is imported here, so ``import agents.neural`` stays as light as it can be.
"""
