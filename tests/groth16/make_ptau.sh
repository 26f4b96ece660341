#!/usr/bin/env bash
# make_ptau.sh <tests/oracle> <out.ptau> [power]: a BLS12-381 powers-of-tau file prepared for
# phase 2, made by snarkjs once and kept while it exists. Power 8 (the default, ~30 s on 2 cores)
# serves circuits up to 2^6 constraints in Groth16; `cuzk bench groth16 --log-constraints K`
# needs power K + 2 (power 12: a few minutes).
set -euo pipefail
oracle=$1 out=$2 power=${3:-8}
[ -s "$out" ] && exit 0
snarkjs="node $oracle/node_modules/snarkjs/build/cli.cjs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$snarkjs powersoftau new bls12381 "$power" "$tmp/0.ptau" >/dev/null
$snarkjs powersoftau contribute "$tmp/0.ptau" "$tmp/1.ptau" --name=cuzk-tests -e="cuzk test entropy" >/dev/null
$snarkjs powersoftau prepare phase2 "$tmp/1.ptau" "$tmp/final.ptau" >/dev/null
mkdir -p "$(dirname "$out")"
mv "$tmp/final.ptau" "$out"
