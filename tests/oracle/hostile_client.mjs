// A hostile client of the cuzk daemon (tests/hostile/hostile.sh drives it): @grpc/grpc-js with our
// proto loaded at run time, raw sockets for what no gRPC client would send. Each step attacks the
// daemon one way, then checks that it still serves: GetStatus answers within a second, and its
// descriptors (/proc/<pid>/fd) and threads (/proc/<pid>/task) come back near their baseline.
//
//   node hostile_client.mjs --address unix:///path --pid N --metrics 127.0.0.1:PORT
//        --job-id JOB (a job that stays running until the step list ends) --max-waiting N
//        --max-message-bytes N
//
// Prints one line per step ("ok <step>: <what was seen>"); exits 1 at the first failed check
// ("FAIL <step>: <why>").
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

const { values: v } = parseArgs({
  options: {
    address: { type: 'string' }, pid: { type: 'string' }, metrics: { type: 'string' }, 'job-id': { type: 'string' },
    'max-waiting': { type: 'string' }, 'max-message-bytes': { type: 'string' },
  },
});
const pid = Number(v.pid);
const job = v['job-id'];
const maxWaiting = Number(v['max-waiting']);
const maxMessage = Number(v['max-message-bytes']);
const socketPath = v.address.replace(/^unix:\/\//, '');
const [metricsHost, metricsPort] = v.metrics.split(':');

const protoPath = fileURLToPath(new URL('../../proto/cuzk/v1/proving.proto', import.meta.url));
const definition = protoLoader.loadSync(protoPath, { keepCase: true, longs: String, enums: String, defaults: true });
const { ProvingEngine } = grpc.loadPackageDefinition(definition).cuzk.v1;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const codeName = (code) => Object.keys(grpc.status).find((k) => grpc.status[k] === code) ?? String(code);

function fail(step, why) {
  process.stdout.write(`FAIL ${step}: ${why}\n`);
  process.exit(1);
}
function check(ok, step, why) {
  if (!ok) fail(step, why);
}

// A client on a connection of its own (grpc-js shares one between clients of one target unless
// told not to).
function client(extra = {}) {
  return new ProvingEngine(v.address, grpc.credentials.createInsecure(), {
    'grpc.use_local_subchannel_pool': 1,
    'grpc.max_send_message_length': 512 << 20,
    'grpc.max_receive_message_length': 512 << 20,
    ...extra,
  });
}
// One call: {code, details, response, ms}.
function call(c, method, request, deadlineMs = 5000) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    c[method](request, new grpc.Metadata(), { deadline: new Date(Date.now() + deadlineMs) }, (err, response) =>
      resolve({ code: err ? err.code : 0, details: err ? err.details : '', response, ms: Date.now() - t0 }));
  });
}

const count = (dir) => readdirSync(`/proc/${pid}/${dir}`).length;
const rssBytes = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

const main = client();
let baseline;
const silent = [];  // connections that never send a byte (step 9): each holds a daemon descriptor while open

// The daemon serves: GetStatus within a second; its fds and threads back within `slack` of the
// baseline (they may take a few seconds: connections close, waiting calls notice their caller
// left within 500 ms, gRPC's idle threads exit).
async function healthy(step, slack = { fds: 8, threads: 8 }) {
  const s = await call(main, 'GetStatus', {}, 1000);
  check(s.code === 0, step, `GetStatus: ${codeName(s.code)} ${s.details}`);
  let fds, threads, open;
  for (let i = 0; i < 100; ++i) {
    fds = count('fd');
    threads = count('task');
    open = silent.filter((s) => !s.closed).length;
    if (fds <= baseline.fds + open + slack.fds && threads <= baseline.threads + slack.threads) break;
    await sleep(100);
  }
  check(fds <= baseline.fds + open + slack.fds, step, `${fds} descriptors, baseline ${baseline.fds} (+${open} silent connections)`);
  check(threads <= baseline.threads + slack.threads, step, `${threads} threads, baseline ${baseline.threads}`);
  return `GetStatus in ${s.ms} ms, ${fds} fds, ${threads} threads`;
}

// Raw bytes to the gRPC socket; resolves when the daemon closes it (or after `waitMs`).
function raw(bytes, waitMs = 3000) {
  return new Promise((resolve) => {
    const s = net.createConnection(socketPath);
    let answer = Buffer.alloc(0);
    const done = (how) => {
      clearTimeout(timer);
      s.destroy();
      resolve({ how, answer });
    };
    const timer = setTimeout(() => done('open'), waitMs);
    s.on('connect', () => s.write(bytes));
    s.on('data', (d) => { answer = Buffer.concat([answer, d]); });
    s.on('close', () => done('closed'));
    s.on('error', () => done('error'));
  });
}

