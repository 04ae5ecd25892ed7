// Catalogue kernels (CSR, popularity, top-k): fast versions agree with their reference twins.
import t from 'tap';
import { mulberry32 } from '../../native-free-kernels/random.js';
import * as fastCsr from '../../native-free-kernels/csr.js';
import * as refCsr from '../../native-free-kernels/reference/csr.js';
import * as fastPop from '../../native-free-kernels/popularity.js';
import * as refPop from '../../native-free-kernels/reference/popularity.js';
import * as fastTop from '../../native-free-kernels/top-k.js';
import * as refTop from '../../native-free-kernels/reference/top-k.js';

const randInt = (rand: () => number, n: number) => Math.floor(rand() * n);
const arr = (a: ArrayLike<number>) => Array.from(a);
const close = (a: number, b: number, tol = 1e-5) =>
  (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));

t.test('csrFromTriples: hand-checked, last write wins, columns ascending', async (t) => {
  const m = fastCsr.csrFromTriples(3, 4, Uint32Array.of(2, 0, 0, 2, 0), Uint32Array.of(1, 3, 0, 1, 3), Float32Array.of(5, 1, 2, 6, 7));
  t.same(arr(m.indptr), [0, 2, 2, 3]);
  t.same(arr(m.indices), [0, 3, 1]);
  t.same(arr(m.values), [2, 7, 6]);
  const tr = fastCsr.transpose(m);
  t.equal(tr.rows, 4);
  t.equal(tr.cols, 3);
  t.same(arr(tr.indptr), [0, 1, 2, 2, 3]);
  t.same(arr(tr.indices), [0, 2, 0]);
  t.same(arr(tr.values), [2, 6, 7]);
  const empty = fastCsr.csrFromTriples(0, 0, new Uint32Array(0), new Uint32Array(0), new Float32Array(0));
  t.same(arr(empty.indptr), [0]);
  t.equal(fastCsr.transpose(empty).indices.length, 0);
});

t.test('csr: fast agrees with reference on random triples with duplicates', async (t) => {
  const rand = mulberry32(1);
  for (let trial = 0; trial < 300; trial++) {
    const rows = randInt(rand, 8);
    const cols = randInt(rand, 8);
    const m = rows === 0 || cols === 0 ? 0 : randInt(rand, 40);
    const r = new Uint32Array(m);
    const c = new Uint32Array(m);
    const v = new Float32Array(m);
    for (let e = 0; e < m; e++) {
      r[e] = randInt(rand, rows);
      c[e] = randInt(rand, cols);
      v[e] = randInt(rand, 100) - 50;
    }
    const a = fastCsr.csrFromTriples(rows, cols, r, c, v);
    const b = refCsr.csrFromTriples(rows, cols, r, c, v);
    t.same([arr(a.indptr), arr(a.indices), arr(a.values)], [arr(b.indptr), arr(b.indices), arr(b.values)], `build ${trial}`);
    const at = fastCsr.transpose(a);
    const bt = refCsr.transpose(b);
    t.same(
      [at.rows, at.cols, arr(at.indptr), arr(at.indices), arr(at.values)],
      [bt.rows, bt.cols, arr(bt.indptr), arr(bt.indices), arr(bt.values)],
      `transpose ${trial}`,
    );
    const back = fastCsr.transpose(at);
    t.same(
      [arr(back.indptr), arr(back.indices), arr(back.values)],
      [arr(a.indptr), arr(a.indices), arr(a.values)],
      `transpose twice ${trial}`,
    );
  }
});

t.test('csr: bad input throws', async (t) => {
  for (const k of [fastCsr, refCsr]) {
    t.throws(() => k.csrFromTriples(2, 2, Uint32Array.of(0), Uint32Array.of(0, 1), Float32Array.of(1)));
    t.throws(() => k.csrFromTriples(2, 2, Uint32Array.of(2), Uint32Array.of(0), Float32Array.of(1)));
    t.throws(() => k.csrFromTriples(2, 2, Uint32Array.of(0), Uint32Array.of(2), Float32Array.of(1)));
    t.throws(() =>
      k.transpose({ rows: 2, cols: 2, indptr: Uint32Array.of(0, 0), indices: new Uint32Array(0), values: new Float32Array(0) }),
    );
  }
});

t.test('popularityTo: hand-checked', async (t) => {
  const dst = Float32Array.of(9, 9, 9);
  fastPop.popularityTo(dst, Uint32Array.of(0, 0, 2, 2), Float64Array.of(100, 90, 80, 120), Float32Array.of(1, 2, 4, 3), 100, 10);
  t.same(arr(dst), [1 + 2 * 0.5, 0, 4 * 0.25 + 3], 'one half-life halves; future events count fully; untouched items zeroed');
});

