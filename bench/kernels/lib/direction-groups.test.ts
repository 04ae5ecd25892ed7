// Groups of rows of equal direction (bench/kernels/lib/direction-groups.ts, a bench's kernel) and
// what offering them after a round of neighbours of neighbours makes of them: scaled copies share a
// group, other rows are alone, and a row offered its group lists the group's best exactly even when
// its list held none of them.
import t from 'tap';
import { directionGroupsOf, offerGroupsTo } from './direction-groups.js';
import { itemListsTo, listsScratchLength } from '../../../native-free-kernels/lists.js';
import { mulberry32 } from '../../../native-free-kernels/random.js';
import { listHeadsTo, refineItemListsTo, refineScratchLength } from '../../../native-free-kernels/refine-lists.js';
import { rowNormsTo } from '../../../native-free-kernels/rows.js';

const EMPTY = 0xffffffff;
const items = 200,
  f = 5,
  n = 8;

function setup() {
  const rand = mulberry32(3);
  const factors = Float32Array.from({ length: items * f }, () => rand() - 0.5);
  // Rows 10, 50, 90, ..., 170: row 10 scaled (one direction); rows 20..23 a second; row 7 of norm 0.
  for (let r = 50; r < items; r += 40) for (let a = 0; a < f; a++) factors[r * f + a] = factors[10 * f + a]! * (1 + r / 100);
  for (let r = 21; r < 24; r++) for (let a = 0; a < f; a++) factors[r * f + a] = factors[20 * f + a]! * 2;
  factors.fill(0, 7 * f, 8 * f);
  const norms = new Float32Array(items);
  rowNormsTo(norms, factors, items, f);
  return { factors, norms };
}

t.test('scaled copies share a group, other rows are alone', async (t) => {
  const { factors, norms } = setup();
  const g = directionGroupsOf(factors, norms, items, f);
  const membersOf = (r: number) => [...g.members.subarray(g.offsets[g.of[r]!]!, g.offsets[g.of[r]! + 1]!)];
  t.same(membersOf(90), [10, 50, 90, 130, 170]);
  t.same(membersOf(22), [20, 21, 22, 23]);
  t.equal(g.offsets.length, 3, 'two groups');
  t.equal(g.of[7], EMPTY, 'a row of norm 0 is in no group');
  t.equal(g.of[11], EMPTY);
});

t.test('a row offered its group lists it exactly', async (t) => {
  const { factors, norms } = setup();
  const groups = directionGroupsOf(factors, norms, items, f);
  const exact = new Uint32Array(items * n);
  itemListsTo(exact, n, factors, norms, items, f, 0, items, new Float32Array(listsScratchLength(items, f, n)));
  // Row 10's list forgets its group: after a round with groups its list is exact again.
  const lists = exact.slice();
  lists.set(
    [...exact.subarray(10 * n, 11 * n)].map((i) => ([50, 90, 130, 170].includes(i) ? EMPTY : i)),
    10 * n,
  );
  const fanout = 2,
    heads = new Uint32Array(items * fanout);
  listHeadsTo(heads, lists.fill(EMPTY, 10 * n, 11 * n), n, items, fanout);
  refineItemListsTo(
    lists,
    heads,
    n,
    factors,
    norms,
    items,
    f,
    fanout,
    10,
    11,
    new Int32Array(refineScratchLength(items, n, fanout)).fill(-1, 0, items),
  );
  offerGroupsTo(lists, n, factors, norms, items, f, groups, 16, 10, 11);
  t.same(
    [...lists.subarray(10 * n, 10 * n + 4)].sort((a, b) => a - b),
    [50, 90, 130, 170],
    'its group first',
  );
  t.same([...lists.subarray(10 * n, 10 * n + 4)], [...exact.subarray(10 * n, 10 * n + 4)], 'in the exact order');
});
