// ALS, fold-in and dense linear algebra kernels agree with their reference twins on small random inputs.
import t from 'tap';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { alsHalfStepTo, alsLoss, type Regularization } from '../../native-free-kernels/als.js';
import type { Csr } from '../../native-free-kernels/csr.js';
import { foldInTo } from '../../native-free-kernels/fold-in.js';
import { choleskySolveTo, gramTo, sumTo } from '../../native-free-kernels/linalg.js';
import * as ref from '../../native-free-kernels/reference/als.js';
import { foldInTo as refFoldInTo } from '../../native-free-kernels/reference/fold-in.js';
import {
  choleskySolveTo as refCholeskySolveTo,
  gramTo as refGramTo,
  sumTo as refSumTo,
} from '../../native-free-kernels/reference/linalg.js';

const randInt = (rand: () => number, n: number) => Math.floor(rand() * n);

function randomFactors(rand: () => number, n: number, f: number, scale = 1): Float32Array {
  const out = new Float32Array(n * f);
  for (let k = 0; k < out.length; k++) out[k] = (rand() - 0.5) * scale;
  return out;
}

// Random sparse feedback plus its transpose, both as CSR.
function randomCsr(rand: () => number, rows: number, cols: number, density: number): { m: Csr; mt: Csr } {
  const triples: [number, number, number][] = [];
  for (let u = 0; u < rows; u++) for (let i = 0; i < cols; i++) if (rand() < density) triples.push([u, i, 1 + Math.floor(rand() * 5)]);
  const build = (r: number, c: number, ts: [number, number, number][]): Csr => {
    ts.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    const indptr = new Uint32Array(r + 1);
    for (const [u] of ts) indptr[u + 1]!++;
    for (let u = 0; u < r; u++) indptr[u + 1]! += indptr[u]!;
    return { rows: r, cols: c, indptr, indices: Uint32Array.from(ts, (x) => x[1]), values: Float32Array.from(ts, (x) => x[2]) };
  };
  return {
    m: build(rows, cols, triples),
    mt: build(
      cols,
      rows,
      triples.map(([u, i, v]) => [i, u, v]),
    ),
  };
}

function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let num = 0,
    den = 0;
  for (let k = 0; k < a.length; k++) {
    num += (a[k]! - b[k]!) ** 2;
    den += b[k]! ** 2;
  }
  return Math.sqrt(num) / Math.max(Math.sqrt(den), 1e-12);
}

function gram(factors: Float32Array, n: number, f: number): Float64Array {
  const g = new Float64Array(f * f);
  gramTo(g, factors, n, f);
  return g;
}

t.test('gramTo matches the reference', async (t) => {
  const rand = mulberry32(1);
  for (const [n, f] of [
    [1, 1],
    [7, 3],
    [20, 8],
  ] as const) {
    const y = randomFactors(rand, n, f);
    const fast = new Float64Array(f * f).fill(99);
    const slow = new Float64Array(f * f);
    gramTo(fast, y, n, f);
    refGramTo(slow, y, n, f);
    t.ok(relErr(fast, slow) < 1e-12, `n=${n} f=${f}`);
  }
});

t.test('sumTo matches the reference bit for bit; the Gram matrix of row ranges sums to the whole', async (t) => {
  const rand = mulberry32(23);
  for (let trial = 0; trial < 40; trial++) {
    const len = randInt(rand, 30);
    const parts = Array.from({ length: randInt(rand, 5) }, () =>
      Float64Array.from({ length: len }, () => (rand() - 0.5) * 10 ** randInt(rand, 6)),
    );
    const a = new Float64Array(len).fill(7),
      b = new Float64Array(len);
    sumTo(a, parts);
    refSumTo(b, parts);
    t.same(Array.from(a), Array.from(b), `trial ${trial}: ${parts.length} parts of ${len}`);
  }
  const n = 50,
    f = 6,
    y = randomFactors(rand, n, f);
  const whole = new Float64Array(f * f),
    sum = new Float64Array(f * f);
  gramTo(whole, y, n, f);
  const parts = [
    [0, 17],
    [17, 30],
    [30, 50],
  ].map(([s, e]) => {
    const g = new Float64Array(f * f);
    gramTo(g, y.subarray(s! * f, e! * f), e! - s!, f);
    return g;
  });
  sumTo(sum, parts);
  t.ok(
    sum.every((x, k) => Math.abs(x - whole[k]!) < 1e-9 * Math.max(1, Math.abs(x))),
    'row-range Gram parts sum to the Gram matrix',
  );
  const dst = new Float64Array(3).fill(9);
  t.throws(() => sumTo(dst, [new Float64Array(3), new Float64Array(2)]), /part 1/);
  t.throws(() => refSumTo(dst, [new Float64Array(4)]), /part 0/);
  t.same(Array.from(dst), [9, 9, 9], 'a bad part throws before writing');
  sumTo(dst, []);
  t.same(Array.from(dst), [0, 0, 0], 'no parts: zeros');
});

