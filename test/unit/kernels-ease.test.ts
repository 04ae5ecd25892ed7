// Item-weights kernels: the weighted Gram matrix, EASE's blocked sweep inverse (one thread or rows
// split as threads split them) and B, item-KNN's neighbours, all agree with their reference twins.
import t from 'tap';
import { randomMatrix } from '../helpers/random-matrix.js';
import {
  addDiagonalTo,
  ratingWeightsTo,
  easeScoresTo,
  easeWeightsTo,
  sweepInverseInPlace,
  sweepPivotTo,
  sweepScratchLength,
  sweepUpdateTo,
  weightedGramTo,
} from '../../native-free-kernels/ease.js';
import { easeWeights, inverse, weightedGram } from '../../native-free-kernels/reference/ease.js';
import { cosineNeighboursTo } from '../../native-free-kernels/item-knn.js';
import { cosineNeighbours } from '../../native-free-kernels/reference/item-knn.js';

const close = (a: ArrayLike<number>, b: ArrayLike<number>, tol: number) => {
  let worst = 0;
  for (let k = 0; k < a.length; k++) worst = Math.max(worst, Math.abs(a[k]! - b[k]!) / Math.max(1, Math.abs(b[k]!)));
  return worst <= tol ? true : worst;
};

t.test('weightedGramTo matches the reference, in any row ranges, with items left out', async (t) => {
  const m = randomMatrix(1, 30, 25, 0.3, 5);
  const column = Int32Array.from({ length: 25 }, (_, i) => (i % 5 === 3 ? -1 : i - Math.floor((i + 1) / 5)));
  const n = 20;
  const weights = Float32Array.from(m.values, (v) => (v >= 3 ? 1 : 0.5));
  const dst = new Float64Array(n * n).fill(7);
  for (const [s, e] of [
    [0, 7],
    [7, 13],
    [13, 20],
  ] as const)
    weightedGramTo(dst, m, column, weights, n, s, e);
  t.equal(close(dst, weightedGram(m, column, weights, n), 1e-12), true);
});

t.test('the sweep inverse matches the reference for sizes around the block size', async (t) => {
  for (const [n, b] of [
    [1, 4],
    [5, 4],
    [8, 4],
    [9, 4],
    [37, 8],
    [64, 16],
    [65, 16],
  ] as const) {
    const m = randomMatrix(n, 3 * n, n, 0.3, 5);
    const column = Int32Array.from({ length: n }, (_, i) => i);
    const g = new Float64Array(n * n);
    weightedGramTo(g, m, column, Float32Array.from(m.values), n, 0, n);
    addDiagonalTo(g, n, 3, 0, n);
    const want = inverse(g, n);
    const one = Float64Array.from(g);
    t.equal(sweepInverseInPlace(one, n, b), true, `n ${n}, b ${b}`);
    t.equal(close(one, want, 1e-9), true, `one thread, n ${n}, b ${b}`);
    // As the training pool runs it: each block's pivot, then the other rows in ranges.
    const split = Float64Array.from(g);
    const scratch = new Float64Array(sweepScratchLength(n, b)),
      r = new Float64Array(4 * b);
    for (let k = 0; k < n; k += b) {
      const size = Math.min(b, n - k);
      sweepPivotTo(split, n, k, size, scratch);
      const cut = Math.floor(n / 3);
      sweepUpdateTo(split, n, k, size, scratch, cut, n, r);
      sweepUpdateTo(split, n, k, size, scratch, 0, cut, r);
    }
    t.equal(close(split, want, 1e-9), true, `rows split, n ${n}, b ${b}`);
  }
});

t.test('a matrix that is not positive definite is refused', async (t) => {
  const a = Float64Array.of(1, 2, 2, 1);
  t.equal(sweepInverseInPlace(a, 2, 2), false);
});

