// Row ranges of alsHalfStepTo: disjoint ranges add up to one full call,
// rows outside a range are untouched, bad ranges throw.
import t from 'tap';
import { alsHalfStepTo } from '../../native-free-kernels/als.js';
import { csrFromTriples, type Csr } from '../../native-free-kernels/csr.js';
import { gramTo } from '../../native-free-kernels/linalg.js';
import { mulberry32 } from '../../native-free-kernels/random.js';

const sameBytes = (a: ArrayBufferView, b: ArrayBufferView) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

// Sorted random split points of [0, rows), repeats allowed (empty ranges), ends included.
function splits(rand: () => number, rows: number): number[] {
  const cuts = [0, rows];
  const n = Math.floor(rand() * 6);
  for (let k = 0; k < n; k++) cuts.push(Math.floor(rand() * (rows + 1)));
  if (rand() < 0.5 && cuts.length > 2) cuts.push(cuts[2]!); // an explicit empty range
  return cuts.sort((a, b) => a - b);
}

function randomCsr(rand: () => number, rows: number, cols: number, density: number): Csr {
  const r: number[] = [],
    c: number[] = [],
    v: number[] = [];
  for (let u = 0; u < rows; u++) {
    if (rand() < 0.2) continue; // some empty rows
    for (let i = 0; i < cols; i++)
      if (rand() < density) {
        r.push(u);
        c.push(i);
        v.push(1 + Math.floor(rand() * 5));
      }
  }
  return csrFromTriples(rows, cols, Uint32Array.from(r), Uint32Array.from(c), Float32Array.from(v));
}

function randomFactors(rand: () => number, n: number, f: number, zeroRows = 0): Float32Array {
  const out = new Float32Array(n * f);
  for (let k = 0; k < out.length; k++) out[k] = rand() - 0.5;
  for (let z = 0; z < zeroRows && n > 0; z++) out.fill(0, Math.floor(rand() * n) * f, (Math.floor(rand() * n) + 1) * f);
  return out;
}

const BAD: [number, number, string][] = [
  [-1, 2, 'negative start'],
  [0, -1, 'negative end'],
  [3, 2, 'start > end'],
  [0, 1e9, 'end > rows'],
  [0.5, 2, 'fractional start'],
  [0, 1.5, 'fractional end'],
  [NaN, 2, 'NaN start'],
  [0, NaN, 'NaN end'],
  [0, Infinity, 'infinite end'],
];

t.test('alsHalfStepTo: ranges', async (t) => {
  let cases = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const rand = mulberry32(seed);
    const rows = Math.floor(rand() * 25),
      cols = 1 + Math.floor(rand() * 20),
      f = 1 + Math.floor(rand() * 6);
    const m = randomCsr(rand, rows, cols, 0.3);
    const other = randomFactors(rand, cols, f);
    const gram = new Float64Array(f * f);
    gramTo(gram, other, cols, f);
    const start = randomFactors(rand, rows, f);
    const reg = 0.1 + rand(),
      alpha = rand() * 3,
      steps = 1 + Math.floor(rand() * 4);
    const scratch = () => new Float64Array(4 * f);

    const full = start.slice();
    alsHalfStepTo(full, m, other, gram, f, reg, alpha, steps, scratch());
    const explicit = start.slice();
    alsHalfStepTo(explicit, m, other, gram, f, reg, alpha, steps, scratch(), 0, rows);
    t.ok(sameBytes(full, explicit), `seed ${seed}: [0, rows) is the default`);

    const cuts = splits(rand, rows);
    const parts = start.slice();
    const order = [...cuts.keys()].slice(1);
    // Any order of the ranges; one scratch shared, as a worker reuses it.
    order.sort(() => rand() - 0.5);
    const s = scratch();
    for (const k of order) {
      const [a, b] = [cuts[k - 1]!, cuts[k]!];
      const before = parts.slice();
      alsHalfStepTo(parts, m, other, gram, f, reg, alpha, steps, s, a, b);
      const outsideSame =
        sameBytes(before.subarray(0, a * f), parts.subarray(0, a * f)) && sameBytes(before.subarray(b * f), parts.subarray(b * f));
      t.ok(outsideSame, `seed ${seed}: rows outside [${a}, ${b}) untouched`);
      t.ok(sameBytes(parts.subarray(a * f, b * f), full.subarray(a * f, b * f)), `seed ${seed}: rows [${a}, ${b}) as in the full call`);
    }
    t.ok(sameBytes(parts, full), `seed ${seed}: ranges ${cuts.join(',')} give the full result`);
    cases++;
  }
  t.equal(cases, 60);
});

t.test('alsHalfStepTo: bad ranges throw before writing', async (t) => {
  const rand = mulberry32(99);
  const rows = 6,
    cols = 5,
    f = 3;
  const m = randomCsr(rand, rows, cols, 0.5);
  const other = randomFactors(rand, cols, f);
  const gram = new Float64Array(f * f);
  gramTo(gram, other, cols, f);
  const dst = randomFactors(rand, rows, f);
  const keep = dst.slice();
  const bad: [number, number, string][] = [...BAD, [0, rows + 1, 'end = rows + 1'], [rows + 1, rows + 1, 'start > rows']];
  for (const [a, b, why] of bad) {
    t.throws(() => alsHalfStepTo(dst, m, other, gram, f, 0.1, 1, 3, new Float64Array(4 * f), a, b), `${why}: [${a}, ${b})`);
  }
  t.ok(sameBytes(dst, keep), 'dst unchanged');
  t.doesNotThrow(() => alsHalfStepTo(dst, m, other, gram, f, 0.1, 1, 3, new Float64Array(4 * f), rows, rows), 'empty range at the end');
  t.ok(sameBytes(dst, keep), 'an empty range writes nothing');
});
