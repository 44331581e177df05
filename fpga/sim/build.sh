#!/usr/bin/env bash
# fpga/sim/build.sh ulx3s : prints the path of a Verilator model of the
# exact ULX3S board top (fpga/ulx3s/top.v, fpga/common/board_reset.v and
# FpgaTop as fpga/build.sh elaborates it for the bitstream, with
# -DSYNTHESIS as yosys reads them; the PLL's header from the same clock),
# the ECP5 primitives by fpga/sim/ecp5_stubs.v, driven at its pins by
# fpga/sim/board_main.cpp. Built (cached) if needed.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../../scripts/lib.sh"
BOARD="${1:-}"
[ "$BOARD" = ulx3s ] || die "usage: fpga/sim/build.sh ulx3s (the only board whose top is simulated yet)"
VDIR=$(VERILOG_ONLY=1 "$ROOT/fpga/build.sh" "$BOARD")
KEY=$(printf '%s %s %s' "$(basename "$VDIR")" "$(verilator --version)" \
  "$(hash_inputs "$ROOT/fpga/ulx3s" "$ROOT/fpga/common" "$ROOT/fpga/sim" "$ROOT/fpga/ecp5_pll.py" \
     "$ROOT/sim/uart_bridge.h" "$ROOT/sim/uart_bridge.cpp" < /dev/null)" | sha256sum | cut -c1-16)
OUT="$CACHE/board-sim/$BOARD-$KEY"
if [ -x "$OUT/board-sim" ]; then echo "$OUT/board-sim"; exit 0; fi
mkdir -p "$CACHE/board-sim"
exec 9> "$CACHE/board-sim/.lock"
flock 9
if [ -x "$OUT/board-sim" ]; then echo "$OUT/board-sim"; exit 0; fi
step "building the exact $BOARD board top's Verilator model (about 3 min)"
rm -rf "$OUT.tmp" && mkdir -p "$OUT.tmp"
HZ=$(python3 "$ROOT/fpga/ecp5_pll.py" --clock-of "$VDIR/FpgaTop.dts")
python3 "$ROOT/fpga/ecp5_pll.py" 25000000 "$HZ" > "$OUT.tmp/pll_params.vh"
VFILES=$(find "$VDIR" -maxdepth 1 \( -name '*.v' -o -name '*.sv' \) | LC_ALL=C sort)
run_logged "$BUILD/logs/board-sim-$BOARD.log" verilator --cc --exe --build --no-timing -Wno-fatal -Wno-lint \
  -Wno-style -O3 --x-assign fast --x-initial fast --noassert +define+SYNTHESIS --top-module ulx3s_top \
  -I"$OUT.tmp" -Mdir "$OUT.tmp/obj" -o "$OUT.tmp/board-sim" -j "$(nproc)" -CFLAGS "-std=c++17 -I$ROOT/sim" \
  "$ROOT/fpga/sim/ecp5_stubs.v" "$ROOT/fpga/common/board_reset.v" "$ROOT/fpga/ulx3s/top.v" $VFILES \
  "$ROOT/fpga/sim/board_main.cpp" "$ROOT/sim/uart_bridge.cpp"
rm -rf "$OUT.tmp/obj"
rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
prune_cache "$CACHE/board-sim" "$BOARD-"
echo "$OUT/board-sim"
