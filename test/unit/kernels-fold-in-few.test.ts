// foldInFewTo (Woodbury, from the model's inverse) against the reference fold-in, and its linear algebra.
import t from 'tap';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { FOLD_IN_FEW, foldInFewTo, foldInTo } from '../../native-free-kernels/fold-in.js';
import { gramTo, shiftedInverseTo, smallSolveInPlace } from '../../native-free-kernels/linalg.js';
import { foldInTo as refFoldInTo } from '../../native-free-kernels/reference/fold-in.js';

function randomFactors(rand: () => number, n: number, f: number): Float32Array {
  const out = new Float32Array(n * f);
  for (let k = 0; k < out.length; k++) out[k] = (rand() - 0.5) * 0.6;
  return out;
}
const relErr = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let num = 0,
    den = 0;
  for (let k = 0; k < a.length; k++) {
    num += (a[k]! - b[k]!) ** 2;
    den += b[k]! ** 2;
  }
  return Math.sqrt(num / Math.max(den, 1e-30));
};

t.test('shiftedInverseTo inverts a + shift·I', async (t) => {
  const rand = mulberry32(3);
  const f = 12,
    n = 40;
  const y = randomFactors(rand, n, f);
  const g = new Float64Array(f * f);
  gramTo(g, y, n, f);
  const inv = new Float64Array(f * f);
  shiftedInverseTo(inv, g, 0.7, f, new Float64Array(f * f + f));
  let worst = 0;
  for (let i = 0; i < f; i++)
    for (let j = 0; j < f; j++) {
      let s = 0;
      for (let k = 0; k < f; k++) s += (g[i * f + k]! + (i === k ? 0.7 : 0)) * inv[k * f + j]!;
      worst = Math.max(worst, Math.abs(s - (i === j ? 1 : 0)));
    }
  t.ok(worst < 1e-10, `(a + shift·I)·inverse is I within ${worst}`);
  t.throws(() => shiftedInverseTo(inv, new Float64Array(f * f), -1, f, new Float64Array(f * f + f)), /positive definite/);
});

t.test('smallSolveInPlace solves with pivoting and refuses a singular matrix', async (t) => {
  const b = Float64Array.of(0, 2, 1, 1, 1, 1, 2, 1, 3);
  const y = Float64Array.of(5, 6, 13); // x = (1, 2, 3)... for b = [[0,2,1],[1,1,1],[2,1,3]]: (0+4+3, 1+2+3, 2+2+9)
  y.set([7, 6, 13]);
  t.ok(smallSolveInPlace(b, y, 3));
  t.ok(relErr(y, [1, 2, 3]) < 1e-12, `x = ${[...y]}`);
  t.notOk(smallSolveInPlace(Float64Array.of(1, 2, 2, 4), Float64Array.of(1, 2), 2), 'rank 1');
});

t.test('foldInFewTo gives the reference fold-in for every size up to FOLD_IN_FEW', async (t) => {
  const rand = mulberry32(9);
  for (const [f, n, reg, alpha] of [
    [8, 50, 0.1, 3],
    [64, 400, 20, 0.25],
  ] as const) {
    const y = randomFactors(rand, n, f);
    const g = new Float64Array(f * f);
    gramTo(g, y, n, f);
    const inv = new Float64Array(f * f);
    shiftedInverseTo(inv, g, reg, f, new Float64Array(f * f + f));
    let worst = 0;
    for (let k = 0; k <= FOLD_IN_FEW; k++) {
      for (let trial = 0; trial < 5; trial++) {
        const items = Uint32Array.from({ length: k }, () => Math.floor(rand() * n));
        if (k > 1 && trial === 0) items[1] = items[0]!; // the same item twice
        // Values from 0 (c = 1: no weight beyond the base) to 10, as ratings are.
        const values = Float32Array.from({ length: k }, (_, j) => (trial === 1 && j === 0 ? 0 : Math.floor(rand() * 11)));
        const fast = new Float32Array(f),
          solved = new Float32Array(f),
          slow = new Float32Array(f);
        t.ok(foldInFewTo(fast, items, values, y, inv, f, alpha, new Float64Array(k * f + 2 * k * k + 2 * k)));
        // The factorising twin sums a repeated item's weights, as foldInFewTo does; the reference
        // (one weight per item) only sees distinct items.
        foldInTo(solved, items, values, y, g, f, reg, alpha, new Float64Array(2 * f * f + 2 * f));
        if (k === 0) {
          t.same([...fast], new Array(f).fill(0), 'no items: zeros');
          continue;
        }
        worst = Math.max(worst, relErr(fast, solved));
        if (new Set(items).size === k) {
          refFoldInTo(slow, items, values, y, g, f, reg, alpha, new Float64Array(2 * f * f + 2 * f));
          worst = Math.max(worst, relErr(fast, slow));
        }
      }
    }
    t.ok(worst < 1e-5, `f = ${f}: worst relative difference ${worst}`);
  }
});

