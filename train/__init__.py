"""PPO self-play training for Five Hundred (``fh-train``); see :mod:`train.ppo`."""
