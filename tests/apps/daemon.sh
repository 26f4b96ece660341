#!/usr/bin/env bash
# The daemon as Curio and a storage provider meet it, on the CPU with 2 KiB sectors (issue 8):
#  - an independent client (Node.js, @grpc/grpc-js with our proto file: tests/oracle/grpc_client.mjs)
#    submits two C1s at different priorities, a malformed one, and one request id twice; both proofs
#    complete and verify (`cuzk verify porep` from the C1's public data), the malformed one FAILED
#    with a message naming the field while the others go on, the resubmitted id joins its job; the
#    synthetic one (Curio's wrapper) verifies from public data alone as synthetic PoRep, not as
#    interactive PoRep nor under another seed;
#  - a queued job is cancelled (was_running false, then CANCELLED); GetStatus counts the proofs;
#  - the CLI client: status, metrics, prove-remote (a known request id: joined, not proved again),
#    preload / evict; HTTP /metrics in Prometheus text;
#  - SIGTERM drains and exits 0.
# usage: daemon.sh <cuzk binary> <tests dir> <params dir (fixture params_2k)>
set -euo pipefail
cuzk=$1
tests=$2
params=$3
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"
node_client() { node "$tests/oracle/grpc_client.mjs" --address "unix://$t/cuzk.sock" "$@"; }
field() { node -e 'const o = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(eval("o." + process.argv[1]))' "$1"; }

"$cuzk" gen-c1 --sector-size 2KiB --seed 11 --out "$t/a.json" > /dev/null
# Curio's wrapper, of a sector sealed with UseSyntheticPoRep (StackedDrg2KiBV1_1_Feat_SyntheticPoRep)
"$cuzk" gen-c1 --sector-size 2KiB --seed 12 --synthetic --curio --out "$t/b.json" > "$t/b.txt"
b_public=$(grep -o -- "--registered-proof .*" "$t/b.txt")
sed 's/"layer_index":2/"layer_index":3/' "$t/a.json" > "$t/bad.json"

"$cuzk" daemon --listen "unix://$t/cuzk.sock" --metrics-listen 127.0.0.1:0 --params "$params" --gpu off \
  --log-level debug > "$t/daemon.log" 2>&1 &
daemon=$!
trap 'kill $daemon 2>/dev/null || true; rm -rf "$t"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$t/daemon.log" && break; sleep 0.1; done
grep -q "listening on" "$t/daemon.log" || fail "the daemon did not start: $(cat "$t/daemon.log")"

# The first job takes the only CPU worker at once; the rest queue behind it.
a=$(node_client submit --c1 "$t/a.json" --request-id porep-1000-11 --priority LOW | field job_id)
b=$(node_client submit --c1 "$t/b.json" --request-id porep-1000-12 --priority HIGH | field job_id)
bad=$(node_client submit --c1 "$t/bad.json" --request-id porep-1000-13 | field job_id)
again=$(node_client submit --c1 "$t/a.json" --request-id porep-1000-11 | field job_id)
[ "$again" = "$a" ] || fail "a resubmitted request id got job $again, not $a"
c=$(node_client submit --c1 "$t/a.json" --request-id porep-1000-14 --priority LOW | field job_id)
node_client cancel --job-id "$c" | field was_running | grep -qx false || fail "cancel of a queued job: was_running"
node_client await --job-id "$c" | field status | grep -qx CANCELLED || fail "the cancelled job did not end CANCELLED"

node_client await --job-id "$bad" > "$t/bad.out"
[ "$(field status < "$t/bad.out")" = FAILED ] || fail "malformed C1: $(cat "$t/bad.out")"
field error_message < "$t/bad.out" | grep -q "vanilla_proofs.StackedDrg2KiBV1\[0\]\[0\].labeling_proofs\[1\]" \
  || fail "the malformed C1's error does not name the field: $(cat "$t/bad.out")"
for job in "$a" "$b"; do
  node_client await --job-id "$job" > "$t/$job.out"
  [ "$(field status < "$t/$job.out")" = COMPLETED ] || fail "job $job: $(cat "$t/$job.out")"
  [ "$(field total_ms < "$t/$job.out")" -ge "$(field gpu_compute_ms < "$t/$job.out")" ] || fail "timings: $(cat "$t/$job.out")"
