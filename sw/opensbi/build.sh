#!/usr/bin/env bash
# build.sh PAYLOAD.bin OUTDIR : OpenSBI (pinned tarball + our series) for the
# generic platform with PAYLOAD as its S-mode payload. Writes
# OUTDIR/fw_payload.elf (for the Verilator SoC) and OUTDIR/fw_payload.bin (QEMU).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../../scripts/lib.sh"
PAYLOAD="$(realpath "${1:?usage: build.sh PAYLOAD.bin OUTDIR}")"
OUTDIR="${2:?usage: build.sh PAYLOAD.bin OUTDIR}"
[ -f "$PAYLOAD" ] || die "payload '$PAYLOAD' does not exist"
source "$HERE/UPSTREAM"

TARBALL="$("$ROOT/scripts/fetch-upstream.sh" "$HERE")"
SRC="$BUILD/opensbi/src"
STAMP="$(hash_inputs "$HERE/UPSTREAM" "$HERE/series" "$HERE/patches" < /dev/null)"
if [ "$(cat "$SRC/.series-stamp" 2>/dev/null)" != "$STAMP" ]; then
  step "unpacking $TARBALL and applying sw/opensbi/series"
  rm -rf "$SRC" && mkdir -p "$SRC"
  tar -xzf "$TARBALL" -C "$SRC" --strip-components=1
  { grep -v '^\s*\(#\|$\)' "$HERE/series" || true; } | while read -r p; do
    echo "    $p" >&2
    patch -d "$SRC" -p1 -s --no-backup-if-mismatch < "$HERE/patches/$p" || die "patch $p does not apply"
  done
  echo "$STAMP" > "$SRC/.series-stamp"
fi

mkdir -p "$OUTDIR"
step "building OpenSBI $VERSION (generic platform) with payload $(basename "$PAYLOAD")"
run_logged "$BUILD/logs/opensbi.log" make -C "$SRC" -j"$(nproc)" PLATFORM=generic \
  CROSS_COMPILE=riscv64-linux-gnu- PLATFORM_RISCV_ISA=rv64imac_zicsr_zifencei PLATFORM_RISCV_ABI=lp64 \
  PLATFORM_DEFCONFIG=shootdown_defconfig \
  O="$BUILD/opensbi/obj" FW_PAYLOAD_PATH="$PAYLOAD"
cp "$BUILD/opensbi/obj/platform/generic/firmware/fw_payload."{elf,bin} "$OUTDIR/"
