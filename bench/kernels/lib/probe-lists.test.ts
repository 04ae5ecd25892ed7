// Item lists through the item index with a chosen number of candidates (bench/kernels/lib/
// probe-lists.ts, a bench's kernel): exact (recall 1.0) when the probe takes every list, ties kept in item order as the exact ranking,
// more candidates never find fewer of the exact neighbours, the same whatever the split of rows.
import t from 'tap';
import { listRecall } from '../../../test/harness/list-recall.js';
import { assignTo, listsFromAssignmentTo, sphericalKMeansTo } from '../../../native-free-kernels/ivf.js';
import { itemListsTo, listsScratchLength } from '../../../native-free-kernels/lists.js';
import { probeItemListsTo } from './probe-lists.js';
import { mulberry32 } from '../../../native-free-kernels/random.js';
import { rowNormsTo } from '../../../native-free-kernels/rows.js';

const EMPTY = 0xffffffff;
const items = 500,
  f = 6,
  n = 16,
  lists = 10;

// Rows around 10 directions; every 50th row a copy of row 1 (equal scores to break), a few of norm 0.
function setup(seed: number) {
  const rand = mulberry32(seed);
  const centres = Array.from({ length: lists }, () => Array.from({ length: f }, () => rand() - 0.5));
  const factors = new Float32Array(items * f);
  for (let r = 0; r < items; r++) {
    if (r % 83 === 7) continue;
    for (let a = 0; a < f; a++) factors[r * f + a] = centres[r % lists]![a]! + 0.4 * (rand() - 0.5);
  }
  for (let r = 51; r < items; r += 50) factors.copyWithin(r * f, f, 2 * f);
  const norms = new Float32Array(items);
  rowNormsTo(norms, factors, items, f);
  const sample = Uint32Array.from({ length: items }, (_, r) => r).filter((r) => norms[r]! > 0);
  const centroids = new Float32Array(lists * f);
  sphericalKMeansTo(
    centroids,
    lists,
    factors,
    norms,
    items,
    f,
    sample,
    5,
    new Float64Array(lists * f),
    new Uint32Array(lists),
    new Uint32Array(sample.length),
  );
  const assign = new Uint32Array(items),
    offsets = new Uint32Array(lists + 1),
    members = new Uint32Array(items);
  assignTo(assign, factors, norms, items, f, centroids, lists);
  listsFromAssignmentTo(offsets, members, assign, items, lists);
  const exact = new Uint32Array(items * n);
  itemListsTo(exact, n, factors, norms, items, f, 0, items, new Float32Array(listsScratchLength(items, f, n)));
  const probe = (minCandidates: number, splits: [number, number][] = [[0, items]]) => {
    const out = new Uint32Array(items * n);
    for (const [from, to] of splits)
      probeItemListsTo(out, n, factors, norms, items, f, centroids, lists, offsets, members, minCandidates, from, to);
    return out;
  };
  return { norms, exact, probe };
}

const recall = (got: Uint32Array, exact: Uint32Array, norms: Float32Array) => listRecall(got, exact, norms, items, n);

t.test('probing every list gives the exact lists, ties in item order', async (t) => {
  const { exact, probe } = setup(1);
  t.same([...probe(items)], [...exact]);
  // Row 1's copies score alike against any row: the lowest come first, as in the exact ranking.
  const copies = [...exact.subarray(1 * n, 2 * n)].filter((i) => i % 50 === 1);
  t.same(
    copies,
    [...copies].sort((a, b) => a - b),
  );
  t.ok(copies.length >= 3, `row 1 lists its copies ${copies.join(',')}`);
});

t.test('more candidates find no fewer exact neighbours; rows split among calls agree', async (t) => {
  const { norms, exact, probe } = setup(2);
  let last = -1;
  for (const m of [0, 60, 150, 300, items]) {
    const r = recall(probe(m), exact, norms);
    t.ok(r >= last, `min candidates ${m}: recall ${r.toFixed(3)}`);
    last = r;
  }
  t.equal(last, 1);
  t.same(
    [
      ...probe(100, [
        [300, 500],
        [0, 17],
        [17, 300],
      ]),
    ],
    [...probe(100)],
  );
  const zero = probe(100);
  t.ok(
    zero.subarray(7 * n, 8 * n).every((i) => i === EMPTY),
    'a row of norm 0 gets an empty list',
  );
  t.ok(
    [...zero].every((i) => i === EMPTY || norms[i]! > 0),
    'rows of norm 0 are never listed',
  );
});

t.test('probeItemListsTo checks its arguments', async (t) => {
  const z = new Float32Array(items * f),
    nz = new Float32Array(items);
  t.throws(
    () =>
      probeItemListsTo(
        new Uint32Array(3),
        n,
        z,
        nz,
        items,
        f,
        new Float32Array(lists * f),
        lists,
        new Uint32Array(lists + 1),
        new Uint32Array(items),
        10,
        0,
        items,
      ),
    /dst/,
  );
  t.throws(
    () =>
      probeItemListsTo(
        new Uint32Array(items * n),
        n,
        z,
        nz,
        items,
        f,
        new Float32Array(lists * f),
        lists,
        new Uint32Array(lists),
        new Uint32Array(items),
        10,
        0,
        items,
      ),
    /index/,
  );
  t.throws(
    () =>
      probeItemListsTo(
        new Uint32Array(items * n),
        n,
        z,
        nz,
        items,
        f,
        new Float32Array(lists * f),
        lists,
        new Uint32Array(lists + 1),
        new Uint32Array(items),
        10,
        0,
        items + 1,
      ),
    /row range/,
  );
});
