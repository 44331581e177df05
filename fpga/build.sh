#!/usr/bin/env bash
# fpga/build.sh BOARD : the SoC for an FPGA board, as far as this machine can
# take it; prints its progress and writes under build/fpga/BOARD/.
#   ulx3s         Ulx3sConfig, Lattice ECP5-85F: FpgaTop and the board top
#                 (fpga/ulx3s/top.v) through yosys synth_ecp5: a utilisation
#                 estimate (place and route and the bitstream are to come)
#   arty-a7-100t  ArtyA7Config, Xilinx XC7A100T: the same through yosys
#                 synth_xilinx; the bitstream needs Vivado
#                 (fpga/arty-a7-100t/build.tcl, which takes the Verilog
#                 directory this prints)
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"

BOARD="${1:?usage: fpga/build.sh BOARD (ulx3s, arty-a7-100t)}"
case "$BOARD" in
  ulx3s)        CONFIG=Ulx3sConfig;  TOP=ulx3s_top; FAMILY=ecp5;   SYNTH="synth_ecp5 -top $TOP" ;;
  arty-a7-100t) CONFIG=ArtyA7Config; TOP=arty_top;  FAMILY=xilinx; SYNTH="synth_xilinx -top $TOP -flatten" ;;
  *) die "unknown board '$BOARD' (ulx3s, arty-a7-100t)" ;;
esac
DRAM_SIZE=0x40000  # the configs' block RAM: 256 KiB
OUT="$BUILD/fpga/$BOARD"
mkdir -p "$OUT"
"$ROOT/scripts/setup.sh" > /dev/null

# 1. The boot ROM for the board's memory, then FpgaTop's Verilog.
ROMDIR="$BUILD/bootrom/$BOARD"
make -s -C "$ROOT/hw/bootrom" O="$ROMDIR" DRAM_SIZE="$DRAM_SIZE" "$ROMDIR/uartboot.img" >&2
VDIR="$CACHE/verilog/$CONFIG-FpgaTop-$(hw_key "$ROMDIR/uartboot.img")"
if [ ! -d "$VDIR" ]; then
  step "elaborating $CONFIG (FpgaTop; about 2 min)"
  elaborate_into "$VDIR" "$BUILD/logs/elaborate-$CONFIG.log" \
    shootdown.soc.Elaborate --config "$CONFIG" --bootrom "$ROMDIR/uartboot.img" --top FpgaTop
  prune_cache "$CACHE/verilog" "$CONFIG-FpgaTop-"
fi
echo "FpgaTop Verilog: $VDIR" >&2

# 2. Synthesis of the board top: utilisation before place and route.
step "yosys $SYNTH (some minutes, one core)"
start=$SECONDS
yosys -q -l "$OUT/synth.log" -p "read_verilog -DSYNTHESIS $(ls "$VDIR"/*.v | tr '\n' ' ') $ROOT/fpga/$BOARD/top.v $ROOT/fpga/common/board_reset.v; \
  $SYNTH -json $OUT/$TOP.json; tee -q -o $OUT/synth.stat stat" || die "yosys failed (log: $OUT/synth.log)"
echo "    done in $((SECONDS - start)) s" >&2
python3 "$ROOT/fpga/utilisation.py" "$OUT/synth.stat" "$TOP" "$FAMILY" | tee "$OUT/utilisation.txt"
