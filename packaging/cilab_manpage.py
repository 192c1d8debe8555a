#!/usr/bin/env python3
"""Writes the man page cilab.1 (gzipped, as Debian installs man pages) from the help
texts of the built binary: `cilab --help`, `cilab run|sweep|list --help` and
`cilab --script-help`, plus the fixed sections below (description, environment,
files, exit status). The build runs it after linking cilab (CMake target
cilab_man), so the page always lists the options the binary really takes.

Usage: cilab_manpage.py CILAB_BINARY OUT.1.gz    (OUT.1 when the name has no .gz)
Standard library only. Fails (exit 1) when a help text does not have the expected
shape, or when an option of the help texts is missing from the page.
"""
import gzip
import os
import re
import subprocess
import sys

# The help texts' layout (app/headless/cli.cpp): a heading is an unindented line
# ending in ':', an item starts at column 2 (a term, then its description from a
# fixed column on), a deeper indented line continues the item above.
HEADING = re.compile(r"^(\S.*):$")
ITEM = re.compile(r"^  (\S.*)$")
CONTINUATION = re.compile(r"^   +(\S.*)$")
VERBATIM_HEADINGS = ("Usage", "Example")


def roff_text(s):
    """Plain text for roff: backslashes, dashes (\\- stays a minus sign for
    copy-paste), and a leading '.' or "'" that would read as a request."""
    s = s.replace("\\", "\\e").replace("-", "\\-")
    if s.startswith((".", "'")):
        s = "\\&" + s
    return s


