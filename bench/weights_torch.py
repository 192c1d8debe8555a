#!/usr/bin/env python3
"""Loads a CILab weight export (cilab run mlp ... --save-weights F.npz) into the same PyTorch
network and reproduces the test loss CILab reported: the export's names and shapes are PyTorch's
state_dict, so load_state_dict(strict=True) takes it as it is.

Usage: weights_torch.py WEIGHTS.npz LAYERS ACTIVATION
  LAYERS      the mlp's hidden widths, e.g. 256,128 (784 inputs and 10 classes: Fashion-MNIST)
  ACTIVATION  relu, tanh, ... (torch.nn names)
Prints: RESULT test_loss=... test_accuracy=... (t10k, pixels / 255, as CILab's mlp tests it)."""
import sys

import numpy as np
import torch

from fashion_idx import idx



def main():
    path, layers, act = sys.argv[1], [int(w) for w in sys.argv[2].split(",")], sys.argv[3]
    torch.set_num_threads(1)
    acts = {"relu": torch.nn.ReLU, "tanh": torch.nn.Tanh, "sigmoid": torch.nn.Sigmoid, "elu": torch.nn.ELU,
            "gelu": torch.nn.GELU, "leaky_relu": torch.nn.LeakyReLU, "softplus": torch.nn.Softplus,
            "identity": torch.nn.Identity}
    mods, width = [], 784
    for w in layers:
        mods += [torch.nn.Linear(width, w), acts[act]()]
        width = w
    mods.append(torch.nn.Linear(width, 10))
    model = torch.nn.Sequential(*mods)
    state = {k: torch.from_numpy(v) for k, v in np.load(path).items()}
    model.load_state_dict(state, strict=True)
    x = torch.from_numpy(idx("t10k-images-idx3-ubyte.gz").reshape(-1, 784).astype(np.float32) / 255.0)
    y = torch.from_numpy(idx("t10k-labels-idx1-ubyte.gz").astype(np.int64))
    model.eval()
    with torch.no_grad():
        logits = model(x)
        loss = torch.nn.functional.cross_entropy(logits, y).item()
        acc = (logits.argmax(1) == y).float().mean().item()
    print(f"RESULT test_loss={loss:.6f} test_accuracy={acc:.4f}")


if __name__ == "__main__":
    main()
