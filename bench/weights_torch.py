#!/usr/bin/env python3
"""Loads a CILab weight export (cilab run mlp ... --save-weights F.npz) into the same PyTorch
network and reproduces the test loss CILab reported: the export's names and shapes are PyTorch's
state_dict, so load_state_dict(strict=True) takes it as it is.

Usage: weights_torch.py WEIGHTS.npz LAYERS ACTIVATION
  LAYERS      the mlp's hidden widths, e.g. 256,128 (784 inputs and 10 classes: Fashion-MNIST),
              or lenet5: the cnn module's default network (conv6k5p2,pool2,conv16k5,pool2,fc120,fc84)
              as torch.nn.Sequential indexes it (0 conv, 3 conv, 7, 9, 11 linear),
              or autoencoder: the autoencoder module's network, read off the file's Linear indices
              (an activation wherever an index is skipped: 0, 2, 3, 5 is Linear, act, Linear (the
              code), Linear, act, Linear); its loss is the mean of 1/2 ||x - x_hat||^2
  ACTIVATION  relu, tanh, ... (torch.nn names)
Prints: RESULT test_loss=... test_accuracy=... (t10k, pixels / 255, as CILab's mlp tests it)."""
import sys

import numpy as np
import torch

from fashion_idx import idx



def main():
    path, act = sys.argv[1], sys.argv[3]
    lenet = sys.argv[2] == "lenet5"
    auto = sys.argv[2] == "autoencoder"
    layers = [] if lenet or auto else [int(w) for w in sys.argv[2].split(",")]
    state = {k: torch.from_numpy(v) for k, v in np.load(path).items()}
    torch.set_num_threads(1)
    acts = {"relu": torch.nn.ReLU, "tanh": torch.nn.Tanh, "sigmoid": torch.nn.Sigmoid, "elu": torch.nn.ELU,
            "gelu": torch.nn.GELU, "leaky_relu": torch.nn.LeakyReLU, "softplus": torch.nn.Softplus,
            "identity": torch.nn.Identity}
    if auto:
        idxs = sorted(int(k.split(".")[0]) for k in state if k.endswith(".weight"))
        mods = []
        for i in range(idxs[-1] + 1):
            if i in idxs:
                out_f, in_f = state[f"{i}.weight"].shape
                mods.append(torch.nn.Linear(in_f, out_f))
            else:
                mods.append(acts[act]())
    elif lenet:
        a = acts[act]
        mods = [torch.nn.Conv2d(1, 6, 5, padding=2), a(), torch.nn.MaxPool2d(2), torch.nn.Conv2d(6, 16, 5), a(),
                torch.nn.MaxPool2d(2), torch.nn.Flatten(), torch.nn.Linear(400, 120), a(), torch.nn.Linear(120, 84),
                a(), torch.nn.Linear(84, 10)]
    else:
        mods, width = [], 784
        for w in layers:
            mods += [torch.nn.Linear(width, w), acts[act]()]
            width = w
        mods.append(torch.nn.Linear(width, 10))
    model = torch.nn.Sequential(*mods)
    model.load_state_dict(state, strict=True)
    x = torch.from_numpy(idx("t10k-images-idx3-ubyte.gz").reshape(-1, 784).astype(np.float32) / 255.0)
    if lenet:
        x = x.reshape(-1, 1, 28, 28)
    y = torch.from_numpy(idx("t10k-labels-idx1-ubyte.gz").astype(np.int64))
    model.eval()
    with torch.no_grad():
        if auto:
            loss = (0.5 * ((model(x) - x) ** 2).sum(1)).mean().item()
            print(f"RESULT test_loss={loss:.6f} test_accuracy=nan")
            return
        logits = model(x)
        loss = torch.nn.functional.cross_entropy(logits, y).item()
        acc = (logits.argmax(1) == y).float().mean().item()
    print(f"RESULT test_loss={loss:.6f} test_accuracy={acc:.4f}")


if __name__ == "__main__":
    main()
