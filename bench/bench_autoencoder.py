"""PyTorch reference for bench_autoencoder: the linear autoencoder on the same data.

Fashion-MNIST train from Debian's dataset-fashion-mnist (IDX gz), rows centred
by the training mean, encoder Linear(784, 10, bias=False), decoder
Linear(10, 784, bias=False) with nn.Linear's default init, loss = the batch mean
of 1/2 ||x - x_hat||^2 (as the module), Adam(lr=0.01), batch 64 from
torch.randperm per epoch, torch.set_num_threads(THREADS). After each epoch: the
t10k loss, the Eckart-Young value (1/2 the sum of the dropped eigenvalues of
the 1/N covariance) and the largest principal angle between col(V) and the
top-10 PCA subspace (numpy, outside the timing).
Prints: RESULT epoch_ms=.. loss=.. eckart_young=.. max_angle=..
Usage: bench_autoencoder.py EPOCHS THREADS
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
    x = idx("train-images-idx3-ubyte.gz", 16).reshape(-1, 784).astype(np.float64) / 255
    mean = x.mean(0)
    xc = x - mean
    evals, evecs = np.linalg.eigh(xc.T @ xc / len(xc))
    order = np.argsort(evals)[::-1]
    evals, u = evals[order], evecs[:, order[:10]]
    eckart_young = 0.5 * evals[10:].sum()
    xtr = torch.from_numpy(xc.astype(np.float32))
    xte = torch.from_numpy((idx("t10k-images-idx3-ubyte.gz", 16).reshape(-1, 784) / 255 - mean).astype(np.float32))
    enc = torch.nn.Linear(784, 10, bias=False)
    dec = torch.nn.Linear(10, 784, bias=False)
    opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=0.01)
    n, batch = xtr.shape[0], 64
    total, loss, angle = 0.0, 0.0, 0.0
    for e in range(epochs):
        t0 = time.perf_counter()
        perm = torch.randperm(n)
        loss_sum = 0.0
        for s in range(0, n, batch):
            xb = xtr[perm[s:s + batch]]
            opt.zero_grad()
            l = 0.5 * ((dec(enc(xb)) - xb) ** 2).sum() / xb.shape[0]
            l.backward()
            opt.step()
            loss_sum += l.item() * xb.shape[0]
        ms = (time.perf_counter() - t0) * 1e3
        total += ms
        loss = loss_sum / n
        with torch.no_grad():
            test = (0.5 * ((dec(enc(xte)) - xte) ** 2).sum() / xte.shape[0]).item()
        q, _ = np.linalg.qr(dec.weight.detach().numpy().astype(np.float64))
        s = np.linalg.svd(q - u @ (u.T @ q), compute_uv=False)
        angle = float(np.arcsin(min(1.0, s.max())))
        print("epoch %d: %.1f ms, loss %.5f (Eckart-Young %.5f), test %.5f, max principal angle %.4g rad"
              % (e + 1, ms, loss, eckart_young, test, angle))
    print("RESULT epoch_ms=%.1f loss=%.6g eckart_young=%.6g max_angle=%.4g" % (total / epochs, loss, eckart_young, angle))


if __name__ == "__main__":
    main()
