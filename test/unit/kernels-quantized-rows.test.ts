// The int8 rows of native-free-kernels/quantized-rows.ts: their bound is above every dot (exact and
// as either kernel sums it) and close to it, and a scan that skips the rows it rules out
// (score-rows.ts vectorTopTo, both kernels) gives the items and scores of the scan of every row,
// bit for bit, while scoring fewer rows.
import t from 'tap';
import { normOrderOf } from '../../native-free-kernels/lists.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import {
  QUANT_MAX_F,
  quantBound,
  quantizeQueryTo,
  quantizeRowsTo,
  quantStride,
  type QuantizedRows,
} from '../../native-free-kernels/quantized-rows.js';
import { rowNormsTo } from '../../native-free-kernels/rows.js';
import { scoreRows, type ScoreRows } from '../../native-free-kernels/score-rows.js';
import { heapOffer } from '../../native-free-kernels/top-k.js';

// Rows of random directions whose lengths span two orders of magnitude (as trained item factors do).
function randomRows(rand: () => number, n: number, f: number): Float32Array {
  const out = new Float32Array(n * f);
  for (let r = 0; r < n; r++) {
    const length = Math.exp(rand() * 4.6);
    for (let a = 0; a < f; a++) out[r * f + a] = (rand() - 0.5) * length;
  }
  return out;
}

const quantized = (count: number, f: number): QuantizedRows => ({
  rows: new Int8Array(new SharedArrayBuffer(count * quantStride(f))),
  scales: new Float32Array(new SharedArrayBuffer(count * 4)),
  errorTerms: new Float32Array(new SharedArrayBuffer(count * 4)),
  lengthTerms: new Float32Array(new SharedArrayBuffer(count * 4)),
});

t.test('the bound is above the exact dot and both f32 sums, and within 2 % of |u|·|v| of it', async (t) => {
  const rand = mulberry32(11);
  for (const f of [1, 3, 8, 13, 64, 100]) {
    const n = 300,
      rows = randomRows(rand, n, f);
    const q = quantized(n, f);
    t.equal(quantizeRowsTo(q, rows, n, f), n);
    let worst = 0,
      ok = true;
    for (let trial = 0; trial < 20; trial++) {
      const u = Float32Array.from({ length: f }, () => (rand() - 0.5) * 10);
      const uq = quantizeQueryTo(new Int16Array(quantStride(f)), u, f)!;
      const un = Math.hypot(...u);
      for (let p = 0; p < n; p++) {
        let exact = 0,
          f32 = 0,
          vn = 0;
        for (let a = 0; a < f; a++) {
          exact += u[a]! * rows[p * f + a]!;
          f32 = Math.fround(f32 + Math.fround(u[a]! * rows[p * f + a]!));
          vn += rows[p * f + a]! ** 2;
        }
        const bound = quantBound(uq, q, p, quantStride(f), un);
        if (!(bound >= exact && bound >= f32)) ok = false;
        worst = Math.max(worst, (bound - exact) / (un * Math.sqrt(vn)));
      }
    }
    t.ok(ok, `f=${f}: above every dot`);
    t.ok(worst < 0.02, `f=${f}: at most ${worst.toFixed(4)} of |u|·|v| above`);
  }
});

t.test('what cannot bound: no int8 rows past QUANT_MAX_F factors, no int16 query of zeros, NaN or ∞', async (t) => {
  const f = QUANT_MAX_F + 1;
  t.equal(quantizeRowsTo(quantized(2, f), new Float32Array(2 * f).fill(1), 2, f), 0);
  const r = new Int16Array(16);
  t.equal(quantizeQueryTo(r, new Float32Array(3), 3), undefined);
  t.equal(quantizeQueryTo(r, Float32Array.of(1, NaN, 2), 3), undefined);
  t.equal(quantizeQueryTo(r, Float32Array.of(1, Infinity, 2), 3), undefined);
  t.throws(() => quantizeRowsTo(quantized(1, 4), new Float32Array(8), 2, 4), /room/);
});

// The TypeScript kernels, as a scoring thread attaches them, with or without int8 rows.
function tsRows(factors: Float32Array, n: number, f: number, prune: boolean): ScoreRows {
  const norms = new Float32Array(new SharedArrayBuffer(n * 4));
  rowNormsTo(norms, factors, n, f);
  const o = normOrderOf(factors, norms, n, f);
  const q = quantized(o.count, f);
  const count = quantizeRowsTo(q, o.rows, o.count, f);
  const buffer = (a: ArrayBufferView) => a.buffer as SharedArrayBuffer;
  const quant = {
    rows: buffer(q.rows),
    scales: buffer(q.scales),
    errorTerms: buffer(q.errorTerms),
    lengthTerms: buffer(q.lengthTerms),
    quantized: count,
  };
  const shared = {
    norms: buffer(norms),
    listRows: new SharedArrayBuffer(0),
    order: buffer(o.order),
    sortedNorms: buffer(o.norms),
    sortedRows: buffer(o.rows),
    count: o.count,
    quant,
  };
  return scoreRows(factors, n, f, new Uint32Array(0), shared, { prune });
}

