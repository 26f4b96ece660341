#!/usr/bin/env bash
# The CTest fixture params_2k: cuzk's own 2 KiB keys of the four circuits (PoRep, WindowPoSt,
# WinningPoSt, SnapDeals; fixed seeds) in one directory, made once per test run for the tests
# that prove through the daemon or the CLI (a 2 KiB PoRep key is ~11 M points: ~2 minutes on two
# cores; SnapDeals ~1.5).
# usage: params_2k.sh <cuzk binary> <directory>
set -euo pipefail
cuzk=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir"
for circuit in porep window-post winning-post snap; do
  "$cuzk" setup --circuit "$circuit" --sector-size 2KiB --seed 3 --out "$dir" > /dev/null
done
echo "params_2k: $(ls "$dir" | tr '\n' ' ')"
