#!/usr/bin/env bash
# A CRITICAL WinningPoSt through the daemon while PoRep jobs fill its queue and GPU, as Curio
# would send them: the request path of `bench latency` (engine in process) plus gRPC, the wire
# decoding and the client. Our own keys (setup --seed: a benchmark's, insecure), synthetic inputs.
#   1. keys: PoRep (points on the GPU) and WinningPoSt of the size into WORK/params;
#   2. inputs: one synthetic C1 (Curio's wrapper), one WinningPoSt sector's vanilla proof;
#   3. the daemon on GPU 0, both circuits preloaded;
#   4. WinningPoSts alone (`cuzk prove-remote --kind winning-post`, Curio's id and priority);
#   5. PoRep jobs submitted at once (`cuzk submit`, distinct ids), then WinningPoSt probes while
#      they run; each probe's wall time from the client's start to the verified proof.
# Prints one JSON line: {"bench":"daemon_latency", ...}; stage times go to stderr.
# usage: bench/daemon_latency.sh <cuzk binary> [sector size, default 32GiB] [PoRep jobs, default 2]
#        [probes, default 3] [work directory, default a fresh one under $TMPDIR, removed after]
# GPU=off runs it on the CPU (a check of the script at 2KiB), else GPU 0. LOG_LEVEL=debug logs each
# job's stages (submit, parse, start, done with its queue, synthesis and GPU times); the probes'
# lines are then copied to stderr at the end.
set -euo pipefail
cuzk=$1
size=${2:-32GiB}
poreps=${3:-2}
probes=${4:-3}
work=${5:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'kill $daemon 2>/dev/null || true; rm -rf "$work"' EXIT
else
  mkdir -p "$work"
  trap 'kill $daemon 2>/dev/null || true' EXIT
fi
daemon=
sock="unix://$work/cuzk.sock"
short=$(echo "$size" | tr '[:upper:]' '[:lower:]' | sed 's/ib$//')  # 32GiB -> 32g
now_ms() { echo $(($(date +%s%N) / 1000000)); }
stage() { echo "daemon_latency: $*" >&2; }

t0=$(now_ms)
gpu=${GPU:-0}
device=(--device)
[ "$gpu" = off ] && device=()
"$cuzk" setup --circuit porep --sector-size "$size" --seed 7 "${device[@]}" --out "$work/params" > "$work/setup_porep.txt"
"$cuzk" setup --circuit winning-post --sector-size "$size" --seed 8 --out "$work/params" > "$work/setup_winning.txt"
stage "keys in $(($(now_ms) - t0)) ms; $(du -sh "$work/params" | cut -f1) on disk"
"$cuzk" gen-c1 --sector-size "$size" --seed 9 --miner-id 1000 --sector-id 1 --curio --out "$work/c1.json" > /dev/null
"$cuzk" gen-vanilla --kind winning-post --sector-size "$size" --seed 10 --out "$work/win" > "$work/win.txt"
win_rnd=$(sed -n 's/.*public data: //p' "$work/win.txt" | awk '{print $4}')
win_proof=$(sed -n 's/.*public data: //p' "$work/win.txt" | awk '{print $2}')

t0=$(now_ms)
"$cuzk" daemon --listen "$sock" --metrics-listen off --params "$work/params" --gpu "$gpu" --log-level "${LOG_LEVEL:-info}" \
  --preload "porep-$short" "winning-post-$short" > "$work/daemon.log" 2>&1 &
daemon=$!
for _ in $(seq 3000); do grep -q "listening on" "$work/daemon.log" && break; sleep 0.1; done
grep -q "listening on" "$work/daemon.log" || { cat "$work/daemon.log" >&2; exit 1; }
stage "daemon up in $(($(now_ms) - t0)) ms"

# A WinningPoSt as Curio sends it (CRITICAL), under an id of its own (the same id and payload
# would join the finished job). Prints its wall time in ms.
winning() {
  local start
  start=$(now_ms)
  "$cuzk" prove-remote --address "$sock" --kind winning-post --registered-proof "$win_proof" --miner-id 1000 \
    --randomness "$win_rnd" --vanilla "$work/win" --request-id "winpost-probe-$1" --out "$work/win-$1.bin" \
    > "$work/win-$1.txt" || { cat "$work/win-$1.txt" >&2; exit 1; }
  echo $(($(now_ms) - start))
}
alone=()
for i in $(seq 0 "$probes"); do alone+=("$(winning "alone-$i")"); done  # the first warms the prover
alone=("${alone[@]:1}")
stage "WinningPoSt alone: ${alone[*]} ms"

t0=$(now_ms)
jobs=()
for i in $(seq 1 "$poreps"); do
  jobs+=("$("$cuzk" submit --address "$sock" --c1 "$work/c1.json" --request-id "porep-busy-$i" |
    sed -n 's/^job_id: //p')")
done
behind=()
for i in $(seq 1 "$probes"); do
  sleep 3
  behind+=("$(winning "behind-$i")")
done
for j in "${jobs[@]}"; do
  "$cuzk" await --address "$sock" --job-id "$j" --out "$work/$j.bin" > "$work/$j.txt" || { cat "$work/$j.txt" >&2; exit 1; }
done
porep_ms=$(($(now_ms) - t0))
stage "WinningPoSt behind $poreps PoRep jobs: ${behind[*]} ms; the PoRep jobs done in $porep_ms ms"
kill -TERM "$daemon" && wait "$daemon"
daemon=
grep 'request_id="winpost-probe-behind' "$work/daemon.log" >&2 || true

join() { local IFS=,; echo "$*"; }
sorted=$(printf '%s\n' "${behind[@]}" | sort -n)
median=$(echo "$sorted" | sed -n "$(((${#behind[@]} + 1) / 2))p")
worst=$(echo "$sorted" | tail -1)
echo "{\"bench\":\"daemon_latency\",\"sector_size\":\"$size\",\"porep_jobs\":$poreps,\"winning_alone_ms\":[$(join "${alone[@]}")],\"winning_behind_porep_ms\":[$(join "${behind[@]}")],\"winning_behind_porep_median_ms\":$median,\"winning_behind_porep_max_ms\":$worst,\"porep_jobs_ms\":$porep_ms}"
