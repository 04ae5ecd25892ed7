// Row kernels (native-free-kernels/rows.ts) against their reference twin: norms, zero rows, unit
// rows, means and steering, exactly equal on random inputs (the twin sums in the same precision);
// the engine functions built on them (rankings.ts) equal the twin too; bad input throws unwritten.
import t from 'tap';
import { mulberry32 } from '../../native-free-kernels/random.js';
import * as fast from '../../native-free-kernels/rows.js';
import * as ref from '../../native-free-kernels/reference/rows.js';
import { allocateModel } from '../../src/engine/model/layout.js';
import { rowNorms, scorable } from '../../src/engine/scoring/rankings.js';
import { meanDirection, meanUserFactors, steerTowards } from '../../src/engine/scoring/directions.js';

const arr = (a: ArrayLike<number>) => Array.from(a);
const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
const randInt = (rand: () => number, n: number) => Math.floor(rand() * n);

// Random rows, some all zeros (a few of them −0), some with a zero entry.
function randomFactors(rand: () => number, rows: number, f: number): Float32Array {
  const out = new Float32Array(rows * f);
  for (let k = 0; k < out.length; k++) out[k] = rand() < 0.05 ? 0 : (rand() - 0.5) * 4;
  for (let r = 0; r < rows; r++) if (rand() < 0.2) out.fill(rand() < 0.3 ? -0 : 0, r * f, (r + 1) * f);
  return out;
}

const randomList = (rand: () => number, rows: number, length: number) =>
  Array.from({ length: rows === 0 ? 0 : length }, () => randInt(rand, rows));

t.test('hand-computed examples', async (t) => {
  // rows: [3, 4], [0, 0], [0, 2], [−0, −0]
  const factors = Float32Array.of(3, 4, 0, 0, 0, 2, -0, -0);
  const norms = Float32Array.of(5, 0, 2, 0);
  for (const k of [fast, ref]) {
    const n = new Float32Array(4);
    k.rowNormsTo(n, factors, 4, 2);
    t.same(arr(n), [5, 0, 2, 0]);
    t.same(
      [0, 1, 2, 3].map((r) => k.rowIsZero(factors, 4, 2, r)),
      [false, true, false, true],
    );
    const unit = new Float32Array(4);
    k.unitRowsTo(unit, factors, norms, 4, 2, Uint32Array.of(2, 0));
    t.same(arr(unit), [0, 1, 0.6, 0.8].map(Math.fround));
    const mean = new Float32Array(2).fill(9);
    t.equal(k.meanRowsTo(mean, factors, 4, 2, [0, 1, 2, 3, 2]), 3, 'zero rows left out, a row listed twice counts twice');
    t.same(arr(mean), [1, 8 / 3].map(Math.fround));
    t.equal(k.meanRowsTo(mean, factors, 4, 2, [1, 3]), 0);
    t.same(arr(mean), [0, 0], 'no row with factors: zeros');
    t.equal(k.meanUnitRowsTo(mean, factors, norms, 4, 2, [0, 1, 2]), 2);
    t.same(arr(mean), [0.3, 0.9].map(Math.fround));
    t.equal(k.meanUnitRowsTo(mean, factors, norms, 4, 2, []), 0);
    t.same(arr(mean), [0, 0]);
    // Two context rows, one of norm 0: the other pulls with half the length.
    const v = Float32Array.of(1, 1);
    k.steerTo(v, factors, norms, 4, 2, [2, 1], 10);
    t.same(arr(v), [1, 6], '(10 · 2) / (2 · 2) added to the second entry');
    k.steerTo(v, factors, norms, 4, 2, [], 10);
    t.same(arr(v), [1, 6], 'no rows: unchanged');
  }
});

