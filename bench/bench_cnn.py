#!/usr/bin/env python3
"""PyTorch's LeNet-5 on Fashion-MNIST, as bench_cnn.cpp trains it: conv(6, 5, pad 2), ReLU, max
pool 2, conv(16, 5), ReLU, max pool 2, flatten, 120, 84, 10; Adam 1e-3, batch 128, the first ROWS
training images (pixels / 255), one epoch; test accuracy on t10k.
Usage: bench_cnn.py EPOCHS THREADS ROWS.  Prints RESULT epoch_ms=... test_accuracy=..."""
import sys
import time

import numpy as np
import torch

from fashion_idx import idx



epochs, threads, rows = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
torch.set_num_threads(threads)
torch.manual_seed(0)
xtr = torch.from_numpy(idx("train-images-idx3-ubyte.gz")[:rows].astype(np.float32) / 255.0).unsqueeze(1)
ytr = torch.from_numpy(idx("train-labels-idx1-ubyte.gz")[:rows].astype(np.int64))
xte = torch.from_numpy(idx("t10k-images-idx3-ubyte.gz").astype(np.float32) / 255.0).unsqueeze(1)
yte = torch.from_numpy(idx("t10k-labels-idx1-ubyte.gz").astype(np.int64))
net = torch.nn.Sequential(torch.nn.Conv2d(1, 6, 5, padding=2), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                          torch.nn.Conv2d(6, 16, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
                          torch.nn.Linear(400, 120), torch.nn.ReLU(), torch.nn.Linear(120, 84), torch.nn.ReLU(),
                          torch.nn.Linear(84, 10))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
total = 0.0
for e in range(epochs):
    perm = torch.randperm(rows)
    t0 = time.perf_counter()
    for b in range(0, rows, 128):
        i = perm[b:b + 128]
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(xtr[i]), ytr[i])
        loss.backward()
        opt.step()
    total += (time.perf_counter() - t0) * 1e3
with torch.no_grad():
    acc = (net(xte).argmax(1) == yte).float().mean().item()
print(f"RESULT epoch_ms={total / epochs:.1f} test_accuracy={acc:.4f}")
