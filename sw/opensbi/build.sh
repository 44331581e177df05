#!/usr/bin/env bash
# build.sh [--board | --board-sdram | --domains] [--stock | --sbi-only | --mutant NAME | --ceiling N] PAYLOAD.bin OUTDIR : OpenSBI (pinned tarball + our
# series) for the generic platform with PAYLOAD as its S-mode payload. Writes
# OUTDIR/fw_payload.elf (for the Verilator SoC) and OUTDIR/fw_payload.bin (QEMU).
#   default  shootdown_defconfig: the unit's driver, RFENCE by the unit and
#            the batched SBI extension when the device tree has the unit
#   --stock  the same tree with the TLB driver class compiled out: RFENCE
#            takes OpenSBI's own IPI path, as in an unpatched build
#   --sbi-only  the default without supervisor channels: the unit stays
#            M-mode only, and a kernel submits every request by an SBI call
#            of the batched extension (Linux patch 0006 finds no channel)
#   --mutant NAME  --stock with mutants/NAME.patch applied too: a firmware
#            broken (or a device failing) on purpose, which a test must
#            catch (or survive); the default flavour instead (the unit's
#            driver) when the mutant's header has a line "Flavour: unit";
#            a header line "After: OTHER" applies mutants/OTHER.patch first
#            (a firmware that is two things at once)
#   --ceiling N  (default flavour only) the unit's CEILING set to N pages at
#            boot (FDT_TLB_SHOOTDOWN_CEILING): a large N makes the unit do
#            every request as asked, never as a full flush instead, so that
#            a test sees what a kernel's entries alone cover
#   --board  (before the others) laid out for the FPGA boards' 256 KiB of
#            block RAM (docs/fpga.md): the firmware at DRAM_BASE with its
#            heap cut to 24 KiB, so that its read-write region (which PMP
#            protects as one naturally aligned power of two) ends at
#            DRAM_BASE + 192 KiB; the payload there (PLATFORM=sbi-board, up to
#            56 KiB); the device tree at DRAM_BASE + 248 KiB. The device tree
#            is the boards' own (the ULX3S SoC's elaboration) with
#            /chosen/opensbi-config's heap-size, built into the firmware.
#   --board-sdram  (before the others) laid out for the ULX3S's 32 MiB of
#            SDRAM: as on the simulated SoC (the firmware at DRAM_BASE, the
#            payload at + 2 MiB) but the device tree for the payload at
#            DRAM_BASE + 30 MiB, not + 34 MiB; the device tree is the one
#            the boot ROM hands over (the board's elaboration)
#   --domains  (before the others) the 4-hart SoC's device tree with two
#            OpenSBI domains (domains.dts) built into the firmware, and
#            the device tree at DRAM_BASE + 0x3f0000, inside the payload's
#            2 MiB region that both domains share
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../../scripts/lib.sh"
FLAVOR=unit
MUTANT=""
BOARD=""
if [ "${1:-}" = --board ]; then BOARD=-board; shift
elif [ "${1:-}" = --board-sdram ]; then BOARD=-board-sdram; shift
elif [ "${1:-}" = --domains ]; then BOARD=-domains; shift; fi
if [ "${1:-}" = --stock ]; then FLAVOR=stock; shift
elif [ "${1:-}" = --sbi-only ]; then FLAVOR=unit-sbi; shift; fi
CEILING=""
if [ "${1:-}" = --ceiling ]; then
  CEILING="${2:-}"
  [[ "$CEILING" =~ ^[1-9][0-9]{0,8}$ ]] || die "--ceiling takes a number of pages (1 to 999999999), not '$CEILING'"
  [ "$FLAVOR" = unit ] || die "--ceiling sets the unit's ceiling: it goes with the default flavour, not --stock"
  FLAVOR="unit-ceiling$CEILING"
  shift 2
fi
if [ "${1:-}" = --mutant ]; then
  MUTANT="${2:?usage: build.sh --mutant NAME PAYLOAD.bin OUTDIR}"
  [ -f "$HERE/mutants/$MUTANT.patch" ] || die "no mutant '$MUTANT' in sw/opensbi/mutants"
  FLAVOR="mutant-$MUTANT"
  shift 2
