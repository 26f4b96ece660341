#!/usr/bin/env bash
# scripts/bench-targets (the table behind `scripts/gpu-check run targets`) on bench lines made up
# to sit on either side of each target: which line and which field each row reads, what is
# skipped, and its errors.
# usage: tests/apps/bench_targets.sh <scripts/bench-targets>
set -euo pipefail
targets=$1
source "$(dirname "$0")/cli_support.sh"
cat > "$t/bench.jsonl" <<'LINES'
=== e2e_porep: ok
{"bench":"e2e","kind":"porep","sector_size":"32GiB","median_parse_ms":300.0,"median_proof_ms":9900.0,"peak_rss_gib":50.0,"ok":true}
{"bench":"e2e","kind":"porep","sector_size":"32GiB","median_parse_ms":300.0,"median_proof_ms":12500.0,"peak_rss_gib":54.5,"ok":true}
{"bench":"e2e","kind":"porep","sector_size":"2KiB","median_parse_ms":1.0,"median_proof_ms":90.0,"peak_rss_gib":99.0,"ok":true}
{"bench":"pipeline","sector_size":"32GiB","proofs":8,"partitions_per_gpu":2,"runs":[{"layout":"gpu 0","mode":"one at a time","proofs_per_hour":400.0},{"layout":"gpu 0","mode":"at once","proofs_per_hour":361.0},{"layout":"gpus 0,1 proofs","mode":"at once","proofs_per_hour":700.0},{"layout":"gpus 0,1 partitions","mode":"at once","proofs_per_hour":730.0},{"layout":"gpus 0,1 partitions","mode":"one at a time","proofs_per_hour":900.0}],"peak_rss_gib":65.0,"ok":true}
{"bench":"msm_gpu","group":"g1","log_n":27,"median_ms":501.0}
{"bench":"msm_gpu","group":"g2","log_n":26,"median_ms":100.0}
{"bench":"ntt_gpu","transform":"ntt","in":"natural","out":"bit_reversed","roots":"two-level","log_n":27,"median_ms":37.0}
{"bench":"ntt_gpu","transform":"ntt","in":"natural","out":"bit_reversed","roots":"full","log_n":27,"median_ms":34.9}
{"bench":"ntt_gpu","transform":"ntt","in":"natural","out":"natural","roots":"full","log_n":27,"median_ms":30.0}
{"bench":"ntt_gpu","transform":"h","in":"natural","out":"bit_reversed","roots":"full","log_n":27,"median_ms":251.0}
{"bench":"e2e","kind":"window-post","sector_size":"32GiB","median_parse_ms":200.0,"median_proof_ms":1400.0,"ok":true}
{"bench":"e2e","kind":"winning-post","sector_size":"32GiB","median_parse_ms":45.0,"median_proof_ms":60.0,"ok":true}
{"bench":"e2e","kind":"snap","sector_size":"32GiB","median_parse_ms":40.0,"median_proof_ms":11900.0,"ok":true}
{"bench":"latency","sector_size":"32GiB","winning_behind_porep_median_ms":300.0,"winning_behind_porep_max_ms":2100.0,"ok":true}
LINES
"$targets" "$t/bench.jsonl" > "$t/table.txt"
"$targets" --json "$t/bench.jsonl" > "$t/table.json"
# what  value  verdict, one line a row
python3 - "$t/table.json" > "$t/rows.txt" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["targets"]:
    v = "-" if r["value"] is None else f"{r['value']:g}"
    print(f"{r['what']}|{v}|{r['verdict']}")
PY
expect_row() { grep -qxF "$1" "$t/rows.txt" || fail "no row '$1' in: $(cat "$t/rows.txt")"; }
expect_row "32 GiB PoRep proof, bench e2e median|12.5|not met"                      # the last 32 GiB line counts
expect_row "32 GiB PoRep through the engine, one GPU, at once|361|met"             # not "one at a time"
expect_row "G1 MSM 2^27, random scalars|501|not met"
expect_row "G1 MSM 2^26, random scalars|-|not measured"                            # G2's 2^26 is not G1's
expect_row "NTT 2^27, natural to bit-reversed|34.9|met"                            # the best table, not the nn order
expect_row "H of a 32 GiB partition (bench ntt --transform h)|251|not met"
expect_row "peak host RSS of the 32 GiB benches|65|not met"                        # the pipeline's, not the 2 KiB one's
expect_row "32 GiB PoRep on two GPUs, at once|730|met"
expect_row "WindowPoSt 32 GiB partition, from vanilla bytes|1.6|not met"           # parse + proof, not the proof alone
expect_row "WinningPoSt 32 GiB, from vanilla bytes|0.105|not met"
expect_row "SnapDeals 32 GiB (16 partitions), from vanilla bytes|11.94|met"
expect_row "CRITICAL WinningPoSt behind PoRep (engine), worst probe|2.1|not met"   # the worst probe, not the median
expect_row "the same through the daemon (bench/daemon_latency.sh), worst|-|not measured"
[ "$(wc -l < "$t/rows.txt")" = 13 ] || fail "13 rows expected: $(cat "$t/rows.txt")"
grep -q "roots: full" "$t/table.txt" || fail "the NTT row does not name its table: $(cat "$t/table.txt")"
# Nothing measured: every row says so. Bad input: exit 2, naming the file and line.
"$targets" < /dev/null | grep -c "not measured" | grep -qx 13 || fail "an empty input is not 'not measured' throughout"
printf '{"bench":"e2e"}\n{"bench":\n' > "$t/bad.jsonl"
expect_exit 2 "bad.jsonl:2: not JSON" "$targets" "$t/bad.jsonl"
expect_exit 2 "nope.jsonl: No such file" "$targets" "$t/nope.jsonl"
printf '{"bench":"e2e"}\n\377\376{\n' > "$t/binary.jsonl"
expect_exit 2 "binary.jsonl:2: not UTF-8" "$targets" "$t/binary.jsonl"
expect_exit 2 "usage" "$targets" --what
echo '{"bench":"e2e","kind":"snap","sector_size":"32GiB","median_proof_ms":1.0}' > "$t/short.jsonl"
expect_exit 2 "lacks the field 'median_parse_ms'" "$targets" "$t/short.jsonl"
# A bench whose proofs failed to verify prints ok false: its figure is not a verdict.
echo '{"bench":"e2e","kind":"snap","sector_size":"32GiB","median_parse_ms":1.0,"median_proof_ms":1.0,"ok":false}' |
  "$targets" --json | grep -q '"what": "SnapDeals[^}]*"verdict": "failed"' || fail "a failed bench is not 'failed'"
echo "bench_targets: OK"
