// List kernels (native-free-kernels/lists.ts) against their reference twin on random inputs: the
// same lists, up to swaps of items the twin scores equal within rounding (exactly the same lists on
// small-integer factors, whose scores are exact and tie often); the item lists also equal topKTo's
// over cosineScoresTo (what serving ranks); rows outside a range or subset untouched;
// every block size the same result; bad input throws unwritten.
import t from 'tap';
import { mulberry32 } from '../../native-free-kernels/random.js';
import * as fast from '../../native-free-kernels/lists.js';
import * as ref from '../../native-free-kernels/reference/lists.js';
import { rowNormsTo } from '../../native-free-kernels/rows.js';
import { cosineScoresTo } from '../../native-free-kernels/scores.js';
import { topKTo } from '../../native-free-kernels/top-k.js';

const EMPTY = 0xffffffff;
const SENTINEL = 0xabcdef;
const E = EMPTY;
const randInt = (rand: () => number, n: number) => Math.floor(rand() * n);
const arr = (a: ArrayLike<number>) => Array.from(a);
const close = (a: number, b: number, tol = 1e-5) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));

// Random rows, a share of them all zeros; `coarse`: entries in {−1, 0, 1}, so dots are exact and
// many scores tie (tie order is then fully checked).
function randomFactors(rand: () => number, rows: number, f: number, coarse: boolean, zeroShare = 0.15): Float32Array {
  const out = new Float32Array(rows * f);
  for (let k = 0; k < out.length; k++) out[k] = coarse ? randInt(rand, 3) - 1 : (rand() - 0.5) * 4;
  for (let r = 0; r < rows; r++) if (rand() < zeroShare) out.fill(0, r * f, (r + 1) * f);
  return out;
}

function norms(factors: Float32Array, rows: number, f: number): Float32Array {
  const out = new Float32Array(rows);
  rowNormsTo(out, factors, rows, f);
  return out;
}

const dot = (a: Float32Array, x: number, b: Float32Array, y: number, f: number) => {
  let s = 0;
  for (let k = 0; k < f; k++) s += a[x + k]! * b[y + k]!;
  return s;
};

/**
 * Whether lists a and b (rows × n) agree: slot by slot the same item, or two items whose scores
 * (score(row, item), the twin's) are equal up to tol relative; EMPTY only where the other is EMPTY.
 * Returns the first disagreement, or undefined.
 */
function disagreement(
  a: Uint32Array,
  b: Uint32Array,
  n: number,
  rows: Iterable<number>,
  score: (row: number, item: number) => number,
  tol = 1e-5,
): string | undefined {
  for (const row of rows) {
    for (let p = row * n; p < row * n + n; p++) {
      const x = a[p]!,
        y = b[p]!;
      if (x === y) continue;
      if (x === EMPTY || y === EMPTY || !close(score(row, x), score(row, y), tol)) {
        return `row ${row} slot ${p - row * n}: ${x} (${score(row, x)}) vs ${y} (${score(row, y)})`;
      }
    }
  }
  return undefined;
}

const range = (a: number, b: number) => Array.from({ length: b - a }, (_, k) => a + k);

// Rated items as CSR rows: some users none, some every item, the last few beyond ratedIndptr; in
// random order with a repeat now and then (the contract asks for neither order nor uniqueness).
function randomRatings(rand: () => number, users: number, items: number): { indptr: Uint32Array; indices: Uint32Array } {
  const rows = Math.max(0, users - randInt(rand, 3));
  const indptr = new Uint32Array(rows + 1),
    indices: number[] = [];
  for (let u = 0; u < rows; u++) {
    const kind = rand(),
      mine: number[] = [];
    for (let i = 0; i < items; i++) if (kind > 0.85 || (kind > 0.2 && rand() < 0.3)) mine.push(i);
    if (mine.length > 0 && rand() < 0.3) mine.push(mine[0]!);
    indices.push(...mine.sort(() => rand() - 0.5));
    indptr[u + 1] = indices.length;
  }
  return { indptr: rows === 0 && rand() < 0.5 ? new Uint32Array(0) : indptr, indices: Uint32Array.from(indices) };
}