t.test('easeWeightsTo and easeScoresTo match B and x·B', async (t) => {
  const n = 12;
  const m = randomMatrix(3, 40, n, 0.4, 5);
  const column = Int32Array.from({ length: n }, (_, i) => i);
  const g = new Float64Array(n * n);
  weightedGramTo(g, m, column, Float32Array.from(m.values), n, 0, n);
  addDiagonalTo(g, n, 5, 0, n);
  const p = inverse(g, n);
  const b = new Float32Array(n * n);
  easeWeightsTo(b, p, n, 0, 5);
  easeWeightsTo(b, p, n, 5, n);
  const want = easeWeights(p, n);
  t.equal(close(b, want, 1e-6), true);
  for (let i = 0; i < n; i++) t.equal(b[i * n + i], 0);
  const rows = [1, 4, 7],
    values = [1, 0.5, 2];
  const scores = new Float32Array(n);
  easeScoresTo(scores, b, n, rows, values);
  const expect = Array.from({ length: n }, (_, j) => rows.reduce((s, r, q) => s + values[q]! * want[r * n + j]!, 0));
  t.equal(close(scores, expect, 1e-5), true);
});

t.test("the Gram matrix, its diagonal and B over rows padded apart (the WebAssembly sweep's f32 layout)", async (t) => {
  const n = 10,
    stride = 16;
  const m = randomMatrix(4, 30, n, 0.4, 5);
  const column = Int32Array.from({ length: n }, (_, i) => i),
    weights = Float32Array.from(m.values);
  const plain = new Float64Array(n * n),
    padded = new Float32Array(n * stride).fill(9);
  weightedGramTo(plain, m, column, weights, n, 0, n);
  weightedGramTo(padded, m, column, weights, n, 0, 4, stride);
  weightedGramTo(padded, m, column, weights, n, 4, n, stride);
  addDiagonalTo(plain, n, 2, 0, n);
  addDiagonalTo(padded, n, 2, 0, n, stride);
  for (let i = 0; i < n; i++) {
    t.equal(close(padded.subarray(i * stride, i * stride + n), plain.subarray(i * n, (i + 1) * n), 1e-7), true, `row ${i}`);
    t.same([...padded.subarray(i * stride + n, (i + 1) * stride)], Array(stride - n).fill(9), `row ${i}'s padding untouched`);
  }
  const p = inverse(plain, n),
    pPadded = new Float32Array(n * stride);
  for (let i = 0; i < n; i++) pPadded.set(p.subarray(i * n, (i + 1) * n), i * stride);
  const b = new Float32Array(n * n);
  easeWeightsTo(b, pPadded, n, 0, n, stride);
  t.equal(close(b, easeWeights(p, n), 1e-6), true);
});

t.test('cosineNeighboursTo matches its reference: each row its k most similar items', async (t) => {
  for (const [n, k] of [
    [10, 3],
    [25, 5],
    [25, 30],
  ] as const) {
    const m = randomMatrix(n + k, 60, n, 0.2, 5);
    const column = Int32Array.from({ length: n }, (_, i) => (i === 4 ? -1 : i)); // item 4: no ratings kept
    const g = new Float64Array(n * n);
    weightedGramTo(g, m, column, Float32Array.from(m.values), n, 0, n);
    const dst = new Float32Array(n * n).fill(9);
    cosineNeighboursTo(dst, g, n, k, 0, 7);
    cosineNeighboursTo(dst, g, n, k, 7, n);
    t.equal(close(dst, cosineNeighbours(g, n, k), 1e-6), true, `n ${n}, k ${k}`);
    for (let i = 0; i < n; i++) {
      t.equal(dst[i * n + i], 0, 'never its own neighbour');
      t.ok(dst.subarray(i * n, (i + 1) * n).filter((x) => x !== 0).length <= k, 'at most k neighbours');
      t.equal(dst[i * n + 4], 0, "an item without ratings is nobody's neighbour");
    }
    t.ok(
      dst.subarray(4 * n, 5 * n).every((x) => x === 0),
      'and has none',
    );
  }
});

t.test("ratingWeightsTo: a cut and a weight below it, or each rating's quantile", async (t) => {
  const values = Float32Array.of(4, 2, 4, 5, 2, 4);
  const dst = new Float32Array(6);
  ratingWeightsTo(dst, values, { cut: 4, below: 0.25, byQuantile: false });
  t.same([...dst], [1, 0.25, 1, 1, 0.25, 1]);
  ratingWeightsTo(dst, values, { cut: 4, below: 0.25, byQuantile: true });
  t.same(
    [...dst].map((x) => +x.toFixed(4)),
    [0.8333, 0.3333, 0.8333, 1, 0.3333, 0.8333],
    'the share of ratings valued at most each',
  );
  t.throws(() => ratingWeightsTo(new Float32Array(2), values, { cut: 0, below: 1, byQuantile: false }), /length/);
});
