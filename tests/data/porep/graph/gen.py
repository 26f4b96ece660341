#!/usr/bin/env python3
"""Regenerates the expectation files of tests/porep/graph_test.cpp and challenges_test.cpp from
shared/tools/seal2k_model.py (the Python oracle that reproduces a real 2 KiB sector's comm_r and
whose public inputs verify a real proof).

    python3 tests/data/porep/graph/gen.py /work/shared tests/data/porep/graph
"""
import json
import os
import random
import struct
import sys

shared, out_dir = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(shared, "tools"))
import seal2k_model as M  # noqa: E402


def porep_id(proof_id):
    return struct.pack("<QQ", proof_id, 0) + bytes(16)


# parents.txt: "graph <nodes> <V1_0|V1_1> <porep_id hex>" then "<node> d0..d5 e0..e7" lines.
# Registered proof ids (rust-filecoin-proofs-api registry.rs): StackedDrg{2KiB,8MiB,512MiB,32GiB,
# 64GiB}V1 = 0..4, V1_1 = 5..9.
GRAPHS = [
    (1 << 6, "V1_1", porep_id(5), "all"),
    (1 << 6, "V1_0", porep_id(0), "all"),
    (1 << 6, "V1_1", bytes(32), "all"),  # polka-storage fixture: porep_id all zero
    (1 << 18, "V1_1", porep_id(6), 300),
    (1 << 18, "V1_0", porep_id(1), 100),
    (1 << 30, "V1_1", porep_id(8), 200),
    (1 << 30, "V1_0", porep_id(3), 100),
    (1 << 31, "V1_1", porep_id(9), 100),
    (1 << 31, "V1_0", porep_id(4), 100),
]
rng = random.Random(20261129)
with open(os.path.join(out_dir, "parents.txt"), "w") as f:
    for nodes, api, pid, sample in GRAPHS:
        g = M.StackedGraph(nodes, pid, api)
        if sample == "all":
            ns = list(range(nodes))
        else:
            ns = sorted({0, 1, 2, 3, nodes - 1, nodes - 2} | {rng.randrange(nodes) for _ in range(sample)})
        f.write("graph %d %s %s\n" % (nodes, api, pid.hex()))
        for n in ns:
            f.write("%d %s\n" % (n, " ".join(map(str, g.drg_parents(n) + g.exp_parents(n)))))

# labels_2k.txt: the model's default 2 KiB sector (miner 1000, sector 1, zero ticket, porep id 5,
# zero data): key/value lines, then "label <layer> <node> <hex LE>" for both layers.
prover = M.prover_id_from_actor(1000)
ticket = bytes(32)
data = M.fr32_pad(bytes(2032))
r = M.seal(prover, 1, ticket, porep_id(5), data, layers=2, api="V1_1")
with open(os.path.join(out_dir, "labels_2k.txt"), "w") as f:
    f.write("prover_id %s\n" % prover.hex())
    f.write("sector_id 1\n")
    f.write("ticket %s\n" % ticket.hex())
    f.write("porep_id %s\n" % porep_id(5).hex())
    f.write("comm_d %s\n" % r["comm_d"].hex())
    f.write("replica_id %s\n" % r["replica_id"].hex())
    for layer, labels in enumerate(r["labels"], start=1):
        for node, lab in enumerate(labels):
            f.write("label %d %d %s\n" % (layer, node, lab.hex()))

# fixture_2k.txt: replica_id, challenges and public inputs of shared/fixtures/polka-storage-2KiB.
fx = json.load(open(os.path.join(shared, "fixtures/polka-storage-2KiB/porep_2KiB.public.json")))
pid = bytes.fromhex(fx["rust_fil_proofs_config"]["porep_id_hex"])
comm_d = bytes.fromhex(fx["comm_d_hex"])
comm_r = bytes.fromhex(fx["comm_r_hex"])
rid = M.replica_id_of(bytes.fromhex(fx["prover_id_hex"]), fx["sector_id"], bytes.fromhex(fx["ticket_hex"]),
                      comm_d, pid)
g = M.StackedGraph(64, pid, "V1_1")
ch = M.interactive_challenges(rid, bytes.fromhex(fx["seed_hex"]), 64, cpp=2, k=0)
pub = [int.from_bytes(rid, "little"), int.from_bytes(comm_d, "little"), int.from_bytes(comm_r, "little")]
for c in ch:
    pub += [c] + g.drg_parents(c) + g.exp_parents(c) + [c, c, c]
with open(os.path.join(out_dir, "fixture_2k.txt"), "w") as f:
    f.write("replica_id %s\n" % rid.hex())
    f.write("challenges %s\n" % " ".join(map(str, ch)))
    for v in pub:
        f.write("input %064x\n" % v)
    # 32 GiB shape (2^30 nodes, 18 challenges per partition) from the same replica_id and seed:
    # partitions 0 and 9.
    for k in (0, 9):
        ch32 = M.interactive_challenges(rid, bytes.fromhex(fx["seed_hex"]), 1 << 30, cpp=18, k=k)
        f.write("challenges32g %d %s\n" % (k, " ".join(map(str, ch32))))