fi
# the mutant's patch and those its "After:" lines ask for first, in the order applied
MUTANT_PATCHES=()
m="$MUTANT"
while [ -n "$m" ]; do
  [ ${#MUTANT_PATCHES[@]} -lt 8 ] || die "mutant $MUTANT: its After: lines go round in a circle"
  MUTANT_PATCHES=("$HERE/mutants/$m.patch" ${MUTANT_PATCHES[@]+"${MUTANT_PATCHES[@]}"})
  after="$(sed -n 's/^After: //p' "$HERE/mutants/$m.patch" | head -1)"
  [ -z "$after" ] || [ -f "$HERE/mutants/$after.patch" ] || die "mutant $m is to go after '$after', which is not in sw/opensbi/mutants"
  m="$after"
done
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
STAMP="$(hash_inputs "$HERE/UPSTREAM" "$HERE/series" "$HERE/patches" ${MUTANT_PATCHES[@]+"${MUTANT_PATCHES[@]}"} < /dev/null)"
if [ "$(cat "$SRC/.series-stamp" 2>/dev/null)" != "$STAMP" ]; then
  step "unpacking $TARBALL and applying sw/opensbi/series"
  rm -rf "$SRC" && mkdir -p "$SRC"
  tar -xzf "$TARBALL" -C "$SRC" --strip-components=1
  { grep -v '^\s*\(#\|$\)' "$HERE/series" || true; } | while read -r p; do
    echo "    $p" >&2
    patch -d "$SRC" -p1 -s --no-backup-if-mismatch < "$HERE/patches/$p" || die "patch $p does not apply"
  done
  for p in ${MUTANT_PATCHES[@]+"${MUTANT_PATCHES[@]}"}; do
    patch -d "$SRC" -p1 -s --no-backup-if-mismatch < "$p" || die "mutant $(basename "$p" .patch) does not apply"
  done
  echo "$STAMP" > "$SRC/.series-stamp"
fi

DEFCONFIG=shootdown_defconfig
if [ -n "$CEILING" ]; then
  DEFCONFIG=shootdown_ceiling_defconfig
  { cat "$SRC/platform/generic/configs/shootdown_defconfig"; echo "CONFIG_FDT_TLB_SHOOTDOWN_CEILING=$CEILING"; } \
    > "$SRC/platform/generic/configs/$DEFCONFIG"
elif [ "$FLAVOR" = unit-sbi ]; then
  DEFCONFIG=shootdown_sbi_defconfig
  grep -v '^CONFIG_FDT_TLB_SHOOTDOWN_SUPERVISOR_CHANNELS' "$SRC/platform/generic/configs/shootdown_defconfig" \
    > "$SRC/platform/generic/configs/$DEFCONFIG"
elif [ -n "$MUTANT" ] && grep -qx 'Flavour: unit' "$HERE/mutants/$MUTANT.patch"; then
  DEFCONFIG=shootdown_defconfig
elif [ "$FLAVOR" != unit ]; then
  DEFCONFIG=shootdown_stock_defconfig
  grep -v '^CONFIG_FDT_TLB' "$SRC/platform/generic/configs/shootdown_defconfig" \
    > "$SRC/platform/generic/configs/$DEFCONFIG"
fi

OBJ="$BUILD/opensbi/obj-$FLAVOR$BOARD"
LAYOUT=()
if [ "$BOARD" = -domains ]; then
  DTS="$(VERILOG_ONLY=1 "$ROOT/scripts/build-model.sh" 4 checked)/SimTop.dts"
  DTB="$OBJ/domains.dtb"
  mkdir -p "$OBJ"
  cat "$DTS" "$HERE/domains.dts" | dtc -q -I dts -O dtb -o "$DTB.tmp" - \
    || die "the 4-hart SoC's device tree with sw/opensbi/domains.dts does not compile"
  cmp -s "$DTB.tmp" "$DTB" && rm "$DTB.tmp" || mv "$DTB.tmp" "$DTB"
  LAYOUT=(FW_FDT_PATH="$DTB" FW_PAYLOAD_FDT_OFFSET=0x3f0000)
elif [ "$BOARD" = -board-sdram ]; then
  LAYOUT=(FW_PAYLOAD_FDT_OFFSET=0x1e00000)
elif [ -n "$BOARD" ]; then
  # The boards' memory map (sw/baremetal/Makefile's sbi-board says the same
  # of the payload): heap-size 24 KiB keeps _fw_end + 2 hart stacks + heap
  # below DRAM_BASE + 0x30000.
  DTS="$(VERILOG_ONLY=1 "$ROOT/scripts/build-model.sh" 2 board)/SimTop.dts"
  DTB="$OBJ/board.dtb"
  mkdir -p "$OBJ"
  { cat "$DTS"; printf '/ { chosen { opensbi-config { compatible = "opensbi,config"; heap-size = <0x6000>; }; }; };\n'; } \
    | dtc -q -I dts -O dtb -o "$DTB.tmp" - || die "the boards' device tree does not compile"
  cmp -s "$DTB.tmp" "$DTB" && rm "$DTB.tmp" || mv "$DTB.tmp" "$DTB"
  LAYOUT=(FW_FDT_PATH="$DTB" FW_PAYLOAD_OFFSET=0x30000 FW_PAYLOAD_FDT_OFFSET=0x3e000)
fi
# fw_payload embeds the payload with .incbin, and make judges it by
# timestamps only: a payload older than the last fw_payload.o (built for
# another payload) would not be picked up. Always relink it.
rm -f "$OBJ/platform/generic/firmware/fw_payload"*

mkdir -p "$OUTDIR"
step "building OpenSBI $VERSION ($FLAVOR${BOARD:+, ${BOARD#-} layout}, generic platform) with payload $(basename "$PAYLOAD")"
run_logged "$BUILD/logs/opensbi-$FLAVOR.log" make -C "$SRC" -j"$(nproc)" PLATFORM=generic \
  CROSS_COMPILE=riscv64-linux-gnu- PLATFORM_RISCV_ISA=rv64imac_zicsr_zifencei PLATFORM_RISCV_ABI=lp64 \
  PLATFORM_DEFCONFIG="$DEFCONFIG" \
  O="$OBJ" FW_PAYLOAD_PATH="$PAYLOAD" "${LAYOUT[@]}"
cp "$OBJ/platform/generic/firmware/fw_payload."{elf,bin} "$OUTDIR/"