t.test('hand-computed examples', async (t) => {
  // rows: [1, 0], [0, 0], [1, 1], [−2, 0], [0, 3]; norms 1, 0, √2, 2, 3
  const factors = Float32Array.of(1, 0, 0, 0, 1, 1, -2, 0, 0, 3);
  const ns = norms(factors, 5, 2);
  for (const k of [fast, ref]) {
    const dst = new Uint32Array(5 * 4);
    k.itemListsTo(dst, 4, factors, ns, 5, 2, 0, 5, new Float32Array(fast.listsScratchLength(5, 2, 4)));
    // 0: 2 (0.71), 4 (0), 3 (−1); 2: 0 and 4 tie (1/√2), then 3; 4: 0 and 3 tie (0) after 2.
    t.same(
      arr(dst),
      [2, 4, 3, E, E, E, E, E, 0, 4, 3, E, 4, 2, 0, E, 2, 0, 3, E],
      'items: item 1 (norm 0) neither listed nor given a list',
    );

    // users: [1, 2] rated item 2; [0, 0]; [−1, 1] beyond ratedIndptr (so nothing rated)
    const users = Float32Array.of(1, 2, 0, 0, -1, 1);
    const indptr = Uint32Array.of(0, 1, 1),
      indices = Uint32Array.of(2);
    const out = new Uint32Array(3 * 4).fill(SENTINEL);
    const scratch = new Float32Array(fast.userListsScratchLength(2, 4));
    const order = fast.normOrderOf(factors, ns, 5, 2);
    k.userListsTo(out, 4, Uint32Array.of(2, 0), users, 3, order, 2, indptr, indices, scratch);
    // user 0: dots 1, −, (rated), −2, 6; user 2: −1, −, 0, 2, 3
    t.same(arr(out), [4, 0, 3, E, SENTINEL, SENTINEL, SENTINEL, SENTINEL, 4, 3, 2, 0], 'users: listed users only');
    k.userListsTo(out, 4, Uint32Array.of(1), users, 3, order, 2, indptr, indices, scratch);
    t.same(arr(out.subarray(4, 8)), [0, 2, 3, 4], 'a user of zeros: every dot 0, ties by index');
    const two = new Uint32Array(3 * 2);
    k.userListsTo(two, 2, Uint32Array.of(0, 1, 2), users, 3, order, 2, indptr, indices, scratch);
    t.same(arr(two), [4, 0, 0, 2, 4, 3], 'n shorter than the candidates');
    if (k === fast) {
      const packed = new Uint32Array(2 * 4);
      fast.userListsTo(packed, 4, Uint32Array.of(2, 0), users, 3, order, 2, indptr, indices, scratch, undefined, true);
      t.same(arr(packed), [4, 3, 2, 0, 4, 0, 3, E], "packed: the users' lists in their order");
      t.throws(
        () =>
          fast.userListsTo(new Uint32Array(3 * 4), 4, Uint32Array.of(2, 0), users, 3, order, 2, indptr, indices, scratch, undefined, true),
        /users\*n/,
        'packed: dst not users*n',
      );
    }
  }
});

t.test('itemListsTo agrees with the twin and topKTo over cosineScoresTo', async (t) => {
  const rand = mulberry32(11);
  for (let trial = 0; trial < 160; trial++) {
    const count = randInt(rand, trial < 150 ? 40 : 400),
      f = randInt(rand, trial < 150 ? 14 : 60);
    const coarse = trial % 3 === 0;
    const n = 1 + randInt(rand, count + 6); // sometimes more than the candidates
    const factors = randomFactors(rand, count, f, coarse),
      ns = norms(factors, count, f);
    const label = `trial ${trial} count=${count} f=${f} n=${n}${coarse ? ' coarse' : ''}`;
    const score = (i: number, j: number) => Math.fround(dot(factors, i * f, factors, j * f, f) / (ns[i]! * ns[j]!));
    const a = new Uint32Array(count * n).fill(SENTINEL),
      b = new Uint32Array(count * n).fill(SENTINEL);
    const block = [4, 8, 12][Math.floor(trial / 3) % 3]!;
    fast.itemListsTo(a, n, factors, ns, count, f, 0, count, new Float32Array(fast.listsScratchLength(count, f, n, block)), block);
    ref.itemListsTo(b, n, factors, ns, count, f, 0, count, new Float32Array(0));
    if (coarse) t.same(arr(a), arr(b), `${label}: the twin's lists exactly (block ${block})`);
    else t.equal(disagreement(a, b, n, range(0, count), score), undefined, `${label}: the twin's lists (block ${block})`);

    const scores = new Float32Array(count),
      best = new Float32Array(n),
      viaScores = new Uint32Array(count * n).fill(EMPTY);
    for (let i = 0; i < count; i++) {
      cosineScoresTo(scores, factors, ns, count, f, i);
      topKTo(viaScores.subarray(i * n, i * n + n), best, scores, count, n);
    }
    t.equal(disagreement(a, viaScores, n, range(0, count), score), undefined, `${label}: topKTo over cosineScoresTo`);
  }
});

