#!/usr/bin/env bash
# fpga/sim/build.sh ulx3s|ulx3s-bram : prints the path of a Verilator
# model of the exact ULX3S board top (fpga/ulx3s/top_sdram.v with the
# generated SDRAM controller and the chip's model on the board's wires,
# fpga/sim/ulx3s_sdram_board.sv, or top.v for the block-RAM build; fpga/common/board_reset.v and FpgaTop as
# fpga/build.sh elaborates it for the bitstream, with -DSYNTHESIS as yosys
# reads them; the PLL's header fpga/build.sh computed), the ECP5 primitives
# by fpga/sim/ecp5_stubs.v, driven at its pins by fpga/sim/board_main.cpp
# (the SDRAM board's JTAG port too, by fpga/sim/jtag_bitbang.cpp).
# --savable: its runs can be checkpointed and restored (+checkpoint,
# +restore). Built (cached) if needed.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../../scripts/lib.sh"
BOARD="${1:-}"
case "$BOARD" in
  ulx3s-bram) TOPMOD=ulx3s_top TOPS="$ROOT/fpga/ulx3s/top.v $ROOT/fpga/ulx3s/pll.v" DEFINES="" HOST="" ;;
  ulx3s) TOPMOD=ulx3s_sdram_board DEFINES="-CFLAGS -DSDRAM -CFLAGS -DJTAG"
         TOPS="$ROOT/fpga/ulx3s/top_sdram.v $ROOT/fpga/ulx3s/pll.v $ROOT/fpga/sim/sdr_sdram.sv $ROOT/fpga/sim/ulx3s_sdram_board.sv"
         # +load: the SoC simulator's ELF loader, into the chip's model
         HOST="$ROOT/fpga/sim/sdram_preload.cpp $ROOT/sim/elf_loader.cpp $ROOT/sim/axi_mem.cpp" ;;
  *) die "usage: fpga/sim/build.sh ulx3s|ulx3s-bram (the boards whose top is simulated), not '$BOARD'" ;;
esac
mapfile -t VERILOG < <(VERILOG_ONLY=1 "$ROOT/fpga/build.sh" "$BOARD")
VDIR="${VERILOG[0]}"
PLL="${VERILOG[1]}"
GENERATED=("${VERILOG[@]:2}")
# The model's key: what Verilator reads, and this script with its options
# (stored in every checkpoint, which only a model of the same key
# restores); the build's adds the harness it is compiled with, so that a
# harness edit rebuilds without orphaning checkpoints.
MODEL_KEY=$(printf '%s %s %s %s' "$(basename "$VDIR")" "$(verilator --version)" \
  "$(for f in "${GENERATED[@]}"; do basename "$(dirname "$f")"; done)" \
  "$(hash_inputs "$ROOT/fpga/ulx3s" "$ROOT/fpga/common" "$ROOT/fpga/ecp5_pll.py" "$HERE/build.sh" \
     $(find "$ROOT/fpga/sim" -maxdepth 1 \( -name '*.v' -o -name '*.sv' \) | LC_ALL=C sort) < /dev/null)" \
  | sha256sum | cut -c1-16)
KEY=$(printf '%s %s' "$MODEL_KEY" "$(hash_inputs "$ROOT/fpga/sim" $(board_host_inputs) < /dev/null)" \
  | sha256sum | cut -c1-16)
OUT="$CACHE/board-sim/$BOARD-$KEY"
cached_or_lock "$OUT/board-sim" "$CACHE/board-sim/.lock"
step "building the exact $BOARD board top's Verilator model (about 3 min)"
rm -rf "$OUT.tmp" && mkdir -p "$OUT.tmp"
cp "$PLL" "$OUT.tmp/pll_params.vh"
printf '#include "V%s.h"\n#define VTOP V%s\n#define BOARD_SIM_KEY "%s"\n' "$TOPMOD" "$TOPMOD" "$BOARD-$MODEL_KEY" \
  > "$OUT.tmp/vtop.h"
echo "$BOARD-$MODEL_KEY" > "$OUT.tmp/model-key"  # board_run.checkpoint_for's
VFILES=$(find "$VDIR" -maxdepth 1 \( -name '*.v' -o -name '*.sv' \) | LC_ALL=C sort)
run_logged "$BUILD/logs/board-sim-$BOARD.log" verilator --cc --exe --build --no-timing -Wno-fatal -Wno-lint \
  -Wno-style -O3 --savable --x-assign fast --x-initial fast --noassert +define+SYNTHESIS --top-module "$TOPMOD" \
  -I"$OUT.tmp" -Mdir "$OUT.tmp/obj" -o "$OUT.tmp/board-sim" -j "$(nproc)" \
  -CFLAGS "-std=c++17 -I$ROOT/sim -I$OUT.tmp" $DEFINES \
  "$ROOT/fpga/sim/ecp5_stubs.v" "$ROOT/fpga/common/board_reset.v" "$ROOT/fpga/common/status_leds.v" $TOPS \
  $VFILES "${GENERATED[@]}" \
  "$ROOT/fpga/sim/board_main.cpp" "$ROOT/fpga/sim/jtag_bitbang.cpp" "$ROOT/sim/uart_bridge.cpp" $HOST
rm -rf "$OUT.tmp/obj"
rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
prune_cache "$CACHE/board-sim" "$BOARD-"
echo "$OUT/board-sim"
