#!/usr/bin/env bash
# PoRep C2 on the GPU as a user runs it (label gpu: the H200), at 2 KiB and 8 MiB:
#  - `setup --device` (the key's points on the GPU) writes the same .params and .vk bytes as
#    `setup` on the CPU for one seed (2 KiB; at 8 MiB only the GPU key is made);
#  - `prove porep` on the GPU (witness-only synthesis, a, b, c by the GPU SpMV from the compiled
#    circuit) and on the CPU (ProvingCS) with one blinding seed: both verify (the engine verifies
#    every partition before it keeps it) and the bytes are identical; `verify porep` accepts;
#    the same for synthetic PoRep C1s (`gen-c1 --synthetic`, ids 10 and 11: the same key, the
#    challenges derived from comm_r), verified from public data too;
#  - with --gpu-memory below what the key and circuit need (the small-card path: both streamed
#    from the host), the same proof bytes; a limit too small for any proof is refused by name;
#  - `bench e2e` (own key on the GPU, two proofs, each verified) reports ok, capped too;
#  - the daemon on the GPU proves two C1s sent at once, both verify; `bench pipeline` runs.
# usage: gpu_porep.sh <cuzk binary>
set -euo pipefail
cuzk=$1
source "$(dirname "${BASH_SOURCE[0]}")/cli_support.sh"