done
unhex() { node -e 'process.stdout.write(Buffer.from(require("fs").readFileSync(0, "utf8").trim(), "hex"))'; }
field proof < "$t/$a.out" | unhex > "$t/a.bin"
field proof < "$t/$b.out" | unhex > "$t/b.bin"
"$cuzk" verify porep --c1 "$t/a.json" --proof "$t/a.bin" --params "$params" | grep -qx valid || fail "proof a"
"$cuzk" verify porep --c1 "$t/b.json" --proof "$t/b.bin" --params "$params" | grep -qx valid || fail "proof b"
# The synthetic proof from public data alone (gen-c1's line: miner, sector, ticket, seed, comm_r,
# comm_d): valid as StackedDrg2KiBV1_1_Feat_SyntheticPoRep, INVALID (exit 1) as interactive PoRep
# (other challenges, other porep_id) or under another seed.
# shellcheck disable=SC2086
"$cuzk" verify porep --proof "$t/b.bin" --params "$params" $b_public | grep -qx valid || fail "proof b from public data"
b_seed=$(echo "$b_public" | grep -o -- "--seed [0-9a-f]*" | cut -d' ' -f2)
other_seed="${b_seed:0:62}$(printf '%02x' $(( (16#${b_seed:62:2} + 1) % 64 )))"
for variant in "${b_public/_Feat_SyntheticPoRep/}" "${b_public/$b_seed/$other_seed}"; do
  set +e
  # shellcheck disable=SC2086
  "$cuzk" verify porep --proof "$t/b.bin" --params "$params" $variant > "$t/v.txt"
  rc=$?
  set -e
  [ "$rc" = 1 ] && grep -qx INVALID "$t/v.txt" || fail "verify porep $variant: exit $rc, expected 1 (INVALID)"
done
# Priorities' order is the engine's test (tests/engine); here both ran, one after the other.
[ "$(grep -c "stage=start on=cpu" "$t/daemon.log")" = 2 ] || fail "expected two proofs: $(grep stage=start "$t/daemon.log")"

node_client status > "$t/status.json"
[ "$(field total_proofs_completed < "$t/status.json")" = 2 ] || fail "status: $(cat "$t/status.json")"
[ "$(field total_proofs_failed < "$t/status.json")" = 1 ] || fail "status: $(cat "$t/status.json")"
field 'loaded_srs[0].circuit_id' < "$t/status.json" | grep -qx porep-2k || fail "status: $(cat "$t/status.json")"

# The CLI client: a known request id joins its finished job (the same proof, at once).
"$cuzk" prove-remote --address "unix://$t/cuzk.sock" --c1 "$t/a.json" --request-id porep-1000-11 --out "$t/a2.bin" > /dev/null
cmp -s "$t/a.bin" "$t/a2.bin" || fail "prove-remote of a known request id gave other bytes"
# (Outputs go to files first: `grep -q` closing a pipe early would fail the writer under pipefail.)
"$cuzk" status --address "unix://$t/cuzk.sock" > "$t/status.txt"
grep -q "porep-2k" "$t/status.txt" || fail "cuzk status: $(cat "$t/status.txt")"
"$cuzk" metrics --address "unix://$t/cuzk.sock" > "$t/metrics.grpc.txt"
grep -q 'cuzk_proofs_total{kind="porep_seal_commit",state="completed"} 2' "$t/metrics.grpc.txt" \
  || fail "cuzk metrics: $(grep cuzk_proofs_total "$t/metrics.grpc.txt")"
"$cuzk" evict --address "unix://$t/cuzk.sock" --circuit-id porep-2k > "$t/evict.txt"
grep -q "porep-2k: evicted" "$t/evict.txt" || fail "evict: $(cat "$t/evict.txt")"
"$cuzk" preload --address "unix://$t/cuzk.sock" --circuit-id porep-2k > "$t/preload.txt"
grep -q "porep-2k: loaded in" "$t/preload.txt" || fail "preload: $(cat "$t/preload.txt")"
expect_exit 2 "NOT_FOUND" "$cuzk" await --address "unix://$t/cuzk.sock" --job-id job-nothing

# HTTP /metrics (bash's /dev/tcp: no curl needed).
port=$(grep -o "metrics on http://127.0.0.1:[0-9]*" "$t/daemon.log" | grep -o "[0-9]*$")
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /metrics HTTP/1.0\r\n\r\n' >&3
cat <&3 > "$t/metrics.txt"
exec 3<&-
grep -q "^HTTP/1.0 200" "$t/metrics.txt" || fail "/metrics: $(head -3 "$t/metrics.txt")"
grep -q '^cuzk_stage_seconds_count{kind="porep_seal_commit",stage="total"} 2' "$t/metrics.txt" || fail "/metrics histogram"

kill -TERM "$daemon"
wait "$daemon" || fail "the daemon exited $? after SIGTERM: $(tail -5 "$t/daemon.log")"
grep -q "draining" "$t/daemon.log" || fail "no drain line"
echo "daemon: OK"