t.test('foldInFewTo with kept solved rows: made on first use, then read, the same factors', async (t) => {
  const rand = mulberry32(12);
  const f = 32,
    n = 200,
    reg = 20,
    alpha = 0.25;
  const y = randomFactors(rand, n, f);
  const g = new Float64Array(f * f);
  gramTo(g, y, n, f);
  const inv = new Float64Array(f * f);
  shiftedInverseTo(inv, g, reg, f, new Float64Array(f * f + f));
  const solved = { rows: new Float32Array(n * f), known: new Uint8Array(n), self: new Float64Array(n) };
  const scratch = new Float64Array(FOLD_IN_FEW * f + 2 * FOLD_IN_FEW ** 2 + 2 * FOLD_IN_FEW);
  let worst = 0;
  for (let trial = 0; trial < 40; trial++) {
    const items = Uint32Array.from({ length: 5 }, () => Math.floor(rand() * 30)); // few items: most seen before
    const values = Float32Array.from({ length: 5 }, () => 1 + Math.floor(rand() * 10));
    const kept = new Float32Array(f),
      plain = new Float32Array(f);
    t.ok(foldInFewTo(kept, items, values, y, inv, f, alpha, scratch, solved));
    foldInFewTo(plain, items, values, y, inv, f, alpha, scratch);
    worst = Math.max(worst, relErr(kept, plain));
    t.ok(
      items.every((i) => solved.known[i] === 1),
      'the rows used are kept',
    );
    // Each kept diagonal is y · (its kept row), summed as a fresh one would be.
    for (const i of items) {
      let s = 0;
      for (let a = 0; a < f; a++) s += y[i * f + a]! * solved.rows[i * f + a]!;
      t.equal(solved.self[i], s, `item ${i}: its kept y · inverse · y`);
    }
  }
  t.ok(worst < 1e-5, `worst relative difference ${worst}`);
  t.ok(
    solved.known.subarray(30).every((x) => x === 0),
    'no row of an unused item is made',
  );
  // A kept row is what the next fold-in reads: changing it changes the factors.
  const items = Uint32Array.of(3, 7),
    values = Float32Array.of(5, 5);
  const before = new Float32Array(f),
    after = new Float32Array(f);
  foldInFewTo(before, items, values, y, inv, f, alpha, scratch, solved);
  solved.rows.fill(0, 3 * f, 4 * f);
  foldInFewTo(after, items, values, y, inv, f, alpha, scratch, solved);
  t.ok(relErr(after, before) > 1e-3, 'the kept row was read, not made again');
  t.throws(
    () =>
      foldInFewTo(before, items, values, y, inv, f, alpha, scratch, {
        rows: new Float32Array(f),
        known: new Uint8Array(1),
        self: new Float64Array(1),
      }),
    /solved rows/,
  );
});

t.test('foldInFewTo checks its arguments', async (t) => {
  const f = 4,
    y = new Float32Array(3 * f),
    inv = new Float64Array(f * f);
  t.throws(
    () =>
      foldInFewTo(
        new Float32Array(f),
        new Uint32Array(FOLD_IN_FEW + 1),
        new Float32Array(FOLD_IN_FEW + 1),
        y,
        inv,
        f,
        1,
        new Float64Array(1e4),
      ),
    /at most/,
  );
  t.throws(
    () => foldInFewTo(new Float32Array(f), Uint32Array.of(3), Float32Array.of(1), y, inv, f, 1, new Float64Array(100)),
    /out of range/,
  );
  t.throws(
    () => foldInFewTo(new Float32Array(f), Uint32Array.of(0), Float32Array.of(1, 2), y, inv, f, 1, new Float64Array(100)),
    /values length/,
  );
});
