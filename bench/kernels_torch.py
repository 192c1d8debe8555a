#!/usr/bin/env python3
"""Checks CILab's stateless kernels (bench_kernels OUT_DIR, float64) against PyTorch in float64:
softmax (dim=-1), torch.nn.functional.layer_norm, embedding, a masked linear (F.linear with W * M)
and scaled dot-product attention softmax(Q K^T / sqrt(d_k)) V (plain, causal, unscaled) in torch ops, outputs and autograd
gradients, as the largest relative difference max|a - t| / max(1, max|t|). Usage: kernels_torch.py OUT_DIR"""
import sys

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
d = sys.argv[1]
worst = 0.0


def t(a, grad=True):
    x = torch.from_numpy(np.asarray(a, dtype=np.float64).copy())
    return x.requires_grad_() if grad else x


def compare(case, name, ours, theirs):
    global worst
    theirs = theirs.detach().numpy()
    e = float(np.abs(np.asarray(ours) - theirs).max() / max(1.0, np.abs(theirs).max()))
    worst = max(worst, e)
    print("%-14s %-7s max relative difference %.2e" % (case, name, e))


z = np.load(d + "/softmax.npz")
x = t(z["x"]); y = torch.softmax(x, dim=-1); y.backward(t(z["dy"], False))
compare("softmax", "y", z["y"], y); compare("softmax", "dx", z["dx"], x.grad)

z = np.load(d + "/layernorm.npz")
x, g, b = t(z["x"]), t(z["gamma"]), t(z["beta"])
y = F.layer_norm(x, (x.shape[-1],), g, b, eps=1e-5); y.backward(t(z["dy"], False))
for n, ours, th in (("y", z["y"], y), ("dx", z["dx"], x.grad), ("dgamma", z["dgamma"], g.grad), ("dbeta", z["dbeta"], b.grad)):
    compare("layer_norm", n, ours, th)

z = np.load(d + "/embedding.npz")
table = t(z["table"]); idx = torch.from_numpy(z["index"].astype(np.int64))
y = F.embedding(idx, table); y.backward(t(z["dy"], False))
compare("embedding", "y", z["y"], y); compare("embedding", "dtable", z["dtable"], table.grad)

z = np.load(d + "/masked_linear.npz")
x, w, b = t(z["x"]), t(z["w"]), t(z["b"])
y = F.linear(x, w * t(z["mask"], False), b); y.backward(t(z["dy"], False))
for n, ours, th in (("y", z["y"], y), ("dx", z["dx"], x.grad), ("dw", z["dw"], w.grad), ("db", z["db"], b.grad)):
    compare("masked_linear", n, ours, th)

for v in range(3):
    z = np.load(d + "/attention%d.npz" % v)
    q, k, vv = t(z["q"]), t(z["k"]), t(z["v"])
    # softmax(Q K^T c) V written out with torch ops (Debian's torch predates
    # F.scaled_dot_product_attention; its definition is this).
    c = 1.0 / np.sqrt(q.shape[-1]) if bool(z["scale"]) else 1.0
    s = (q @ k.T) * c
    if bool(z["causal"]):
        s = s.masked_fill(torch.triu(torch.ones_like(s, dtype=torch.bool), diagonal=1), float("-inf"))
    out = torch.softmax(s, dim=-1) @ vv
    out.backward(t(z["dz"], False))
    case = ("attention", "causal", "unscaled")[v]
    for n, ours, th in (("z", z["z"], out), ("dq", z["dq"], q.grad), ("dk", z["dk"], k.grad), ("dv", z["dv"], vv.grad)):
        compare(case, n, ours, th)

z = np.load(d + "/batch_norm2d.npz")
bn = torch.nn.BatchNorm2d(z["x"].shape[1]).double()
with torch.no_grad():
    bn.weight.copy_(torch.from_numpy(z["gamma"]))
    bn.bias.copy_(torch.from_numpy(z["beta"]))
x = t(z["x"])
y = bn(x)
y.backward(t(z["dy"], False))
for n, ours, th in (("y", z["y"], y), ("dx", z["dx"], x.grad), ("dgamma", z["dgamma"], bn.weight.grad),
                    ("dbeta", z["dbeta"], bn.bias.grad)):
    compare("batch_norm2d", n, ours, th)
# The running statistics travel as float32 in the state_dict: compared at float precision.
for n, ours, th in (("r_mean", z["running_mean"], bn.running_mean), ("r_var", z["running_var"], bn.running_var)):
    e = float(np.abs(ours - th.numpy()).max())
    print("%-14s %-7s max abs difference %.2e (float32 buffer)" % ("batch_norm2d", n, e))
    if e > 1e-6:
        worst = max(worst, e)

z = np.load(d + "/conv1d.npz")
x, w, b = t(z["x"]), t(z["w"]), t(z["b"])
y = F.conv1d(x, w, b, stride=2, padding=3, dilation=2, groups=2)
y.backward(t(z["dy"], False))
for n, ours, th in (("y", z["y"], y), ("dx", z["dx"], x.grad), ("dw", z["dw"], w.grad), ("db", z["db"], b.grad)):
    compare("conv1d", n, ours, th)

print("RESULT kernels_vs_torch max_rel_diff=%.2e (target < 1e-12, float64 both)" % worst)
sys.exit(0 if worst < 1e-12 else 1)
