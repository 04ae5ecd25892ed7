// The search's validation kernels: held-out ranking metrics agree with their reference twin and with
// hand-computed values; the seeded split keeps every entry exactly once and respects its limits.
import t from 'tap';
import { randomMatrix } from '../helpers/random-matrix.js';
import { confidenceValuesTo } from '../../native-free-kernels/als.js';
import { csrFromTriples } from '../../native-free-kernels/csr.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import {
  likedFrom,
  shareAtMost,
  valueShares,
  quantiles,
  rankingMetricsTo,
  splitForValidation,
  validationScratch,
  type HeldOut,
} from '../../native-free-kernels/validation.js';
import { rankingMetricsTo as refRankingMetricsTo } from '../../native-free-kernels/reference/validation.js';

t.test('rankingMetricsTo matches its reference on random models', async (t) => {
  for (let trial = 0; trial < 5; trial++) {
    const rows = 40,
      cols = 60,
      f = 4;
    const train = randomMatrix(trial, rows, cols, 0.15);
    const rand = mulberry32(100 + trial);
    const users: number[] = [],
      indptr = [0],
      indices: number[] = [];
    for (let u = 0; u < rows; u += 2) {
      users.push(u);
      for (let i = 0; i < cols; i++) if (rand() < 0.05) indices.push(i);
      indptr.push(indices.length);
    }
    const held: HeldOut = { users: Uint32Array.from(users), indptr: Uint32Array.from(indptr), indices: Uint32Array.from(indices) };
    const U = Float32Array.from({ length: rows * f }, () => rand() - 0.5);
    const V = Float32Array.from({ length: cols * f }, () => rand() - 0.5);
    const score = (u: number, dst: Float32Array) => {
      for (let i = 0; i < cols; i++) {
        let s = 0;
        for (let a = 0; a < f; a++) s += U[u * f + a]! * V[i * f + a]!;
        dst[i] = s;
      }
    };
    for (const k of [1, 5, 10]) {
      const fast = new Float64Array(3),
        slow = new Float64Array(3);
      rankingMetricsTo(fast, train, held, score, k, 0, users.length, validationScratch(cols));
      refRankingMetricsTo(slow, train, held, score, k, 0, users.length);
      t.ok(
        Math.abs(fast[0]! - slow[0]!) < 1e-9 && Math.abs(fast[1]! - slow[1]!) < 1e-9 && fast[2] === slow[2],
        `trial ${trial} k=${k}: ${[...fast]} vs ${[...slow]}`,
      );
      // Two halves add up to the whole.
      const parts = new Float64Array(3);
      rankingMetricsTo(parts, train, held, score, k, 0, 7, validationScratch(cols));
      rankingMetricsTo(parts, train, held, score, k, 7, users.length, validationScratch(cols));
      t.ok(Math.abs(parts[0]! - fast[0]!) < 1e-9 && parts[2] === fast[2], 'ranges sum');
    }
  }
});

t.test('rankingMetricsTo: a hand-computed user', async (t) => {
  // 6 items; the user rated item 0 in training; scores rank 0 > 5 > 4 > 3 > 2 > 1; relevant: 4 and 1.
  const train = csrFromTriples(1, 6, Uint32Array.of(0), Uint32Array.of(0), Float32Array.of(5));
  const held: HeldOut = { users: Uint32Array.of(0), indptr: Uint32Array.of(0, 2), indices: Uint32Array.of(4, 1) };
  const scores = Float32Array.of(10, 1, 2, 3, 4, 5);
  const sums = new Float64Array(3);
  rankingMetricsTo(sums, train, held, (_u, dst) => dst.set(scores), 3, 0, 1, validationScratch(6));
  // Top 3 without item 0: 5, 4, 3 → one hit at rank 2: DCG 1/log2(3), ideal 1 + 1/log2(3).
  const ndcg = 1 / Math.log2(3) / (1 + 1 / Math.log2(3));
  t.ok(Math.abs(sums[0]! - ndcg) < 1e-12, `ndcg ${sums[0]}`);
  t.equal(sums[1], 0.5, 'recall: one of two');
  t.equal(sums[2], 1);
  const none = new Float64Array(3);
  rankingMetricsTo(
    none,
    train,
    { users: Uint32Array.of(0), indptr: Uint32Array.of(0, 0), indices: new Uint32Array(0) },
    (_u, dst) => dst.set(scores),
    3,
    0,
    1,
    validationScratch(6),
  );
  t.same([...none], [0, 0, 0], 'a user without relevant items is not counted');
  t.throws(() => rankingMetricsTo(sums, train, held, () => {}, 3, 0, 2, validationScratch(6)), /outside/);
});

