// A round of neighbours of neighbours over item lists (native-free-kernels/refine-lists.ts): exact
// lists stay as they are, lists that missed neighbours find many of them, every list stays ordered by
// cosine similarity without the item itself, repeats or rows of norm 0, and the result does not
// depend on how rows are split among calls or on which kernel (TypeScript, WebAssembly SIMD) scores.
import t from 'tap';
import { listRecall } from '../harness/list-recall.js';
import { dotAt } from '../../native-free-kernels/dot.js';
import { itemListsTo, listsScratchLength } from '../../native-free-kernels/lists.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import {
  listHeadsTo,
  refineItemListsTo,
  refineScratchLength,
  reverseHeadsTo,
  staleRowsTo,
} from '../../native-free-kernels/refine-lists.js';
import { rowNormsTo } from '../../native-free-kernels/rows.js';
import { scoreRows, type ScoreRows } from '../../native-free-kernels/score-rows.js';

const EMPTY = 0xffffffff;
const items = 600,
  f = 8,
  n = 20,
  fanout = 6;

// Rows around 12 directions (so neighbours cluster), a few of norm 0.
function rows(rand: () => number): Float32Array {
  const centres = Array.from({ length: 12 }, () => Array.from({ length: f }, () => rand() - 0.5));
  const out = new Float32Array(items * f);
  for (let r = 0; r < items; r++) {
    if (r % 97 === 5) continue;
    const c = centres[r % 12]!;
    for (let a = 0; a < f; a++) out[r * f + a] = c[a]! + 0.3 * (rand() - 0.5);
  }
  return out;
}

function setup(seed: number) {
  const rand = mulberry32(seed);
  const factors = rows(rand);
  const norms = new Float32Array(items);
  rowNormsTo(norms, factors, items, f);
  const exact = new Uint32Array(items * n);
  itemListsTo(exact, n, factors, norms, items, f, 0, items, new Float32Array(listsScratchLength(items, f, n)));
  return { rand, factors, norms, exact };
}

// cosines: the SIMD kernel's (score-rows.ts rowCosinesTo) instead of the kernel's own.
function refine(
  lists: Uint32Array,
  factors: Float32Array,
  norms: Float32Array,
  splits: [number, number][],
  cosines?: ScoreRows,
): Uint32Array {
  const out = lists.slice();
  const heads = new Uint32Array(items * fanout);
  listHeadsTo(heads, out, n, items, fanout);
  for (const [from, to] of splits) {
    const scratch = new Int32Array(refineScratchLength(items, n, fanout)).fill(-1, 0, items);
    refineItemListsTo(
      out,
      heads,
      n,
      factors,
      norms,
      items,
      f,
      fanout,
      from,
      to,
      scratch,
      undefined,
      undefined,
      cosines && ((dst, row, list) => cosines.rowCosinesTo(dst, row, list)),
    );
  }
  return out;
}

const recall = (got: Uint32Array, exact: Uint32Array, norms: Float32Array) => listRecall(got, exact, norms, items, n);

t.test('exact lists stay as they are', async (t) => {
  const { factors, norms, exact } = setup(1);
  t.same([...refine(exact, factors, norms, [[0, items]])], [...exact]);
});

