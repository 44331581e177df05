#!/usr/bin/env bash
# build-model.sh HARTS FLAVOR : prints the path of a Verilator model of the
# HARTS-hart SoC, building (and caching) what is missing:
# boot ROM -> elaborated Verilog -> Verilator model.
# With VERILOG_ONLY=1 it stops after the Verilog and prints its directory.
# Flavours (sim/Makefile has the compiler side):
#   checked       Shootdown<N>HartConfig (shootdown unit, no TileLink monitors), with PGO,
#                 the co-simulation scoreboard (sim/scoreboard.h) and the mutant switches:
#                 fast and checking, what the tests, benches and sweeps run
#   debug, naive  Debug<N>HartConfig (shootdown unit, TileLink monitors); debug has the
#                 assertions, the scoreboard and FST tracing (+waves)
#   base          NoUnit<N>HartConfig: no shootdown unit (area and software baseline),
#                 plain (checked without PGO, scoreboard and switches)
#   uart          Uart<N>HartConfig: the FPGA SoC's serial console and its boot ROM, which
#                 loads a program over it (fpga/tools/uartboot.py); plain
#   board         Ulx3sConfig (hw/boards, N = 2): the ULX3S bitstream's SoC, its shrunk
#                 harts, 256 KiB of memory and its UART loader, the serial port at 25
#                 cycles a bit (run it with +uart-bit-cycles=25); plain
#   board-cores   Ulx3sCoresSimConfig (N = 2): the board's shrunk harts on the simulated
#                 SoC's memory and devices; plain
# Checked and debug models have the mutant switches: `sim +mutant=NAME` turns on
# a debug knob that breaks one rule on purpose (hw/testing/Mutants.scala).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

HARTS="${1:?usage: build-model.sh HARTS FLAVOR}"
FLAVOR="${2:?usage: build-model.sh HARTS FLAVOR}"
SIMFLAVOR="$FLAVOR"
case "$FLAVOR" in
  checked)       CONFIG="Shootdown${HARTS}HartConfig" ;;
  debug|naive)   CONFIG="Debug${HARTS}HartConfig" ;;
  base)          CONFIG="NoUnit${HARTS}HartConfig"; SIMFLAVOR=plain ;;
  uart)          CONFIG="Uart${HARTS}HartConfig"; SIMFLAVOR=plain ;;
  board)         CONFIG="Ulx3sConfig"; SIMFLAVOR=plain
                 [ "$HARTS" = 2 ] || die "the board's SoC has 2 harts, not $HARTS" ;;
  board-cores)   CONFIG="Ulx3sCoresSimConfig"; SIMFLAVOR=plain
                 [ "$HARTS" = 2 ] || die "the board's SoC has 2 harts, not $HARTS" ;;
  *) die "unknown model flavour '$FLAVOR' (checked, debug, naive, base, uart, board, board-cores)" ;;
esac
if [ "$FLAVOR" = board ] || [ "$FLAVOR" = board-cores ]; then
  CLASS="shootdown.boards.$CONFIG"
else
  CLASS="$CONFIG"
  grep -q "class $CONFIG " "$ROOT"/hw/configs/*.scala || die "no $HARTS-hart SoC: no config class '$CONFIG' in hw/configs"
fi

# 1. Boot ROM (tiny, always rebuilt by make when its source changes): the
# UART loader for the FPGA SoCs (the board's built for its 256 KiB, as
# fpga/build.sh builds it), else the one that enters DRAM.
if [ "$FLAVOR" = board ]; then
  ROM=$(board_rom ulx3s-bram)  # the block-RAM board's 256 KiB (fpga/build.sh ulx3s-bram)
else
  ROM="$BUILD/bootrom/$([ "$FLAVOR" = uart ] && echo uartboot || echo bootrom).img"
  make -s -C "$ROOT/hw/bootrom" O="$BUILD/bootrom" "$ROM" >&2
fi

# 2. Verilog, keyed by everything elaboration reads (the board's config
# lives outside hw_key's directories).
ELAB_KEY=$(hw_key "$ROM" $([[ "$FLAVOR" = board* ]] && echo "$ROOT/hw/boards"))
VDIR="$CACHE/verilog/$CONFIG-$ELAB_KEY"
if [ ! -d "$VDIR" ]; then
  step "elaborating $CONFIG (Chisel -> Verilog, about 1-3 min, 3-4 GB RAM)"
  elaborate_into "$VDIR" "$BUILD/logs/elaborate-$CONFIG.log" \
    shootdown.soc.Elaborate --config "$CLASS" --bootrom "$ROM"
  prune_cache "$CACHE/verilog" "$CONFIG-"
fi

# VERILOG_ONLY=1: stop here and print the Verilog directory.
if [ "${VERILOG_ONLY:-0}" = 1 ]; then
  echo "$VDIR"
  exit 0
fi

# 3. The model, keyed by the Verilog, the harness and the tool version.
MODEL_KEY=$(printf '%s %s %s %s' "$ELAB_KEY" "$FLAVOR" "$(verilator --version)" \
  "$(hash_inputs "$ROOT/sim" "$ROOT/sw/include/tlb_shootdown_regs.h" "$ROOT/sw/include/finisher.h" < /dev/null)" | sha256sum | cut -c1-16)
MDIR="$CACHE/models/$CONFIG-$FLAVOR-$MODEL_KEY"
if [ ! -x "$MDIR/sim" ]; then
  train=()
  if [ "$FLAVOR" = checked ]; then
    # profile-guided optimisation, trained on bare-metal programs
    make -s -C "$ROOT/sw/baremetal" PLATFORM=soc O="$BUILD/sw/baremetal/soc" >&2
    # (the first 3 M cycles of each: the cases' first requests, not all of them)
    train=(TRAIN="$BUILD/sw/baremetal/soc/hello.elf $BUILD/sw/baremetal/soc/sv39_unmap.elf $BUILD/sw/baremetal/soc/shootdown_cases.elf"
           TRAIN_CYCLES=3000000)
  fi
  step "building the $FLAVOR Verilator model of $CONFIG (about 2-5 min)"
  mkdir -p "$CACHE/models"
  tmp="$MDIR.tmp.$$"
  rm -rf "$tmp"
  run_logged "$BUILD/logs/verilate-$CONFIG-$FLAVOR.log" \
    make -C "$ROOT/sim" VERILOG="$VDIR" OUT="$tmp" FLAVOR="$SIMFLAVOR" "${train[@]}"
  rm -rf "$tmp/obj" "$tmp/profile"
  cp "$VDIR/SimTop.dts" "$tmp/"
  rm -rf "$MDIR" && mv "$tmp" "$MDIR"
  prune_cache "$CACHE/models" "$CONFIG-$FLAVOR-"
fi
echo "$MDIR/sim"