t.test('itemListsTo: row ranges write their rows only and add up to the whole', async (t) => {
  const rand = mulberry32(12);
  for (let trial = 0; trial < 40; trial++) {
    const count = randInt(rand, 30),
      f = 1 + randInt(rand, 9),
      n = 1 + randInt(rand, 8);
    const factors = randomFactors(rand, count, f, trial % 2 === 0),
      ns = norms(factors, count, f);
    const whole = new Uint32Array(count * n);
    const scratch = new Float32Array(fast.listsScratchLength(count, f, n) + 5); // longer than needed, reused
    fast.itemListsTo(whole, n, factors, ns, count, f, 0, count, scratch);
    const cuts = [0, count, ...Array.from({ length: randInt(rand, 5) }, () => randInt(rand, count + 1))].sort((x, y) => x - y);
    const parts = new Uint32Array(count * n).fill(SENTINEL);
    for (let c = 1; c < cuts.length; c++) {
      const [a, b] = [cuts[c - 1]!, cuts[c]!];
      const before = parts.slice();
      fast.itemListsTo(parts, n, factors, ns, count, f, a, b, scratch);
      const outside = [...range(0, a * n), ...range(b * n, count * n)];
      t.ok(
        outside.every((p) => parts[p] === before[p]),
        `trial ${trial}: rows outside [${a}, ${b}) untouched`,
      );
    }
    t.same(arr(parts), arr(whole), `trial ${trial}: ranges ${cuts.join(',')} give the whole`);
  }
});

t.test('userListsTo agrees with the twin on users subsets', async (t) => {
  const rand = mulberry32(13);
  for (let trial = 0; trial < 160; trial++) {
    const items = randInt(rand, trial < 150 ? 40 : 400),
      f = randInt(rand, trial < 150 ? 14 : 60);
    const userRows = randInt(rand, 25),
      n = 1 + randInt(rand, items + 6);
    const coarse = trial % 3 === 0;
    const itemFactors = randomFactors(rand, items, f, coarse),
      ns = norms(itemFactors, items, f);
    const userFactors = randomFactors(rand, userRows, f, coarse, 0.1);
    const { indptr, indices } = randomRatings(rand, userRows, items);
    const users = Uint32Array.from(
      range(0, userRows)
        .filter(() => rand() < 0.7)
        .sort(() => rand() - 0.5),
    );
    if (users.length > 0 && rand() < 0.2) users[0] = users[users.length - 1]!; // a user listed twice
    const label = `trial ${trial} items=${items} f=${f} users=${users.length}/${userRows} n=${n}${coarse ? ' coarse' : ''}`;
    const score = (u: number, i: number) => Math.fround(dot(userFactors, u * f, itemFactors, i * f, f));
    const a = new Uint32Array(userRows * n).fill(SENTINEL),
      b = new Uint32Array(userRows * n).fill(SENTINEL);
    const block = [4, 8, 16][Math.floor(trial / 3) % 3]!;
    const order = fast.normOrderOf(itemFactors, ns, items, f);
    fast.userListsTo(
      a,
      n,
      users,
      userFactors,
      userRows,
      order,
      f,
      indptr,
      indices,
      new Float32Array(fast.userListsScratchLength(f, n, block)),
      block,
    );
    ref.userListsTo(b, n, users, userFactors, userRows, order, f, indptr, indices, new Float32Array(0));
    const listed = new Set(users);
    const unlisted = range(0, userRows).filter((u) => !listed.has(u));
    t.ok(
      unlisted.every((u) => a.subarray(u * n, u * n + n).every((x) => x === SENTINEL)),
      `${label}: unlisted users untouched`,
    );
    if (coarse) t.same(arr(a), arr(b), `${label}: the twin's lists exactly (block ${block})`);
    else t.equal(disagreement(a, b, n, listed, score), undefined, `${label}: the twin's lists (block ${block})`);
    // Packed (a training's blocks): users[p]'s list at p·n, the same lists.
    const packed = new Uint32Array(users.length * n).fill(SENTINEL);
    fast.userListsTo(
      packed,
      n,
      users,
      userFactors,
      userRows,
      order,
      f,
      indptr,
      indices,
      new Float32Array(fast.userListsScratchLength(f, n, block)),
      block,
      true,
    );
    t.ok(
      Array.from(users).every((u, p) => packed.subarray(p * n, p * n + n).join() === a.subarray(u * n, u * n + n).join()),
      `${label}: packed, the same lists in the users' order`,
    );
    for (const u of listed) {
      const row = arr(a.subarray(u * n, u * n + n)).filter((x) => x !== EMPTY);
      const rated = u + 1 < indptr.length ? arr(indices.subarray(indptr[u], indptr[u + 1])) : [];
      if (row.some((i) => rated.includes(i) || ns[i] === 0)) t.fail(`${label}: user ${u} given a rated item or one without factors`);
      const allowed = range(0, items).filter((i) => !rated.includes(i) && ns[i] !== 0).length;
      if (row.length !== Math.min(n, allowed)) t.fail(`${label}: user ${u} has ${row.length} items, expected ${Math.min(n, allowed)}`);
    }
  }
});

