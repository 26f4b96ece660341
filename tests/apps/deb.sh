#!/usr/bin/env bash
# The Debian package (cpack -G DEB, cmake/CuzkInstall.cmake): its control data and its contents.
# Depends must name, for every shared library the packaged binary links (readelf NEEDED), the
# Debian package that ships that library on this host (dpkg -S), so that `apt install ./cuzk.deb`
# on a clean Debian 12 brings in what the binary needs; the conffile, the maintainer scripts and
# the unit's paths are checked too. Exit 77 (skipped) without cpack, dpkg-deb or dpkg-shlibdeps.
# Usage: deb.sh <build dir> <source dir>
set -euo pipefail
build=$1 src=$2
source "$(dirname "$0")/cli_support.sh"
for tool in cpack dpkg-deb dpkg-shlibdeps readelf ldconfig; do
  command -v $tool > /dev/null || { echo "deb: $tool absent: skipped"; exit 77; }
done

(cd "$build" && cpack -G DEB -B "$t/pkg" > "$t/cpack.log" 2>&1) || fail "cpack: $(tail -n 20 "$t/cpack.log")"
deb=$(ls "$t"/pkg/cuzk_*.deb)
dpkg-deb --field "$deb" Package Version Architecture Depends > "$t/fields"
want=$(sed -n 's/^project(cuzk VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
grep -q '^Package: cuzk$' "$t/fields" || fail "Package: $(cat "$t/fields")"
grep -q "^Version: $want$" "$t/fields" || fail "Version is not $want: $(cat "$t/fields")"
grep -q "^Architecture: $(dpkg --print-architecture)$" "$t/fields" || fail "Architecture: $(cat "$t/fields")"
depends=$(sed -n 's/^Depends: //p' "$t/fields")
[ -n "$depends" ] || fail "no Depends"
# The package names in Depends, one a line (version constraints and alternatives dropped).
tr ',|' '\n\n' <<< "$depends" | sed 's/(.*//; s/ //g' | grep . | sort -u > "$t/depends"

# The binary as packaged.
dpkg-deb -x "$deb" "$t/x"
bin=$t/x/usr/bin/cuzk
[ -x "$bin" ] || fail "the package has no /usr/bin/cuzk"
readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' > "$t/needed"
[ -s "$t/needed" ] || fail "readelf found no NEEDED libraries"
while read -r lib; do
  # awk reads to the end: an early exit would SIGPIPE ldconfig, and pipefail + set -e would end the
  # test without a word when ldconfig had not finished writing (the flake CI saw).
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64|AArch64/ && !found { print $NF; found = 1 }')
  [ -n "$path" ] || fail "$lib (NEEDED) is not in the loader's cache"
  real=$(readlink -f "$path")
  owner=""
  for p in "$path" "$real" "${path/#\/usr\/lib/\/lib}" "${real/#\/usr\/lib/\/lib}" "${path/#\/lib/\/usr\/lib}" "${real/#\/lib/\/usr\/lib}"; do
    owner=$(dpkg -S "$p" 2> /dev/null | head -n 1 | cut -d: -f1) && [ -n "$owner" ] && break
  done
  [ -n "$owner" ] || fail "no Debian package ships $lib ($path)"
  # The owner, or a virtual package it provides (libspdlog1.10 provides libspdlog1.10-fmt9, which
  # its shlibs file names).
  provides=$(dpkg-query -W -f='${Provides}' "$owner" 2> /dev/null | tr ',' '\n' | sed 's/(.*//; s/ //g')
  found=""
  for name in "$owner" $provides; do grep -qx "$name" "$t/depends" && found=$name; done
  [ -n "$found" ] || fail "$bin links $lib (package $owner), which Depends lacks: $depends"
done < "$t/needed"

# Contents: the unit (with the packaged paths), the user, the docs, the config as a conffile.
dpkg-deb --contents "$deb" | awk '{ print $NF }' | sed 's#^\./#/#' > "$t/contents"
for f in /usr/bin/cuzk /etc/cuzk/cuzk.toml /usr/lib/systemd/system/cuzk.service /usr/lib/sysusers.d/cuzk.conf \
         /usr/share/doc/cuzk/curio.md /usr/share/doc/cuzk/grafana/cuzk.json /usr/share/doc/cuzk/examples/cuzk.toml; do
  grep -qx -- "$f" "$t/contents" || fail "the package lacks $f"
done
grep -q '^ExecStart=/usr/bin/cuzk daemon --config /etc/cuzk/cuzk.toml$' "$t/x/usr/lib/systemd/system/cuzk.service" \
  || fail "the packaged unit: $(grep ExecStart "$t/x/usr/lib/systemd/system/cuzk.service")"
dpkg-deb -e "$deb" "$t/control"
grep -qx /etc/cuzk/cuzk.toml "$t/control/conffiles" || fail "conffiles: $(cat "$t/control/conffiles" 2>&1)"
[ -x "$t/control/postinst" ] || fail "no executable postinst"
grep -q 'systemd-sysusers' "$t/control/postinst" || fail "postinst does not create the cuzk user"
sh -n "$t/control/postinst" || fail "postinst: syntax"
echo "deb: ok ($(basename "$deb"): Depends $depends)"
