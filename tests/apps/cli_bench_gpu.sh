#!/usr/bin/env bash
# `cuzk bench msm|ntt` on a machine without a GPU (CI): bad --log-n ranges and window counts are
# refused naming the flag (exit 2); a valid one fails cleanly, saying there is no CUDA in this build or no visible
# device, never a crash. `bench e2e` and `setup --device` refuse a GPU that is not there at once.
# On the GPU machine scripts/gpu-check runs these benches for real.
# usage: cli_bench_gpu.sh <cuzk binary>
set -euo pipefail
cuzk=$1
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"

expect_exit 2 "--log-n 20..16: sizes must lie in 1..28" "$cuzk" bench msm --log-n 20..16
expect_exit 2 "--log-n 27: sizes must lie in 1..26" "$cuzk" bench msm --group g2 --log-n 27
expect_exit 2 "--log-n 2x: expected A or A..B" "$cuzk" bench ntt --log-n 2x
expect_exit 2 "--log-n 20..29: sizes must lie in 1..28" "$cuzk" bench ntt --log-n 20..29
expect_exit 2 "--windows: Value 11 not in range 12 to 256" "$cuzk" bench msm --windows 11
set +e; "$cuzk" bench msm --log-n 10 2> "$t/err" > /dev/null; got=$?; set -e
[ "$got" != 0 ] || fail "bench msm without a GPU exited 0"
grep -qE "built without CUDA|not a visible device" "$t/err" || fail "bench msm without a GPU: $(cat "$t/err")"
# A GPU that is not there is refused before any long work (a 32 GiB compile takes minutes): within
# seconds, naming the GPU (or the build's lack of CUDA).
expect_exit 2 "GPU 7 is not visible\|no CUDA backend" timeout 20 "$cuzk" bench e2e --sector-size 32GiB --gpu 7
expect_exit 2 "GPU 7 is not visible\|no CUDA backend" timeout 20 "$cuzk" setup --circuit porep --sector-size 32GiB \
  --device --gpu 7 --out "$t/params"
expect_exit 2 "3KiB" "$cuzk" bench e2e --sector-size 3KiB
expect_exit 2 "--msm-streams: bogus not in {one,two}" "$cuzk" bench e2e --msm-streams bogus
expect_exit 2 "--msm-streams: 3 not in {one,two}" "$cuzk" bench pipeline --msm-streams 3
echo "cli_bench_gpu: ok"
