# Session 35 scratch: derived nullo-defence inputs for the nullo branch (prototype), against plain:
# python state/session35/defence_inputs.py runs/s35-def/a.npz 8 5e-4
"""Prototype: nullo-defence inputs for the nullo branch; does the defenders' fit learn with them?"""
import sys
import numpy as np, torch
from agents.features import CardFeatures
from agents.neural import NeuralBot
from train.distill import load_data, fit, evaluate, Batches
torch.set_num_threads(1)


class Proto(CardFeatures):
    def __init__(self, players=4):
        super().__init__(players)
        c = self.layout.num_cards
        self.base_size = self.size
        self.size = self.base_size + 3 * c + 5
        suit = self.suit_onehot.argmax(2)  # [T, C]
        same = (suit[:, :, None] == suit[:, None, :]).float()
        self.register_buffer("lower", self.higher.transpose(1, 2) * same, False)
        self.register_buffer("same", same, False)

    def forward(self, obs, row=None):
        base = super().forward(obs, row)
        sl, c = self.layout.slices, self.layout.num_cards
        from agents.features import feature_slices
        fs = feature_slices(self.players)
        played, unseen = base[:, fs["played"]], base[:, fs["unseen"]]
        ctx = self.context(obs, row is not None)
        hand = obs[:, sl["hand"]]
        exposed = obs[:, sl["exposed"]] * (1 - played)
        decl = obs[:, sl["bidder"]].argmax(1)
        voids = obs[:, sl["voids"]].view(-1, self.players, 5)
        dvoid_shown = voids[torch.arange(len(obs)), decl]  # [B, 5]
        suit1h = self.suit_onehot[ctx]  # [B, C, 5]
        card_void = torch.einsum("bcs,bs->bc", suit1h, dvoid_shown) > 0
        D = torch.where(exposed.sum(1, keepdim=True) > 0, exposed, unseen * (~card_void).float())
        under = torch.einsum("bd,bcd->bc", D, self.lower[ctx]) > 0
        samesuit = torch.einsum("bd,bcd->bc", D, self.same[ctx]) > 0
        dunder = hand * under.float()
        dforce = hand * (samesuit & ~under).float()
        dvoid = (torch.einsum("bc,bcs->bs", D, suit1h) == 0).float()
        return torch.cat([base, D, dunder, dforce, dvoid], dim=1)


def widen(net):
    n = net.nullo
    old = n.card_features.size
    n.card_features = Proto(4)
    w = n.trunk[0].weight.data
    new = torch.zeros(w.shape[0], n.obs_size + n.card_features.size)
    new[:, :w.shape[1]] = w
    lin = torch.nn.Linear(new.shape[1], w.shape[0])
    lin.weight.data = new; lin.bias.data = n.trunk[0].bias.data.clone()
    n.trunk[0] = lin
    return net


files = sys.argv[1].split(",")
epochs, lr = int(sys.argv[2]), float(sys.argv[3])
for proto in (False, True):
    bot = NeuralBot.load("best-american")
    net = widen(bot.net) if proto else bot.net
    data = load_data(files, bot.rules)
    hist = fit(net, data, bot.rules, epochs=epochs, learning_rate=lr, temperature=0.0,
               holdout=0.2, seed=35, progress=False)
    print("proto" if proto else "plain", [(h["epoch"], round(h["card_agreement"], 3), round(h["regret"], 1)) for h in hist], flush=True)
