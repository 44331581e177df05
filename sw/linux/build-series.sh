#!/usr/bin/env bash
# build-series.sh : every patch of the Linux series builds on its own. The
# pinned tarball is unpacked once; then the patches are applied one at a
# time, and after each the test kernel's configuration (tinyconfig plus
# config/shootdown.config and config/port.config, as far as the options
# exist yet) is built to an Image, incrementally in one object directory.
# Stops at the first patch that does not apply or build. Long (a full build,
# then minutes a patch): `make linux-series`, not `make test`.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../../scripts/lib.sh"
source "$HERE/UPSTREAM"
CROSS=riscv64-linux-gnu-

mapfile -t PATCHES < <(grep -v '^\s*\(#\|$\)' "$HERE/series" || true)
[ ${#PATCHES[@]} -gt 0 ] || die "sw/linux/series lists no patch"
TARBALL="$("$ROOT/scripts/fetch-upstream.sh" "$HERE")"
SRC="$BUILD/linux/series-src"
OBJ="$BUILD/linux/series-obj"
step "unpacking $(basename "$TARBALL") for the series build"
rm -rf "$SRC" && mkdir -p "$SRC" "$OBJ"
tar -xJf "$TARBALL" -C "$SRC" --strip-components=1
kmake() { make -C "$SRC" O="$OBJ" ARCH=riscv CROSS_COMPILE="$CROSS" "$@"; }

n=0
for p in "${PATCHES[@]}"; do
  n=$((n + 1))
  patch -d "$SRC" -p1 -s --no-backup-if-mismatch < "$HERE/patches/$p" || die "$p does not apply"
  step "$n/${#PATCHES[@]}: building with $p"
  log="$BUILD/logs/linux-series-$n.log"
  # The options a patch has not added yet are dropped by olddefconfig.
  run_logged "$log" bash -c "
    set -e
    make -C '$SRC' O='$OBJ' ARCH=riscv CROSS_COMPILE=$CROSS tinyconfig
    '$SRC/scripts/kconfig/merge_config.sh' -m -O '$OBJ' '$OBJ/.config' '$HERE/config/shootdown.config' '$HERE/config/port.config'
    make -C '$SRC' O='$OBJ' ARCH=riscv CROSS_COMPILE=$CROSS olddefconfig
    make -C '$SRC' O='$OBJ' ARCH=riscv CROSS_COMPILE=$CROSS -j$(nproc) Image" \
    || die "the series does not build at $p (log: $log)"
  echo "    builds: $p ($(grep -c '^CONFIG_.*TLB_SHOOTDOWN.*=y' "$OBJ/.config") of the series' options on)" >&2
done
echo "every one of the ${#PATCHES[@]} patches builds on its own"
