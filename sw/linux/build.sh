#!/usr/bin/env bash
# build.sh [--stock] [--quick | --checks | --bench[=LIST]] [--mutant NAME | --variant NAME] [--config NAME] [--build N] : prints the
# path of the test kernel's Image,
# building (and caching) it when missing: the pinned linux-source tarball
# (UPSTREAM) with `series` applied (none with --stock), tinyconfig plus
# config/shootdown.config, and the nolibc /init of init/ built in as the
# initramfs. The Image is OpenSBI's payload on the SoC and on QEMU virt.
# --quick: /quick in the initramfs, which makes /init run its workloads
# shorter (make test's run on the SoC); --checks: /checks, the same without
# the benchmarks (for the debug kernels of --config); --bench: /bench in it, which makes
# /init run only the benchmarks after its snapshot point (make
# linux-bench); --bench=LIST: only those LIST names (comma-separated, e.g.
# tlb-flush2,mprotect), written into /bench. Either shares its flavour's tree and objects, so it costs
# a relink.
# Every flavour, stock included, gets measure/*.patch after the series:
# counters of the flushes the kernel asks for, by kind (debugfs
# tlb_flush_kinds), which the benchmarks check their loops' shape against
# on every kernel alike.
# --mutant NAME: the port with mutants/NAME.patch applied after those, a
# kernel broken on purpose that a test must catch (its own tree and
# objects: a full build). --variant NAME: the same with variants/NAME.patch,
# a kernel that does something else on purpose, for a benchmark to compare
# (broadcast: every flush to every CPU).
# --config NAME: config/NAME.config merged after the others (rt: PREEMPT_RT;
# pagealloc: DEBUG_PAGEALLOC): the flavour's tree but objects of its own (a
# full build).
# --build N: the N-th build of the same inputs (1, the default, is the
# reproducible one): its banner says build N of host shootdown-bN, so its
# image's layout moves as a rebuild's would; make linux-bench measures over
# builds. A relink of the flavour's objects.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../../scripts/lib.sh"
FLAVOR=port
MODE=""
MUTANT=""
VARIANT=""
BUILD_N=1
BENCH_LIST=""
CONFIG_NAME=""
usage="usage: build.sh [--stock] [--quick | --checks | --bench[=LIST]] [--mutant NAME | --variant NAME] [--config NAME] [--build N] (a mutant or variant not with --stock)"
while [ $# -gt 0 ]; do
  case "$1" in
    --stock) FLAVOR=stock; shift ;;
    --quick|--checks|--bench) [ -z "$MODE" ] || die "$usage"; MODE="${1#--}"; shift ;;
    --bench=*) [ -z "$MODE" ] || die "$usage"; MODE=bench; BENCH_LIST="${1#--bench=}"; shift
               [[ "$BENCH_LIST" =~ ^[a-z0-9-]+(,[a-z0-9-]+)*$ ]] || die "--bench=LIST: benchmark names separated by commas, not '$BENCH_LIST'" ;;
    --mutant) MUTANT="${2:-}"; [ -f "$HERE/mutants/$MUTANT.patch" ] || die "no mutant '$MUTANT' in sw/linux/mutants"; shift 2 ;;
    --variant) VARIANT="${2:-}"; [ -f "$HERE/variants/$VARIANT.patch" ] || die "no variant '$VARIANT' in sw/linux/variants"; shift 2 ;;
    --config) CONFIG_NAME="${2:-}"; [[ "$CONFIG_NAME" =~ ^[a-z0-9-]+$ ]] && [ -f "$HERE/config/$CONFIG_NAME.config" ] ||
                die "--config NAME: one of sw/linux/config's fragments (not shootdown or port), not '$CONFIG_NAME'"
              case "$CONFIG_NAME" in shootdown|port) die "--config $CONFIG_NAME: that fragment is always merged" ;; esac
              shift 2 ;;
    --build) BUILD_N="${2:-}"; [[ "$BUILD_N" =~ ^[1-9][0-9]?$ ]] || die "--build N: a build number from 1 to 99, not '$BUILD_N'"; shift 2 ;;
    *) die "$usage, not '$*'" ;;
  esac
done
if [ -n "$MUTANT" ] || [ -n "$VARIANT" ]; then
  [ "$FLAVOR" = port ] && [ -z "$MUTANT" -o -z "$VARIANT" ] || die "$usage"