t.test('splitForValidation: every entry once, held-out shares, relevance, limits, seeded', async (t) => {
  const m = randomMatrix(7, 300, 80, 0.1);
  const s = splitForValidation(m, 0.2, Infinity, 50, mulberry32(1));
  const sorted = [...m.values].sort((a, b) => a - b);
  const share = (v: number) => sorted.filter((x) => x >= v).length / sorted.length;
  const distinct = [...new Set(sorted)];
  t.ok(distinct.includes(s.threshold), 'threshold: a value present');
  for (const v of distinct)
    t.ok(Math.abs(share(s.threshold) - 0.5) <= Math.abs(share(v) - 0.5), `no value splits nearer half than ${s.threshold} (${v})`);
  t.same(quantiles(m.values, [0, 1]), [sorted[0], sorted[sorted.length - 1]], 'quantiles 0 and 1: the smallest and the largest value');
  const heldUsers = new Set(s.held.users);
  t.equal(heldUsers.size, 50, 'maxUsers validation users');
  let held = 0;
  for (let u = 0; u < m.rows; u++) {
    const all = m.indices.subarray(m.indptr[u]!, m.indptr[u + 1]!);
    const kept = new Set(s.train.indices.subarray(s.train.indptr[u]!, s.train.indptr[u + 1]!));
    for (const i of kept) t.ok(all.includes(i), 'a kept entry is an entry');
    const out = all.length - kept.size;
    held += out;
    if (heldUsers.has(u)) {
      t.ok(all.length >= 3, 'validation users have at least 3 entries');
      t.equal(out, Math.max(1, Math.round(0.2 * all.length)), `user ${u} holds out a fifth`);
      const v = s.held.users.indexOf(u);
      for (let e = s.held.indptr[v]!; e < s.held.indptr[v + 1]!; e++) {
        const i = s.held.indices[e]!;
        t.notOk(kept.has(i), 'relevant items are held out');
        const value = m.values[m.indptr[u]! + all.indexOf(i)]!;
        t.ok(value >= s.threshold, 'relevant items are valued at least the threshold');
      }
    } else t.equal(out, 0, `user ${u} keeps everything`);
  }
  t.equal(s.train.indices.length + held, m.indices.length, 'nothing lost, nothing added');
  const again = splitForValidation(m, 0.2, Infinity, 50, mulberry32(1));
  t.same([...again.held.users], [...s.held.users], 'same seed, same split');
  t.same([...again.train.indices], [...s.train.indices]);
  const other = splitForValidation(m, 0.2, Infinity, 50, mulberry32(2));
  t.not([...other.held.users].join(), [...s.held.users].join(), 'another seed, another split');
  const sampled = splitForValidation(m, 0.2, 500, 1000, mulberry32(1));
  const kept = sampled.train.indices.length;
  t.ok(kept <= 500 && kept > 300, `a sample of at most 500 ratings trains (${kept})`);
});

t.test('confidenceValuesTo shifts, clips and floors', async (t) => {
  const dst = new Float32Array(5);
  confidenceValuesTo(dst, Float32Array.of(1, 3, 4, 5, 10), 4, 0.5);
  t.same([...dst], [0.5, 0.5, 0.5, 1.5, 6.5]);
  confidenceValuesTo(dst, Float32Array.of(1, 3, 4, 5, 10), 0, 0);
  t.same([...dst], [1, 3, 4, 5, 10], 'shift 0, floor 0: the values');
  t.throws(() => confidenceValuesTo(new Float32Array(2), new Float32Array(3), 0, 0));
});

t.test('likedFrom: the value splitting the ratings nearest half', async (t) => {
  const of = (counts: Record<number, number>) =>
    Float32Array.from(Object.entries(counts).flatMap(([v, c]) => Array<number>(c).fill(Number(v))));
  // ml-latest-small's shares of half stars (rounded): ≥ 3.5 holds 61 %, ≥ 4 holds 48 %.
  t.equal(likedFrom(of({ 1: 5, 2: 8, 2.5: 5, 3: 20, 3.5: 13, 4: 27, 4.5: 8, 5: 13 })), 4);
  // ml-100k's stars: ≥ 4 holds 55 %, ≥ 5 holds 21 %.
  t.equal(likedFrom(of({ 1: 6, 2: 11, 3: 28, 4: 34, 5: 21 })), 4);
  t.equal(likedFrom(of({ 1: 10 })), 1, 'implicit data: every rating is liked');
  t.equal(likedFrom(of({ 1: 5, 2: 5 })), 2, 'a tie goes to the higher value');
  t.equal(likedFrom(new Float32Array(0)), 0);
});

t.test('valueShares: each distinct value with the share of values at most it; shareAtMost looks one up', async (t) => {
  const s = valueShares(Float32Array.of(4, 2, 4, 5, 2, 4));
  t.same([...s.values], [2, 4, 5]);
  t.same(
    [...s.shares].map((x) => +x.toFixed(4)),
    [0.3333, 0.8333, 1],
  );
  const one = valueShares(new Float32Array(6).fill(1));
  t.same([...one.values, ...one.shares], [1, 1], 'implicit data: one value, share 1');
  t.same(
    [1, 2, 3, 4, 4.5, 5, 9].map((v) => +shareAtMost(s, v).toFixed(4)),
    [0, 0.3333, 0.3333, 0.8333, 0.8333, 1, 1],
  );
});
