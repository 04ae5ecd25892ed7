// Users' lists in WebAssembly SIMD (native-free-kernels/wasm-user-lists.ts) against their twins
// (lists.ts userListsTo and its reference): the same lists on random inputs up to swaps of items the
// twin scores equal within f32 rounding (the kernel sums in f32, the twins in f64), exactly the same
// on small-integer factors (exact sums, many ties: the tie order is checked); its early stop changes
// no list; lists agree with serving's ranking of the user's vector (vectorTopTo) less rated items;
// odd f, n beyond the items, users who rated everything, users of zeros, blocks past 32 users; bad
// input throws before writing; no room for four users' lists: false, nothing written.
import t from 'tap';
import * as fast from '../../native-free-kernels/lists.js';
import * as ref from '../../native-free-kernels/reference/lists.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { rowNormsTo } from '../../native-free-kernels/rows.js';
import { scoreRows } from '../../native-free-kernels/score-rows.js';
import { userListsSlotBytes, wasmUserListsTo } from '../../native-free-kernels/wasm-user-lists.js';
import { WasmRows } from '../../native-free-kernels/wasm-rows.js';

const EMPTY = 0xffffffff;
const SENTINEL = 0xabcdef;
const randInt = (rand: () => number, n: number) => Math.floor(rand() * n);
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, k) => a + k);

// Entries in {−1, 0, 1} when coarse, rows of zeros now and then, rows scaled over orders of
// magnitude when `spread` (as trained factors: the early stop then ends most scans soon).
function randomFactors(rand: () => number, rows: number, f: number, coarse: boolean, spread = false, zeroShare = 0.15): Float32Array {
  const out = new Float32Array(rows * f);
  for (let k = 0; k < out.length; k++) out[k] = coarse ? randInt(rand, 3) - 1 : (rand() - 0.5) * 4;
  for (let r = 0; r < rows; r++) {
    if (rand() < zeroShare) out.fill(0, r * f, (r + 1) * f);
    const scale = !spread ? 1 : coarse ? 2 ** -randInt(rand, 6) : Math.exp(-8 * rand());
    for (let k = r * f; k < (r + 1) * f; k++) out[k]! *= scale;
  }
  return out;
}

// Rated items as CSR rows: some users none, some every item, the last few beyond ratedIndptr.
function randomRatings(rand: () => number, users: number, items: number): { indptr: Uint32Array; indices: Uint32Array } {
  const rows = Math.max(0, users - randInt(rand, 3));
  const indptr = new Uint32Array(rows + 1),
    indices: number[] = [];
  for (let u = 0; u < rows; u++) {
    const kind = rand();
    for (let i = 0; i < items; i++) if (kind > 0.85 || (kind > 0.2 && rand() < 0.3)) indices.push(i);
    indptr[u + 1] = indices.length;
  }
  return { indptr, indices: Uint32Array.from(indices) };
}

// Item rows in wasm memory as scoreRows lays them out, with slots for lists of `listLength`.
function wasmRows(factors: Float32Array, items: number, f: number, listLength: number) {
  const norms = new Float32Array(items);
  rowNormsTo(norms, factors, items, f);
  const rows = WasmRows.allocate(items, f, 0, userListsSlotBytes(items, f, listLength))!;
  rows.factors.set(factors);
  rows.norms.set(norms);
  const s = rows.sorted;
  rows.sortedCount = fast.normOrderTo(s.order, s.norms, s.rows, factors, norms, items, f);
  return { rows, norms, byNorm: fast.normOrderOf(factors, norms, items, f) };
}

const dot = (a: Float32Array, x: number, b: Float32Array, y: number, f: number) => {
  let s = 0;
  for (let k = 0; k < f; k++) s += a[x + k]! * b[y + k]!;
  return s;
};

// The first slot where lists a and b differ by more than a swap of items scoring equal within 1e-5
// relative (by the twin's score), or undefined.
function disagreement(
  a: Uint32Array,
  b: Uint32Array,
  n: number,
  rows: Iterable<number>,
  score: (row: number, item: number) => number,
): string | undefined {
  for (const row of rows) {
    for (let p = row * n; p < row * n + n; p++) {
      const x = a[p]!,
        y = b[p]!;
      if (x === y) continue;
      const sx = score(row, x),
        sy = score(row, y);
      if (x === EMPTY || y === EMPTY || !(Math.abs(sx - sy) <= 1e-5 * Math.max(1, Math.abs(sx), Math.abs(sy))))
        return `row ${row} slot ${p - row * n}: ${x} (${sx}) vs ${y} (${sy})`;
    }
  }
  return undefined;
}

