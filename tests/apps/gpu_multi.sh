#!/usr/bin/env bash
# Two GPUs of one host as a storage provider runs them (label gpu; exit 77, skipped, with fewer
# than two visible), at 2 KiB, through the daemon and the CLI client:
#  - `--gpu 0,1` (whole proofs, one GPU each) and `--gpu 0,1 --spread partitions` (one proof's
#    partitions over both): twelve C1s sent at once, every proof verifies with `verify porep`,
#    proofs were made on both GPUs, and a status taken during the run shows both GPUs with a job;
#  - GPU 1 capped below what any proof needs (`--gpu-memory 1=1MiB`): its prover cannot be made,
#    so the job it takes fails there only and goes to GPU 0 (one device_failure line; GetMetrics'
#    cuzk_gpu_failures_total for GPU 1 is 1), every proof verifies and none came from GPU 1; the
#    same cap with the partitions spread proves on GPU 0 alone.
# usage: gpu_multi.sh <cuzk binary>
set -euo pipefail
cuzk=$1
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"

gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
[ "${gpus:-0}" -ge 2 ] || { echo "fewer than two GPUs visible: skipped"; exit 77; }

"$cuzk" setup --circuit porep --sector-size 2KiB --seed 5 --device --gpu 0 --out "$t/params" > /dev/null
jobs=12
for i in $(seq $jobs); do "$cuzk" gen-c1 --sector-size 2KiB --seed "$((100 + i))" --out "$t/c1_$i.json" > /dev/null; done

daemon=
trap 'kill $daemon 2>/dev/null || true; rm -rf "$t"' EXIT
# start <name> <daemon flags...>: a daemon on $t/<name>.sock, its log in $t/<name>.log.
start() {
  local name=$1; shift
  "$cuzk" daemon --listen "unix://$t/$name.sock" --metrics-listen off --params "$t/params" --preload porep-2k \
    --log-level debug "$@" > "$t/$name.log" 2>&1 &
  daemon=$!
  for _ in $(seq 300); do grep -q "listening on" "$t/$name.log" && break; sleep 0.1; done
  grep -q "listening on.*proving on 2 GPUs" "$t/$name.log" || fail "$name: the daemon did not start: $(cat "$t/$name.log")"
}
# prove_all <name>: every C1 at once; statuses taken while they run go to $t/<name>.status.
prove_all() {
  local name=$1 pids=() i
  for i in $(seq $jobs); do
    "$cuzk" prove-remote --address "unix://$t/$name.sock" --c1 "$t/c1_$i.json" --out "$t/${name}_$i.bin" \
      > "$t/${name}_$i.txt" 2>&1 &
    pids+=($!)
  done
  for _ in $(seq 200); do
    "$cuzk" status --address "unix://$t/$name.sock" >> "$t/$name.status" 2>&1 || true
    ls "$t/${name}"_*.bin > /dev/null 2>&1 && [ "$(ls "$t/${name}"_*.bin | wc -l)" -ge $jobs ] && break
  done
  for i in "${!pids[@]}"; do wait "${pids[$i]}" || fail "$name: proof $((i + 1)): $(cat "$t/${name}_$((i + 1)).txt")"; done
  for i in $(seq $jobs); do
    "$cuzk" verify porep --c1 "$t/c1_$i.json" --params "$t/params" --proof "$t/${name}_$i.bin" > /dev/null ||
      fail "$name: proof $i does not verify"
  done
}
stop() {
  kill -TERM $daemon && wait $daemon || fail "$1: the daemon did not exit 0 on SIGTERM"
  daemon=
}
# A status line of GPU <n> with a job: "<n>    NVIDIA H200 ...  job-<hex>  porep_seal_commit".
busy() { grep -qE "^$1 .* job-[0-9a-f]{16} " "$t/$2.status"; }

start proofs --gpu 0,1
prove_all proofs
busy 0 proofs && busy 1 proofs || fail "proofs: no status showed both GPUs with a job: $(tail -20 "$t/proofs.status")"
grep -q 'stage=done.*backend="gpu 0' "$t/proofs.log" || fail "proofs: none proved on GPU 0"
grep -q 'stage=done.*backend="gpu 1' "$t/proofs.log" || fail "proofs: none proved on GPU 1"
stop proofs

start spread --gpu 0,1 --spread partitions
prove_all spread
busy 0 spread && busy 1 spread || fail "spread: no status showed both GPUs with a job: $(tail -20 "$t/spread.status")"
grep -q 'stage=done.*backend="spread over gpu 0 .* + gpu 1 ' "$t/spread.log" || fail "spread: not spread over both"
stop spread

start capped --gpu 0,1 --gpu-memory 1=1MiB
prove_all capped
[ "$(grep -c 'stage=device_failure on=gpu 1 ' "$t/capped.log")" = 1 ] ||
  fail "capped: expected one device_failure on GPU 1: $(grep -E 'device_failure|stage=done' "$t/capped.log")"
! grep -q 'stage=done.*backend="gpu 1' "$t/capped.log" || fail "capped: a proof came from GPU 1"
[ "$(grep -c 'stage=done state=completed' "$t/capped.log")" = $jobs ] || fail "capped: not every job completed"
"$cuzk" metrics --address "unix://$t/capped.sock" > "$t/capped.metrics"
grep -q '^cuzk_gpu_failures_total{gpu="1"} 1$' "$t/capped.metrics" ||
  fail "capped: metrics: $(grep cuzk_gpu "$t/capped.metrics")"
stop capped

start capped_spread --gpu 0,1 --spread partitions --gpu-memory 1=1MiB
prove_all capped_spread
grep -q 'stage=done.*backend="spread over gpu 0 [^+]*"' "$t/capped_spread.log" ||
  fail "capped_spread: $(grep 'stage=done' "$t/capped_spread.log" | head -3)"
stop capped_spread

for name in proofs spread capped capped_spread; do
  echo "$name: $(grep -c 'stage=done state=completed' "$t/$name.log") proofs, all verified;" \
    "$(grep -cE '^[01] .* job-' "$t/$name.status" || true) busy GPU rows in $(grep -c '^GPU' "$t/$name.status") statuses"
done
grep -h 'device_failure' "$t/capped.log" | sed 's/^/capped: /'
echo OK
