"""The cnn module's first steps again in PyTorch: LeNet-5 (the torch.nn.Sequential the layer line
conv6k5p2,pool2,conv16k5,pool2,fc120,fc84 builds, the same indices and so the same state_dict
names) loaded from CILab's initial weights, trained full-batch (one batch of all ROWS training
images, so that no shuffle order differs) with Adam 1e-3 for STEPS steps in float32; prints each
step's loss.
Usage: cnn_steps_torch.py WEIGHTS.npz ROWS STEPS.  Prints "STEP LOSS" lines."""
import sys

import numpy as np
import torch

from fashion_idx import idx

path, rows, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
torch.set_num_threads(1)
x = torch.from_numpy(idx("train-images-idx3-ubyte.gz")[:rows].astype(np.float32) / 255.0).unsqueeze(1)
y = torch.from_numpy(idx("train-labels-idx1-ubyte.gz")[:rows].astype(np.int64))
net = torch.nn.Sequential(torch.nn.Conv2d(1, 6, 5, padding=2), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                          torch.nn.Conv2d(6, 16, 5), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
                          torch.nn.Linear(400, 120), torch.nn.ReLU(), torch.nn.Linear(120, 84), torch.nn.ReLU(),
                          torch.nn.Linear(84, 10))
net.load_state_dict({k: torch.from_numpy(v) for k, v in np.load(path).items()}, strict=True)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for s in range(steps):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    print(s + 1, f"{loss.item():.9g}")
