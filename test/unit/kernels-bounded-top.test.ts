// The bounded scan of native-free-kernels/bounded-top.ts, through both kernels of score-rows.ts
// (WebAssembly SIMD and TypeScript): the best k by query · row, as a full scan (groupScoresTo of one
// query, then topKTo) ranks them, after scoring fewer rows when norms differ; -1 past maxRows.
import t from 'tap';
import { boundedTopTo, hitsOf } from '../../native-free-kernels/bounded-top.js';
import { normOrderOf } from '../../native-free-kernels/lists.js';
import { dotAt } from '../../native-free-kernels/dot.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { rowNormsTo } from '../../native-free-kernels/rows.js';
import { normOf, scoreRows, type ScoreRows } from '../../native-free-kernels/score-rows.js';
import { heapOffer, topKTo } from '../../native-free-kernels/top-k.js';

// Rows of random directions whose lengths span two orders of magnitude (as trained item factors do),
// some of norm 0.
function randomRows(rand: () => number, n: number, f: number): Float32Array {
  const out = new Float32Array(n * f);
  for (let r = 0; r < n; r++) {
    if (rand() < 0.1) continue;
    const length = Math.exp(rand() * 4.6);
    for (let a = 0; a < f; a++) out[r * f + a] = (rand() - 0.5) * length;
  }
  return out;
}

// The TypeScript kernels, as a scoring thread attaches them.
function tsRows(factors: Float32Array, n: number, f: number): ScoreRows {
  const norms = new Float32Array(new SharedArrayBuffer(n * 4));
  rowNormsTo(norms, factors, n, f);
  const o = normOrderOf(factors, norms, n, f);
  const buffer = (a: ArrayBufferView) => a.buffer as SharedArrayBuffer;
  return scoreRows(factors, n, f, new Uint32Array(0), {
    norms: buffer(norms),
    listRows: new SharedArrayBuffer(0),
    order: buffer(o.order),
    sortedNorms: buffer(o.norms),
    sortedRows: buffer(o.rows),
    count: o.count,
  });
}

function fullTop(rows: ScoreRows, n: number, q: Float32Array, k: number) {
  const scores = new Float32Array(n);
  rows.groupScoresTo(scores, [q], 0);
  const items = new Uint32Array(k),
    best = new Float32Array(k);
  const got = topKTo(items, best, scores, n, k);
  return { items: items.subarray(0, got), scores: best.subarray(0, got) };
}

function boundedTop(rows: ScoreRows, q: Float32Array, k: number, maxRows?: number) {
  const items = new Uint32Array(k),
    scores = new Float32Array(k);
  const got = rows.vectorTopTo(items, scores, k, q, maxRows);
  return { got, items: items.subarray(0, Math.max(got, 0)), scores: scores.subarray(0, Math.max(got, 0)) };
}

const SIZES: [number, number][] = [
  [0, 4],
  [1, 1],
  [5, 3],
  [70, 8],
  [300, 13],
  [2000, 32],
  [5000, 64],
];

t.test('TypeScript: the same items and scores as the full scan', async (t) => {
  const rand = mulberry32(5);
  for (const [n, f] of SIZES) {
    const factors = randomRows(rand, n, f);
    const rows = tsRows(factors, n, f);
    for (const k of [1, 10, 64, n + 3]) {
      const q = Float32Array.from({ length: f }, () => rand() - 0.5);
      const want = fullTop(rows, n, q, k),
        got = boundedTop(rows, q, k);
      t.equal(got.got, want.items.length, `${n}×${f} k=${k}: count`);
      t.same([...got.items], [...want.items], `${n}×${f} k=${k}: items`);
      t.same([...got.scores], [...want.scores], `${n}×${f} k=${k}: scores`);
    }
  }
});

t.test('WebAssembly SIMD: the items of the full scan, up to f32 near-ties', async (t) => {
  const rand = mulberry32(6);
  for (const [n, f] of SIZES) {
    const factors = randomRows(rand, n, f);
    const rows = scoreRows(factors, n, f, new Uint32Array(0)),
      twin = tsRows(factors, n, f);
    for (const k of [1, 10, 64, n + 3]) {
      const q = Float32Array.from({ length: f }, () => rand() - 0.5);
      const want = fullTop(twin, n, q, k),
        got = boundedTop(rows, q, k);
      t.equal(got.got, want.items.length, `${n}×${f} k=${k}: count`);
      const tol = (x: number) => 1e-5 + 1e-4 * Math.abs(x);
      const kth = want.scores[want.scores.length - 1] ?? 0;
      // Every item found scores (by the twin) at least the twin's k-th best, and in the same order.
      const exact = (i: number) => dotAt(q, 0, factors, i * f, f);
      t.ok(
        [...got.items].every((i, c) => exact(i) >= kth - tol(kth) && Math.abs(exact(i) - want.scores[c]!) <= tol(want.scores[c]!)),
        `${n}×${f} k=${k}: items and order`,
      );
    }
  }
});

