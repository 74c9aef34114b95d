"""The environment adapters over the reference engine: PettingZoo AEC (:mod:`.aec`), single-seat
Gymnasium (:mod:`.single`) and the batched :class:`~fh_env.envs.vector.VectorEnv` on the compiled
core (:mod:`.vector`).  Each is imported on its own, so a user of one pays for no other's
dependencies; ``fh_env.env()``, ``fh_env.raw_env``, ``fh_env.SingleSeatEnv`` and
``fh_env.VectorEnv`` are the public names."""
