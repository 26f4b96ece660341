// BLS12-381 oracle for cuzk's differential tests, backed by @noble/curves (an independent,
// audited implementation). Protocol: one request per line on stdin, "op arg arg ...", arguments
// as big-endian hex without 0x; one answer per line on stdout, in request order:
// "ok value value ..." or "error <reason>".
//   field ops   fp_* / fr_*: add sub mul sqr neg inv pow legendre sqrt (a root, or error)
//   fp2_*       mul sqr inv sqrt, an Fp2 element is two tokens c0 c1
//   fp12_*      mul sqr inv frob<k> cyclo_sqr final_exp, an Fp12 element is 12 tokens
//               c0.c0.c0 c0.c0.c1 c0.c1.c0 ... c1.c2.c1
//   g1_* g2_*   decode <zcash bytes> -> "ok <uncompressed> <compressed>" (subgroup-checked),
//               add <p> <q>, dbl <p>, neg <p>, mul <p> <scalar> -> "ok <uncompressed> <compressed>",
//               encode <x> <y> (affine coordinates, G2: x.c0 x.c1 y.c0 y.c1) -> same,
//               generator -> same
//   pairing     <g1 bytes> <g2 bytes> -> Fp12 (12 tokens); miller <g1> <g2> -> Fp12 before the
//               final exponentiation
import { createInterface } from 'node:readline';
import { bls12_381 as bls } from '@noble/curves/bls12-381';

const { Fp, Fr, Fp2, Fp12 } = bls.fields;
const G1 = bls.G1.ProjectivePoint;
const G2 = bls.G2.ProjectivePoint;

const big = (h) => BigInt('0x' + (h === '' ? '0' : h));
const hex = (n) => n.toString(16);
const bytes = (h) => {
  if (h.length % 2) throw new Error('odd hex length');
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.substr(2 * i, 2), 16);
  return out;
};
const toHex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, '0')).join('');

const fp2 = (a, b) => Fp2.fromBigTuple([big(a), big(b)]);
const fp2Out = (x) => [hex(x.c0), hex(x.c1)];
const fp6Out = (x) => [...fp2Out(x.c0), ...fp2Out(x.c1), ...fp2Out(x.c2)];
const fp12Out = (x) => [...fp6Out(x.c0), ...fp6Out(x.c1)];
const fp12In = (t) => {
  const e = (i) => fp2(t[2 * i], t[2 * i + 1]);
  return Fp12.create({ c0: { c0: e(0), c1: e(1), c2: e(2) }, c1: { c0: e(3), c1: e(4), c2: e(5) } });
};
const pointOut = (p) => [toHex(p.toRawBytes(false)), toHex(p.toRawBytes(true))];

function field(F, op, a) {
  const x = a.map(big).map((v) => {
    if (v >= F.ORDER) throw new Error('not canonical');
    return v;
  });
  switch (op) {
    case 'add': return [hex(F.add(x[0], x[1]))];
    case 'sub': return [hex(F.sub(x[0], x[1]))];
    case 'mul': return [hex(F.mul(x[0], x[1]))];
    case 'sqr': return [hex(F.sqr(x[0]))];
    case 'neg': return [hex(F.neg(x[0]))];
    case 'inv': return [hex(F.inv(x[0]))];
    case 'pow': return [hex(F.pow(x[0], big(a[1])))];
    case 'legendre': {
      const l = F.pow(x[0], (F.ORDER - 1n) / 2n);
      return [l === 0n ? '0' : l === 1n ? '1' : '-1'];
    }
    case 'sqrt': return [hex(F.sqrt(x[0]))];
  }
  throw new Error('unknown field op ' + op);
}

function group(G, op, a) {
  switch (op) {
    case 'generator': return pointOut(G.BASE);
    case 'decode': return pointOut(G.fromHex(bytes(a[0])));
    case 'add': return pointOut(G.fromHex(bytes(a[0])).add(G.fromHex(bytes(a[1]))));
    case 'dbl': return pointOut(G.fromHex(bytes(a[0])).double());
    case 'neg': return pointOut(G.fromHex(bytes(a[0])).negate());
    case 'mul': return pointOut(G.fromHex(bytes(a[0])).multiplyUnsafe(big(a[1]) % Fr.ORDER));
    case 'encode': {
      const p = G === G1 ? G.fromAffine({ x: big(a[0]), y: big(a[1]) })
                         : G.fromAffine({ x: fp2(a[0], a[1]), y: fp2(a[2], a[3]) });
      p.assertValidity();
      return pointOut(p);
    }
  }
  throw new Error('unknown group op ' + op);
}

function answer(line) {
  const [cmd, ...a] = line.trim().split(/\s+/);
  const [kind, op] = cmd.split(/_(.*)/s);
  switch (kind) {
    case 'fp': return field(Fp, op, a);
    case 'fr': return field(Fr, op, a);
    case 'fp2': {
      const x = fp2(a[0], a[1]);
      switch (op) {
        case 'mul': return fp2Out(Fp2.mul(x, fp2(a[2], a[3])));
        case 'sqr': return fp2Out(Fp2.sqr(x));
        case 'inv': return fp2Out(Fp2.inv(x));
        case 'sqrt': return fp2Out(Fp2.sqrt(x));
      }
      break;
    }
    case 'fp12': {
      const x = fp12In(a);
      if (op === 'mul') return fp12Out(Fp12.mul(x, fp12In(a.slice(12))));
      if (op === 'sqr') return fp12Out(Fp12.sqr(x));
      if (op === 'inv') return fp12Out(Fp12.inv(x));
      if (op === 'cyclo_sqr') return fp12Out(Fp12._cyclotomicSquare(x));
      if (op === 'final_exp') return fp12Out(Fp12.finalExponentiate(x));
      if (op.startsWith('frob')) return fp12Out(Fp12.frobeniusMap(x, Number(op.slice(4))));
      break;
    }
    case 'g1': return group(G1, op, a);
    case 'g2': return group(G2, op, a);
    case 'pairing': return fp12Out(bls.pairing(G1.fromHex(bytes(a[0])), G2.fromHex(bytes(a[1]))));
    case 'miller': return fp12Out(bls.pairing(G1.fromHex(bytes(a[0])), G2.fromHex(bytes(a[1])), false));
  }
  throw new Error('unknown op ' + cmd);
}

const out = [];
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  try {
    out.push('ok ' + answer(line).join(' '));
  } catch (e) {
    out.push('error ' + String(e.message || e).replace(/\s+/g, ' '));
  }
}
process.stdout.write(out.join('\n') + '\n');