t.test('scores fewer rows than the full scan when norms differ, and gives up at maxRows', async (t) => {
  const rand = mulberry32(7);
  const n = 20_000,
    f = 16;
  const factors = randomRows(rand, n, f);
  const norms = new Float32Array(n);
  rowNormsTo(norms, factors, n, f);
  const o = normOrderOf(factors, norms, n, f);
  const q = Float32Array.from({ length: f }, () => rand() - 0.5);
  let scored = 0;
  const dotsOf = hitsOf((row) => {
    scored++;
    return dotAt(q, 0, o.rows, row * f, f);
  });
  const items = new Uint32Array(10),
    scores = new Float32Array(10);
  t.equal(boundedTopTo(items, scores, 10, Math.hypot(...q), o, dotsOf), 10);
  t.ok(scored < n / 2, `scored ${scored} of ${n} rows`);
  const rows = tsRows(factors, n, f);
  t.equal(boundedTop(rows, q, 10, 0).got, -1, 'no row allowed: not sure of anything');
  t.equal(boundedTop(rows, q, 10, scored).got, 10, 'as many rows as it needs: sure');
  t.equal(
    boundedTop(
      rows,
      q.map((x) => -x),
      10,
      2 * scored,
    ).got,
    10,
    'the opposite query is bounded too',
  );
});

t.test('rows of norm 0 are never ranked; a query of zeros ranks the others, by row', async (t) => {
  const f = 4,
    n = 6;
  const factors = new Float32Array(n * f);
  for (const r of [1, 3, 4]) factors.fill(r, r * f, (r + 1) * f);
  for (const rows of [tsRows(factors, n, f), scoreRows(factors, n, f, new Uint32Array(0))]) {
    const top = boundedTop(rows, Float32Array.of(1, 0, 0, 0), 10);
    t.same([...top.items], [4, 3, 1]);
    t.same([...boundedTop(rows, new Float32Array(f), 10).items], [1, 3, 4]);
  }
});

// The WebAssembly scan selects its top itself (wasm/assembly/scores.ts boundedTop): boundedTopTo,
// its twin, given the same SIMD dots (rowDotsTo of each block's rows, summed as the scan sums them)
// must keep the same items and scores, with maxRows, partial scans and a heap filled beforehand.
t.test('WebAssembly SIMD selection: what boundedTopTo keeps from the same dots', async (t) => {
  const rand = mulberry32(8);
  for (const [n, f] of [
    [70, 8],
    [2000, 32],
    [5000, 64],
    [3001, 13],
  ] as const) {
    const factors = randomRows(rand, n, f);
    const rows = scoreRows(factors, n, f, new Uint32Array(0));
    const order = rows.normOrder;
    for (const [k, maxRows, partial, filled] of [
      [1, Infinity, false, 0],
      [32, Infinity, false, 0],
      [32, 100, true, 0],
      [64, 2048, true, 5],
      [10, 50, false, 0],
      [n + 3, Infinity, false, 0],
    ] as const) {
      const q = Float32Array.from({ length: f }, () => rand() - 0.5);
      const dots = new Float32Array(n);
      const dotsOf = (from: number, count: number, floor: number) => {
        rows.rowDotsTo(dots, q, order.subarray(from, from + count));
        const found = { scores: new Float32Array(count), at: new Uint32Array(count), hits: 0 };
        for (let c = 0; c < count; c++) {
          if (!(dots[c]! >= floor)) continue;
          found.scores[found.hits] = dots[c]!;
          found.at[found.hits++] = c;
        }
        return found;
      };
      // A heap of `filled` rows the scan never meets (ids past the rows), as a session's candidates fill it.
      const heapOf = () => {
        const items = new Uint32Array(k),
          scores = new Float32Array(k);
        let size = 0;
        for (let j = 0; j < filled; j++) size = heapOffer(items, scores, size, k, (rand() - 0.5) * 10, n + j);
        return { items, scores };
      };
      const want = heapOf(),
        got = { items: want.items.slice(), scores: want.scores.slice() };
      const wantCount = boundedTopTo(
        want.items,
        want.scores,
        k,
        normOf(q),
        { order, norms: sortedNorms(rows, order), count: order.length },
        dotsOf,
        maxRows,
        filled,
        partial,
      );
      const gotCount = rows.vectorTopTo(got.items, got.scores, k, q, maxRows, filled, partial);
      const tag = `${n}×${f} k=${k} maxRows=${maxRows}${partial ? ' partial' : ''} filled=${filled}`;
      t.equal(gotCount, wantCount, `${tag}: count`);
      t.same([...got.items.subarray(0, Math.max(0, gotCount))], [...want.items.subarray(0, Math.max(0, wantCount))], `${tag}: items`);
      t.same([...got.scores.subarray(0, Math.max(0, gotCount))], [...want.scores.subarray(0, Math.max(0, wantCount))], `${tag}: scores`);
    }
  }
});

// The norms in scan order, as boundedTopTo reads them.
const sortedNorms = (rows: ScoreRows, order: Uint32Array) => Float32Array.from(order, (i) => rows.norms[i]!);
