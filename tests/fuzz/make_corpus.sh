#!/usr/bin/env bash
# make_corpus.sh: (re)writes the seed corpora tests/fuzz/corpus/<target>/ (docs/fuzzing.md).
# Generated seeds come from fuzz_make_corpus (release preset, built here) and snarkjs (the .zkey of
# the same small circuit); the rest are copies of tests/data. Keep the total under 2 MiB.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
corpus=tests/fuzz/corpus
cmake --preset release -DCUZK_CUDA=OFF >/dev/null
cmake --build build/release -j2 --target fuzz_make_corpus
build/release/tests/fuzz/fuzz_make_corpus "$corpus"

# A .zkey for the same circuit, by snarkjs (powers of tau of power 8, as the interop tests make it).
ptau=build/release/test-cache/pot8_bls12381.ptau
bash tests/groth16/make_ptau.sh tests/oracle "$ptau"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$corpus/r1cs/small.r1cs" "$tmp/"
node tests/oracle/node_modules/snarkjs/build/cli.cjs groth16 setup "$tmp/small.r1cs" "$ptau" "$tmp/small.zkey" >/dev/null
mkdir -p "$corpus/zkey"
cp "$tmp/small.zkey" "$corpus/zkey/"

# Real files: PoSt vanilla proofs of 2 KiB sectors (WindowPoSt and WinningPoSt, the reference
# model's), a 2 KiB PoRep proof and its key (compressed layout), C1 outputs (raw and Curio's
# wrapper), the example daemon configuration.
mkdir -p "$corpus/proof" "$corpus/params" "$corpus/c1" "$corpus/config" "$corpus/post_vanilla"
cp tests/data/post/window-2KiB.vanilla.sector1.bin tests/data/post/winning-2KiB.vanilla.sector1.bin "$corpus/post_vanilla/"
cp tests/data/groth16/porep_2KiB.proof.bin "$corpus/proof/"
cp tests/data/groth16/porep_2KiB.vk.compressed.bin "$corpus/params/"
cp tests/data/porep/c1_2KiB_v1_1.json tests/data/porep/c1_2KiB_v1_1.curio.json "$corpus/c1/"
cp docs/cuzk.example.toml "$corpus/config/"
cat >"$corpus/config/gpus.toml" <<'TOML'
[gpus]
devices = [0, 1]
memory_limit = "16GiB,1=4GiB"
spread = "partitions"
workers_per_gpu = 3
[daemon]
listen = "unix:///run/cuzk.sock"
TOML
# The flag spellings the target also reads (--gpu, --gpu-memory, --spread).
printf 'auto' >"$corpus/config/flag_devices_auto"
printf '0,1' >"$corpus/config/flag_devices_list"
printf '12GiB,0=8GiB' >"$corpus/config/flag_memory_limit"
printf 'partitions' >"$corpus/config/flag_spread"
du -sh "$corpus"
