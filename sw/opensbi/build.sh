#!/usr/bin/env bash
# build.sh [--stock | --mutant NAME] PAYLOAD.bin OUTDIR : OpenSBI (pinned tarball + our
# series) for the generic platform with PAYLOAD as its S-mode payload. Writes
# OUTDIR/fw_payload.elf (for the Verilator SoC) and OUTDIR/fw_payload.bin (QEMU).
#   default  shootdown_defconfig: the unit's driver, RFENCE by the unit and
#            the batched SBI extension when the device tree has the unit
#   --stock  the same tree with the TLB driver class compiled out: RFENCE
#            takes OpenSBI's own IPI path, as in an unpatched build
#   --mutant NAME  --stock with mutants/NAME.patch applied too: a firmware
#            broken (or a device failing) on purpose, which a test must
#            catch (or survive)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../../scripts/lib.sh"
FLAVOR=unit
MUTANT=""
if [ "${1:-}" = --stock ]; then FLAVOR=stock; shift; fi
if [ "${1:-}" = --mutant ]; then
  MUTANT="${2:?usage: build.sh --mutant NAME PAYLOAD.bin OUTDIR}"
  [ -f "$HERE/mutants/$MUTANT.patch" ] || die "no mutant '$MUTANT' in sw/opensbi/mutants"
  FLAVOR="mutant-$MUTANT"
  shift 2
fi
PAYLOAD="$(realpath "${1:?usage: build.sh [--stock] PAYLOAD.bin OUTDIR}")"
OUTDIR="${2:?usage: build.sh [--stock] PAYLOAD.bin OUTDIR}"
[ -f "$PAYLOAD" ] || die "payload '$PAYLOAD' does not exist"
source "$HERE/UPSTREAM"

# One build at a time: the source tree and object directories are shared
# (the tests build several firmwares in parallel).
mkdir -p "$BUILD/opensbi"
exec 9> "$BUILD/opensbi/.lock"
flock 9

TARBALL="$("$ROOT/scripts/fetch-upstream.sh" "$HERE")"
SRC="$BUILD/opensbi/src${MUTANT:+-$FLAVOR}"
STAMP="$(hash_inputs "$HERE/UPSTREAM" "$HERE/series" "$HERE/patches" ${MUTANT:+"$HERE/mutants/$MUTANT.patch"} < /dev/null)"
if [ "$(cat "$SRC/.series-stamp" 2>/dev/null)" != "$STAMP" ]; then
  step "unpacking $TARBALL and applying sw/opensbi/series"
  rm -rf "$SRC" && mkdir -p "$SRC"
  tar -xzf "$TARBALL" -C "$SRC" --strip-components=1
  { grep -v '^\s*\(#\|$\)' "$HERE/series" || true; } | while read -r p; do
    echo "    $p" >&2
    patch -d "$SRC" -p1 -s --no-backup-if-mismatch < "$HERE/patches/$p" || die "patch $p does not apply"
  done
  if [ -n "$MUTANT" ]; then
    patch -d "$SRC" -p1 -s --no-backup-if-mismatch < "$HERE/mutants/$MUTANT.patch" || die "mutant $MUTANT does not apply"
  fi
  echo "$STAMP" > "$SRC/.series-stamp"
fi

DEFCONFIG=shootdown_defconfig
if [ "$FLAVOR" != unit ]; then
  DEFCONFIG=shootdown_stock_defconfig
  grep -v '^CONFIG_FDT_TLB' "$SRC/platform/generic/configs/shootdown_defconfig" \
    > "$SRC/platform/generic/configs/$DEFCONFIG"
fi

OBJ="$BUILD/opensbi/obj-$FLAVOR"
# fw_payload embeds the payload with .incbin, and make judges it by
# timestamps only: a payload older than the last fw_payload.o (built for
# another payload) would not be picked up. Always relink it.
rm -f "$OBJ/platform/generic/firmware/fw_payload"*

mkdir -p "$OUTDIR"
step "building OpenSBI $VERSION ($FLAVOR, generic platform) with payload $(basename "$PAYLOAD")"
run_logged "$BUILD/logs/opensbi-$FLAVOR.log" make -C "$SRC" -j"$(nproc)" PLATFORM=generic \
  CROSS_COMPILE=riscv64-linux-gnu- PLATFORM_RISCV_ISA=rv64imac_zicsr_zifencei PLATFORM_RISCV_ABI=lp64 \
  PLATFORM_DEFCONFIG="$DEFCONFIG" \
  O="$OBJ" FW_PAYLOAD_PATH="$PAYLOAD"
cp "$OBJ/platform/generic/firmware/fw_payload."{elf,bin} "$OUTDIR/"
