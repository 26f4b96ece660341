#!/usr/bin/env bash
# Two GPUs of one host as a storage provider runs them (label gpu; exit 77, skipped, with fewer
# than two visible), at 2 KiB, through the daemon and the CLI client:
#  - `--gpu 0,1` (whole proofs, one GPU each) and `--gpu 0,1 --spread partitions` (one proof's
#    partitions over both): twelve C1s sent at once, every proof verifies with `verify porep`,
#    proofs were made on both GPUs, and a status taken during the run shows both GPUs with a job;
#  - GPU 1 capped below what any proof needs (`--gpu-memory 1=1MiB`): its prover cannot be made,
#    so the partitions it takes (one a worker at most) fail there only and go to GPU 0 (GetMetrics'
#    cuzk_gpu_failures_total for GPU 1 counts them), every proof verifies and none came from GPU 1; the
#    same cap with the partitions spread proves on GPU 0 alone;
#  - with tests/gpu/gpu_fill, at 8 MiB (proofs that allocate hundreds of MB): GPU 1 filled by
#    another process while jobs run (a real CUDA out of memory inside a proof): the attempts on
#    GPU 1 fail, their jobs move to GPU 0, GPU 1 rests; once the other process has gone and the rest
#    (30 s) is over, GPU 1 proves again, every proof verified.
# usage: gpu_multi.sh <cuzk binary> [gpu_fill binary]
set -euo pipefail
cuzk=$1
fill=${2:-}
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"

gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
[ "${gpus:-0}" -ge 2 ] || { echo "fewer than two GPUs visible: skipped"; exit 77; }

"$cuzk" setup --circuit porep --sector-size 2KiB --seed 5 --device --gpu 0 --out "$t/params" > /dev/null
jobs=12
for i in $(seq $jobs); do "$cuzk" gen-c1 --sector-size 2KiB --seed "$((100 + i))" --out "$t/c1_$i.json" > /dev/null; done

