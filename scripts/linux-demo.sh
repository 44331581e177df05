#!/usr/bin/env bash
# linux-demo.sh [--mutant NAME] [HARTS...] : the Linux workloads
# (sw/linux/init) on the checked Verilator SoC (2 harts unless told), each run
# twice: the stock kernel under stock OpenSBI, and the port under OpenSBI
# with the unit. With --mutant NAME the pair is the port and the port with
# sw/linux/mutants/NAME.patch, both under OpenSBI with the unit: what the
# code the mutant takes out costs (no-nonleaf: the walker-cache flushes of
# NONLEAF entries). The two runs of a SoC go side by side on the two cores.
# Prints the table of scripts/linux_demo_table.py and writes
# build/results/linux-demo[-NAME].csv and .png. A benchmark, not a test:
# one run, numbers as measured. A 2-hart pair takes about 25 min of wall
# time, a 4-hart pair about 45.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

MUTANT=""
if [ "${1:-}" = --mutant ]; then
  MUTANT="${2:-}"
  [ -f "$ROOT/sw/linux/mutants/$MUTANT.patch" ] || die "linux-demo: no kernel mutant '$MUTANT' in sw/linux/mutants"
  shift 2
fi
HARTS=("$@")
[ ${#HARTS[@]} -gt 0 ] || HARTS=(2)
for h in "${HARTS[@]}"; do
  case "$h" in 2|4) ;; *) die "linux-demo: HARTS must be 2 or 4, not '$h'" ;; esac
done
VENV=$("$ROOT/scripts/setup.sh")
RESULTS="$BUILD/results"
mkdir -p "$RESULTS" "$BUILD/logs"

# stock kernel + stock OpenSBI (or the port with the mutant + OpenSBI with
# the unit); the port + OpenSBI with the unit
if [ -n "$MUTANT" ]; then KERNELS=("$MUTANT" port); else KERNELS=(stock port); fi
declare -A FW
for k in "${KERNELS[@]}"; do
  case $k in
    stock) kflags=(--stock) ;;
    port) kflags=() ;;
    *) kflags=(--mutant "$k") ;;
  esac
  image=$("$ROOT/sw/linux/build.sh" "${kflags[@]}")
  FW[$k]="$BUILD/sw/opensbi/linux-demo-$k"
  "$ROOT/sw/opensbi/build.sh" $([ $k = stock ] && echo --stock) "$image" "${FW[$k]}"
done

logs=()
for h in "${HARTS[@]}"; do
  sim=$("$ROOT/scripts/build-model.sh" "$h" checked)
  step "the workloads on the $h-hart SoC, ${KERNELS[0]} and ${KERNELS[1]} side by side (25-45 min)"
  pids=()
  for k in "${KERNELS[@]}"; do
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