t.test('lists that missed neighbours find them, and stay well formed', async (t) => {
  const { rand, factors, norms, exact } = setup(2);
  // Each list keeps only a random half of its exact items (in order), the rest of its slots empty.
  const poor = new Uint32Array(items * n).fill(EMPTY);
  for (let r = 0; r < items; r++) {
    const kept = [...exact.subarray(r * n, r * n + n)].filter((i) => i !== EMPTY && rand() < 0.5);
    poor.set(kept, r * n);
  }
  const got = refine(poor, factors, norms, [[0, items]]);
  const before = recall(poor, exact, norms),
    after = recall(got, exact, norms);
  t.ok(after > before + 0.2, `recall ${before.toFixed(3)} → ${after.toFixed(3)}`);
  let ok = true;
  for (let r = 0; r < items && ok; r++) {
    const list = [...got.subarray(r * n, r * n + n)];
    const len = list.indexOf(EMPTY) < 0 ? n : list.indexOf(EMPTY);
    const listed = list.slice(0, len);
    if (norms[r] === 0) {
      ok = list.every((i, k) => i === poor[r * n + k]);
      continue;
    }
    const cos = (i: number) => dotAt(factors, r * f, factors, i * f, f) / (norms[r]! * norms[i]!);
    ok =
      !listed.includes(r)
      && new Set(listed).size === len
      && listed.every((i) => norms[i]! > 0)
      && list.slice(len).every((i) => i === EMPTY);
    for (let k = 1; k < len && ok; k++) ok = cos(listed[k - 1]!) >= cos(listed[k]!) - 1e-6;
    if (!ok) t.fail(`row ${r}: ${list.join(',')}`);
  }
  t.ok(ok, 'every list ordered, without itself, repeats or rows of norm 0; rows of norm 0 untouched');
  t.same(
    [
      ...refine(poor, factors, norms, [
        [300, 600],
        [0, 123],
        [123, 300],
      ]),
    ],
    [...got],
    'the same whatever the split of rows',
  );
  const simd = scoreRows(factors, items, f, new Uint32Array(0));
  t.ok(simd.shared instanceof WebAssembly.Memory, 'the SIMD kernels run here');
  t.same([...refine(poor, factors, norms, [[0, items]], simd)], [...got], "the same lists with the SIMD kernel's cosines");
});

t.test('reverse neighbours: who lists an item among their first, and what they add', async (t) => {
  const E = EMPTY;
  const heads = Uint32Array.of(1, 2, /* 1: */ 2, E, /* 2: */ 0, 1, /* 3: */ 2, 0);
  const reverse = new Uint32Array(8);
  reverseHeadsTo(reverse, heads, 4, 2);
  t.same([...reverse], [2, 3, 0, 2, 0, 1, E, E], 'item 2 is listed by 0, 1 and 3: the lowest two kept');
  const { rand, factors, norms, exact } = setup(4);
  const poor = new Uint32Array(items * n).fill(EMPTY);
  for (let r = 0; r < items; r++)
    poor.set(
      [...exact.subarray(r * n, r * n + n)].filter((i) => i !== EMPTY && rand() < 0.3),
      r * n,
    );
  const h = new Uint32Array(items * fanout),
    rev = new Uint32Array(items * fanout);
  listHeadsTo(h, poor, n, items, fanout);
  reverseHeadsTo(rev, h, items, fanout);
  const both = poor.slice();
  refineItemListsTo(
    both,
    h,
    n,
    factors,
    norms,
    items,
    f,
    fanout,
    0,
    items,
    new Int32Array(refineScratchLength(items, n, fanout)).fill(-1, 0, items),
    rev,
  );
  const forward = refine(poor, factors, norms, [[0, items]]);
  t.ok(
    recall(both, exact, norms) > recall(forward, exact, norms),
    `recall with reverse ${recall(both, exact, norms).toFixed(3)}, forward only ${recall(forward, exact, norms).toFixed(3)}`,
  );
});