t.test("the twin's lists on random inputs", async (t) => {
  const rand = mulberry32(17);
  for (let trial = 0; trial < 160; trial++) {
    const items = randInt(rand, trial < 140 ? 60 : 700),
      f = randInt(rand, trial < 140 ? 14 : 70);
    const userRows = randInt(rand, trial < 140 ? 25 : 90),
      n = 1 + randInt(rand, items + 6);
    const coarse = trial % 3 === 0,
      spread = trial % 2 === 1;
    const itemFactors = randomFactors(rand, items, f, coarse, spread),
      userFactors = randomFactors(rand, userRows, f, coarse, false, 0.1);
    const { indptr, indices } = randomRatings(rand, userRows, items);
    const users = Uint32Array.from(
      range(0, userRows)
        .filter(() => rand() < 0.8)
        .sort(() => rand() - 0.5),
    );
    if (users.length > 0 && rand() < 0.2) users[0] = users[users.length - 1]!; // a user listed twice
    const label = `trial ${trial} items=${items} f=${f} users=${users.length}/${userRows} n=${n}${coarse ? ' coarse' : ''}${spread ? ' spread' : ''}`;
    const { rows, byNorm } = wasmRows(itemFactors, items, f, n);
    const a = new Uint32Array(userRows * n).fill(SENTINEL),
      b = new Uint32Array(userRows * n).fill(SENTINEL);
    t.ok(wasmUserListsTo(rows, a, n, users, userFactors, userRows, indptr, indices), `${label}: the kernel ran`);
    ref.userListsTo(b, n, users, userFactors, userRows, byNorm, f, indptr, indices, new Float32Array(0));
    const listed = new Set(users);
    if (!range(0, userRows).every((u) => listed.has(u) || a.subarray(u * n, u * n + n).every((x) => x === SENTINEL)))
      t.fail(`${label}: an unlisted user written`);
    if (coarse) t.same(Array.from(a), Array.from(b), `${label}: exactly the twin's lists`);
    else
      t.equal(
        disagreement(a, b, n, listed, (u, i) => Math.fround(dot(userFactors, u * f, itemFactors, i * f, f))),
        undefined,
        `${label}: the twin's lists`,
      );
    const packed = new Uint32Array(users.length * n).fill(SENTINEL);
    wasmUserListsTo(rows, packed, n, users, userFactors, userRows, indptr, indices, true);
    if (!Array.from(users).every((u, p) => packed.subarray(p * n, p * n + n).join() === a.subarray(u * n, u * n + n).join()))
      t.fail(`${label}: packed lists differ`);
  }
});