t.test('choleskySolveTo matches Gaussian elimination and leaves a unchanged', async (t) => {
  const rand = mulberry32(2);
  for (const f of [1, 2, 5, 12]) {
    const a = gram(randomFactors(rand, f + 3, f), f + 3, f);
    for (let k = 0; k < f; k++) a[k * f + k]! += 0.1;
    const copy = a.slice();
    const b = Float64Array.from({ length: f }, () => rand() - 0.5);
    const fast = new Float64Array(f);
    const slow = new Float64Array(f);
    choleskySolveTo(fast, a, b, f, new Float64Array(f * f));
    refCholeskySolveTo(slow, a, b, f, new Float64Array(f * f));
    t.ok(relErr(fast, slow) < 1e-9, `f=${f}`);
    t.same(a, copy);
  }
  t.throws(
    () => choleskySolveTo(new Float64Array(2), new Float64Array([1, 2, 2, 1]), new Float64Array(2), 2, new Float64Array(4)),
    /positive definite/,
  );
});

// A plain λ, and λ scaled by each row's nonzeros (Rendle et al. 2022): λ·(n + offset)^ν.
const regularizations = (plain: number, cols: number): [string, Regularization][] => [
  ['plain λ', plain],
  ['frequency-scaled λ', { scale: plain / 10, offset: 0.3 * cols, exponent: 1 }],
  ['frequency-scaled λ, ν = 0.5', { scale: plain, offset: 0.5 * cols, exponent: 0.5 }],
];

for (const [name, reg] of regularizations(0.1, 15))
  t.test(`alsHalfStepTo with enough CG steps matches the exact reference solve (${name})`, async (t) => {
    const rand = mulberry32(3);
    const rows = 12,
      cols = 15,
      f = 6,
      alpha = 2;
    const { m } = randomCsr(rand, rows, cols, 0.3);
    const items = randomFactors(rand, cols, f);
    const g = gram(items, cols, f);
    const fast = new Float32Array(rows * f); // zero start
    const slow = new Float32Array(rows * f);
    alsHalfStepTo(fast, m, items, g, f, reg, alpha, 2 * f, new Float64Array(4 * f));
    ref.alsHalfStepTo(slow, m, items, g, f, reg, alpha, 2 * f, new Float64Array(4 * f));
    t.ok(relErr(fast, slow) < 1e-3, `relative error ${relErr(fast, slow)}`);
    // A warm start from arbitrary values converges to the same solution.
    const warm = randomFactors(rand, rows, f);
    alsHalfStepTo(warm, m, items, g, f, reg, alpha, 2 * f, new Float64Array(4 * f));
    t.ok(relErr(warm, slow) < 1e-3, `warm-start relative error ${relErr(warm, slow)}`);
  });

t.test('rows with no feedback get zero factors', async (t) => {
  const f = 3;
  const m: Csr = { rows: 2, cols: 2, indptr: Uint32Array.of(0, 0, 1), indices: Uint32Array.of(1), values: Float32Array.of(1) };
  const items = Float32Array.of(1, 0, 0, 0, 1, 0);
  const dst = Float32Array.of(5, 5, 5, 5, 5, 5);
  alsHalfStepTo(dst, m, items, gram(items, 2, f), f, 0.1, 1, 6, new Float64Array(4 * f));
  t.same([...dst.subarray(0, 3)], [0, 0, 0]);
  t.ok(dst[4]! > 0);
});

for (const [name, reg] of regularizations(0.05, 14))
  t.test(`foldInTo matches the reference and an ALS half-step row (${name})`, async (t) => {
    const rand = mulberry32(4);
    const rows = 10,
      cols = 14,
      f = 5,
      alpha = 3;
    const { m } = randomCsr(rand, rows, cols, 0.35);
    const items = randomFactors(rand, cols, f);
    const g = gram(items, cols, f);
    const als = new Float32Array(rows * f);
    alsHalfStepTo(als, m, items, g, f, reg, alpha, 2 * f, new Float64Array(4 * f));
    const scratch = new Float64Array(2 * f * f + 2 * f);
    for (let u = 0; u < rows; u++) {
      const start = m.indptr[u]!,
        end = m.indptr[u + 1]!;
      const userItems = m.indices.subarray(start, end);
      const userValues = m.values.subarray(start, end);
      const fast = new Float32Array(f);
      const slow = new Float32Array(f);
      foldInTo(fast, userItems, userValues, items, g, f, reg, alpha, scratch);
      refFoldInTo(slow, userItems, userValues, items, g, f, reg, alpha, scratch);
      if (start === end) {
        t.same([...fast], new Array(f).fill(0), `user ${u} has no items`);
        continue;
      }
      t.ok(relErr(fast, slow) < 1e-4, `user ${u} vs reference`);
      t.ok(relErr(als.subarray(u * f, (u + 1) * f), fast) < 1e-3, `user ${u} vs ALS row`);
    }
  });