t.test('fast agrees with reference on random inputs, bit for bit', async (t) => {
  const rand = mulberry32(31);
  let meanUsed = 0,
    steered = 0;
  for (let trial = 0; trial < 300; trial++) {
    const rows = randInt(rand, 30),
      f = trial % 23 === 0 ? 0 : 1 + randInt(rand, 12);
    const factors = randomFactors(rand, rows, f);
    const label = `trial ${trial} rows=${rows} f=${f}`;

    const na = new Float32Array(rows),
      nb = new Float32Array(rows);
    fast.rowNormsTo(na, factors, rows, f);
    ref.rowNormsTo(nb, factors, rows, f);
    t.same(bits(na), bits(nb), `${label}: norms`);
    for (let r = 0; r < rows; r++)
      if (fast.rowIsZero(factors, rows, f, r) !== ref.rowIsZero(factors, rows, f, r)) t.fail(`${label}: rowIsZero ${r}`);

    const withFactors = Uint32Array.from(randomList(rand, rows, randInt(rand, 20)).filter((r) => na[r] !== 0));
    const ua = new Float32Array(withFactors.length * f),
      ub = new Float32Array(withFactors.length * f);
    fast.unitRowsTo(ua, factors, na, rows, f, withFactors);
    ref.unitRowsTo(ub, factors, na, rows, f, withFactors);
    t.same(bits(ua), bits(ub), `${label}: unit rows`);

    const list = randomList(rand, rows, randInt(rand, 25));
    const ma = new Float32Array(f).fill(7),
      mb = new Float32Array(f).fill(-7);
    const usedA = fast.meanRowsTo(ma, factors, rows, f, list);
    t.equal(usedA, ref.meanRowsTo(mb, factors, rows, f, list), `${label}: mean rows count`);
    t.same(bits(ma), bits(mb), `${label}: mean rows`);
    meanUsed += usedA;
    const usedU = fast.meanUnitRowsTo(ma, factors, na, rows, f, list);
    t.equal(usedU, ref.meanUnitRowsTo(mb, factors, na, rows, f, list), `${label}: mean unit rows count`);
    t.same(bits(ma), bits(mb), `${label}: mean unit rows`);

    const start = Float32Array.from({ length: f }, () => rand() - 0.5);
    const length = rand() < 0.2 ? 1 : rand() * 3;
    const sa = start.slice(),
      sb = start.slice();
    fast.steerTo(sa, factors, na, rows, f, list, length);
    ref.steerTo(sb, factors, na, rows, f, list, length);
    t.same(bits(sa), bits(sb), `${label}: steered`);
    if (list.some((r) => na[r] !== 0)) steered++;
  }
  t.ok(meanUsed > 500 && steered > 100, `rows used: ${meanUsed} in means, ${steered} steered vectors`);
});

t.test('bad input throws before writing', async (t) => {
  const factors = Float32Array.of(3, 4, 0, 0, 0, 2),
    norms = Float32Array.of(5, 0, 2);
  for (const k of [fast, ref]) {
    const d = new Float32Array(3).fill(9),
      two = new Float32Array(2).fill(9);
    const bad: [string, () => unknown, Float32Array][] = [
      ['rowNormsTo: factors not rows*f', () => k.rowNormsTo(d, factors, 3, 3), d],
      ['rowNormsTo: dst too short', () => k.rowNormsTo(two, factors, 3, 2), two],
      ['rowNormsTo: fractional rows', () => k.rowNormsTo(d, factors, 2.5, 2), d],
      ['rowIsZero: row out of range', () => k.rowIsZero(factors, 3, 2, 3), d],
      ['unitRowsTo: dst not list.length*f', () => k.unitRowsTo(d, factors, norms, 3, 2, Uint32Array.of(0)), d],
      ['unitRowsTo: norms too short', () => k.unitRowsTo(two, factors, norms.subarray(0, 2), 3, 2, Uint32Array.of(0)), two],
      ['unitRowsTo: row out of range', () => k.unitRowsTo(new Float32Array(4), factors, norms, 3, 2, Uint32Array.of(0, 3)), d],
      ['meanRowsTo: dst not f', () => k.meanRowsTo(d, factors, 3, 2, [0]), d],
      ['meanRowsTo: row out of range', () => k.meanRowsTo(two, factors, 3, 2, [0, -1]), two],
      ['meanRowsTo: fractional row', () => k.meanRowsTo(two, factors, 3, 2, [0.5]), two],
      ['meanUnitRowsTo: norms too long', () => k.meanUnitRowsTo(two, factors, new Float32Array(4), 3, 2, [0]), two],
      ['meanUnitRowsTo: row out of range', () => k.meanUnitRowsTo(two, factors, norms, 3, 2, [2, 3]), two],
      ['steerTo: dst not f', () => k.steerTo(d, factors, norms, 3, 2, [0], 1), d],
      ['steerTo: row out of range', () => k.steerTo(two, factors, norms, 3, 2, [0, 9], 1), two],
    ];
    for (const [what, call, dst] of bad) {
      t.throws(call, what);
      t.ok(
        dst.every((x) => x === 9),
        `${what}: dst untouched`,
      );
    }
  }
});

