#!/usr/bin/env bash
# The README's Groth16 commands end to end, as a user runs them, with snarkjs as the other side:
#   x^3 + x + 5 = 35 (tests/data/iden3/cubic.txt, written to .r1cs/.wtns by snarkjs's writers)
#   1. cuzk setup → cuzk prove (.params + .r1cs) → cuzk verify (binary proof, bellperson .vk)
#      and snarkjs verifies the same proof as JSON against cuzk's snarkjs-format key;
#   2. snarkjs setup (.zkey) → cuzk prove --zkey → snarkjs verify and cuzk verify;
#   3. a wrong public input → exit 1 from both; a truncated .params → exit 2 naming the file.
# usage: cli_groth16.sh <cuzk binary> <tests dir> <ptau>
set -euo pipefail
cuzk=$1 tests=$2 ptau=$3
snarkjs="node $tests/oracle/node_modules/snarkjs/build/cli.cjs"
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"

node "$tests/oracle/iden3.mjs" write "$tests/data/iden3/cubic.txt" "$t/c.r1cs" "$t/c.wtns"

# 1. our own setup
"$cuzk" setup --r1cs "$t/c.r1cs" --params "$t/c.params" --vk "$t/c.vk" --vk-json "$t/vk.json" --threads 2
"$cuzk" prove --params "$t/c.params" --r1cs "$t/c.r1cs" --wtns "$t/c.wtns" --proof "$t/p.bin" --public "$t/pub.json"
[ "$(stat -c %s "$t/p.bin")" = 192 ] || fail "binary proof is not 192 bytes"
grep -q '"35"' "$t/pub.json" || fail "public.json does not hold 35"
"$cuzk" verify --vk "$t/c.vk" --proof "$t/p.bin" --public "$t/pub.json"
"$cuzk" prove --params "$t/c.params" --r1cs "$t/c.r1cs" --wtns "$t/c.wtns" --proof "$t/p.json" --public "$t/pub.json"
$snarkjs groth16 verify "$t/vk.json" "$t/pub.json" "$t/p.json" | grep -q OK || fail "snarkjs rejects cuzk's proof (cuzk setup)"

# 2. snarkjs's setup
$snarkjs groth16 setup "$t/c.r1cs" "$ptau" "$t/c.zkey" >/dev/null
$snarkjs zkey export verificationkey "$t/c.zkey" "$t/zvk.json" >/dev/null
"$cuzk" prove --zkey "$t/c.zkey" --wtns "$t/c.wtns" --proof "$t/z.json" --public "$t/zpub.json"
$snarkjs groth16 verify "$t/zvk.json" "$t/zpub.json" "$t/z.json" | grep -q OK || fail "snarkjs rejects cuzk's proof (zkey)"
"$cuzk" verify --vk "$t/zvk.json" --proof "$t/z.json" --public "$t/zpub.json"

# 3. rejections
echo '["36"]' > "$t/wrong.json"
set +e
"$cuzk" verify --vk "$t/zvk.json" --proof "$t/z.json" --public "$t/wrong.json"; rc=$?
[ $rc = 1 ] || fail "cuzk verify of a wrong input exited $rc, expected 1"
$snarkjs groth16 verify "$t/zvk.json" "$t/wrong.json" "$t/z.json" | grep -q OK && fail "snarkjs accepted a wrong input"
head -c 1000 "$t/c.params" > "$t/short.params"
out=$("$cuzk" prove --params "$t/short.params" --r1cs "$t/c.r1cs" --wtns "$t/c.wtns" --proof "$t/x.bin" 2>&1); rc=$?
set -e
[ $rc = 2 ] || fail "truncated params exited $rc, expected 2"
echo "$out" | grep -q "short.params: offset" || fail "the error does not name the file and offset: $out"
echo "cli_groth16: all checks passed"