t.test('popularityTo: fast agrees with reference', async (t) => {
  const rand = mulberry32(2);
  for (let trial = 0; trial < 200; trial++) {
    const n = 1 + randInt(rand, 20);
    const m = randInt(rand, 60);
    const items = new Uint32Array(m);
    const ts = new Float64Array(m);
    const w = new Float32Array(m);
    const now = 1.7e9;
    for (let e = 0; e < m; e++) {
      items[e] = randInt(rand, n);
      ts[e] = now - rand() * 1e6 + 1e4;
      w[e] = rand() * 5;
    }
    const half = 1 + rand() * 1e5;
    const a = new Float32Array(n);
    const b = new Float32Array(n);
    fastPop.popularityTo(a, items, ts, w, now, half);
    refPop.popularityTo(b, items, ts, w, now, half);
    t.ok(
      arr(a).every((x, i) => close(x, b[i]!)),
      `trial ${trial}`,
    );
  }
});

t.test('popularityTo: bad input throws', async (t) => {
  for (const k of [fastPop, refPop]) {
    t.throws(() => k.popularityTo(new Float32Array(2), Uint32Array.of(0), new Float64Array(2), Float32Array.of(1), 0, 1));
    t.throws(() => k.popularityTo(new Float32Array(2), Uint32Array.of(0), new Float64Array(1), new Float32Array(0), 0, 1));
    t.throws(() => k.popularityTo(new Float32Array(2), Uint32Array.of(2), new Float64Array(1), Float32Array.of(1), 0, 1));
    t.throws(() => k.popularityTo(new Float32Array(2), Uint32Array.of(0), new Float64Array(1), Float32Array.of(1), 0, 0));
  }
});

t.test('topKTo: hand-checked ties, NaN, mask', async (t) => {
  const scores = Float32Array.of(1, 3, NaN, 3, 2, 5, 3);
  const idx = new Uint32Array(4);
  const sc = new Float32Array(4);
  t.equal(fastTop.topKTo(idx, sc, scores, 7, 4), 4);
  t.same(arr(idx), [5, 1, 3, 6]);
  t.same(arr(sc), [5, 3, 3, 3]);
  t.equal(fastTop.topKTo(idx, sc, scores, 7, 4, Uint8Array.of(1, 0, 1, 1, 1, 0, 0)), 3);
  t.same(arr(idx).slice(0, 3), [3, 4, 0]);
  t.equal(fastTop.topKTo(idx, sc, scores, 3, 4), 2, 'n bounds the scan');
  t.same(arr(idx).slice(0, 2), [1, 0]);
  t.equal(fastTop.topKTo(idx, sc, scores, 7, 0), 0);
});

t.test('topKTo: fast agrees with reference', async (t) => {
  const rand = mulberry32(3);
  for (let trial = 0; trial < 1000; trial++) {
    const len = randInt(rand, 50);
    const n = randInt(rand, len + 1);
    const k = randInt(rand, 12);
    const levels = 1 + randInt(rand, 6); // few distinct values force ties
    const scores = new Float32Array(len);
    for (let i = 0; i < len; i++) {
      const u = rand();
      scores[i] = u < 0.1 ? NaN : u < 0.13 ? -Infinity : u < 0.16 ? Infinity : randInt(rand, levels) - 2 + (trial % 3 === 0 ? rand() : 0);
    }
    const mask = rand() < 0.5 ? undefined : Uint8Array.from({ length: len }, () => (rand() < 0.6 ? 1 : rand() < 0.5 ? 0 : 2));
    const ai = new Uint32Array(k + 2);
    const as = new Float32Array(k + 2);
    const bi = new Uint32Array(k + 2);
    const bs = new Float32Array(k + 2);
    const ca = fastTop.topKTo(ai, as, scores, n, k, mask);
    const cb = refTop.topKTo(bi, bs, scores, n, k, mask);
    t.equal(ca, cb, `count ${trial}`);
    t.same([arr(ai.subarray(0, ca)), arr(as.subarray(0, ca))], [arr(bi.subarray(0, cb)), arr(bs.subarray(0, cb))], `trial ${trial}`);
  }
});

t.test('topKTo: bad input throws', async (t) => {
  for (const k of [fastTop, refTop]) {
    t.throws(() => k.topKTo(new Uint32Array(2), new Float32Array(2), new Float32Array(3), 4, 2));
    t.throws(() => k.topKTo(new Uint32Array(1), new Float32Array(2), new Float32Array(3), 3, 2));
    t.throws(() => k.topKTo(new Uint32Array(2), new Float32Array(1), new Float32Array(3), 3, 2));
    t.throws(() => k.topKTo(new Uint32Array(2), new Float32Array(2), new Float32Array(3), 3, 2, new Uint8Array(2)));
  }
});
