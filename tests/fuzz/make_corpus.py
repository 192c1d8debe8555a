#!/usr/bin/env python3
"""Regenerates the fuzz targets' seed corpora in corpus/<target>/ (deterministic).

Small valid inputs of each format, so libFuzzer starts from the parsers' real
paths; tests/data/files/bad/ is given to every target as a second seed folder
(run_fuzz.sh), so the known-bad files need no copy here.
"""
import glob
import gzip
import os
import shutil
import struct
import zlib

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
PRESETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "presets")


def put(target, name, data):
    os.makedirs(os.path.join(HERE, target), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(HERE, target, name), "wb") as f:
        f.write(data)


def gz(data):
    return gzip.compress(data, mtime=0)  # mtime=0 keeps the bytes reproducible


def idx(type_code, dims, payload):
    return bytes([0, 0, type_code, len(dims)]) + b"".join(struct.pack(">I", d) for d in dims) + payload


def png(width, height, colour_type, bit_depth, rows, interlace=0, palette=None, extra=b""):
    """A PNG from raw scanlines (each row's bytes, filter type prepended here)."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    raw = b"".join(bytes([0]) + r for r in rows)  # filter type 0 (none) on every scanline
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth,
                                                           colour_type, 0, 0, interlace))
    if palette:
        out += chunk(b"PLTE", palette)
    out += extra + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    return out


def adam7_gray8(width, height, pixels):
    """Scanlines of an interlaced 8-bit gray image: the seven Adam7 passes' rows in order."""
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    rows = []
    for x0, y0, dx, dy in passes:
        for y in range(y0, height, dy):
            row = bytes(pixels[y][x] for x in range(x0, width, dx))
            if row:
                rows.append(row)
    return rows


