// Score kernels (native-free-kernels/scores.ts) against their reference twin on random inputs, with
// NaN exactly where a row must not be ranked; the rankings built on them (rankings.ts) list what the
// twin's scores rank; bad input throws unwritten.
import t from 'tap';
import { mulberry32 } from '../../native-free-kernels/random.js';
import * as fast from '../../native-free-kernels/scores.js';
import * as ref from '../../native-free-kernels/reference/scores.js';
import { rowNormsTo, unitRowsTo } from '../../native-free-kernels/reference/rows.js';
import { allocateModel } from '../../src/engine/model/layout.js';
import { itemsForGroup, itemsForVector, scorable, similarItems } from '../../src/engine/scoring/rankings.js';

const randInt = (rand: () => number, n: number) => Math.floor(rand() * n);

// Agreement up to rounding (dotAt sums in four partial sums, the twin in one), NaN in the same places.
function agree(a: Float32Array, b: Float32Array, tol = 1e-5): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) {
    const x = a[k]!,
      y = b[k]!;
    if (Number.isNaN(x) || Number.isNaN(y)) {
      if (!(Number.isNaN(x) && Number.isNaN(y))) return false;
    } else if (Math.abs(x - y) > tol * Math.max(1, Math.abs(x), Math.abs(y))) return false;
  }
  return true;
}

function randomFactors(rand: () => number, rows: number, f: number): Float32Array {
  const out = new Float32Array(rows * f);
  for (let k = 0; k < out.length; k++) out[k] = (rand() - 0.5) * 4;
  for (let r = 0; r < rows; r++) if (rand() < 0.15) out.fill(0, r * f, (r + 1) * f);
  return out;
}

function norms(factors: Float32Array, n: number, f: number): Float32Array {
  const out = new Float32Array(n);
  rowNormsTo(out, factors, n, f);
  return out;
}

t.test('hand-computed examples', async (t) => {
  // rows: [1, 0], [0, 0], [1, 1], [−2, 0]
  const factors = Float32Array.of(1, 0, 0, 0, 1, 1, -2, 0);
  const ns = Float32Array.of(1, 0, Math.SQRT2, 2);
  for (const k of [fast, ref]) {
    const cos = new Float32Array(4);
    k.cosineScoresTo(cos, factors, ns, 4, 2, 0);
    t.same(Array.from(cos), [NaN, NaN, Math.fround(Math.SQRT1_2), -1], 'itself and rows of norm 0 are NaN');
    k.cosineScoresTo(cos, factors, ns, 4, 2, 1);
    t.ok(cos.every(Number.isNaN), 'a query of norm 0 scores nothing');
    const group = new Float32Array(4);
    k.groupScoresTo(group, factors, ns, 4, 2, [Float32Array.of(1, 0), Float32Array.of(0, 2)], 0.5);
    // row 0: dots 1, 0 → 0.5·0.5 + 0.5·0; row 2: 1, 2 → 0.75 + 0.5; row 3: −2, 0 → −0.5 − 1
    t.same(Array.from(group), [0.25, NaN, 1.25, -1.5]);
    k.groupScoresTo(group, factors, ns, 4, 2, [Float32Array.of(2, 3)], 0);
    t.same(Array.from(group), [2, NaN, 5, -4], 'one query, consensus 0: plain dots');
    const unit = Float32Array.of(1, 0, 0, 1, -1, 0); // three unit rows at positions 0..2
    const members = Uint32Array.of(7, 4, 9, 5);
    const pos = new Float32Array(3);
    k.positionScoresTo(pos, Float32Array.of(0.6, 0.8), unit, 3, 2, members, Uint32Array.of(2, 0, 1), 4);
    t.same(Array.from(pos), [-0.6, 0.6, NaN].map(Math.fround), 'the skipped member is NaN');
  }
});

t.test('fast agrees with reference on random inputs', async (t) => {
  const rand = mulberry32(47);
  for (let trial = 0; trial < 250; trial++) {
    const n = 1 + randInt(rand, 40),
      f = 1 + randInt(rand, 20);
    const factors = randomFactors(rand, n, f),
      ns = norms(factors, n, f);
    const label = `trial ${trial} n=${n} f=${f}`;
    const item = randInt(rand, n);
    const a = new Float32Array(n).fill(3),
      b = new Float32Array(n);
    fast.cosineScoresTo(a, factors, ns, n, f, item);
    ref.cosineScoresTo(b, factors, ns, n, f, item);
    t.ok(agree(a, b), `${label}: cosine scores`);

    const queries = Array.from({ length: 1 + randInt(rand, 4) }, () => Float32Array.from({ length: f }, () => rand() - 0.5));
    const consensus = [0, 1, rand()][trial % 3]!;
    fast.groupScoresTo(a, factors, ns, n, f, queries, consensus);
    ref.groupScoresTo(b, factors, ns, n, f, queries, consensus);
    t.ok(agree(a, b), `${label}: group scores (${queries.length} queries, consensus ${consensus})`);

    const listed = Uint32Array.from(
      Array.from({ length: n }, (_, i) => i)
        .filter((i) => ns[i] !== 0)
        .sort(() => rand() - 0.5),
    );
    const unit = new Float32Array(listed.length * f);
    unitRowsTo(unit, factors, ns, n, f, listed);
    const positions = Uint32Array.from({ length: randInt(rand, 2 * listed.length + 1) }, () => randInt(rand, listed.length));
    const members = new Uint32Array(n).fill(0xffffffff);
    members.set(listed);
    const skip = listed.length > 0 && rand() < 0.8 ? listed[randInt(rand, listed.length)]! : n + 1;
    const pa = new Float32Array(positions.length),
      pb = new Float32Array(positions.length);
    fast.positionScoresTo(pa, queries[0]!, unit, listed.length, f, members, positions, skip);
    ref.positionScoresTo(pb, queries[0]!, unit, listed.length, f, members, positions, skip);
    t.ok(agree(pa, pb), `${label}: position scores (${positions.length} positions)`);
  }
});

