// The item index (native-free-kernels/ivf.ts) against its reference twin, and similar-items rankings
// through it: exact when every list is probed, deeper rankings only append, planted neighbours found.
import t from 'tap';
import {
  assignTo,
  gatherPositions,
  listScoresTo,
  listsFromAssignmentTo,
  NO_LIST,
  sphericalKMeansTo,
} from '../../native-free-kernels/ivf.js';
import * as ref from '../../native-free-kernels/reference/ivf.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { allocateModel } from '../../src/engine/model/layout.js';
import { MIN_CANDIDATES, rowNorms, scorable, similarItems, type Scorable } from '../../src/engine/scoring/rankings.js';

// Rows around `clusters` well-separated random directions (so no near-ties between centroids), a few of norm 0.
function planted(seed: number, n: number, f: number, clusters: number, zeroRows = 0): Float32Array {
  const rand = mulberry32(seed);
  const centres = Float32Array.from({ length: clusters * f }, () => rand() * 2 - 1);
  const out = new Float32Array(n * f);
  for (let r = 0; r < n; r++) {
    const c = r % clusters;
    const scale = 0.5 + rand();
    for (let a = 0; a < f; a++) out[r * f + a] = scale * (centres[c * f + a]! + (rand() - 0.5) * 0.05);
  }
  for (let z = 0; z < zeroRows; z++) out.fill(0, ((z * 7919) % n) * f, (((z * 7919) % n) + 1) * f);
  return out;
}

function close(a: Float32Array, b: Float32Array, eps: number): boolean {
  return a.length === b.length && a.every((x, k) => Math.abs(x - b[k]!) <= eps);
}

t.test('assignTo, sphericalKMeansTo and listsFromAssignmentTo agree with the twin', async (t) => {
  for (const [seed, n, f, lists] of [
    [1, 300, 8, 5],
    [2, 1000, 16, 12],
    [3, 97, 5, 4],
    [4, 64, 3, 1],
  ] as const) {
    const label = `n=${n} f=${f} lists=${lists}`;
    const factors = planted(seed, n, f, lists, 3);
    const norms = rowNorms(factors, n, f);
    const rated = Array.from({ length: n }, (_, r) => r).filter((r) => norms[r]! > 0);
    const sample = Uint32Array.from(rated.slice(0, Math.max(lists, 60)));
    const fast = new Float32Array(lists * f),
      slow = new Float32Array(lists * f);
    sphericalKMeansTo(
      fast,
      lists,
      factors,
      norms,
      n,
      f,
      sample,
      5,
      new Float64Array(lists * f),
      new Uint32Array(lists),
      new Uint32Array(sample.length),
    );
    ref.sphericalKMeansTo(slow, lists, factors, norms, n, f, sample, 5);
    t.ok(close(fast, slow, 1e-5), `${label}: same centroids`);
    for (let c = 0; c < lists; c++) {
      const len = Math.hypot(...fast.subarray(c * f, (c + 1) * f));
      t.ok(Math.abs(len - 1) < 1e-5, `${label}: centroid ${c} is a unit vector`);
    }

    const a = new Uint32Array(n),
      b = new Uint32Array(n);
    // In row ranges, as pool workers call it.
    for (const [s, e] of [
      [0, Math.floor(n / 3)],
      [Math.floor(n / 3), n],
    ])
      assignTo(a, factors, norms, n, f, fast, lists, s, e);
    ref.assignTo(b, factors, norms, n, f, fast, lists);
    t.same(a, b, `${label}: same assignment`);
    t.equal(a[0], NO_LIST, `${label}: a row of norm 0 is in no list`);

    const offA = new Uint32Array(lists + 1),
      memA = new Uint32Array(n),
      offB = new Uint32Array(lists + 1),
      memB = new Uint32Array(n);
    const listedA = listsFromAssignmentTo(offA, memA, a, n, lists);
    const listedB = ref.listsFromAssignmentTo(offB, memB, a, n, lists);
    t.equal(listedA, listedB, `${label}: same count listed`);
    t.equal(listedA, rated.length, `${label}: every row with factors listed once`);
    t.same(offA, offB, `${label}: same offsets`);
    t.same(memA, memB, `${label}: same members`);

    for (const q of [1, 5, n - 1]) {
      const scores = new Float64Array(lists),
        want = new Float64Array(lists);
      listScoresTo(scores, factors, f, fast, lists, q);
      ref.listScoresTo(want, factors, f, fast, lists, q);
      t.ok(
        scores.every((x, c) => Math.abs(x - want[c]!) < 1e-9),
        `${label}: same list scores for row ${q}`,
      );
      for (const mins of [[1, Infinity], [n / 4, n / 4, Infinity], [30], [Infinity]]) {
        const takenA = new Uint8Array(lists),
          takenB = new Uint8Array(lists);
        for (const min of mins)
          t.same(
            gatherPositions(scores, takenA, lists, offA, min),
            ref.gatherPositions(scores, takenB, lists, offA, min),
            `${label}: same positions gathered, min ${min} of ${mins}`,
          );
        t.same(takenA, takenB, `${label}: same lists taken`);
      }
    }
  }
});

