// Every kernel against its twin (native-free-kernels/reference/) on seeded random inputs: one row per
// pair, its input drawn by `run` (test/helpers/twins.ts). A new kernel with a twin adds a row. The
// per-kernel files keep hand examples, edge cases and bad input.
import t from 'tap';
import * as csr from '../../native-free-kernels/csr.js';
import * as fold from '../../native-free-kernels/fold-in.js';
import * as linalg from '../../native-free-kernels/linalg.js';
import * as lists from '../../native-free-kernels/lists.js';
import * as popularity from '../../native-free-kernels/popularity.js';
import * as rows from '../../native-free-kernels/rows.js';
import * as scores from '../../native-free-kernels/scores.js';
import * as topK from '../../native-free-kernels/top-k.js';
import * as refCsr from '../../native-free-kernels/reference/csr.js';
import * as refFold from '../../native-free-kernels/reference/fold-in.js';
import * as refLinalg from '../../native-free-kernels/reference/linalg.js';
import * as refLists from '../../native-free-kernels/reference/lists.js';
import * as refPopularity from '../../native-free-kernels/reference/popularity.js';
import * as refRows from '../../native-free-kernels/reference/rows.js';
import * as refScores from '../../native-free-kernels/reference/scores.js';
import * as refTopK from '../../native-free-kernels/reference/top-k.js';
import { checkTwins, type TwinPair } from '../helpers/twins.js';

const int = (rand: () => number, below: number) => Math.floor(rand() * below);
// A rows × f matrix in [-0.5, 0.5), about one row in five all zeros, and its norms.
function matrix(rand: () => number, rowCount: number, f: number) {
  const factors = Float32Array.from({ length: rowCount * f }, () => rand() - 0.5);
  for (let r = 0; r < rowCount; r++) if (rand() < 0.2) factors.fill(0, r * f, (r + 1) * f);
  const norms = new Float32Array(rowCount);
  rows.rowNormsTo(norms, factors, rowCount, f);
  return { factors, norms };
}
// Triples of a rows × cols matrix, repeats included (the last write wins in both).
function triples(rand: () => number, rowCount: number, cols: number, m: number) {
  return {
    r: Uint32Array.from({ length: m }, () => int(rand, rowCount)),
    c: Uint32Array.from({ length: m }, () => int(rand, cols)),
    v: Float32Array.from({ length: m }, () => 1 + int(rand, 5)),
  };
}
const flat = (m: csr.Csr) => [m.rows, m.cols, ...m.indptr, ...m.indices, ...m.values];