t.test('bad input throws before writing', async (t) => {
  const factors = Float32Array.of(1, 0, 0, 0, 1, 1),
    ns = Float32Array.of(1, 0, Math.SQRT2);
  const q = Float32Array.of(1, 1),
    unit = Float32Array.of(1, 0, 0, 1),
    members = Uint32Array.of(4, 5, 6);
  for (const k of [fast, ref]) {
    const three = new Float32Array(3).fill(9),
      two = new Float32Array(2).fill(9);
    const bad: [string, () => unknown, Float32Array][] = [
      ['cosine: dst not n', () => k.cosineScoresTo(two, factors, ns, 3, 2, 0), two],
      ['cosine: factors not n*f', () => k.cosineScoresTo(three, factors, ns, 3, 3, 0), three],
      ['cosine: norms not n', () => k.cosineScoresTo(three, factors, ns.subarray(1), 3, 2, 0), three],
      ['cosine: item out of range', () => k.cosineScoresTo(three, factors, ns, 3, 2, 3), three],
      ['group: query not f', () => k.groupScoresTo(three, factors, ns, 3, 2, [q, Float32Array.of(1)], 0), three],
      ['group: dst not n', () => k.groupScoresTo(two, factors, ns, 3, 2, [q], 0), two],
      ['positions: dst not positions', () => k.positionScoresTo(three, q, unit, 2, 2, members, Uint32Array.of(0, 1), 4), three],
      ['positions: rows not count*f', () => k.positionScoresTo(two, q, unit, 3, 2, members, Uint32Array.of(0, 1), 4), two],
      ['positions: position out of range', () => k.positionScoresTo(two, q, unit, 2, 2, members, Uint32Array.of(0, 2), 4), two],
      [
        'positions: members shorter than count',
        () => k.positionScoresTo(two, q, unit, 2, 2, members.subarray(0, 1), Uint32Array.of(0, 1), 4),
        two,
      ],
      ['positions: query not f', () => k.positionScoresTo(two, Float32Array.of(1), unit, 2, 2, members, Uint32Array.of(0, 1), 4), two],
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

// The rankings list the best items by the twin's scores (ties and near-ties aside: random scores).
t.test('rankings rank by the twin scores', async (t) => {
  const rand = mulberry32(5);
  for (let trial = 0; trial < 30; trial++) {
    const n = 5 + randInt(rand, 60),
      f = 1 + randInt(rand, 16);
    const { views } = allocateModel({ factors: f, users: 0, items: n, itemList: 0, userList: 0, trainedItems: n, lists: 0 });
    views.itemFactors.set(randomFactors(rand, n, f));
    const m = scorable(views),
      ns = norms(views.itemFactors, n, f);
    const depth = 1 + randInt(rand, n);
    const best = (scores: Float32Array) =>
      Array.from(scores.keys())
        .filter((i) => !Number.isNaN(scores[i]!))
        .sort((x, y) => scores[y]! - scores[x]! || x - y)
        .slice(0, depth);
    const scores = new Float32Array(n);
    const item = randInt(rand, n);
    ref.cosineScoresTo(scores, views.itemFactors, ns, n, f, item);
    t.same(Array.from(similarItems(m, item, depth).items), best(scores), `trial ${trial}: similarItems`);
    const queries = [0, 1, 2].map(() => Float32Array.from({ length: f }, () => rand() - 0.5));
    ref.groupScoresTo(scores, views.itemFactors, ns, n, f, queries, 0.3);
    t.same(Array.from(itemsForGroup(m, queries, 0.3, depth).items), best(scores), `trial ${trial}: itemsForGroup`);
    ref.groupScoresTo(scores, views.itemFactors, ns, n, f, queries.slice(0, 1), 0);
    t.same(Array.from(itemsForVector(m, queries[0]!, depth).items), best(scores), `trial ${trial}: itemsForVector`);
  }
});
