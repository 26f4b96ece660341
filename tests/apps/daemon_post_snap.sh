#!/usr/bin/env bash
# WindowPoSt, WinningPoSt and SnapDeals through the daemon as Curio sends them (shared/SPEC-POST.md
# §8, SPEC-SNAP.md §8), on the CPU with 2 KiB sectors and an independent client (Node.js,
# @grpc/grpc-js: tests/oracle/grpc_client.mjs), every proof then checked by `cuzk verify` from
# public data alone:
#  - two WindowPoSt partitions under ONE request id (Curio's wdpost-<miner>-<part>-<randomness[:8]>),
#    partition_index 0 (absent on the wire) and 1: two jobs, two different proofs, which together
#    verify as the deadline's proof; the same id with the same payload joins its job;
#  - a WinningPoSt (CRITICAL, registered_proof 0 = absent on the wire) verifies;
#  - a SnapDeals update (registered_proof 0, the three commitments) verifies; re-snapping the
#    sector under the same snap-<miner>-<sector> id with another update is another job and proof;
#  - `cuzk submit --kind window-post|winning-post|snap` sends the same requests (they join those jobs);
#  - malformed requests fail their job naming the field (a truncated vanilla proof with its
#    offset, a wrong randomness length, a proof kind's registered_proof of another kind) while
#    the daemon serves on; GetStatus counts them.
# usage: daemon_post_snap.sh <cuzk binary> <tests dir> <params dir (fixture params_2k)>
set -euo pipefail
cuzk=$1
tests=$2
params=$3
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"
node_client() { node "$tests/oracle/grpc_client.mjs" --address "unix://$t/cuzk.sock" "$@"; }
field() { node -e 'const o = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(eval("o." + process.argv[1]))' "$1"; }
unhex() { node -e 'process.stdout.write(Buffer.from(require("fs").readFileSync(0, "utf8").trim(), "hex"))'; }

# Inputs: a deadline of 4 sectors (two 2 KiB partitions), a WinningPoSt sector, two updates.
"$cuzk" gen-vanilla --kind window-post --sector-size 2KiB --sectors 4 --seed 3 --out "$t/wd" > "$t/wd.txt"
wd_flags=$(sed -n 's/.*public data: //p' "$t/wd.txt")
wd_rnd=$(echo "$wd_flags" | awk '{print $4}')
"$cuzk" gen-vanilla --kind winning-post --sector-size 2KiB --seed 4 --out "$t/win" > "$t/win.txt"
win_flags=$(sed -n 's/.*public data: //p' "$t/win.txt")
win_rnd=$(echo "$win_flags" | awk '{print $4}')
for s in 1 2; do
  "$cuzk" gen-vanilla --kind snap --sector-size 2KiB --seed "$((10 + s))" --out "$t/snap$s" > "$t/snap$s.txt"
done
snap_pub() { grep -o -- "--sector-size .*" "$t/snap$1.txt"; }
snap_hex() { snap_pub "$1" | grep -o -- "--$2 [0-9a-f]*" | awk '{print $2}'; }
head -c 300 "$t/wd/sector-2.vanilla.bin" > "$t/cut.bin"

"$cuzk" daemon --listen "unix://$t/cuzk.sock" --params "$params" --gpu off > "$t/daemon.log" 2>&1 &
daemon=$!
trap 'kill $daemon 2>/dev/null || true; rm -rf "$t"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$t/daemon.log" && break; sleep 0.1; done
grep -q "listening on" "$t/daemon.log" || fail "the daemon did not start: $(cat "$t/daemon.log")"

# Curio's id formats: Go prints randomness[:8] as "[b0 b1 ... b7]".
go_bytes() { echo "[$(for i in 0 2 4 6 8 10 12 14; do printf '%d ' "0x${1:$i:2}"; done | sed 's/ $//')]"; }
wd_id="wdpost-1000-0-$(go_bytes "$wd_rnd")"
wd() {  # partition, vanilla files...
  local part=$1; shift
  local files=()
  for f in "$@"; do files+=(--vanilla "$f"); done
  node_client submit --kind WINDOW_POST_PARTITION --request-id "$wd_id" --priority HIGH --registered-proof 10 \
    --sector-size 2048 --miner-id 1000 --randomness "$wd_rnd" --partition-index "$part" "${files[@]}" | field job_id
}
p0=$(wd 0 "$t/wd/sector-1.vanilla.bin" "$t/wd/sector-2.vanilla.bin")
p1=$(wd 1 "$t/wd/sector-3.vanilla.bin" "$t/wd/sector-4.vanilla.bin")
[ "$p0" != "$p1" ] || fail "two WindowPoSt partitions under one request id joined one job"
again=$(wd 0 "$t/wd/sector-1.vanilla.bin" "$t/wd/sector-2.vanilla.bin")
[ "$again" = "$p0" ] || fail "the same request (id and payload) did not join its job: $again, $p0"
win=$(node_client submit --kind WINNING_POST --request-id "winpost-1000-${win_rnd:0:16}" --priority CRITICAL \
  --sector-size 2048 --miner-id 1000 --randomness "$win_rnd" --vanilla "$t/win/sector-1.vanilla.bin" | field job_id)
snap() {  # which update
  node_client submit --kind SNAP_DEALS_UPDATE --request-id snap-1000-7 --sector-size 2048 --miner-id 1000 \
    --sector-number 7 --comm-r-old "$(snap_hex "$1" comm-r-old)" --comm-r-new "$(snap_hex "$1" comm-r-new)" \
    --comm-d-new "$(snap_hex "$1" comm-d-new)" --vanilla "$t/snap$1/snap-2KiB.partition0.bin" | field job_id
}
s1=$(snap 1)
s2=$(snap 2)
[ "$s1" != "$s2" ] || fail "a re-snap under the same id joined the first update's job"

