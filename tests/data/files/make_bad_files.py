#!/usr/bin/env python3
"""Regenerates the bad-input corpus in bad/ (deterministic; run from anywhere).

Each file exercises one failure of cilab::load_file; tests/data/test_bad_files.cpp
lists every file with the error substring it must produce.
"""
import gzip
import os
import random
import struct
import zlib

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bad")


def put(name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def gz(data):
    # mtime=0 keeps the bytes reproducible
    return gzip.compress(data, mtime=0)


def idx(type_code, dims, payload=b""):
    return bytes([0, 0, type_code, len(dims)]) + b"".join(struct.pack(">I", d) for d in dims) + payload


def png_bytes(width, height, colour_type, bit_depth, raw):
    """A PNG of IHDR, one IDAT holding zlib(raw) (filtered scanlines) and IEND."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) +
            chunk(b"IEND", b""))


def main():
    os.makedirs(os.path.join(HERE, "pair"), exist_ok=True)
    # --- text
    put("empty.csv", b"")
    put("blank_lines.csv", "\n  \n\t\n")
    put("header_only.csv", "sepal_length,sepal_width,species\n")
    put("header_then_blank.csv", "a;b\r\n\r\n\r\n")
    put("ragged.csv", "1,2,3\n4,5,6\n7,8\n")
    put("non_numeric.csv", "x,y,label\n1,2,a\n3,oops,b\n")
    put("nan_cell.csv", "1,2\nNaN,3\n")
    put("inf_cell.tsv", "1\t2\n3\t-inf\n")
    put("overflow_cell.csv", "1,2\n1e999,3\n")
    put("empty_cell.csv", "1,2,3\n4,,6\n")
    put("unterminated_quote.csv", 'a,b\n1,"2\n3,4\n')
    put("junk_after_quote.csv", 'a,b\n"1"x,2\n')
    put("label_only.csv", "species\nsetosa\nvirginica\n")
    put("label_only_no_header.csv", "setosa\nvirginica\n")
    put("duplicate_header.csv", "x,y,x\n1,2,3\n")
    put("cr_in_header.csv", "ba\r;\n\r\n\r\n;")  # libFuzzer finding: a CR in a name broke the message's line
    put("utf16.csv", "\ufeffx,y\n1,2\n".encode("utf-16-le"))
    rng = random.Random(7)
    junk = bytes([0x7f, 0x45, 0x4c, 0x46]) + bytes(rng.randrange(256) for _ in range(2000))
    put("binary_junk.bin", junk)
    put("control_bytes.csv", "1,2\n3,\x01\x02\n")
    # --- IDX
    put("idx_bad_magic.idx", bytes([0, 0, 7, 3]) + struct.pack(">III", 1, 2, 2) + bytes(4))
    put("idx_zero_dims.idx", bytes([0, 0, 8, 0]))
    put("idx_too_many_dims.idx", bytes([0, 0, 8, 200]) + bytes(8))
    put("idx_truncated_header.idx", bytes([0, 0, 8, 3, 0, 0]))
    put("idx_truncated_data.idx", idx(8, [10, 4, 4], bytes(50)))
    put("idx_lying_header.idx", idx(8, [60000, 28, 28], bytes(100)))
    put("idx_dims_overflow.idx", idx(8, [0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF]))
    put("idx_dims_absurd.idx", idx(8, [0x7FFFFFFF, 0x1000], bytes(16)))
    put("idx_extra_bytes.idx", idx(8, [2, 2], bytes(4) + b"xyz"))
    put("idx_zero_dim.idx", idx(8, [0, 5]))
    put("idx_float_nan.idx", idx(0x0D, [2, 2], struct.pack(">ffff", 1.0, 2.0, float("nan"), 4.0)))
    put("idx_lying_header.idx.gz", gz(idx(8, [60000, 28, 28], bytes(1000))))
    # --- gzip
    text = "".join(f"{i},{i * 0.5},{i % 3}\n" for i in range(2000)).encode()
    packed = gz(text)
    put("gzip_truncated.csv.gz", packed[: len(packed) // 2])
    put("gzip_no_trailer.csv.gz", packed[:-8])
    corrupt = bytearray(packed)
    for i in range(20, 60):
        corrupt[i] ^= 0xA5
    put("gzip_corrupt.csv.gz", bytes(corrupt))
    bad_crc = bytearray(packed)
    bad_crc[-8] ^= 0xFF
    put("gzip_bad_crc.csv.gz", bytes(bad_crc))
    put("gzip_empty.gz", gz(b""))
    put("gzip_junk_inside.gz", gz(junk))
    put("gzip_header_only.gz", packed[:10])
    # --- images (libFuzzer findings, tests/fuzz/fuzz_image.cpp)
    gray = png_bytes(9, 3, 0, 8, bytes((1 + 9) * 3))  # a filter byte and 9 pixels per row
    at = gray.index(b"IDAT") - 4  # the IDAT chunk's length field
    put("png_chunk_too_long.png", gray[:at] + struct.pack(">I", 0x2600002A) + gray[at + 4:])
    put("png_header_lies.png", png_bytes(8192, 8192, 6, 16, bytes(100)))
    at = gray.index(b"IEND")
    put("png_chunk_type_binary.png", gray[:at] + b"\n\x00\x00\x00" + gray[at + 4:])
    put("pgm_ascii_lying_header.pgm", "P2\n8192 8192\n255\n0 1 2\n")
    # --- lab files (presets; libFuzzer findings, tests/fuzz/fuzz_lab_file.cpp): read by
    # tests/app/test_lab_file_bad.cpp, not by load_file
    os.makedirs(os.path.join(HERE, "lab"), exist_ok=True)
    put("lab/number_overflow.json", '{"module": "kmeans", "title": "t", "params": {"tol": 1e999}}\n')
    put("lab/newline_in_key.json", '{"module": "kmeans", "title": "t", "a\\nb": 1}\n')
    put("lab/newline_in_param.json", '{"module": "kmeans", "title": "t", "params": {"k\\n": [1]}}\n')
    # --- an images file whose sibling labels file has the wrong length
    put("pair/mismatch-images-idx3-ubyte", idx(8, [3, 2, 2], bytes(12)))
    put("pair/mismatch-labels-idx1-ubyte", idx(8, [5], bytes(5)))


if __name__ == "__main__":
    main()
