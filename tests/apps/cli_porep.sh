#!/usr/bin/env bash
# The README's PoRep commands that run in seconds, as a user runs them (the full prove needs a
# 1.1 GB SRS: scripts/quickstart runs it): gen-c1 (raw and Curio-wrapped give the same public
# inputs), porep public-inputs (39 for one 2 KiB partition, comm_d = the zero sector's),
# bench synth --json, and the errors users meet first: no parameters (the message says what to
# run), verify without public data, a damaged C1 (named file and JSON path), a C1 whose
# replica_id is not the given miner's and sector's, exit 2 each.
# usage: cli_porep.sh <cuzk binary>
set -euo pipefail
cuzk=$1
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"

"$cuzk" gen-c1 --sector-size 2KiB --seed 7 --out "$t/c1.json" > "$t/gen.txt"
grep -q -- "--comm-d fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833" "$t/gen.txt" \
  || fail "gen-c1: comm_d is not the zero 2 KiB sector's"
"$cuzk" gen-c1 --sector-size 2KiB --seed 7 --curio --out "$t/c1.curio.json" > /dev/null
grep -q '"Phase1Out":"' "$t/c1.curio.json" || fail "gen-c1 --curio: no Phase1Out"
"$cuzk" porep public-inputs --c1 "$t/c1.json" > "$t/in.txt"
[ "$(wc -l < "$t/in.txt")" = 39 ] || fail "public-inputs: $(wc -l < "$t/in.txt") lines, expected 39"
"$cuzk" porep public-inputs --c1 "$t/c1.curio.json" | cmp -s - "$t/in.txt" || fail "the wrapped C1 gives other inputs"
"$cuzk" bench synth --sector-size 2KiB --witness-only --repeat 1 --json | grep -q '"constraints":2687921' \
  || fail "bench synth --json"

expect_exit 2 "cuzk setup --circuit porep --sector-size 2KiB" \
  "$cuzk" prove porep --c1 "$t/c1.json" --params "$t/no-params" --out "$t/p.bin"
expect_exit 2 "give --c1, or the public data" "$cuzk" verify porep --proof "$t/c1.json"
sed 's/"layer_index":2/"layer_index":3/' "$t/c1.json" > "$t/bad.json"
expect_exit 2 "bad.json: vanilla_proofs.StackedDrg2KiBV1\[0\]\[0\].labeling_proofs\[1\]" \
  "$cuzk" porep public-inputs --c1 "$t/bad.json"
# The C1's replica_id against the sector's identity, before the parameters are looked for: the
# right miner and sector get as far as the missing parameters, another sector is refused.
"$cuzk" gen-c1 --sector-size 2KiB --seed 7 --miner-id 1234 --sector-id 5 --out "$t/c1m.json" > /dev/null
"$cuzk" gen-c1 --sector-size 2KiB --seed 7 --miner-id 1234 --sector-id 5 --curio --out "$t/c1m.curio.json" > /dev/null
expect_exit 2 "cuzk setup --circuit porep" \
  "$cuzk" prove porep --c1 "$t/c1m.json" --miner-id 1234 --sector-id 5 --params "$t/no-params" --out "$t/p.bin"
expect_exit 2 "c1m.json: replica_id: [0-9a-f]* is not the one derived from prover id d209[0-9a-f]*, sector id 6" \
  "$cuzk" prove porep --c1 "$t/c1m.json" --miner-id 1234 --sector-id 6 --params "$t/no-params" --out "$t/p.bin"
expect_exit 2 "cuzk setup --circuit porep" \
  "$cuzk" prove porep --c1 "$t/c1m.curio.json" --miner-id 1234 --params "$t/no-params" --out "$t/p.bin"
expect_exit 2 "replica_id: [0-9a-f]* is not the one derived" \
  "$cuzk" prove porep --c1 "$t/c1m.curio.json" --miner-id 1235 --params "$t/no-params" --out "$t/p.bin"
expect_exit 2 "go together" "$cuzk" prove porep --c1 "$t/c1m.json" --miner-id 1234 --params "$t/no-params" --out "$t/p.bin"
# Synthetic PoRep: gen-c1 --synthetic (2 KiB: 39 inputs, other challenges than the interactive
# C1 of the same seed); 32 GiB refused with the reason; a non-interactive name refused.
"$cuzk" gen-c1 --sector-size 2KiB --seed 7 --synthetic --out "$t/c1s.json" | grep -q "V1_1_Feat_SyntheticPoRep" \
  || fail "gen-c1 --synthetic"
"$cuzk" porep public-inputs --c1 "$t/c1s.json" > "$t/ins.txt"
[ "$(wc -l < "$t/ins.txt")" = 39 ] || fail "synthetic public-inputs: $(wc -l < "$t/ins.txt") lines, expected 39"
cmp -s "$t/ins.txt" "$t/in.txt" && fail "the synthetic C1 has the interactive one's inputs"
expect_exit 2 "labels every node" "$cuzk" gen-c1 --sector-size 32GiB --synthetic --out "$t/big.json"
expect_exit 2 "give one" "$cuzk" gen-c1 --synthetic --registered-proof StackedDrg2KiBV1_1 --out "$t/x.json"
expect_exit 2 "non-interactive PoRep is not supported" \
  "$cuzk" gen-c1 --registered-proof StackedDrg2KiBV1_2_Feat_NonInteractivePoRep --out "$t/x.json"
echo "cli_porep: OK"
