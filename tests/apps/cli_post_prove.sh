#!/usr/bin/env bash
# The README's PoSt commands on the CPU that prove, with cuzk's own 2 KiB WindowPoSt and
# WinningPoSt keys (fixture params_2k): proofs of synthetic vanilla proofs (gen-vanilla) and of the
# reference model's vanilla proofs of really sealed sectors (tests/data/post: one sector, the
# partition padded), each verified from public data alone, and refused with other randomness.
# The rest (one proof of our own key, and the checks that need none): cli_post.sh.
# usage: cli_post_prove.sh <cuzk binary> <tests dir> <params dir (fixture params_2k)>
set -euo pipefail
cuzk=$1 tests=$2 params=$3
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"
data=$tests/data/post

# A synthetic WindowPoSt partition (gen-vanilla) proved and verified from the public data
# gen-vanilla prints (WinningPoSt's synthetic proofs are checked in
# tests/post/synthetic_vanilla_test.cpp; its proof here is of the model's vanilla proof, below).
"$cuzk" gen-vanilla --kind winning-post --sector-size 2KiB --seed 3 --out "$t/winning" > /dev/null
[ "$(ls "$t/winning")" = "sector-1.vanilla.bin
sectors.txt" ] || fail "gen-vanilla winning-post: $(ls "$t/winning")"
"$cuzk" gen-vanilla --kind window-post --sector-size 2KiB --seed 3 --out "$t/window" > "$t/gen.txt"
flags=$(sed -n 's/.*public data: //p' "$t/gen.txt")
id=$(echo "$flags" | awk '{print $2}') rnd=$(echo "$flags" | awk '{print $4}')
[ "$id" = 10 ] || fail "gen-vanilla window-post: registered proof $id, expected 10 (StackedDrgWindow2KiBV1_1)"
"$cuzk" prove post --vanilla "$t/window" --registered-proof "$id" --randomness "$rnd" --params "$params" \
  --out "$t/window.proof" --blinding-seed 1 > /dev/null
[ "$(stat -c %s "$t/window.proof")" = 192 ] || fail "window: proof size"
# shellcheck disable=SC2086
[ "$("$cuzk" verify post --proof "$t/window.proof" --params "$params" $flags)" = valid ] || fail "window: verify"
other=$([ "${rnd:0:2}" = 00 ] && echo 01 || echo 00)${rnd:2}
set +e
# shellcheck disable=SC2086
"$cuzk" verify post --proof "$t/window.proof" --params "$params" ${flags/$rnd/$other} > /dev/null
[ $? = 1 ] || fail "window: other randomness accepted"
set -e

# The model's vanilla proofs (really sealed sectors; both sectors' WindowPoSt: cli_post.sh): one
# sector's WindowPoSt (the second slot padded); WinningPoSt.
req() { sed -n "s/^$2 //p" "$data/$1.public.txt"; }
rnd=$(req window-2KiB randomness)
"$cuzk" prove post --vanilla "$data/window-2KiB.vanilla.sector1.bin" --registered-proof 10 --randomness "$rnd" \
  --params "$params" --out "$t/model1.proof" > /dev/null
[ "$("$cuzk" verify post --proof "$t/model1.proof" --params "$params" --registered-proof 10 --randomness "$rnd" \
  --vanilla "$data/window-2KiB.vanilla.sector1.bin")" = valid ] || fail "model WindowPoSt, padded"
rnd=$(req winning-2KiB randomness)
"$cuzk" prove post --vanilla "$data/winning-2KiB.vanilla.sector1.bin" --registered-proof 0 --randomness "$rnd" \
  --params "$params" --out "$t/win.proof" > /dev/null
[ "$("$cuzk" verify post --proof "$t/win.proof" --params "$params" --registered-proof 0 --randomness "$rnd" \
  --sector "1:$(req winning-2KiB sector | awk '{print $2}')")" = valid ] || fail "model WinningPoSt"
echo "cli_post_prove: OK"
