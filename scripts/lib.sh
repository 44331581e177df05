# Shared shell helpers for the build scripts. Source it; do not run it.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Built artefacts that outlive a work tree (Verilog, models, downloads),
# keyed by a hash of their inputs so a clean clone reuses them.
CACHE="${SHOOTDOWN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tlb-shootdown}"
BUILD="${BUILD:-$ROOT/build}"

step() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# hash_inputs FILE|DIR... : one sha256 over the names and contents of the
# files, in a stable order. A missing path counts as an empty directory (git
# does not keep empty ones, so a clone lacks what a work tree may have).
hash_inputs() {
  local f
  for f in "$@"; do
    if [ -d "$f" ]; then find "$f" -type f ! -name '*.pyc' | LC_ALL=C sort; elif [ -e "$f" ]; then echo "$f"; fi
  done | while read -r f; do
    # Paths as seen from the tree, BUILD's as if it were ROOT/build, so
    # that keys do not depend on where a clone or its BUILD lives.
    local name="$f"
    case "$f" in "$BUILD"/*) name="build/${f#"$BUILD"/}" ;; esac
    printf '%s\n' "${name#"$ROOT"/}"
    sha256sum < "$f"
  done | sha256sum | cut -c1-16
}

# Runs a long command with its output in a log; shows the tail on failure.
run_logged() {
  local log="$1"; shift
  local start=$SECONDS
  mkdir -p "$(dirname "$log")"
  if ! "$@" > "$log" 2>&1; then
    tail -n 40 "$log" >&2
    die "failed after $((SECONDS - start)) s: $* (full log: $log)"
  fi
  printf '    done in %d s\n' "$((SECONDS - start))" >&2
}

# prune_cache DIR PREFIX : keeps the 3 newest entries DIR/PREFIX<key>.
prune_cache() {
  local old
  # PREFIX then a 16-digit key and nothing else.
  old=$(find "$1" -maxdepth 1 -regextype posix-extended -regex ".*/$2[0-9a-f]{16}" -printf '%T@ %p\n' |
    sort -rn | tail -n +4 | cut -d' ' -f2-)
  [ -z "$old" ] || rm -rf $old
}

# cached_or_lock PATH LOCK : if PATH exists, prints it and ends the script;
# else takes LOCK (held until the script ends: one build at a time) and
# looks again, for a build that finished while this one waited.
cached_or_lock() {
  if [ -e "$1" ]; then echo "$1"; exit 0; fi
  mkdir -p "$(dirname "$2")"
  exec 9> "$2"
  flock 9
  if [ -e "$1" ]; then echo "$1"; exit 0; fi
}

# board_host_inputs : the harness sources a board simulator (fpga/sim,
# fpga/gatesim) compiles beside its top, for its cache key.
board_host_inputs() {
  local f
  for f in uart_bridge.h uart_bridge.cpp tcp_listen.h elf_loader.h elf_loader.cpp axi_mem.h axi_mem.cpp; do
    echo "$ROOT/sim/$f"
  done
}

# hw_key [FILE...] : the cache key of everything a simulated SoC's
# elaboration reads (the Mill build, hw/ sources but the boards) plus FILEs.
# hw/boards is left out: no simulated SoC uses it, and a board's every edit
# would otherwise rebuild every model; fpga/build.sh adds it to its own key.
hw_key() {
  hash_inputs "$ROOT/build.sc" "$ROOT/.mill-version" "$ROOT/hw/soc" "$ROOT/hw/configs" \
    "$ROOT/hw/devices" "$ROOT/hw/tile" "$ROOT/hw/testing" "$@" < /dev/null
}

# board_rom BOARD [BYTES] : builds the UART loader's boot ROM for BOARD's
# main memory of BYTES (default 256 KiB, the boards' block RAM; the loader
# works from its top) into $BUILD/bootrom/BOARD and prints the image's
# path; fpga/build.sh and the board's simulation model share it.
board_rom() {
  local dir="$BUILD/bootrom/$1"
  make -s -C "$ROOT/hw/bootrom" O="$dir" DRAM_SIZE="${2:-0x40000}" "$dir/uartboot.img" >&2
  echo "$dir/uartboot.img"
}

# elaborate_into DIR LOG MAIN [ARGS...] : unless DIR exists, runs
# `./mill hw.runMain MAIN ARGS --out DIR` through a temporary directory (so an
# interrupted run leaves nothing that looks finished) and drops the FIRRTL.
# Mill runs one at a time in a work tree (a second one refuses to start, and
# pytest's two workers may both need an elaboration), so this waits its turn.
elaborate_into() {
  local dir="$1" log="$2"; shift 2
  [ -d "$dir" ] && return 0
  mkdir -p "$(dirname "$dir")" "$ROOT/out"
  (
    flock 9
    [ -d "$dir" ] && exit 0
    tmp="$dir.tmp.$$"
    rm -rf "$tmp"
    (cd "$ROOT" && run_logged "$log" ./mill --no-server hw.runMain "$@" --out "$tmp")
    rm -f "$tmp"/*.fir "$tmp"/*.graphml
    mv "$tmp" "$dir"
  ) 9> "$ROOT/out/.elaborate.lock"
}