fi
# the patch after the series and measure/, if any
EXTRA=""
if [ -n "$MUTANT" ]; then FLAVOR="port-mutant-$MUTANT"; EXTRA="$HERE/mutants/$MUTANT.patch"; fi
if [ -n "$VARIANT" ]; then FLAVOR="port-variant-$VARIANT"; EXTRA="$HERE/variants/$VARIANT.patch"; fi
KNAME=$FLAVOR${CONFIG_NAME:+-$CONFIG_NAME}  # the cache entry's name
if [ -n "$MODE" ]; then KNAME+=-$MODE; fi
if [ "$BUILD_N" != 1 ]; then KNAME+=-b$BUILD_N; fi
source "$HERE/UPSTREAM"
CROSS=riscv64-linux-gnu-
FS_UUID=5b1dc0de-71b5-4d00-8000-000000000000

SERIES_INPUTS=("$HERE/UPSTREAM" "$HERE/measure")
FRAGMENTS=("$HERE/config/shootdown.config")
if [ "$FLAVOR" != stock ]; then
  SERIES_INPUTS+=("$HERE/series" "$HERE/patches" ${EXTRA:+"$EXTRA"})
  FRAGMENTS+=("$HERE/config/port.config")
fi
if [ -n "$CONFIG_NAME" ]; then FRAGMENTS+=("$HERE/config/$CONFIG_NAME.config"); fi
KEY=$(printf '%s %s %s %s' "$KNAME" "$BENCH_LIST" "$(hash_inputs "${SERIES_INPUTS[@]}" "${FRAGMENTS[@]}" "$HERE/init" \
  "$HERE/build.sh" "$HERE/sparse_image.py" "$ROOT/sw/include/finisher.h" < /dev/null)" "$(${CROSS}gcc --version | head -1)" | sha256sum | cut -c1-16)
KDIR="$CACHE/linux/$KNAME-$KEY"
if [ -f "$KDIR/Image" ]; then echo "$KDIR/Image"; exit 0; fi

# One build at a time: the trees and object directories are shared.
mkdir -p "$BUILD/linux"
exec 9> "$BUILD/linux/.lock"
flock 9
if [ -f "$KDIR/Image" ]; then echo "$KDIR/Image"; exit 0; fi

