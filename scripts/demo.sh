#!/usr/bin/env bash
# demo.sh : the project's headline comparison. An S-mode payload
# (sw/baremetal/programs-sbi/shootdown_demo.c) shoots down batches of 1 to
# 256 pages on 1 or 3 target harts, under stock OpenSBI (paths a, b: SBI
# RFENCE over IPIs) and under OpenSBI with our series (c: RFENCE by the unit,
# d: the batched SBI extension, e: the unit from S-mode), on the checked 2- and
# 4-hart Verilator SoCs; then paths a and b under QEMU as a functional
# cross-check. Prints the table and writes build/results/demo.csv and
# demo.png. A benchmark, not a test: one run, numbers as measured.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

VENV=$("$ROOT/scripts/setup.sh")
RESULTS="$BUILD/results"
mkdir -p "$RESULTS"
make -s -C "$ROOT/sw/baremetal" PLATFORM=sbi O="$BUILD/sw/baremetal/sbi" >&2
BIN="$BUILD/sw/baremetal/sbi/shootdown_demo.bin"
FW="$BUILD/sw/opensbi"
"$ROOT/sw/opensbi/build.sh" --stock "$BIN" "$FW/demo-stock"
"$ROOT/sw/opensbi/build.sh" "$BIN" "$FW/demo-unit"

SOC_RAW="$RESULTS/demo-raw.txt"
QEMU_RAW="$RESULTS/demo-qemu-raw.txt"
: > "$SOC_RAW"
: > "$QEMU_RAW"
for harts in 2 4; do
  sim=$("$ROOT/scripts/build-model.sh" "$harts" checked)
  for fw in stock unit; do
    step "demo on the $harts-hart SoC, $fw OpenSBI (a few minutes)"
    log="$BUILD/logs/demo-soc-$harts-$fw.log"
    "$sim" +max-cycles=3000000000 "$FW/demo-$fw/fw_payload.elf" > "$log" 2>&1 \
      || { tail -n 20 "$log" >&2; die "the demo payload failed on the $harts-hart SoC with $fw OpenSBI (log: $log)"; }
    grep '^DEMO' "$log" >> "$SOC_RAW"
  done
  step "demo on QEMU virt, $harts harts, stock OpenSBI (paths a and b, functional cross-check)"
  log="$BUILD/logs/demo-qemu-$harts.log"
  timeout 900 "$ROOT/scripts/qemu-virt.sh" "$harts" -bios "$FW/demo-stock/fw_payload.bin" < /dev/null > "$log" 2>&1 \
    || { tail -n 20 "$log" >&2; die "the demo payload failed under QEMU with $harts harts (log: $log)"; }
  grep '^DEMO' "$log" >> "$QEMU_RAW"
done
"$VENV/bin/python" "$ROOT/scripts/demo_table.py" "$SOC_RAW" "$QEMU_RAW" "$RESULTS"

step "unit v2 goals (the bench rows come from the last make bench)"
python3 "$ROOT/scripts/goals_table.py" "$RESULTS" "make demo"
