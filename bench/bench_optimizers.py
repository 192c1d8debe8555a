#!/usr/bin/python3
"""torch.optim on the same Rosenbrock runs as bench_optimizers, for run_optimizers.sh.

Usage: bench_optimizers.py DIR
Reads DIR/config.txt (one optimizer per line: name lr momentum dampening
nesterov beta1 beta2 eps alpha weight_decay steps x0 y0) and DIR/traj_<name>.bin
(CILab's trajectory, (steps + 1) x 2 float64). For each optimizer: a
2-element float64 tensor at (x0, y0), the torch.optim class with the same
hyper-parameters (gd/sgd/momentum/nesterov -> SGD, adagrad -> Adagrad,
rmsprop -> RMSprop, adam -> Adam, adamw -> AdamW), `steps` iterations of
  p.grad = analytic Rosenbrock gradient at p (python floats, same formula);
  opt.step()
and prints
  TORCH name=.. ms=.. max_abs_diff=..
ms = wall time of the torch loop (gradient + step); max_abs_diff = max over
all iterates and both coordinates of |theta_torch - theta_cilab|.
Then TOTAL ms=.. max_abs_diff=.. . Exit 3 with a SKIP line without torch.
"""
import os
import struct
import sys
import time

try:
    import torch
except ImportError as e:  # pragma: no cover
    print("SKIP reason=torch not importable (%s); install python3-torch" % e)
    sys.exit(3)


def rosenbrock_grad(x, y):
    b = y - x * x
    return -2.0 * (1.0 - x) - 400.0 * x * b, 200.0 * b


def make(name, p, lr, momentum, dampening, nesterov, beta1, beta2, eps, alpha, wd):
    if name in ("gd", "sgd"):
        return torch.optim.SGD([p], lr=lr, momentum=0.0, weight_decay=wd)
    if name == "momentum":
        return torch.optim.SGD([p], lr=lr, momentum=momentum, dampening=dampening,
                               nesterov=bool(nesterov), weight_decay=wd)
    if name == "nesterov":
        return torch.optim.SGD([p], lr=lr, momentum=momentum, nesterov=True, weight_decay=wd)
    if name == "adagrad":
        return torch.optim.Adagrad([p], lr=lr, eps=eps, weight_decay=wd)
    if name == "rmsprop":
        return torch.optim.RMSprop([p], lr=lr, alpha=alpha, eps=eps, weight_decay=wd)
    if name == "adam":
        return torch.optim.Adam([p], lr=lr, betas=(beta1, beta2), eps=eps, weight_decay=wd)
    if name == "adamw":
        return torch.optim.AdamW([p], lr=lr, betas=(beta1, beta2), eps=eps, weight_decay=wd)
    raise ValueError(name)


def main():
    d = sys.argv[1]
    torch.set_num_threads(1)
    total_ms = 0.0
    worst = 0.0
    with open(os.path.join(d, "config.txt")) as f:
        rows = [l.split() for l in f if l.strip() and not l.startswith("#")]
    for r in rows:
        name = r[0]
        lr, mom, damp = float(r[1]), float(r[2]), float(r[3])
        nest = int(r[4])
        b1, b2, eps, alpha, wd = (float(v) for v in r[5:10])
        steps = int(r[10])
        x0, y0 = float(r[11]), float(r[12])
        with open(os.path.join(d, "traj_%s.bin" % name), "rb") as tf:
            raw = tf.read()
        ours = struct.unpack("<%dd" % (len(raw) // 8), raw)
        p = torch.tensor([x0, y0], dtype=torch.float64)
        opt = make(name, p.requires_grad_(False), lr, mom, damp, nest, b1, b2, eps, alpha, wd)
        traj = [x0, y0]
        t0 = time.perf_counter()
        for _ in range(steps):
            x, y = p.tolist()
            gx, gy = rosenbrock_grad(x, y)
            p.grad = torch.tensor([gx, gy], dtype=torch.float64)
            opt.step()
            traj.extend(p.tolist())
        ms = (time.perf_counter() - t0) * 1e3
        diff = max(abs(a - b) if a == a and b == b else (0.0 if a != a and b != b else float("inf"))
                   for a, b in zip(traj, ours))
        total_ms += ms
        worst = max(worst, diff)
        print("TORCH name=%s ms=%.3f max_abs_diff=%.3g final_x=%.9g final_y=%.9g"
              % (name, ms, diff, traj[-2], traj[-1]))
    print("TOTAL ms=%.3f max_abs_diff=%.3g" % (total_ms, worst))


if __name__ == "__main__":
    main()
