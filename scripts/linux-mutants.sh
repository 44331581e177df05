#!/usr/bin/env bash
# linux-mutants.sh [NAME...] : every kernel mutant of sw/linux/mutants (or
# those named), each a port broken on purpose, run as make test's Linux run
# on the 2-hart checked SoC (the quick workloads, firmware with the unit's
# CEILING above any request) and judged: a mutant is killed when /init
# fails the run and the workload the mutant names in its "Caught by:" line
# counted what it checks for. Writes build/results/linux-mutants.md. Each
# mutant is a full kernel build plus up to 15 min of simulation.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

MUTANTS=("$@")
if [ ${#MUTANTS[@]} = 0 ]; then
  for f in sw/linux/mutants/*.patch; do MUTANTS+=("$(basename "$f" .patch)"); done
fi
VENV=$("$ROOT/scripts/setup.sh")
RESULTS="$BUILD/results"
mkdir -p "$RESULTS" "$BUILD/logs"
sim=$("$ROOT/scripts/build-model.sh" 2 checked)
out="$RESULTS/linux-mutants.md"
{
  echo "# Kernel mutants on the 2-hart SoC"
  echo
  python3 "$ROOT/scripts/results/stamp.py" "make linux-mutants"
  echo
  echo "| mutant | exit | verdict | what the workload counted |"
  echo "|---|---|---|---|"
} > "$out.tmp"
for m in "${MUTANTS[@]}"; do
  [ -f "sw/linux/mutants/$m.patch" ] || die "no kernel mutant '$m' in sw/linux/mutants"
  image=$(sw/linux/build.sh --quick --mutant "$m")
  fw="$BUILD/sw/opensbi/linux-mutant-$m"
  # the ceiling of make test's Linux run (scripts/builds.py, CEILING_ABOVE_ANY_REQUEST)
  sw/opensbi/build.sh --ceiling 1048576 "$image" "$fw"
  log="$BUILD/logs/linux-mutant-$m.log"
  step "kernel mutant $m on the 2-hart SoC"
  status=0
  "$sim" +max-cycles=300000000 "$fw/fw_payload.elf" > "$log" 2>&1 || status=$?
  "$VENV/bin/python" "$ROOT/scripts/linux_mutant_verdict.py" "$m" "$status" "$log" >> "$out.tmp"
done
mv "$out.tmp" "$out"
cat "$out"
! grep -q '| survived\|| error' "$out"
