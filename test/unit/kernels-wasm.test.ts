// The WebAssembly SIMD score kernels (native-free-kernels/wasm-rows.ts) against their TypeScript
// twins (scores.ts) on random inputs of several sizes, f not a multiple of 4 and n = 0 among them:
// the same NaN positions, and scores within f32 rounding (the SIMD kernels sum in f32, the twins in
// f64; row cosines sum in f64 as their twin, to the bit). Also: rows attached from a posted memory score the same, and repeated calls reuse one slot.
import t from 'tap';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { rowNormsTo, unitRowsTo } from '../../native-free-kernels/rows.js';
import { scoreRows } from '../../native-free-kernels/score-rows.js';
import * as ts from '../../native-free-kernels/scores.js';
import { WasmRows } from '../../native-free-kernels/wasm-rows.js';

type Tt = Parameters<Parameters<typeof t.test>[0]>[0];
const randInt = (rand: () => number, n: number) => Math.floor(rand() * n);

// Relative 1e-4, absolute 1e-5: f32 sums against f64 sums of a few dozen products.
function agree(t: Tt, a: Float32Array, b: Float32Array, what: string): void {
  let bad = -1;
  for (let k = 0; k < a.length && bad < 0; k++) {
    const x = a[k]!,
      y = b[k]!;
    if (Number.isNaN(x) || Number.isNaN(y)) {
      if (!(Number.isNaN(x) && Number.isNaN(y))) bad = k;
    } else if (!(Math.abs(x - y) <= 1e-5 + 1e-4 * Math.abs(y))) bad = k;
  }
  t.ok(a.length === b.length && bad < 0, bad < 0 ? what : `${what}: at ${bad} wasm ${a[bad]} ts ${b[bad]}`);
}

function randomFactors(rand: () => number, n: number, f: number): Float32Array {
  const out = new Float32Array(n * f);
  for (let k = 0; k < out.length; k++) out[k] = (rand() - 0.5) * 4;
  for (let r = 0; r < n; r++) if (rand() < 0.15) out.fill(0, r * f, (r + 1) * f); // rows of norm 0
  return out;
}

// A model's rows in wasm memory, with an item index of every row of norm ≠ 0 in random order.
function build(rand: () => number, n: number, f: number) {
  const factors = randomFactors(rand, n, f);
  const norms = new Float32Array(n);
  rowNormsTo(norms, factors, n, f);
  const members = Uint32Array.from(
    Array.from({ length: n }, (_, i) => i)
      .filter((i) => norms[i] !== 0)
      .sort(() => rand() - 0.5),
  );
  const listRows = new Float32Array(members.length * f);
  unitRowsTo(listRows, factors, norms, n, f, members);
  const wasm = WasmRows.allocate(n, f, members.length)!;
  wasm.factors.set(factors);
  wasm.norms.set(norms);
  wasm.listRows.set(listRows);
  wasm.members.set(members);
  return { factors, norms, members, listRows, wasm };
}

t.test('Node runs the SIMD kernels (no fallback here)', async (t) => {
  t.ok(WasmRows.allocate(4, 4, 0), 'WebAssembly SIMD with shared memory is available');
});

const SIZES: [number, number][] = [
  [0, 8],
  [6, 0],
  [1, 1],
  [3, 3],
  [4, 4],
  [5, 5],
  [7, 2],
  [9, 7],
  [33, 8],
  [64, 13],
  [257, 32],
  [1000, 64],
  [1003, 63],
  [500, 65],
];