t.test('bad arguments throw', async (t) => {
  const f = 2,
    n = 3,
    factors = new Float32Array(n * f).fill(1),
    norms = rowNorms(factors, n, f);
  t.throws(() => assignTo(new Uint32Array(n), factors, norms, n, f, new Float32Array(3), 2), /centroids/);
  t.throws(() => assignTo(new Uint32Array(n), factors, norms, n, f, new Float32Array(4), 2, 2, 1), /range/);
  t.throws(
    () =>
      sphericalKMeansTo(
        new Float32Array(4),
        2,
        factors,
        norms,
        n,
        f,
        Uint32Array.of(0),
        1,
        new Float64Array(4),
        new Uint32Array(2),
        new Uint32Array(1),
      ),
    /sample/,
  );
  t.throws(
    () =>
      sphericalKMeansTo(
        new Float32Array(4),
        2,
        factors,
        norms,
        n,
        f,
        Uint32Array.of(0, 7),
        1,
        new Float64Array(4),
        new Uint32Array(2),
        new Uint32Array(2),
      ),
    /outside/,
  );
  t.throws(() => listsFromAssignmentTo(new Uint32Array(3), new Uint32Array(n), Uint32Array.of(0, 5, 1), n, 2), /list 5/);
});

// A model whose item index is built the way training builds it (k-means on every row here).
function indexed(n: number, f: number, lists: number, seed: number): { m: Scorable; exact: Scorable } {
  const factors = planted(seed, n, f, lists * 2, 5);
  const make = (l: number) => {
    const { views } = allocateModel({ factors: f, users: 0, items: n, itemList: 0, userList: 0, trainedItems: n, lists: l });
    views.itemFactors.set(factors);
    return views;
  };
  const m = make(lists),
    exact = make(0);
  const norms = rowNorms(factors, n, f);
  const sample = Uint32Array.from(
    Array.from({ length: n }, (_, r) => r)
      .filter((r) => norms[r]! > 0)
      .slice(0, lists * 40),
  );
  sphericalKMeansTo(
    m.listCentroids,
    lists,
    factors,
    norms,
    n,
    f,
    sample,
    6,
    new Float64Array(lists * f),
    new Uint32Array(lists),
    new Uint32Array(sample.length),
  );
  const assign = new Uint32Array(n);
  assignTo(assign, factors, norms, n, f, m.listCentroids, lists);
  listsFromAssignmentTo(m.listOffsets, m.listMembers, assign, n, lists);
  return { m: scorable(m), exact: scorable(exact) };
}

t.test('similar items through the index: exact when every list fits the first probe', async (t) => {
  const { m, exact } = indexed(2000, 6, 8, 11); // 2,000 items < MIN_CANDIDATES: every list is probed
  for (const q of [3, 500, 1999]) {
    const a = similarItems(m, q, 50),
      b = similarItems(exact, q, 50);
    t.same(a.items, b.items, `item ${q}: same ranking as the full scan`);
    t.notOk(a.items.includes(q), `item ${q}: never itself`);
  }
  const all = similarItems(m, 7, 5000);
  t.ok(all.complete, 'a ranking deeper than the catalogue is complete');
  t.equal(all.items.length, 2000 - 5 - 1, 'every item with factors but the query, once');
  t.equal(new Set(all.items).size, all.items.length, 'no item twice');
  t.same(similarItems(m, 0, 10).items, new Uint32Array(0), 'an item without factors has no similar items');
});

t.test('similar items through the index: deeper rankings append, planted neighbours found', async (t) => {
  const n = MIN_CANDIDATES * 3;
  const { m, exact } = indexed(n, 8, 24, 12);
  const q = 1234;
  const shallow = similarItems(m, q, 64);
  t.notOk(shallow.complete, 'a shallow ranking probes some lists only');
  const deep = similarItems(m, q, MIN_CANDIDATES * 2);
  t.same(deep.items.subarray(0, 64), shallow.items, 'the deeper ranking starts with the shallow one');
  t.equal(new Set(deep.items).size, deep.items.length, 'no item twice in the deeper ranking');
  const everything = similarItems(m, q, n);
  t.ok(everything.complete, 'ranking every item completes it');
  t.same(everything.items.subarray(0, deep.items.length), deep.items, 'and appends to the deeper one');
  t.equal(everything.items.length, n - 5 - 1, 'every listed item once');
  // Rows of one planted cluster are each other's nearest: the probe must find the exact top 10.
  let same = 0;
  for (let r = 100; r < 140; r++) {
    const a = similarItems(m, r, 10).items,
      b = similarItems(exact, r, 10).items;
    same += [...a].filter((i) => b.includes(i)).length;
  }
  t.ok(same / 400 >= 0.95, `recall@10 against the full scan ${same / 400}`);
});