for (const [name, reg] of regularizations(0.1, 25))
  t.test(`alsLoss matches the reference and alternating half-steps decrease it (${name})`, async (t) => {
    const rand = mulberry32(5);
    const rows = 30,
      cols = 25,
      f = 4,
      alpha = 4,
      cg = 3;
    const { m, mt } = randomCsr(rand, rows, cols, 0.15);
    const users = randomFactors(rand, rows, f, 0.1);
    const items = randomFactors(rand, cols, f, 0.1);
    const loss = () => alsLoss(m, users, items, rows, cols, f, reg, reg, alpha);
    const refLoss = ref.alsLoss(m, users, items, rows, cols, f, reg, reg, alpha);
    t.ok(Math.abs(loss() - refLoss) / refLoss < 1e-9, 'fast loss equals reference loss');
    const itemGram = new Float64Array(f * f);
    gramTo(itemGram, items, cols, f);
    t.equal(alsLoss(m, users, items, rows, cols, f, reg, reg, alpha, itemGram), loss(), "the items' Gram matrix given: the same loss");
    const g = new Float64Array(f * f);
    const scratch = new Float64Array(4 * f);
    const initial = loss();
    let previous = initial;
    for (let it = 0; it < 5; it++) {
      gramTo(g, items, cols, f);
      alsHalfStepTo(users, m, items, g, f, reg, alpha, cg, scratch);
      gramTo(g, users, rows, f);
      alsHalfStepTo(items, mt, users, g, f, reg, alpha, cg, scratch);
      const current = loss();
      t.ok(current <= previous * (1 + 1e-6), `iteration ${it}: ${current} <= ${previous}`);
      previous = current;
    }
    t.ok(previous < initial * 0.9, `loss fell from ${initial} to ${previous}`);
  });

t.test('length mismatches throw at once', async (t) => {
  const f = 3;
  const m: Csr = { rows: 2, cols: 2, indptr: Uint32Array.of(0, 1, 2), indices: Uint32Array.of(0, 1), values: Float32Array.of(1, 1) };
  const items = new Float32Array(2 * f);
  const g = new Float64Array(f * f);
  t.throws(() => gramTo(new Float64Array(f * f - 1), items, 2, f));
  t.throws(() => gramTo(g, items, 3, f));
  t.throws(() => choleskySolveTo(new Float64Array(f), g, new Float64Array(f), f, new Float64Array(f * f - 1)));
  t.throws(() => choleskySolveTo(new Float64Array(f + 1), g, new Float64Array(f), f, new Float64Array(f * f)));
  t.throws(() => alsHalfStepTo(new Float32Array(2 * f + 1), m, items, g, f, 0.1, 1, 3, new Float64Array(4 * f)));
  t.throws(() => alsHalfStepTo(new Float32Array(2 * f), m, new Float32Array(f), g, f, 0.1, 1, 3, new Float64Array(4 * f)));
  t.throws(() => alsHalfStepTo(new Float32Array(2 * f), m, items, new Float64Array(f), f, 0.1, 1, 3, new Float64Array(4 * f)));
  t.throws(() => alsHalfStepTo(new Float32Array(2 * f), m, items, g, f, 0.1, 1, 3, new Float64Array(4 * f - 1)));
  t.throws(() =>
    alsHalfStepTo(new Float32Array(2 * f), { ...m, indptr: Uint32Array.of(0, 1) }, items, g, f, 0.1, 1, 3, new Float64Array(4 * f)),
  );
  t.throws(() => alsLoss(m, new Float32Array(f), items, 2, 2, f, 0.1, 0.1, 1));
  const s = new Float64Array(2 * f * f + 2 * f);
  t.throws(() => foldInTo(new Float32Array(f - 1), Uint32Array.of(0), Float32Array.of(1), items, g, f, 0.1, 1, s));
  t.throws(() => foldInTo(new Float32Array(f), Uint32Array.of(0), Float32Array.of(1, 2), items, g, f, 0.1, 1, s));
  t.throws(() => foldInTo(new Float32Array(f), Uint32Array.of(0), Float32Array.of(1), items, g, f, 0.1, 1, new Float64Array(2 * f * f)));
  t.throws(() => foldInTo(new Float32Array(f), Uint32Array.of(5), Float32Array.of(1), items, g, f, 0.1, 1, s));
});
