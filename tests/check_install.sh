#!/usr/bin/env bash
# The installed app (issue 29): `cmake --install` (what `make install` runs) or the
# Debian package of `make deb` (cpack -G DEB, then dpkg-deb -x) into a temporary
# root, then the tree (binary, runtime assets without the README screenshots,
# desktop entry, icon, man page holding every option of the help texts) and the
# installed binary run from another folder with CILAB_ASSET_DIR unset: cilab list,
# a k-means run on the shipped iris, the photograph, the stop words, the presets. That it
# reads the installed assets and never the source tree's (which still exists here)
# is shown twice: a preset added only to the installed presets/ is listed, and with
# the installed iris.csv moved away the run fails naming the installed path.
# Usage: check_install.sh install|deb BUILD_DIR SOURCE_DIR PYTHON3
set -u
mode=$1 build=$2 src=$3 python=$4
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
short() { head -c 600 <<<"$1"; }  # a command's output in a failure message
tmp=$(mktemp -d /tmp/cilab_install_test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

case $mode in
  install)
    # make install's recipe: cmake --install with PREFIX and DESTDIR (dry run of the Makefile).
    plan=$(make --no-print-directory -n -C "$src" install BUILD=/nonexistent-build PREFIX=/opt/px DESTDIR=/tmp/dx 2>&1)
    grep -q -- 'cmake --install /nonexistent-build --prefix /opt/px' <<<"$plan" ||
      fail "make install does not run 'cmake --install BUILD --prefix PREFIX':"$'\n'"$plan"
    grep -q 'DESTDIR=/tmp/dx' <<<"$plan" || fail "make install does not pass DESTDIR on:"$'\n'"$plan"
    prefix=/opt/cilab-test
    if ! DESTDIR=$tmp/root cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
      fail "cmake --install failed:"; cat "$tmp/install.log"
    fi
    root=$tmp/root$prefix
    ;;
  deb)
    if ! (cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1); then
      fail "cpack -G DEB failed:"; cat "$tmp/cpack.log"
    fi
    debs=("$tmp"/pkg/cilab_*.deb)
    deb=${debs[0]}
    [ -f "$deb" ] || { echo "FAIL: no cilab_*.deb in $tmp/pkg"; ls -la "$tmp/pkg"; exit 1; }
    info=$(dpkg-deb --info "$deb")
    field() { sed -n "s/^ $1: //p" <<<"$info"; }
    [ "$(field Package)" = cilab ] || fail "Package: '$(field Package)', expected cilab"
    [[ "$(field Version)" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]] || fail "Version: '$(field Version)'"
    [[ "$(field Maintainer)" =~ \<.+@.+\> ]] || fail "Maintainer: '$(field Maintainer)', expected NAME <EMAIL>"
    [ -n "$(field Description)" ] || fail "no Description"
    # The package names of a relation field, one a line (versions and alternatives dropped).
    names() { field "$1" | tr ',|' '\n\n' | sed 's/(.*)//; s/^ *//; s/ *$//' | grep -v '^$'; }
    # dpkg-shlibdeps computed the libraries' packages (libglfw3 brings libgl1 and Mesa);
    # the font is declared.
    for p in libc6 libstdc++6 libglfw3 libopengl0 zlib1g libmuparser2v5 libstb0 fonts-dejavu-core; do
      names Depends | grep -qxF -- "$p" || fail "Depends lacks $p: $(field Depends)"
    done
    for p in dataset-fashion-mnist fortunes dict-gcide wordnet-base; do
      names Recommends | grep -qxF -- "$p" || fail "Recommends lacks $p: $(field Recommends)"
    done
    contents=$(dpkg-deb --contents "$deb" | awk '{print $6}')
    for f in ./usr/bin/cilab ./usr/share/cilab/assets/iris.csv ./usr/share/applications/cilab.desktop \
             ./usr/share/icons/hicolor/scalable/apps/cilab.svg ./usr/share/man/man1/cilab.1.gz; do
      grep -qx -- "$f" <<<"$contents" || fail "the package lacks $f"
    done
    dpkg-deb -x "$deb" "$tmp/x" || fail "dpkg-deb -x failed"
    root=$tmp/x/usr
    ;;
  *) echo "usage: check_install.sh install|deb BUILD_DIR SOURCE_DIR PYTHON3"; exit 2 ;;