t.test('a round says how many lists changed; equal scores keep the lower item, as the exact ranking', async (t) => {
  const { factors, norms, exact } = setup(5);
  const out = exact.slice(),
    heads = new Uint32Array(items * fanout);
  listHeadsTo(heads, out, n, items, fanout);
  t.equal(
    refineItemListsTo(
      out,
      heads,
      n,
      factors,
      norms,
      items,
      f,
      fanout,
      0,
      items,
      new Int32Array(refineScratchLength(items, n, fanout)).fill(-1, 0, items),
    ),
    0,
    'exact lists: none changed',
  );
  // Rows 0..29 all equal: row 0's exact list is rows 1..20; a list holding the higher copies 10..29
  // finds the lower ones its neighbours' heads hold (rows 0..5), and ranks them first.
  const same = factors.slice();
  for (let r = 1; r < 30; r++) same.copyWithin(r * f, 0, f);
  const sameNorms = new Float32Array(items);
  for (let r = 0; r < items; r++) sameNorms[r] = Math.hypot(...same.subarray(r * f, (r + 1) * f));
  const lists = new Uint32Array(items * n);
  itemListsTo(lists, n, same, sameNorms, items, f, 0, items, new Float32Array(listsScratchLength(items, f, n)));
  t.same(
    [...lists.subarray(0, n)],
    Array.from({ length: n }, (_, k) => k + 1),
    'the exact ranking: the lowest copies',
  );
  lists.set(
    Array.from({ length: n }, (_, k) => k + 10),
    0,
  );
  const h = new Uint32Array(items * fanout);
  listHeadsTo(h, lists, n, items, fanout);
  const changed = refineItemListsTo(
    lists,
    h,
    n,
    same,
    sameNorms,
    items,
    f,
    fanout,
    0,
    1,
    new Int32Array(refineScratchLength(items, n, fanout)).fill(-1, 0, items),
  );
  t.equal(changed, 1);
  t.same(
    [...lists.subarray(0, n)],
    [1, 2, 3, 4, 5, ...Array.from({ length: n - 5 }, (_, k) => k + 10)],
    'row 0 now lists the lowest copies it found first',
  );
});

t.test('a round over the stale rows only makes the lists a round over every row makes', async (t) => {
  const { rand, factors, norms, exact } = setup(6);
  const poor = new Uint32Array(items * n).fill(EMPTY);
  for (let r = 0; r < items; r++)
    poor.set(
      [...exact.subarray(r * n, r * n + n)].filter((i) => i !== EMPTY && rand() < 0.3),
      r * n,
    );
  const scratch = () => new Int32Array(refineScratchLength(items, n, fanout)).fill(-1, 0, items);
  const headsOf = (lists: Uint32Array) => {
    const h = new Uint32Array(items * fanout),
      rev = new Uint32Array(items * fanout);
    listHeadsTo(h, lists, n, items, fanout);
    reverseHeadsTo(rev, h, items, fanout);
    return { h, rev };
  };
  const first = headsOf(poor);
  refineItemListsTo(poor, first.h, n, factors, norms, items, f, fanout, 0, items, scratch(), first.rev);
  let last = first;
  for (let round = 2; round <= 4; round++) {
    const now = headsOf(poor);
    const stale = new Uint8Array(items);
    const count = staleRowsTo(stale, now.h, last.h, now.rev, last.rev, items, fanout);
    const all = poor.slice(),
      some = poor.slice();
    const changedAll = refineItemListsTo(all, now.h, n, factors, norms, items, f, fanout, 0, items, scratch(), now.rev);
    const changedSome = refineItemListsTo(some, now.h, n, factors, norms, items, f, fanout, 0, items, scratch(), now.rev, stale);
    t.same([...some], [...all], `round ${round}: ${count} of ${items} rows stale, the same lists`);
    t.equal(changedSome, changedAll);
    t.ok(count < items, `round ${round}: rows left alone`);
    poor.set(all);
    last = now;
  }
  const none = new Uint8Array(items);
  t.equal(staleRowsTo(none, last.h, last.h, last.rev, last.rev, items, fanout), 0, 'nothing changed: nothing stale');
});

t.test('refineItemListsTo checks its arguments', async (t) => {
  const { factors, norms, exact } = setup(3);
  const heads = new Uint32Array(items * fanout);
  t.throws(() => refineItemListsTo(exact, heads, n, factors, norms, items, f, n + 1, 0, items, new Int32Array(1e6)), /fanout/);
  t.throws(() => refineItemListsTo(exact, heads, n, factors, norms, items, f, fanout, 0, items + 1, new Int32Array(1e6)), /row range/);
  t.throws(() => refineItemListsTo(exact, heads, n, factors, norms, items, f, fanout, 0, items, new Int32Array(10)), /scratch/);
});
