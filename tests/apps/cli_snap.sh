#!/usr/bin/env bash
# The README's SnapDeals commands that run in seconds: gen-vanilla --kind snap (2 KiB: one
# 15,064-byte PartitionProof and Curio's snap-vproof.json; 32 GiB: 16 partitions of 561,768 bytes,
# shared/SPEC-SNAP.md §7), and the errors users meet first, exit 2 each: no parameters (the message
# says what to run), missing public data, a damaged vanilla proof (file, field path, offset), an
# unknown kind.
# usage: cli_snap.sh <cuzk binary>
set -euo pipefail
cuzk=$1
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"

"$cuzk" gen-vanilla --kind snap --sector-size 2KiB --seed 3 --out "$t/v2k" > "$t/gen.txt"
[ "$(stat -c %s "$t/v2k/snap-2KiB.partition0.bin")" = 15064 ] || fail "2 KiB PartitionProof is not 15,064 bytes"
grep -q '^\["' "$t/v2k/snap-vproof.json" || fail "snap-vproof.json is not a JSON array of strings"
grep -q -- "--comm-r-old [0-9a-f]\{64\} --comm-r-new [0-9a-f]\{64\} --comm-d-new [0-9a-f]\{64\}" "$t/gen.txt" \
  || fail "gen-vanilla prints no public data"
"$cuzk" gen-vanilla --kind snap --sector-size 32GiB --out "$t/v32g" > /dev/null
[ "$(ls "$t/v32g"/snap-32GiB.partition*.bin | wc -l)" = 16 ] || fail "32 GiB: not 16 partitions"
[ "$(stat -c %s "$t/v32g/snap-32GiB.partition15.bin")" = 561768 ] || fail "32 GiB PartitionProof is not 561,768 bytes"

pub=$(grep -o -- "--sector-size .*" "$t/gen.txt")
# shellcheck disable=SC2086
expect_exit 2 "cuzk setup --circuit snap --sector-size 2KiB" \
  "$cuzk" prove snap $pub --vanilla "$t/v2k/snap-2KiB.partition0.bin" --params "$t/no-params" --out "$t/p.bin"
expect_exit 2 "comm-d-new" "$cuzk" verify snap --sector-size 2KiB --comm-r-old 00 --comm-r-new 00 --proof "$t/p.bin"
head -c 9000 "$t/v2k/snap-2KiB.partition0.bin" > "$t/cut.bin"
# shellcheck disable=SC2086
expect_exit 2 "cut.bin: offset [0-9]*: challenge_proofs\[5\].proof_r_new.data.Single.path.path\[1\].hashes: length 7 does not fit" \
  "$cuzk" prove snap $pub --vanilla "$t/cut.bin" --params "$t/no-params" --out "$t/p.bin"
expect_exit 2 "--kind bogus: window-post, winning-post or snap" "$cuzk" gen-vanilla --kind bogus --out "$t/x"
echo "cli_snap: OK"
