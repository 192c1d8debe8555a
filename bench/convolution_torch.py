#!/usr/bin/env python3
"""Runs `cilab run convolution` on Fashion-MNIST test item 3 for a grid of settings and compares
each output map with torch.nn.functional.conv2d on the same pixels (value / 255, as CILab loads
them), padding done by torch.nn.functional.pad with the same mode. Usage: convolution_torch.py CILAB"""
import csv
import gzip
import io
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
cilab = sys.argv[1]
ITEM = 3
with gzip.open("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz") as f:
    raw = f.read()
pixels = np.frombuffer(raw, dtype=np.uint8, offset=16).reshape(-1, 28, 28)
x = torch.from_numpy(pixels[ITEM].astype(np.float64) / 255.0)[None, None]

KERNELS = {
    "sobel": "1,0,-1;2,0,-2;1,0,-1",
    "asym5": "1,2,0,-1,3;0,1,-2,2,1;4,-1,0,1,0;1,1,1,-3,2;0,2,-1,1,1",
}
CASES = []
for name in ("sobel", "asym5"):
    for mode in ("zeros", "reflect", "replicate", "circular"):
        for size, pad in (("valid", 0), ("same", None), ("full", None), ("explicit", 3)):
            for stride, dil in ((1, 1), (2, 1), (1, 2), (3, 2)):
                if size == "same" and stride > 1:
                    continue  # refused, as torch refuses padding='same' with a stride
                for conv in ("correlation", "convolution"):
                    CASES.append((name, mode, size, pad, stride, dil, conv))


def torch_map(kernel_text, mode, size, pad, stride, dil, conv):
    rows = [[float(v) for v in r.split(",")] for r in kernel_text.split(";")]
    w = torch.tensor(rows, dtype=torch.float64)[None, None]
    k = w.shape[-1]
    if conv == "convolution":
        w = w.flip(-1, -2)
    reach = dil * (k - 1)
    p = {"valid": 0, "same": reach // 2, "full": reach, "explicit": pad}[size]
    xp = F.pad(x, (p, p, p, p), mode="constant" if mode == "zeros" else mode) if p else x
    return F.conv2d(xp, w, stride=stride, dilation=dil)[0, 0].numpy()


worst = 0.0
ran = 0
for name, mode, size, pad, stride, dil, conv in CASES:
    args = [cilab, "run", "convolution", "--dataset", "fashion-mnist:split=test,n=10",
            "--set", "image_index=%d" % ITEM, "--set", "kernel=" + KERNELS[name], "--set", "padding_mode=" + mode,
            "--set", "size=" + size, "--set", "stride=%d" % stride, "--set", "dilation=%d" % dil,
            "--set", "mode=" + conv, "--set", "pool_size=1"]
    if pad is not None:
        args += ["--set", "padding=%d" % pad]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        # Settings CILab refuses (reflect padding as wide as the image...) must be ones torch refuses too.
        try:
            torch_map(KERNELS[name], mode, size, pad, stride, dil, conv)
        except Exception:
            continue
        print("FAIL %s %s %s s=%d d=%d %s: cilab refused what torch computes: %s" %
              (name, mode, size, stride, dil, conv, out.stderr.strip()))
        worst = float("inf")
        continue
    rows = [r for r in csv.DictReader(io.StringIO(out.stdout)) if r.get("filter") not in (None, "")]
    t = torch_map(KERNELS[name], mode, size, pad, stride, dil, conv)
    got = np.zeros_like(t)
    for r in rows:
        got[int(float(r["row"])), int(float(r["col"]))] = float(r["value"])
    if len(rows) != t.size:
        print("FAIL %s %s %s s=%d d=%d %s: %d values, torch %s" % (name, mode, size, stride, dil, conv, len(rows), t.shape))
        worst = float("inf")
        continue
    worst = max(worst, float(np.abs(got - t).max()))
    ran += 1
print("RESULT convolution_vs_torch cases=%d max_abs_diff=%.3g (target < 1e-9)" % (ran, worst))
sys.exit(0 if worst < 1e-9 else 1)
