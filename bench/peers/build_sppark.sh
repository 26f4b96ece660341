#!/bin/sh
# Builds the sppark peer benchmark (bench/peers/sppark_bench.cu) outside CMake/CI.
#
#   bench/peers/build_sppark.sh SPPARK_DIR BLST_DIR OUT_DIR
#
# SPPARK_DIR and BLST_DIR are plain checkouts of supranational/sppark and supranational/blst
# (kept outside this repository; e.g. `git -C <mirror> archive HEAD | tar -x -C DIR`).
# Builds blst with its own build.sh into OUT_DIR/blst, then the harness and sppark's
# util/all_gpus.cpp with nvcc for sm_90 (H200), cudart linked statically, into
# OUT_DIR/sppark_bench. The binary needs no shared library beyond glibc and the CUDA driver.
# Run: OUT_DIR/sppark_bench [--json]  (see the header of sppark_bench.cu for flags).
set -eu

if [ $# -ne 3 ]; then
    echo "usage: $0 SPPARK_DIR BLST_DIR OUT_DIR" >&2
    exit 2
fi
SPPARK_DIR=$(cd "$1" && pwd)
BLST_DIR=$(cd "$2" && pwd)
mkdir -p "$3"
OUT_DIR=$(cd "$3" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}

mkdir -p "$OUT_DIR/blst"
(cd "$OUT_DIR/blst" && sh "$BLST_DIR/build.sh" -D__ADX__)

# The flags sppark's own Rust build passes (rust/src/build.rs, poc/*/build.rs): curve feature,
# error messages on, ADX host code; sm_90 only.
"$NVCC" -O3 -std=c++17 -arch=sm_90 -cudart=static \
    -DFEATURE_BLS12_381 -D__ADX__ -DTAKE_RESPONSIBILITY_FOR_ERROR_MESSAGE \
    -I"$SPPARK_DIR" -I"$BLST_DIR/src" -I"$BLST_DIR/bindings" \
    -Xcompiler -Wno-unused-function -diag-suppress=177 \
    "$HERE/sppark_bench.cu" -x cu "$SPPARK_DIR/util/all_gpus.cpp" \
    -L"$OUT_DIR/blst" -lblst -lpthread \
    -o "$OUT_DIR/sppark_bench"
echo "built $OUT_DIR/sppark_bench"
