// iden3 .r1cs/.wtns oracle for tests/r1cs/iden3_test.cpp, backed by snarkjs 0.7.6 and iden3's
// r1csfile (independent readers and writers of the format).
//   node iden3.mjs export <circuit.r1cs> <witness.wtns> <out.txt>
//       reads both with snarkjs (r1cs.exportJson, wtns.exportJson, as `snarkjs r1cs export json`
//       and `snarkjs wtns export json` do) and writes them to out.txt in the text form below
//   node iden3.mjs write <spec.txt> <circuit.r1cs> <witness.wtns>
//       writes the text form with r1csfile.writeR1cs and snarkjs's wtns writer (wtns_utils.write)
// Text form, one item per line, field elements as lower-case hex without 0x:
//   header <prime> <n_wires> <n_pub_out> <n_pub_in> <n_prv_in> <n_labels> <n_constraints>
//   lc <wire>:<coeff> ...        three per constraint (A, B, C), terms in ascending wire order
//   map <label> ...              the wire-to-label section
//   witness <value> ...
import { readFileSync, writeFileSync } from 'node:fs';
import * as snarkjs from 'snarkjs';
import { writeR1cs } from 'r1csfile';
import { F1Field } from 'ffjavascript';
import * as binFileUtils from '@iden3/binfileutils';
import * as wtnsUtils from './node_modules/snarkjs/src/wtns_utils.js';

const hex = (n) => BigInt(n).toString(16);
const big = (h) => BigInt('0x' + h);

async function exportFiles(r1csPath, wtnsPath, outPath) {
  const cir = await snarkjs.r1cs.exportJson(r1csPath);
  const lines = [['header', hex(cir.prime), cir.nVars, cir.nOutputs, cir.nPubInputs, cir.nPrvInputs,
    cir.nLabels, cir.nConstraints].join(' ')];
  for (const constraint of cir.constraints) {
    for (const lc of constraint) {
      const wires = Object.keys(lc).map(Number).sort((a, b) => a - b);
      lines.push(['lc', ...wires.map((w) => `${w}:${hex(lc[w])}`)].join(' '));
    }
  }
  lines.push(['map', ...cir.map.map(String)].join(' '));
  const witness = await snarkjs.wtns.exportJson(wtnsPath);
  lines.push(['witness', ...witness.map(hex)].join(' '));
  writeFileSync(outPath, lines.join('\n') + '\n');
}

async function writeFiles(specPath, r1csPath, wtnsPath) {
  const lines = readFileSync(specPath, 'utf8').split('\n').filter((l) => l.length > 0).map((l) => l.split(' '));
  const header = lines.find((t) => t[0] === 'header');
  const prime = big(header[1]);
  const F = new F1Field(prime);
  const lcs = lines.filter((t) => t[0] === 'lc').map((t) => {
    const lc = {};
    for (const term of t.slice(1)) {
      const [wire, coeff] = term.split(':');
      lc[wire] = F.e(big(coeff));
    }
    return lc;
  });
  const constraints = [];
  for (let i = 0; i < lcs.length; i += 3) constraints.push([lcs[i], lcs[i + 1], lcs[i + 2]]);
  const map = lines.find((t) => t[0] === 'map').slice(1).map(Number);
  await writeR1cs(r1csPath, {
    n8: 32, prime, F, nVars: Number(header[2]), nOutputs: Number(header[3]), nPubInputs: Number(header[4]),
    nPrvInputs: Number(header[5]), nLabels: Number(header[6]), constraints, map,
  });
  const witness = lines.find((t) => t[0] === 'witness').slice(1).map(big);
  const fd = await binFileUtils.createBinFile(wtnsPath, 'wtns', 2, 2);
  await wtnsUtils.write(fd, witness, prime);
  await fd.close();
}

const [command, ...args] = process.argv.slice(2);
try {
  if (command === 'export') await exportFiles(...args);
  else if (command === 'write') await writeFiles(...args);
  else throw new Error(`unknown command ${command}`);
  process.exit(0);
} catch (e) {
  process.stderr.write(`error ${e.message}\n`);
  process.exit(1);
}
