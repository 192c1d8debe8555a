"""PyTorch reference for bench_vae: PyTorch's examples/vae model and loss.

Fashion-MNIST from Debian's dataset-fashion-mnist (IDX gz), fc1 784-400,
fc21/fc22 400-20, fc3 20-400, fc4 400-784, ReLU, nn.Linear default init,
z = mu + exp(logvar / 2) * eps, loss = BCE(logits, x, sum) + KL (closed form)
divided by the batch rows (the per-sample mean that bench_vae and the vae
module minimise; the example sums over the batch - Adam is invariant to the
scale up to eps), Adam(lr=1e-3), batch 128 from torch.randperm per epoch,
torch.set_num_threads(THREADS). After each epoch the t10k loss (no grad).
Prints: RESULT epoch_ms=.. loss=.. test_loss=..
Usage: bench_vae.py EPOCHS THREADS
"""
import gzip
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

ROOT = "/usr/share/datasets/fashion-mnist/"


def idx(name, offset):
    with gzip.open(ROOT + name) as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=offset)


class VAE(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(784, 400)
        self.fc21 = torch.nn.Linear(400, 20)
        self.fc22 = torch.nn.Linear(400, 20)
        self.fc3 = torch.nn.Linear(20, 400)
        self.fc4 = torch.nn.Linear(400, 784)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        mu, logvar = self.fc21(h), self.fc22(h)
        z = mu + torch.exp(0.5 * logvar) * torch.randn_like(mu)
        return self.fc4(F.relu(self.fc3(z))), mu, logvar


def terms(model, x):
    logits, mu, logvar = model(x)
    rec = F.binary_cross_entropy_with_logits(logits, x, reduction="sum")
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return (rec + kl) / x.shape[0]


def main():
    epochs = int(sys.argv[1])
    torch.set_num_threads(int(sys.argv[2]))
    torch.manual_seed(0)
    xtr = torch.from_numpy(idx("train-images-idx3-ubyte.gz", 16).reshape(-1, 784).astype(np.float32) / 255)
    xte = torch.from_numpy(idx("t10k-images-idx3-ubyte.gz", 16).reshape(-1, 784).astype(np.float32) / 255)
    model = VAE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    n, batch = xtr.shape[0], 128
    total, loss, test = 0.0, 0.0, 0.0
    for e in range(epochs):
        t0 = time.perf_counter()
        perm = torch.randperm(n)
        loss_sum = 0.0
        for s in range(0, n, batch):
            x = xtr[perm[s:s + batch]]
            opt.zero_grad()
            l = terms(model, x)
            l.backward()
            opt.step()
            loss_sum += l.item() * x.shape[0]
        ms = (time.perf_counter() - t0) * 1e3
        total += ms
        loss = loss_sum / n
        with torch.no_grad():
            test = terms(model, xte).item()
        print("epoch %d: %.1f ms, loss %.3f, test loss %.3f" % (e + 1, ms, loss, test))
    print("RESULT epoch_ms=%.1f loss=%.4f test_loss=%.4f" % (total / epochs, loss, test))


if __name__ == "__main__":
    main()