t.test('userListsTo stops early only where nothing later can enter', async (t) => {
  // Row lengths spread over orders of magnitude (as trained factors of popular and rare items), so
  // most blocks stop long before the last item; the lists must still be the twin's, exactly.
  const rand = mulberry32(31);
  for (let trial = 0; trial < 60; trial++) {
    const items = 50 + randInt(rand, 2000),
      f = 1 + randInt(rand, 40),
      userRows = 1 + randInt(rand, 40),
      n = 1 + randInt(rand, 64);
    const coarse = trial % 4 === 0;
    const itemFactors = randomFactors(rand, items, f, coarse, 0.05);
    for (let i = 0; i < items; i++) {
      const scale = coarse ? 2 ** -randInt(rand, 6) : Math.exp(-8 * rand());
      for (let k = 0; k < f; k++) itemFactors[i * f + k]! *= scale;
    }
    const ns = norms(itemFactors, items, f);
    // Users mostly aligned with the longest rows' mean, some opposed: both stop soon and scan all.
    const userFactors = randomFactors(rand, userRows, f, coarse, 0.1);
    const { indptr, indices } = randomRatings(rand, userRows, items);
    const users = Uint32Array.from(range(0, userRows));
    const block = [4, 8, 32][trial % 3]!;
    const label = `trial ${trial} items=${items} f=${f} users=${userRows} n=${n} block=${block}${coarse ? ' coarse' : ''}`;
    const order = fast.normOrderOf(itemFactors, ns, items, f);
    const a = new Uint32Array(userRows * n),
      b = new Uint32Array(userRows * n);
    fast.userListsTo(
      a,
      n,
      users,
      userFactors,
      userRows,
      order,
      f,
      indptr,
      indices,
      new Float32Array(fast.userListsScratchLength(f, n, block)),
      block,
    );
    ref.userListsTo(b, n, users, userFactors, userRows, order, f, indptr, indices, new Float32Array(0));
    t.same(arr(a), arr(b), `${label}: the twin's lists exactly`);
  }
});

t.test('normOrderOf: longest rows first, rows of norm 0 left out', async (t) => {
  const factors = Float32Array.of(1, 0, 0, 0, 0, 3, 2, 0, 0, -3),
    ns = norms(factors, 5, 2);
  const o = fast.normOrderOf(factors, ns, 5, 2);
  t.equal(o.count, 4);
  t.same(arr(o.order), [2, 4, 3, 0], 'by norm descending, ties (2 and 4: 3) by item');
  t.same(arr(o.norms), [3, 3, 2, 1]);
  t.same(arr(o.rows), [0, 3, 0, -3, 2, 0, 1, 0]);
  t.throws(() => fast.normOrderOf(factors, ns.subarray(1), 5, 2), 'norms not items');
});