async function scrape() {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const s = net.createConnection(Number(metricsPort), metricsHost);
    let text = '';
    s.on('connect', () => s.write('GET /metrics HTTP/1.0\r\n\r\n'));
    s.on('data', (d) => { text += d; });
    s.on('close', () => resolve({ text, ms: Date.now() - t0 }));
    s.on('error', (e) => resolve({ text: String(e), ms: Date.now() - t0 }));
  });
}

const submit = (over = {}) => ({
  request_id: '', proof_kind: 'POREP_SEAL_COMMIT', sector_size: '2048', registered_proof: '8', priority: 'NORMAL',
  vanilla_proof: Buffer.from('{"not": "a C1"}'), sector_number: '1', miner_id: '1000', ...over,
});

async function run() {
  check((await call(main, 'GetStatus', {}, 2000)).code === 0, 'start', 'GetStatus');
  baseline = { fds: count('fd'), threads: count('task'), rss: rssBytes() };
  process.stdout.write(`baseline: ${baseline.fds} fds, ${baseline.threads} threads, ${baseline.rss >> 20} MiB\n`);

  // Connections that never send a byte: the handshake timeout (10 s) closes them; checked last.
  for (let i = 0; i < 20; ++i) {
    const s = net.createConnection(socketPath);
    const entry = { closed: false, opened: Date.now() };
    s.on('close', () => { entry.closed = true; entry.ms = Date.now() - entry.opened; });
    s.on('error', () => {});
    s.resume();  // flowing: the daemon's close is seen
    silent.push(entry);
  }

  // 1. Garbage and HTTP/1 on the gRPC socket.
  const garbage = Buffer.alloc(64 << 10);
  for (let i = 0; i < garbage.length; ++i) garbage[i] = (i * 7919 + 13) & 0xff;
  const g = await raw(garbage);
  const h = await raw(Buffer.from('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n'));
  // (closed, or reset while the rest of the garbage was on its way: the daemon ended it either way)
  check(g.how !== 'open' && h.how !== 'open', 'garbage', `connections ${g.how}, ${h.how} (expected closed by the daemon)`);
  process.stdout.write(`ok garbage and HTTP/1 on the gRPC port: both closed; ${await healthy('garbage')}\n`);

  // 2. A message over daemon.max_message_bytes.
  const big = await call(main, 'SubmitProof', submit({ request_id: 'oversize', vanilla_proof: Buffer.alloc(maxMessage + 1024) }));
  check(big.code === grpc.status.RESOURCE_EXHAUSTED, 'oversize', `${codeName(big.code)} ${big.details}`);
  process.stdout.write(`ok oversize message: RESOURCE_EXHAUSTED; ${await healthy('oversize')}\n`);

  // 3. 1,000 malformed submissions: payloads that are not a C1 (accepted, then FAILED, or refused
  //    when the queue is full), enums out of range (INVALID_ARGUMENT naming the field), bytes that
  //    are not a SubmitProofRequest (refused).
  const codes = new Map();
  const tally = (r) => codes.set(codeName(r.code), (codes.get(codeName(r.code)) ?? 0) + 1);
  const rawSubmit = (bytes) => new Promise((resolve) => {
    main.makeUnaryRequest('/cuzk.v1.ProvingEngine/SubmitProof', (b) => b, (b) => b, bytes, new grpc.Metadata(),
      { deadline: new Date(Date.now() + 5000) }, (err) => resolve({ code: err ? err.code : 0, details: err?.details }));
  });
  const t0 = Date.now();
  for (let batch = 0; batch < 10; ++batch) {
    const calls = [];
    for (let i = 0; i < 100; ++i) {
      const n = batch * 100 + i;
      if (n % 4 === 0) calls.push(['payload', call(main, 'SubmitProof', submit({ request_id: `bad-${n}`, vanilla_proof: Buffer.from(`{"x":${n}`) }))]);
      else if (n % 4 === 1) calls.push(['priority', call(main, 'SubmitProof', submit({ request_id: `enum-${n}`, priority: 5 + (n % 7) }))]);
      else if (n % 4 === 2) calls.push(['proof_kind', call(main, 'SubmitProof', submit({ request_id: `kind-${n}`, proof_kind: 5 + (n % 3) }))]);
      else calls.push(['bytes', rawSubmit(Buffer.from([0xff, 0xff, 0xff, 0xff, n & 0x7f, 0x0f, (n * 31) & 0xff]))]);
    }
    for (const [what, pending] of calls) {
      const r = await pending;
      tally(r);
      const seen = `${what}: ${codeName(r.code)} ${r.details}`;
      // A payload that is not a C1 is queued (it fails at parse) or refused while the queue is full.
      if (what === 'payload') check(r.code === 0 || r.code === grpc.status.RESOURCE_EXHAUSTED, 'malformed', seen);
      // An enum out of range: INVALID_ARGUMENT naming the field.
      if (what === 'priority' || what === 'proof_kind') {
        check(r.code === grpc.status.INVALID_ARGUMENT && r.details.startsWith(`${what}: `), 'malformed', seen);
      }
      // Bytes that are not a request: INVALID_ARGUMENT naming the call (gRPC refuses them before our
      // handler; the server's interceptor gives the protocol's code).
      if (what === 'bytes') {
        check(r.code === grpc.status.INVALID_ARGUMENT && r.details.includes('SubmitProof: the request\'s bytes are not'),
          'malformed', seen);
      }
    }
  }
  check(!codes.has('UNAVAILABLE') && !codes.has('DEADLINE_EXCEEDED'), 'malformed', `the daemon stopped answering: ${[...codes]}`);
  process.stdout.write(`ok 1,000 malformed submissions in ${Date.now() - t0} ms: ${[...codes].map(([k, n]) => `${n} ${k}`).join(', ')}; ${await healthy('malformed')}\n`);

  // 4. Odd ids in every call: empty, 1 MiB, NUL bytes, path-like, a newline (a forged log line).
  //    Over 256 bytes: INVALID_ARGUMENT naming the field; the rest answered (any code) at once.
  const ids = ['', 'x'.repeat(1 << 20), 'a\0b\0', '../../../../etc/passwd', '/tmp/../proc/self/fd/0',
    'porep-1-2\n2026-12-01T00:00:00.000 info forged log line', 'y'.repeat(257), 'é'.repeat(128)];
  let answered = 0;
  for (const id of ids) {
    const long = Buffer.byteLength(id) > 256;
    const calls = [
      ['SubmitProof', submit({ request_id: id }), 'request_id'],
      ['AwaitProof', { job_id: id, timeout_ms: '1' }, 'job_id'],
      ['CancelProof', { job_id: id }, 'job_id'],
      ['PreloadSRS', { circuit_id: id }, 'circuit_id'],
      ['EvictSRS', { circuit_id: id }, 'circuit_id'],
      ['Prove', { submit: submit({ request_id: id }) }, 'request_id'],
    ];
    for (const [method, request, field] of calls) {
      const r = await call(main, method, request, 3000);
      const what = `${method}(${JSON.stringify(id.slice(0, 40))}${id.length > 40 ? '...' : ''}): ${codeName(r.code)} ${r.details} in ${r.ms} ms`;
      check(r.ms < 2000 && r.code !== grpc.status.DEADLINE_EXCEEDED && r.code !== grpc.status.UNAVAILABLE, 'odd ids', what);
      if (long) check(r.code === grpc.status.INVALID_ARGUMENT && r.details.startsWith(`${field}: `), 'odd ids', what);
      if (method === 'PreloadSRS') check(r.code !== 0, 'odd ids', what);
      ++answered;
    }
  }
  process.stdout.write(`ok odd ids: ${answered} calls answered, the long ones INVALID_ARGUMENT naming the field; ${await healthy('odd ids')}\n`);

  // 5. AwaitProof with timeout_ms 2^64 - 1 waits (the caller's deadline ends it), and a short one
  //    answers TIMEOUT after it.
  const forever = await call(main, 'AwaitProof', { job_id: job, timeout_ms: '18446744073709551615' }, 1200);
  check(forever.code === grpc.status.DEADLINE_EXCEEDED && forever.ms >= 1100, 'timeout', `2^64-1: ${codeName(forever.code)} ${JSON.stringify(forever.response)} after ${forever.ms} ms`);
  const short = await call(main, 'AwaitProof', { job_id: job, timeout_ms: '300' }, 3000);
  check(short.code === 0 && short.response.status === 'TIMEOUT' && short.ms >= 290, 'timeout', `300 ms: ${codeName(short.code)} ${JSON.stringify(short.response)} after ${short.ms} ms`);
  process.stdout.write(`ok AwaitProof timeout_ms 2^64-1 waited ${forever.ms} ms (the caller's deadline), 300 gave TIMEOUT after ${short.ms} ms\n`);

  // 6. 200 clients, each on its own connection, waiting on the running job, then gone at once.
  const waiters = [];
  for (let i = 0; i < 200; ++i) {
    const c = client();
    const w = { c, call: null, code: null };
    w.call = c.AwaitProof({ job_id: job, timeout_ms: '0' }, (err) => { w.code = err ? err.code : 0; });
    waiters.push(w);
  }
  let peak = 0;
  for (let i = 0; i < 30 && peak < baseline.threads + 150; ++i) {
    await sleep(100);
    peak = Math.max(peak, count('task'));
  }
  const early = waiters.filter((w) => w.code !== null).map((w) => codeName(w.code));
  check(early.length === 0, 'dropping waiters', `answered before they left: ${early}`);
  for (const w of waiters) {
    w.call.cancel();
    w.c.close();
  }
  process.stdout.write(`ok 200 waiters dropped: ${peak} threads while they waited; ${await healthy('dropping waiters')}\n`);

  // 7. The waiting calls' bound: max_waiting + 20 at once, exactly 20 answered RESOURCE_EXHAUSTED.
  const crowd = [];
  for (let i = 0; i < maxWaiting + 20; ++i) {
    const w = { code: null, details: '' };
    w.call = main.AwaitProof({ job_id: job, timeout_ms: '0' }, (err) => { w.code = err ? err.code : 0; w.details = err?.details; });
    crowd.push(w);
  }
  for (let i = 0; i < 50 && crowd.filter((w) => w.code !== null).length < 20; ++i) await sleep(100);
  await sleep(300);
  const refused = crowd.filter((w) => w.code === grpc.status.RESOURCE_EXHAUSTED);
  const other = crowd.filter((w) => w.code !== null && w.code !== grpc.status.RESOURCE_EXHAUSTED);
  check(refused.length === 20 && other.length === 0, 'waiting bound',
    `${refused.length} RESOURCE_EXHAUSTED (expected 20), others: ${other.map((w) => codeName(w.code))}`);
  check(/daemon\.max_waiting_calls/.test(refused[0].details), 'waiting bound', refused[0].details);
  for (const w of crowd) w.call.cancel();
  process.stdout.write(`ok ${maxWaiting + 20} waiting calls: 20 RESOURCE_EXHAUSTED ("${refused[0].details}"); ${await healthy('waiting bound')}\n`);

  // 8. Idle connections vs a scrape: 50 idle TCP clients on /metrics, 50 idle on the gRPC socket.
  const idle = [];
  for (let i = 0; i < 50; ++i) {
    idle.push(net.createConnection(Number(metricsPort), metricsHost).on('error', () => {}));
    idle.push(net.createConnection(socketPath).on('error', () => {}));
  }
  await sleep(300);
  const m = await scrape();
  check(m.ms < 1000 && /^HTTP\/1.0 200/.test(m.text) && m.text.includes('cuzk_uptime_seconds'), 'idle vs scrape',
    `scrape in ${m.ms} ms: ${m.text.slice(0, 80)}`);
  const st = await call(main, 'GetStatus', {}, 1000);
  check(st.code === 0, 'idle vs scrape', `GetStatus with 100 idle connections: ${codeName(st.code)}`);
  // A client that sends half a request and stops is closed after 2 s.
  const half = await new Promise((resolve) => {
    const t = Date.now();
    const s = net.createConnection(Number(metricsPort), metricsHost);
    s.on('connect', () => s.write('GET /met'));
    s.on('close', () => resolve(Date.now() - t));
    s.on('error', () => {});
    setTimeout(() => { s.destroy(); resolve(-1); }, 5000);
  });
  check(half > 0 && half < 4000, 'idle vs scrape', `half a request: closed after ${half} ms (expected ~2 s)`);
  for (const s of idle) s.destroy();
  process.stdout.write(`ok 100 idle connections: /metrics scraped in ${m.ms} ms, GetStatus in ${st.ms} ms, half a request closed after ${half} ms; ${await healthy('idle vs scrape')}\n`);

  // 9. The silent gRPC connections of the start were closed by the daemon (handshake timeout).
  for (let i = 0; i < 150 && silent.some((s) => !s.closed); ++i) await sleep(100);
  const open = silent.filter((s) => !s.closed).length;
  check(open === 0, 'silent connections', `${open} of 20 connections that never sent a byte still open`);
  process.stdout.write(`ok 20 silent gRPC connections closed by the daemon after ${Math.max(...silent.map((s) => s.ms))} ms\n`);

  const rss = rssBytes();
  check(rss < baseline.rss + (256 << 20), 'memory', `resident ${rss >> 20} MiB, baseline ${baseline.rss >> 20} MiB`);
  process.stdout.write(`ok resident set ${rss >> 20} MiB (baseline ${baseline.rss >> 20} MiB); ${await healthy('end')}\n`);
  main.close();
}

run().then(() => process.exit(0), (e) => fail('exception', e.stack));
