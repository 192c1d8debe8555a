"""PyTorch reference for bench_gan: the same 2-D GAN, the same iteration.

Ring of 8 Gaussians (radius 2, sd 0.05: a pool of 20 000 rows drawn once),
G 2-64-64-2 and D 2-64-64-1 ReLU MLPs with nn.Linear's default init, batch
256, Adam(lr=1e-3) for each network, the non-saturating loss
(BCEWithLogits: D on the real rows as 1 and the fake rows as 0, the two means
summed; G on its fakes as 1). One iteration: z ~ N(0, I), fake = G(z), one D
step on cat(real, fake.detach()), then one G step on D(fake) (PyTorch's DCGAN
example). torch.set_num_threads(THREADS). Times STEPS iterations after 50 of
warm-up, then counts the modes covered by 2 000 samples (>= 1 % within 3 sd).
Prints: RESULT step_ms=.. steps_per_s=.. modes=..
Usage: bench_gan.py STEPS THREADS [SEED]
"""
import math
import sys
import time

import torch
import torch.nn.functional as F


def mlp(i, o):
    return torch.nn.Sequential(torch.nn.Linear(i, 64), torch.nn.ReLU(), torch.nn.Linear(64, 64), torch.nn.ReLU(),
                               torch.nn.Linear(64, o))


def main():
    steps = int(sys.argv[1])
    torch.set_num_threads(int(sys.argv[2]))
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    torch.manual_seed(seed)
    centres = torch.tensor([[2 * math.cos(2 * math.pi * k / 8), 2 * math.sin(2 * math.pi * k / 8)] for k in range(8)])
    pool = centres[torch.randint(0, 8, (20000,))] + 0.05 * torch.randn(20000, 2)
    G, D = mlp(2, 2), mlp(2, 1)
    og = torch.optim.Adam(G.parameters(), lr=1e-3)
    od = torch.optim.Adam(D.parameters(), lr=1e-3)
    b = 256
    ones, zeros = torch.ones(b, 1), torch.zeros(b, 1)

    def iteration():
        z = torch.randn(b, 2)
        real = pool[torch.randint(0, 20000, (b,))]
        fake = G(z)
        logits = D(torch.cat([real, fake.detach()]))
        d_loss = F.binary_cross_entropy_with_logits(logits[:b], ones) + \
            F.binary_cross_entropy_with_logits(logits[b:], zeros)
        od.zero_grad()
        d_loss.backward()
        od.step()
        g_loss = F.binary_cross_entropy_with_logits(D(fake), ones)
        og.zero_grad()
        g_loss.backward()
        og.step()

    for _ in range(50):
        iteration()
    t0 = time.perf_counter()
    for _ in range(steps):
        iteration()
    ms = (time.perf_counter() - t0) * 1000 / steps
    with torch.no_grad():
        s = G(torch.randn(2000, 2))
    d = torch.cdist(s, centres)
    near = d.min(dim=1)
    hits = torch.bincount(near.indices[near.values <= 0.15], minlength=8)
    modes = int((hits >= 20).sum())
    print("RESULT step_ms=%.4f steps_per_s=%.1f modes=%d" % (ms, 1000 / ms, modes))


if __name__ == "__main__":
    main()