daemon=
trap 'kill $daemon 2>/dev/null || true; rm -rf "$t"' EXIT
# start <name> <daemon flags...>: a daemon on $t/<name>.sock, its log in $t/<name>.log, with the
# parameters in $params_dir, $preload loaded at start.
params_dir=$t/params preload=porep-2k
start() {
  local name=$1; shift
  "$cuzk" daemon --listen "unix://$t/$name.sock" --metrics-listen off --params "$params_dir" --preload "$preload" \
    --log-level debug "$@" > "$t/$name.log" 2>&1 &
  daemon=$!
  for _ in $(seq 300); do grep -q "listening on" "$t/$name.log" && break; sleep 0.1; done
  grep -q "listening on.*proving on 2 GPUs" "$t/$name.log" || fail "$name: the daemon did not start: $(cat "$t/$name.log")"
}
# prove_all <daemon> [<run> [<C1 prefix> [<params>]]]: the C1s $t/<prefix>_1..$jobs.json (c1_*) at
# once to the daemon, each proof verified with <params> ($t/params); statuses taken while they run
# go to $t/<run>.status.
prove_all() {
  local sock=$1 name=${2:-$1} set=${3:-c1} params=${4:-$t/params} pids=() i
  for i in $(seq $jobs); do
    "$cuzk" prove-remote --address "unix://$t/$sock.sock" --c1 "$t/${set}_$i.json" --out "$t/${name}_$i.bin" \
      > "$t/${name}_$i.txt" 2>&1 &
    pids+=($!)
  done
  for _ in $(seq 200); do
    "$cuzk" status --address "unix://$t/$sock.sock" >> "$t/$name.status" 2>&1 || true
    ls "$t/${name}"_*.bin > /dev/null 2>&1 && [ "$(ls "$t/${name}"_*.bin | wc -l)" -ge $jobs ] && break
  done
  for i in "${!pids[@]}"; do wait "${pids[$i]}" || fail "$name: proof $((i + 1)): $(cat "$t/${name}_$((i + 1)).txt")"; done
  for i in $(seq $jobs); do
    "$cuzk" verify porep --c1 "$t/${set}_$i.json" --params "$params" --proof "$t/${name}_$i.bin" > /dev/null ||
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
grep -q 'stage=done.*backend="gpu 0 [^"]* + gpu 1 ' "$t/spread.log" || fail "spread: not spread over both"
stop spread

start capped --gpu 0,1 --gpu-memory 1=1MiB
prove_all capped
# One failure per GPU 1 worker at most (gpus.partitions_per_gpu, four: each may have taken a
# partition before the first failed).
failures=$(grep -c 'stage=device_failure partition=[0-9]* on=gpu 1 ' "$t/capped.log" || true)
[ "$failures" -ge 1 ] && [ "$failures" -le 4 ] ||
  fail "capped: expected one to four device_failures on GPU 1: $(grep -E 'device_failure|stage=done' "$t/capped.log")"
! grep -q 'stage=done.*backend="gpu 1' "$t/capped.log" || fail "capped: a proof came from GPU 1"
[ "$(grep -c 'stage=done state=completed' "$t/capped.log")" = $jobs ] || fail "capped: not every job completed"
"$cuzk" metrics --address "unix://$t/capped.sock" > "$t/capped.metrics"
grep -q "^cuzk_gpu_failures_total{gpu=\"1\"} $failures\$" "$t/capped.metrics" ||
  fail "capped: metrics: $(grep cuzk_gpu "$t/capped.metrics")"
stop capped

start capped_spread --gpu 0,1 --spread partitions --gpu-memory 1=1MiB
prove_all capped_spread
grep -q 'stage=done.*backend="gpu 0 [^+"]*"' "$t/capped_spread.log" ||
  fail "capped_spread: $(grep 'stage=done' "$t/capped_spread.log" | head -3)"
stop capped_spread

if [ -n "$fill" ]; then
  "$cuzk" setup --circuit porep --sector-size 8MiB --seed 6 --device --gpu 0 --out "$t/params8" > /dev/null
  for i in $(seq $jobs); do
    "$cuzk" gen-c1 --sector-size 8MiB --seed "$((300 + i))" --out "$t/c8_$i.json" > /dev/null
    "$cuzk" gen-c1 --sector-size 8MiB --seed "$((400 + i))" --out "$t/c8b_$i.json" > /dev/null
  done
  params_dir=$t/params8 preload=porep-8m
  start filled --gpu 0,1
  "$fill" 1 20 > "$t/fill.txt" 2>&1 &
  filler=$!
  for _ in $(seq 100); do grep -q holding "$t/fill.txt" && break; sleep 0.1; done
  grep -q holding "$t/fill.txt" || fail "gpu_fill: $(cat "$t/fill.txt")"
  prove_all filled filled c8 "$t/params8"
  grep -q 'stage=device_failure partition=[0-9]* on=gpu 1 rest_s=30 next=another gpu error=".*out of memory' "$t/filled.log" ||
    fail "filled: no out-of-memory failure on GPU 1: $(grep -E 'device_failure|stage=done' "$t/filled.log" | head)"
  [ "$(grep -c 'stage=done state=completed' "$t/filled.log")" = $jobs ] || fail "filled: not every job completed"
  wait $filler || fail "gpu_fill: $(cat "$t/fill.txt")"
  sleep 31  # GPU 1's rest after its failure
  prove_all filled again c8b "$t/params8"
  [ "$(grep -c 'stage=done state=completed' "$t/filled.log")" = $((2 * jobs)) ] || fail "filled: not every job completed"
  grep 'stage=done' "$t/filled.log" | tail -n $jobs | grep -q 'backend="gpu 1' ||
    fail "filled: GPU 1 proved nothing after its rest: $(grep device_failure "$t/filled.log"; grep stage=done "$t/filled.log" | tail -3)"
  echo "filled: $(cat "$t/fill.txt"); $(grep -c 'stage=device_failure' "$t/filled.log") device failure(s);" \
    "after the rest GPU 1 proved $(grep 'stage=done' "$t/filled.log" | tail -n $jobs | grep -c 'backend="gpu 1') of $jobs"
  grep -h 'device_failure' "$t/filled.log" | head -2 | sed 's/^/filled: /'
  stop filled
fi

for name in proofs spread capped capped_spread; do
  echo "$name: $(grep -c 'stage=done state=completed' "$t/$name.log") proofs, all verified;" \
    "$(grep -cE '^[01] .* job-' "$t/$name.status" || true) busy GPU rows in $(grep -c '^GPU' "$t/$name.status") statuses"
done
grep -h 'device_failure' "$t/capped.log" | sed 's/^/capped: /'
echo OK
