#!/usr/bin/env bash
# check-series.sh : checks the Linux series (sw/linux/series, patches/):
# every patch is listed once and signed off, the series applies in order
# to the pinned tarball's files, and each patch is clean (no error, no
# warning) under the tree's own scripts/checkpatch.pl. Building each patch
# on its own is `make linux-series` (minutes a patch).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../../scripts/lib.sh"
source "$HERE/UPSTREAM"

mapfile -t PATCHES < <(grep -v '^\s*\(#\|$\)' "$HERE/series" || true)
[ ${#PATCHES[@]} -gt 0 ] || die "sw/linux/series lists no patch"
for p in "${PATCHES[@]}"; do
  [ -f "$HERE/patches/$p" ] || die "series names $p, which is not in patches/"
  grep -q '^Signed-off-by: ' "$HERE/patches/$p" || die "$p has no Signed-off-by"
done
for f in "$HERE"/patches/*.patch; do
  printf '%s\n' "${PATCHES[@]}" | grep -qxF "$(basename "$f")" || die "patches/$(basename "$f") is not in series"
done

TARBALL="$("$ROOT/scripts/fetch-upstream.sh" "$HERE")"
WORK="$BUILD/linux/check-series"
rm -rf "$WORK" && mkdir -p "$WORK"
# Only the files the series touches (and checkpatch's own scripts), not the
# whole 1.4 GB tree.
all=("${PATCHES[@]/#/$HERE/patches/}")
created=$(awk '/^--- \/dev\/null/ {new = 1; next} new && /^\+\+\+ b\// {print substr($2, 3)} {new = 0}' "${all[@]}" | sort -u)
files=$(sed -n 's|^--- a/||p' "${all[@]}" | sort -u | comm -23 - <(echo "$created"))
# The files the series creates are asked for too: the tarball must not have
# them (a patch made against a tree that lacked one "creates" it whole, and
# patch refuses it), so tar's complaint about them is expected.
# shellcheck disable=SC2086
tar -xJf "$TARBALL" -C "$WORK" --strip-components=1 --wildcards "$SRCDIR/scripts/*" \
  $(for f in $files $created; do echo "$SRCDIR/$f"; done) 2>/dev/null || true
for f in $files; do
  [ -f "$WORK/$f" ] || die "the series changes $f, which $NAME $VERSION does not have"
done
for f in $created; do
  [ ! -e "$WORK/$f" ] || die "the series creates $f, which $NAME $VERSION already has"
done
for p in "${PATCHES[@]}"; do
  patch -d "$WORK" -p1 -s --no-backup-if-mismatch < "$HERE/patches/$p" || die "$p does not apply"
done
echo "${#PATCHES[@]} patches apply to $NAME $VERSION"

fail=0
for p in "${PATCHES[@]}"; do
  # The tarball has no git history, so checkpatch cannot look up the
  # upstream commits a message cites (UNKNOWN_COMMIT_ID); it still checks
  # how they are cited.
  if out=$(cd "$WORK" && ./scripts/checkpatch.pl --no-tree -q --ignore UNKNOWN_COMMIT_ID "$HERE/patches/$p" 2>&1); then
    echo "clean: $p"
  else
    printf 'checkpatch: %s\n%s\n' "$p" "$out"
    fail=1
  fi
done
exit $fail
