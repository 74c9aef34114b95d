# Session 35 scratch: the defenders' fit with a widened nullo branch (1024 x 1024) against plain, on
# runs/s35-def/{a,b,c}.npz (state/session35/README.md).
import sys
import numpy as np, torch
from agents.neural import NeuralBot
from train.distill import load_data, fit
from train.model import widen
torch.set_num_threads(1)
files = ["runs/s35-def/a.npz", "runs/s35-def/b.npz", "runs/s35-def/c.npz"]
for name, hidden, lr, epochs in [("plain", None, 5e-4, 4), ("wide1024", [1024, 1024], 5e-4, 4),
                                  ("plain-lr2e-3", None, 2e-3, 4), ("deep512x3", [512, 512, 512], 5e-4, 4)]:
    bot = NeuralBot.load("best-american")
    net = bot.net
    if hidden:
        net.nullo = widen(net.nullo, hidden, torch.Generator().manual_seed(0))
    data = load_data(files, bot.rules)
    hist = fit(net, data, bot.rules, epochs=epochs, learning_rate=lr, temperature=0.0,
               holdout=0.1, seed=35, progress=False)
    print(name, [(h["epoch"], round(h["card_agreement"], 3), round(h["regret"], 1)) for h in hist], flush=True)
