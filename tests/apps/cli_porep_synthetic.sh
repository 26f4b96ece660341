#!/usr/bin/env bash
# A 2 KiB synthetic-PoRep proof on the CPU, end to end with cuzk's own key (fixture params_2k):
# gen-c1 --synthetic --curio (StackedDrg2KiBV1_1_Feat_SyntheticPoRep, Curio's wrapper), prove porep
# with the sector's miner and number, then verify porep from public data alone with the registered
# proof as Curio names it (Go id 10): valid; the same proof read as interactive PoRep (id 5, whose
# challenges and porep_id differ) or under another seed: INVALID (exit 1).
# usage: cli_porep_synthetic.sh <cuzk binary> <params dir (fixture params_2k)>
set -euo pipefail
cuzk=$1
params=$2
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"

"$cuzk" gen-c1 --sector-size 2KiB --synthetic --seed 3 --miner-id 1234 --sector-id 9 --curio --out "$t/c1.json" \
  > "$t/gen.txt"
grep -q "StackedDrg2KiBV1_1_Feat_SyntheticPoRep synthetic C1" "$t/gen.txt" || fail "gen-c1 --synthetic: $(cat "$t/gen.txt")"
public=$(grep -o -- "--ticket .*" "$t/gen.txt")
"$cuzk" prove porep --c1 "$t/c1.json" --miner-id 1234 --params "$params" --threads 2 --out "$t/proof.bin" > /dev/null
[ "$(stat -c %s "$t/proof.bin")" = 192 ] || fail "the proof is not 192 bytes"
# shellcheck disable=SC2086
"$cuzk" verify porep --proof "$t/proof.bin" --params "$params" --registered-proof 10 --miner-id 1234 --sector-id 9 \
  $public | grep -qx valid || fail "verify porep (synthetic, from public data): not valid"
"$cuzk" verify porep --proof "$t/proof.bin" --params "$params" --c1 "$t/c1.json" | grep -qx valid \
  || fail "verify porep --c1: not valid"
seed=$(grep -o -- "--seed [0-9a-f]*" "$t/gen.txt" | cut -d' ' -f2)
other_seed="${seed:0:62}$(printf '%02x' $(( (16#${seed:62:2} + 1) % 64 )))"
for variant in "--registered-proof 5 $public" "--registered-proof 10 ${public/$seed/$other_seed}"; do
  set +e
  # shellcheck disable=SC2086
  "$cuzk" verify porep --proof "$t/proof.bin" --params "$params" --miner-id 1234 --sector-id 9 $variant > "$t/v.txt"
  rc=$?
  set -e
  [ "$rc" = 1 ] && grep -qx INVALID "$t/v.txt" || fail "verify porep $variant: exit $rc, expected 1 (INVALID)"
done
echo "cli_porep_synthetic: OK"