def main():
    # --- CSV / TSV
    iris = ("sepal_length,sepal_width,petal_length,petal_width,species\n"
            "5.1,3.5,1.4,0.2,setosa\n4.9,3.0,1.4,0.2,setosa\n7.0,3.2,4.7,1.4,versicolor\n"
            "6.3,3.3,6.0,2.5,virginica\n")
    put("fuzz_csv", "iris_header.csv", iris)
    put("fuzz_csv", "no_header.csv", "1,2,3\n4,5,6\n-7.5e-3,8,9\n")
    put("fuzz_csv", "tabs.tsv", "x\ty\tlabel\n0.5\t1\t0\n1.5\t2\t1\n2.5\t3\t\n")
    put("fuzz_csv", "semicolon_decimal_comma.csv", "a;b;class\r\n1,5;2;x\r\n3;4,25;y\r\n")
    put("fuzz_csv", "quoted.csv", 'name,"va""l",target\n"1",2,3.5\n"4", 5 ,6.25\n')
    put("fuzz_csv", "spaces.txt", "# comment line\n  1  2  3\n  4  5  6\n\n")
    put("fuzz_csv", "bom_crlf.csv", b"\xef\xbb\xbfx,y\r\n1,2\r\n3,4\r\n")
    put("fuzz_csv", "integer_labels.csv", "f1,f2,label\n0.1,0.2,3\n0.3,0.4,7\n0.5,0.6,3\n")
    put("fuzz_csv", "iris.csv.gz", gz(iris.encode()))
    # --- IDX
    put("fuzz_idx", "labels-idx1-ubyte", idx(0x08, [6], bytes([0, 1, 2, 1, 0, 9])))
    put("fuzz_idx", "images-idx3-ubyte", idx(0x08, [2, 3, 3], bytes(range(18))))
    put("fuzz_idx", "matrix-float.idx", idx(0x0D, [3, 2], struct.pack(">6f", 1, -2.5, 3, 0.25, 1e3, -7)))
    put("fuzz_idx", "matrix-double.idx", idx(0x0E, [2, 2], struct.pack(">4d", 1, 2, -3.5, 1e-9)))
    put("fuzz_idx", "short.idx", idx(0x0B, [2, 2], struct.pack(">4h", -300, 2, 3, 32000)))
    put("fuzz_idx", "int.idx", idx(0x0C, [3], struct.pack(">3i", 5, 2, 70000)))
    put("fuzz_idx", "byte-4d.idx", idx(0x09, [2, 1, 2, 2], struct.pack(">8b", -1, 2, -3, 4, 5, -6, 7, -8)))
    put("fuzz_idx", "images-idx3-ubyte.gz", gz(idx(0x08, [2, 3, 3], bytes(range(18)))))
    # --- PNG / PGM / PPM
    put("fuzz_image", "gray8.png", png(3, 2, 0, 8, [bytes([0, 128, 255]), bytes([10, 20, 30])]))
    put("fuzz_image", "rgb8.png", png(2, 2, 2, 8, [bytes([255, 0, 0, 0, 255, 0]), bytes([0, 0, 255, 9, 9, 9])]))
    put("fuzz_image", "rgba8.png", png(2, 1, 6, 8, [bytes([1, 2, 3, 255, 4, 5, 6, 0])]))
    put("fuzz_image", "gray_alpha8.png", png(2, 1, 4, 8, [bytes([50, 255, 60, 128])]))
    put("fuzz_image", "palette.png", png(4, 1, 3, 2, [bytes([0b00011011])], palette=bytes([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]),
                                          extra=b"\x00\x00\x00\x03tRNS\xff\x80\x00" + struct.pack(">I", zlib.crc32(b"tRNS\xff\x80\x00"))))
    put("fuzz_image", "gray16.png", png(2, 1, 0, 16, [struct.pack(">2H", 0, 65535)]))
    pixels = [[(17 * x + 31 * y) % 256 for x in range(9)] for y in range(3)]
    put("fuzz_image", "gray8_interlaced.png", png(9, 3, 0, 8, adam7_gray8(9, 3, pixels), interlace=1))
    put("fuzz_image", "gray1.png", png(9, 2, 0, 1, [bytes([0b10101010, 0b10000000])] * 2))
    put("fuzz_image", "ascii.pgm", "P2\n# a comment\n3 2\n255\n0 128 255\n1 2 3\n")
    put("fuzz_image", "binary.pgm", b"P5 2 2 255\n" + bytes([0, 64, 128, 255]))
    put("fuzz_image", "binary16.pgm", b"P5\n2 1\n65535\n" + struct.pack(">2H", 1000, 65535))
    put("fuzz_image", "ascii.ppm", "P3 2 1 15\n15 0 0  0 15 0\n")
    put("fuzz_image", "binary.ppm", b"P6 1 2 255\n" + bytes([255, 0, 0, 0, 0, 255]))
    # --- lab files (presets): the shipped ones, and one with every key
    for path in sorted(glob.glob(os.path.join(PRESETS, "*.json"))):
        os.makedirs(os.path.join(HERE, "fuzz_lab_file"), exist_ok=True)
        shutil.copy(path, os.path.join(HERE, "fuzz_lab_file", os.path.basename(path)))
    put("fuzz_lab_file", "every-key.json",
        '{"format": "cilab-preset", "version": 1, "title": "k-means: \\"bad\\" init \\u00e9",\n'
        ' "chapter": "Clustering", "note": "one line\\nand another",\n'
        ' "module": "kmeans", "data": "blobs:n=300,seed=4",\n'
        ' "params": {"k": 5, "init": "random", "tol": 1e-4, "verbose": true, "lr": -0.5},\n'
        ' "seed": 9223372036854775807, "iteration": 12, "tab": 2,\n'
        ' "panels": {"browser": false, "data": true, "params": true, "metrics": false}}\n')
    put("fuzz_lab_file", "session.json",
        '{"format": "cilab-session", "module": "kmeans", "params": {"k": 3}, "seed": 12, "iteration": 9,\n'
        ' "phase": 1, "edits": [{"iteration": 2, "set": "k", "value": 4},\n'
        ' {"iteration": 5, "phase": 1, "intent": "move_mean", "index": 1, "values": [0.8, -1e-17]}],\n'
        ' "data_embedded": {"name": "clicked", "columns": ["x", "y"], "rows": [[1, 2], [3.5, -4]],\n'
        ' "labels": [0, -1], "class_names": ["a"], "target_name": "t", "target": [0.5, 1]}}\n')
    # --- text (fuzz_text): byte 0 even = one file split on blank lines, odd = a folder of .txt
    #     files whose contents are separated by 0x1e bytes
    put("fuzz_text", "paragraphs.txt", b"\x00The King's dog DON'T bark.\r\n\r\n \t \nSecond para.\n\n\n42\n\nend")
    put("fuzz_text", "folder.txt", b"\x01first file.\x1esecond file, more words\x1e\x1e...\x1eit\xe2\x80\x99s")
    put("fuzz_text", "utf8.txt", "\x00caf\u00e9 na\u00efve \u2014 rock'n'roll 'quoted' it''s "
        + "x" * 80 + " ___\b\b\band")
    put("fuzz_text", "gzip.txt", b"\x00" + gz(b"gzipped text\n\nin two paragraphs\n"))
    put("fuzz_lab_file", "data-file.json", '{"title": "t", "module": "pca", "data_file": "../x.csv", "note": ["a", "", "b"]}')


if __name__ == "__main__":
    main()
