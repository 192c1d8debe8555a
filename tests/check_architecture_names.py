#!/usr/bin/env python3
"""Every code name that docs/ARCHITECTURE.md writes in backticks exists in the tree.

A backticked span is read as code when it names a path (a/b.h, with {x,y}
alternatives expanded: the file must exist) or holds identifiers that can only be
code: snake_case, CamelCase, k-constants, A::b. Each such identifier (each part
of A::b) must occur as a word in the project's sources, scripts or build files.
Shell commands (`make ...`, `cilab ...`, flags) are prose, not names.
Usage: check_architecture_names.py SOURCE_DIR; exits 1 listing what is missing.
"""
import itertools
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
doc_path = os.path.join(root, "docs", "ARCHITECTURE.md")
SOURCE_EXT = (".h", ".cpp", ".sh", ".py", ".txt", ".json", ".dict", ".supp", ".clang-format", ".desktop")
SOURCE_NAMES = ("Makefile", "CMakeLists.txt", "run")


def tree_words():
    words = set()
    for top in ("algorithms", "app", "views", "tests", "bench", "assets", "packaging", ".ci"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith(SOURCE_EXT) or f in SOURCE_NAMES:
                    try:
                        with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                            words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", fh.read()))
                    except OSError:
                        pass
    for f in ("Makefile", "CMakeLists.txt"):
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", fh.read()))
    return words


def tree_files():
    out = []
    for top in ("algorithms", "app", "views", "tests", "bench", "assets", "packaging", "docs", ".ci"):
        for dirpath, _, fs in os.walk(os.path.join(root, top)):
            rel = os.path.relpath(dirpath, root)
            out.extend(os.path.join(rel, f) for f in fs)
    out.extend(f for f in os.listdir(root) if os.path.isfile(os.path.join(root, f)))
    return out


def file_exists(p, files):
    """p relative to the root, or the tail of a path in the tree (`core/rng.h`, `layers.cpp`)."""
    if os.path.exists(os.path.join(root, p)):
        return True
    return any(f == p or f.endswith("/" + p) for f in files)


def expand_pair(p):
    """`a.h/.cpp` names two files."""
    m = re.fullmatch(r"(.*)\.(h|cpp)/\.(h|cpp)", p)
    return [f"{m.group(1)}.{m.group(2)}", f"{m.group(1)}.{m.group(3)}"] if m else [p]


def expand_braces(s):
    m = re.search(r"\{([^{}]*)\}", s)
    if not m:
        return [s]
    out = []
    for alt in m.group(1).split(","):
        out.extend(expand_braces(s[: m.start()] + alt + s[m.end():]))
    return out


def is_code_identifier(tok):
    if "::" in tok:
        return True
    if re.fullmatch(r"k[A-Z][A-Za-z0-9]*", tok):
        return True
    if "_" in tok.strip("_") and re.search(r"[a-z]", tok):
        return True
    # CamelCase with a lower-to-upper step inside (KMeansSnapshot, ModuleInfo; not "GMM" or "Adam").
    return re.search(r"[a-z][A-Z]", tok) is not None and tok[0].isalpha()


def main():
    with open(doc_path, encoding="utf-8") as fh:
        text = fh.read()
    # Fenced code blocks hold diagrams and examples, not references.
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    words = tree_words()
    missing = []
    files = tree_files()
    for span in re.findall(r"`([^`\n]+)`", text):
        s = span.strip()
        if re.match(r"(make|cilab|cmake|ctest|git|apt|dpkg|bash|python3|xvfb-run|\./)\b", s) or s[0] in "-.":
            continue
        if " " not in s and re.search(r"\.(h|cpp|sh|py|json|md|txt|dict|supp|png|gif|csv)\b", s):
            if re.search(r"NAME|NNNN|<", s) or "*" in s or "*" in s or s.startswith("../") or s.startswith("build"):
                continue  # a placeholder or a generated file
            for p in expand_braces(s):
                for q in expand_pair(p):
                    if not file_exists(q, files):
                        missing.append(f"file `{q}` (in `{s}`)")
            continue
        if " " not in s and "/" in s and not re.search(r"[=:]", s):
            if re.match(r"(algorithms|views|app|tests|bench|assets|packaging|docs)/", s) and "<" not in s and "*" not in s:
                for p in expand_braces(s):
                    if not os.path.exists(os.path.join(root, p.rstrip("/"))):
                        missing.append(f"folder `{p}` (in `{s}`)")
                continue
            if not all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part) for part in s.split("/")):
                continue  # a path outside the tree (another project's, a run-time folder)
        for tok in re.findall(r"[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_~][A-Za-z0-9_]*)*", s):
            if not is_code_identifier(tok):
                continue
            for part in tok.split("::"):
                part = part.lstrip("~")
                if part and part not in words:
                    missing.append(f"`{part}` (in `{s}`)")
    seen = set()
    unique = [m for m in missing if not (m in seen or seen.add(m))]
    for m in unique:
        print("missing:", m)
    spans = len(re.findall(r"`[^`\n]+`", text))
    print(f"{spans} backticked spans read, {len(unique)} names missing")
    return 1 if unique else 0


if __name__ == "__main__":
    sys.exit(main())
