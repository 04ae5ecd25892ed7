// Item lists refined from co-rated items (native-free-kernels/corated-lists.ts): each list becomes the
// exact top of its old list and the items its raters rated, equal scores keeping the lower item, as
// its reference twin and the exact ranking say, whatever the split of rows among calls.
import t from 'tap';
import { coRatedListsTo, coRatedScratchLength } from '../../native-free-kernels/corated-lists.js';
import { coRatedListsTo as reference } from '../../native-free-kernels/reference/corated-lists.js';
import { csrFromTriples, transpose } from '../../native-free-kernels/csr.js';
import { itemListsTo, listsScratchLength } from '../../native-free-kernels/lists.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { rowNormsTo } from '../../native-free-kernels/rows.js';

const EMPTY = 0xffffffff;
const users = 40,
  items = 500,
  f = 6,
  n = 12;

// Users of 1 to 60 ratings (a few heavy ones); items rated by one user alone share that user's row,
// as ALS makes them nearly do, so their scores tie; items of two or more raters and a few unrated
// ones (norm 0) get rows of their own. Small integers: every dot product is exact, so twins agree.
function catalogue(seed: number) {
  const rand = mulberry32(seed);
  const rows: number[] = [],
    cols: number[] = [];
  for (let u = 0; u < users; u++) {
    const count = u % 10 === 0 ? 60 : 1 + Math.floor(rand() * 15);
    const taken = new Set<number>();
    while (taken.size < count) taken.add(Math.floor(rand() * items * rand()));
    for (const i of taken) rows.push(u), cols.push(i);
  }
  const byUser = csrFromTriples(users, items, Uint32Array.from(rows), Uint32Array.from(cols), new Float32Array(rows.length).fill(1));
  const byItem = transpose(byUser);
  const small = () => Math.floor(rand() * 7) - 3 || 1;
  const userRows = Array.from({ length: users }, () => Array.from({ length: f }, small));
  const factors = new Float32Array(items * f);
  for (let i = 0; i < items; i++) {
    const raters = byItem.indptr[i + 1]! - byItem.indptr[i]!;
    if (raters === 0 && i % 3 === 0) continue;
    factors.set(raters === 1 ? userRows[byItem.indices[byItem.indptr[i]!]!]! : Array.from({ length: f }, small), i * f);
  }
  const norms = new Float32Array(items);
  rowNormsTo(norms, factors, items, f);
  const exact = new Uint32Array(items * n);
  itemListsTo(exact, n, factors, norms, items, f, 0, items, new Float32Array(listsScratchLength(items, f, n)));
  // Lists that missed neighbours: a random third of each exact list, the rest empty.
  const poor = new Uint32Array(items * n).fill(EMPTY);
  for (let r = 0; r < items; r++)
    poor.set(
      [...exact.subarray(r * n, (r + 1) * n)].filter((i) => i !== EMPTY && rand() < 0.3),
      r * n,
    );
  return { byUser, byItem, factors, norms, exact, poor };
}

const run = (c: ReturnType<typeof catalogue>, lists: Uint32Array, maxRaters: number, maxUserItems: number, splits: [number, number][]) => {
  const out = lists.slice();
  let changed = 0;
  for (const [from, to] of splits) {
    const scratch = new Int32Array(coRatedScratchLength(items, n, f, maxUserItems)).fill(-1, 0, 2 * items);
    changed += coRatedListsTo(out, n, c.factors, c.norms, items, f, c.byItem, c.byUser, maxRaters, maxUserItems, from, to, scratch);
  }
  return { out, changed };
};

t.test('lists are the exact top of the old list and the co-rated items, as the reference twin makes them', async (t) => {
  for (const seed of [1, 2, 3]) {
    const c = catalogue(seed);
    for (const [maxRaters, maxUserItems] of [
      [1, 1000],
      [2, 1000],
      [3, 20],
      [1000, 1000],
    ] as const) {
      const want = c.poor.slice();
      const wantChanged = reference(want, n, c.factors, c.norms, items, f, c.byItem, c.byUser, maxRaters, maxUserItems, 0, items);
      const got = run(c, c.poor, maxRaters, maxUserItems, [[0, items]]);
      t.same([...got.out], [...want], `seed ${seed}, raters ≤ ${maxRaters}, users of ≤ ${maxUserItems} items`);
      t.equal(got.changed, wantChanged, `${wantChanged} lists changed`);
      t.ok(wantChanged > 0);
      t.same(
        [
          ...run(c, c.poor, maxRaters, maxUserItems, [
            [300, items],
            [0, 77],
            [77, 300],
          ]).out,
        ],
        [...want],
        'the same whatever the split of rows',
      );
    }
  }
});

t.test('an item rated by one user alone gets the exact list, ties kept by the lower item', async (t) => {
  const c = catalogue(4);
  const empty = new Uint32Array(items * n).fill(EMPTY);
  const { out } = run(c, empty, 1, 1000, [[0, items]]);
  let checked = 0;
  for (let r = 0; r < items; r++) {
    if (c.norms[r] === 0 || c.byItem.indptr[r + 1]! - c.byItem.indptr[r]! !== 1) continue;
    const u = c.byItem.indices[c.byItem.indptr[r]!]!;
    // Its exact top: the items of its rater, equal rows all, when the rater has more than n others.
    const others = [...c.byUser.indices.subarray(c.byUser.indptr[u]!, c.byUser.indptr[u + 1]!)].filter(
      (i) => i !== r && c.byItem.indptr[i + 1]! - c.byItem.indptr[i]! === 1,
    );
    if (others.length < n) continue;
    t.same(
      [...out.subarray(r * n, (r + 1) * n)],
      [...c.exact.subarray(r * n, (r + 1) * n)],
      `row ${r} (user ${u} rated ${others.length} others alone)`,
    );
    checked++;
  }
  t.ok(checked > 20, `${checked} rows checked`);
});

t.test('rows of norm 0, unrated or of too many raters stay as they are; exact lists do not change', async (t) => {
  const c = catalogue(5);
  const { out, changed } = run(c, c.exact, 1000, 1000, [[0, items]]);
  t.same([...out], [...c.exact], 'exact lists stay');
  t.equal(changed, 0);
  const marked = new Uint32Array(items * n).fill(7);
  const left = run(c, marked, 2, 1000, [[0, items]]).out;
  const skipped: number[] = [],
    touched: number[] = [];
  for (let r = 0; r < items; r++) {
    const raters = c.byItem.indptr[r + 1]! - c.byItem.indptr[r]!;
    if (c.norms[r] !== 0 && raters > 0 && raters <= 2) continue;
    skipped.push(r);
    if (left.subarray(r * n, (r + 1) * n).some((i) => i !== 7)) touched.push(r);
  }
  t.ok(skipped.length > 50, `${skipped.length} rows to leave`);
  t.same(touched, [], 'none of them touched');
});

t.test('coRatedListsTo checks its arguments', async (t) => {
  const c = catalogue(6);
  const scratch = new Int32Array(coRatedScratchLength(items, n, f, 10));
  t.throws(
    () => coRatedListsTo(c.poor.slice(), n, c.factors, c.norms, items, f, c.byItem, c.byUser, 1, 10, 0, items + 1, scratch),
    /row range/,
  );
  t.throws(
    () => coRatedListsTo(c.poor.slice(), n, c.factors, c.norms, items, f, c.byItem, c.byUser, 1, 10, 0, items, new Int32Array(10)),
    /scratch/,
  );
  t.throws(() => coRatedListsTo(c.poor.slice(), n, c.factors, c.norms, items, f, c.byUser, c.byItem, 1, 10, 0, items, scratch), /byItem/);
});