t.test('bad input throws before writing', async (t) => {
  const count = 4,
    f = 3,
    n = 2;
  const factors = randomFactors(mulberry32(3), count, f, false, 0),
    ns = norms(factors, count, f);
  const scratch = new Float32Array(fast.listsScratchLength(count, f, n));
  const order = fast.normOrderOf(factors, ns, count, f),
    uscratch = new Float32Array(fast.userListsScratchLength(f, n));
  const users = new Float32Array(3 * f).fill(0.5);
  const indptr = Uint32Array.of(0, 2, 2, 3),
    indices = Uint32Array.of(1, 3, 0);
  for (const k of [fast, ref]) {
    const dst = () => new Uint32Array(count * n).fill(SENTINEL);
    const udst = () => new Uint32Array(3 * n).fill(SENTINEL);
    const bad: [string, Uint32Array, (d: Uint32Array) => unknown][] = [
      [
        'items: dst not count*n',
        new Uint32Array(count * n + 1).fill(SENTINEL),
        (d) => k.itemListsTo(d, n, factors, ns, count, f, 0, count, scratch),
      ],
      ['items: factors not count*f', dst(), (d) => k.itemListsTo(d, n, factors.subarray(1), ns, count, f, 0, count, scratch)],
      ['items: norms not count', dst(), (d) => k.itemListsTo(d, n, factors, ns.subarray(1), count, f, 0, count, scratch)],
      ['items: n fractional', dst(), (d) => k.itemListsTo(d, 1.5, factors, ns, count, f, 0, count, scratch)],
      ['items: start > end', dst(), (d) => k.itemListsTo(d, n, factors, ns, count, f, 3, 2, scratch)],
      ['items: end > count', dst(), (d) => k.itemListsTo(d, n, factors, ns, count, f, 0, count + 1, scratch)],
      ['items: negative start', dst(), (d) => k.itemListsTo(d, n, factors, ns, count, f, -1, 2, scratch)],
      ['items: NaN end', dst(), (d) => k.itemListsTo(d, n, factors, ns, count, f, 0, NaN, scratch)],
      [
        'users: dst not userRows*n',
        new Uint32Array(3 * n - 1).fill(SENTINEL),
        (d) => k.userListsTo(d, n, Uint32Array.of(0), users, 3, order, f, indptr, indices, uscratch),
      ],
      [
        'users: user out of range (after a good one)',
        udst(),
        (d) => k.userListsTo(d, n, Uint32Array.of(0, 3), users, 3, order, f, indptr, indices, uscratch),
      ],
      [
        'users: userFactors not userRows*f',
        udst(),
        (d) => k.userListsTo(d, n, Uint32Array.of(0), users.subarray(1), 3, order, f, indptr, indices, uscratch),
      ],
      [
        'users: byNorm rows not count*f',
        udst(),
        (d) => k.userListsTo(d, n, Uint32Array.of(0), users, 3, { ...order, rows: order.rows.subarray(f) }, f, indptr, indices, uscratch),
      ],
      [
        'users: rated item out of range',
        udst(),
        (d) => k.userListsTo(d, n, Uint32Array.of(0, 2), users, 3, order, f, indptr, Uint32Array.of(1, 3, count), uscratch),
      ],
      [
        'users: ratedIndptr past ratedIndices',
        udst(),
        (d) => k.userListsTo(d, n, Uint32Array.of(0, 2), users, 3, order, f, Uint32Array.of(0, 2, 2, 4), indices, uscratch),
      ],
      [
        'users: ratedIndptr decreasing',
        udst(),
        (d) => k.userListsTo(d, n, Uint32Array.of(0, 1), users, 3, order, f, Uint32Array.of(0, 2, 1, 3), indices, uscratch),
      ],
    ];
    if (k === fast) {
      bad.push(
        ['items: scratch short', dst(), (d) => fast.itemListsTo(d, n, factors, ns, count, f, 0, count, scratch.subarray(1))],
        [
          'items: block not a multiple of 4',
          dst(),
          (d) => fast.itemListsTo(d, n, factors, ns, count, f, 0, count, new Float32Array(fast.listsScratchLength(count, f, n, 6)), 6),
        ],
        [
          'users: scratch short',
          udst(),
          (d) => fast.userListsTo(d, n, Uint32Array.of(0), users, 3, order, f, indptr, indices, uscratch.subarray(1)),
        ],
        ['users: block 0', udst(), (d) => fast.userListsTo(d, n, Uint32Array.of(0), users, 3, order, f, indptr, indices, uscratch, 0)],
        [
          'users: block 36',
          udst(),
          (d) =>
            fast.userListsTo(
              d,
              n,
              Uint32Array.of(0),
              users,
              3,
              order,
              f,
              indptr,
              indices,
              new Float32Array(fast.userListsScratchLength(f, n, 36)),
              36,
            ),
        ],
        [
          'users: byNorm item outside the items',
          udst(),
          (d) =>
            fast.userListsTo(
              d,
              n,
              Uint32Array.of(0),
              users,
              3,
              { ...order, order: Uint32Array.of(0, 1, 2, count) },
              f,
              indptr,
              indices,
              uscratch,
            ),
        ],
      );
    }
    for (const [what, d, call] of bad) {
      t.throws(() => call(d), `${k === fast ? 'fast' : 'twin'}: ${what}`);
      t.ok(
        d.every((x) => x === SENTINEL),
        `${k === fast ? 'fast' : 'twin'}: ${what}: dst untouched`,
      );
    }
    const d = dst();
    k.itemListsTo(d, n, factors, ns, count, f, 2, 2, scratch);
    t.ok(
      d.every((x) => x === SENTINEL),
      'an empty range writes nothing',
    );
    k.userListsTo(d.subarray(0, 3 * n), n, new Uint32Array(0), users, 3, order, f, indptr, indices, uscratch);
    t.ok(
      d.every((x) => x === SENTINEL),
      'no users writes nothing',
    );
  }
});