TARBALL="$("$ROOT/scripts/fetch-upstream.sh" "$HERE")"
SRC="$BUILD/linux/src-$FLAVOR"
STAMP="$(hash_inputs "${SERIES_INPUTS[@]}" < /dev/null)"
if [ "$(cat "$SRC/.series-stamp" 2>/dev/null)" != "$STAMP" ]; then
  step "unpacking $(basename "$TARBALL") ($FLAVOR tree, about a minute)"
  rm -rf "$SRC" && mkdir -p "$SRC"
  tar -xJf "$TARBALL" -C "$SRC" --strip-components=1
  if [ "$FLAVOR" != stock ]; then
    { grep -v '^\s*\(#\|$\)' "$HERE/series" || true; } | while read -r p; do
      echo "    $p" >&2
      patch -d "$SRC" -p1 -s --no-backup-if-mismatch < "$HERE/patches/$p" || die "patch $p does not apply"
    done
  fi
  for p in "$HERE"/measure/*.patch; do
    patch -d "$SRC" -p1 -s --no-backup-if-mismatch < "$p" || die "measurement patch $(basename "$p") does not apply"
  done
  if [ -n "$EXTRA" ]; then
    patch -d "$SRC" -p1 -s --no-backup-if-mismatch < "$EXTRA" || die "$(basename "$EXTRA") does not apply"
  fi
  echo "$STAMP" > "$SRC/.series-stamp"
fi

OBJ="$BUILD/linux/obj-$FLAVOR${CONFIG_NAME:+-$CONFIG_NAME}"
mkdir -p "$OBJ/initramfs"
# Reproducible: the same inputs give the same Image, byte for byte, on any
# machine and in any tree. Without these the kernel embeds its build's date,
# user, host and a count of the builds in its object tree (init/version-
# timestamp.c), and the initramfs its files' times (usr/gen_initramfs.sh -d);
# a rebuild moved the benchmarks' results by more than their spread
# (docs/evaluation.md, "The build effect").
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 1970" KBUILD_BUILD_USER=tlb KBUILD_BUILD_HOST=shootdown \
  KBUILD_BUILD_VERSION=1
if [ "$BUILD_N" != 1 ]; then export KBUILD_BUILD_HOST=shootdown-b$BUILD_N KBUILD_BUILD_VERSION=$BUILD_N; fi
kmake() { make -C "$SRC" O="$OBJ" ARCH=riscv CROSS_COMPILE="$CROSS" "$@"; }

step "building /init against the tree's nolibc"
run_logged "$BUILD/logs/linux-$KNAME-headers.log" kmake -s headers_install INSTALL_HDR_PATH="$OBJ/usr-headers"
${CROSS}gcc -march=rv64imac_zicsr_zifencei -mabi=lp64 -Os -static -nostdlib -fno-asynchronous-unwind-tables \
  -Wall -Wextra -Werror -include "$SRC/tools/include/nolibc/nolibc.h" -I "$OBJ/usr-headers/include" -I "$ROOT/sw/include" \
  -o "$OBJ/initramfs/init" "$HERE"/init/*.c -lgcc
# The reclaim workload's file system: an empty ext2 for the 4 MiB RAM disk,
# kept sparse (its non-zero 4 KiB blocks as "8-byte block number, block"
# records, which /init writes onto /dev/ram0; brd starts zeroed).
rm -f "$OBJ/fs.raw"
PATH="$PATH:/sbin:/usr/sbin" E2FSPROGS_FAKE_TIME=1 mke2fs -q -F -t ext2 -b 4096 -m 0 -N 16 -U "$FS_UUID" -E "hash_seed=$FS_UUID" \
  "$OBJ/fs.raw" 4M >&2 || die "mke2fs failed"
python3 "$HERE/sparse_image.py" "$OBJ/fs.raw" "$OBJ/initramfs/fs.img"
sed -e "s|@INIT@|$OBJ/initramfs/init|" -e "s|@FSIMG@|$OBJ/initramfs/fs.img|" "$HERE/init/initramfs.list" \
  > "$OBJ/initramfs.list"
if [ -n "$MODE" ]; then
  printf '%s' "$BENCH_LIST" > "$OBJ/initramfs/$MODE"
  echo "file /$MODE $OBJ/initramfs/$MODE 0644 0 0" >> "$OBJ/initramfs.list"
fi

step "configuring and building Linux $VERSION ($KNAME; about 3 min on 2 cores)"
printf 'CONFIG_INITRAMFS_SOURCE="%s"\n' "$OBJ/initramfs.list" > "$OBJ/initramfs.config"
run_logged "$BUILD/logs/linux-$KNAME-config.log" bash -c "
  set -e
  make -C '$SRC' O='$OBJ' ARCH=riscv CROSS_COMPILE=$CROSS tinyconfig
  '$SRC/scripts/kconfig/merge_config.sh' -m -O '$OBJ' '$OBJ/.config' ${FRAGMENTS[*]} '$OBJ/initramfs.config'
  make -C '$SRC' O='$OBJ' ARCH=riscv CROSS_COMPILE=$CROSS olddefconfig"
# Every option of the fragments must have taken (as the last fragment to
# name it sets it, which is what merge_config.sh keeps): a dependency that
# is not met drops an option silently.
while IFS= read -r line; do
  case "$line" in
    CONFIG_*=n) opt="${line%%=*}"; grep -qx "# $opt is not set" "$OBJ/.config" || grep -qx "$opt=n" "$OBJ/.config" ||
                  ! grep -q "^$opt=" "$OBJ/.config" || die "$opt is still set in the kernel config" ;;
    CONFIG_*)   grep -qxF "$line" "$OBJ/.config" || die "'$line' did not take in the kernel config (a dependency missing?)" ;;
  esac
done < <(cat "${FRAGMENTS[@]}" | grep '^CONFIG_' | tac | awk -F= '!seen[$1]++' | tac)
run_logged "$BUILD/logs/linux-$KNAME-build.log" kmake -j"$(nproc)" Image

tmp="$KDIR.tmp.$$"
rm -rf "$tmp" && mkdir -p "$tmp"
cp "$OBJ/arch/riscv/boot/Image" "$OBJ/.config" "$tmp/"
rm -rf "$KDIR" && mv "$tmp" "$KDIR"
prune_cache "$CACHE/linux" "$KNAME-"
echo "$KDIR/Image"
