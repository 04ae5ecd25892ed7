// Cold-start feature factors: the fast kernel agrees with its reference twin, a hand example, and bad input throws.
import t from 'tap';
import { mulberry32 } from '../../native-free-kernels/random.js';
import * as fast from '../../native-free-kernels/feature-factors.js';
import * as ref from '../../native-free-kernels/reference/feature-factors.js';

const randInt = (rand: () => number, n: number) => Math.floor(rand() * n);
const arr = (a: ArrayLike<number>) => Array.from(a);
const close = (a: number, b: number, tol = 1e-6) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));

interface Case {
  factors: Float32Array;
  nItems: number;
  f: number;
  trained: Uint8Array;
  featIndptr: Uint32Array;
  featIndices: Uint32Array;
  nFeatures: number;
  targets: Uint32Array;
}

// Scratch deliberately filled with junk: the kernel must not rely on it being zeroed.
function run(k: typeof fast, c: Case, factors = c.factors.slice()): { factors: Float32Array; returned: number } {
  const returned = k.featureFactorsTo(
    factors,
    c.nItems,
    c.f,
    c.trained,
    c.featIndptr,
    c.featIndices,
    c.nFeatures,
    c.targets,
    new Float64Array(c.nFeatures * c.f).fill(7),
    new Uint32Array(c.nFeatures).fill(3),
    new Float64Array(c.f).fill(-5),
  );
  return { factors, returned };
}

function csr(lists: number[][]): { featIndptr: Uint32Array; featIndices: Uint32Array } {
  const featIndptr = new Uint32Array(lists.length + 1);
  lists.forEach((l, i) => (featIndptr[i + 1] = featIndptr[i]! + l.length));
  return { featIndptr, featIndices: Uint32Array.from(lists.flat()) };
}

function randomCase(rand: () => number, trial: number): Case {
  const nItems = randInt(rand, 25);
  const f = trial % 17 === 0 ? 0 : 1 + randInt(rand, 6);
  const nFeatures = trial % 13 === 0 ? 0 : 1 + randInt(rand, 12);
  const density = rand() * 0.5;
  const noneTrained = trial % 7 === 0;
  const trainedShare = rand();
  const trained = new Uint8Array(nItems);
  for (let i = 0; i < nItems; i++) {
    // 2 and 255 must read as untrained, like the top-k mask.
    trained[i] = noneTrained ? (rand() < 0.2 ? 2 : 0) : rand() < trainedShare ? 1 : rand() < 0.1 ? 255 : 0;
  }
  // Features at or above `untrainedOnly` are given to untrained items only, so some targets' features are unknown.
  const untrainedOnly = randInt(rand, nFeatures + 1);
  const lists: number[][] = [];
  for (let i = 0; i < nItems; i++) {
    const l: number[] = [];
    if (rand() >= 0.2) {
      // some items have no features
      for (let j = 0; j < nFeatures; j++) if ((j < untrainedOnly || trained[i] !== 1) && rand() < density) l.push(j);
      if (l.length > 1 && rand() < 0.1) l.push(l[0]!); // a repeated feature counts twice
      for (let p = l.length - 1; p > 0; p--) {
        const q = randInt(rand, p + 1);
        [l[p], l[q]] = [l[q]!, l[p]!];
      }
    }
    lists.push(l);
  }
  const factors = new Float32Array(nItems * f);
  for (let k = 0; k < factors.length; k++) factors[k] = (rand() - 0.5) * 4;
  const candidates = [...Array(nItems).keys()].filter((i) => trained[i] !== 1);
  const targets = candidates.filter(() => rand() < 0.7);
  if (targets.length > 0 && rand() < 0.2) targets.push(targets[0]!); // a target listed twice
  return { factors, nItems, f, trained, ...csr(lists), nFeatures, targets: Uint32Array.from(targets) };
}

t.test('featureFactorsTo: hand-computed example', async (t) => {
  // Features: 0 colour=red, 1 colour=blue, 2 brand=acme, 3 brand=zeta (only on untrained items).
  const c: Case = {
    nItems: 8,
    f: 2,
    nFeatures: 4,
    factors: Float32Array.of(1, 2, 3, 4, 5, 0, 9, 9, 9, 9, 9, 9, 8, 8, 9, 9),
    trained: Uint8Array.of(1, 1, 1, 0, 0, 0, 0, 0),
    ...csr([[0, 2], [0], [1, 2], [0, 2], [3], [3, 1], [], []]),
    targets: Uint32Array.of(3, 4, 5, 7),
  };
  for (const k of [fast, ref]) {
    const { factors, returned } = run(k, c);
    t.same(arr(factors), [
      1,
      2,
      3,
      4,
      5,
      0, // trained rows untouched
      2.5,
      2, // item 3: mean of red [2, 3] and acme [3, 1]
      3,
      2, // item 4: zeta is unknown, so the global mean of the three trained rows
      5,
      0, // item 5: blue [5, 0]; zeta skipped
      8,
      8, // item 6: not a target, untouched
      3,
      2, // item 7: no features, global mean
    ]);
    t.equal(returned, 2, 'items 3 and 5 got feature-based rows');
  }
});

