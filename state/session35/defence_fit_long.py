# Session 35 scratch: longer defenders' fits: python state/session35/defence_fit_long.py NAME TEMPERATURE LR EPOCHS
# (hard12: 0 1e-3 12; soft12: 10 1e-3 12), on runs/s35-def/{a,b,c}.npz.
import sys
import numpy as np, torch
from agents.neural import NeuralBot
from train.distill import load_data, fit
torch.set_num_threads(1)
files = ["runs/s35-def/a.npz", "runs/s35-def/b.npz", "runs/s35-def/c.npz"]
name, temp, lr, epochs = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
bot = NeuralBot.load("best-american")
data = load_data(files, bot.rules)
hist = fit(bot.net, data, bot.rules, epochs=epochs, learning_rate=lr, temperature=temp,
           holdout=0.1, seed=35, progress=False)
print(name, [(h["epoch"], round(h["card_agreement"], 3), round(h["regret"], 1)) for h in hist], flush=True)
torch.save(bot.net.state_dict(), f"runs/s35-def/{name}.sd")
