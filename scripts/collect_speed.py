"""Collection speed of a training config: CPU seconds per ``Trainer.collect()``.

    OMP_NUM_THREADS=1 python scripts/collect_speed.py [ROUNDS] [LABEL] [CONFIG]

Imitation and periodic evaluations are switched off; the first collection (compiling) is not
timed.  Run it on two checkouts to compare them on the same machine.
"""
import dataclasses
import statistics
import sys
import time

import torch
torch.set_num_threads(1)
from train.config import TrainConfig
from train.ppo import Trainer
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
label = sys.argv[2] if len(sys.argv) > 2 else "collect"
config = sys.argv[3] if len(sys.argv) > 3 else "configs/train/long.toml"
cfg = dataclasses.replace(TrainConfig.from_toml(config), bc_hands=0, eval_every=0)
t = Trainer(cfg)
t.collect()  # warm-up (compile)
times = []
for _ in range(rounds):
    t0 = time.process_time(); t.collect(); times.append(time.process_time() - t0)
steps = cfg.num_envs * cfg.rollout_steps
print(f"{label}: median {statistics.median(times):.3f} s CPU per collect of {steps} steps -> {steps/statistics.median(times):,.0f} steps/s")