t.test('featureFactorsTo: nothing trained gives zeros; no targets changes nothing', async (t) => {
  for (const k of [fast, ref]) {
    const c: Case = {
      nItems: 3,
      f: 2,
      nFeatures: 2,
      factors: Float32Array.of(1, 1, 2, 2, 3, 3),
      trained: new Uint8Array(3),
      ...csr([[0], [0, 1], []]),
      targets: Uint32Array.of(0, 2),
    };
    const { factors, returned } = run(k, c);
    t.same(arr(factors), [0, 0, 2, 2, 0, 0]);
    t.equal(returned, 0);
    const none = run(k, { ...c, targets: new Uint32Array(0) });
    t.same(arr(none.factors), arr(c.factors));
    t.equal(none.returned, 0);
  }
});

t.test('featureFactorsTo: fast agrees with reference on random inputs', async (t) => {
  const rand = mulberry32(11);
  let featureBased = 0;
  let globalBased = 0;
  for (let trial = 0; trial < 600; trial++) {
    const c = randomCase(rand, trial);
    const a = run(fast, c);
    const b = run(ref, c);
    t.equal(a.returned, b.returned, `returned ${trial}`);
    featureBased += a.returned;
    globalBased += c.targets.length - a.returned;
    const isTarget = new Set(c.targets);
    let ok = true;
    for (let i = 0; i < c.nItems; i++) {
      for (let d = 0; d < c.f; d++) {
        const p = i * c.f + d;
        if (!close(a.factors[p]!, b.factors[p]!)) ok = false;
        if (!isTarget.has(i) && a.factors[p] !== c.factors[p]) ok = false; // only target rows are written
      }
    }
    t.ok(ok, `trial ${trial} nItems=${c.nItems} f=${c.f} nFeatures=${c.nFeatures} targets=${c.targets.length}`);
  }
  t.ok(featureBased > 100 && globalBased > 100, `both paths exercised: ${featureBased} feature-based, ${globalBased} global`);
});

t.test('featureFactorsTo: bad input throws before writing', async (t) => {
  const good = (): Case => ({
    nItems: 3,
    f: 2,
    nFeatures: 2,
    factors: Float32Array.of(1, 2, 3, 4, 5, 6),
    trained: Uint8Array.of(1, 0, 0),
    ...csr([[0], [0, 1], [1]]),
    targets: Uint32Array.of(1, 2),
  });
  const call = (k: typeof fast, c: Case, scratch: { sums?: number; counts?: number; mean?: number } = {}) =>
    k.featureFactorsTo(
      c.factors,
      c.nItems,
      c.f,
      c.trained,
      c.featIndptr,
      c.featIndices,
      c.nFeatures,
      c.targets,
      new Float64Array(scratch.sums ?? c.nFeatures * c.f),
      new Uint32Array(scratch.counts ?? c.nFeatures),
      new Float64Array(scratch.mean ?? c.f),
    );
  for (const k of [fast, ref]) {
    t.doesNotThrow(() => call(k, good()));
    const bad: [string, Case, { sums?: number; counts?: number; mean?: number }?][] = [
      ['factors too short', { ...good(), factors: new Float32Array(5) }],
      ['trained too long', { ...good(), trained: new Uint8Array(4) }],
      ['featIndptr too short', { ...good(), featIndptr: Uint32Array.of(0, 1, 3) }],
      ['featIndptr end != featIndices length', { ...good(), featIndices: Uint32Array.of(0, 0, 1) }],
      ['featIndptr not starting at 0', { ...good(), featIndptr: Uint32Array.of(1, 1, 3, 4) }],
      ['featIndptr decreasing', { ...good(), featIndptr: Uint32Array.of(0, 3, 2, 4) }],
      ['feature out of range', { ...good(), featIndices: Uint32Array.of(0, 0, 2, 1) }],
      ['target out of range', { ...good(), targets: Uint32Array.of(3) }],
      ['target marked trained', { ...good(), targets: Uint32Array.of(1, 0) }],
      ['negative f', { ...good(), f: -1 }],
      ['fractional nItems', { ...good(), nItems: 2.5 }],
      ['featureSums too short', good(), { sums: 3 }],
      ['featureCounts too long', good(), { counts: 3 }],
      ['mean too short', good(), { mean: 1 }],
    ];
    for (const [what, c, scratch] of bad) {
      const before = arr(c.factors);
      t.throws(() => call(k, c, scratch), what);
      t.same(arr(c.factors), before, `${what}: factors untouched`);
    }
  }
  t.throws(
    () => call(fast, { ...good(), factors: new Float32Array(5), trained: new Uint8Array(4) }),
    /factors length 5.*trained length 4/,
    'all length problems named at once',
  );
});