esac

# --- the tree
bin=$root/bin/cilab
assets=$root/share/cilab/assets
[ -x "$bin" ] || fail "no executable $bin"
for f in iris.csv faithful.csv camera.png stopwords-en.txt README.md presets/README.md; do
  [ -f "$assets/$f" ] || fail "asset $f not installed in $assets"
done
n_src=$(ls "$src"/assets/presets/*.json | wc -l)
n_inst=$(ls "$assets"/presets/*.json 2>/dev/null | wc -l)
[ "$n_src" = "$n_inst" ] || fail "$n_inst presets installed, the source has $n_src"
ls "$assets"/screenshot* >/dev/null 2>&1 && fail "the README screenshots are installed: $(ls "$assets"/screenshot*)"

desktop=$root/share/applications/cilab.desktop
if [ -f "$desktop" ]; then
  # The Desktop Entry Specification's required keys and shape.
  "$python" - "$desktop" "$root" <<'EOF' || failures=$((failures + 1))
import os, re, sys
path, root = sys.argv[1], sys.argv[2]
lines = [l.rstrip("\n") for l in open(path, encoding="utf-8")]
body = [l for l in lines if l.strip() and not l.startswith("#")]
errors = []
if not body or body[0] != "[Desktop Entry]":
    errors.append("the first group is not [Desktop Entry]")
keys = {}
for l in body[1:]:
    if l.startswith("["):
        break
    m = re.fullmatch(r"([A-Za-z0-9-]+(?:\[[^\]]+\])?)\s*=\s*(.*)", l)
    if not m:
        errors.append(f"not a key=value line: {l!r}")
        continue
    if m.group(1) in keys:
        errors.append(f"duplicate key {m.group(1)}")
    keys[m.group(1)] = m.group(2)
for k, want in (("Type", "Application"), ("Name", None), ("Exec", None), ("Icon", "cilab"),
                ("Terminal", "false"), ("Categories", None)):
    if k not in keys:
        errors.append(f"missing key {k}")
    elif want is not None and keys[k] != want:
        errors.append(f"{k}={keys[k]}, expected {want}")
if keys.get("Exec", "").split(" ")[0] != "cilab":
    errors.append(f"Exec does not start the binary cilab: {keys.get('Exec')!r}")
if "Categories" in keys and not keys["Categories"].endswith(";"):
    errors.append("Categories must end with ';'")
icons = [os.path.join(root, "share/icons/hicolor/scalable/apps/cilab.svg")]
if not any(os.path.isfile(p) for p in icons):
    errors.append("no icon named cilab in the hicolor theme")
for e in errors:
    print(f"FAIL: {path}: {e}")
sys.exit(1 if errors else 0)
EOF
else
  fail "no desktop entry $desktop"
fi
icon=$root/share/icons/hicolor/scalable/apps/cilab.svg
if [ -f "$icon" ]; then
  "$python" -c 'import sys, xml.dom.minidom as m; r = m.parse(sys.argv[1]).documentElement; sys.exit(r.tagName != "svg")' "$icon" ||
    fail "$icon is not an SVG document"
fi

man=$root/share/man/man1/cilab.1.gz
if [ -f "$man" ] && gzip -t "$man"; then
  if command -v man >/dev/null; then
    page=$(LC_ALL=C MANWIDTH=200 man -l "$man" 2>"$tmp/man.err") || fail "man -l $man failed: $(cat "$tmp/man.err")"
  else
    # Without man-db: the roff source, its \- read as -.
    page=$(zcat "$man" | sed 's/\\-/-/g')
  fi
  grep -q '^NAME' <<<"$page" || grep -q '^\.SH NAME' <<<"$page" || fail "the man page has no NAME section"
  # Every option of the help texts is in the page.
  flags=$( { "$bin" --help; "$bin" run --help; "$bin" sweep --help; "$bin" list --help; } |
          grep -oE -- '(^|[^a-z-])--[a-z][a-z-]*' | grep -oE -- '--[a-z][a-z-]*' | sort -u)
  [ "$(wc -l <<<"$flags")" -ge 20 ] || fail "only $(wc -l <<<"$flags") options found in cilab --help"
  for f in $flags; do
    grep -qF -- "$f" <<<"$page" || fail "the man page lacks $f"
  done
else
  fail "no gzipped man page $man"
fi

# --- the installed binary, from another folder, without CILAB_ASSET_DIR
[ -x "$bin" ] && [ -f "$assets/presets/kmeans-bad-init.json" ] && [ -f "$assets/iris.csv" ] ||
  { echo "$failures failures; nothing installed to run"; exit 1; }
mkdir -p "$tmp/work" "$tmp/config"
run() { (cd "$tmp/work" && env -u CILAB_ASSET_DIR CILAB_CONFIG_DIR="$tmp/config" "$bin" "$@"); }
out=$(run list 2>&1) || fail "cilab list failed: $(short "$out")"
grep -q kmeans <<<"$out" && grep -q iris <<<"$out" || fail "cilab list lacks kmeans or iris: $(short "$out")"
out=$(run run kmeans --dataset iris --set k=3 --steps 3 2>&1) || fail "cilab run kmeans on iris failed: $(short "$out")"
[ "$(grep -c '^[1-3],' <<<"$out")" = 3 ] && head -1 <<<"$out" | grep -q '^iteration,objective' ||
  fail "cilab run kmeans --dataset iris --steps 3 did not write a header and 3 rows: $(short "$out")"
out=$(run run svd-lowrank --steps 2 2>&1) || fail "cilab run svd-lowrank (the photograph) failed: $(short "$out")"
out=$(run run plsa --dataset fortunes:n=200 --set k=3 --steps 2 2>&1) ||
  fail "cilab run plsa (the stop words) failed: $(short "$out")"
out=$(run list presets 2>&1) || fail "cilab list presets failed: $(short "$out")"
grep -q 'kmeans-bad-init' <<<"$out" || fail "cilab list presets lacks the shipped kmeans-bad-init: $(short "$out")"

# The installed assets, not the source tree's: a preset only the installed folder has...
grep -qxF "Shipped: $assets/presets" <<<"$out" ||
  fail "cilab list presets does not name $assets/presets as the shipped folder: $(grep Shipped <<<"$out")"
cp "$assets/presets/kmeans-bad-init.json" "$assets/presets/zz-installed-only.json"
out=$(run list presets 2>&1)
grep -q 'zz-installed-only' <<<"$out" ||
  fail "a preset added to $assets/presets is not listed: the binary reads presets elsewhere: $(short "$out")"
out=$(run run --preset zz-installed-only --steps 2 2>&1) || fail "cilab run --preset zz-installed-only failed: $(short "$out")"
rm -f "$assets/presets/zz-installed-only.json"
# ... and no fallback to the source tree when an installed asset is missing.
mv "$assets/iris.csv" "$tmp/iris.csv"
out=$(run run kmeans --dataset iris --steps 1 2>&1)
code=$?
[ "$code" = 2 ] || fail "iris without the installed iris.csv: exit $code, expected 2: $(short "$out")"
grep -qF "$assets/iris.csv" <<<"$out" || fail "iris without the installed iris.csv: the error does not name $assets/iris.csv: $(short "$out")"
mv "$tmp/iris.csv" "$assets/iris.csv"
# CILAB_ASSET_DIR still overrides the installed folder.
out=$(cd "$tmp/work" && CILAB_ASSET_DIR=$tmp/nowhere CILAB_CONFIG_DIR=$tmp/config "$bin" run kmeans --dataset iris --steps 1 2>&1)
grep -qF "$tmp/nowhere/iris.csv" <<<"$out" || fail "CILAB_ASSET_DIR=$tmp/nowhere is not used: $(short "$out")"

[ "$failures" -eq 0 ] && echo "$mode: the installed tree is complete and its binary runs on its own assets ($root)"
exit $(( failures > 0 ))
