#!/usr/bin/env python3
"""Writes porep_2KiB.inputs.txt: the 40 public inputs (ONE excluded) of the real 2 KiB PoRep
proof in shared/fixtures/polka-storage-2KiB, one decimal integer per line, computed by the
shared reference model shared/tools/seal2k_model.py (replica_id, challenges, DRG and expander
parents) from the fixture's public data. Independent of cuzk's code; run once:
    python3 tests/data/groth16/make_porep_2KiB_inputs.py > tests/data/groth16/porep_2KiB.inputs.txt
"""
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
shared = os.path.join(here, "..", "..", "..", "..", "shared")
sys.path.insert(0, os.path.join(shared, "tools"))
import seal2k_model as M  # noqa: E402

pub = json.load(open(os.path.join(shared, "fixtures", "polka-storage-2KiB", "porep_2KiB.public.json")))
prover_id = bytes.fromhex(pub["prover_id_hex"])
porep_id = bytes.fromhex(pub["rust_fil_proofs_config"]["porep_id_hex"])
comm_d, comm_r = bytes.fromhex(pub["comm_d_hex"]), bytes.fromhex(pub["comm_r_hex"])
rid = M.replica_id_of(prover_id, pub["sector_id"], bytes.fromhex(pub["ticket_hex"]), comm_d, porep_id)
g = M.StackedGraph(64, porep_id, "V1_1")
ch = M.interactive_challenges(rid, bytes.fromhex(pub["seed_hex"]), g.nodes, cpp=2, k=0)
inputs = [int.from_bytes(rid, "little"), int.from_bytes(comm_d, "little"), int.from_bytes(comm_r, "little")]
for c in ch:
    inputs += [c] + g.drg_parents(c) + g.exp_parents(c) + [c, c, c]
for v in inputs:
    print(v)