"$cuzk" setup --circuit porep --sector-size 2KiB --seed 3 --out "$t/params" > "$t/setup.txt"
"$cuzk" setup --circuit porep --sector-size 2KiB --seed 3 --device --gpu 0 --out "$t/params_gpu" > "$t/setup_gpu.txt"
grep -q "points on the GPU" "$t/setup_gpu.txt" || fail "setup --device did not use the GPU: $(cat "$t/setup_gpu.txt")"
for f in "$t"/params/*; do
  cmp -s "$f" "$t/params_gpu/$(basename "$f")" || fail "setup --device wrote another $(basename "$f") than the CPU setup"
done
sed -n 's/^\(setup: .*\)/cpu \1/p' "$t/setup.txt"
sed -n 's/^\(setup: .*\)/gpu \1/p' "$t/setup_gpu.txt"

# prove_both SIZE PARAMS [KIND]: GPU and CPU proofs of one C1 with one blinding seed, identical,
# verified. KIND "synthetic" makes a synthetic PoRep C1, which is also verified from public data.
prove_both() {
  local size=$1 params=$2 kind=${3:-}
  local tag=$size${kind:+_$kind} gen=()
  [ "$kind" = synthetic ] && gen=(--synthetic)
  "$cuzk" gen-c1 --sector-size "$size" --seed 11 "${gen[@]}" --out "$t/c1_$tag.json" > "$t/gen_$tag.txt"
  "$cuzk" prove porep --c1 "$t/c1_$tag.json" --params "$params" --gpu 0 --blinding-seed 5 --out "$t/gpu_$tag.bin" \
    > "$t/gpu_$tag.txt"
  grep -q "backend gpu 0 (.*witness-only synthesis" "$t/gpu_$tag.txt" ||
    fail "$tag: --gpu 0 did not prove from the witness on GPU 0: $(cat "$t/gpu_$tag.txt")"
  "$cuzk" prove porep --c1 "$t/c1_$tag.json" --params "$params" --gpu off --blinding-seed 5 --out "$t/cpu_$tag.bin" \
    > "$t/cpu_$tag.txt"
  grep -q "backend cpu" "$t/cpu_$tag.txt" || fail "$tag: --gpu off did not prove on the CPU"
  cmp -s "$t/gpu_$tag.bin" "$t/cpu_$tag.bin" || fail "$tag: the GPU and CPU proofs differ for the same blinding seed"
  "$cuzk" verify porep --c1 "$t/c1_$tag.json" --params "$params" --proof "$t/gpu_$tag.bin" > /dev/null ||
    fail "$tag: verify porep"
  if [ "$kind" = synthetic ]; then
    grep -q "Feat_SyntheticPoRep synthetic C1" "$t/gen_$tag.txt" || fail "$tag: not a synthetic C1: $(cat "$t/gen_$tag.txt")"
    local public
    public=$(sed -n 's/^  public data: //p' "$t/gen_$tag.txt")
    [ -n "$public" ] || fail "$tag: gen-c1 printed no public data"
    # shellcheck disable=SC2086 # the public data are flags, one word each
    "$cuzk" verify porep --proof "$t/gpu_$tag.bin" --params "$params" $public > /dev/null ||
      fail "$tag: verify porep from public data"
  fi
  grep "backend" "$t/gpu_$tag.txt"
  sed -n "s/^  \(partition 0: .*\)/$tag gpu: \1/p" "$t/gpu_$tag.txt"
  sed -n "s/^  \(partition 0: .*\)/$tag cpu: \1/p" "$t/cpu_$tag.txt"
}
prove_both 2KiB "$t/params"
prove_both 2KiB "$t/params" synthetic
"$cuzk" setup --circuit porep --sector-size 8MiB --seed 4 --device --out "$t/params8" > "$t/setup8.txt"
sed -n 's/^\(setup: .*\)/gpu \1/p' "$t/setup8.txt"
prove_both 8MiB "$t/params8"
prove_both 8MiB "$t/params8" synthetic

# A limit too small for any proof is refused, naming what each placement needs ("a proof needs S
# GiB with the key and circuit on the host (R GiB with both on the device, C GiB with its stages'
# buffers in turn)"): the limits below are taken from it.
if "$cuzk" prove porep --c1 "$t/c1_8MiB.json" --params "$t/params8" --gpu 0 --gpu-memory 64MiB --out "$t/x.bin" \
  > "$t/tiny.txt" 2>&1; then
  fail "--gpu-memory 64MiB was accepted"
fi
grep -q "too little" "$t/tiny.txt" || fail "--gpu-memory 64MiB: $(cat "$t/tiny.txt")"
needs=$(sed -n 's/.*needs \([0-9.]*\) GiB with the key and circuit on the host (\([0-9.]*\) GiB with both on the device, \([0-9.]*\) GiB.*/\1 \2 \3/p' "$t/tiny.txt")
read -r streamed_gib resident_gib compact_gib <<< "$needs"
[ -n "${compact_gib:-}" ] || fail "no placement needs in: $(cat "$t/tiny.txt")"
mib() { awk -v g="$1" -v d="$2" 'BEGIN { printf "%dMiB", (g + d) * 1024 }'; }
# The small-card path: with the GPU's memory capped below what the key and circuit need beside a
# proof, both stay on the host and stream; the proof is the same bytes as the CPU's.
cap=$(mib "$streamed_gib" 0.1)
"$cuzk" prove porep --c1 "$t/c1_8MiB.json" --params "$t/params8" --gpu 0 --gpu-memory "$cap" --blinding-seed 5 \
  --out "$t/capped_8MiB.bin" > "$t/capped_8MiB.txt"
grep -q "streamed from the host" "$t/capped_8MiB.txt" || fail "--gpu-memory $cap did not stream: $(cat "$t/capped_8MiB.txt")"
cmp -s "$t/capped_8MiB.bin" "$t/cpu_8MiB.bin" || fail "8MiB: the streamed GPU proof differs from the CPU's"
sed -n "s/^  \(partition 0: .*\)/8MiB gpu capped at $cap: \1/p" "$t/capped_8MiB.txt"
# Between the compact and the resident needs: resident, the stages' buffers in turn; same bytes.
cap=$(awk -v c="$compact_gib" -v r="$resident_gib" 'BEGIN { printf "%dMiB", (c + r) / 2 * 1024 }')
"$cuzk" prove porep --c1 "$t/c1_8MiB.json" --params "$t/params8" --gpu 0 --gpu-memory "$cap" --blinding-seed 5 \
  --out "$t/compact_8MiB.bin" > "$t/compact_8MiB.txt"
