#!/usr/bin/env python3
"""Checks CILab's conv2d cases (bench_conv OUT_DIR) against torch.nn.functional.conv2d: the
output and the gradients of sum(dy * y) with respect to x, w and b (autograd), as the largest
relative difference max|a - t| / max(1, max|t|) per tensor. Usage: conv_torch.py OUT_DIR"""
import glob
import sys
import time

import numpy as np
import torch

torch.set_num_threads(1)
worst = 0.0
for path in sorted(glob.glob(sys.argv[1] + "/case*.npz")):
    d = np.load(path)
    x = torch.from_numpy(d["x"]).requires_grad_()
    w = torch.from_numpy(d["w"]).requires_grad_()
    b = torch.from_numpy(d["b"]).requires_grad_()
    stride = (int(d["stride_h"]), int(d["stride"]))
    pad = (int(d["pad_h"]), int(d["pad"]))
    dil = (int(d["dil_h"]), int(d["dil"]))
    t0 = time.perf_counter()
    y = torch.nn.functional.conv2d(x, w, b, stride=stride, padding=pad, dilation=dil, groups=int(d["groups"]))
    (y * torch.from_numpy(d["dy"])).sum().backward()
    ms = (time.perf_counter() - t0) * 1e3
    errs = {}
    for name, t in (("y", y.detach()), ("dx", x.grad), ("dw", w.grad), ("db", b.grad)):
        a = torch.from_numpy(d[name])
        errs[name] = float((a - t).abs().max() / max(1.0, float(t.abs().max())))
    worst = max(worst, max(errs.values()))
    name = path.rsplit("/", 1)[1][:-4]
    print(f"{name} torch_ms={ms:.3f} " + " ".join(f"{k}={v:.1e}" for k, v in errs.items()))
print(f"RESULT worst={worst:.2e}")
sys.exit(0 if worst < 1e-5 else 1)
