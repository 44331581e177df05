#!/usr/bin/env bash
# check-series.sh : checks the OpenSBI patch series the way a maintainer
# would: it applies in order with `git am` to the pinned tarball, each patch
# has a Signed-off-by, the lines it adds are clean under OpenSBI's own
# .clang-format (git clang-format), and the register header it carries is
# the one generated from the unit's register map (sw/include).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../../scripts/lib.sh"
source "$HERE/UPSTREAM"
command -v git-clang-format >/dev/null || die "git-clang-format not found (Debian package clang-format; make setup installs it)"

TARBALL="$("$ROOT/scripts/fetch-upstream.sh" "$HERE")"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
tar -xzf "$TARBALL" -C "$WORK" --strip-components=1
cd "$WORK"
git init -q
git add -A
git -c user.name=upstream -c user.email=upstream@localhost commit -qm "$NAME $VERSION"
BASE=$(git rev-parse HEAD)
fail=0
while read -r p; do
  git -c user.name=check -c user.email=check@localhost am -q "$HERE/patches/$p" || die "$p does not apply with git am"
  git log -1 --format=%B | grep -q '^Signed-off-by: ' || { echo "$p: no Signed-off-by" >&2; fail=1; }
  out=$(git clang-format --diff HEAD~1 2>&1 || true)
  if ! grep -qx 'clang-format did not modify any files\|no modified files to format' <<< "$out"; then
    printf '%s: lines it adds are not clean under .clang-format:\n%s\n' "$p" "$out" >&2
    fail=1
  fi
done < <(grep -v '^\s*\(#\|$\)' "$HERE/series")
cmp -s include/sbi_utils/tlb/tlb_shootdown_regs.h "$ROOT/sw/include/tlb_shootdown_regs.h" || {
  echo "include/sbi_utils/tlb/tlb_shootdown_regs.h in the series differs from sw/include/tlb_shootdown_regs.h (make generated, then refresh the patch)" >&2
  fail=1
}
[ "$fail" = 0 ] || die "the OpenSBI series has problems (above)"
echo "OpenSBI series: $(git rev-list --count "$BASE"..HEAD) patches apply to $TARBALL, signed off, clang-format clean"
