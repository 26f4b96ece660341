// Writes tests/data/bls12_381_kat.txt: fixed known-answer vectors computed by @noble/curves, so
// the KAT test pins cuzk's values even where node is absent. Regenerate with
//   node tests/oracle/make_kat.mjs > tests/data/bls12_381_kat.txt
// Lines: "g1_mul <k> <[k]G1 compressed>", "g2_mul <k> <[k]G2 compressed>",
//        "pairing <a> <b> <e([a]G1, [b]G2), 12 Fp tokens>"; scalars and Fp values in hex.
import { bls12_381 as bls } from '@noble/curves/bls12-381';
import { sha256 } from '@noble/hashes/sha2';

const { Fr } = bls.fields;
const G1 = bls.G1.ProjectivePoint;
const G2 = bls.G2.ProjectivePoint;
const toHex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, '0')).join('');
// Scalars derived from SHA-256("cuzk kat <i>") mod r, plus edge values.
const derived = (i) => BigInt('0x' + toHex(sha256(new TextEncoder().encode(`cuzk kat ${i}`)))) % Fr.ORDER;
const scalars = [1n, 2n, 3n, 0xdeadbeefn, Fr.ORDER - 1n, Fr.ORDER - 2n, ...[0, 1, 2, 3, 4, 5].map(derived)];

const lines = ['# BLS12-381 known answers from @noble/curves ' + '1.9.7' + '; see tests/oracle/make_kat.mjs'];
for (const k of scalars) lines.push(`g1_mul ${k.toString(16)} ${toHex(G1.BASE.multiply(k).toRawBytes(true))}`);
for (const k of scalars) lines.push(`g2_mul ${k.toString(16)} ${toHex(G2.BASE.multiply(k).toRawBytes(true))}`);
const fp2 = (x) => [x.c0, x.c1].map((v) => v.toString(16));
const fp12 = (x) => [x.c0.c0, x.c0.c1, x.c0.c2, x.c1.c0, x.c1.c1, x.c1.c2].flatMap(fp2);
for (const [a, b] of [[1n, 1n], [2n, 3n], [derived(10), derived(11)]]) {
  const e = bls.pairing(G1.BASE.multiply(a), G2.BASE.multiply(b));
  lines.push(`pairing ${a.toString(16)} ${b.toString(16)} ${fp12(e).join(' ')}`);
}
process.stdout.write(lines.join('\n') + '\n');