t.test('wasm agrees with the TypeScript kernels on random inputs', async (t) => {
  const rand = mulberry32(91);
  for (const [n, f] of SIZES) {
    const { factors, norms, members, listRows, wasm } = build(rand, n, f);
    const label = `n=${n} f=${f}`;
    const a = new Float32Array(n).fill(7),
      b = new Float32Array(n);
    // Cosine: a few items, one of norm 0 when there is one.
    const zero = Array.from(norms.keys()).find((i) => norms[i] === 0);
    const items = n === 0 ? [] : [0, n - 1, randInt(rand, n), ...(zero === undefined ? [] : [zero])];
    for (const item of items) {
      t.ok(wasm.cosineScoresTo(a, item), `${label}: a slot`);
      ts.cosineScoresTo(b, factors, norms, n, f, item);
      agree(t, a, b, `${label}: cosine scores of item ${item}`);
    }
    // Groups: no query, one (plain dots), a few, and more than a slot's chunk of queries.
    for (const count of [0, 1, 3, 20]) {
      for (const consensus of [0, 1, rand()]) {
        const queries = Array.from({ length: count }, () => Float32Array.from({ length: f }, () => rand() - 0.5));
        a.fill(7);
        wasm.groupScoresTo(a, queries, consensus);
        ts.groupScoresTo(b, factors, norms, n, f, queries, consensus);
        agree(t, a, b, `${label}: group scores (${count} queries, consensus ${consensus.toFixed(2)})`);
      }
    }
    // Positions: the whole list, a random subset, and more positions than rows (repeats).
    const listed = members.length;
    const q = new Float32Array(f);
    if (listed > 0) unitRowsTo(q, factors, norms, n, f, members.subarray(0, 1));
    const sets = [
      Uint32Array.from({ length: listed }, (_, c) => c),
      Uint32Array.from({ length: randInt(rand, listed + 1) }, () => randInt(rand, listed)),
      Uint32Array.from({ length: listed === 0 ? 0 : 2 * listed + 3 }, () => randInt(rand, listed)),
    ];
    for (const positions of sets) {
      const skip = listed > 0 && rand() < 0.8 ? members[0]! : n + 1;
      const pa = new Float32Array(positions.length).fill(7),
        pb = new Float32Array(positions.length);
      wasm.positionScoresTo(pa, q, positions, skip);
      ts.positionScoresTo(pb, q, listRows, listed, f, members, positions, skip);
      agree(t, pa, pb, `${label}: position scores (${positions.length} positions, skip ${skip})`);
    }
    // Row cosines (a round of neighbours of neighbours): rows of norm > 0, the twin's f32 to the bit.
    const live = Uint32Array.from(Array.from(norms.keys()).filter((i) => norms[i] !== 0));
    for (const row of live.length === 0 ? [] : [live[0]!, live[live.length - 1]!, live[randInt(rand, live.length)]!]) {
      const some = live.filter(() => rand() < 0.6);
      const ca = new Float32Array(some.length + 1).fill(7),
        cb = new Float32Array(some.length + 1).fill(7);
      t.ok(wasm.rowCosinesTo(ca, row, some), `${label}: a slot`);
      ts.rowCosinesTo(cb, factors, norms, n, f, row, some);
      t.same(Array.from(ca), Array.from(cb), `${label}: row ${row}'s cosines with ${some.length} rows, bit for bit`);
    }
  }
});

t.test('rows attached from a posted memory score the same; calls reuse one slot', async (t) => {
  const rand = mulberry32(12);
  const n = 300,
    f = 20;
  const factors = randomFactors(rand, n, f);
  const built = scoreRows(factors, n, f, new Uint32Array(0));
  const attached = scoreRows(factors, n, f, new Uint32Array(0), built.shared);
  t.ok(built.shared instanceof WebAssembly.Memory, 'the rows live in a shared WebAssembly memory');
  const a = new Float32Array(n),
    b = new Float32Array(n);
  built.cosineScoresTo(a, 0); // adds the first slot
  const grown = (built.shared as WebAssembly.Memory).buffer.byteLength;
  for (let item = 0; item < 20; item++) {
    built.cosineScoresTo(a, item);
    attached.cosineScoresTo(b, item);
    t.same(a, b, `item ${item}`);
  }
  built.groupScoresTo(a, [factors.subarray(0, f)], 0);
  t.equal((built.shared as WebAssembly.Memory).buffer.byteLength, grown, 'no slot added after the first');
});

t.test('bad input throws before writing', async (t) => {
  const { wasm } = build(mulberry32(3), 6, 4);
  const listed = wasm.listed;
  const six = new Float32Array(6).fill(9),
    five = new Float32Array(5).fill(9),
    two = new Float32Array(2).fill(9);
  const bad: [string, () => unknown, Float32Array][] = [
    ['cosine: dst not n', () => wasm.cosineScoresTo(five, 0), five],
    ['cosine: item out of range', () => wasm.cosineScoresTo(six, 6), six],
    ['group: query not f', () => wasm.groupScoresTo(six, [new Float32Array(4), new Float32Array(3)], 0), six],
    ['group: dst not n', () => wasm.groupScoresTo(five, [new Float32Array(4)], 0), five],
    ['positions: dst not positions', () => wasm.positionScoresTo(two, new Float32Array(4), Uint32Array.of(0), 0), two],
    ['positions: position out of range', () => wasm.positionScoresTo(two, new Float32Array(4), Uint32Array.of(0, listed), 0), two],
    ['positions: query not f', () => wasm.positionScoresTo(two, new Float32Array(3), Uint32Array.of(0, 0), 0), two],
    ['cosines: row out of range', () => wasm.rowCosinesTo(two, 6, Uint32Array.of(0, 1)), two],
    ['cosines: item out of range', () => wasm.rowCosinesTo(two, 0, Uint32Array.of(0, 6)), two],
    ['cosines: dst shorter than items', () => wasm.rowCosinesTo(two, 0, Uint32Array.of(0, 1, 2)), two],
  ];
  for (const [what, call, dst] of bad) {
    t.throws(call, what);
    t.ok(
      dst.every((x) => x === 9),
      `${what}: dst untouched`,
    );
  }
});
