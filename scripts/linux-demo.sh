#!/usr/bin/env bash
# linux-demo.sh [HARTS...] : the Linux workloads (sw/linux/init) on the
# tuned Verilator SoC (2 harts unless told), each run twice: the stock
# kernel under stock OpenSBI, and the port under OpenSBI with the unit. The
# two runs of a SoC go side by side on the two cores. Prints the table of
# scripts/linux_demo_table.py and writes build/results/linux-demo.csv and
# linux-demo.png. A benchmark, not a test: one run, numbers as measured.
# A 2-hart pair takes about 15 min of wall time, a 4-hart pair about 30.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

HARTS=("$@")
[ ${#HARTS[@]} -gt 0 ] || HARTS=(2)
for h in "${HARTS[@]}"; do
  case "$h" in 2|4) ;; *) die "linux-demo: HARTS must be 2 or 4, not '$h'" ;; esac
done
VENV=$("$ROOT/scripts/setup.sh")
RESULTS="$BUILD/results"
mkdir -p "$RESULTS" "$BUILD/logs"

# stock kernel + stock OpenSBI; the port + OpenSBI with the unit
declare -A FW
for k in stock port; do
  image=$("$ROOT/sw/linux/build.sh" $([ $k = stock ] && echo --stock))
  FW[$k]="$BUILD/sw/opensbi/linux-demo-$k"
  "$ROOT/sw/opensbi/build.sh" $([ $k = stock ] && echo --stock) "$image" "${FW[$k]}"
done

logs=()
for h in "${HARTS[@]}"; do
  sim=$("$ROOT/scripts/build-model.sh" "$h" tuned)
  step "the workloads on the $h-hart SoC, stock and port side by side (15-30 min)"
  pids=()
  for k in stock port; do
    log="$BUILD/logs/linux-demo-$h-$k.log"
    logs+=("$log")
    "$sim" +timestamps +max-cycles=3000000000 "${FW[$k]}/fw_payload.elf" > "$log" 2>&1 &
    pids+=($!)
  done
  for i in 0 1; do
    wait "${pids[$i]}" || { tail -n 20 "${logs[-2 + i]}" >&2; die "a run failed on the $h-hart SoC (log: ${logs[-2 + i]})"; }
  done
done
"$VENV/bin/python" "$ROOT/scripts/linux_demo_table.py" "$RESULTS" "${logs[@]}"
