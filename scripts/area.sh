#!/usr/bin/env bash
# area.sh OUT.csv : LUTs and flip-flops of the 2-hart SoC (ShootdownSystem:
# harts, caches, buses, CLINT, PLIC, sim devices) with and without the
# shootdown unit and its agents, from yosys synth_xilinx. Slow: several
# minutes per design on 2 cores.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
OUT="${1:?usage: area.sh OUT.csv}"
echo "design,luts,ffs" > "$OUT"
for flavor in base checked; do
  vdir=$(VERILOG_ONLY=1 "$ROOT/scripts/build-model.sh" 2 "$flavor")
  design=$([ "$flavor" = base ] && echo "soc-2hart-without-unit" || echo "soc-2hart-with-unit")
  log="$BUILD/logs/yosys-$design.log"
  # The same Verilog synthesises to the same netlist: a design whose
  # elaboration has not changed (the SoC without the unit, after a change
  # to the unit) reuses the statistics of its last synthesis.
  stat="$CACHE/area/$(yosys -V | tr -c 'A-Za-z0-9.' _ | cut -c1-40)-$(cd "$vdir" && sha256sum -- *.v | sha256sum | cut -c1-16).stat"
  if [ -s "$stat" ]; then
    step "yosys synth_xilinx: $design (its Verilog is unchanged: the statistics of its last synthesis)"
  else
    step "yosys synth_xilinx: $design"
    # Every Verilog file of the elaboration: the black boxes' inline sources
    # (MutantSwitch, ScoreboardProbe) are files of their own, constant or
    # empty without the simulator's defines.
    run_logged "$log" yosys -q -p "read_verilog -DSYNTHESIS $(echo "$vdir"/*.v); \
      synth_xilinx -top ShootdownSystem -flatten; tee -o $log.stat stat"
    mkdir -p "$CACHE/area"
    cp "$log.stat" "$stat.tmp" && mv "$stat.tmp" "$stat"
  fi
  cp "$stat" "$log.stat"
  # LUTs as Vivado counts Slice LUTs: logic plus LUTs used as memory
  # (RAM32M/RAM64M take 4 each, the X1D ones 2, shift registers 1).
  luts=$(awk '/ LUT[1-6] /{s+=$2} / RAM(32|64)M /{s+=4*$2} / RAM(32|64)X1D /{s+=2*$2}
              / SRL(C32|16)E /{s+=$2} END{print s+0}' "$log.stat")
  ffs=$(awk '/ FD[CPRS]E? /{s+=$2} END{print s+0}' "$log.stat")
  echo "$design,$luts,$ffs" >> "$OUT"
done
python3 "$ROOT/scripts/area_table.py" "$OUT"