grep -q "compact" "$t/compact_8MiB.txt" || fail "--gpu-memory $cap was not compact: $(cat "$t/compact_8MiB.txt")"
cmp -s "$t/compact_8MiB.bin" "$t/cpu_8MiB.bin" || fail "8MiB: the compact GPU proof differs from the CPU's"
sed -n "s/^  \(partition 0: .*\)/8MiB gpu compact at $cap: \1/p" "$t/compact_8MiB.txt"

for size in 2KiB 8MiB; do
  "$cuzk" bench e2e --sector-size $size --proofs 2 --gpu 0 --json > "$t/e2e_$size.json"
  grep -q '"msm_streams":"two".*"ok":true' "$t/e2e_$size.json" || fail "bench e2e $size: $(cat "$t/e2e_$size.json")"
  cat "$t/e2e_$size.json"
done
# One stream (b_g2 after the G1 MSMs; docs/PERF.md 56's peer): its proofs verify too.
"$cuzk" bench e2e --sector-size 2KiB --proofs 1 --gpu 0 --msm-streams one --json > "$t/e2e_one.json"
grep -q '"msm_streams":"one".*"ok":true' "$t/e2e_one.json" || fail "bench e2e one stream: $(cat "$t/e2e_one.json")"
"$cuzk" bench e2e --sector-size 8MiB --proofs 2 --gpu 0 --gpu-memory "$(mib "$streamed_gib" 0.1)" --json > "$t/e2e_capped.json"
grep -q '"placement":"streamed".*"ok":true' "$t/e2e_capped.json" || fail "bench e2e capped: $(cat "$t/e2e_capped.json")"
cat "$t/e2e_capped.json"
# The daemon on the GPU: two C1s at once through gRPC (one synthetic), both verified; GetStatus
# names the GPU.
"$cuzk" daemon --listen "unix://$t/cuzk.sock" --metrics-listen off --params "$t/params" --gpu 0 --preload porep-2k \
  --log-level debug > "$t/daemon.log" 2>&1 &
daemon=$!
trap 'kill $daemon 2>/dev/null || true; rm -rf "$t"' EXIT
for _ in $(seq 300); do grep -q "listening on" "$t/daemon.log" && break; sleep 0.1; done
grep -q "listening on.*proving on 1 GPU" "$t/daemon.log" || fail "the GPU daemon did not start: $(cat "$t/daemon.log")"
"$cuzk" prove-remote --address "unix://$t/cuzk.sock" --c1 "$t/c1_2KiB.json" --out "$t/d_a.bin" > "$t/d_a.txt" &
pa=$!
"$cuzk" prove-remote --address "unix://$t/cuzk.sock" --c1 "$t/c1_2KiB_synthetic.json" --out "$t/d_b.bin" > "$t/d_b.txt" &
pb=$!
wait $pa || fail "daemon proof a: $(cat "$t/d_a.txt")"
wait $pb || fail "daemon proof b: $(cat "$t/d_b.txt")"
"$cuzk" verify porep --c1 "$t/c1_2KiB.json" --params "$t/params" --proof "$t/d_a.bin" > /dev/null || fail "daemon proof a"
"$cuzk" verify porep --c1 "$t/c1_2KiB_synthetic.json" --params "$t/params" --proof "$t/d_b.bin" > /dev/null || fail "daemon proof b"
"$cuzk" status --address "unix://$t/cuzk.sock" > "$t/status.txt"
grep -q "H200\|NVIDIA" "$t/status.txt" || fail "status shows no GPU: $(cat "$t/status.txt")"
kill -TERM $daemon && wait $daemon || fail "the daemon did not exit 0 on SIGTERM"
grep "stage=done" "$t/daemon.log" | sed 's/^/daemon: /' || true
"$cuzk" bench pipeline --sector-size 2KiB --proofs 4 --gpu 0 --json > "$t/pipeline.json"
grep -q '"ok":true' "$t/pipeline.json" || fail "bench pipeline: $(cat "$t/pipeline.json")"
cat "$t/pipeline.json"
echo "gpu_porep: OK"
