"""Fashion-MNIST from Debian's dataset-fashion-mnist package, for the bench scripts that set
PyTorch beside CILab (bench_cnn.py, weights_torch.py): idx(name) reads one IDX file as a numpy
array of its shape."""
import gzip

import numpy as np

ROOT = "/usr/share/datasets/fashion-mnist/"


def idx(name):
    with gzip.open(ROOT + name, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)