def run_help(binary, *args):
    r = subprocess.run([binary, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        sys.exit(f"cilab_manpage: '{binary} {' '.join(args)}' exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def blocks(text):
    """[(heading or None, [lines])]: the text cut at its headings."""
    out = [(None, [])]
    for line in text.rstrip("\n").split("\n"):
        m = HEADING.match(line)
        if m and not line.startswith(" "):
            out.append((m.group(1), []))
        else:
            out[-1][1].append(line)
    return [(h, ls) for h, ls in out if h is not None or any(l.strip() for l in ls)]


def split_items(lines):
    """The block as it reads: [("item", term, description) or ("prose", text)]. An
    item's description starts after the first run of two or more spaces, or else at
    the column most items of the block use (`--layout triplets|wide completion's ...`)."""
    cols = []
    for line in lines:
        if ITEM.match(line):
            m = re.search(r"\S  +(?=\S)", line[2:])
            if m:
                cols.append(2 + m.end())
    col = max(set(cols), key=cols.count) if cols else None
    out = []
    for line in lines:
        if not line.strip():
            continue
        if ITEM.match(line):
            m = re.search(r"\S  +(?=\S)", line[2:])
            if m:
                term, desc = line[2 : 2 + m.start() + 1], line[2 + m.end() :]
            elif col and len(line) > col and line[col - 1] == " ":
                term, desc = line[2:col].rstrip(), line[col:]
            else:
                term, desc = line[2:].rstrip(), ""
            out.append(["item", term, desc.strip()])
        elif CONTINUATION.match(line) and out and out[-1][0] == "item":
            out[-1][2] = (out[-1][2] + " " + line.strip()).strip()
        elif line.startswith(" "):
            sys.exit(f"cilab_manpage: cannot place the line {line!r}")
        elif out and out[-1][0] == "prose":
            out[-1][1] += " " + line.strip()
        else:
            out.append(["prose", line.strip()])
    return out


def render(text, sub_heading):
    """roff for one help text; its headings become sub_heading(title) lines."""
    out = []
    for heading, lines in blocks(text):
        if heading is not None:
            out.append(sub_heading(heading))
        if heading is not None and heading.split(" ")[0] in VERBATIM_HEADINGS:
            body = [l for l in lines if l.strip()]
            out += [".PP", ".RS 2", ".nf"] + [roff_text(l[2:] if l.startswith("  ") else l) for l in body]
            out += [".fi", ".RE"]
            continue
        for kind, *rest in split_items(lines):
            if kind == "prose":
                out += [".PP", roff_text(rest[0])]
            else:
                out += [".TP", "\\fB" + roff_text(rest[0]) + "\\fR", roff_text(rest[1])]
    return out


DESCRIPTION = """\
CILab is a desktop lab for the Computational Intelligence course. Every algorithm
runs live, one iteration at a time: k\\-means, Gaussian mixtures, PCA, SVD and power
iteration, matrix completion, pLSA, word2vec and GloVe, the gradient methods, networks,
the autoencoder, the VAE and the GAN. Without a command, cilab opens the window on
k\\-means (or on the module, preset or session given); the commands run, sweep and
list work without a window and write CSV to standard output."""

ENVIRONMENT = [
    ("CILAB_ASSET_DIR", "The folder of the shipped assets (iris.csv, faithful.csv, camera.png, "
     "stopwords\\-en.txt, presets/). Unset: share/cilab/assets beside the binary's bin/ folder "
     "(the installed layout), else the source tree's assets/ the binary was built from."),
    ("CILAB_CONFIG_DIR", "The folder of settings.ini and the user's presets/ (default: "
     "$XDG_CONFIG_HOME/cilab, else ~/.config/cilab)."),
    ("CILAB_FASHION_MNIST_DIR", "Fashion\\-MNIST's IDX files (default /usr/share/datasets/fashion\\-mnist, "
     "Debian's dataset\\-fashion\\-mnist)."),
    ("CILAB_FORTUNES_DIR", "The fortunes corpus (default /usr/share/games/fortunes, Debian's fortunes)."),
    ("CILAB_GCIDE_PATH", "The GCIDE dictionary (default /usr/share/dictd/gcide.dict.dz, Debian's dict\\-gcide)."),
    ("CILAB_WORDNET_DIR", "WordNet, the embeddings' synonym oracle (default /usr/share/wordnet, "
     "Debian's wordnet\\-base)."),
]

FILES = [
    ("PREFIX/share/cilab/assets/", "The shipped datasets, the photograph, the stop words and the "
     "presets (presets/*.json; their format: presets/README.md)."),
    ("~/.config/cilab/settings.ini", "UI scale, theme, palette, window sizes, recent files."),
    ("~/.config/cilab/presets/", "Presets saved with Presets > Save as preset; listed beside the shipped ones."),
]


def man_page(binary):
    main = run_help(binary, "--help")
    first = main.split("\n", 1)[0]
    m = re.fullmatch(r"CILab (\S+) - (.+)", first)
    if not m:
        sys.exit(f"cilab_manpage: the first line of cilab --help is {first!r}, expected 'CILab VERSION - SUMMARY'")
    version, summary = m.group(1), m.group(2)
    main = main.split("\n", 1)[1]
    subs = {cmd: run_help(binary, cmd, "--help") for cmd in ("run", "sweep", "list")}
    script = run_help(binary, "--script-help")

    page = [
        '.\\" Generated by packaging/cilab_manpage.py from the help of cilab %s; do not edit.' % version,
        '.TH CILAB 1 "" "CILab %s" "User Commands"' % version,
        ".nh",
        ".ad l",
        ".SH NAME",
        "cilab \\- " + roff_text(summary),
    ]
    main_blocks = blocks(main)
    usage = [b for b in main_blocks if b[0] == "Usage"]
    if not usage:
        sys.exit("cilab_manpage: cilab --help has no 'Usage:' block")
    page += [".SH SYNOPSIS"] + render("Usage:\n" + "\n".join(usage[0][1]), lambda h: "")
    page += [".SH DESCRIPTION"] + [".PP", DESCRIPTION]
    rest = "\n".join((h + ":\n" if h else "") + "\n".join(ls) for h, ls in main_blocks if h not in ("Usage", "Example"))
    page += [".SH OPTIONS"] + render(rest, lambda h: ".SS " + roff_text(h))
    page += [".SH COMMANDS"]
    for cmd, text in subs.items():
        page += [".SS cilab " + cmd] + render(text, lambda h: ".PP\n\\fI" + roff_text(h) + "\\fR")
    page += [".SH SCRIPTS"] + render(script, lambda h: ".SS " + roff_text(h))
    examples = [b for b in main_blocks if b[0] == "Example"]
    if examples:
        page += [".SH EXAMPLES"] + render("Example:\n" + "\n".join(examples[0][1]), lambda h: "")
    page += [".SH ENVIRONMENT"]
    for name, text in ENVIRONMENT:
        page += [".TP", "\\fB" + name + "\\fR", text]
    page += [".SH FILES"]
    for name, text in FILES:
        page += [".TP", "\\fI" + roff_text(name) + "\\fR", text]
    page += [
        ".SH EXIT STATUS",
        "0 on success; 2 on bad arguments or data (one line on standard error naming what and "
        "what to try); 1 when a \\fB\\-\\-script\\fR expectation fails.",
        ".SH SEE ALSO",
        "The README of the CILab sources (the window, the modules, the data formats) and "
        "\\fBcilab \\-\\-script\\-help\\fR.",
    ]
    text = "\n".join(l for l in page if l != "") + "\n"

    # Every option the help texts name is in the page.
    flags = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", "\n".join([main, script, *subs.values()])))
    missing = sorted(f for f in flags if f.replace("-", "\\-") not in text)
    if missing:
        sys.exit("cilab_manpage: options missing from the page: " + " ".join(missing))
    return text


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, out = sys.argv[1], sys.argv[2]
    data = man_page(binary).encode("utf-8")
    if out.endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)  # as gzip -9n: reproducible
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