// Rows as random as randomRows, with some of norm 0, some of NaN, and some repeated (ties).
function awkwardRows(rand: () => number, n: number, f: number): Float32Array {
  const out = randomRows(rand, n, f);
  for (let r = 0; r < n; r++) {
    const x = rand();
    if (x < 0.05) out.fill(0, r * f, (r + 1) * f);
    else if (x < 0.06) out[r * f] = NaN;
    else if (x < 0.2 && r > 0) out.copyWithin(r * f, (r - 1) * f, r * f);
  }
  return out;
}

t.test('a pruned scan gives what the scan of every row gives, bit for bit, scoring fewer rows', async (t) => {
  const rand = mulberry32(12);
  const kernels: [string, (factors: Float32Array, n: number, f: number, prune: boolean) => ScoreRows][] = [
    ['WebAssembly SIMD', (factors, n, f, prune) => scoreRows(factors, n, f, new Uint32Array(0), undefined, { prune })],
    ['TypeScript', tsRows],
  ];
  for (const [kernel, make] of kernels) {
    let pruned = 0,
      every = 0,
      large = '';
    for (const [n, f] of [
      [5, 3],
      [70, 8],
      [300, 13],
      [3001, 16],
      [5000, 64],
    ] as const) {
      const factors = awkwardRows(rand, n, f);
      const rows = make(factors, n, f, true),
        all = make(factors, n, f, false);
      for (const [k, maxRows, partial, filled] of [
        [1, Infinity, false, 0],
        [32, Infinity, false, 0],
        [64, 2048, true, 5],
        [32, 100, true, 32],
        [16, Infinity, false, 16],
        [100, 3000, true, 100],
        [10, 50, false, 0],
        [n + 3, Infinity, false, 0],
      ] as const) {
        const q = Float32Array.from({ length: f }, () => rand() - 0.5);
        // A heap of `filled` rows the scan never meets (ids past the rows), as a session's candidates fill it.
        const want = { items: new Uint32Array(k), scores: new Float32Array(k) };
        let size = 0;
        for (let j = 0; j < filled; j++) size = heapOffer(want.items, want.scores, size, k, (rand() - 0.5) * 10, n + j);
        const got = { items: want.items.slice(), scores: want.scores.slice() };
        const wantCount = all.vectorTopTo(want.items, want.scores, k, q, maxRows, filled, partial);
        every += all.rescored;
        const gotCount = rows.vectorTopTo(got.items, got.scores, k, q, maxRows, filled, partial);
        pruned += rows.rescored;
        if (n === 5000 && k === 32 && filled === 0) large = `${rows.rescored} of ${all.rescored}`;
        const tag = `${kernel} ${n}×${f} k=${k} maxRows=${maxRows}${partial ? ' partial' : ''} filled=${filled}`;
        t.equal(gotCount, wantCount, `${tag}: count`);
        const used = Math.max(0, wantCount);
        t.same([...got.items.subarray(0, used)], [...want.items.subarray(0, used)], `${tag}: items`);
        t.same(Array.from(got.scores.subarray(0, used), String), Array.from(want.scores.subarray(0, used), String), `${tag}: scores`);
      }
    }
    t.ok(pruned < every, `${kernel}: ${pruned} rows scored exactly of ${every}`);
    const [some, of] = large.split(' of ').map(Number);
    t.ok(some! < of! / 4, `${kernel}: 5000×64 k=32 (every row): ${large} rows scored exactly`);
  }
});

t.test('a query of zeros or NaN bounds nothing and scores every row as before', async (t) => {
  const rand = mulberry32(13);
  const n = 200,
    f = 8,
    factors = randomRows(rand, n, f);
  const rows = scoreRows(factors, n, f, new Uint32Array(0)),
    all = scoreRows(factors, n, f, new Uint32Array(0), undefined, { prune: false });
  for (const q of [new Float32Array(f), Float32Array.from({ length: f }, (_, a) => (a === 2 ? NaN : 1))]) {
    const a = { items: new Uint32Array(10), scores: new Float32Array(10) },
      b = { items: new Uint32Array(10), scores: new Float32Array(10) };
    t.equal(rows.vectorTopTo(a.items, a.scores, 10, q), all.vectorTopTo(b.items, b.scores, 10, q));
    t.same([...a.items], [...b.items]);
    t.equal(rows.rescored, all.rescored);
  }
});
