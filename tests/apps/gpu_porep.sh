#!/usr/bin/env bash
# A 2 KiB PoRep C2 on the GPU as a user runs it (label gpu: the H200): gen-c1, setup, then
# `prove porep` on the GPU (witness-only synthesis, a, b, c by the GPU SpMV from the compiled
# circuit) and on the CPU (ProvingCS) with one blinding seed: both verify (prove_c1 verifies every
# partition before it keeps it) and the 192 bytes are identical; `verify porep` accepts.
# usage: gpu_porep.sh <cuzk binary>
set -euo pipefail
cuzk=$1
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"

"$cuzk" gen-c1 --sector-size 2KiB --seed 11 --out "$t/c1.json" > /dev/null
"$cuzk" setup --circuit porep --sector-size 2KiB --seed 3 --out "$t/params" > "$t/setup.txt"
"$cuzk" prove porep --c1 "$t/c1.json" --params "$t/params" --gpu 0 --blinding-seed 5 --out "$t/gpu.bin" > "$t/gpu.txt"
grep -q "backend gpu 0 (.*witness-only synthesis" "$t/gpu.txt" || fail "--gpu 0 did not prove from the witness on GPU 0: $(cat "$t/gpu.txt")"
"$cuzk" prove porep --c1 "$t/c1.json" --params "$t/params" --gpu off --blinding-seed 5 --out "$t/cpu.bin" > "$t/cpu.txt"
grep -q "backend cpu" "$t/cpu.txt" || fail "--gpu off did not prove on the CPU"
cmp -s "$t/gpu.bin" "$t/cpu.bin" || fail "the GPU and CPU proofs differ for the same blinding seed"
"$cuzk" verify porep --c1 "$t/c1.json" --params "$t/params" --proof "$t/gpu.bin" > /dev/null || fail "verify porep"
grep "backend" "$t/gpu.txt"
sed -n 's/^  \(partition 0: .*\)/gpu: \1/p' "$t/gpu.txt"
sed -n 's/^  \(partition 0: .*\)/cpu: \1/p' "$t/cpu.txt"
echo "gpu_porep: OK"