t.test('the early stop changes no list', async (t) => {
  const rand = mulberry32(29);
  for (let trial = 0; trial < 40; trial++) {
    const items = 50 + randInt(rand, 3000),
      f = 1 + randInt(rand, 48),
      userRows = 1 + randInt(rand, 70),
      n = 1 + randInt(rand, 64);
    const coarse = trial % 4 === 0;
    const itemFactors = randomFactors(rand, items, f, coarse, true, 0.05),
      userFactors = randomFactors(rand, userRows, f, coarse, false, 0.1);
    // Half the trials: rows nearly parallel to the users, so that each bound is nearly reached and
    // a bound without its slack ends scans too soon.
    const aligned = !coarse && trial % 2 === 1;
    if (aligned) {
      const d = Float32Array.from({ length: f }, () => rand() - 0.5);
      for (const [m, rows] of [
        [itemFactors, items],
        [userFactors, userRows],
      ] as const) {
        for (let r = 0; r < rows; r++) {
          const item = m === itemFactors,
            noise = item ? 0.1 * rand() : 0.001;
          for (let k = 0; k < f; k++) m[r * f + k] = d[k]! + noise * (rand() - 0.5);
          // Every fourth trial the items' norms are within 1e-5 of each other, their directions
          // further apart: the best rows come late in the norm order, and only the slack keeps
          // the bound from ending the scan before them.
          const length = Math.hypot(...m.subarray(r * f, (r + 1) * f));
          const scale = !item ? 1 : trial % 4 === 3 ? (1 + 1e-5 * rand()) / length : Math.exp(-3 * rand());
          for (let k = 0; k < f; k++) m[r * f + k]! *= scale;
        }
      }
    }
    const { indptr, indices } = randomRatings(rand, userRows, items);
    const users = Uint32Array.from(range(0, userRows));
    const label = `trial ${trial} items=${items} f=${f} users=${userRows} n=${n}${aligned ? ' aligned' : ''}`;
    const { rows, byNorm } = wasmRows(itemFactors, items, f, n);
    const stopped = new Uint32Array(userRows * n),
      full = new Uint32Array(userRows * n),
      twin = new Uint32Array(userRows * n);
    wasmUserListsTo(rows, stopped, n, users, userFactors, userRows, indptr, indices);
    rows.sorted.norms.fill(Infinity); // bounds that never stop a scan
    wasmUserListsTo(rows, full, n, users, userFactors, userRows, indptr, indices);
    t.same(Array.from(stopped), Array.from(full), `${label}: the lists of a scan of every item`);
    fast.userListsTo(
      twin,
      n,
      users,
      userFactors,
      userRows,
      byNorm,
      f,
      indptr,
      indices,
      new Float32Array(fast.userListsScratchLength(f, n)),
    );
    t.equal(
      disagreement(stopped, twin, n, users, (u, i) => Math.fround(dot(userFactors, u * f, itemFactors, i * f, f))),
      undefined,
      `${label}: the twin's lists`,
    );
  }
});

t.test("lists rank as serving ranks the user's vector, less rated items", async (t) => {
  const rand = mulberry32(43);
  for (const [items, f, n] of [
    [300, 8, 20],
    [1000, 32, 128],
    [777, 13, 50],
    [2000, 64, 200],
  ] as const) {
    const itemFactors = randomFactors(rand, items, f, false, true),
      userFactors = randomFactors(rand, 12, f, false, false, 0);
    const { indptr, indices } = randomRatings(rand, 12, items);
    const served = scoreRows(itemFactors, items, f, new Uint32Array(0), undefined, { listLength: n });
    const lists = new Uint32Array(12 * n);
    served.userListsTo(lists, n, Uint32Array.from(range(0, 12)), userFactors, 12, indptr, indices);
    const ranked = new Uint32Array(items),
      scores = new Float32Array(items);
    let same = 0;
    for (let u = 0; u < 12; u++) {
      const got = served.vectorTopTo(ranked, scores, items, userFactors.subarray(u * f, (u + 1) * f));
      const rated = new Set(indices.subarray(indptr[u], indptr[u + 1]));
      const want = Array.from(ranked.subarray(0, got))
        .filter((i) => !rated.has(i))
        .slice(0, n);
      while (want.length < n) want.push(EMPTY);
      if (want.join() === lists.subarray(u * n, (u + 1) * n).join()) same++;
    }
    t.equal(same, 12, `${items} items, f ${f}, lists of ${n}: each user's list is the head of their served ranking`);
  }
});

