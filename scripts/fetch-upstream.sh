#!/usr/bin/env bash
# fetch-upstream.sh sw/<project> : prints the path of the project's pinned
# upstream tarball (sw/<project>/UPSTREAM), fetching it with apt-get source
# through a private apt config whose deb-src URI is taken from this machine's
# own Debian sources, or, when UPSTREAM names a binary package (DEB) that
# carries the tarball, with apt-get download from those sources.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

DIR="$(cd "${1:?usage: fetch-upstream.sh sw/<project>}" && pwd)"
# shellcheck disable=SC1091
source "$DIR/UPSTREAM"
DL="$CACHE/downloads"
OUT="$DL/$TARBALL"

verify() { [ -f "$1" ] && [ "$(sha256sum < "$1" | cut -d' ' -f1)" = "${2:-$SHA256}" ]; }
if verify "$OUT"; then echo "$OUT"; exit 0; fi

# A tarball shipped inside a binary package (linux-source-*): apt-get
# download from the machine's own sources, then take the member out.
if [ -n "${DEB:-}" ]; then
  step "fetching $NAME $VERSION with apt-get download (for $TARBALL)"
  mkdir -p "$DL/tmp"
  get() { (cd "$DL/tmp" && apt-get -q -o APT::Sandbox::User=root download "$NAME=$VERSION") > "$DL/download.log" 2>&1; }
  if ! verify "$DL/$DEB" "$DEB_SHA256"; then
    # An old or empty package list does not know the version: refresh it once.
    get || { apt-get -q update > "$DL/update.log" 2>&1 && get; } ||
      { cat "$DL/download.log" >&2; die "apt-get download $NAME=$VERSION failed (is the version still in the archive? see UPSTREAM)"; }
    verify "$DL/tmp/$DEB" "$DEB_SHA256" || die "$DEB: sha256 $(sha256sum < "$DL/tmp/$DEB" | cut -d' ' -f1) is not the pinned $DEB_SHA256"
    mv "$DL/tmp/$DEB" "$DL/$DEB"
  fi
  dpkg-deb --fsys-tarfile "$DL/$DEB" | tar -xOf - "./$DEB_MEMBER" > "$DL/tmp/$TARBALL" ||
    die "$DEB has no member $DEB_MEMBER"
  verify "$DL/tmp/$TARBALL" || die "$TARBALL: sha256 $(sha256sum < "$DL/tmp/$TARBALL" | cut -d' ' -f1) is not the pinned $SHA256"
  mv "$DL/tmp/$TARBALL" "$OUT"
  rm -rf "$DL/tmp" "$DL/$DEB"
  echo "$OUT"
  exit 0
fi

uri=""
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  uri=$(awk '/^URIs:/ && $2 ~ /debian\/?$/ {print $2; exit}' "$f")
  [ -n "$uri" ] && break
done
if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
  uri=$(awk '$1 == "deb" && $0 ~ /debian\/? / {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' /etc/apt/sources.list)
fi
[ -n "$uri" ] || die "no Debian archive URI in /etc/apt/sources.list{,.d}; cannot fetch $TARBALL"

step "fetching $TARBALL with apt-get source (Debian $DEBIAN_SUITE)"
APT="$CACHE/apt"
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$DL/tmp"
echo "deb-src [trusted=yes] $uri $DEBIAN_SUITE main" > "$APT/sources.list"
aptopts=(-o Dir::Etc::SourceList="$APT/sources.list" -o Dir::Etc::SourceParts=/dev/null
         -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" -o APT::Sandbox::User=root)
apt-get "${aptopts[@]}" -q update > "$APT/update.log" 2>&1 || { cat "$APT/update.log" >&2; die "apt-get update for $DEBIAN_SUITE sources failed"; }
# The .dsc of this source package answers 404 but the tarball arrives, so
# apt's exit code says nothing: the sha256 below decides.
(cd "$DL/tmp" && apt-get "${aptopts[@]}" -q source --download-only "$NAME=$(apt-cache "${aptopts[@]}" showsrc "$NAME" | awk '/^Version:/ {print $2; exit}')" > "$APT/source.log" 2>&1) || true
[ -f "$DL/tmp/$TARBALL" ] || { cat "$APT/source.log" >&2; die "apt-get source did not deliver $TARBALL"; }
verify "$DL/tmp/$TARBALL" || die "$TARBALL: sha256 $(sha256sum < "$DL/tmp/$TARBALL" | cut -d' ' -f1) is not the pinned $SHA256"
mv "$DL/tmp/$TARBALL" "$OUT"
rm -rf "$DL/tmp"
echo "$OUT"
