// A second, independent client of the cuzk.v1 gRPC service (shared/SPEC.md §7): @grpc/grpc-js
// with our proto/cuzk/v1/proving.proto loaded at run time by @grpc/proto-loader, no generated
// code and nothing of cuzk's C++. Tests drive the daemon through it to check wire compatibility
// the way Curio's Go client talks (lib/cuzk/client.go: insecure channel, 256 MiB messages,
// PoRep sent as proof_kind POREP_SEAL_COMMIT with the C1 bytes in vanilla_proof).
//
//   node grpc_client.mjs --address unix:///path|/path|host:port [--proto proving.proto]
//        [--deadline-ms N] <command> [flags]
//   prove   --c1 FILE --request-id ID [--priority NORMAL] [--sector-size N --registered-proof N]
//           [--sector-number N] [--miner-id N]                                     (Prove)
//           or, as Curio sends PoSt and SnapDeals (lib/ffi/cuzk_funcs.go; SPEC-POST §8,
//           SPEC-SNAP §8): --kind WINDOW_POST_PARTITION|WINNING_POST|SNAP_DEALS_UPDATE
//           --vanilla FILE (repeatable, in order) --request-id ID [--registered-proof N]
//           [--sector-size N] [--randomness HEX] [--partition-index N] [--miner-id N]
//           [--sector-number N] [--comm-r-old HEX --comm-r-new HEX --comm-d-new HEX]
//   submit  the same flags                                                       (SubmitProof)
//   await   --job-id ID [--timeout-ms N]                                          (AwaitProof)
//   cancel  --job-id ID                                                          (CancelProof)
//   status | metrics                                                 (GetStatus, GetMetrics)
//   preload | evict  --circuit-id porep-32g                            (PreloadSRS, EvictSRS)
//
// Output: exactly one JSON object on stdout, the response message with every field present
// (proto3 defaults included) and names as in the proto: bytes as lower-case hex, enums by name,
// uint64 as decimal strings, uint32 and bool as JSON numbers and booleans. Exit 0 when the RPC
// succeeded (whatever the proof's status), 2 on a gRPC error or bad usage, the reason on stderr:
// "grpc_client <command>: <CODE> (<n>): <details>".
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

// Curio: grpc.MaxCallRecvMsgSize(256<<20), grpc.MaxCallSendMsgSize(256<<20).
const kMaxMessageBytes = 256 << 20;

// The PoRep proofs Curio seals with (rust-filecoin-proofs-api registry.rs REGISTERED_PROOF_IDS
// 0..14: interactive V1, V1_1, and V1_1 with synthetic challenges): name -> [id, sector size].
const kSealProofs = new Map(
  [['2KiB', 2n ** 11n], ['8MiB', 2n ** 23n], ['512MiB', 2n ** 29n], ['32GiB', 2n ** 35n], ['64GiB', 2n ** 36n]]
    .flatMap(([size, bytes], i) => [
      [`StackedDrg${size}V1`, [i, bytes]],
      [`StackedDrg${size}V1_1`, [i + 5, bytes]],
      [`StackedDrg${size}V1_1_Feat_SyntheticPoRep`, [i + 10, bytes]],
    ]),
);

class Usage extends Error {}

function fail(command, message) {
  process.stderr.write(`grpc_client ${command}: ${message}\n`);
  process.exit(2);
}

// Bytes become hex; everything else is kept (proto-loader already gave enums as names and
// 64-bit integers as strings).
function toJson(value) {
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (Array.isArray(value)) return value.map(toJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  }
  return value;
}

// SPEC §6: the C1 is either the SealCommitPhase1Output JSON or Curio's wrapper
// {"SectorNum", "Phase1Out": base64 of that JSON, "SectorSize"}.
function describeC1(bytes) {
  const outer = JSON.parse(bytes.toString('utf8'));
  const wrapped = typeof outer.Phase1Out === 'string';
  const inner = wrapped ? JSON.parse(Buffer.from(outer.Phase1Out, 'base64').toString('utf8')) : outer;
  const entry = kSealProofs.get(inner.registered_proof);
  if (!entry) throw new Usage(`C1 registered_proof ${JSON.stringify(inner.registered_proof)} is not a PoRep proof Curio seals with`);
  return {
    registered_proof: String(entry[0]),
    sector_size: wrapped && outer.SectorSize !== undefined ? String(outer.SectorSize) : String(entry[1]),
    sector_number: wrapped && outer.SectorNum !== undefined ? String(outer.SectorNum) : undefined,
  };
}