t.test('edge cases: n beyond the items, rated everything, zeros, blocks past 32 users', async (t) => {
  const rand = mulberry32(5);
  const items = 9,
    f = 5,
    n = 12,
    userRows = 75;
  const itemFactors = randomFactors(rand, items, f, true, false, 0.2),
    userFactors = randomFactors(rand, userRows, f, true, false, 0);
  userFactors.fill(0, 0, f); // user 0: every dot 0, the items by index
  const indptr = new Uint32Array(userRows + 1),
    indices: number[] = [];
  for (let u = 0; u < userRows; u++) {
    if (u === 1)
      indices.push(...range(0, items)); // user 1 rated everything
    else if (u % 3 === 0) indices.push(u % items);
    indptr[u + 1] = indices.length;
  }
  const rated = Uint32Array.from(indices);
  const { rows, norms, byNorm } = wasmRows(itemFactors, items, f, n);
  const users = Uint32Array.from(range(0, userRows));
  const a = new Uint32Array(userRows * n),
    b = new Uint32Array(userRows * n);
  t.ok(wasmUserListsTo(rows, a, n, users, userFactors, userRows, indptr, rated));
  ref.userListsTo(b, n, users, userFactors, userRows, byNorm, f, indptr, rated, new Float32Array(0));
  t.same(Array.from(a), Array.from(b), "the twin's lists, 75 users in blocks of 32");
  t.same(
    Array.from(a.subarray(0, n)),
    [...range(0, items).filter((i) => norms[i] !== 0 && i !== 0), ...new Array(n - byNorm.count + 1).fill(EMPTY)].slice(0, n),
    'a user of zeros: unrated items of norm > 0 by index, then empty',
  );
  t.ok(
    a.subarray(n, 2 * n).every((x) => x === EMPTY),
    'a user who rated everything: an empty list',
  );
  const none = new Uint32Array(userRows * n).fill(SENTINEL);
  t.ok(
    wasmUserListsTo(rows, none, n, new Uint32Array(0), userFactors, userRows, indptr, rated) && none.every((x) => x === SENTINEL),
    'no users: nothing written',
  );
  const zero = wasmRows(new Float32Array(items * f), items, f, n);
  t.ok(
    wasmUserListsTo(zero.rows, a, n, users, userFactors, userRows, indptr, rated) && a.every((x) => x === EMPTY),
    'no item of norm > 0: every list empty',
  );
});

t.test('bad input throws before writing; no room for the lists: false', async (t) => {
  const items = 4,
    f = 3,
    n = 2;
  const { rows } = wasmRows(randomFactors(mulberry32(3), items, f, false, false, 0), items, f, items);
  const users = new Float32Array(3 * f).fill(0.5);
  const indptr = Uint32Array.of(0, 2, 2, 3),
    indices = Uint32Array.of(1, 3, 0);
  const dst = () => new Uint32Array(3 * n).fill(SENTINEL);
  const bad: [string, Uint32Array, (d: Uint32Array) => unknown][] = [
    [
      'dst not userRows*n',
      new Uint32Array(3 * n - 1).fill(SENTINEL),
      (d) => wasmUserListsTo(rows, d, n, Uint32Array.of(0), users, 3, indptr, indices),
    ],
    ['packed dst not users*n', dst(), (d) => wasmUserListsTo(rows, d, n, Uint32Array.of(0), users, 3, indptr, indices, true)],
    ['user out of range (after a good one)', dst(), (d) => wasmUserListsTo(rows, d, n, Uint32Array.of(0, 3), users, 3, indptr, indices)],
    ['userFactors not userRows*f', dst(), (d) => wasmUserListsTo(rows, d, n, Uint32Array.of(0), users.subarray(1), 3, indptr, indices)],
    [
      'rated item out of range',
      dst(),
      (d) => wasmUserListsTo(rows, d, n, Uint32Array.of(0, 2), users, 3, indptr, Uint32Array.of(1, 3, items)),
    ],
    [
      'ratedIndptr past ratedIndices',
      dst(),
      (d) => wasmUserListsTo(rows, d, n, Uint32Array.of(0, 2), users, 3, Uint32Array.of(0, 2, 2, 4), indices),
    ],
    ['n fractional', dst(), (d) => wasmUserListsTo(rows, d, 1.5, Uint32Array.of(0), users, 3, indptr, indices)],
  ];
  for (const [what, d, call] of bad) {
    t.throws(() => call(d), what);
    t.ok(
      d.every((x) => x === SENTINEL),
      `${what}: dst untouched`,
    );
  }
  // Slots made for lists of every item serve longer lists (a heap holds the items there are);
  // slots made for none, over many items, leave no room for four heaps of 4,000.
  t.ok(
    wasmUserListsTo(rows, new Uint32Array(3 * 40), 40, Uint32Array.of(0, 1, 2), users, 3, indptr, indices),
    'heaps of the items there are',
  );
  const wide = WasmRows.allocate(5000, 2, 0)!;
  wide.sortedCount = 5000;
  const big = new Uint32Array(4000).fill(SENTINEL);
  t.equal(
    wasmUserListsTo(wide, big, 4000, Uint32Array.of(0), new Float32Array(2), 1, new Uint32Array(0), new Uint32Array(0)),
    false,
    'no room: false',
  );
  t.ok(
    big.every((x) => x === SENTINEL),
    'no room: nothing written',
  );
});
