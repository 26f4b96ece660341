#!/usr/bin/env bash
# `cuzk params check` (docs/curio.md, Parameters): exit 1 naming the missing official files of
# four proof kinds and where they go; 1 with both digests for a damaged file; 2 for a bad size;
# the directory from $FIL_PROOFS_PARAMETER_CACHE when none is given.
set -euo pipefail
cuzk=$1
source "$(dirname "$0")/cli_support.sh"
stem=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
mkdir -p "$t/p"

set +e
"$cuzk" params check --sector-size 2KiB "$t/p" > "$t/out"; rc=$?
set -e
[ $rc = 1 ] || fail "an empty directory exited $rc, expected 1"
grep -q "^  $stem.params$" "$t/out" || fail "the missing .params is not listed: $(cat "$t/out")"
grep -q "fetched into $t/p" "$t/out" || fail "no directory to fetch into: $(cat "$t/out")"
for kind in porep window-post winning-post snap-deals; do
  grep -q "^  $kind 2KiB " "$t/out" || fail "$kind 2KiB not listed: $(cat "$t/out")"
done

printf 'abc' > "$t/p/$stem.params"   # BLAKE2b-512("abc") begins ba80a53f981c4d0d (RFC 7693)
printf 'abc' > "$t/p/$stem.vk"
set +e
FIL_PROOFS_PARAMETER_CACHE=$t/p "$cuzk" params check --sector-size 2KiB > "$t/out"; rc=$?
set -e
[ $rc = 1 ] || fail "damaged files exited $rc, expected 1"
grep -q "DIGEST MISMATCH: $stem.params hashes to ba80a53f981c4d0d6a2797b69f12f6e9, parameters.json says 434fb1338ecfaf0f59256f30dde4968f" "$t/out" \
  || fail "the mismatch does not give both digests: $(cat "$t/out")"
grep -q "^damaged" "$t/out" || fail "no verdict: $(cat "$t/out")"

expect_exit 2 "expected one of 2KiB" "$cuzk" params check --sector-size 3KiB "$t/p"
echo "cli_params: all checks passed"