const PAIRS: TwinPair[] = [
  {
    name: 'topKTo',
    tolerance: 0,
    run: (rand) => {
      const n = 1 + int(rand, 60),
        k = int(rand, n + 2);
      // Few distinct values and some NaN, so ties and skips are common.
      const s = Float32Array.from({ length: n }, () => (rand() < 0.1 ? NaN : int(rand, 8)));
      const mask = rand() < 0.5 ? Uint8Array.from({ length: n }, () => (rand() < 0.7 ? 1 : 0)) : undefined;
      const out = (kernel: typeof topK.topKTo) => {
        const idx = new Uint32Array(k),
          score = new Float32Array(k);
        const got = kernel(idx, score, s, n, k, mask);
        return [got, ...idx.subarray(0, got), ...score.subarray(0, got)];
      };
      return { fast: out(topK.topKTo), twin: out(refTopK.topKTo) };
    },
  },
  {
    name: 'popularityTo',
    tolerance: 1e-5,
    run: (rand) => {
      const items = 1 + int(rand, 20),
        m = int(rand, 80);
      const it = Uint32Array.from({ length: m }, () => int(rand, items));
      const ts = Float64Array.from({ length: m }, () => rand() * 1000),
        w = Float32Array.from({ length: m }, () => rand() * 3),
        halfLife = 50 + rand() * 500;
      const out = (kernel: typeof popularity.popularityTo) => {
        const dst = new Float32Array(items);
        kernel(dst, it, ts, w, 900, halfLife);
        return dst;
      };
      return { fast: out(popularity.popularityTo), twin: out(refPopularity.popularityTo) };
    },
  },
  {
    name: 'csrFromTriples and transpose',
    tolerance: 0,
    run: (rand) => {
      const rowCount = 1 + int(rand, 12),
        cols = 1 + int(rand, 12),
        { r, c, v } = triples(rand, rowCount, cols, int(rand, 60));
      const fast = csr.csrFromTriples(rowCount, cols, r, c, v),
        twin = refCsr.csrFromTriples(rowCount, cols, r, c, v);
      return { fast: [...flat(fast), ...flat(csr.transpose(fast))], twin: [...flat(twin), ...flat(refCsr.transpose(twin))] };
    },
  },
  {
    name: 'gramTo',
    tolerance: 1e-9,
    run: (rand) => {
      const n = int(rand, 30),
        f = 1 + int(rand, 9),
        { factors } = matrix(rand, n, f);
      const fast = new Float64Array(f * f),
        twin = new Float64Array(f * f);
      linalg.gramTo(fast, factors, n, f);
      refLinalg.gramTo(twin, factors, n, f);
      return { fast, twin };
    },
  },
  {
    name: 'foldInTo',
    tolerance: 1e-4,
    run: (rand) => {
      const cols = 2 + int(rand, 30),
        f = 1 + int(rand, 8),
        { factors } = matrix(rand, cols, f),
        k = int(rand, Math.min(cols, 12));
      const items = Uint32Array.from(new Set(Array.from({ length: k }, () => int(rand, cols)))),
        values = Float32Array.from(items, () => 1 + int(rand, 5));
      const gram = new Float64Array(f * f);
      linalg.gramTo(gram, factors, cols, f);
      const out = (kernel: typeof fold.foldInTo) => {
        const dst = new Float32Array(f);
        kernel(dst, items, values, factors, gram, f, 0.5, 2, new Float64Array(2 * f * f + 2 * f));
        return dst;
      };
      return { fast: out(fold.foldInTo), twin: out(refFold.foldInTo) };
    },
  },
  {
    name: 'rowNormsTo and meanRowsTo',
    tolerance: 1e-6,
    run: (rand) => {
      const n = 1 + int(rand, 30),
        f = 1 + int(rand, 9),
        { factors } = matrix(rand, n, f);
      const list = Array.from({ length: int(rand, 10) }, () => int(rand, n));
      const out = (k: typeof rows) => {
        const ns = new Float32Array(n),
          mean = new Float32Array(f);
        k.rowNormsTo(ns, factors, n, f);
        return [...ns, k.meanRowsTo(mean, factors, n, f, list), ...mean];
      };
      return { fast: out(rows), twin: out(refRows as typeof rows) };
    },
  },
  {
    name: 'cosineScoresTo',
    tolerance: 1e-5,
    run: (rand) => {
      const n = 1 + int(rand, 40),
        f = 1 + int(rand, 9),
        { factors, norms } = matrix(rand, n, f),
        item = int(rand, n);
      const fast = new Float32Array(n),
        twin = new Float32Array(n);
      scores.cosineScoresTo(fast, factors, norms, n, f, item);
      refScores.cosineScoresTo(twin, factors, norms, n, f, item);
      return { fast, twin };
    },
  },
  {
    name: 'itemListsTo',
    tolerance: 0,
    run: (rand) => {
      const count = 1 + int(rand, 40),
        f = 1 + int(rand, 9),
        n = 1 + int(rand, 8),
        { factors, norms } = matrix(rand, count, f);
      const from = int(rand, count),
        to = from + int(rand, count - from + 1);
      const out = (kernel: typeof lists.itemListsTo) => {
        const dst = new Uint32Array(count * n);
        kernel(dst, n, factors, norms, count, f, from, to, new Float32Array(lists.listsScratchLength(count, f, n)));
        return dst;
      };
      return { fast: out(lists.itemListsTo), twin: out(refLists.itemListsTo) };
    },
  },
];

t.test('every kernel agrees with its twin on random inputs', async (t) => {
  checkTwins(t, PAIRS, 25);
});
