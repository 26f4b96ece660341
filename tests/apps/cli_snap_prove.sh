#!/usr/bin/env bash
# A 2 KiB SnapDeals proof on the CPU, end to end with cuzk's own key (fixture params_2k): prove
# snap from the Python model's PartitionProof (shared/tools/snap_circuit_model.py --write-request:
# a real CC sector re-encoded; its request's commitments as the public data), then verify snap
# from public data alone (--sector-size and --registered-proof 0): valid; each changed
# commitment: INVALID (exit 1); Curio's snap-vproof.json of the same request decodes and validates.
# usage: cli_snap_prove.sh <cuzk binary> <shared dir> <params dir (fixture params_2k)>
set -euo pipefail
cuzk=$1
shared=$2
params=$3
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"

python3 "$shared/tools/snap_circuit_model.py" --write-request "$t/req" > /dev/null
hex() { grep -o "\"$1\": \"[0-9a-f]*\"" "$t/req/snap-2KiB.request.json" | cut -d'"' -f4; }
old=$(hex comm_r_old_hex); new=$(hex comm_r_new_hex); d=$(hex comm_d_new_hex)

"$cuzk" prove snap --sector-size 2KiB --comm-r-old "$old" --comm-r-new "$new" --comm-d-new "$d" \
  --vanilla "$t/req/snap-2KiB.partition0.bin" --params "$params" --blinding-seed 1 --out "$t/proof.bin" > /dev/null
[ "$(stat -c %s "$t/proof.bin")" = 192 ] || fail "the proof is not 192 bytes"
"$cuzk" verify snap --sector-size 2KiB --comm-r-old "$old" --comm-r-new "$new" --comm-d-new "$d" \
  --proof "$t/proof.bin" --params "$params" | grep -qx valid || fail "verify snap: not valid"
"$cuzk" verify snap --registered-proof 0 --comm-r-old "$old" --comm-r-new "$new" --comm-d-new "$d" \
  --proof "$t/proof.bin" --vk "$params/cuzk-v1-snap-2KiB.vk" | grep -qx valid || fail "verify --registered-proof 0"
flip() { printf '%s' "${1:0:62}$(printf '%02x' $(( (16#${1:62:2} + 1) % 64 )))"; }  # +1 in the top byte, < 2^254
for which in old new d; do
  o=$old; n=$new; dd=$d
  case $which in old) o=$(flip "$old");; new) n=$(flip "$new");; d) dd=$(flip "$d");; esac
  set +e
  "$cuzk" verify snap --sector-size 2KiB --comm-r-old "$o" --comm-r-new "$n" --comm-d-new "$dd" \
    --proof "$t/proof.bin" --params "$params" > "$t/v.txt"
  rc=$?
  set -e
  [ "$rc" = 1 ] && grep -qx INVALID "$t/v.txt" || fail "verify with a changed comm ($which): exit $rc"
done

# Curio's snap-vproof.json of the same: decoded and validated against the commitments (it gets as
# far as the parameter lookup, which comes after both).
expect_exit 2 "cuzk setup --circuit snap --sector-size 2KiB" "$cuzk" prove snap --sector-size 2KiB \
  --comm-r-old "$old" --comm-r-new "$new" --comm-d-new "$d" --vanilla "$t/req/snap-vproof.json" --params "$t/none" \
  --out "$t/proof2.bin"
echo "cli_snap_prove: OK"