# The same three requests through cuzk's own client, with Curio's ids, priorities and fields by
# default (sectors given out of order, a directory): each is the same request, so it joins its job.
cz_job() { "$cuzk" submit --address "unix://$t/cuzk.sock" "$@" | sed -n 's/^job_id: //p'; }
cz=$(cz_job --kind window-post --registered-proof 10 --miner-id 1000 --randomness "$wd_rnd" \
  --vanilla "$t/wd/sector-2.vanilla.bin" --vanilla "$t/wd/sector-1.vanilla.bin")
[ "$cz" = "$p0" ] || fail "cuzk submit --kind window-post is not Curio's request: job $cz, not $p0"
cz=$(cz_job --kind winning-post --registered-proof 0 --miner-id 1000 --randomness "$win_rnd" --vanilla "$t/win")
[ "$cz" = "$win" ] || fail "cuzk submit --kind winning-post is not Curio's request: job $cz, not $win"
cz=$(cz_job --kind snap --sector-size 2KiB --miner-id 1000 --sector-number 7 --comm-r-old "$(snap_hex 2 comm-r-old)" \
  --comm-r-new "$(snap_hex 2 comm-r-new)" --comm-d-new "$(snap_hex 2 comm-d-new)" \
  --vanilla "$t/snap2/snap-2KiB.partition0.bin")
[ "$cz" = "$s2" ] || fail "cuzk submit --kind snap is not Curio's request: job $cz, not $s2"
rc=0
"$cuzk" submit --address "unix://$t/cuzk.sock" --kind window-post --registered-proof 0 --randomness "$wd_rnd" \
  --vanilla "$t/wd" > /dev/null 2> "$t/cz.err" || rc=$?
if [ $rc -ne 2 ] || ! grep -q "is a winning-post proof, not window-post" "$t/cz.err"; then
  fail "cuzk submit with another kind's registered proof: exit $rc, $(cat "$t/cz.err")"
fi

# Malformed: each fails its own job, naming the field.
bad_job() {  # expected error pattern, submit flags...
  local pattern=$1; shift
  local job
  job=$(node_client submit "$@" | field job_id)
  node_client await --job-id "$job" > "$t/bad.out"
  [ "$(field status < "$t/bad.out")" = FAILED ] || fail "malformed ($pattern): $(cat "$t/bad.out")"
  field error_message < "$t/bad.out" | grep -q -- "$pattern" || fail "the error does not name '$pattern': $(cat "$t/bad.out")"
}
bad_job "vanilla_proofs\[1\].*offset" --kind WINDOW_POST_PARTITION --request-id bad-1 --registered-proof 10 \
  --randomness "$wd_rnd" --vanilla "$t/wd/sector-1.vanilla.bin" --vanilla "$t/cut.bin"
bad_job "randomness: 31 bytes, expected 32" --kind WINDOW_POST_PARTITION --request-id bad-2 --registered-proof 10 \
  --randomness "${wd_rnd:0:62}" --vanilla "$t/wd/sector-1.vanilla.bin"
bad_job "registered_proof: 0 (StackedDrgWinning2KiBV1) is a winning-post proof" --kind WINDOW_POST_PARTITION \
  --request-id bad-3 --randomness "$wd_rnd" --vanilla "$t/wd/sector-1.vanilla.bin"
bad_job "comm_d_new: 0 bytes, expected 32" --kind SNAP_DEALS_UPDATE --request-id bad-4 \
  --comm-r-old "$(snap_hex 1 comm-r-old)" --comm-r-new "$(snap_hex 1 comm-r-new)" --vanilla "$t/snap1/snap-2KiB.partition0.bin"

proof_of() {  # job, file
  node_client await --job-id "$1" > "$t/$1.out"
  [ "$(field status < "$t/$1.out")" = COMPLETED ] || fail "job $1: $(cat "$t/$1.out")"
  field proof < "$t/$1.out" | unhex > "$2"
}
proof_of "$p0" "$t/wd0.bin"
proof_of "$p1" "$t/wd1.bin"
cmp -s "$t/wd0.bin" "$t/wd1.bin" && fail "both WindowPoSt partitions got the same proof"
cat "$t/wd0.bin" "$t/wd1.bin" > "$t/wd.bin"
# shellcheck disable=SC2086
[ "$("$cuzk" verify post --proof "$t/wd.bin" --params "$params" $wd_flags)" = valid ] || fail "WindowPoSt: not valid"
# shellcheck disable=SC2086
[ "$("$cuzk" verify post --proof "$t/wd1.bin" --partition 1 --params "$params" $wd_flags)" = valid ] \
  || fail "WindowPoSt partition 1 alone: not valid"
proof_of "$win" "$t/win.bin"
# shellcheck disable=SC2086
[ "$("$cuzk" verify post --proof "$t/win.bin" --params "$params" $win_flags)" = valid ] || fail "WinningPoSt: not valid"
for s in 1 2; do
  proof_of "$(eval echo "\$s$s")" "$t/snap$s.bin"
  # shellcheck disable=SC2046
  [ "$("$cuzk" verify snap $(snap_pub "$s") --proof "$t/snap$s.bin" --params "$params")" = valid ] \
    || fail "SnapDeals update $s: not valid"
done

node_client status > "$t/status.json"
[ "$(field total_proofs_completed < "$t/status.json")" = 5 ] || fail "status: $(cat "$t/status.json")"
[ "$(field total_proofs_failed < "$t/status.json")" = 4 ] || fail "status: $(cat "$t/status.json")"
kill -TERM "$daemon"
wait "$daemon" || fail "the daemon exited $? after SIGTERM: $(tail -5 "$t/daemon.log")"
echo "daemon_post_snap: OK"