// PoSt and SnapDeals as Curio fills them: zero fields stay unset (proto3 sends no zero).
function vanillaRequest(v) {
  if (!v.vanilla?.length) throw new Usage('--vanilla is required for --kind ' + v.kind);
  if (!v['request-id']) throw new Usage('--request-id is required');
  const hex = (flag) => (v[flag] === undefined ? undefined : Buffer.from(v[flag], 'hex'));
  return {
    request_id: v['request-id'],
    proof_kind: v.kind,
    sector_size: v['sector-size'] ?? '0',
    registered_proof: v['registered-proof'] ?? '0',
    priority: /^\d+$/.test(v.priority ?? '') ? Number(v.priority) : (v.priority ?? 'NORMAL').toUpperCase(),
    vanilla_proofs: v.vanilla.map((f) => readFileSync(f)),
    sector_number: v['sector-number'] ?? '0',
    miner_id: v['miner-id'] ?? '0',
    randomness: hex('randomness'),
    partition_index: Number(v['partition-index'] ?? 0),
    comm_r_old: hex('comm-r-old'),
    comm_r_new: hex('comm-r-new'),
    comm_d_new: hex('comm-d-new'),
  };
}

function submitRequest(v) {
  if (v.kind !== undefined && v.kind !== 'POREP_SEAL_COMMIT') return vanillaRequest(v);
  if (!v.c1) throw new Usage('--c1 is required');
  if (!v['request-id']) throw new Usage('--request-id is required');
  const bytes = readFileSync(v.c1);
  const given = v['sector-size'] !== undefined && v['registered-proof'] !== undefined;
  const c1 = given ? {} : describeC1(bytes);
  return {
    request_id: v['request-id'],
    proof_kind: 'POREP_SEAL_COMMIT',
    sector_size: v['sector-size'] ?? c1.sector_size,
    registered_proof: v['registered-proof'] ?? c1.registered_proof,
    priority: /^\d+$/.test(v.priority ?? '') ? Number(v.priority) : (v.priority ?? 'NORMAL').toUpperCase(),
    vanilla_proof: bytes,
    sector_number: v['sector-number'] ?? c1.sector_number ?? '0',
    miner_id: v['miner-id'] ?? '0',
  };
}

function required(v, flag) {
  if (v[flag] === undefined) throw new Usage(`--${flag} is required`);
  return v[flag];
}

// command -> [RPC method, request built from the flags]
const kCommands = {
  prove: (v) => ['Prove', { submit: submitRequest(v) }],
  submit: (v) => ['SubmitProof', submitRequest(v)],
  await: (v) => ['AwaitProof', { job_id: required(v, 'job-id'), timeout_ms: v['timeout-ms'] ?? '0' }],
  cancel: (v) => ['CancelProof', { job_id: required(v, 'job-id') }],
  status: () => ['GetStatus', {}],
  metrics: () => ['GetMetrics', {}],
  preload: (v) => ['PreloadSRS', { circuit_id: required(v, 'circuit-id') }],
  evict: (v) => ['EvictSRS', { circuit_id: required(v, 'circuit-id') }],
};

// grpc-js wants "unix:///abs/path" (or "unix:rel"); a bare absolute path is a socket too.
function target(address) {
  return address.startsWith('/') ? `unix://${address}` : address;
}

function main() {
  const string = { type: 'string' };
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        address: string, proto: string, 'deadline-ms': string, c1: string, 'request-id': string,
        priority: string, 'sector-size': string, 'registered-proof': string, 'sector-number': string,
        'miner-id': string, 'job-id': string, 'timeout-ms': string, 'circuit-id': string,
        kind: string, vanilla: { type: 'string', multiple: true }, randomness: string, 'partition-index': string,
        'comm-r-old': string, 'comm-r-new': string, 'comm-d-new': string,
      },
    });
  } catch (e) {
    fail('usage', e.message);
  }
  const { values: v, positionals } = parsed;
  const command = positionals[0];
  if (positionals.length !== 1 || !(command in kCommands)) {
    fail('usage', `one command expected: ${Object.keys(kCommands).join('|')}`);
  }
  if (!v.address) fail(command, '--address is required');
  const protoPath = v.proto ?? fileURLToPath(new URL('../../proto/cuzk/v1/proving.proto', import.meta.url));

  let method, request;
  try {
    [method, request] = kCommands[command](v);
  } catch (e) {
    fail(command, e.message);
  }

  let definition;
  try {
    definition = protoLoader.loadSync(protoPath, { keepCase: true, longs: String, enums: String, defaults: true });
  } catch (e) {
    fail(command, `${protoPath}: ${e.message}`);
  }
  const { ProvingEngine } = grpc.loadPackageDefinition(definition).cuzk.v1;
  const client = new ProvingEngine(target(v.address), grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': kMaxMessageBytes,
    'grpc.max_send_message_length': kMaxMessageBytes,
  });
  const options = v['deadline-ms'] ? { deadline: new Date(Date.now() + Number(v['deadline-ms'])) } : {};
  client[method](request, new grpc.Metadata(), options, (err, response) => {
    client.close();
    if (err) {
      const name = Object.keys(grpc.status).find((k) => grpc.status[k] === err.code) ?? 'UNKNOWN';
      fail(command, `${name} (${err.code}): ${err.details ?? err.message}`);
    }
    process.stdout.write(JSON.stringify(toJson(response)) + '\n');
  });
}

main();
