"""PyTorch reference for bench_nn: the same MLP, optimizer, batch and epochs.

Fashion-MNIST from Debian's dataset-fashion-mnist (IDX gz), 784-256-128-10
ReLU, nn.Linear default init, CrossEntropyLoss, Adam(lr=1e-3), batch 128 from
torch.randperm per epoch, torch.set_num_threads(THREADS).
Prints: RESULT epoch_ms=.. test_accuracy=.. train_loss=..
Usage: bench_nn.py EPOCHS THREADS
"""
import gzip
import sys
import time

import numpy as np
import torch

ROOT = "/usr/share/datasets/fashion-mnist/"


def idx(name, offset):
    with gzip.open(ROOT + name) as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=offset)


def main():
    epochs = int(sys.argv[1])
    torch.set_num_threads(int(sys.argv[2]))
    torch.manual_seed(0)
    xtr = torch.from_numpy(idx("train-images-idx3-ubyte.gz", 16).reshape(-1, 784).astype(np.float32) / 255)
    ytr = torch.from_numpy(idx("train-labels-idx1-ubyte.gz", 8).astype(np.int64))
    xte = torch.from_numpy(idx("t10k-images-idx3-ubyte.gz", 16).reshape(-1, 784).astype(np.float32) / 255)
    yte = torch.from_numpy(idx("t10k-labels-idx1-ubyte.gz", 8).astype(np.int64))
    net = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 128),
                              torch.nn.ReLU(), torch.nn.Linear(128, 10))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()
    n, batch = xtr.shape[0], 128
    total, loss_sum, acc, nb = 0.0, 0.0, 0.0, 0
    for e in range(epochs):
        t0 = time.perf_counter()
        perm = torch.randperm(n)
        loss_sum, nb = 0.0, 0
        for s in range(0, n, batch):
            i = perm[s:s + batch]
            opt.zero_grad()
            loss = loss_fn(net(xtr[i]), ytr[i])
            loss.backward()
            opt.step()
            loss_sum += loss.item()
            nb += 1
        ms = (time.perf_counter() - t0) * 1e3
        total += ms
        with torch.no_grad():
            acc = (net(xte).argmax(1) == yte).float().mean().item()
        print("epoch %d: %.1f ms, mean train loss %.4f, test accuracy %.4f" % (e + 1, ms, loss_sum / nb, acc))
    print("RESULT epoch_ms=%.1f test_accuracy=%.4f train_loss=%.4f" % (total / epochs, acc, loss_sum / nb))


if __name__ == "__main__":
    main()
