#!/usr/bin/env python3
"""Independent model (Python stdlib) of synthetic-PoRep challenge derivation, and the expectation
file of tests/porep/synthetic_porep_test.cpp.

Written from a reading of rust-fil-proofs @87348a74 storage-proofs-porep/src/stacked/vanilla/
challenges.rs (SynthChallenges, module `synthetic`) and params.rs (PublicInputs::challenges); no
Rust code copied. ChaCha20 is RFC 8439's (written out below, checked against the RFC's block
test vector), BLAKE2b is hashlib's keyed BLAKE2b (RFC 7693). The 2 KiB sector is sealed by
shared/tools/seal2k_model.py (which reproduces real sectors' comm_r).

    python3 tests/data/porep/synthetic/gen.py /work/shared tests/data/porep/synthetic
"""
import hashlib
import os
import random
import struct
import sys

shared, out_dir = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(shared, "tools"))
import seal2k_model as M  # noqa: E402

MASK = 0xFFFFFFFF


def _quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK; s[d] ^= s[a]; s[d] = ((s[d] << 16) | (s[d] >> 16)) & MASK
    s[c] = (s[c] + s[d]) & MASK; s[b] ^= s[c]; s[b] = ((s[b] << 12) | (s[b] >> 20)) & MASK
    s[a] = (s[a] + s[b]) & MASK; s[d] ^= s[a]; s[d] = ((s[d] << 8) | (s[d] >> 24)) & MASK
    s[c] = (s[c] + s[d]) & MASK; s[b] ^= s[c]; s[b] = ((s[b] << 7) | (s[b] >> 25)) & MASK


def chacha20_block(key, counter, nonce):
    """RFC 8439 §2.3: 20 rounds, 32-bit block counter, 96-bit nonce."""
    init = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    init += list(struct.unpack("<8I", key)) + [counter & MASK] + list(struct.unpack("<3I", nonce))
    s = list(init)
    for _ in range(10):
        _quarter(s, 0, 4, 8, 12); _quarter(s, 1, 5, 9, 13); _quarter(s, 2, 6, 10, 14); _quarter(s, 3, 7, 11, 15)
        _quarter(s, 0, 5, 10, 15); _quarter(s, 1, 6, 11, 12); _quarter(s, 2, 7, 8, 13); _quarter(s, 3, 4, 9, 14)
    return struct.pack("<16I", *[(x + y) & MASK for x, y in zip(s, init)])


def keystream(key, nonce, offset, length):
    out = b""
    block = offset // 64
    while len(out) < offset % 64 + length:
        out += chacha20_block(key, block, nonce)
        block += 1
    return out[offset % 64: offset % 64 + length]


# RFC 8439 §2.3.2 test vector: key 00..1f, nonce 00 00 00 09 00 00 00 4a 00 00 00 00, counter 1.
_rfc = chacha20_block(bytes(range(32)), 1, bytes.fromhex("000000090000004a00000000"))
assert _rfc[:16].hex() == "10f1e7e4d13b5915500fdd1fa32071c4", _rfc[:16].hex()

NONCE = b"synth-porep\x00"
GEN_KEY = b"filecoin.io|PoRep|1|Synthetic|1|Generation"
SEL_KEY = b"filecoin.io|PoRep|1|Synthetic|1|Selection"


def chacha_key(tag, a, b):
    return hashlib.blake2b(a + b, digest_size=32, key=tag).digest()


def synth_set(replica_id, comm_r, nodes, count):
    """All `count` synthetic challenges: 32 keystream bytes each, LE, mod (nodes - 1), + 1."""
    ks = keystream(chacha_key(GEN_KEY, replica_id, comm_r), NONCE, 0, 32 * count)
    return [int.from_bytes(ks[32 * i:32 * i + 32], "little") % (nodes - 1) + 1 for i in range(count)]


def synth_indexes(replica_id, seed, count, cpp, k):
    k &= 0xFF  # challenges.rs: k as u8
    ks = keystream(chacha_key(SEL_KEY, replica_id, seed), NONCE, 4 * cpp * k, 4 * cpp)
    return [struct.unpack("<I", ks[4 * j:4 * j + 4])[0] % count for j in range(cpp)]


def synth_challenges(replica_id, comm_r, seed, nodes, cpp, k, count=None):
    count = count if count is not None else min(nodes, 1 << 18)
    idx = synth_indexes(replica_id, seed, count, cpp, k)
    key = chacha_key(GEN_KEY, replica_id, comm_r)
    return [int.from_bytes(keystream(key, NONCE, 32 * i, 32), "little") % (nodes - 1) + 1 for i in idx]


def fr(v):
    return v.to_bytes(32, "little")


# rust-fil-proofs challenges.rs test_synth_challenges_against_hardcoded: nodes 2^10, replica_id 55,
# comm_r 101, 21 synthetic challenges, 10 porep challenges with randomness [1; 32].
assert synth_set(fr(55), fr(101), 1 << 10, 21) == [178, 297, 869, 211, 875, 477, 94, 781, 124, 332, 856, 801,
                                                  176, 692, 429, 691, 290, 204, 986, 210, 973]
assert synth_challenges(fr(55), fr(101), bytes([1] * 32), 1 << 10, 10, 0, count=21) == \
    [176, 781, 801, 986, 290, 211, 692, 856, 986, 332]

rng = random.Random(20261202)


def rand_fr():
    b = bytearray(rng.randbytes(32))
    b[31] &= 0x3F
    return bytes(b)


lines = []
# A 32 GiB-shaped case: 2^30 nodes, 2^18 synthetic challenges, 10 partitions of 18 (and k = 259,
# which challenges.rs reads as 3).
rid, comm_r, seed = rand_fr(), rand_fr(), rng.randbytes(32)
nodes, cpp = 1 << 30, 18
lines.append(f"case32g {rid.hex()} {comm_r.hex()} {seed.hex()}")
lines.append("set " + " ".join(map(str, synth_set(rid, comm_r, nodes, 12))))
for k in list(range(10)) + [259]:
    lines.append(f"indexes {k} " + " ".join(map(str, synth_indexes(rid, seed, 1 << 18, cpp, k))))
    lines.append(f"challenges {k} " + " ".join(map(str, synth_challenges(rid, comm_r, seed, nodes, cpp, k))))

# A sealed 2 KiB committed-capacity sector under StackedDrg2KiBV1_1_Feat_SyntheticPoRep (id 10):
# comm_r from seal2k_model, then the partition's 2 challenges of 64 synthetic ones.
miner, sector_id = 1234, 4321
ticket, seed2 = rand_fr(), rand_fr()
porep_id = struct.pack("<QQ", 10, 0) + bytes(16)
sealed = M.seal(M.prover_id_from_actor(miner), sector_id, ticket, porep_id, bytes(2048))
challenges = synth_challenges(sealed["replica_id"], sealed["comm_r"], seed2, 64, 2, 0)
lines.append(f"sector2k {miner} {sector_id} {ticket.hex()} {seed2.hex()}")
lines.append(f"sealed2k {sealed['comm_d'].hex()} {sealed['replica_id'].hex()} {sealed['comm_r'].hex()}")
lines.append("challenges2k " + " ".join(map(str, challenges)))

with open(os.path.join(out_dir, "vectors.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))
