#!/usr/bin/env bash
# mutants.sh [MUTANT...] : runs the suite on the 2-hart tuned model once
# per debug knob of hw/devices/Mutants.scala (every one unless named; the
# model has them all, `+mutant=NAME` turns one on), and once on the real
# design (row "none", the control) and once per test aid (controls too: an
# aid breaks no rule), two runs at a time, and writes the kill
# matrix to build/results/mutants.md (and .csv): for every mutant and program,
# whether the program's own checks caught it ("arch") and whether the
# co-simulation scoreboard did ("sb", its violations, counted from the
# harness's summary line). A mutant that no column kills, or a control that
# any column does, makes the script exit 1. Long: a few minutes a mutant.
#
# The suite: shootdown_cases.c (every case, bare metal), l2_refill_race.c, the
# litmus tests on the unit's channels (judged against the reference models),
# sbi_shootdown_cases.c under OpenSBI with the project's series, and storm.c
# (a million cycles of random requests from every hart).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# The knob names, from the lists that define them: Mutants.all breaks a rule
# (must be killed), Mutants.aids breaks none (must be clean, like "none").
knobs() {
  sed -n "/val $1: Map/,/)\$/p" hw/devices/Mutants.scala | sed -n 's/^ *"\([a-z0-9-]*\)" *->.*/\1/p'
}
mapfile -t ALL < <(knobs all)
mapfile -t AIDS < <(knobs aids)
[ ${#ALL[@]} -gt 0 ] || die "mutants: found no mutant names in hw/devices/Mutants.scala"
if [ $# -gt 0 ]; then
  for m in "$@"; do
    printf '%s\n' "${ALL[@]}" | grep -qx -- "$m" || die "mutants: unknown mutant '$m' (${ALL[*]})"
  done
  MUTANTS=("$@")
else
  MUTANTS=("${ALL[@]}")
fi
MUTANTS=(none "${MUTANTS[@]}" "${AIDS[@]}")
ALL=(none "${ALL[@]}" "${AIDS[@]}")
is_control() { [ "$1" = none ] || printf '%s\n' "${AIDS[@]}" | grep -qx -- "$1"; }

RESULTS="$BUILD/results/mutants"
mkdir -p "$RESULTS"
SOC="$BUILD/sw/baremetal/soc"
make -s -C sw/baremetal PLATFORM=soc O="$SOC"
make -s -C sw/baremetal PLATFORM=sbi O="$BUILD/sw/baremetal/sbi"
FW="$BUILD/sw/opensbi/sbi_shootdown_cases-unit"
sw/opensbi/build.sh "$BUILD/sw/baremetal/sbi/sbi_shootdown_cases.bin" "$FW" >&2

PROGRAMS=(cases l2race litmus sbi storm)
declare -A ELF=(
  [cases]="$SOC/shootdown_cases.elf"
  [l2race]="$SOC/l2_refill_race.elf"
  [litmus]="$SOC/litmus.elf"
  [sbi]="$FW/fw_payload.elf"
  [storm]="$SOC/storm.elf"
)

# verdict LOG PROGRAM : "arch sb" for one finished run, each "killed",
# "hang" or "-" (survived).
verdict() {
  local log="$1" prog="$2" status arch sb
  status=$(sed -n '1s/^status //p' "$log")
  case "$status" in
    124) arch=hang ;;
    0|71) arch=- ;;
    *) arch=killed ;;
  esac
  if [ "$prog" = litmus ] && [ "$arch" = - ]; then
    python3 tests/litmus/judge.py "$log" > /dev/null 2>&1 || arch=killed
  fi
  local n
  n=$(sed -n 's/^\[sim\] scoreboard: .* \([0-9]*\) violations$/\1/p' "$log" | tail -n 1)
  [ -n "$n" ] || die "mutants: $log has no scoreboard summary (was the model built with the scoreboard?)"
  if [ "$n" -gt 0 ]; then sb="killed($n)"; else sb=-; fi
  echo "$arch $sb"
}

run_one() {  # run_one SIM MUTANT PROGRAM
  local log="$RESULTS/$2-$3.log" status=0 knob=()
  [ "$2" = none ] || knob=("+mutant=$2")
  "$1" "${knob[@]}" +max-cycles=400000000 "${ELF[$3]}" > "$log.tmp" 2>&1 || status=$?
  { echo "status $status"; cat "$log.tmp"; } > "$log"
  rm -f "$log.tmp"
}

# The matrix keeps the rows of mutants not run this time (MUTANTS="a b"
# updates just those rows), in the order of the list.
CSV="$RESULTS/../mutants.csv"
HEADER="mutant,$(IFS=,; for p in "${PROGRAMS[@]}"; do printf '%s-arch,%s-sb,' "$p" "$p"; done)killed"
declare -A ROW=()
if [ -f "$CSV" ] && [ "$(head -n 1 "$CSV")" = "$HEADER" ]; then
  while IFS= read -r line; do ROW[${line%%,*}]="$line"; done < <(tail -n +2 "$CSV")
fi
write_csv() {
  echo "$HEADER" > "$CSV"
  for m in "${ALL[@]}"; do [ -z "${ROW[$m]:-}" ] || echo "${ROW[$m]}" >> "$CSV"; done
}
sim=$(scripts/build-model.sh 2 tuned)
step "running ${PROGRAMS[*]} on ${#MUTANTS[@]} designs (${MUTANTS[*]}), two at a time"
pids=()
for m in "${MUTANTS[@]}"; do
  for p in "${PROGRAMS[@]}"; do
    run_one "$sim" "$m" "$p" &
    pids+=("$!")
    # as soon as either run ends, not the older one: a long litmus run would idle a core
    if [ ${#pids[@]} -eq 2 ]; then wait -n "${pids[@]}" || true; pids=($(jobs -pr)); fi
  done
done
wait
survivors=()
for m in "${MUTANTS[@]}"; do
  row="$m" killed=no
  for p in "${PROGRAMS[@]}"; do
    read -r arch sb < <(verdict "$RESULTS/$m-$p.log" "$p")
    row="$row,$arch,$sb"
    [[ "$arch$sb" = *killed* || "$arch" = hang ]] && killed=yes
  done
  ROW[$m]="$row,$killed"
  echo "  $row" >&2
  if is_control "$m"; then
    [ "$killed" = no ] || survivors+=("$m (a control: the real design fails the suite)")
  else
    [ "$killed" = yes ] || survivors+=("$m")
  fi
done
write_csv

# The matrix as Markdown, for the README.
{
  echo "| mutant | $(for p in "${PROGRAMS[@]}"; do printf '%s: checks | %s: scoreboard | ' "$p" "$p"; done)killed |"
  echo "|---|$(for p in "${PROGRAMS[@]}"; do printf -- '---|---|'; done)---|"
  tail -n +2 "$CSV" | sed 's/^/| /; s/,/ | /g; s/$/ |/'
} > "$RESULTS/../mutants.md"
cat "$RESULTS/../mutants.md"
if [ ${#survivors[@]} -gt 0 ]; then
  echo "mutants: not killed: ${survivors[*]}" >&2
  exit 1
fi
echo "mutants: all $((${#MUTANTS[@]} - 1 - ${#AIDS[@]})) killed, the controls clean (logs in $RESULTS)"