// A model with random user and item factors (some rows of zeros).
function randomModel(seed: number, users: number, items: number, f: number) {
  const rand = mulberry32(seed);
  const { views } = allocateModel({ factors: f, users, items, itemList: 0, userList: 0, trainedItems: items, lists: 0 });
  views.userFactors.set(randomFactors(rand, users, f));
  views.itemFactors.set(randomFactors(rand, items, f));
  return { m: scorable(views), rand };
}

t.test('engine functions: rowNorms, meanDirection, meanUserFactors, steerTowards equal the twin', async (t) => {
  for (let seed = 1; seed <= 40; seed++) {
    const users = 1 + (seed % 9),
      items = 1 + ((seed * 7) % 25),
      f = 1 + (seed % 11);
    const { m, rand } = randomModel(seed, users, items, f);
    const V = m.views.itemFactors,
      U = m.views.userFactors;
    const norms = new Float32Array(items);
    ref.rowNormsTo(norms, V, items, f);
    t.same(bits(m.rows.norms), bits(norms), `seed ${seed}: scorable's item norms`);
    t.same(
      bits(rowNorms(U, users, f)),
      bits(
        (() => {
          const n = new Float32Array(users);
          ref.rowNormsTo(n, U, users, f);
          return n;
        })(),
      ),
      `seed ${seed}: rowNorms`,
    );

    const picked = randomList(rand, items, randInt(rand, 8));
    const want = new Float32Array(f);
    ref.meanUnitRowsTo(want, V, norms, items, f, picked);
    t.same(bits(meanDirection(m, picked)), bits(want), `seed ${seed}: meanDirection`);

    const alike = randomList(rand, users, randInt(rand, 6));
    const mean = new Float32Array(f);
    const used = ref.meanRowsTo(mean, U, users, f, alike);
    const got = meanUserFactors(m, Uint32Array.from(alike));
    if (used === 0) t.equal(got, undefined, `seed ${seed}: no user with factors`);
    else t.same(bits(got!), bits(mean), `seed ${seed}: meanUserFactors`);

    const context = randomList(rand, items, randInt(rand, 5));
    const vector = seed % 5 === 0 ? new Float32Array(f) : Float32Array.from({ length: f }, () => rand() - 0.5);
    const steered = vector.slice();
    steerTowards(m, steered, context);
    const expected = vector.slice();
    if (context.length > 0) ref.steerTo(expected, V, norms, items, f, context, Math.hypot(...vector) || 1);
    t.same(bits(steered), bits(expected), `seed ${seed}: steerTowards (${context.length} context items)`);
  }
});

t.test('engine functions: meanUserFactors and steerTowards by hand', async (t) => {
  const { views } = allocateModel({ factors: 2, users: 3, items: 3, itemList: 0, userList: 0, trainedItems: 3, lists: 0 });
  views.userFactors.set([1, 2, 0, 0, 3, 5]);
  views.itemFactors.set([0, 4, 0, 0, 3, 0]);
  const m = scorable(views);
  t.same(arr(meanUserFactors(m, [0, 1, 2])!), [2, 3.5], 'the zero row is left out of the mean');
  t.equal(meanUserFactors(m, [1]), undefined, 'only zero rows: undefined');
  t.equal(meanUserFactors(m, []), undefined, 'no users: undefined');
  const v = Float32Array.of(3, 4); // length 5
  steerTowards(m, v, [0, 1]);
  t.same(arr(v), [3, 6.5], 'item 0 pulls by 5 / 2 (item 1 has no factors but counts)');
  const zero = new Float32Array(2);
  steerTowards(m, zero, [2]);
  t.same(arr(zero), [1, 0], 'a zero vector is steered at length 1');
  const same = Float32Array.of(3, 4);
  steerTowards(m, same, []);
  t.same(arr(same), [3, 4], 'no context: unchanged');
});
