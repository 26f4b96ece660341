#!/usr/bin/env bash
# `cmake --install` into a scratch root with prefix /usr, as the .deb and an operator do
# (docs/curio.md, Install): the files in their places, the unit's ExecStart runs the installed
# binary on the installed config, a second install keeps an edited config, `cuzk --version`
# names this project's version and a real commit, and `systemd-analyze verify` accepts the unit
# without a warning (skipped, and said so, where systemd-analyze is absent).
# Usage: install.sh <build dir> <source dir>
set -euo pipefail
build=$1 src=$2
source "$(dirname "$0")/cli_support.sh"
root=$t/root

DESTDIR=$root cmake --install "$build" --prefix /usr > "$t/install.log" || fail "cmake --install: $(cat "$t/install.log")"
for f in usr/bin/cuzk etc/cuzk/cuzk.toml usr/lib/systemd/system/cuzk.service usr/lib/sysusers.d/cuzk.conf \
         usr/share/doc/cuzk/curio.md usr/share/doc/cuzk/daemon.md usr/share/doc/cuzk/config.md \
         usr/share/doc/cuzk/examples/cuzk.toml usr/share/doc/cuzk/grafana/cuzk.json; do
  [ -f "$root/$f" ] || fail "cmake --install did not install /$f"
done
[ -x "$root/usr/bin/cuzk" ] || fail "/usr/bin/cuzk is not executable"
cmp -s "$src/docs/cuzk.example.toml" "$root/etc/cuzk/cuzk.toml" || fail "/etc/cuzk/cuzk.toml is not the example config"

# The unit names the installed paths, and what it runs starts (--print-config: no listening).
unit=$root/usr/lib/systemd/system/cuzk.service
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
[ "$exec_start" = "/usr/bin/cuzk daemon --config /etc/cuzk/cuzk.toml" ] || fail "ExecStart is '$exec_start'"
for key in User=cuzk Restart=on-failure KillSignal=SIGTERM TimeoutStopSec= RuntimeDirectory=cuzk LimitMEMLOCK=infinity; do
  grep -q "^$key" "$unit" || fail "the unit lacks $key"
done
for bad in PrivateDevices=yes MemoryDenyWriteExecute=yes PrivateTmp=yes DynamicUser=yes; do
  grep -q "^$bad" "$unit" && fail "the unit sets $bad (breaks the GPU or hides the parameter cache)"
done
read -r -a argv <<< "$exec_start"
"$root${argv[0]}" "${argv[@]:1:2}" "$root${argv[3]}" --print-config > "$t/config.txt" 2> "$t/err" \
  || fail "ExecStart with the installed config: $(cat "$t/err")"
grep -q '^listen 127.0.0.1:9820$' "$t/config.txt" || fail "the installed config: $(cat "$t/config.txt")"
# The unit's user and its GPU groups.
grep -q '^u cuzk ' "$root/usr/lib/sysusers.d/cuzk.conf" || fail "sysusers.d: no cuzk user"
grep -q '^m cuzk video' "$root/usr/lib/sysusers.d/cuzk.conf" || fail "sysusers.d: cuzk not in group video"

# A re-install keeps the operator's config.
echo '# edited' >> "$root/etc/cuzk/cuzk.toml"
DESTDIR=$root cmake --install "$build" --prefix /usr > "$t/install.log"
tail -n 1 "$root/etc/cuzk/cuzk.toml" | grep -q '^# edited$' || fail "a re-install overwrote /etc/cuzk/cuzk.toml"

# --version: this project's version (CMakeLists.txt), a commit of this repository, CUDA or not.
version=$("$root/usr/bin/cuzk" --version)
want=$(sed -n 's/^project(cuzk VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[[ "$version" =~ ^cuzk\ ([0-9.]+)\ \(commit\ ([0-9a-f]+|unknown)(-dirty)?,\ (CUDA|without\ CUDA:\ CPU\ proving\ only)\)$ ]] \
  || fail "--version: '$version'"
[ "${BASH_REMATCH[1]}" = "$want" ] || fail "--version says ${BASH_REMATCH[1]}, CMakeLists.txt $want"
commit=${BASH_REMATCH[2]}
if [ "$commit" != unknown ] && git -C "$src" rev-parse --git-dir > /dev/null 2>&1; then
  git -C "$src" cat-file -e "$commit^{commit}" 2> /dev/null || fail "--version names commit $commit, not in this repository"
fi

if ! command -v systemd-analyze > /dev/null; then
  echo "install: systemd-analyze absent, the unit's verify skipped"
  exit 0
fi
# verify checks the unit's keys and values, and that ExecStart's program exists: the unit as
# installed, with its two paths under the scratch root (--root wants a whole system). Any line
# about the unit (an unknown key, a bad value) fails the test, not only a non-zero exit.
sed "s#^ExecStart=/usr/bin/cuzk daemon --config /etc#ExecStart=$root/usr/bin/cuzk daemon --config $root/etc#" "$unit" \
  > "$t/cuzk.service"
grep -q "^ExecStart=$root/usr/bin/cuzk" "$t/cuzk.service" || fail "ExecStart not rewritten"
set +e
systemd-analyze verify --man=no "$t/cuzk.service" > "$t/verify" 2>&1
rc=$?
set -e
grep -q . "$t/verify" && fail "systemd-analyze verify: $(cat "$t/verify")"
[ $rc -eq 0 ] || fail "systemd-analyze verify exited $rc"
echo "install: ok (unit verified by $(systemd-analyze --version | head -n 1))"
