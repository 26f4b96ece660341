#!/usr/bin/env bash
# The README's PoSt commands on the CPU, as a user runs them: the real polka-storage WindowPoSt
# proof verified from public data (and refused with other randomness or another sector); a 2 KiB
# WindowPoSt key of our own (cuzk setup) and a proof of the reference model's vanilla proofs of two
# really sealed sectors (tests/data/post), verified from public data alone: the one PoSt proof
# under the sanitizers (PoSt's circuit and prover tests are release-only); and the errors users
# meet first: no parameters (the message says what to run), a vanilla proof whose leaf is not the
# derived challenge, a damaged one (file, offset and field), bad public-data flags. More proofs
# (synthetic vanilla proofs, a padded partition, WinningPoSt): cli_post_prove.sh, release only.
# usage: cli_post.sh <cuzk binary> <tests dir> <shared dir>
set -euo pipefail
cuzk=$1 tests=$2 shared=$3
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"
polka=$shared/fixtures/polka-storage-2KiB
data=$tests/data/post

# The real proof: our inputs (sector 77, randomness 0x01 x 32), the fixture's key.
ones=$(printf '01%.0s' {1..32})
comm_r=4afb35f82a95a10187a913bc14520d9a1d173328265b301b5dcf440ef2583950
verify_polka() {
  "$cuzk" verify post --proof "$polka/window_post_2KiB.proof.bin" --vk "$polka/window_post_2KiB.vk.compressed.bin" \
    --vk-compressed --registered-proof StackedDrgWindow2KiBV1_1 "$@"
}
[ "$(verify_polka --randomness "$ones" --sector "77:$comm_r")" = valid ] || fail "the polka WindowPoSt proof"
set +e
verify_polka --randomness "02${ones:2}" --sector "77:$comm_r" > /dev/null; [ $? = 1 ] || fail "other randomness accepted"
verify_polka --randomness "$ones" --sector "78:$comm_r" > /dev/null; [ $? = 1 ] || fail "another sector accepted"
set -e

# A valid request (the model's sector 1, its randomness) without parameters; the same with another
# randomness is refused first, naming the leaf that is not the derived challenge.
model_rnd=$(sed -n 's/^randomness //p' "$data/window-2KiB.public.txt")
expect_exit 2 "cuzk setup --circuit window-post --sector-size 2KiB" \
  "$cuzk" prove post --vanilla "$data/window-2KiB.vanilla.sector1.bin" --registered-proof 10 --randomness "$model_rnd" \
  --params "$t/no-params" --out "$t/p.bin"
expect_exit 2 "window-2KiB.vanilla.sector1.bin (sector 1): offset 56: .*leaf index 15 is not the derived challenge" \
  "$cuzk" prove post --vanilla "$data/window-2KiB.vanilla.sector1.bin" --registered-proof 10 --randomness "$ones" \
  --params "$t/no-params" --out "$t/p.bin"

# Our own key; the model's two sectors proved, verified from their public data.
"$cuzk" setup --circuit window-post --sector-size 2KiB --out "$t/params" --seed 5 > /dev/null
req() { sed -n "s/^$2 //p" "$data/$1.public.txt"; }
sectors=$(req window-2KiB sector | awk '{printf "--sector %s:%s ", $1, $2}')
"$cuzk" prove post --vanilla "$data/window-2KiB.vanilla.sector1.bin" --vanilla "$data/window-2KiB.vanilla.sector2.bin" \
  --registered-proof 10 --randomness "$model_rnd" --params "$t/params" --out "$t/model.proof" > /dev/null
# shellcheck disable=SC2086
[ "$("$cuzk" verify post --proof "$t/model.proof" --params "$t/params" --registered-proof 10 --randomness "$model_rnd" \
  $sectors)" = valid ] || fail "model WindowPoSt"

# A damaged vanilla proof: the first inclusion proof's variant tag (offset 56) set to 3.
cp "$data/window-2KiB.vanilla.sector1.bin" "$t/bad.vanilla.bin"
printf '\x03' | dd of="$t/bad.vanilla.bin" bs=1 seek=56 conv=notrunc status=none
expect_exit 2 "bad.vanilla.bin: offset 56: vanilla_proof.sectors\[0\].inclusion_proofs\[0\].data: variant 3" \
  "$cuzk" prove post --vanilla "$t/bad.vanilla.bin" --registered-proof 10 --randomness "$model_rnd" \
  --params "$t/no-params" --out "$t/p.bin"
echo "1 zz" > "$t/sectors.txt"
expect_exit 2 "sectors.txt: line 1" verify_polka --randomness "$ones" --sectors-file "$t/sectors.txt"
expect_exit 2 "expected ID:COMM_R_HEX" verify_polka --randomness "$ones" --sector "x:$comm_r"
echo "cli_post: OK"
